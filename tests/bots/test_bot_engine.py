"""Issue 18, part 3: the engine. A customer's message on a number whose bot is on becomes a turn
(after the debounce), decided in the order of the docs, answered once, as the bot; every
decision is in the activity log. The tests of time (the debounce, a natural pace, follow-ups)
run twice: inline, and on the server's threads with the clock held (tests/fixtures/workers.py)."""

import re

import pytest
import requests

from appliance.bots import runner
from appliance.bots import tasks as bot_tasks
from appliance.core import clock, runtime
from tests.waiting import eventually


def _network_got(line) -> list[dict]:
    return requests.get(f"{line.netsim_url}/_control/sent", timeout=5).json()["data"]


def _texts(line) -> list[str]:
    return [m.get("text", {}).get("body") or m.get("interactive", {}).get("body", {}).get("text")
            for m in _network_got(line)]


@pytest.fixture(autouse=True)
def _reads_outlive_the_clock(line, api):
    """Tests move the clock past a person's 15-minute token: `line.get` reads with a key instead."""
    secret = api.post(f"/organizations/{line.org_id}/api-keys", {"name": "lector"},
                      token=line.owner["token"]).json["data"]["secret"]

    def get(path):
        answer = api.client.get(f"/organizations/{line.org_id}{path}", headers={"X-Api-Key": secret})
        assert answer.status_code == 200, answer.json
        return answer.json["data"]
    line.get = get


def _bot(line, api, **fields):
    body = {"enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0, **fields}
    answer = api.put(f"/organizations/{line.org_id}/bot/config/{line.number['id']}", body, token=line.owner["token"])
    assert answer.status_code == 200, answer.json
    return answer.json["data"]


def _rule(line, api, **fields):
    answer = api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "Pan", "keywords": ["pan"],
                                                                  "reply": "Sí, pan recién horneado.", **fields},
                      token=line.owner["token"])
    assert answer.status_code == 201, answer.json
    return answer.json["data"]


def _kinds(line) -> list[str]:
    return [a["kind"] for a in reversed(line.get("/bot/activity")["items"])]


def _write(line, text):
    line.customer_writes({"type": "text", "text": {"body": text}})
    line.deliver()


def test_a_rule_answers_the_customer_as_the_bot(line, api):
    _bot(line, api)
    _rule(line, api)
    _write(line, "Hola, ¿tienen PAN?")
    assert _texts(line) == ["Sí, pan recién horneado."]
    assert _kinds(line) == ["RULE_MATCHED"]
    thread = line.get("/conversations")["items"][0]
    messages = line.get(f"/conversations/{thread['id']}/messages")["items"]
    assert [m["sentBy"] for m in messages if m["direction"] == "out"] == ["bot"]


def _run_after(seconds):
    clock.advance(seconds)
    runner.run_due(runtime.get().db)


def _after(background, seconds):
    """`seconds` later, whoever runs the bots: inline their minute sweep runs, as the queue's
    scheduler would run it; the server's thread wakes by itself."""
    background.advance(seconds, bot_tasks.run_due_sweep)


def _texts_become(line, expected: list[str]) -> list[str]:
    return eventually(lambda: _texts(line), lambda texts: texts == expected)


def test_a_burst_is_answered_once_after_the_debounce(line, api, background):
    _bot(line, api, debounceSeconds=5)
    _rule(line, api)
    for text in ("Hola", "buenas", "¿tienen pan?"):
        _write(line, text)
    _after(background, 0)
    assert _texts(line) == [] and _kinds(line) == []  # still inside the debounce
    _after(background, 6)
    _texts_become(line, ["Sí, pan recién horneado."])
    _after(background, 6)  # nothing due any more: the same messages are never answered again
    assert _kinds(line) == ["RULE_MATCHED"] and len(_network_got(line)) == 1


def test_a_person_replying_supersedes_the_pending_bot_reply(line, api):
    _bot(line, api, debounceSeconds=5)
    _rule(line, api)
    _write(line, "¿tienen pan?")
    sent = api.post(f"/organizations/{line.org_id}/messages", {"phoneNumberId": line.number["id"], "to": "5215512345678",
                                                               "type": "text", "payload": {"body": "¡Sí! Pasa."}},
                    token=line.owner["token"])
    assert sent.status_code == 201, sent.json
    _run_after(6)
    assert _texts(line) == ["¡Sí! Pasa."]
    activity = line.get("/bot/activity")["items"]
    assert activity[0]["kind"] == "SUPERSEDED" and activity[0]["detail"]["reason"] == "person_replied"


def test_welcome_disclosure_and_fallback_in_that_order(line, api):
    _bot(line, api, welcomeEnabled=True, welcomeMessage="¡Bienvenida a Panadería Sol!",
         disclosureMessage="Soy un asistente automático.", fallbackEnabled=True,
         fallbackMessage="No te entendí; escribe 'pan' o 'asesor'.")
    _write(line, "Hola")
    # The welcome replaces the fallback on a first message nothing else answers.
    assert _texts(line) == ["Soy un asistente automático.", "¡Bienvenida a Panadería Sol!"]
    _write(line, "¿y mañana?")
    assert _texts(line)[2:] == ["No te entendí; escribe 'pan' o 'asesor'."]  # welcomed and disclosed once
    assert _kinds(line) == ["WELCOME_SENT", "FALLBACK_SKIPPED", "FALLBACK_SENT"]
    assert line.get("/bot/activity?kind=FALLBACK_SKIPPED")["items"][0]["detail"] == {"reason": "welcomed"}


def test_handoff_keywords_hand_off_and_the_bot_then_stays_silent_until_returned(line, api):
    _bot(line, api, humanHandoffKeywords=["asesor", "persona"], handoffMessage="Te comunico con una persona.")
    _rule(line, api)
    _write(line, "Quiero hablar con un ASESOR")
    conversation = line.get("/conversations")["items"][0]
    assert conversation["handoffPending"] is True
    _write(line, "¿tienen pan?")
    _write(line, "¿hola?")
    assert _texts(line) == ["Te comunico con una persona."]
    assert _kinds(line) == ["HANDOFF", "SKIPPED"]  # the silence is said once, not per message
    assert line.get("/bot/activity")["items"][0]["detail"]["reason"] == "handoff_pending"
    back = api.post(f"/organizations/{line.org_id}/conversations/{conversation['id']}/devolver-al-bot", {},
                    token=line.owner["token"])
    assert back.status_code == 200, back.json
    _write(line, "¿tienen pan?")
    assert _texts(line)[-1] == "Sí, pan recién horneado."


def test_the_bot_never_answers_excluded_assigned_or_opted_out_customers(line, api):
    _bot(line, api)
    _rule(line, api)
    _write(line, "pan")
    conversation = line.get("/conversations")["items"][0]
    contact_id = conversation["contact"]["id"] if "contact" in conversation else conversation["contactId"]
    token = line.owner["token"]
    assert api.patch(f"/organizations/{line.org_id}/contacts/{contact_id}", {"botExcluded": True},
                     token=token).status_code == 200
    _write(line, "pan")
    assert api.patch(f"/organizations/{line.org_id}/contacts/{contact_id}", {"botExcluded": False},
                     token=token).status_code == 200
    me = api.get("/users/me", token=token).json["data"]
    assigned = api.patch(f"/organizations/{line.org_id}/conversations/{conversation['id']}/assignee",
                         {"userId": me["id"]}, token=token)
    assert assigned.status_code == 200, assigned.json
    _write(line, "pan")
    assert _texts(line) == ["Sí, pan recién horneado."]
    reasons = [a["detail"].get("reason") for a in line.get("/bot/activity")["items"] if a["kind"] == "SKIPPED"]
    assert reasons == ["assigned", "bot_excluded"]


def test_protected_values_never_leave_and_the_cap_hands_off(line, api):
    _bot(line, api, protectedValues=["0123 4567 8901"], maxRepliesPerWindow=2, replyWindowMinutes=60)
    _rule(line, api, reply="Deposita a la cuenta 0123-4567-8901, gracias.")
    _write(line, "pan")
    assert _texts(line) == ["Deposita a la cuenta [protegido], gracias."]
    _write(line, "pan")
    _write(line, "pan")  # a third reply within the hour: over the cap
    assert len(_texts(line)) == 2
    kinds = _kinds(line)
    assert "PROTECTED_VALUE_BLOCKED" in kinds and kinds[-2:] == ["REPLY_CAP_REACHED", "HANDOFF"]
    assert line.get("/conversations")["items"][0]["handoffPending"] is True


def test_natural_pace_splits_and_sends_each_part_when_typed(line, api, background):
    _bot(line, api, ritmoDeRespuesta="NATURAL", velocidadTecleoCps=10)
    long = "Tenemos pan dulce y salado. " * 6 + "\n\nHorneamos cada mañana a las siete."
    _rule(line, api, reply=long.strip())
    _write(line, "pan")
    _after(background, 0)
    assert _texts(line) == []  # the first part is being "typed"
    _after(background, 40)
    parts = eventually(lambda: _texts(line), lambda parts: len(parts) == 2)
    assert all(len(p) <= 300 for p in parts) and parts[1] == "Horneamos cada mañana a las siete."
    typing = requests.get(f"{line.netsim_url}/_control/stats", timeout=5).json()
    assert typing  # the read mark with "typing…" went out (the simulator counts it)


def test_out_of_hours_notice_once_per_closed_period_and_a_task_for_a_person(line, api):
    token = line.owner["token"]
    # Closed every day but a minute that has passed: the next opening is tomorrow.
    assert api.patch(f"/organizations/{line.org_id}", {"timezone": "America/Mexico_City", "country": "MX",
                     "businessHoursSchedule": {d: [{"open": "00:00", "close": "00:01"}] for d in
                                               ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}},
                     token=token).status_code == 200
    _bot(line, api, outOfHoursEnabled=True, outOfHoursMessage="Estamos cerrados.", outOfHoursTaskEnabled=True,
         outOfHoursTaskMessage="Te llamamos el {apertura}.", humanHandoffKeywords=["asesor"])
    _write(line, "hola")
    _write(line, "quiero un asesor")
    texts = _texts(line)
    assert texts[0] == "Estamos cerrados." and texts.count("Estamos cerrados.") == 1
    assert re.fullmatch(r"Te llamamos el (lunes|martes|miércoles|jueves|viernes|sábado|domingo) 00:00\.", texts[1])
    tasks = line.get("/tasks")["items"]
    assert [t["origin"] for t in tasks] == ["BOT"]
    assert _kinds(line)[-1] == "HANDOFF_DEFERRED"
    assert line.get("/conversations")["items"][0]["handoffPending"] is False
    _run_after(26 * 3600)  # past the opening and its grace: the hand-off happens
    assert line.get("/conversations")["items"][0]["handoffPending"] is True
    assert _kinds(line)[-1] == "HANDOFF"


def test_follow_up_nudges_then_closes(line, api, background):
    _bot(line, api, followUpEnabled=True, followUpAfterMin=30, followUpCloseAfterMin=60,
         followUpMessage="¿Sigues ahí?", followUpCloseMessage="Cerramos por ahora, ¡escríbenos cuando quieras!")
    _rule(line, api)
    _write(line, "pan")
    _texts_become(line, ["Sí, pan recién horneado."])
    _after(background, 29 * 60)
    assert _kinds(line) == ["RULE_MATCHED"]  # not before its half hour
    _after(background, 2 * 60)
    _texts_become(line, ["Sí, pan recién horneado.", "¿Sigues ahí?"])
    _after(background, 61 * 60)
    _texts_become(line, ["Sí, pan recién horneado.", "¿Sigues ahí?", "Cerramos por ahora, ¡escríbenos cuando quieras!"])
    assert _kinds(line)[-2:] == ["FOLLOWUP_SENT", "FOLLOWUP_CLOSED"]
    conversation = line.get("/conversations?status=closed")["items"][0]
    assert conversation["category"] == "bot_followup"


def test_a_customer_answering_cancels_the_follow_up(line, api, background):
    _bot(line, api, followUpEnabled=True, followUpAfterMin=30, followUpMessage="¿Sigues ahí?")
    _rule(line, api)
    _write(line, "pan")
    _texts_become(line, ["Sí, pan recién horneado."])
    _after(background, 10 * 60)
    _write(line, "gracias")
    _after(background, 25 * 60)
    assert "FOLLOWUP_SENT" not in _kinds(line) and "¿Sigues ahí?" not in _texts(line)


def test_a_refused_bot_reply_is_logged(line, api):
    _bot(line, api)
    _rule(line, api)
    assert requests.put(f"{line.netsim_url}/_control/faults", json={"failNext": [131026]}, timeout=5).status_code == 200
    _write(line, "pan")
    line.deliver()  # the failed status arrives
    failed = [a for a in line.get("/bot/activity")["items"] if a["kind"] == "FAILED"]
    assert failed and failed[0]["detail"]["reason"] == "network_refused"
    [number] = line.get("/bot/salud")["numbers"]  # and the bot's health says so for a day
    assert number["healthy"] is False and [p["code"] for p in number["problems"]] == ["recent_failures"]
