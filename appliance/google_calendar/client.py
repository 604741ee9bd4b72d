"""Google's OAuth 2.0 endpoints through Authlib's requests client (the authorization URL, the code
exchange and refreshes: the protocol's details are Authlib's, well kept), and the Calendar API v3
calls the agenda makes (the primary calendar, events, free/busy) as plain JSON over requests.

Every call has a timeout. Failures become `CalendarError` with a kind the caller acts on:
`revoked` (the person withdrew access or the grant expired: reconnect), `unauthorized` (the access
token expired: refresh and try again), `not_found` (the event is gone), `unavailable` (timeouts,
5xx, 429: try later) and `refused` (anything else, with Google's message)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

import requests

if TYPE_CHECKING:
    from authlib.integrations.base_client.errors import OAuthError
    from authlib.integrations.requests_client import OAuth2Session

SCOPES = ("https://www.googleapis.com/auth/calendar.events", "https://www.googleapis.com/auth/calendar.readonly")
TIMEOUT = 10.0  # seconds per call: the agenda never waits longer on Google


class CalendarError(Exception):
    def __init__(self, kind: str, message: str, status: int = 0):
        super().__init__(message)
        self.kind, self.message, self.status = kind, message, status


@dataclass(frozen=True)
class Tokens:
    access_token: str
    refresh_token: str | None
    expires_in: int  # seconds from Google's answer: the caller's clock says when that is


@dataclass(frozen=True)
class GoogleEndpoints:
    client_id: str
    client_secret: str
    auth_url: str
    token_url: str
    calendar_url: str


def _tokens(answer: dict, refresh_token: str | None = None) -> Tokens:
    return Tokens(access_token=answer["access_token"], refresh_token=answer.get("refresh_token") or refresh_token,
                  expires_in=int(answer.get("expires_in") or 3600))


def _oauth_failure(error: OAuthError) -> CalendarError:
    if error.error in ("invalid_grant", "unauthorized_client", "access_denied"):
        return CalendarError("revoked", f"Google refused the grant ({error.error}): connect the calendar again.")
    if error.error == "invalid_client":
        return CalendarError("refused", "Google does not know this client id and secret: check the settings "
                                        "APPLIANCE_GOOGLE_CLIENT_ID and APPLIANCE_GOOGLE_CLIENT_SECRET.")
    return CalendarError("refused", f"Google answered {error.error}: {error.description or ''}".strip())


class GoogleCalendar:
    """One per call site; holds no tokens (they are the organization's, passed in)."""

    def __init__(self, endpoints: GoogleEndpoints, *, timeout: float = TIMEOUT):
        self.endpoints, self.timeout = endpoints, timeout

    def _session(self, redirect_uri: str | None = None) -> OAuth2Session:
        # authlib's OAuth client (~1 MB, ~25 ms) on the first call to Google, not at start (issue 46, footprint).
        from authlib.integrations.requests_client import OAuth2Session

        return OAuth2Session(self.endpoints.client_id, self.endpoints.client_secret, scope=" ".join(SCOPES),
                             redirect_uri=redirect_uri, timeout=self.timeout)

    # OAuth ---------------------------------------------------------------------------------------

    def authorization_url(self, *, redirect_uri: str, state: str) -> str:
        """Where the person consents; `access_type=offline` and `prompt=consent` so a refresh token
        comes back every time (Google sends one only on the first consent otherwise)."""
        url, _ = self._session(redirect_uri).create_authorization_url(
            self.endpoints.auth_url, state=state, access_type="offline", prompt="consent", include_granted_scopes="true")
        return url

    def exchange(self, *, code: str, redirect_uri: str) -> Tokens:
        from authlib.integrations.base_client.errors import OAuthError  # on first use (see _session)

        try:
            answer = self._session(redirect_uri).fetch_token(self.endpoints.token_url, code=code,
                                                             grant_type="authorization_code")
        except OAuthError as error:
            raise _oauth_failure(error) from None
        except requests.RequestException as error:
            raise CalendarError("unavailable", f"Google could not be reached ({type(error).__name__}).") from None
        if not answer.get("refresh_token"):
            raise CalendarError("refused", "Google gave no refresh token: remove the appliance's access in your "
                                           "Google account and connect again.")
        return _tokens(answer)

    def refresh(self, refresh_token: str) -> Tokens:
        from authlib.integrations.base_client.errors import OAuthError  # on first use (see _session)

        try:
            answer = self._session().refresh_token(self.endpoints.token_url, refresh_token=refresh_token)
        except OAuthError as error:
            raise _oauth_failure(error) from None
        except requests.RequestException as error:
            raise CalendarError("unavailable", f"Google could not be reached ({type(error).__name__}).") from None
        return _tokens(answer, refresh_token)

    # Calendar API --------------------------------------------------------------------------------

    def _call(self, method: str, path: str, access_token: str, body: dict | None = None) -> Any:
        try:
            answer = requests.request(method, self.endpoints.calendar_url.rstrip("/") + path, json=body,
                                      headers={"Authorization": f"Bearer {access_token}"}, timeout=self.timeout)
        except requests.RequestException as error:
            raise CalendarError("unavailable", f"Google Calendar could not be reached ({type(error).__name__}).") from None
        if answer.status_code == 204 or (answer.ok and not answer.content):
            return None
        try:
            data = answer.json()
        except ValueError:
            raise CalendarError("unavailable", f"Google Calendar answered {answer.status_code} without JSON.",
                                answer.status_code) from None
        if answer.ok:
            return data
        message = ((data.get("error") or {}).get("message") if isinstance(data.get("error"), dict) else None) \
            or str(data.get("error") or answer.reason)
        status = answer.status_code
        if status == 401:
            raise CalendarError("unauthorized", message, status)
        if status in (404, 410):
            raise CalendarError("not_found", message, status)
        if status == 429 or status >= 500:
            raise CalendarError("unavailable", message, status)
        if status == 403 and "insufficient" in message.lower():
            raise CalendarError("revoked", f"The calendar access lacks a permission ({message}): connect again.", status)
        raise CalendarError("refused", message, status)

    def primary_calendar(self, access_token: str) -> dict:
        return self._call("GET", "/calendars/primary", access_token)

    def create_event(self, access_token: str, event: dict) -> str:
        return self._call("POST", "/calendars/primary/events", access_token, event)["id"]

    def update_event(self, access_token: str, event_id: str, event: dict) -> None:
        self._call("PATCH", f"/calendars/primary/events/{requests.utils.quote(event_id, safe='')}", access_token, event)

    def delete_event(self, access_token: str, event_id: str) -> None:
        try:
            self._call("DELETE", f"/calendars/primary/events/{requests.utils.quote(event_id, safe='')}", access_token)
        except CalendarError as error:
            if error.kind != "not_found":  # already gone: what was wanted
                raise

    def busy(self, access_token: str, start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
        """The primary calendar's busy spans between `start` and `end` (UTC)."""
        answer = self._call("POST", "/freeBusy", access_token, {
            "timeMin": start.astimezone(timezone.utc).isoformat().replace("+00:00", "Z"),
            "timeMax": end.astimezone(timezone.utc).isoformat().replace("+00:00", "Z"),
            "items": [{"id": "primary"}]})
        spans = []
        for span in ((answer.get("calendars") or {}).get("primary") or {}).get("busy") or []:
            try:
                spans.append((datetime.fromisoformat(span["start"].replace("Z", "+00:00")),
                              datetime.fromisoformat(span["end"].replace("Z", "+00:00"))))
            except (KeyError, TypeError, ValueError):
                continue  # a span we cannot read blocks nothing rather than failing the agenda
        return spans
