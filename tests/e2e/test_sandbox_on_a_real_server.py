"""Issue 16: "Try the sandbox" without restarting in sandbox mode. A server talking to the real
network (here a closed port, so a call that leaks there fails) creates the owner and the business,
asks for a sandbox number from the console, plays the customer through the signed-in route, and
answers over the API: the sandbox account's Graph calls reach the in-process simulator by token,
while the simulator's open control API stays closed."""

import re

import pytest
import requests

from tests.e2e.conftest import free_port, start_server
from tests.waiting import eventually

PASSWORD = "correct horse battery"


@pytest.fixture
def real_server(tmp_path):
    port = free_port()
    proc = start_server(tmp_path / "data", port, env={"APPLIANCE_GRAPH_API_URL": "http://127.0.0.1:9"})
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _csrf(page) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)


def test_an_organization_tries_the_sandbox_on_a_real_server(real_server):
    base, browser = real_server, requests.Session()
    setup = browser.post(f"{base}/setup", timeout=10, allow_redirects=False, data={
        "csrf": _csrf(browser.get(f"{base}/setup", timeout=10)), "name": "Olga", "email": "olga@sol.test",
        "password": PASSWORD, "org_name": "Panadería Sol", "country": "CO", "currency": "COP",
        "timezone": "America/Bogota"})
    assert setup.status_code == 302, setup.text
    org_id = setup.headers["Location"].split("/")[2]
    whatsapp = browser.get(f"{base}/console/{org_id}/whatsapp?welcome=1", timeout=10)
    assert "Try the sandbox" in whatsapp.text and "Your sandbox number is ready" not in whatsapp.text
    tried = browser.post(f"{base}/console/{org_id}/sandbox", data={"csrf": _csrf(whatsapp)}, timeout=10)
    assert tried.status_code == 200 and "Your sandbox number is ready" in tried.text and ">sandbox<" in tried.text
    assert requests.get(f"{base}/netsim/_control/sent", timeout=10).status_code == 404  # closed on a real server

    inbox = browser.get(f"{base}/inbox/{org_id}", timeout=10)
    number_pk = re.search(r'name="phone_number_pk" value="([^"]+)"', inbox.text).group(1)
    wrote = browser.post(f"{base}/console/{org_id}/sandbox/customer", headers={"X-Requested-With": "fetch"},
                         data={"csrf": _csrf(inbox), "phone_number_pk": number_pk, "text": "Hola, ¿tienen pan?"},
                         timeout=10)
    assert wrote.status_code == 204

    token = requests.post(f"{base}/auth/login", json={"email": "olga@sol.test", "password": PASSWORD},
                          timeout=10).json()["data"]["tokens"]["accessToken"]
    auth, org_url = {"Authorization": f"Bearer {token}"}, f"{base}/organizations/{org_id}"
    [conversation] = eventually(lambda: requests.get(f"{org_url}/conversations", headers=auth, timeout=10)
                                .json()["data"]["items"], bool)
    reply = requests.post(f"{org_url}/messages", headers=auth, timeout=10, json={
        "phoneNumberId": number_pk, "to": conversation["contact"]["waId"], "type": "text",
        "payload": {"body": "¡Sí! Recién horneado."}})
    assert reply.status_code == 201, reply.text
    delivered = eventually(lambda: requests.get(f"{org_url}/messages/{reply.json()['data']['id']}", headers=auth,
                                                timeout=10).json()["data"],
                           lambda message: message["status"] in ("delivered", "read", "failed"))
    assert delivered["status"] in ("delivered", "read"), delivered  # through the simulator, not the closed port
