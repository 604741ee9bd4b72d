"""The console's survey pages without JavaScript (issue 24): results empty at first, with a way to
turn surveys on; settings by form (the limits come back by field, nothing saved) with the WhatsApp
preview of what is saved; results after a customer answered; agents have no survey pages."""

from appliance.core import runtime
from appliance.surveys import sender
from tests import factories
from tests.browser_forms import csrf_of, sign_in


def _settings(page, **changes) -> dict:
    form = {"csrf": csrf_of(page), "active": "1", "delay_minutes": "0", "audience": "ALL", "cooldown_days": "0",
            "answer_timeout_hours": "24", "q0_text": "¿Cómo te atendimos?", "q0_options": "Excelente\nRegular\nMal",
            "q1_text": "", "q1_options": "", "q2_text": "", "q2_options": "", "comment_question": "¿Algo más?",
            "thanks_message": "¡Gracias!"}
    form.update(changes)
    return {key: value for key, value in form.items() if value is not None}


def test_an_owner_turns_surveys_on_and_sees_a_customers_answer(client, line):
    org = line.org_id
    sign_in(client, email="owner@example.com")
    results = client.get(f"/console/{org}/surveys")
    assert results.status_code == 200 and "Surveys are off" in results.text and "No surveys in these dates" in results.text
    page = client.get(f"/console/{org}/surveys/settings")
    assert "How would you rate the service you received?" in page.text  # the defaults, in the preview too

    wrong = client.post(f"/console/{org}/surveys/settings", data=_settings(page, q0_options="A\nB\nC\nD",
                                                                           delay_minutes="99999"))
    assert wrong.status_code == 400 and 'aria-invalid="true"' in wrong.text and "A\nB\nC\nD" in wrong.text
    assert line.get("/surveys/config")["updatedAt"] is None
    saved = client.post(f"/console/{org}/surveys/settings", data=_settings(page, ask_comment="1"))
    assert saved.status_code == 302
    shown = client.get(saved.headers["Location"])
    assert "Survey settings saved" in shown.text and 'class="wa-button">Regular<' in shown.text and "¿Algo más?" in shown.text
    assert line.get("/surveys/config")["askComment"] is True

    line.customer_writes({"type": "text", "text": {"body": "hola"}})
    line.deliver()
    [conversation] = line.get("/conversations")["items"]
    assert line.api.patch(f"/organizations/{org}/conversations/{conversation['id']}/status", {"status": "closed"},
                          token=line.owner["token"]).status_code == 200
    sender.send_due(runtime.get().db)
    sent = line.get(f"/conversations/{conversation['id']}/messages")["items"]
    button = next(m for m in sent if m["sentBy"] == "survey")["payload"]["action"]["buttons"][0]["reply"]
    line.customer_writes({"type": "interactive", "interactive": {"type": "button_reply", "button_reply": button}})
    line.deliver()
    results = client.get(f"/console/{org}/surveys")
    assert "Surveys are off" not in results.text and "data-average>3.0<" in results.text
    assert 'class="plain bars"' in results.text and "Excelente" in results.text
    bad_range = client.get(f"/console/{org}/surveys?desde=2026-03-01&hasta=2026-01-01")
    assert bad_range.status_code == 400 and "desde must not be after hasta" in bad_range.text


def test_an_agent_has_no_survey_pages(client, api, line):
    """Agents do not hold surveys:read: no menu entry, and the pages answer 403."""
    factories.add_member(api, line.org_id, "agent", "agente@example.com")
    sign_in(client, email="agente@example.com")
    assert "/surveys" not in client.get(f"/console/{line.org_id}/links").text
    assert client.get(f"/console/{line.org_id}/surveys").status_code == 403
    assert client.get(f"/console/{line.org_id}/surveys/settings").status_code == 403
