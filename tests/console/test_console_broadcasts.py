"""The console's campaign pages without JavaScript (issue 21): the wizard's choices reload it by
GET, the values fill the preview for a sample contact, the audience shows its counts and opt-outs,
a campaign is created and runs; its page shows the counts and the recipients, exports them as CSV,
retries the failed ones and cancels a scheduled one; a member without broadcasts:write sees the
pages without their buttons; mistakes come back by field."""

import csv
import io
from datetime import timedelta

import requests

from appliance.core import clock, runtime
from appliance.memberships import service as memberships_service
from tests import factories
from tests.broadcasts.conftest import Campaigns
from tests.browser_forms import csrf_of, sign_in


def test_the_wizard_creates_a_campaign_that_runs_and_its_page_follows_it(client, line, simulator):
    campaigns = Campaigns(line)
    campaigns.approved_template()
    ana = campaigns.contact("573001110001", "Ana", ciudad="Bogotá")
    luis = campaigns.contact("573001110002", None)
    eva = campaigns.contact("573001110003", "Eva")
    campaigns.call("POST", f"/contacts/{eva['id']}/opt-ins", {"type": "OUT"})
    vip = campaigns.contact_list("VIP", [ana, luis, eva])
    simulator.network.customer("573001110002", on_whatsapp=False)
    org = line.org_id
    sign_in(client, email="owner@example.com")
    assert "No campaigns yet" in client.get(f"/console/{org}/broadcasts").text

    new = f"/console/{org}/broadcasts/new"
    number = line.number["id"]
    first = client.get(new).text  # one number: chosen already; its approved templates offered
    assert "oferta (es)" in first and "VIP" in first and "1 opted out" in first
    listing = campaigns.call("GET", "/templates").json["data"]["items"]
    template_id = next(t["id"] for t in listing if t["name"] == "oferta")
    chosen = client.get(new, query_string={"number": number, "template": template_id, "lists": vip,
                                           "body_1": "{{contact.name|cliente}}", "body_2": "pan"}).text
    assert "Value {{1}}" in chosen and "As Ana will see it" in chosen and "Hola Ana, esta semana pan con descuento" in chosen
    assert "<strong data-reachable>2</strong>" in chosen  # Eva opted out

    form = {"csrf": csrf_of(client.get(new)), "name": "Semana", "number": number, "template": template_id,
            "lists": vip, "body_1": "{{contact.name|cliente}}", "body_2": "", "when": "now"}
    wrong = client.post(new, data=form)
    assert wrong.status_code == 400 and 'value="Semana"' in wrong.text  # an empty value: said, nothing made
    made = client.post(new, data=form | {"body_2": "pan"})
    assert made.status_code == 302, made.text
    page = made.headers["Location"].split("?")[0]
    shown = client.get(page).text
    assert "Semana" in shown and "Done" in shown and "Retry the 1 failed" in shown
    assert "131026" in shown and "opted out" in shown and "Confirm the number with the customer" in shown
    exported = client.get(f"{page}/recipients.csv")
    assert exported.status_code == 200 and exported.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(exported.text.lstrip("\ufeff"))))
    assert {(r["phone"], r["status"]) for r in rows} == {("+573001110001", "sent"), ("+573001110002", "failed"),
                                                         ("+573001110003", "skipped")}
    retried = client.post(f"{page}/retry", data={"csrf": csrf_of(client.get(page))})
    assert retried.status_code == 302  # 131026 is left as it was: the customer is not on WhatsApp
    failed_tab = client.get(page, query_string={"filter": "failed"}).text
    assert "131026" in failed_tab and "Ana" not in failed_tab

    later = (clock.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    scheduled = client.post(new, data=form | {"body_2": "pan", "when": "later", "at": later,
                                              "csrf": csrf_of(client.get(new))})
    assert scheduled.status_code == 302
    scheduled_page = scheduled.headers["Location"].split("?")[0]
    assert "Scheduled" in client.get(scheduled_page).text
    cancelled = client.post(f"{scheduled_page}/cancel", data={"csrf": csrf_of(client.get(scheduled_page))})
    assert cancelled.status_code == 302 and "Cancelled" in client.get(scheduled_page).text
    listing_page = client.get(f"/console/{org}/broadcasts").text
    assert "Semana" in listing_page and "<progress" in listing_page


def test_who_may_not_change_campaigns_sees_them_without_buttons_and_spanish_is_spoken(client, line, api):
    campaigns = Campaigns(line)
    campaigns.approved_template()
    ana = campaigns.contact("573001110001", "Ana")
    made = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]})
    org = line.org_id
    role = api.post(f"/organizations/{org}/roles", {"name": "Marketing viewer",
                                                     "permissions": ["broadcasts:read", "organizations:read"]},
                    token=line.owner["token"])
    assert role.status_code == 201, role.json
    factories.add_member(api, org, "agent", "agente@example.com")
    sign_in(client, email="agente@example.com")
    assert "Campaigns" not in client.get(f"/console/{org}/contacts").text  # agents: no such section
    assert client.get(f"/console/{org}/broadcasts").status_code == 403
    viewer = factories.person(api, email="vista@example.com")
    with runtime.get().db.unit_of_work(write=True) as session:
        memberships_service.do_add_member(session, organization_id=org, user_id=viewer["user"]["id"],
                                          role_id=role.json["data"]["id"])
    client = client.application.test_client()  # another browser
    sign_in(client, email="vista@example.com")
    page = client.get(f"/console/{org}/broadcasts/{made.json['data']['id']}")
    assert page.status_code == 200
    assert "Retry" not in page.text and "Cancel the campaign" not in page.text and "New campaign" not in page.text
    assert client.get(f"/console/{org}/broadcasts/new").status_code == 403
    spanish = client.get(f"/console/{org}/broadcasts", headers={"Accept-Language": "es"}).text
    assert "Campañas" in spanish and "Terminada" in spanish


def test_the_page_follows_a_scheduled_campaign_live(client, line):
    """(What it hears: tests/console/test_console_live.py.)"""
    campaigns = Campaigns(line)
    campaigns.approved_template()
    ana = campaigns.contact("573001110001", "Ana")
    made = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]},
                            scheduledAt=(clock.now() + timedelta(hours=1)).isoformat())
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{line.org_id}/broadcasts/{made.json['data']['id']}").text
    assert 'data-live-events="broadcast.updated message.updated"' in page and "Scheduled" in page
    assert 'data-live-count="pending">1<' in page
    assert requests.get(f"{line.netsim_url}/_control/sent", timeout=5).json()["data"] == []  # scheduled: nothing yet


def test_a_send_cut_short_by_a_restart_may_be_retried_and_the_page_says_what_that_means(client, line):
    """Issue 44, item 14: recipients in the air at a crash fail -3 ("may have been sent"); the
    campaign's page says so, offers them to a person's retry and warns that they may get it twice."""
    from appliance.core.rows import driver_connection
    from appliance.messages.sending import queue

    campaigns = Campaigns(line)
    campaigns.approved_template()
    ana = campaigns.contact("573001110001", "Ana")
    created = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]})
    broadcast_id = created.json["data"]["id"]
    [row] = campaigns.recipients(broadcast_id)["items"]
    with runtime.get().db.unit_of_work(write=True) as session:  # in the air when the server stopped
        driver_connection(session).execute("UPDATE messages SET status = 'pending', send_state = 'inflight', "
                                           "wamid = NULL WHERE id = ?", (row["messageId"],))
    assert queue.recover_interrupted(runtime.get().db) == 1  # what the next start does
    sign_in(client, email="owner@example.com")
    page = f"/console/{line.org_id}/broadcasts/{broadcast_id}"
    shown = client.get(page).text
    assert "-3 · Sending interrupted by a restart" in shown
    assert "check the conversation before sending it again" in shown and "Retry the 1 failed" in shown
    assert 'data-confirm="Send the message again to every failed recipient? Those whose send was cut short' in shown
    assert client.post(f"{page}/retry", data={"csrf": csrf_of(client.get(page))}).status_code == 302
    [again] = campaigns.recipients(broadcast_id)["items"]
    assert again["attempts"] == 2 and again["status"] == "sent" and len(campaigns.network_got()) == 2
