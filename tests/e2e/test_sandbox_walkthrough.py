"""Issue 5's "Done means", as a new user would: `appliance serve --sandbox`, connect nothing, make a
simulated customer write in through the simulator's control API, and see the contact, the
conversation and the message (with its media) through the API."""

import base64

import requests

from tests.waiting import eventually

PASSWORD = "correct horse battery"


def test_a_fresh_sandbox_receives_a_customer_message_with_media(sandbox_appliance):
    base = sandbox_appliance.base_url
    token = requests.post(f"{base}/auth/signup", json={"email": "owner@example.com", "password": PASSWORD,
                                                       "name": "Olga"}, timeout=10).json()["data"]["tokens"]["accessToken"]
    auth = {"Authorization": f"Bearer {token}"}
    org = requests.post(f"{base}/organizations", json={"name": "Panadería Sol", "slug": "panaderia-sol",
                                                       "billingEmail": "b@sol.test"}, headers=auth, timeout=10).json()["data"]
    org_url = f"{base}/organizations/{org['id']}"
    # Connected by the sandbox itself, clearly marked.
    wabas = eventually(lambda: requests.get(f"{org_url}/wabas", headers=auth, timeout=10).json()["data"], bool)
    assert wabas[0]["sandbox"] is True and "Sandbox" in wabas[0]["name"]
    number = requests.get(f"{org_url}/phone-numbers", headers=auth, timeout=10).json()["data"][0]
    assert "Sandbox" in number["verifiedName"]
    assert "Sandbox" in requests.get(f"{base}/", timeout=10).text

    control = f"{base}/netsim/_control"
    jpeg = b"\xff\xd8\xff\xe0" + b"2" * 500
    sent = requests.post(f"{control}/inbound", json={
        "phoneNumberId": number["phoneNumberId"], "from": "5215512345678", "name": "Ana Pérez",
        "type": "text", "text": {"body": "Hola, ¿tienen pan dulce?"}}, timeout=10)
    assert sent.status_code == 201, sent.text
    photo = requests.post(f"{control}/inbound", json={
        "phoneNumberId": number["phoneNumberId"], "from": "5215512345678", "type": "image",
        "image": {"caption": "¿Como este?"},
        "media": {"contentBase64": base64.b64encode(jpeg).decode(), "mimeType": "image/jpeg"}}, timeout=10)
    assert photo.status_code == 201, photo.text
    assert requests.post(f"{control}/wait", timeout=35).json()["idle"]

    conversations = requests.get(f"{org_url}/conversations", headers=auth, timeout=10).json()["data"]["items"]
    assert len(conversations) == 1 and conversations[0]["unread"] is True
    messages_url = f"{org_url}/conversations/{conversations[0]['id']}/messages"
    messages = eventually(lambda: requests.get(messages_url, headers=auth, timeout=10).json()["data"]["items"],
                           lambda items: len(items) == 2 and items[0]["mediaStatus"] == "stored")
    image, text = messages  # newest first
    assert text["payload"]["text"]["body"] == "Hola, ¿tienen pan dulce?"
    assert image["type"] == "image" and image["mediaMimeType"] == "image/jpeg" and image["mediaSize"] == len(jpeg)
    assert (sandbox_appliance.data_dir / "media" / org["id"] / image["id"]).read_bytes() == jpeg
