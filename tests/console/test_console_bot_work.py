"""The console's flow editor, tasks, quick replies and the bot's activity log, without JavaScript:
what the API would refuse is refused by the step's field, and what is saved is what the API reads."""

import re

from tests.browser_forms import csrf_of, sign_in
from tests.factories import add_member


def _post_from(client, page_path, action, data=None):
    return client.post(action, data={"csrf": csrf_of(client.get(page_path)), **(data or {})})


def _editor_form(page_text: str) -> dict:
    """The editor's fields as the browser would send them (text inputs, textareas, selected options)."""
    form = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page_text))
    form.update({name: value for name, value in re.findall(r'<textarea[^>]*name="([^"]+)"[^>]*>([^<]*)</textarea>',
                                                          page_text)})
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page_text, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', options)
        form[name] = chosen.group(1) if chosen else (re.search(r'<option value="([^"]*)"', options).group(1))
    form.pop("csrf", None)
    form.pop("enabled", None)
    form.pop("phone_number_ids", None)
    for name in [n for n in form if n.endswith("-remove")]:
        form.pop(name)
    return form


def test_a_flow_is_made_from_an_example_edited_step_by_step_and_refused_where_it_cannot_run(line):
    client, org = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    flows = f"/console/{org}/bot/flows"
    listing = client.get(flows)
    assert listing.status_code == 200 and "No flows yet" in listing.text and "Agendar una cita (es)" in listing.text
    made = _post_from(client, flows, flows, {"name": "Citas Sol", "example": "es:citas"})
    assert made.status_code == 302 and "done=flow_created" in made.headers["Location"]
    editor_path = made.headers["Location"].split("?")[0]
    page = client.get(editor_path).text
    assert "¿Qué servicio te interesa?" in page and 'class="wa-button">Consulta<' in page  # the preview's buttons
    [flow] = line.get("/bot/flows")
    assert flow["name"] == "Citas Sol" and flow["steps"][3]["type"] == "buttons"

    form = _editor_form(page)
    # A button over WhatsApp's 20 characters and a step pointing nowhere: refused, by their fields.
    bad = {**form, "steps-3-opt-0-title": "Una consulta muy larga de verdad", "steps-0-next": "nowhere"}
    refused = client.post(editor_path, data={"csrf": csrf_of(client.get(editor_path)), **bad})
    assert refused.status_code == 400
    assert 'id="error-steps-3-options-0-title"' in refused.text
    assert line.get("/bot/flows")[0]["steps"] == flow["steps"]  # nothing half-saved

    # A new step added from the empty row, and the first step's text changed.
    count = int(form["step_count"])
    good = {**form, "enabled": "1", "steps-0-text": "¡Hola! Te ayudo a agendar.",
            f"steps-{count}-type": "message", f"steps-{count}-text": "Gracias, te esperamos.", f"steps-{count}-id": "gracias"}
    saved = client.post(editor_path, data={"csrf": csrf_of(client.get(editor_path)), **good})
    assert saved.status_code == 302, saved.text
    [flow] = line.get("/bot/flows")
    assert flow["enabled"] is True and flow["steps"][0]["text"] == "¡Hola! Te ayudo a agendar."
    assert flow["steps"][-1] == {"id": "gracias", "type": "message", "text": "Gracias, te esperamos."}

    # A loop of steps that never wait for the customer is refused where it starts.
    looping = {**_editor_form(client.get(editor_path).text), f"steps-{count}-next": "hola"}
    looping["steps-0-next"] = "gracias"
    answer = client.post(editor_path, data={"csrf": csrf_of(client.get(editor_path)), **looping})
    assert answer.status_code == 400 and "loop" in answer.text
    assert _post_from(client, editor_path, f"{editor_path}/delete").status_code == 302
    assert line.get("/bot/flows") == []


def test_a_blank_flow_needs_its_first_message(line):
    client, org = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    flows = f"/console/{org}/bot/flows"
    refused = _post_from(client, flows, flows, {"name": "Vacío", "example": "", "first_message": ""})
    assert refused.status_code == 400 and 'id="error-steps"' in refused.text and 'value="Vacío"' in refused.text
    made = _post_from(client, flows, flows, {"name": "Precios", "trigger_keywords": "precio, cuesta",
                                             "first_message": "Nuestros precios: pan 20, concha 15."})
    assert made.status_code == 302
    [flow] = line.get("/bot/flows")
    assert flow["triggerKeywords"] == ["precio", "cuesta"] and flow["enabled"] is False


def test_tasks_are_written_done_and_reopened_and_quick_replies_kept(line):
    client, org = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    tasks = f"/console/{org}/tasks"
    assert "Nothing to do" in client.get(tasks).text
    refused = _post_from(client, tasks, tasks, {"title": "", "due": "mañana"})
    assert refused.status_code == 400 and 'id="error-dueAt"' in refused.text
    assert _post_from(client, tasks, tasks, {"title": "", "due": ""}).status_code == 400
    assert _post_from(client, tasks, tasks, {"title": "Llamar a Ana", "detail": "Quiere 3 hogazas",
                                             "due": "2026-12-01"}).status_code == 302
    [task] = line.get("/tasks")["items"]
    assert task["title"] == "Llamar a Ana" and task["origin"] == "USER" and task["dueAt"].startswith("2026-12-0")
    done = _post_from(client, tasks, f"{tasks}/{task['id']}/status", {"status": "DONE"})
    assert done.status_code == 302 and line.get("/tasks")["items"][0]["status"] == "DONE"

    quick = f"/console/{org}/quick-replies"
    assert "No quick replies yet" in client.get(quick).text
    bad = _post_from(client, quick, quick, {"shortcut": "horario", "text": "De 8 a 18"})
    assert bad.status_code == 400 and 'id="error-shortcut"' in bad.text
    assert _post_from(client, quick, quick, {"shortcut": "/horario", "text": "De 8 a 18"}).status_code == 302
    [reply] = line.get("/quick-replies")
    assert _post_from(client, quick, f"{quick}/{reply['id']}", {"shortcut": "/horario", "text": "De 9 a 19"}).status_code == 302
    assert line.get("/quick-replies")[0]["text"] == "De 9 a 19"
    assert _post_from(client, quick, f"{quick}/{reply['id']}/delete").status_code == 302
    assert line.get("/quick-replies") == []


def test_the_activity_log_shows_the_bot_s_decisions_and_filters_them(line, api):
    client, org = line.client, line.org_id
    api.put(f"/organizations/{org}/bot/config/{line.number['id']}", {"enabled": True, "mode": "RULES_ONLY",
                                                                      "debounceSeconds": 0, "fallbackEnabled": True,
                                                                      "fallbackMessage": "Te leo pronto."},
            token=line.owner["token"])
    line.customer_writes({"type": "text", "text": {"body": "hola"}})
    line.deliver()
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org}/bot/activity")
    assert page.status_code == 200 and "<strong>Fallback sent</strong>" in page.text
    assert "<strong>Fallback sent</strong>" not in client.get(f"/console/{org}/bot/activity?kind=HANDOFF").text


def test_an_agent_reads_flows_but_cannot_change_them(line, api):
    add_member(api, line.org_id, "agent", "agent@example.com")
    sign_in(line.client, email="agent@example.com")
    flows = f"/console/{line.org_id}/bot/flows"
    page = line.client.get(flows)
    assert page.status_code == 200 and "New flow" not in page.text
    assert line.client.post(flows, data={"csrf": csrf_of(page), "name": "x", "first_message": "x"}).status_code == 403
