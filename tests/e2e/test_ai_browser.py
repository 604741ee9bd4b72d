"""Issue 20's "Done means", as a new owner would in a real browser on a sandbox server: a note in
the knowledge base, an OpenAI-shaped provider set up and tested from the console, an agent
written in the editor and tried in its test chat (the grounded answer, what it read); the bot set
to answer with it; a customer played through the simulator gets the answer split into natural
messages, and the inbox shows the AI's decision with the passages it used; the agent switched to
LOCAL (the sandbox's own OpenAI-compatible server) still answers. Screenshots for the docs, on a
desktop and, in Spanish, on a phone."""

import requests

from tests.e2e.test_console_browser import PASSWORD, _browser, _first_run, _phone_at
from tests.e2e.conftest import go_to
from tests.waiting import eventually

CUSTOMER = "5215598765432"
NOTE = ("El envío a domicilio cuesta 5 euros en toda la ciudad. Los pedidos de más de 50 euros se envían gratis. "
        "Repartimos de lunes a sábado por la mañana.")


def test_a_new_owner_makes_an_agent_that_answers_a_customer(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    olga.goto(f"{base}/console/{org_id}/bot/knowledge")
    olga.fill("form[action$='/notes'] input[name=title]", "Envíos")
    olga.fill("form[action$='/notes'] textarea[name=content]", NOTE)
    olga.click("button:has-text('Add note')")
    olga.wait_for_selector("text=Note added.")

    # A provider of the OpenAI shape (the simulator's double stands in for the vendor), tested.
    go_to(olga, 'Bot')
    olga.click(".page-head a:has-text('AI agents')")
    olga.wait_for_selector("text=No agents yet")
    screenshot(olga, "console-ai-empty")
    olga.click(".subnav a:has-text('AI providers')")
    openai = olga.locator("[data-provider=OPENAI]")
    openai.locator("input[name=api_key]").fill("sk-sandbox-openai")
    openai.locator("input[name=base_url]").fill(f"{base}/netsim/ai/openai")
    openai.locator("button:has-text('Save')").click()
    olga.wait_for_selector("text=Provider saved.")
    olga.locator("[data-provider=OPENAI] button:has-text('Test connection')").click()
    olga.wait_for_selector("[data-provider=OPENAI] .ok:has-text('Connected')")
    assert "sk-sandbox-openai" not in olga.content()
    screenshot(olga, "console-ai-providers")

    # The agent, written in the editor and tried in the test chat.
    olga.click(".subnav a:has-text('AI agents')")
    olga.click("a:has-text('New agent')")
    olga.fill("input[name=name]", "Sol")
    olga.select_option("select[name=provider]", "OPENAI")
    olga.fill("input[name=model]", "gpt-4o-mini")
    olga.fill("textarea[name=system_prompt]", "Eres el asistente de Panadería Sol. Responde con calidez y brevedad.")
    olga.click("button:has-text('Create agent')")
    olga.wait_for_selector("text=Agent created. Try it in the test chat.")
    olga.fill("#probe-message", "¿Cuánto cuesta el envío a domicilio?")
    olga.click(".probe-form button:has-text('Send')")
    olga.wait_for_selector(".probe-chat .bubble.out:has-text('5 euros')")
    assert olga.locator(".probe-facts li:has-text('Envíos')").count() == 1
    olga.fill("#probe-message", "¿Los pedidos grandes se envían gratis?")
    olga.click(".probe-form button:has-text('Send')")
    olga.wait_for_selector(".probe-chat .bubble.out:has-text('gratis')")
    assert olga.locator(".probe-chat .bubble.in").count() == 2
    screenshot(olga, "console-ai-agent-probador")

    # The bot answers with the number's default agent, at a person's pace.
    go_to(olga, 'Bot')
    olga.click("button:has-text('Turn on')")
    olga.click("a:has-text('Settings')")
    olga.select_option("select[name=mode]", "AI_AGENT")
    olga.fill("input[name=debounce_seconds]", "1")
    olga.select_option("select[name=ritmo_de_respuesta]", "NATURAL")
    olga.check("input[name=follow_up_enabled]")
    olga.select_option("select[name=follow_up_mode]", "AI")
    screenshot(olga, "console-bot-settings-ai")
    olga.click("button:has-text('Save')")
    olga.wait_for_selector("text=Saved. The bot works with these settings")

    login = requests.post(f"{base}/auth/login", json={"email": "olga@sol.test", "password": PASSWORD}, timeout=10)
    auth = {"Authorization": f"Bearer {login.json()['data']['tokens']['accessToken']}"}
    sim_number = requests.get(f"{base}/organizations/{org_id}/phone-numbers", timeout=10,
                              headers=auth).json()["data"][0]["phoneNumberId"]

    def customer(text: str) -> None:
        answer = requests.post(f"{base}/netsim/_control/inbound", json={
            "phoneNumberId": sim_number, "from": CUSTOMER, "name": "Ana", "type": "text", "text": {"body": text}},
            timeout=10)
        assert answer.status_code == 201, answer.text

    def sent() -> list[str]:
        return [m.get("text", {}).get("body") or "" for m in requests.get(
            f"{base}/netsim/_control/sent", params={"phoneNumberId": sim_number}, timeout=10).json()["data"]]

    customer("Hola, ¿cuánto cuesta el envío a domicilio?")
    first = eventually(sent, lambda said: any("5 euros" in s for s in said), seconds=30)
    assert all(len(s) <= 300 for s in first)

    go_to(olga, 'Inbox')
    olga.click("a.row")
    olga.wait_for_selector(".bot-decision[data-bot-decision='AI_REPLY']", timeout=15000)
    olga.click(".bot-decision[data-bot-decision='AI_REPLY'] summary")
    olga.wait_for_selector(".ai-sources li:has-text('Envíos')")
    assert olga.locator(".bot-decision[data-bot-decision='AI_REPLY']:has-text('gpt-4o-mini')").count() == 1
    screenshot(olga, "inbox-ai-reply")

    # The same agent on LOCAL: the sandbox's OpenAI-compatible server.
    olga.goto(f"{base}/console/{org_id}/bot/ai")
    olga.click(".agent-stats a:has-text('Sol')")
    olga.select_option("select[name=provider]", "LOCAL")
    olga.fill("input[name=model]", "double-small")
    olga.click(".agent-editor button:has-text('Save')")
    olga.wait_for_selector("text=Agent saved.")
    before = len(sent())
    customer("¿Y los pedidos de más de 50 euros?")
    eventually(sent, lambda said: len(said) > before and any("gratis" in s for s in said[before:]), seconds=30)
    activity = requests.get(f"{base}/organizations/{org_id}/bot/activity", params={"kind": "AI_REPLY"}, headers=auth,
                            timeout=10).json()["data"]["items"]
    assert [a["detail"]["provider"] for a in activity] == ["LOCAL", "OPENAI"]
    olga.goto(f"{base}/console/{org_id}/bot/ai")
    olga.wait_for_selector(".agent-stats li[data-agent='Sol'] strong:has-text('2')")
    screenshot(olga, "console-ai-agents")

    # On a phone, in Spanish.
    phone = _phone_at(chromium, base, f"/console/{org_id}/bot/ai")
    phone.wait_for_selector("text=Agentes de IA")
    phone.click(".agent-stats a:has-text('Sol')")
    phone.fill("#probe-message", "¿Cuánto cuesta el envío a domicilio?")
    phone.click(".probe-form button:has-text('Enviar')")
    phone.wait_for_selector(".probe-chat .bubble.out")
    screenshot(phone, "console-ai-agent-phone-es")
