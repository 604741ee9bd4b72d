"""The owner's first walk through a sandbox number on a running server, over HTTP as a browser and
an API client make it: /setup, then (once the sandbox is tried) the simulated customer writes from
the inbox and the owner answers over the API. Shared by the tests that try the sandbox on a real
server, in one process or in a web and a worker process."""

from __future__ import annotations

import re

import requests

from tests.waiting import eventually

PASSWORD = "correct horse battery"
OWNER = "olga@sol.test"


def csrf(page) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)


def set_up(base: str, browser: requests.Session, *, country: str, currency: str, timezone: str) -> str:
    """The installation's first person and business through /setup; answers the organization's id."""
    setup = browser.post(f"{base}/setup", timeout=10, allow_redirects=False, data={
        "csrf": csrf(browser.get(f"{base}/setup", timeout=10)), "name": "Olga", "email": OWNER,
        "password": PASSWORD, "org_name": "Panadería Sol", "country": country, "currency": currency,
        "timezone": timezone})
    assert setup.status_code == 302, setup.text
    return setup.headers["Location"].split("/")[2]


def customer_writes_and_is_answered(base: str, browser: requests.Session, org_id: str, *,
                                    seconds: float = 20.0) -> dict:
    """The inbox's simulated customer writes; the owner answers the conversation over the API. The
    answer as it stands once the network has said what became of it (delivered, read or failed)."""
    inbox = browser.get(f"{base}/inbox/{org_id}", timeout=10)
    number_pk = re.search(r'name="phone_number_pk" value="([^"]+)"', inbox.text).group(1)
    wrote = browser.post(f"{base}/console/{org_id}/sandbox/customer", headers={"X-Requested-With": "fetch"},
                         data={"csrf": csrf(inbox), "phone_number_pk": number_pk, "text": "Hola, ¿tienen pan?"},
                         timeout=10)
    assert wrote.status_code == 204

    token = requests.post(f"{base}/auth/login", json={"email": OWNER, "password": PASSWORD},
                          timeout=10).json()["data"]["tokens"]["accessToken"]
    auth, org_url = {"Authorization": f"Bearer {token}"}, f"{base}/organizations/{org_id}"
    [conversation] = eventually(lambda: requests.get(f"{org_url}/conversations", headers=auth, timeout=10)
                                .json()["data"]["items"], bool)
    reply = requests.post(f"{org_url}/messages", headers=auth, timeout=10, json={
        "phoneNumberId": number_pk, "to": conversation["contact"]["waId"], "type": "text",
        "payload": {"body": "¡Sí! Recién horneado."}})
    assert reply.status_code == 201, reply.text
    return eventually(lambda: requests.get(f"{org_url}/messages/{reply.json()['data']['id']}", headers=auth,
                                           timeout=10).json()["data"],
                      lambda message: message["status"] in ("delivered", "read", "failed"), seconds=seconds)
