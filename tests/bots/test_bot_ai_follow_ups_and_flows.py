"""Issue 20, part: the AI in follow-ups and flows. With followUpMode AI the number's agent writes
the nudge (told the customer went quiet) and the log says so with its tokens; the customer
answering first drops it; a failing provider sends the written followUpMessage, or says why not.
A flow's "Pass to the AI agent" step pins its agent to the conversation, which answers at once; when
no AI can answer a person is asked to, and the log says why. A flow naming an unknown agent is
refused by the step's field."""

import requests

from appliance.bots import ai_step
from appliance.core import runtime

from tests.bots.test_bot_ai import _agent
from tests.bots.test_bot_engine import _after, _bot, _kinds, _reads_outlive_the_clock, _run_after, _texts, _write  # noqa: F401
from tests.problems import assert_problem
from tests.waiting import eventually


def _ai_calls(line):
    return requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"]


def test_the_agent_writes_the_follow_up(line, api, background):
    """Inline, and on the server's threads (the bots' runner hands the nudge to the AI workers)."""
    agent = _agent(line, api)
    eventually(lambda: line.get("/bot/knowledge"), lambda notes: notes[0]["status"] == "READY")  # read by the slow lane
    _bot(line, api, mode="AI_AGENT", followUpEnabled=True, followUpMode="AI", followUpAfterMin=30,
         followUpCloseAfterMin=60)
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    assert "5 euros" in eventually(lambda: _texts(line))[0]  # the agent's answer
    _after(background, 31 * 60)
    texts = eventually(lambda: _texts(line), lambda texts: len(texts) == 2)
    assert texts[-1] == "¿Sigues por ahí? Si quieres, seguimos donde lo dejamos."
    sent = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "FOLLOWUP_SENT")
    assert sent["detail"]["ai"] is True and sent["detail"]["agentId"] == agent["id"] and sent["detail"]["tokensIn"] > 0
    nudge = _ai_calls(line)[-1]["body"]
    assert "has not answered your last message" in nudge["messages"][0]["content"]
    assert nudge["messages"][-1] == {"role": "user", "content": "[No answer from the customer for 30 minutes]"}
    _after(background, 61 * 60)
    assert _kinds(line)[-1] == "FOLLOWUP_CLOSED"


def test_the_customer_answering_first_drops_the_nudge(line, api, monkeypatch):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT", followUpEnabled=True, followUpMode="AI", followUpAfterMin=30, debounceSeconds=60)
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    _run_after(61)
    held = []
    monkeypatch.setattr(ai_step.workers, "submit", lambda conversation_id, token: held.append((conversation_id, token)))
    _run_after(31 * 60)  # the nudge's job is left, not yet run
    monkeypatch.undo()
    _write(line, "Perdón, ya estoy aquí")  # its turn is a minute away: the nudge's answer arrives first
    ai_step.run(runtime.get().db, *held[0])
    assert not [t for t in _texts(line) if t.startswith("¿Sigues por ahí?")]
    skipped = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "FOLLOWUP_SKIPPED")
    assert skipped["detail"] == {"reason": "customer_replied", "stage": "nudge", "ai": True}


def test_a_failing_provider_sends_the_written_follow_up(line, api):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT", followUpEnabled=True, followUpMode="AI", followUpAfterMin=30,
         followUpMessage="¿Te ayudo con algo más?")
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [401]}, timeout=5)
    _run_after(31 * 60)
    assert _texts(line)[-1] == "¿Te ayudo con algo más?"
    sent = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "FOLLOWUP_SENT")
    assert sent["detail"] == {"fallback": True, "reason": "auth"}


def test_without_a_written_message_a_failed_nudge_says_why(line, api):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT", followUpEnabled=True, followUpMode="AI", followUpAfterMin=30)
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [500, 500]}, timeout=5)
    _run_after(31 * 60)
    skipped = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "FOLLOWUP_SKIPPED")
    assert skipped["detail"]["reason"] == "unavailable" and skipped["detail"]["ai"] is True


def _flow(line, api, steps):
    made = api.post(f"/organizations/{line.org_id}/bot/flows", {"name": "Pedido", "triggerKeywords": ["pedido"],
                                                                "steps": steps}, token=line.owner["token"])
    return made


def test_a_flow_passes_the_conversation_to_its_agent(line, api):
    _agent(line, api)  # the number's default
    expert = api.post(f"/organizations/{line.org_id}/bot/agents", {"name": "Experta", "provider": "LOCAL",
                                                                   "model": "double-small",
                                                                   "systemPrompt": "Los pedidos se entregan en 24 horas."},
                      token=line.owner["token"]).json["data"]
    made = _flow(line, api, [{"id": "hola", "type": "message", "text": "Te paso con nuestra experta.", "next": "ia"},
                             {"id": "ia", "type": "transfer_to_ai", "agentId": expert["id"]}])
    assert made.status_code == 201, made.json
    _bot(line, api, mode="RULES_ONLY")
    _write(line, "Quiero hacer un pedido, ¿cuándo se entregan los pedidos?")
    texts = _texts(line)
    assert texts[0] == "Te paso con nuestra experta." and "24 horas" in texts[1]
    assert _kinds(line)[-3:] == ["FLOW_STARTED", "FLOW_COMPLETED", "AI_REPLY"]
    assert line.get("/conversations")["items"][0]["botAgentId"] == expert["id"]


def test_a_flow_without_an_ai_that_can_answer_asks_a_person(line, api):
    made = _flow(line, api, [{"id": "ia", "type": "transfer_to_ai"}])
    assert made.status_code == 201, made.json
    _bot(line, api, mode="RULES_ONLY")
    _write(line, "Quiero hacer un pedido")
    kinds = _kinds(line)
    assert kinds[-2:] == ["SKIPPED", "HANDOFF"]
    handoff = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "HANDOFF")
    assert handoff["detail"]["reason"] == "ai_unavailable"
    assert line.get("/conversations")["items"][0]["handoffPending"] is True


def test_a_flow_naming_an_unknown_agent_is_refused(line, api):
    refused = _flow(line, api, [{"id": "ia", "type": "transfer_to_ai", "agentId": "01a214dd-7407-7164-aaef-09787f422510"}])
    assert_problem(refused, 400, "unknown_ids")
    assert "steps.0.agentId" in refused.get_json()["errors"]
