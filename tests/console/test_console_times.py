"""Issue 43, item 14: times on pages are on the organization's clock, with its zone named where
people compare them (decisions, "First-day rules"). An organization in Pacific/Auckland, far from
UTC, sees a webhook delivery's time and a survey comment's time as Auckland's clocks show them.
A snooze "until tomorrow" wakes at nine on that clock too. (The inbox's script:
tests/e2e/test_live_pages_browser.py, with the browser in another zone.)"""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from appliance.core import clock, runtime
from appliance.surveys import sender
from tests.browser_forms import csrf_of, sign_in
from tests.console.test_console_surveys import _settings

AUCKLAND = ZoneInfo("Pacific/Auckland")


def _in_auckland(iso: str, pattern: str) -> str:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(AUCKLAND).strftime(pattern)


def _far_from_utc(api, owner_or_line) -> None:
    org, token = (owner_or_line["org"]["id"], owner_or_line["token"]) if isinstance(owner_or_line, dict) else \
        (owner_or_line.org_id, owner_or_line.owner["token"])
    assert api.patch(f"/organizations/{org}", {"timezone": "Pacific/Auckland"}, token=token).status_code == 200


def test_a_webhook_delivery_is_shown_on_the_organizations_clock(client, api, owner, hook):
    org = owner["org"]["id"]
    _far_from_utc(api, owner)
    made = api.post(f"/organizations/{org}/webhooks-outbound", {"url": hook.url, "events": ["message.created"]},
                    token=owner["token"]).json["data"]
    assert api.post(f"/organizations/{org}/webhooks-outbound/{made['id']}/test", token=owner["token"]).status_code < 300
    [delivery] = api.get(f"/organizations/{org}/webhooks-outbound/{made['id']}/deliveries",
                         token=owner["token"]).json["data"]["items"]
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org}/webhooks/{made['id']}").text
    assert _in_auckland(delivery["createdAt"], "%Y-%m-%d %H:%M:%S") in page  # before: UTC's clock, unnamed
    assert "Times in Pacific/Auckland" in page  # named: people compare it with their receiver's log


def test_a_survey_comment_is_shown_on_the_organizations_clock(client, api, line):
    org = line.org_id
    _far_from_utc(api, line)
    sign_in(client, email="owner@example.com")
    assert client.post(f"/console/{org}/surveys/settings", data=_settings(
        client.get(f"/console/{org}/surveys/settings"), ask_comment="1")).status_code == 302
    line.customer_writes({"type": "text", "text": {"body": "hola"}})
    line.deliver()
    [conversation] = line.get("/conversations")["items"]
    api.patch(f"/organizations/{org}/conversations/{conversation['id']}/status", {"status": "closed"},
              token=line.owner["token"])
    sender.send_due(runtime.get().db)
    sent = line.get(f"/conversations/{conversation['id']}/messages")["items"]
    button = next(m for m in sent if m["sentBy"] == "survey")["payload"]["action"]["buttons"][0]["reply"]
    line.customer_writes({"type": "interactive", "interactive": {"type": "button_reply", "button_reply": button}})
    line.deliver()
    line.customer_writes({"type": "text", "text": {"body": "Muy amables, gracias"}})
    line.deliver()
    [comment] = line.get("/surveys/results")["comments"]
    assert comment["text"] == "Muy amables, gracias"
    page = client.get(f"/console/{org}/surveys").text
    assert "Muy amables, gracias" in page
    assert _in_auckland(comment["at"], "%Y-%m-%d %H:%M") in page and "UTC" not in page  # before: "... UTC"
    assert "Times in Pacific/Auckland" in page


def test_snoozed_until_tomorrow_wakes_at_nine_on_the_organizations_clock(client, api, line):
    """The inbox's "until tomorrow" (before: 09:00 UTC, 21:00 or 22:00 in Auckland)."""
    _far_from_utc(api, line)
    line.customer_writes()
    line.deliver()
    [conversation] = line.get("/conversations")["items"]
    sign_in(client, email="owner@example.com")
    page = client.get(f"/inbox/{line.org_id}/c/{conversation['id']}")
    snoozed = client.post(f"/inbox/{line.org_id}/c/{conversation['id']}/do/snooze",
                          data={"csrf": csrf_of(page), "until": "tomorrow"})
    assert snoozed.status_code == 303
    until = datetime.fromisoformat(line.get(f"/conversations/{conversation['id']}")["snoozedUntil"].replace("Z", "+00:00"))
    tomorrow = clock.now().astimezone(AUCKLAND).date() + timedelta(days=1)
    assert until.astimezone(AUCKLAND).replace(tzinfo=None) == datetime.combine(tomorrow, time(9))
    shown = client.get(f"/inbox/{line.org_id}/c/{conversation['id']}").text
    assert f'{tomorrow.strftime("%d/%m")} 09:00' in shown  # the panel says so, on the same clock
