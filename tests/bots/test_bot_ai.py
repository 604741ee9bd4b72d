"""Issue 20, part: the AI step of the engine. A customer's question answered by the number's
default agent through a real provider client and the AI double, grounded in the knowledge base,
logged with its tokens and the passages it read; a provider that fails leaves AI_ERROR with the
reason and the fallback, never a silent customer; a person who writes while the model thinks
drops its answer; protected values are never said."""

import requests

from appliance.bots import ai_step
from appliance.core import runtime
from tests.bots.test_bot_engine import _bot, _kinds, _reads_outlive_the_clock, _texts, _write  # noqa: F401

NOTE = "# Envíos\n\nEl envío a domicilio cuesta 5 euros y es gratis en pedidos de más de 50 euros."


def _agent(line, api, **fields):
    token, base = line.owner["token"], f"/organizations/{line.org_id}/bot"
    assert api.put(f"{base}/providers/LOCAL", {"baseUrl": f"{line.netsim_url}/ai/openai"}, token=token).status_code == 200
    assert api.post(f"{base}/knowledge/notes", {"title": "Envíos", "content": NOTE}, token=token).status_code == 201
    made = api.post(f"{base}/agents", {"name": "Ventas", "provider": "LOCAL", "model": "double-small", "isDefault": True,
                                       "capabilities": ["knowledge_search"], **fields}, token=token)
    assert made.status_code == 201, made.json
    return made.json["data"]


def test_the_default_agent_answers_from_the_knowledge_base(line, api):
    agent = _agent(line, api)
    _bot(line, api, mode="AI_AGENT")
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    [reply] = _texts(line)
    assert "5 euros" in reply
    activity = line.get("/bot/activity")["items"]
    answered = next(a for a in activity if a["kind"] == "AI_REPLY")
    assert answered["detail"]["agentId"] == agent["id"] and answered["detail"]["tokensIn"] > 10
    assert answered["detail"]["passages"][0]["title"] == "Envíos"
    insights = line.get("/bot/knowledge/insights")
    assert insights["queries"] == 1 and insights["answered"] == 1 and insights["byAgent"][0]["agentId"] == agent["id"]
    with runtime.get().db.unit_of_work(write=False) as session:
        from appliance.bots import states
        [conversation] = line.get("/conversations")["items"]
        assert states.read(session, conversation["id"]).ai_job is None


def test_rules_first_then_the_agent(line, api):
    _agent(line, api)
    _bot(line, api, mode="RULES_PLUS_AI_FALLBACK")
    api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "Pan", "keywords": ["pan"], "reply": "Sí, hay pan."},
             token=line.owner["token"])
    _write(line, "¿Tienen pan?")
    _write(line, "¿El envío es gratis?")
    texts = _texts(line)
    assert texts[0] == "Sí, hay pan." and "gratis" in texts[1]
    assert _kinds(line)[-2:] == ["RULE_MATCHED", "AI_REPLY"]


def test_a_failing_provider_leaves_ai_error_and_the_fallback(line, api):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT", fallbackEnabled=True, fallbackMessage="Enseguida te atiende una persona.")
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [500, 500]}, timeout=5)
    _write(line, "¿Cuánto cuesta el envío?")
    assert _texts(line) == ["Enseguida te atiende una persona."]
    error = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "AI_ERROR")
    assert error["detail"]["reason"] == "unavailable" and "failed on its side" in error["detail"]["detail"]
    local = next(p for p in line.get("/bot/providers") if p["provider"] == "LOCAL")
    assert "failed on its side" in local["lastError"]
    assert _kinds(line)[-2:] == ["AI_ERROR", "FALLBACK_SENT"]


def test_no_agent_is_said_and_the_fallback_answers(line, api):
    _bot(line, api, mode="AI_AGENT", fallbackEnabled=True, fallbackMessage="Te escribimos pronto.")
    _write(line, "hola")
    assert _texts(line) == ["Te escribimos pronto."]
    skipped = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "SKIPPED")
    assert skipped["detail"]["reason"] == "no_agent"


def test_protected_values_are_never_said(line, api):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT", protectedValues=["5 euros"])
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    [reply] = _texts(line)
    assert "5 euros" not in reply and "[protegido]" in reply


def _thinking(line, api, monkeypatch) -> list[tuple[str, str]]:
    """An AI bot whose jobs are held, not run: the model "thinks" until the test runs them."""
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT")
    jobs = []
    monkeypatch.setattr(ai_step.workers, "submit", lambda conversation_id, token: jobs.append((conversation_id, token)))
    return jobs


def test_a_person_who_writes_while_the_model_thinks_drops_its_answer(line, api, monkeypatch):
    jobs = _thinking(line, api, monkeypatch)
    _write(line, "¿Cuánto cuesta el envío?")
    [(conversation_id, token)] = jobs
    sent = api.post(f"/organizations/{line.org_id}/messages", {"phoneNumberId": line.number["id"], "to": "5215512345678",
                                                               "type": "text", "payload": {"body": "Te atiendo yo, Ana."}},
                    token=line.owner["token"])
    assert sent.status_code == 201, sent.json
    line.deliver()
    monkeypatch.undo()
    ai_step.run(runtime.get().db, conversation_id, token)
    assert not any("5 euros" in (t or "") for t in _texts(line))
    assert "AI_REPLY" not in _kinds(line) and "SUPERSEDED" in _kinds(line)


def test_a_customer_who_writes_again_while_the_model_thinks_gets_one_answer_and_the_log_says_why(line, api, monkeypatch):
    jobs = _thinking(line, api, monkeypatch)
    _write(line, "Hola")
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    [(conversation_id, first), (_, second)] = jobs
    dropped = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "SUPERSEDED")
    assert dropped["detail"]["reason"] == "newer_question" and dropped["detail"]["ai"] is True
    monkeypatch.undo()
    ai_step.run(runtime.get().db, conversation_id, first)  # finds its token gone: says nothing
    assert _texts(line) == []
    ai_step.run(runtime.get().db, conversation_id, second)
    [reply] = _texts(line)
    assert "5 euros" in reply
    assert _kinds(line).count("AI_REPLY") == 1


def test_an_answer_a_crash_cut_short_is_given_again_at_start(line, api, monkeypatch):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT")
    monkeypatch.setattr(ai_step.workers, "submit", lambda conversation_id, token: None)  # the process dies here
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    assert _texts(line) == []
    monkeypatch.undo()
    assert ai_step.resume(runtime.get().db, older_than=None) == 1
    [reply] = _texts(line)
    assert "5 euros" in reply
    assert ai_step.resume(runtime.get().db, older_than=None) == 0  # done: nothing left, nothing twice


def test_an_agent_that_hands_off_starts_no_follow_up(line, api, monkeypatch):
    """The AI step's turn holds the conversation as a read-only row; after the agent's hand-off the
    turn sees it pending a person, so no follow-up is scheduled behind the team's back."""
    from appliance.ai_agents import answering
    from appliance.bots import states

    def hands_off(*args, **kwargs):
        return answering.Answer("Te paso con una persona.", ["Te paso con una persona."],
                                actions=[{"type": "handoff", "reason": "quiere hablar con alguien"}])

    _agent(line, api, capabilities=["knowledge_search", "handoff"])
    _bot(line, api, mode="AI_AGENT", followUpEnabled=True, followUpMessage="¿Sigues ahí?")
    monkeypatch.setattr(answering, "answer", hands_off)
    _write(line, "Quiero hablar con una persona")
    assert _texts(line) == ["Te paso con una persona."]
    assert _kinds(line)[-2:] == ["AI_REPLY", "HANDOFF"]
    [conversation] = line.get("/conversations")["items"]
    assert conversation["handoffPending"] is True
    with runtime.get().db.unit_of_work(write=False) as session:
        assert states.read(session, conversation["id"]).follow_up_at is None
