"""Issue 18 in the inbox: the bot's messages are marked as the bot's, its decisions sit in the
thread among the messages, a hand-off shows the banner, and "Return to bot" gives the
conversation back (the bot answers again)."""

import re

from tests.browser_forms import csrf_of, sign_in


def _write(line, text):
    line.customer_writes({"type": "text", "text": {"body": text}})
    line.deliver()


def test_an_agent_sees_what_the_bot_said_and_decided_and_returns_a_conversation_to_it(line, api):
    org, token = line.org_id, line.owner["token"]
    assert api.put(f"/organizations/{org}/bot/config/{line.number['id']}", {
        "enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0, "humanHandoffKeywords": ["asesor"],
        "handoffMessage": "Te comunico con una persona."}, token=token).status_code == 200
    assert api.post(f"/organizations/{org}/bot/rules", {"name": "Pan", "keywords": ["pan"], "reply": "Sí, hay pan."},
                    token=token).status_code == 201
    _write(line, "¿tienen pan?")
    _write(line, "quiero un asesor")
    conversation = line.get("/conversations")["items"][0]
    sign_in(line.client, email="owner@example.com")
    page = line.client.get(f"/inbox/{org}/c/{conversation['id']}").text
    assert page.count("bot-sender") == 2  # both replies marked as the bot's
    decisions = re.findall(r'data-bot-decision="([A-Z_]+)"', page)
    assert decisions == ["RULE_MATCHED", "HANDOFF"]
    assert "“Pan”" in page and "the customer asked for a person" in page
    assert 'class="handoff-banner"' in page
    # The thread's order: the customer's question, the rule's decision, the bot's answer...
    order = [m.group(0) for m in re.finditer(r'¿tienen pan\?|data-bot-decision="RULE_MATCHED"|Sí, hay pan\.', page)]
    assert order == ["¿tienen pan?", 'data-bot-decision="RULE_MATCHED"', "Sí, hay pan."]

    back = line.client.post(f"/inbox/{org}/c/{conversation['id']}/do/return_to_bot",
                            data={"csrf": csrf_of(line.client.get(f"/inbox/{org}/c/{conversation['id']}"))})
    assert back.status_code in (200, 302, 303)
    assert line.get("/conversations")["items"][0]["handoffPending"] is False
    _write(line, "¿y pan dulce?")
    page = line.client.get(f"/inbox/{org}/c/{conversation['id']}").text
    assert 'class="handoff-banner"' not in page and page.count("bot-sender") == 3


def test_a_message_that_is_only_a_shortcut_sends_the_quick_reply_without_javascript(line, api):
    import requests
    org, token = line.org_id, line.owner["token"]
    assert api.post(f"/organizations/{org}/quick-replies", {"shortcut": "/horario", "text": "Abrimos de 8 a 18."},
                    token=token).status_code == 201
    _write(line, "¿a qué hora abren?")
    conversation = line.get("/conversations")["items"][0]
    sign_in(line.client, email="owner@example.com")
    path = f"/inbox/{org}/c/{conversation['id']}"
    page = line.client.get(path)
    assert 'data-shortcut="/horario"' in page.text  # offered to the composer's script
    for body in ("/HORARIO", "/horario y algo más", "/nada"):
        line.client.post(f"{path}/do/reply", data={"csrf": csrf_of(page), "body": body})
    sent = requests.get(f"{line.netsim_url}/_control/sent", timeout=5).json()["data"]
    assert [m["text"]["body"] for m in sent] == ["Abrimos de 8 a 18.", "/horario y algo más", "/nada"]
