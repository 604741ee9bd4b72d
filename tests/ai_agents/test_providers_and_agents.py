"""Issue 20, part: providers' credentials (sealed, never returned, tested against the AI double),
agents (every field checked, route tags unique, one default per number, the legacy phoneNumberId),
the catalogs, and conversations pinned to an agent."""

import uuid

import requests
from sqlmodel import select

from appliance.ai_agents.models import ProviderCredential
from appliance.core import runtime
from appliance.organizations.models import Organization
from tests import factories
from tests.problems import assert_problem

KEY = "sk-live-abcdef0123456789"


def _url(line, path=""):
    return f"/organizations/{line.org_id}/bot{path}"


def test_a_key_is_sealed_never_returned_and_checked_against_the_provider(line, caplog):
    api, token = line.api, line.owner["token"]
    listed = {p["provider"]: p for p in api.get(_url(line, "/providers"), token=token).json["data"]}
    assert list(listed) == ["OPENAI", "ANTHROPIC", "GEMINI", "GROQ", "MISTRAL", "LOCAL"]
    assert not any(p["configured"] for p in listed.values())
    assert_problem(api.put(_url(line, "/providers/OPENAI"), {}, token=token), 400, "validation_failed")
    assert_problem(api.put(_url(line, "/providers/OPENAI"), {"baseUrl": "https://proxy.example"}, token=token),
                   400, "api_key_required")
    assert_problem(api.put(_url(line, "/providers/LOCAL"), {"apiKey": "x"}, token=token), 400, "base_url_required")
    for unknown in (api.put(_url(line, "/providers/WATSON"), {"apiKey": "x"}, token=token),
                    api.delete(_url(line, "/providers/WATSON"), token=token),
                    api.post(_url(line, "/providers/WATSON/check"), token=token)):
        assert_problem(unknown, 400, "unknown_provider")  # a value outside the six, not a missing page
        assert "provider" in unknown.json["errors"]
    assert_problem(api.put(_url(line, "/providers/OPENAI"), {"apiKey": "has space"}, token=token), 400, "validation_failed")
    saved = api.put(_url(line, "/providers/ANTHROPIC"), {"apiKey": KEY, "baseUrl": f"{line.netsim_url}/ai/anthropic"},
                    token=token)
    assert saved.status_code == 200 and saved.json["data"]["configured"] is True
    assert KEY not in saved.get_data(as_text=True)
    with runtime.get().db.unit_of_work(write=False) as session:
        [row] = session.exec(select(ProviderCredential)).all()
        assert row.api_key_sealed and KEY not in row.api_key_sealed and runtime.get().keyring.unseal(row.api_key_sealed) == KEY
    checked = api.post(_url(line, "/providers/ANTHROPIC/check"), token=token)
    assert checked.status_code == 201 and checked.json["data"] == {"ok": True, "models": ["double-large", "double-small"],
                                                                    "error": None, "errorCode": None}
    sent = requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()
    assert sent["count"] == 0  # listing models is a GET the double does not count as a chat
    # A wrong key: the check says so in words, remembered for the page; the key is in none of it.
    assert api.put(_url(line, "/providers/ANTHROPIC"), {"apiKey": "sk-invalid"}, token=token).status_code == 200
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": []}, timeout=5)
    bad = api.post(_url(line, "/providers/GEMINI/check"), token=token)
    assert_problem(bad, 400, "provider_not_configured")
    # A server on this machine: refused until the installation allows it (issue 44), then reached.
    assert_problem(api.put(_url(line, "/providers/LOCAL"), {"baseUrl": "http://127.0.0.1:9"}, token=token), 400,
                   "url_not_allowed")
    runtime.get().settings = runtime.get().settings.replace(allowed_private_urls=f"{line.netsim_url},http://127.0.0.1:9")
    assert api.put(_url(line, "/providers/LOCAL"), {"baseUrl": "http://127.0.0.1:9"}, token=token).status_code == 200
    failed = api.post(_url(line, "/providers/LOCAL/check"), token=token).json["data"]
    assert failed["ok"] is False and "could not be reached" in failed["error"] and failed["errorCode"] == "unavailable"
    local = next(p for p in api.get(_url(line, "/providers"), token=token).json["data"] if p["provider"] == "LOCAL")
    assert local["lastError"] == failed["error"] and local["lastCheckedAt"]
    assert api.delete(_url(line, "/providers/LOCAL"), token=token).status_code == 204
    assert_problem(api.delete(_url(line, "/providers/LOCAL"), token=token), 404, "provider_not_configured")
    assert KEY not in caplog.text and "sk-invalid" not in caplog.text


def test_agents_are_checked_field_by_field(line):
    api, token = line.api, line.owner["token"]
    number = line.number["id"]
    made = api.post(_url(line, "/agents"), {"name": "Ventas", "provider": "OPENAI", "model": "gpt-4o-mini",
                                            "phoneNumberId": number, "routeTags": ["ventas", "precios"],
                                            "capabilities": ["knowledge_search", "handoff"], "isDefault": True,
                                            "systemPrompt": "Eres el vendedor de Panadería Sol."}, token=token)
    assert made.status_code == 201, made.json
    sales = made.json["data"]
    assert sales["phoneNumberIds"] == [number] and sales["phoneNumberId"] == number and sales["enabled"] is True
    assert (sales["temperature"], sales["maxTokens"], sales["knowledgeDocIds"]) == (0.3, 500, [])
    base = {"name": "Otro", "provider": "OPENAI", "model": "gpt-4o-mini"}
    for bad, code in (({**base, "provider": "WATSON"}, "validation_failed"), ({**base, "model": "gpt-9"}, "unknown_model"),
                      ({**base, "capabilities": ["fly"]}, "unknown_capability"),
                      ({**base, "routeTags": ["PRECIOS"]}, "route_tag_conflict"),
                      ({**base, "phoneNumberIds": [str(uuid.uuid4())]}, "phone_number_not_found"),
                      ({**base, "knowledgeDocIds": [str(uuid.uuid4())]}, "knowledge_document_not_found"),
                      ({**base, "temperature": 3}, "validation_failed"), ({**base, "maxTokens": 0}, "validation_failed"),
                      ({"name": "x"}, "validation_failed")):
        assert_problem(api.post(_url(line, "/agents"), bad, token=token), 400, code, bad)
    local = api.post(_url(line, "/agents"), {**base, "name": "Soporte", "provider": "LOCAL", "model": "llama3.2:3b",
                                             "routeTags": ["soporte"], "isDefault": True}, token=token).json["data"]
    assert local["phoneNumberIds"] == [] and local["isDefault"] is True  # every number: the other default gave way
    assert api.get(_url(line, f"/agents/{sales['id']}"), token=token).json["data"]["isDefault"] is False
    assert [a["name"] for a in api.get(_url(line, f"/agents?phoneNumberId={number}"), token=token).json["data"]] == [
        "Soporte", "Ventas"]
    changed = api.patch(_url(line, f"/agents/{sales['id']}"), {"phoneNumberId": None, "routeTags": ["ventas"]}, token=token)
    assert changed.status_code == 200 and changed.json["data"]["phoneNumberIds"] == []
    assert_problem(api.patch(_url(line, f"/agents/{sales['id']}"), {}, token=token), 400, "validation_failed")
    assert_problem(api.patch(_url(line, f"/agents/{sales['id']}"), {"routeTags": ["soporte"]}, token=token),
                   400, "route_tag_conflict")


def test_the_catalogs(line):
    api, token = line.api, line.owner["token"]
    capabilities = api.get(_url(line, "/agents/capabilities"), token=token).json["data"]
    assert [c["key"] for c in capabilities] == ["knowledge_search", "services_catalog", "send_images", "handoff",
                                                "create_task", "schedule_appointment"]
    models = api.get(_url(line, "/agents/modelos"), token=token).json["data"]
    assert {m["provider"] for m in models} == {"OPENAI", "ANTHROPIC", "GEMINI", "GROQ", "MISTRAL"}
    assert all(m["priceInPer1M"] >= 0 and m["contextTokens"] > 0 for m in models)
    api.put(_url(line, "/providers/LOCAL"), {"baseUrl": f"{line.netsim_url}/ai/openai"}, token=token)
    local = [m["model"] for m in api.get(_url(line, "/agents/modelos"), token=token).json["data"] if m["provider"] == "LOCAL"]
    assert local == ["double-large", "double-small"]


def test_a_conversation_is_pinned_and_unpinned_and_a_deleted_agent_lets_go(line):
    api, token = line.api, line.owner["token"]
    line.customer_writes()
    line.deliver()
    [conversation] = line.get("/conversations")["items"]
    agent = api.post(_url(line, "/agents"), {"name": "Ventas", "provider": "GEMINI", "model": "gemini-2.0-flash"},
                     token=token).json["data"]
    path = f"/organizations/{line.org_id}/conversations/{conversation['id']}/agent"
    pinned = api.patch(path, {"agentId": agent["id"]}, token=token)
    assert pinned.status_code == 200 and pinned.json["data"]["botAgentId"] == agent["id"]
    assert_problem(api.patch(path, {"agentId": str(uuid.uuid4())}, token=token), 404, "agent_not_found")
    assert_problem(api.patch(path, {}, token=token), 400, "validation_failed")
    assert api.delete(_url(line, f"/agents/{agent['id']}"), token=token).status_code == 200
    assert line.get(f"/conversations/{conversation['id']}")["botAgentId"] is None  # back to the router
    other_number = api.post(_url(line, "/agents"), {"name": "Otra línea", "provider": "GEMINI", "model": "gemini-2.0-flash",
                                                    "phoneNumberIds": []}, token=token).json["data"]
    assert api.patch(path, {"agentId": other_number["id"]}, token=token).json["data"]["botAgentId"] == other_number["id"]
    assert api.patch(path, {"agentId": None}, token=token).json["data"]["botAgentId"] is None


def test_plans_members_and_other_tenants(line, api):
    token = line.owner["token"]
    with runtime.get().db.unit_of_work(write=True) as session:
        session.get(Organization, line.org_id).plan_slug = "free"
    refused = api.post(_url(line, "/agents"), {"name": "V", "provider": "OPENAI", "model": "gpt-4o-mini"}, token=token)
    assert_problem(refused, 400, "plan_capability_missing")
    with runtime.get().db.unit_of_work(write=True) as session:
        session.get(Organization, line.org_id).plan_slug = "business"
    agent = api.post(_url(line, "/agents"), {"name": "V", "provider": "OPENAI", "model": "gpt-4o-mini"}, token=token).json["data"]
    supervisor = factories.add_member(api, line.org_id, "supervisor", "sup@example.com")
    assert api.get(_url(line, "/agents"), token=supervisor).status_code == 200
    assert api.post(_url(line, "/agents"), {"name": "X", "provider": "OPENAI", "model": "gpt-4o-mini"},
                    token=supervisor).status_code == 403
    assert api.put(_url(line, "/providers/OPENAI"), {"apiKey": "k"}, token=supervisor).status_code == 403
    stranger = factories.person(api, email="eve@example.com")["tokens"]["accessToken"]
    theirs = factories.organization(api, stranger, name="Evil", slug="evil")
    assert_problem(api.get(f"/organizations/{theirs['id']}/bot/agents/{agent['id']}", token=stranger), 404, "agent_not_found")
    assert_problem(api.patch(f"/organizations/{theirs['id']}/bot/agents/{agent['id']}", {"name": "mine"}, token=stranger),
                   404, "agent_not_found")
