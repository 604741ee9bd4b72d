"""Issue 20's "Done means", over HTTP on a real sandbox server (the console pages come next): a new
organization's LOCAL provider already points at the simulator's AI double; an agent with the
knowledge base answers in the probador, then a customer played through the simulator gets a
grounded answer split into natural messages, logged with the passages it read."""

import requests

from tests.e2e.conftest import free_port, start_server
from tests.waiting import eventually

CUSTOMER = "5215598765432"


def test_an_agent_answers_a_customer_in_the_sandbox(tmp_path, smtp):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(tmp_path / "data", port, "--sandbox", env={"APPLIANCE_SMTP_URL": ""})
    try:
        token = requests.post(f"{base}/auth/signup", json={"email": "olga@sol.test", "password": "correct horse battery",
                                                           "name": "Olga"}, timeout=10).json()["data"]["tokens"]["accessToken"]
        auth = {"Authorization": f"Bearer {token}"}
        org = requests.post(f"{base}/organizations", json={"name": "Panadería Sol", "slug": "sol",
                                                           "billingEmail": "b@sol.test"}, headers=auth, timeout=10).json()["data"]
        api = f"{base}/organizations/{org['id']}"
        local = eventually(lambda: next(p for p in requests.get(f"{api}/bot/providers", headers=auth, timeout=10).json()["data"]
                                        if p["provider"] == "LOCAL"), lambda p: p["configured"], seconds=15)
        assert local["baseUrl"].endswith("/netsim/ai/openai")
        note = requests.post(f"{api}/bot/knowledge/notes", json={"title": "Envíos", "content": (
            "El envío a domicilio cuesta 5 euros en toda la ciudad. Los pedidos de más de 50 euros se envían gratis. "
            "Repartimos de lunes a sábado por la mañana.")}, headers=auth, timeout=10)
        assert note.status_code == 201
        eventually(lambda: requests.get(f"{api}/bot/knowledge/{note.json()['data']['id']}", headers=auth,
                                        timeout=10).json()["data"]["status"], lambda s: s == "READY", seconds=30)
        agent = requests.post(f"{api}/bot/agents", json={"name": "Sol", "provider": "LOCAL", "model": "double-small",
                                                         "isDefault": True, "capabilities": ["knowledge_search"]},
                              headers=auth, timeout=10).json()["data"]
        probe = requests.post(f"{api}/bot/agents/{agent['id']}/probador", json={"messages": [
            {"role": "user", "content": "¿Cuánto cuesta el envío a domicilio?"}]}, headers=auth, timeout=30)
        assert probe.status_code == 201 and "5 euros" in probe.json()["data"]["reply"], probe.text
        [number] = requests.get(f"{api}/phone-numbers", headers=auth, timeout=10).json()["data"]
        config = requests.put(f"{api}/bot/config/{number['id']}", json={
            "enabled": True, "mode": "AI_AGENT", "debounceSeconds": 1, "ritmoDeRespuesta": "NATURAL",
            "velocidadTecleoCps": 100}, headers=auth, timeout=10)
        assert config.status_code == 200, config.text
        written = requests.post(f"{base}/netsim/_control/inbound", json={
            "phoneNumberId": number["phoneNumberId"], "from": CUSTOMER, "name": "Ana", "type": "text",
            "text": {"body": "Hola, ¿cuánto cuesta el envío a domicilio? ¿Y si pido mucho?"}}, timeout=10)
        assert written.status_code == 201

        def said():
            sent = requests.get(f"{base}/netsim/_control/sent", params={"phoneNumberId": number["phoneNumberId"]},
                                timeout=10).json()["data"]
            return [m.get("text", {}).get("body") for m in sent]
        texts = eventually(said, lambda t: any("5 euros" in (x or "") for x in t), seconds=30)
        assert all(len(t or "") <= 300 for t in texts)
        activity = requests.get(f"{api}/bot/activity", headers=auth, timeout=10).json()["data"]["items"]
        answered = next(a for a in activity if a["kind"] == "AI_REPLY")
        assert answered["detail"]["passages"][0]["title"] == "Envíos" and answered["detail"]["agentId"] == agent["id"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
