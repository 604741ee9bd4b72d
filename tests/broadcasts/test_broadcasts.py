"""Broadcasts through the API, end to end against the simulator: personalized variables, opt-outs,
live counts from the network's statuses, replies, cancel, retry-failed, pausing on a template the
network stopped, and the ugly inputs. A broadcast's run, its start at its time and its pause and
resume run twice: inline, and on the server's threads with the clock held (tests/fixtures/workers.py)."""

from datetime import timedelta

import requests

from appliance.broadcasts import tasks as broadcast_tasks
from appliance.core import clock
from tests import factories
from tests.factories import another_number
from tests.problems import assert_problem
from tests.waiting import eventually


def _after(background, seconds):
    """`seconds` later, whoever runs broadcasts: inline the minute check runs, as the queue's
    scheduler would run it; the server's thread wakes by itself."""
    background.advance(seconds, broadcast_tasks.broadcasts_minute_check)


def _three(campaigns):
    ana = campaigns.contact("573001110001", "Ana", ciudad="Bogotá")
    luis = campaigns.contact("573001110002", None, ciudad="Cali")
    eva = campaigns.contact("573001110003", "Eva")
    return ana, luis, eva


def test_a_personalized_broadcast_reaches_everyone_once_and_counts_follow_the_network(campaigns, background):
    template = campaigns.approved_template()
    ana, luis, eva = _three(campaigns)
    vip = campaigns.contact_list("VIP", [ana, luis])
    created = campaigns.create(templateName="oferta", templateLanguage="es",
                               variables=["{{contact.name|cliente}}", "{{contact.attributes.ciudad|su ciudad}}"],
                               audience={"contactListIds": [vip], "contactIds": [ana["id"], eva["id"]]})
    assert created.status_code == 201, created.json
    broadcast = created.json["data"]
    assert broadcast["status"] in ("RUNNING", "COMPLETED")
    assert broadcast["template"] == {"id": template["id"], "name": "oferta", "language": "es"}
    [listed] = campaigns.call("GET", "/broadcasts").json["data"]["items"]
    assert listed["template"] == broadcast["template"]
    got = eventually(campaigns.network_got, lambda got: len(got) == 3)
    bodies = {m["to"]: [p["text"] for p in m["template"]["components"][0]["parameters"]] for m in got}
    assert bodies == {"573001110001": ["Ana", "Bogotá"], "573001110002": ["cliente", "Cali"],
                      "573001110003": ["Eva", "su ciudad"]}  # Ana once although she is in the list and named
    campaigns.line.deliver()  # the network's sent and delivered statuses
    shown = eventually(lambda: campaigns.get(broadcast["id"]),
                       lambda shown: shown["status"] == "COMPLETED" and shown["counts"]["delivered"] == 3)
    assert shown["counts"]["total"] == 3 and shown["counts"]["sent"] == 3 and shown["counts"]["failed"] == 0
    # Ana reads it and answers: read and replied move, the others stay delivered.
    ana_message = next(r for r in campaigns.recipients(broadcast["id"])["items"] if r["to"] == "573001110001")
    read = requests.post(f"{campaigns.line.netsim_url}/_control/read", json={
        "wamid": next(m["wamid"] for m in got if m["to"] == "573001110001")}, timeout=5)
    assert read.status_code == 200, read.text
    campaigns.line.customer_writes({"type": "text", "text": {"body": "¿Hasta cuándo?"}}, wa_id="573001110001")
    campaigns.line.deliver()
    counts = eventually(lambda: campaigns.get(broadcast["id"])["counts"], lambda counts: counts["replied"] == 1)
    assert counts["read"] == 1 and counts["delivered"] == 3
    replied = campaigns.recipients(broadcast["id"], filter="replied")["items"]
    assert [r["to"] for r in replied] == ["573001110001"] and replied[0]["repliedAt"]
    assert ana_message["messageId"] and ana_message["attempts"] == 1
    # The message is an ordinary one of the conversation, sent by "broadcast".
    message = campaigns.call("GET", f"/messages/{ana_message['messageId']}").json["data"]
    assert message["sentBy"] == "broadcast" and message["type"] == "template"


def test_opted_out_and_unreachable_contacts_are_skipped_with_a_reason(campaigns):
    campaigns.approved_template()
    ana, luis, eva = _three(campaigns)
    out = campaigns.call("POST", f"/contacts/{luis['id']}/opt-ins", {"type": "OUT", "source": "form", "channel": "web"})
    assert out.status_code == 201 and out.json["data"]["type"] == "OUT"
    created = campaigns.create(templateName="oferta", variables=["x", "y"],
                               audience={"contactIds": [ana["id"], luis["id"], eva["id"]]})
    assert created.status_code == 201, created.json
    skipped = campaigns.recipients(created.json["data"]["id"], filter="skipped")["items"]
    assert [(r["to"], r["skippedReason"]) for r in skipped] == [("573001110002", "opted_out")]
    assert {m["to"] for m in campaigns.network_got()} == {"573001110001", "573001110003"}
    # Opting in again: the newest record decides.
    again = campaigns.call("POST", f"/contacts/{luis['id']}/opt-ins", {"type": "IN", "source": "store"})
    assert again.status_code == 201
    history = campaigns.call("GET", f"/contacts/{luis['id']}/opt-ins").json["data"]
    assert [h["type"] for h in history] == ["IN", "OUT"]
    assert campaigns.call("GET", f"/contacts/{luis['id']}").json["data"]["optedOut"] is False


def test_a_keyword_opt_out_is_an_out_record(campaigns):
    line = campaigns.line
    assert line.api.patch(f"/organizations/{line.org_id}", {"optOutKeywords": ["BAJA", "stop"]},
                          token=line.owner["token"]).status_code == 200
    line.customer_writes({"type": "text", "text": {"body": "STOP"}}, wa_id="573001110009")
    line.deliver()
    contact = campaigns.call("GET", "/contacts?search=573001110009").json["data"]["items"][0]
    assert contact["optedOut"] is True
    [record] = campaigns.call("GET", f"/contacts/{contact['id']}/opt-ins").json["data"]
    assert record["type"] == "OUT" and record["source"] == "keyword" and record["payload"]["keyword"].upper() == "STOP"


def test_every_opt_in_record_says_who_made_it(campaigns, api):
    line = campaigns.line
    ana, luis, _ = _three(campaigns)
    by_key = campaigns.call("POST", f"/contacts/{ana['id']}/opt-ins", {"type": "IN", "source": "form"}).json["data"]
    [key] = [k for k in api.get(f"/organizations/{line.org_id}/api-keys", token=line.owner["token"]).json["data"]
             if k["name"] == "crm"]
    assert by_key["createdBy"] == f"key:{key['id']}"
    by_person = api.post(f"/organizations/{line.org_id}/contacts/{luis['id']}/opt-ins", {"type": "OUT"},
                         token=line.owner["token"]).json["data"]
    me = api.get("/users/me", token=line.owner["token"]).json["data"]
    assert by_person["createdBy"] == f"user:{me['id']}" and by_person["createdByUserId"] == me["id"]
    assert line.api.patch(f"/organizations/{line.org_id}", {"optOutKeywords": ["BAJA"]},
                          token=line.owner["token"]).status_code == 200
    line.customer_writes({"type": "text", "text": {"body": "baja"}}, wa_id="573001110009")
    line.deliver()
    contact = campaigns.call("GET", "/contacts?search=573001110009").json["data"]["items"][0]
    [by_customer] = campaigns.call("GET", f"/contacts/{contact['id']}/opt-ins").json["data"]
    assert by_customer["createdBy"] == "keyword" and by_customer["createdByUserId"] is None


def test_missing_values_skip_the_recipient_instead_of_sending_an_empty_parameter(campaigns):
    campaigns.approved_template()
    ana, luis, _ = _three(campaigns)
    created = campaigns.create(templateName="oferta", variables=["{{contact.name}}", "pan"],
                               audience={"contactIds": [ana["id"], luis["id"]]})
    assert created.status_code == 201, created.json
    recipients = {r["to"]: r for r in campaigns.recipients(created.json["data"]["id"])["items"]}
    assert recipients["573001110002"]["status"] == "skipped"
    assert recipients["573001110002"]["skippedReason"] == "missing_variable"
    assert recipients["573001110001"]["status"] in ("sent", "pending")


def test_failures_are_recorded_with_the_network_code_and_retried_in_place(campaigns, simulator):
    campaigns.approved_template()
    ana, luis, eva = _three(campaigns)
    simulator.network.customer("573001110002", on_whatsapp=False)  # never reachable: 131026
    assert requests.put(f"{campaigns.line.netsim_url}/_control/faults", json={"failNext": [131049]},
                        timeout=5).status_code == 200  # Meta holds Ana's marketing message back
    created = campaigns.create(templateName="oferta", variables=["a", "b"],
                               audience={"contactIds": [ana["id"], luis["id"], eva["id"]]})
    broadcast_id = created.json["data"]["id"]
    failed = campaigns.recipients(broadcast_id, filter="failed")["items"]
    assert sorted((r["to"], r["errorCode"]) for r in failed) == [("573001110001", 131049), ("573001110002", 131026)]
    assert all(r["errorTitle"] and r["attempts"] == 1 for r in failed)  # the sender did not retry them itself
    assert all(r["errorGuidance"]["en"] and r["errorGuidance"]["es"] for r in failed)
    assert "Do not resend at once" in next(r for r in failed if r["errorCode"] == 131049)["errorGuidance"]["en"]
    assert campaigns.get(broadcast_id)["counts"]["failed"] == 2
    retried = campaigns.call("POST", f"/broadcasts/{broadcast_id}/retry-failed")
    assert retried.status_code == 200, retried.json
    # A person asked: every failed recipient goes again, whatever the code (131026, not on WhatsApp,
    # fails again; its guidance says so on the recipient).
    assert retried.json["data"]["retried"] == 2
    rows = {r["to"]: r for r in campaigns.recipients(broadcast_id)["items"]}
    assert rows["573001110001"]["attempts"] == 2 and rows["573001110001"]["status"] == "sent"
    assert rows["573001110001"]["errorCode"] is None
    assert rows["573001110002"]["attempts"] == 2 and rows["573001110002"]["errorCode"] == 131026
    assert sum(1 for m in campaigns.network_got() if m["to"] == "573001110001") == 1
    assert campaigns.get(broadcast_id)["counts"]["failed"] == 1


def test_a_scheduled_broadcast_starts_by_itself_at_its_time(campaigns, background):
    campaigns.approved_template()
    ana, _, _ = _three(campaigns)
    at = (clock.now() + timedelta(hours=2)).isoformat()
    created = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]},
                               scheduledAt=at)
    assert created.status_code == 201 and created.json["data"]["status"] == "SCHEDULED"
    broadcast_id = created.json["data"]["id"]
    _after(background, 2 * 3600 - 60)
    assert campaigns.get(broadcast_id)["status"] == "SCHEDULED"  # not a minute early
    assert campaigns.network_got() == []
    _after(background, 61)
    eventually(lambda: [m["to"] for m in campaigns.network_got()], lambda to: to == ["573001110001"])
    eventually(lambda: campaigns.get(broadcast_id)["status"], lambda status: status == "COMPLETED")


def test_cancel_skips_the_rest(campaigns):
    campaigns.approved_template()
    ana, _, _ = _three(campaigns)
    at = (clock.now() + timedelta(hours=1)).isoformat()
    created = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]},
                               scheduledAt=at)
    broadcast_id = created.json["data"]["id"]
    cancelled = campaigns.call("POST", f"/broadcasts/{broadcast_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.json["data"]["status"] == "CANCELLED"
    assert cancelled.json["data"]["counts"]["skipped"] == 1
    assert campaigns.recipients(broadcast_id)["items"][0]["skippedReason"] == "cancelled"
    assert_problem(campaigns.call("POST", f"/broadcasts/{broadcast_id}/cancel"), 409, "broadcast_finished")
    assert_problem(campaigns.call("POST", f"/broadcasts/{broadcast_id}/retry-failed"), 409, "broadcast_finished")


def test_a_template_paused_by_the_network_pauses_the_broadcast_with_the_reason(campaigns, background):
    campaigns.approved_template()
    ana, luis, _ = _three(campaigns)
    at = (clock.now() + timedelta(minutes=5)).isoformat()
    created = campaigns.create(templateName="oferta", variables=["a", "b"],
                               audience={"contactIds": [ana["id"], luis["id"]]}, scheduledAt=at)
    broadcast_id = created.json["data"]["id"]
    campaigns.template_status("oferta", "PAUSED")
    _after(background, 301)
    shown = campaigns.get(broadcast_id)
    assert shown["status"] == "PAUSED" and shown["pausedReason"] == "template_paused", shown
    assert "oferta" in shown["pausedDetail"]
    assert campaigns.network_got() == [] and shown["counts"]["pending"] == 2 and shown["counts"]["failed"] == 0
    campaigns.template_status("oferta", "APPROVED")
    resumed = campaigns.call("POST", f"/broadcasts/{broadcast_id}/resume")
    assert resumed.status_code == 200, resumed.json
    eventually(lambda: campaigns.get(broadcast_id)["status"], lambda status: status == "COMPLETED")
    assert len(campaigns.network_got()) == 2


def test_bad_input_is_refused_by_field(campaigns, api, owner):
    template = campaigns.approved_template()
    ana, _, _ = _three(campaigns)
    audience = {"contactIds": [ana["id"]]}
    cases = [
        (dict(templateName="nope", audience=audience), "templateName"),
        (dict(templateId=template["id"], variables=["only one"], audience=audience), "variables.body"),
        (dict(templateId=template["id"], variables=["{{contact.edad}}", "x"], audience=audience), "variables[0]"),
        (dict(templateId=template["id"], variables=["a", "b"], audience={}), "audience"),
        (dict(templateId=template["id"], variables=["a", "b"], audience={"contactIds": ["0190a0a0-0000-7000-8000-000000000000"]}),
         "audience.contactIds"),
        (dict(templateId=template["id"], variables=["a", "b"], audience={"contactListIds": ["0190a0a0-0000-7000-8000-000000000000"]}),
         "audience.contactListIds"),
        (dict(templateId=template["id"], variables=["a", "b"], audience=audience,
              scheduledAt=(clock.now() - timedelta(minutes=1)).isoformat()), "scheduledAt"),
        (dict(templateId=template["id"], variables=["a", "b"], audience=audience,
              phoneNumberId="0190a0a0-0000-7000-8000-000000000000"), "phoneNumberId"),
        (dict(variables=["a", "b"], audience=audience), "templateId"),
        (dict(templateId="0190a0a0-0000-7000-8000-000000000000", variables=["a", "b"], audience=audience), "templateId"),
    ]
    for body, field in cases:
        refused = campaigns.create(**body)
        assert refused.status_code == 400, (body, refused.json)
        assert field in refused.json["errors"], (field, refused.json)
    assert campaigns.network_got() == []
    empty = campaigns.contact_list("Nadie", [])
    assert_problem(campaigns.create(templateId=template["id"], variables=["a", "b"],
                                    audience={"contactListIds": [empty]}), 400, "audience_empty")


def test_a_key_kept_to_other_numbers_gets_403_on_creating_and_404_on_reading(campaigns, api):
    campaigns.approved_template()
    ana, _, _ = _three(campaigns)
    line = campaigns.line
    kept = api.post(f"/organizations/{line.org_id}/api-keys", {
        "name": "otro número", "phoneNumberIds": [another_number(line.org_id)["phoneNumberPk"]]},
        token=line.owner["token"]).json["data"]["secret"]
    refused = campaigns.call("POST", "/broadcasts", {"name": "x", "phoneNumberId": line.number["id"],
                                                      "templateName": "oferta", "variables": ["a", "b"],
                                                      "audience": {"contactIds": [ana["id"]]}}, key=kept)
    assert_problem(refused, 403, "phone_number_not_allowed")
    created = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]})
    broadcast_id = created.json["data"]["id"]
    assert campaigns.call("GET", "/broadcasts", key=kept).json["data"]["items"] == []
    # Another number's broadcast reads as a missing one (issue 44): its existence is not the key's to know.
    assert_problem(campaigns.call("GET", f"/broadcasts/{broadcast_id}", key=kept), 404, "broadcast_not_found")
    stranger = factories.person(api, email="otra@example.com")["tokens"]["accessToken"]
    other_org = factories.organization(api, stranger, name="Otra", slug="otra")
    seen = api.get(f"/organizations/{other_org['id']}/broadcasts/{broadcast_id}", token=stranger)
    assert seen.status_code == 404


def test_retry_failed_sends_again_whatever_the_code_because_a_person_asked(campaigns):
    """A send in the air at a crash failed -3: the sender never sends it again on its own (it may
    have reached the customer), but a person's retry-failed does: they asked for it."""
    from appliance.core import runtime
    from appliance.core.rows import driver_connection
    campaigns.approved_template()
    ana, _, _ = _three(campaigns)
    created = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]})
    broadcast_id = created.json["data"]["id"]
    [row] = campaigns.recipients(broadcast_id)["items"]
    with runtime.get().db.unit_of_work(write=True) as session:  # as recover_interrupted leaves it
        driver_connection(session).execute("UPDATE messages SET status = 'failed', error_code = -3, wamid = NULL "
                                           "WHERE id = ?", (row["messageId"],))
    retried = campaigns.call("POST", f"/broadcasts/{broadcast_id}/retry-failed").json["data"]
    assert retried["retried"] == 1 and "notRetried" not in retried
    assert len(campaigns.network_got()) == 2
    [again] = campaigns.recipients(broadcast_id)["items"]
    assert again["attempts"] == 2 and again["status"] == "sent" and again["messageId"] != row["messageId"]


def test_opt_in_records_refuse_bad_input_by_field(campaigns):
    ana, _, _ = _three(campaigns)
    path = f"/contacts/{ana['id']}/opt-ins"
    for body, field in [({"type": "MAYBE"}, "type"), ({}, "type"), ({"type": "IN", "source": "x" * 101}, "source"),
                        ({"type": "IN", "payload": {"form": "x" * 5000}}, "payload"),
                        ({"type": "IN", "extra": 1}, "extra")]:
        refused = campaigns.call("POST", path, body)
        assert refused.status_code == 400 and field in refused.json["errors"], (body, refused.json)
    assert campaigns.call("GET", path).json["data"] == []  # nothing half-written
    unknown = "0190a0a0-0000-7000-8000-000000000000"
    assert_problem(campaigns.call("POST", f"/contacts/{unknown}/opt-ins", {"type": "OUT"}), 404, "contact_not_found")
    assert_problem(campaigns.call("GET", f"/contacts/{unknown}/opt-ins"), 404, "contact_not_found")


def test_a_suspended_organizations_broadcasts_wait_and_a_running_one_pauses_saying_why(campaigns, background):
    from appliance.core import runtime
    from appliance.organizations import service as organizations_service
    campaigns.approved_template()
    ana, _, _ = _three(campaigns)
    at = (clock.now() + timedelta(hours=1)).isoformat()
    created = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]},
                               scheduledAt=at)
    broadcast_id = created.json["data"]["id"]

    def suspended(on: bool) -> None:
        with runtime.get().db.unit_of_work(write=True) as session:
            organizations_service.do_set_suspension(session, slug="acme", suspended=on,
                                                    reason="payment_overdue" if on else None)
    suspended(True)
    _after(background, 3600 + 60)
    assert campaigns.get(broadcast_id)["status"] == "SCHEDULED"  # due, but it waits
    assert campaigns.network_got() == []
    suspended(False)
    _after(background, 60)
    eventually(lambda: campaigns.get(broadcast_id)["status"], lambda status: status == "COMPLETED")


def test_a_running_broadcast_of_an_organization_suspended_pauses_saying_why(campaigns):
    from appliance.broadcasts import runner
    from appliance.core import runtime
    from appliance.organizations import service as organizations_service
    campaigns.approved_template()
    ana, _, _ = _three(campaigns)
    created = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]},
                               scheduledAt=(clock.now() + timedelta(hours=1)).isoformat())
    broadcast_id = created.json["data"]["id"]
    database = runtime.get().db
    assert runner.start_due(database, now=clock.now() + timedelta(hours=2)) == [broadcast_id]  # running, none sent yet
    with database.unit_of_work(write=True) as session:
        organizations_service.do_set_suspension(session, slug="acme", suspended=True, reason="payment_overdue")
    assert runner.step(database, broadcast_id) is None
    paused = campaigns.get(broadcast_id)
    assert (paused["status"], paused["pausedReason"]) == ("PAUSED", "organization_suspended")
    assert campaigns.network_got() == []
