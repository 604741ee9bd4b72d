"""Issue 6's "Done means", as a new user would in the sandbox (`appliance serve --sandbox`): a
customer writes in; the business sends a text, an image with a caption, a template with variables,
a list message and a reaction; the statuses move to read; a failed message explains itself."""

import requests

from tests.waiting import eventually

PASSWORD = "correct horse battery"
CUSTOMER = "5215512345678"


def test_a_new_user_sends_every_kind_and_sees_it_read(sandbox_appliance):
    base = sandbox_appliance.base_url
    token = requests.post(f"{base}/auth/signup", json={"email": "olga@example.com", "password": PASSWORD,
                                                       "name": "Olga"}, timeout=10).json()["data"]["tokens"]["accessToken"]
    auth = {"Authorization": f"Bearer {token}"}
    org = requests.post(f"{base}/organizations", json={"name": "Panadería Sol", "slug": "sol", "billingEmail": "b@sol.test"},
                        headers=auth, timeout=10).json()["data"]
    org_url, control = f"{base}/organizations/{org['id']}", f"{base}/netsim/_control"
    waba = eventually(lambda: requests.get(f"{org_url}/wabas", headers=auth, timeout=10).json()["data"], bool)[0]
    number = requests.get(f"{org_url}/phone-numbers", headers=auth, timeout=10).json()["data"][0]
    requests.post(f"{control}/inbound", json={"phoneNumberId": number["phoneNumberId"], "from": CUSTOMER, "name": "Ana",
                                              "type": "text", "text": {"body": "Hola, ¿tienen pan?"}}, timeout=10)
    conversation = eventually(lambda: requests.get(f"{org_url}/conversations", headers=auth, timeout=10)
                               .json()["data"]["items"], bool)[0]
    [question] = requests.get(f"{org_url}/conversations/{conversation['id']}/messages", headers=auth,
                              timeout=10).json()["data"]["items"]

    def send(path="", **body):
        answer = requests.post(f"{org_url}/messages{path}", json={"phoneNumberId": number["id"], "to": CUSTOMER, **body},
                               headers=auth, timeout=10)
        assert answer.status_code == 201, answer.text
        return answer.json()["data"]

    def message(message_id):
        return requests.get(f"{org_url}/messages/{message_id}", headers=auth, timeout=10).json()["data"]

    sent = [send(type="text", payload={"body": "¡Sí! Recién horneado."}, replyToMessageId=question["id"])]
    jpeg = b"\xff\xd8\xff\xe0" + b"7" * 300
    upload = requests.post(f"{org_url}/messages/upload", params={"phoneNumberId": number["id"]}, headers=auth,
                           files={"file": ("hogaza.jpg", jpeg, "image/jpeg")}, timeout=10)
    assert upload.status_code == 201, upload.text
    sent.append(send(type="image", payload={"id": upload.json()["data"]["mediaId"], "caption": "Hogaza de hoy"}))
    template = requests.post(f"{org_url}/templates", headers=auth, timeout=10, json={
        "businessAccountId": waba["id"], "name": "pedido_listo", "language": "es", "category": "UTILITY",
        "components": [{"type": "BODY", "text": "Hola {{1}}, tu pedido {{2}} está listo",
                        "example": {"body_text": [["Ana", "A-17"]]}}]})
    assert template.status_code == 201, template.text
    requests.post(f"{control}/templates/{waba['wabaId']}/status", json={
        "name": "pedido_listo", "language": "es", "status": "APPROVED"}, timeout=10)
    eventually(lambda: requests.get(f"{org_url}/templates/{template.json()['data']['id']}", headers=auth,
                                     timeout=10).json()["data"]["status"], lambda status: status == "APPROVED")
    sent.append(send(type="template", templateName="pedido_listo", variables=["Ana", "A-17"]))
    sent.append(send("/interactive", kind="list", bodyText="¿Qué más te guardo?", buttonText="Ver panes",
                     sections=[{"title": "Dulces", "rows": [{"id": "concha", "title": "Concha"}]}]))
    reaction = requests.put(f"{org_url}/messages/{question['id']}/reactions", json={"emoji": "🥖"}, headers=auth, timeout=10)
    assert reaction.status_code == 200 and reaction.json()["data"]["reactions"][0]["emoji"] == "🥖"

    delivered = [eventually(lambda m=m: message(m["id"]), lambda m: m["status"] == "delivered") for m in sent]
    # The reaction queues behind the list on the number's line, so it may still be on its way when
    # the list's "delivered" arrives: wait for the network to have all five.
    network = eventually(lambda: requests.get(f"{control}/sent", params={"phoneNumberId": number["phoneNumberId"]},
                                              timeout=10).json()["data"], lambda items: len(items) >= 5)
    assert [m["type"] for m in network] == ["text", "image", "template", "interactive", "reaction"]
    assert network[0]["context"] == {"message_id": question["wamid"]}
    assert network[1]["image"]["caption"] == "Hogaza de hoy"
    assert network[4]["reaction"] == {"message_id": question["wamid"], "emoji": "🥖"}
    for item in delivered:
        requests.post(f"{control}/read", json={"wamid": item["wamid"]}, timeout=10)
    for item in delivered:
        eventually(lambda m=item: message(m["id"]), lambda m: m["status"] == "read")
    image = requests.get(f"{org_url}/messages/{sent[1]['id']}/media", headers=auth, timeout=10)
    assert image.status_code == 200 and image.content == jpeg

    requests.put(f"{control}/faults", json={"failNext": [131026]}, timeout=10)
    refused = send(type="text", payload={"body": "¿Sigues ahí?"})
    failed = eventually(lambda: message(refused["id"]), lambda m: m["status"] != "pending")
    assert failed["status"] == "failed" and failed["errorCode"] == 131026
    assert failed["errorTitle"] and "WhatsApp" in failed["errorGuidance"]["en"] and failed["errorGuidance"]["es"]
