"""The console's home (issue 47): what needs someone now, each line linking to the page that deals
with it, and the set-up checklist; only what the person may open; the navigation's every link
answers for the person who sees it."""

import re
from datetime import timedelta

from sqlmodel import select

from appliance.backups.models import Backup
from appliance.broadcasts.models import Broadcast
from appliance.core import clock, runtime
from appliance.messages.models import Message
from appliance.outbound_webhooks.models import OutboundWebhook
from tests.broadcasts.conftest import Campaigns
from tests.browser_forms import sign_in
from tests.factories import add_member
from tests.fixtures import engines


def _lines(page: str) -> dict[str, str]:
    return {key: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).strip()
            for key, text in re.findall(r'data-attention="([a-z_]+)">(.*?)</li>', page, re.S)}


def _steps(page: str) -> dict[str, str]:
    return dict((key, state) for state, key in re.findall(r'<li class="(done|todo)" data-step="([a-z_]+)"', page))


def test_the_home_lists_what_needs_someone_and_links_to_where_it_is_dealt_with(client, line, hook):
    org = line.org_id
    sign_in(client, email="owner@example.com")
    assert client.get("/console").headers["Location"].endswith(f"/console/{org}/home")
    quiet = client.get(f"/console/{org}/home").text
    assert _lines(quiet) == {} and "Nothing needs you now" in quiet
    # On PostgreSQL the database's backups are PostgreSQL's own (backups/service.py): no first one to make here.
    backup_step = {} if engines.ON_POSTGRES else {"step_backup": "todo"}
    assert _steps(quiet) == {"step_business": "todo", "step_whatsapp": "done", "step_bot": "todo",
                             "step_team": "todo", **backup_step, "step_go_live": "todo"}

    # Two customers write; one is answered and that answer fails on the network.
    line.customer_writes(wa_id="5215500000001")
    line.customer_writes(wa_id="5215500000002", name="Luis")
    line.deliver()
    sent = line.api.post(f"/organizations/{org}/messages", {"phoneNumberId": line.number["id"], "to": "5215500000002",
                                                            "type": "text", "payload": {"body": "Sí, hay pan"}},
                         token=line.owner["token"])
    assert sent.status_code == 201, sent.json
    campaigns = Campaigns(line)
    campaigns.approved_template()
    ana = campaigns.contact("573001110001", "Ana")
    scheduled = campaigns.create(audience={"contactIds": [ana["id"]]}, templateName="oferta", templateLanguage="es",
                                 variables=["{{contact.name}}", "pan"],
                                 scheduledAt=(clock.now() + timedelta(days=1)).isoformat())
    assert scheduled.status_code == 201, scheduled.json
    webhook = line.api.post(f"/organizations/{org}/webhooks-outbound", {"url": hook.url, "events": ["message.created"]},
                            token=line.owner["token"])
    assert webhook.status_code == 201, webhook.json
    with runtime.get().db.unit_of_work(write=True) as session:  # what the network, a pause and a day of failures left
        message = session.exec(select(Message).where(Message.id == sent.json["data"]["id"])).one()
        message.status = "failed"
        session.exec(select(Broadcast).where(Broadcast.id == scheduled.json["data"]["id"])).one().status = "PAUSED"
        hook_row = session.exec(select(OutboundWebhook).where(OutboundWebhook.id == webhook.json["data"]["id"])).one()
        hook_row.failing_since = clock.now() - timedelta(days=2)
        session.add(Backup(id="01FAILED", kind="SCHEDULED", status="FAILED", reason="The disk is full.",
                           file_name="x.tar.gz", app_version="1", created_at=clock.now() - timedelta(hours=3)))

    page = client.get(f"/console/{org}/home").text
    lines = _lines(page)
    assert lines["waiting"].startswith("1 conversation waits for an answer The oldest since")
    assert lines["failed_sends"].startswith("1 message could not be sent in the last 24 hours")
    assert lines["paused_campaigns"].startswith("1 campaign is paused")
    assert lines["webhooks_failing"].startswith("1 webhook has failed for a day")
    if engines.ON_POSTGRES:  # a row from before a move to PostgreSQL calls nobody: its backups are its own
        assert "backup_failed" not in lines
    else:
        assert lines["backup_failed"].startswith("The last backup failed")
    for target in (f"/inbox/{org}", f"/console/{org}/broadcasts", f"/console/{org}/webhooks", "/console/backups"):
        assert f'href="{target}"' in page, target
    assert 'data-live-every="30"' in page  # it follows the day by itself

    spanish = client.get(f"/console/{org}/home", headers={"Accept-Language": "es"}).text
    assert "1 conversación espera respuesta" in spanish


def test_an_agent_sees_their_own_lines_only_and_every_link_of_their_navigation_opens(client, api, line):
    org = line.org_id
    line.customer_writes()
    line.deliver()
    add_member(api, org, "agent", "agent@example.com")
    sign_in(client, email="agent@example.com")
    page = client.get(f"/console/{org}/home")
    assert page.status_code == 200
    assert set(_lines(page.text)) == {"waiting"}  # no campaigns, webhooks or backups for an agent
    assert "step_team" not in _steps(page.text) and "step_backup" not in _steps(page.text)
    sheet = re.search(r'<nav class="nav-sheet".*?</nav>', page.text, re.S).group(0)
    links = re.findall(r'href="([^"]+)"', sheet)
    assert f"/console/{org}/team" in links and f"/console/{org}/api-keys" not in links and "/console/backups" not in links
    for href in links:
        assert client.get(href).status_code == 200, href


def test_another_organizations_home_is_refused_like_its_other_pages(client, api, owner, line):
    other = api.post("/organizations", {"name": "Otra", "slug": "otra", "billingEmail": "o@otra.test"},
                     token=api.signup("other@example.com")["tokens"]["accessToken"]).json["data"]
    sign_in(client, email="owner@example.com")
    assert client.get(f"/console/{other['id']}/home").status_code == client.get(
        f"/console/{other['id']}/organization").status_code
    assert client.get(f"/console/{other['id']}/home").status_code in (403, 404)
