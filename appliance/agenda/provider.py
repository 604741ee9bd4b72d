"""The organization's Google Calendar connection: the consent URL with a signed `state` (10
minutes, naming the organization and the person), the public callback that exchanges the code
(tokens sealed, the account read from the primary calendar), the switches, disconnecting, and a
valid access token for the calls (refreshed when it nears expiry). Google refusing the grant
(revoked in the person's Google account, or expired) disconnects with the reason: the agenda
stops pushing and the console says to connect again.

A `state` is used once and only by the browser that began the connection: it carries the hash of
a secret that only that browser holds (a cookie, agenda/pages.py), and its first use is counted
(`core.throttle`, one use in its lifetime), so a state seen in a log, a history or a referrer, or
replayed by a client with no session, connects nothing."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, delete, update

from appliance.agenda import managing
from appliance.agenda.models import Appointment, CalendarConnection
from appliance.core import clock, outside_calls, runtime, throttle
from appliance.core.actor import OrgActor
from appliance.core.crypto import random_token
from appliance.core.db import Database
from appliance.core.errors import AppError, Conflict, TooMany
from appliance.google_calendar.client import CalendarError, GoogleCalendar, GoogleEndpoints
from appliance.installation import public_address

STATE_SECONDS = 600
STATE_PURPOSE = "calendar-connect"
REFRESH_MARGIN = timedelta(minutes=2)


def google() -> GoogleCalendar | None:
    """The Google client of this installation, or None when no OAuth client is configured."""
    settings = runtime.get().settings
    if not settings.google_client_id or not settings.google_client_secret:
        return None
    return GoogleCalendar(GoogleEndpoints(settings.google_client_id, settings.google_client_secret,
                                          settings.google_auth_url, settings.google_token_url,
                                          settings.google_calendar_url))


def callback_url(organization_id: str) -> str:
    return public_address.url(f"/organizations/{organization_id}/agenda/calendar-provider/callback")


def connection_of(session: Session, organization_id: str) -> CalendarConnection:
    return session.get(CalendarConnection, organization_id) or CalendarConnection(
        organization_id=organization_id, updated_at=clock.now())


def status(session: Session, *, actor: OrgActor) -> dict:
    connection = connection_of(session, actor.organization_id)
    return {"connected": connection.connected, "provider": connection.provider, "account": connection.account,
            "push_enabled": connection.push_enabled, "block_busy_enabled": connection.block_busy_enabled,
            "last_sync_at": connection.last_sync_at, "last_error": connection.last_error,
            "available": google() is not None}


@dataclass(frozen=True)
class ConnectStart:
    url: str  # Google's consent page
    browser_secret: str  # for the browser that asked, and nobody else (agenda/pages.py keeps it in a cookie)


def start_connect(*, actor: OrgActor) -> ConnectStart:
    client = google()
    if client is None:
        raise Conflict("Google Calendar is not set up on this appliance: its administrator sets "
                       "APPLIANCE_GOOGLE_CLIENT_ID and APPLIANCE_GOOGLE_CLIENT_SECRET.", code="calendar_not_configured")
    managing.check_person(actor)
    keyring, secret = runtime.get().keyring, random_token(24)
    state = keyring.sign(STATE_PURPOSE, {"o": actor.organization_id, "u": actor.user_id,
                                         "b": keyring.token_hash(STATE_PURPOSE + secret)},
                         expires_at=clock.now().timestamp() + STATE_SECONDS)
    return ConnectStart(client.authorization_url(redirect_uri=callback_url(actor.organization_id), state=state),
                        secret)


def use_state(database: Database, organization_id: str, state: str, browser_secret: str) -> str | None:
    """The person a `state` was made for, if it is ours, unexpired, for this organization, presented
    by the browser that began it (its secret), used for the first time, and its maker may still
    manage the calendar; None otherwise. The use is written in a unit of its own, before Google is
    asked: it holds whatever happens next."""
    keyring = runtime.get().keyring
    data = keyring.verify(STATE_PURPOSE, state, now=clock.now().timestamp())
    if not data or data.get("o") != organization_id or not browser_secret or not hmac.compare_digest(
            str(data.get("b", "")), keyring.token_hash(STATE_PURPOSE + browser_secret)):
        return None
    with database.unit_of_work(write=True) as session:
        if not managing.still_manages(session, organization_id, data.get("u")):
            return None
        try:
            throttle.take(session, "calendar-state:" + keyring.token_hash(state), limit=1,
                          window_seconds=STATE_SECONDS)
        except TooMany:
            return None
    return data["u"]


def fetch_tokens(*, organization_id: str, code: str) -> tuple:
    """Google's answer to the callback's code: (tokens, account). Outside any transaction, within
    the limits of calls made for a request (core/outside_calls.py)."""
    client = google()
    if client is None:
        raise Conflict("Google Calendar is not set up on this appliance.", code="calendar_not_configured")

    def exchange():
        tokens = client.exchange(code=code, redirect_uri=callback_url(organization_id))
        return tokens, client.primary_calendar(tokens.access_token).get("id")
    try:
        return outside_calls.call(organization_id, exchange)
    except CalendarError as error:
        raise AppError(error.message, code="calendar_connect_failed") from None


def do_store_connection(session: Session, *, organization_id: str, user_id: str | None, tokens, account: str | None
                        ) -> CalendarConnection:
    keyring, now = runtime.get().keyring, clock.now()
    connection = connection_of(session, organization_id)
    connection.connected, connection.account = True, (account or "")[:320] or None
    connection.access_token_sealed = keyring.seal(tokens.access_token)
    connection.refresh_token_sealed = keyring.seal(tokens.refresh_token)
    connection.access_expires_at, connection.last_error = clock.now() + timedelta(seconds=tokens.expires_in), None
    connection.connected_by_user_id, connection.connected_at, connection.updated_at = user_id, now, now
    session.add(connection)
    # What is still ahead goes to the new calendar too (pushing is on unless turned off).
    if connection.push_enabled:
        session.exec(update(Appointment).where(Appointment.organization_id == organization_id,
                                               Appointment.status == "BOOKED", Appointment.end_at > now)
                     .values(sync_state="pending", provider_event_id=None, sync_error=None))
    session.flush()
    return connection


def do_record_refusal(session: Session, *, organization_id: str, reason: str) -> None:
    """The person declined on Google's page, or the exchange failed: said on the status."""
    connection = connection_of(session, organization_id)
    connection.last_error, connection.updated_at = reason[:300], clock.now()
    session.add(connection)
    session.flush()


def do_update(session: Session, *, actor: OrgActor, **changes) -> dict:
    connection = connection_of(session, actor.organization_id)
    if not connection.connected:
        raise Conflict("No calendar is connected.", code="calendar_not_connected")
    for name in ("push_enabled", "block_busy_enabled"):
        if name in changes:
            setattr(connection, name, changes[name])
    connection.updated_at = clock.now()
    session.add(connection)
    session.flush()
    return status(session, actor=actor)


def do_disconnect(session: Session, *, actor: OrgActor) -> dict:
    _forget(session, connection_of(session, actor.organization_id), None)
    return status(session, actor=actor)


def _forget(session: Session, connection: CalendarConnection, reason: str | None) -> None:
    """Tokens gone; nothing waits to be pushed (deleted appointments kept for their event go now)."""
    connection.connected, connection.access_token_sealed, connection.refresh_token_sealed = False, None, None
    connection.access_expires_at, connection.last_error, connection.updated_at = None, reason, clock.now()
    session.add(connection)
    mine = Appointment.organization_id == connection.organization_id
    session.exec(delete(Appointment).where(mine, Appointment.sync_state == "delete"))
    session.exec(update(Appointment).where(mine, Appointment.sync_state.is_not(None)).values(sync_state=None))
    session.flush()


def access_token(database, organization_id: str, *, force_refresh: bool = False, persist: bool = True) -> str | None:
    """A valid access token of the organization's connection (refreshed when it is about to
    expire), or None when not connected or Google refused the refresh. With `persist` the new
    token is stored and a revoked grant disconnects (with the reason), each in a short unit of
    work of its own: only from outside a request's write transaction (sync.py). A request that
    asks for busy times passes `persist=False`: it may hold the write lock, and the push after
    its commit stores and records what it finds."""
    keyring = runtime.get().keyring
    with database.unit_of_work(write=False) as session:
        connection = session.get(CalendarConnection, organization_id)
        if connection is None or not connection.connected or not connection.refresh_token_sealed:
            return None
        fresh = connection.access_expires_at and connection.access_expires_at - REFRESH_MARGIN > clock.now()
        if fresh and not force_refresh:
            return keyring.unseal(connection.access_token_sealed)
        refresh_token = keyring.unseal(connection.refresh_token_sealed)
    client = google()
    if client is None:
        return None
    try:
        tokens = client.refresh(refresh_token)
    except CalendarError as error:
        if persist:
            record_failure(database, organization_id, error)
        return None
    if not persist:
        return tokens.access_token
    with database.unit_of_work(write=True) as session:
        connection = session.get(CalendarConnection, organization_id)
        if connection is not None and connection.connected:
            connection.access_token_sealed = keyring.seal(tokens.access_token)
            connection.access_expires_at = clock.now() + timedelta(seconds=tokens.expires_in)
            connection.updated_at = clock.now()
            session.add(connection)
    return tokens.access_token


def record_failure(database, organization_id: str, error: CalendarError) -> None:
    """A revoked grant disconnects (the reason kept); other failures are noted as the last error."""
    with database.unit_of_work(write=True) as session:
        connection = session.get(CalendarConnection, organization_id)
        if connection is None or not connection.connected:
            return
        if error.kind == "revoked":
            _forget(session, connection, f"Google revoked access: {error.message}")
        else:
            connection.last_error, connection.updated_at = error.message[:300], clock.now()
            session.add(connection)
