"""The console's bot pages without JavaScript: each number's bot turned on and set, its problems
said, and rules written, checked by the API's rules and changed."""

import re

from tests.browser_forms import csrf_of, sign_in
from tests.factories import add_member


def _post_from(client, page_path, action, data=None):
    return client.post(action, data={"csrf": csrf_of(client.get(page_path)), **(data or {})})


def test_a_numbers_bot_is_turned_on_set_and_its_problems_said(line):
    client, org = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    bot = f"/console/{org}/bot"
    page = client.get(bot)
    assert page.status_code == 200 and "Turn on" in page.text and 'href="' + bot + '"' in page.text  # in the nav
    on = _post_from(client, bot, f"{bot}/numbers/{line.number['id']}/toggle")
    assert on.status_code == 302 and "done=bot_on" in on.headers["Location"]
    assert "The bot is on but its mode is OFF" in client.get(on.headers["Location"]).text
    settings = f"{bot}/numbers/{line.number['id']}"
    form = {"enabled": "1", "mode": "RULES_ONLY", "ritmo_de_respuesta": "NATURAL", "debounce_seconds": "4",
            "welcome_enabled": "1", "welcome_message": "¡Hola! Soy el asistente de Sol.",
            "human_handoff_keywords": "asesor, humano", "handoff_message": "Ya te atiende una persona.",
            "max_replies_per_window": "0", "reply_window_minutes": "60"}
    saved = _post_from(client, settings, settings, form)
    assert saved.status_code == 302, saved.text
    config = line.get(f"/bot/config/{line.number['id']}")
    assert (config["mode"], config["ritmoDeRespuesta"], config["debounceSeconds"]) == ("RULES_ONLY", "NATURAL", 4)
    assert config["humanHandoffKeywords"] == ["asesor", "humano"] and config["welcomeEnabled"] is True
    wrong = _post_from(client, settings, settings, {**form, "debounce_seconds": "500", "welcome_message": "x" * 4097})
    assert wrong.status_code == 400
    assert 'id="error-debounceSeconds"' in wrong.text and 'id="error-welcomeMessage"' in wrong.text
    assert 'value="500"' in wrong.text  # what was typed stays
    assert "No enabled rule applies to this number." in client.get(bot).text


def test_rules_are_written_checked_changed_and_deleted(line):
    client, org = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    rules = f"/console/{org}/bot/rules"
    assert "No rules yet" in client.get(rules).text
    nothing = _post_from(client, rules, rules, {"name": "Vacía", "keywords": "hola", "match_type": "CONTAINS",
                                                "action": "NONE", "reply": "", "priority": "100", "enabled": "1"})
    assert nothing.status_code == 400 and 'id="error-reply"' in nothing.text and 'value="Vacía"' in nothing.text
    made = _post_from(client, rules, rules, {"name": "Horario", "keywords": "horario, abren", "match_type": "CONTAINS",
                                             "action": "NONE", "reply": "De 8 a 18.", "priority": "10", "enabled": "1"})
    assert made.status_code == 302
    listing = client.get(rules).text
    assert "horario, abren" in listing and "De 8 a 18." not in listing
    rule_page = re.search(rf'href="({rules}/[0-9a-f-]+)"', listing).group(1)
    changed = _post_from(client, rule_page, rule_page, {"name": "Horario", "keywords": "horario", "match_type": "EXACT",
                                                        "action": "HANDOFF", "reply": "", "priority": "5"})
    assert changed.status_code == 302
    [rule] = line.get("/bot/rules")
    assert (rule["matchType"], rule["action"], rule["enabled"], rule["keywords"]) == ("EXACT", "HANDOFF", False, ["horario"])
    assert _post_from(client, rule_page, f"{rule_page}/delete").status_code == 302
    assert line.get("/bot/rules") == []


def test_an_agent_reads_the_bot_but_cannot_change_it(line, api):
    add_member(api, line.org_id, "agent", "agent@example.com")  # agents have bot:read, not bot:write
    sign_in(line.client, email="agent@example.com")
    page = line.client.get(f"/console/{line.org_id}/bot")
    assert page.status_code == 200 and "Turn on" not in page.text
    settings = f"/console/{line.org_id}/bot/numbers/{line.number['id']}"
    shown = line.client.get(settings)
    assert "<fieldset class=\"bare\" disabled>" in shown.text
    assert line.client.post(settings, data={"csrf": csrf_of(shown), "enabled": "1"}).status_code == 403
    assert line.get(f"/bot/config/{line.number['id']}")["enabled"] is False
