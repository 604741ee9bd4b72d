"""Issue 18's "Done means", as a new owner would in the sandbox and a real browser: turn the bot on
from the console, write a rule and a flow with buttons, play the customer from the simulator
(`/netsim/_control/inbound`), get the welcome, the rule's answer and the flow's questions, ask for
a person and see the conversation in the inbox with the hand-off banner, return it to the bot, and
the bot answers again. Screenshots of the pages for the docs."""

import requests

from tests.e2e.test_console_browser import PASSWORD, _browser, _first_run, _logo, _phone_at
from tests.e2e.conftest import go_to
from tests.waiting import eventually

CUSTOMER = "5215512345678"


def _add_step(page, index: int, kind: str, step_id: str, text: str = "", options=(), next_step=None):
    """Fill the editor's empty row (step `index`) and save."""
    prefix = f"steps-{index}-"
    page.select_option(f"select[name={prefix}type]", kind)
    page.fill(f"input[name={prefix}id]", step_id)
    if text:
        page.fill(f"textarea[name={prefix}text]", text)
    for j, (title, target) in enumerate(options):
        page.fill(f"input[name={prefix}opt-{j}-title]", title)
        page.select_option(f"select[name={prefix}opt-{j}-next]", target)
    if next_step:
        page.select_option(f"select[name={prefix}next]", next_step)
    page.click("form[data-flow-editor] button[type=submit]")
    page.wait_for_selector("text=Flow saved.")


def test_a_new_owner_builds_a_bot_and_a_customer_talks_to_it(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    # The bot on, answering at once after a second of quiet, with a welcome and the words for a person.
    go_to(olga, 'Bot')
    olga.click("button:has-text('Turn on')")
    olga.click("a:has-text('Settings')")
    olga.select_option("select[name=mode]", "RULES_ONLY")
    olga.fill("input[name=debounce_seconds]", "1")
    olga.check("input[name=welcome_enabled]")
    olga.fill("textarea[name=welcome_message]", "¡Hola! Soy el asistente de Panadería Sol.")
    olga.fill("input[name=human_handoff_keywords]", "asesor, persona")
    olga.fill("textarea[name=handoff_message]", "Te comunico con una persona del equipo.")
    olga.click("button:has-text('Save')")
    olga.wait_for_selector("text=Saved. The bot works with these settings")

    go_to(olga, 'Bot')
    olga.click("a:has-text('Rules')")
    olga.fill("input[name=name]", "Horario")
    olga.fill("input[name=keywords]", "horario, abren")
    olga.fill("textarea[name=reply]", "Abrimos de lunes a sábado, de 7 a 19.")
    olga.click("button:has-text('New rule')")
    olga.wait_for_selector("text=Rule created.")

    # A flow with buttons, built step by step in the editor.
    go_to(olga, 'Bot')
    olga.click("a:has-text('Flows')")
    olga.wait_for_selector("text=No flows yet")
    screenshot(olga, "console-bot-flows")
    olga.fill("input[name=name]", "Pedido")
    olga.fill("input[name=trigger_keywords]", "pedido, apartar")
    olga.fill("textarea[name=first_message]", "¡Vamos con tu pedido!")
    olga.click("button:has-text('Create')")
    olga.wait_for_selector("text=Flow created.")
    _add_step(olga, 1, "end", "gracias", "¡Gracias! Te lo apartamos para hoy.")
    _add_step(olga, 2, "buttons", "pan", "¿Qué pan quieres?",
              options=[("Concha", "gracias"), ("Bolillo", "gracias"), ("Hogaza", "gracias")])
    olga.select_option("select[name=steps-0-next]", "pan")
    olga.check("input[name=enabled]")
    olga.click("form[data-flow-editor] button[type=submit]")
    olga.wait_for_selector("text=Flow saved.")
    olga.wait_for_selector(".wa-button:has-text('Bolillo')")  # the preview shows the buttons
    olga.fill("input[name=steps-2-opt-1-title]", "Bolillo blanco")  # ...and follows what is typed
    olga.wait_for_selector(".wa-button:has-text('Bolillo blanco')")
    screenshot(olga, "console-bot-flow-editor")

    # The customer, played from the simulator (which knows the number by its network id).
    login = requests.post(f"{base}/auth/login", json={"email": "olga@sol.test", "password": PASSWORD}, timeout=10)
    token = login.json()["data"]["tokens"]["accessToken"]
    sim_number = requests.get(f"{base}/organizations/{org_id}/phone-numbers", timeout=10,
                              headers={"Authorization": f"Bearer {token}"}).json()["data"][0]["phoneNumberId"]

    def customer(message: dict) -> None:
        answer = requests.post(f"{base}/netsim/_control/inbound", json={
            "phoneNumberId": sim_number, "from": CUSTOMER, "name": "Ana", **message}, timeout=10)
        assert answer.status_code == 201, answer.text

    def bot_said(*expected: str) -> list[str]:
        def texts():
            sent = requests.get(f"{base}/netsim/_control/sent", params={"phoneNumberId": sim_number}, timeout=10).json()["data"]
            return [m.get("text", {}).get("body") or m.get("interactive", {}).get("body", {}).get("text") for m in sent]
        return eventually(texts, lambda said: said[-len(expected):] == list(expected), seconds=30)

    customer({"type": "text", "text": {"body": "Hola, ¿a qué hora abren?"}})
    bot_said("¡Hola! Soy el asistente de Panadería Sol.", "Abrimos de lunes a sábado, de 7 a 19.")
    customer({"type": "text", "text": {"body": "Quiero hacer un pedido"}})
    bot_said("¡Vamos con tu pedido!", "¿Qué pan quieres?")
    customer({"type": "interactive", "interactive": {"type": "button_reply",
                                                     "button_reply": {"id": "concha", "title": "Concha"}}})
    bot_said("¡Gracias! Te lo apartamos para hoy.")
    customer({"type": "text", "text": {"body": "Mejor quiero hablar con un asesor"}})
    bot_said("Te comunico con una persona del equipo.")

    # The inbox: the hand-off banner, the bot's messages and decisions; back to the bot.
    go_to(olga, 'Inbox')
    olga.click("a.row:has-text('🙋')")  # the list says who waits for a person
    olga.wait_for_selector("#conversation", timeout=15000)
    olga.wait_for_selector(".handoff-banner")
    olga.wait_for_selector(".bot-decision[data-bot-decision='HANDOFF']")
    assert olga.locator(".bubble.by-bot").count() >= 5
    assert olga.locator(".bot-decision[data-bot-decision='RULE_MATCHED']:has-text('Horario')").count() == 1
    screenshot(olga, "inbox-bot-handoff")
    olga.click(".handoff-banner button:has-text('Return to bot')")
    olga.wait_for_selector(".handoff-banner", state="detached")
    customer({"type": "text", "text": {"body": "¿y el horario del domingo?"}})
    bot_said("Abrimos de lunes a sábado, de 7 a 19.")

    # The activity log says every decision, in words.
    olga.goto(f"{base}/console/{org_id}/bot/activity")
    for kind in ("Welcome sent", "A rule answered", "Flow started", "Handed to a person"):
        olga.wait_for_selector(f".activity strong:has-text('{kind}')")
    screenshot(olga, "console-bot-activity")

    # Quick replies and tasks, and the phone's view of the flow editor in Spanish.
    olga.goto(f"{base}/console/{org_id}/quick-replies")
    olga.fill("input[name=shortcut]", "/horario")
    olga.fill("textarea[name=text]", "Abrimos de lunes a sábado, de 7 a 19.")
    olga.click("button:has-text('Create')")
    olga.wait_for_selector("text=Quick reply created.")
    screenshot(olga, "console-quick-replies")
    olga.goto(f"{base}/inbox/{org_id}")
    olga.click("a.row")
    olga.wait_for_selector("[data-reply]", timeout=15000)
    olga.fill("[data-reply]", "")
    olga.type("[data-reply]", "/hor")
    olga.wait_for_selector("[data-quick-suggest]:not([hidden]) li:has-text('/horario')")
    olga.press("[data-reply]", "Enter")  # picks the quick reply, does not send
    assert olga.input_value("[data-reply]") == "Abrimos de lunes a sábado, de 7 a 19."
    olga.goto(f"{base}/console/{org_id}/tasks")
    olga.fill("input[name=title]", "Llamar a Ana por su pedido")
    olga.click("button:has-text('Create')")
    olga.wait_for_selector("text=Task created.")
    screenshot(olga, "console-tasks")
    # The bot's library: an image (with the upload's progress bar) and a service with its prices.
    olga.goto(f"{base}/console/{org_id}/bot/images")
    olga.set_input_files("input[name=file]", {"name": "pan.png", "mimeType": "image/png", "buffer": _logo()})
    olga.fill("input[name=label]", "Pan del día")
    olga.fill("textarea[name=caption]", "Recién horneado, de 7 a 19.")
    olga.click("button:has-text('Add')")
    olga.wait_for_selector("text=Image added.")
    olga.wait_for_selector(".image-card img[alt='Pan del día']")
    screenshot(olga, "console-bot-images")
    olga.goto(f"{base}/console/{org_id}/bot/services")
    olga.fill("input[name=nombre]", "Pastel de boda")
    olga.fill("input[name=categoria]", "Pasteles")
    olga.fill("input[name=moneda]", "COP")
    olga.fill("input[name=price-0-etiqueta]", "Para 20")
    olga.fill("input[name=price-0-monto]", "180000")
    olga.fill("input[name=price-1-etiqueta]", "Para 50")
    olga.fill("input[name=price-1-monto]", "390000")
    olga.click("button:has-text('Add')")
    olga.wait_for_selector("text=Para 20: 180,000.00 COP")
    screenshot(olga, "console-bot-services")
    flows_path = f"/console/{org_id}/bot/flows"
    olga.goto(base + flows_path)
    editor_path = olga.locator("a:has-text('Pedido')").get_attribute("href")
    olga.context.close()

    # On a phone, in Spanish: the flow editor and the activity log.
    phone = _phone_at(chromium, base, editor_path)
    phone.wait_for_selector("text=Pasos")
    screenshot(phone, "console-phone-bot-flow-es")
    phone.goto(f"{base}/console/{org_id}/bot/activity")
    phone.wait_for_selector(".activity strong:has-text('Pasó a una persona')")
    screenshot(phone, "console-phone-bot-activity-es")
    phone.context.close()
