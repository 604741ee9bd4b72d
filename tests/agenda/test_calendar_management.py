"""Issue 44, finding 10: a plain agent took over the organization's calendar (made the ICS feed's
address and kept reading it after being removed, disconnected Google and reconnected it to an
account of their choosing), and one OAuth `state` was accepted twice, by a client with no session.

Organization-wide integrations (the calendar connection, the feed's address, webhooks, AI providers)
are managed only with their `:write` permission (the calendar's: `integrations:write`); the feed's
address stops working once its maker may no longer make it; a state works once, and only for the
browser that began the connection."""

from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from appliance.netsim.google_double import CLIENT_ID, CLIENT_SECRET
from tests import factories
from tests.browser_forms import csrf_of, sign_in
from tests.problems import assert_problem


@pytest.fixture
def settings(settings, netsim_url):
    return settings.replace(google_client_id=CLIENT_ID, google_client_secret=CLIENT_SECRET,
                            google_auth_url=f"{netsim_url}/google/o/oauth2/v2/auth",
                            google_token_url=f"{netsim_url}/google/token",
                            google_calendar_url=f"{netsim_url}/google/calendar/v3")


def _membership_of(api, org, token, email) -> str:
    members = api.get(f"/organizations/{org}/memberships", token=token).json["data"]
    return next(m["id"] for m in members if m["email"] == email)


def test_a_plain_agent_manages_no_organization_wide_integration(api, client, owner):
    org = owner["org"]["id"]
    agent = factories.add_member(api, org, "agent", "agente@example.com")
    agenda = f"/organizations/{org}/agenda"
    assert api.post(f"{agenda}/appointments", {"title": "x", "start": "2030-01-01T10:00:00Z",
                                               "end": "2030-01-01T10:30:00Z"}, token=agent).status_code == 201
    for answer in (api.post(f"{agenda}/feed-token", token=agent), api.get(f"{agenda}/calendar-provider/connect", token=agent),
                   api.delete(f"{agenda}/calendar-provider", token=agent),
                   api.patch(f"{agenda}/calendar-provider", {"pushEnabled": False}, token=agent),
                   api.post(f"/organizations/{org}/webhooks-outbound", {"url": "https://hooks.example/x", "events": ["webhook.test"]},
                            token=agent),
                   api.put(f"/organizations/{org}/bot/providers/OPENAI", {"apiKey": "sk-mine"}, token=agent)):
        assert_problem(answer, 403, "permission_missing")

    sign_in(client, email="agente@example.com")
    page = client.get(f"/console/{org}/agenda/calendar")
    assert page.status_code == 200 and "/agenda/feed" not in page.text and "/calendar/connect" not in page.text
    assert "owner or admin" in page.text
    for action in ("feed", "calendar/connect", "calendar/disconnect", "calendar"):
        assert client.post(f"/console/{org}/agenda/{action}", data={"csrf": csrf_of(page)}).status_code == 403


def test_the_feed_stops_working_once_its_maker_was_removed(api, client, owner):
    org = owner["org"]["id"]
    admin = factories.add_member(api, org, "admin", "admin@example.com")
    url = api.post(f"/organizations/{org}/agenda/feed-token", token=admin).json["data"]["url"]
    feed = urlsplit(url).path
    assert client.get(feed).status_code == 200
    removed = api.delete(f"/organizations/{org}/memberships/{_membership_of(api, org, owner['token'], 'admin@example.com')}",
                         token=owner["token"])
    assert removed.status_code in (200, 204), removed.json
    assert_problem(client.get(feed), 404, "calendar_feed_not_found")

    mine = urlsplit(api.post(f"/organizations/{org}/agenda/feed-token", token=owner["token"]).json["data"]["url"]).path
    assert client.get(mine).status_code == 200  # the owner's own stays


def test_an_api_key_makes_no_feed_address_nobody_could_later_answer_for(api, owner):
    org = owner["org"]["id"]
    key = api.post(f"/organizations/{org}/api-keys", {"name": "cal", "scopes": ["integrations:write"]},
                   token=owner["token"]).json["data"]["secret"]
    answer = api.client.post(f"/organizations/{org}/agenda/feed-token", headers={"X-Api-Key": key})
    assert_problem(answer, 400, "person_required")


def _consent(api, owner, netsim_url):
    """Connect asked by the owner's browser: (state, a code Google gave for it, the callback path)."""
    org = owner["org"]["id"]
    consent = api.get(f"/organizations/{org}/agenda/calendar-provider/connect", token=owner["token"])
    assert consent.status_code == 200, consent.json
    assert "calendar_connect=" in consent.headers["Set-Cookie"] and "HttpOnly" in consent.headers["Set-Cookie"]
    query = {k: v[0] for k, v in parse_qs(urlsplit(consent.json["data"]["url"]).query).items()}

    def code():
        decided = requests.get(f"{netsim_url}/google/o/oauth2/v2/decide", params={**query, "decision": "allow"},
                               allow_redirects=False, timeout=5)
        return parse_qs(urlsplit(decided.headers["Location"]).query)["code"][0]
    return query["state"], code, f"/organizations/{org}/agenda/calendar-provider/callback"


def test_a_state_works_once_and_only_in_the_browser_that_began_it(app, api, owner, netsim_url):
    state, code, callback = _consent(api, owner, netsim_url)
    stranger = app.test_client()  # no session, no cookie: the state alone connects nothing
    landed = stranger.get(f"{callback}?state={state}&code={code()}")
    assert landed.headers["Location"].endswith("done=calendar_state_invalid")

    secret = api.client.get_cookie("calendar_connect", path=callback).value
    landed = api.client.get(f"{callback}?state={state}&code={code()}")
    assert landed.headers["Location"].endswith("done=calendar_connected")
    status = api.get(f"/organizations/{owner['org']['id']}/agenda/calendar-provider/status", token=owner["token"])
    assert status.json["data"]["connected"] is True

    api.client.set_cookie("calendar_connect", secret, path=callback)  # the same browser, the same state again
    replayed = api.client.get(f"{callback}?state={state}&code={code()}")
    assert replayed.headers["Location"].endswith("done=calendar_state_invalid")
