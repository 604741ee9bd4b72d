"""Issue 43, "The bot and the people": what a new owner's first day tripped over. The welcome
replaces the fallback (also when the AI fails on a first message); a conversation reopened within
24 hours is welcomed again; "Return to bot" works whoever is assigned and is logged; a protected
value cut from an AI reply is logged; a close ends a hand-off."""

import requests

from tests.bots.test_bot_ai import _agent
from tests.bots.test_bot_engine import _bot, _kinds, _reads_outlive_the_clock, _rule, _texts, _write  # noqa: F401
from tests.browser_forms import sign_in

WELCOME = "¡Bienvenida a Panadería Sol!"
FALLBACK = "No te entendí; escribe 'pan'."


def _conversation(line) -> dict:
    [conversation] = line.get("/conversations")["items"]
    return conversation


def _set_status(line, api, conversation_id, status):
    answer = api.patch(f"/organizations/{line.org_id}/conversations/{conversation_id}/status", {"status": status},
                       token=line.owner["token"])
    assert answer.status_code == 200, answer.json


def test_a_first_message_nothing_answers_gets_the_welcome_alone_and_one_a_rule_answers_gets_both(line, api):
    _bot(line, api, welcomeEnabled=True, welcomeMessage=WELCOME, fallbackEnabled=True, fallbackMessage=FALLBACK)
    _rule(line, api)
    _write(line, "Hola")
    assert _texts(line) == [WELCOME]  # before: the welcome, then "No te entendí"
    _write(line, "¿tienen pan?")
    assert _texts(line)[1:] == ["Sí, pan recién horneado."]
    _write(line, "¿y tortillas?")
    assert _texts(line)[2:] == [FALLBACK]  # not a first message any more: the fallback answers
    # Another customer whose first message a rule answers: the welcome and the answer.
    line.customer_writes({"type": "text", "text": {"body": "pan, por favor"}}, wa_id="5215599990000", name="Luis")
    line.deliver()
    assert _texts(line)[3:] == [WELCOME, "Sí, pan recién horneado."]


def test_a_first_message_the_ai_fails_on_gets_the_welcome_alone(line, api):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT", welcomeEnabled=True, welcomeMessage=WELCOME, fallbackEnabled=True,
         fallbackMessage=FALLBACK)
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [500, 500]}, timeout=5)
    _write(line, "¿Cuánto cuesta el envío?")
    assert _texts(line) == [WELCOME]
    assert _kinds(line)[-3:] == ["WELCOME_SENT", "AI_ERROR", "FALLBACK_SKIPPED"]


def test_a_conversation_reopened_within_24_hours_is_welcomed_again(line, api):
    _bot(line, api, welcomeEnabled=True, welcomeMessage=WELCOME)
    _write(line, "Hola")
    assert _texts(line) == [WELCOME]
    conversation = _conversation(line)
    sent = api.post(f"/organizations/{line.org_id}/messages", {"phoneNumberId": line.number["id"], "to": "5215512345678",
                                                               "type": "text", "payload": {"body": "¡Listo, gracias!"}},
                    token=line.owner["token"])
    assert sent.status_code == 201, sent.json
    _set_status(line, api, conversation["id"], "closed")
    _write(line, "Hola otra vez")  # minutes later: the same 24-hour window, a new period
    assert _texts(line) == [WELCOME, "¡Listo, gracias!", WELCOME]
    assert _kinds(line).count("WELCOME_SENT") == 2


def test_a_conversation_the_bot_never_spoke_in_is_welcomed_after_its_close_and_its_old_messages_left_alone(line, api):
    """A person answered before the bot was turned on: the close alone marks the new period, and what
    the customer said before it is not the bot's to answer."""
    _rule(line, api)
    _write(line, "¿tienen pan?")
    sent = api.post(f"/organizations/{line.org_id}/messages", {"phoneNumberId": line.number["id"], "to": "5215512345678",
                                                               "type": "text", "payload": {"body": "Sí, pasa."}},
                    token=line.owner["token"])
    assert sent.status_code == 201, sent.json
    _set_status(line, api, _conversation(line)["id"], "closed")
    _bot(line, api, welcomeEnabled=True, welcomeMessage=WELCOME)
    _write(line, "Hola de nuevo")
    assert _texts(line) == ["Sí, pasa.", WELCOME]  # before: the old question answered too


def test_return_to_bot_clears_the_assignee_and_the_silence_and_is_logged(line, api):
    _bot(line, api, humanHandoffKeywords=["asesor"], handoffMessage="Te comunico con una persona.")
    _rule(line, api)
    _write(line, "Quiero un asesor")
    conversation = _conversation(line)
    me = api.get("/users/me", token=line.owner["token"]).json["data"]
    assigned = api.patch(f"/organizations/{line.org_id}/conversations/{conversation['id']}/assignee",
                         {"userId": me["id"]}, token=line.owner["token"])
    assert assigned.status_code == 200, assigned.json
    _write(line, "¿tienen pan?")
    assert _texts(line) == ["Te comunico con una persona."]  # a person has it: the bot is silent
    back = api.post(f"/organizations/{line.org_id}/conversations/{conversation['id']}/devolver-al-bot", {},
                    token=line.owner["token"])
    assert back.status_code == 200, back.json
    assert (back.json["data"]["handoffPending"], back.json["data"]["assigneeUserId"]) == (False, None)
    [returned] = line.get("/bot/activity?kind=RETURNED_TO_BOT")["items"]
    assert returned["conversationId"] == conversation["id"]
    assert returned["detail"] == {"byUserId": me["id"], "previousAssigneeUserId": me["id"]}
    _write(line, "¿tienen pan?")
    assert _texts(line)[-1] == "Sí, pan recién horneado."  # before: silent until the assignee was cleared by hand
    # The bot's next silence is said again (it was logged once, before the return).
    _write(line, "asesor por favor")
    _write(line, "¿hola?")
    assert _kinds(line)[-2:] == ["HANDOFF", "SKIPPED"]


def test_return_to_bot_of_an_assigned_conversation_without_a_hand_off_gives_it_back_too(line, api):
    _bot(line, api)
    _rule(line, api)
    _write(line, "hola")
    conversation = _conversation(line)
    me = api.get("/users/me", token=line.owner["token"]).json["data"]
    api.patch(f"/organizations/{line.org_id}/conversations/{conversation['id']}/assignee", {"userId": me["id"]},
              token=line.owner["token"])
    back = api.post(f"/organizations/{line.org_id}/conversations/{conversation['id']}/devolver-al-bot", {},
                    token=line.owner["token"])
    assert back.json["data"]["assigneeUserId"] is None
    _write(line, "¿hay pan?")
    assert _texts(line)[-1] == "Sí, pan recién horneado."


def test_a_protected_value_cut_from_an_ai_reply_is_logged(line, api):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT", protectedValues=["5 euros"])
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    [reply] = _texts(line)
    assert "[protegido]" in reply
    [blocked] = line.get("/bot/activity?kind=PROTECTED_VALUE_BLOCKED")["items"]
    assert blocked["detail"]["count"] >= 1


def test_a_close_ends_the_hand_off_so_the_reopened_conversation_has_the_bot_and_no_banner(line, api):
    _bot(line, api, humanHandoffKeywords=["asesor"], handoffMessage="Te comunico con una persona.")
    _rule(line, api)
    _write(line, "un asesor por favor")
    conversation = _conversation(line)
    assert conversation["handoffPending"] is True
    _set_status(line, api, conversation["id"], "closed")
    closed = line.get(f"/conversations/{conversation['id']}")
    assert (closed["status"], closed["handoffPending"]) == ("closed", False)
    sign_in(line.client, email="owner@example.com")
    assert 'class="handoff-banner"' not in line.client.get(f"/inbox/{line.org_id}/c/{conversation['id']}").text
    _write(line, "¿tienen pan?")
    assert _texts(line)[-1] == "Sí, pan recién horneado."
