"""Issue 43's smaller items on the console's pages, as a new owner met them: the knowledge insights
named an agent by its id (15c); one phone number was written three ways (15e); "rank score",
"tokens" and "system prompt" stood without a word of explanation (15f); the sandbox's AI double was
shown as if it were a real model (15g)."""

import re

from appliance.app import create_app
from appliance.core import runtime
from appliance.paths import WEB_DIR
from tests import factories
from tests.browser_forms import PASSWORD, sign_in

ES = {"Accept-Language": "es"}


def test_the_insights_name_each_agent(client, api, owner):
    org, token = owner["org"]["id"], owner["token"]
    agent = api.post(f"/organizations/{org}/bot/agents", {"name": "Ventas", "provider": "LOCAL", "model": "m"},
                     token=token).json["data"]
    gone = api.post(f"/organizations/{org}/bot/agents", {"name": "Vieja", "provider": "LOCAL", "model": "m"},
                    token=token).json["data"]
    for who in (agent, gone):
        asked = api.post(f"/organizations/{org}/bot/knowledge/search", {"query": "¿Hacen envíos?", "agentId": who["id"]},
                         token=token)
        assert asked.status_code == 201, asked.json
    assert api.delete(f"/organizations/{org}/bot/agents/{gone['id']}", token=token).status_code == 200
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org}/bot/knowledge/insights").text
    by_agent = page[page.index('id="agents-title"'):].split("</section>")[0]
    assert f'/bot/ai/agents/{agent["id"]}">Ventas</a>' in by_agent and "A deleted agent" in by_agent
    assert "<code>" not in by_agent  # no ids for people to decode
    assert "Un agente eliminado" in client.get(f"/console/{org}/bot/knowledge/insights", headers=ES).text


# Where a template writes a number (a business number's display_phone_number, a customer's wa_id),
# it writes it through the `phone` filter. Not shown to people: a condition, the console's texts
# (t.*), what the person typed (values.*), and the campaign preview's sample values, which must
# be the text the customer receives ("+" and the digits, as broadcasts/personalize.py fills it).
_EXPRESSION = re.compile(r"\{\{(.*?)\}\}", re.S)
_CONDITION = re.compile(r"\bif\b.*?\belse\b", re.S)
_RAW_NUMBER = re.compile(r"(?<![\w.])(?!t\.|values\.)([\w.]*(?:display_phone_number|wa_id))\b(?!\s*\|\s*phone)")
_MESSAGE_TEXT = {("console/broadcast_new.html", "sample.wa_id")}


def test_every_template_writes_phone_numbers_one_way():
    raw = {(str(path.relative_to(WEB_DIR / "templates")), found.group(1))
           for path in sorted((WEB_DIR / "templates").rglob("*.html"))
           for expression in _EXPRESSION.finditer(path.read_text())
           for found in _RAW_NUMBER.finditer(_CONDITION.sub(" ", expression.group(1)))}
    assert raw - _MESSAGE_TEXT == set()


def test_pages_write_a_number_as_its_country_does(client, line, api):
    """The simulated number is "+1 555 010 2000" on the network; every page says +1 555-010-2000
    (libphonenumber's international format), a customer's 573001234567 is +57 300 1234567."""
    org, token = line.org_id, line.owner["token"]
    factories.another_number(org)  # with two numbers the pages offer a choice of them
    contact = api.post(f"/organizations/{org}/contacts", {"waId": "573001234567", "name": ""}, token=token).json["data"]
    sign_in(client, email="owner@example.com")
    for path in ("/broadcasts/new", "/webhooks", "/api-keys", "/surveys/settings", "/whatsapp"):
        page = client.get(f"/console/{org}{path}").text
        assert "+1 555-010-2000" in page and "+1 555 010 2000" not in page, path
    assert "+1 555-010-2000" in client.get(f"/inbox/{org}").text
    title = re.search(r"<title>(.*?)</title>", client.get(f"/console/{org}/contacts/{contact['id']}").text).group(1)
    assert title.startswith("+57 300 1234567 ·")


def test_owner_pages_explain_their_jargon_in_both_languages(client, api, owner):
    org, token = owner["org"]["id"], owner["token"]
    agent = api.post(f"/organizations/{org}/bot/agents", {"name": "Ventas", "provider": "LOCAL", "model": "m"},
                     token=token).json["data"]
    api.post(f"/organizations/{org}/bot/knowledge/notes", {"title": "Envíos", "content": "El envío cuesta 5 euros."},
             token=token)
    sign_in(client, email="owner@example.com")
    editor, search = f"/console/{org}/bot/ai/agents/{agent['id']}", f"/console/{org}/bot/knowledge/search?q=envío&min=0"
    for path, language, jargon, explanation in (
            (editor, "en", "(system prompt)", "What the model reads before every conversation"),
            (editor, "en", "(tokens)", "Tokens are the pieces of text a model reads and writes"),
            (editor, "es", "(prompt de sistema)", "Lo que el modelo lee antes de cada conversación"),
            (editor, "es", "(tokens)", "Los tokens son los trozos de texto que un modelo lee y escribe"),
            (search, "en", "rank score", "Rank score: the order the passages are given to the agent in"),
            (search, "es", "puntuación", "Puntuación: el orden en que los fragmentos llegan al agente")):
        page = client.get(path, headers={"Accept-Language": language}).text
        assert jargon in page and explanation in page, (path, language, jargon)


def test_the_sandbox_ai_double_is_labelled_as_such(settings):
    """A sandbox organization's LOCAL provider is the simulator's AI double: the providers page,
    the agents' list and an agent's editor call it "Sandbox AI (simulated answers)"."""
    app = create_app(settings.replace(sandbox=True), queue_immediate=True)
    client = app.test_client()
    token = client.post("/auth/signup", json={"email": "olga@sol.test", "password": PASSWORD,
                                              "name": "Olga"}).json["data"]["tokens"]["accessToken"]
    auth = {"Authorization": f"Bearer {token}"}
    org = client.post("/organizations", json={"name": "Sol", "slug": "sol", "billingEmail": "b@sol.test"},
                      headers=auth).json["data"]["id"]
    agent = client.post(f"/organizations/{org}/bot/agents", json={"name": "Ventas", "provider": "LOCAL",
                                                                    "model": "double-small"}, headers=auth).json["data"]
    sign_in(client, email="olga@sol.test")
    providers = client.get(f"/console/{org}/bot/ai/providers").text
    local = providers[providers.index('id="provider-LOCAL"'):].split("</section>")[0]
    assert "Sandbox AI (simulated answers)" in local and "stand-in for a model: it answers with the sentence" in local
    assert providers.count("Sandbox AI (simulated answers)") == 1  # the real providers are not
    assert "Sandbox AI (simulated answers) · double-small" in client.get(f"/console/{org}/bot/ai").text
    editor = client.get(f"/console/{org}/bot/ai/agents/{agent['id']}").text
    assert re.search(r'<option value="LOCAL" selected>LOCAL · Sandbox AI \(simulated answers\)</option>', editor)
    assert "IA del sandbox (respuestas simuladas)" in client.get(f"/console/{org}/bot/ai/providers", headers=ES).text
    runtime.get().db.dispose()

