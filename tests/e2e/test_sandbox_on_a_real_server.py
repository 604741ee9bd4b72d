"""Issue 16: "Try the sandbox" without restarting in sandbox mode. A server talking to the real
network (here a closed port, so a call that leaks there fails) creates the owner and the business,
asks for a sandbox number from the console, plays the customer through the signed-in route, and
answers over the API: the sandbox account's Graph calls reach the in-process simulator by token,
while the simulator's open control API stays closed."""

import pytest
import requests

from tests.e2e.conftest import free_port, start_server
from tests.e2e.sandbox_walk import csrf, customer_writes_and_is_answered, set_up


@pytest.fixture
def real_server(tmp_path):
    port = free_port()
    proc = start_server(tmp_path / "data", port, env={"APPLIANCE_GRAPH_API_URL": "http://127.0.0.1:9"})
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_an_organization_tries_the_sandbox_on_a_real_server(real_server):
    base, browser = real_server, requests.Session()
    org_id = set_up(base, browser, country="CO", currency="COP", timezone="America/Bogota")
    whatsapp = browser.get(f"{base}/console/{org_id}/whatsapp?welcome=1", timeout=10)
    assert "Try the sandbox" in whatsapp.text and "Your sandbox number is ready" not in whatsapp.text
    tried = browser.post(f"{base}/console/{org_id}/sandbox", data={"csrf": csrf(whatsapp)}, timeout=10)
    assert tried.status_code == 200 and "Your sandbox number is ready" in tried.text and ">sandbox<" in tried.text
    assert requests.get(f"{base}/netsim/_control/sent", timeout=10).status_code == 404  # closed on a real server

    delivered = customer_writes_and_is_answered(base, browser, org_id)
    assert delivered["status"] in ("delivered", "read"), delivered  # through the simulator, not the closed port
