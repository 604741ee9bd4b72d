"""Sandbox mode in-process: a new organization gets a simulated account; a restarted process
recreates it in its fresh simulator with the same ids and secrets."""

import re

from appliance.app import create_app
from appliance.core import runtime


def test_new_organizations_get_a_sandbox_account_that_survives_a_restart(settings):
    sandboxed = settings.replace(sandbox=True)
    app = create_app(sandboxed, queue_immediate=True)
    client = app.test_client()
    token = client.post("/auth/signup", json={"email": "o@example.com", "password": "correct horse battery",
                                              "name": "O"}).json["data"]["tokens"]["accessToken"]
    auth = {"Authorization": f"Bearer {token}"}
    org = client.post("/organizations", json={"name": "Sol", "slug": "sol", "billingEmail": "b@sol.test"},
                      headers=auth).json["data"]
    [waba] = client.get(f"/organizations/{org['id']}/wabas", headers=auth).json["data"]
    assert waba["sandbox"] is True
    [number] = client.get(f"/organizations/{org['id']}/phone-numbers", headers=auth).json["data"]
    assert client.get("/netsim/_control/sent").status_code == 200  # the simulator is mounted
    from appliance.core import clock
    from appliance.templates.models import Template
    with runtime.get().db.unit_of_work(write=True) as session:  # as the simulated review left it
        session.add(Template(organization_id=org["id"], waba_pk=waba["id"], template_id="778899", name="pan_del_dia",
                             language="es", category="MARKETING", status="APPROVED",
                             components=[{"type": "BODY", "text": "Hola {{1}}"}], synced_at=clock.now(),
                             created_at=clock.now(), updated_at=clock.now()))
    runtime.get().db.dispose()

    restarted = create_app(sandboxed, queue_immediate=True)  # a new process: an empty simulator, restored
    from appliance import sandbox
    from appliance.wabas import service as wabas_service
    from appliance.wabas.models import BusinessAccount
    with runtime.get().db.unit_of_work(write=False) as session:
        token_sealed = session.get(BusinessAccount, waba["id"])
        access_token, app_secret = wabas_service.credentials(token_sealed)
    account = sandbox.simulator().network.accounts[waba["wabaId"]]
    assert (account.access_token, account.app_secret) == (access_token, app_secret)
    # Its templates too (before, every campaign after a restart failed: 132001, no such template).
    template = account.templates[("pan_del_dia", "es")]
    assert (template["id"], template["status"], template["components"]) == \
        ("778899", "APPROVED", [{"type": "BODY", "text": "Hola {{1}}"}])
    graph = restarted.test_client().get(f"/netsim/v23.0/{waba['wabaId']}/phone_numbers",
                                        headers={"Authorization": f"Bearer {access_token}"})
    assert [n["id"] for n in graph.json["data"]] == [number["phoneNumberId"]]
    runtime.get().db.dispose()


def test_without_sandbox_mode_nothing_is_connected_and_the_control_api_is_closed(client, api):
    token = api.signup()["tokens"]["accessToken"]
    org = api.post("/organizations", {"name": "Sol", "slug": "sol", "billingEmail": "b@sol.test"}, token=token).json["data"]
    assert api.get(f"/organizations/{org['id']}/wabas", token=token).json["data"] == []
    assert client.get("/netsim/_control/sent").status_code == 404


def test_trying_the_sandbox_from_the_console_and_its_bad_input(client, api, owner):
    """On a server outside sandbox mode: an owner connects the organization's sandbox account (no
    network call: the simulator is in the process); an agent may not; the simulated customer only
    writes to this organization's sandbox numbers, and only a text of 1 to 4,096 characters."""
    from tests.browser_forms import csrf_of, sign_in
    from tests.factories import add_member
    org_id = owner["org"]["id"]
    add_member(api, org_id, "agent", "agent@example.com")
    sign_in(client, email="agent@example.com")
    page = client.get(f"/console/{org_id}/team")
    assert client.post(f"/console/{org_id}/sandbox", data={"csrf": csrf_of(page)}).status_code == 403
    client.post("/sign-out", data={"csrf": csrf_of(page)})

    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org_id}/whatsapp")
    assert "Try the sandbox" in page.text
    tried = client.post(f"/console/{org_id}/sandbox", data={"csrf": csrf_of(page)})
    assert tried.status_code == 302
    [waba] = api.get(f"/organizations/{org_id}/wabas", token=owner["token"]).json["data"]
    assert waba["sandbox"] is True
    assert client.post(f"/console/{org_id}/sandbox", data={"csrf": csrf_of(page)}).status_code == 302
    assert len(api.get(f"/organizations/{org_id}/wabas", token=owner["token"]).json["data"]) == 1  # the same one

    inbox = client.get(f"/inbox/{org_id}")
    number_pk = re.search(r'name="phone_number_pk" value="([^"]+)"', inbox.text).group(1)
    customer = f"/console/{org_id}/sandbox/customer"
    unknown = client.post(customer, data={"csrf": csrf_of(inbox), "phone_number_pk": org_id, "text": "Hola"})
    assert unknown.status_code == 404
    empty = client.post(customer, data={"csrf": csrf_of(inbox), "phone_number_pk": number_pk, "text": "   "})
    assert empty.status_code == 400
    too_long = client.post(customer, data={"csrf": csrf_of(inbox), "phone_number_pk": number_pk, "text": "a" * 4097})
    assert too_long.status_code == 400


def test_a_sandbox_token_another_process_connected_is_routed_to_the_simulator(client, api, owner):
    """Issue 48: the worker process's simulator does not hold an account the web process connected
    after the worker started ("Try the sandbox"); its sends with that token went to the real
    network. A sandbox token it does not know makes it read the stored accounts again; other
    tokens stay the real network's."""
    from appliance import sandbox
    from appliance.wabas import service as wabas_service
    from appliance.wabas.models import BusinessAccount
    from tests.browser_forms import csrf_of, sign_in
    org_id = owner["org"]["id"]
    sign_in(client, email="owner@example.com")
    client.post(f"/console/{org_id}/sandbox", data={"csrf": csrf_of(client.get(f"/console/{org_id}/whatsapp"))})
    [waba] = api.get(f"/organizations/{org_id}/wabas", token=owner["token"]).json["data"]
    with runtime.get().db.unit_of_work(write=False) as session:
        token, _ = wabas_service.credentials(session.get(BusinessAccount, waba["id"]))
    assert token.startswith("EAAGsandbox")
    del sandbox.simulator().network.accounts[waba["wabaId"]]  # as in a process started before it was made
    assert sandbox.owns_token(token) is True
    assert waba["wabaId"] in sandbox.simulator().network.accounts
    assert sandbox.owns_token("EAAGreal" + token[11:]) is False


def test_the_control_api_answers_only_on_this_machine_and_webhooks_stay_on_it(settings):
    """Issue 17, finding 4: anyone could read every organization's sent messages, play any number's
    customers and point any account's webhook at any address."""
    sandbox_client = create_app(settings.replace(sandbox=True), queue_immediate=True).test_client()
    lan = {"REMOTE_ADDR": "192.168.1.50"}
    for method, path in (("GET", "/netsim/_control/sent"), ("POST", "/netsim/_control/inbound"),
                         ("PUT", "/netsim/_control/accounts/1/webhook")):
        answer = sandbox_client.open(path, method=method, json={}, environ_base=lan)
        assert answer.status_code == 403, (path, answer.json)
    account = sandbox_client.post("/netsim/_control/accounts", json={"name": "Demo"}).json
    for url in ("https://attacker.example/hook", "http://10.0.0.5/hook", "ftp://127.0.0.1/x"):
        moved = sandbox_client.put(f"/netsim/_control/accounts/{account['wabaId']}/webhook", json={"url": url})
        assert moved.status_code == 400, url
        assert sandbox_client.post("/netsim/_control/accounts", json={"webhookUrl": url}).status_code == 400
    local = sandbox_client.put(f"/netsim/_control/accounts/{account['wabaId']}/webhook",
                               json={"url": "http://127.0.0.1:8080/webhooks/whatsapp"})
    assert local.status_code == 200
    runtime.get().db.dispose()
    anywhere = create_app(settings.replace(sandbox=True, sandbox_control_from_anywhere=True), queue_immediate=True)
    assert anywhere.test_client().get("/netsim/_control/sent", environ_base={"REMOTE_ADDR": "192.168.1.50"}).status_code == 200
    runtime.get().db.dispose()


def test_the_sandbox_ai_follows_the_server_to_another_port(settings):
    """A sandbox organization's LOCAL provider points at the AI double where the server that made it
    ran; started again on another port, it points at the double where this one runs (before, every AI
    answer failed after the move)."""
    first = settings.replace(sandbox=True, port=18080, base_url="")
    client = create_app(first, queue_immediate=True).test_client()
    token = client.post("/auth/signup", json={"email": "o@example.com", "password": "correct horse battery",
                                              "name": "O"}).json["data"]["tokens"]["accessToken"]
    auth = {"Authorization": f"Bearer {token}"}
    org = client.post("/organizations", json={"name": "Sol", "slug": "sol", "billingEmail": "b@sol.test"},
                      headers=auth).json["data"]
    local = next(p for p in client.get(f"/organizations/{org['id']}/bot/providers", headers=auth).json["data"]
                 if p["provider"] == "LOCAL")
    assert local["baseUrl"] == "http://127.0.0.1:18080/netsim/ai/openai"
    runtime.get().db.dispose()

    moved = create_app(settings.replace(sandbox=True, port=18081, base_url=""), queue_immediate=True).test_client()
    local = next(p for p in moved.get(f"/organizations/{org['id']}/bot/providers", headers=auth).json["data"]
                 if p["provider"] == "LOCAL")
    assert local["baseUrl"] == "http://127.0.0.1:18081/netsim/ai/openai"
    runtime.get().db.dispose()
