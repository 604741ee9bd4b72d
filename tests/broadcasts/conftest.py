"""A business with an approved marketing template and contacts in a list; sending runs inline (the
queue's immediate mode), so a created broadcast has gone out to the simulator before the test goes on."""

import pytest
import requests


class Campaigns:
    def __init__(self, line):
        self.line = line
        self.base = f"/organizations/{line.org_id}"
        self.key = line.api.post(f"{self.base}/api-keys", {"name": "crm"}, token=line.owner["token"]).json["data"]["secret"]

    def call(self, method: str, path: str, body=None, key=None):
        return self.line.api.client.open(self.base + path, method=method, json=body,
                                         headers={"X-Api-Key": key or self.key})

    def approved_template(self, name="oferta", text="Hola {{1}}, esta semana {{2}} con descuento", category="MARKETING"):
        created = self.call("POST", "/templates", {
            "businessAccountId": self.line.waba["id"], "name": name, "language": "es", "category": category,
            "components": [{"type": "BODY", "text": text, "example": {"body_text": [["Ana", "pan"]]}}]})
        assert created.status_code == 201, created.json
        self.template_status(name, "APPROVED")
        return created.json["data"]

    def template_status(self, name, status):
        answer = requests.post(f"{self.line.netsim_url}/_control/templates/{self.line.account['wabaId']}/status",
                               json={"name": name, "language": "es", "status": status}, timeout=5)
        assert answer.status_code == 200, answer.text
        self.line.deliver()

    def contact(self, wa_id, name=None, **attributes):
        created = self.call("POST", "/contacts", {"waId": wa_id, "name": name, "attributes": attributes})
        assert created.status_code == 201, created.json
        return created.json["data"]

    def contact_list(self, name, contacts):
        created = self.call("POST", "/contact-lists", {"name": name})
        assert created.status_code == 201, created.json
        list_id = created.json["data"]["id"]
        if not contacts:
            return list_id
        added = self.call("POST", f"/contact-lists/{list_id}/members", {"contactIds": [c["id"] for c in contacts]})
        assert added.status_code in (200, 201), added.json
        return list_id

    def create(self, **body):
        body = {"name": "Ofertas de la semana", "phoneNumberId": self.line.number["id"], **body}
        return self.call("POST", "/broadcasts", body)

    def get(self, broadcast_id):
        answer = self.call("GET", f"/broadcasts/{broadcast_id}")
        assert answer.status_code == 200, answer.json
        return answer.json["data"]

    def recipients(self, broadcast_id, **query):
        params = "&".join(f"{k}={v}" for k, v in query.items())
        answer = self.call("GET", f"/broadcasts/{broadcast_id}/recipients" + (f"?{params}" if params else ""))
        assert answer.status_code == 200, answer.json
        return answer.json["data"]

    def network_got(self):
        return requests.get(f"{self.line.netsim_url}/_control/sent", timeout=5).json()["data"]


@pytest.fixture
def campaigns(line):
    return Campaigns(line)
