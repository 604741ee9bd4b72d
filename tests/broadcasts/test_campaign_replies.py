"""Issue 43, item 5: a campaign's template message is kept with its text filled in (what the customer
saw): the thread shows it, the API's payload carries it as `rendered`, the network never gets that
key, and the AI step reads it as the business's last message when the customer answers."""

import requests

from tests.bots.test_bot_ai import _agent
from tests.browser_forms import sign_in

ANA = "573001110001"
FILLED = "Hola Ana, esta semana pan dulce con descuento"


def _campaign_to_ana(campaigns):
    campaigns.approved_template()
    ana = campaigns.contact(ANA, "Ana")
    created = campaigns.create(templateName="oferta", templateLanguage="es",
                               variables=["{{contact.name}}", "pan dulce"], audience={"contactIds": [ana["id"]]})
    assert created.status_code == 201, created.json
    [recipient] = campaigns.recipients(created.json["data"]["id"])["items"]
    return recipient


def test_the_thread_and_the_api_show_the_filled_text_and_the_network_gets_the_template_alone(campaigns):
    recipient = _campaign_to_ana(campaigns)
    [sent] = campaigns.network_got()
    assert set(sent["template"]) == {"name", "language", "components"}  # nothing of ours goes to Meta
    message = campaigns.call("GET", f"/messages/{recipient['messageId']}").json["data"]
    assert message["payload"]["rendered"] == {"header": None, "body": FILLED, "footer": None, "buttons": []}
    line = campaigns.line
    [conversation] = [c for c in line.get("/conversations")["items"]]
    assert FILLED in conversation["preview"]  # the list shows the words, not the template's name
    sign_in(line.client, email="owner@example.com")
    page = line.client.get(f"/inbox/{line.org_id}/c/{conversation['id']}").text
    assert FILLED in page and "oferta" in page  # the text the customer read, and which template it was


def test_the_ai_reads_the_campaign_as_the_business_last_words(campaigns, api):
    line = campaigns.line
    _agent(line, api)
    answer = api.put(f"/organizations/{line.org_id}/bot/config/{line.number['id']}",
                     {"enabled": True, "mode": "AI_AGENT", "debounceSeconds": 0}, token=line.owner["token"])
    assert answer.status_code == 200, answer.json
    _campaign_to_ana(campaigns)
    line.customer_writes({"type": "text", "text": {"body": "Quiero pedir una docena"}}, wa_id=ANA, name="Ana")
    line.deliver()
    calls = requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"]
    asked = calls[0]["body"]["messages"]  # the agent's first round (a tool's round may follow)
    assert asked[-2:] == [{"role": "assistant", "content": FILLED},  # before: the template's name, "oferta"
                          {"role": "user", "content": "Quiero pedir una docena"}]
