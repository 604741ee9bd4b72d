"""Sandbox mode in-process: a new organization gets a simulated account; a restarted process
recreates it in its fresh simulator with the same ids and secrets."""

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
    graph = restarted.test_client().get(f"/netsim/v23.0/{waba['wabaId']}/phone_numbers",
                                        headers={"Authorization": f"Bearer {access_token}"})
    assert [n["id"] for n in graph.json["data"]] == [number["phoneNumberId"]]
    runtime.get().db.dispose()


def test_without_sandbox_mode_nothing_is_connected_and_the_control_api_is_closed(client, api):
    token = api.signup()["tokens"]["accessToken"]
    org = api.post("/organizations", {"name": "Sol", "slug": "sol", "billingEmail": "b@sol.test"}, token=token).json["data"]
    assert api.get(f"/organizations/{org['id']}/wabas", token=token).json["data"] == []
    assert client.get("/netsim/_control/sent").status_code == 404
