"""Issue 43, items 13 and 14, in a real browser on a sandbox server: pages that say they follow what
changes do, without a reload (each test marks the page's window and checks the mark survived):
a template's review, a campaign's replies, the inbox's hand-off banner coming and going, a webhook
delivery reaching its outcome; and the inbox reads the organization's clock whatever the browser's
own zone. The state changes server-side (the simulated network, the API), never in the page.
Screenshots for people to look at."""

from datetime import datetime
from zoneinfo import ZoneInfo

import requests

from tests.e2e.test_console_browser import PASSWORD, _first_run
from tests.e2e.conftest import go_to
from tests.waiting import eventually

BOGOTA = ZoneInfo("America/Bogota")  # the organization's zone (_first_run)
CUSTOMER = "573001112222"


def _owner(chromium, base, screenshot, **context):
    """Olga's first run in a browser (the bakery in America/Bogota, a sandbox number); her page,
    the organization's id, an API header and the sandbox number's network id."""
    page = chromium.new_context(locale="en-US", viewport={"width": 1366, "height": 860}, **context).new_page()
    _first_run(page, base, screenshot)
    page.wait_for_selector("text=Your sandbox number is ready")
    org_id = page.url.split("/console/")[1].split("/")[0]
    login = requests.post(f"{base}/auth/login", json={"email": "olga@sol.test", "password": PASSWORD}, timeout=10)
    auth = {"Authorization": f"Bearer {login.json()['data']['tokens']['accessToken']}"}
    number = requests.get(f"{base}/organizations/{org_id}/phone-numbers", headers=auth, timeout=10).json()["data"][0]
    return page, org_id, auth, number["phoneNumberId"]


def _stays(page) -> None:
    """Mark the page's window: a reload (or a navigation) would lose the mark."""
    page.evaluate("window.stayed = true")


def _stayed(page) -> bool:
    return page.evaluate("window.stayed === true")


def _customer_writes(base, number, text):
    answer = requests.post(f"{base}/netsim/_control/inbound", json={
        "phoneNumberId": number, "from": CUSTOMER, "name": "Ana", "type": "text", "text": {"body": text}}, timeout=10)
    assert answer.status_code == 201, answer.text


def test_a_template_in_review_turns_approved_on_the_open_page(sandbox_server, chromium, screenshot):
    olga, org_id, _, _ = _owner(chromium, sandbox_server, screenshot)
    go_to(olga, 'Templates')
    olga.click("a:has-text('New template')")
    olga.fill("input[name=name]", "pedido_listo")
    olga.fill("textarea[name=body_text]", "Hola {{1}}, tu pedido está listo.")
    olga.fill("textarea[name=body_examples]", "Ana")
    olga.click("button:has-text('Send for review')")
    olga.wait_for_selector("text=Sent for review")  # "...the status changes here by itself."
    olga.click("a:has-text('All templates')")
    olga.wait_for_selector("td .status:has-text('In review')")
    _stays(olga)
    olga.wait_for_selector("td .status:has-text('Approved')", timeout=20000)  # the simulated review: 5 s
    assert _stayed(olga)
    screenshot(olga, "live-template-approved")


def test_a_campaigns_reply_shows_on_its_open_page(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga, org_id, auth, number = _owner(chromium, base, screenshot)
    api = f"{base}/organizations/{org_id}"
    account = requests.get(f"{api}/wabas", headers=auth, timeout=10).json()["data"][0]["id"]
    made = requests.post(f"{api}/templates", headers=auth, timeout=10, json={
        "businessAccountId": account, "name": "oferta", "language": "es", "category": "MARKETING",
        "components": [{"type": "BODY", "text": "Hola {{1}}, pan de masa madre.", "example": {"body_text": [["Ana"]]}}]})
    assert made.status_code == 201, made.text
    eventually(lambda: requests.get(f"{api}/templates/{made.json()['data']['id']}", headers=auth,
                                    timeout=10).json()["data"]["status"], lambda s: s == "APPROVED", seconds=20)
    ana = requests.post(f"{api}/contacts", headers=auth, json={"waId": CUSTOMER, "name": "Ana"}, timeout=10).json()["data"]
    phone_number_pk = requests.get(f"{api}/phone-numbers", headers=auth, timeout=10).json()["data"][0]["id"]
    campaign = requests.post(f"{api}/broadcasts", headers=auth, timeout=10, json={
        "name": "Masa madre", "phoneNumberId": phone_number_pk, "templateName": "oferta", "templateLanguage": "es",
        "variables": ["{{contact.name}}"], "audience": {"contactIds": [ana["id"]]}})
    assert campaign.status_code == 201, campaign.text
    olga.goto(f"{base}/console/{org_id}/broadcasts/{campaign.json()['data']['id']}")
    olga.wait_for_selector("[data-live-status]:has-text('Done')", timeout=30000)
    assert olga.inner_text("[data-live-count=replied]") == "0"
    _stays(olga)

    _customer_writes(base, number, "¿Hasta cuándo es la oferta?")  # after the campaign ended: still counted
    olga.wait_for_selector("[data-live-count=replied]:has-text('1')", timeout=15000)
    replied = olga.locator("#campaign-recipients tbody tr").first.locator("td").nth(3)
    assert replied.locator("time").count() == 1, replied.inner_text()  # the recipient's reply time is there too
    assert _stayed(olga)
    screenshot(olga, "live-campaign-replied")


def test_the_hand_off_banner_comes_and_goes_without_a_reload(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga, org_id, auth, number = _owner(chromium, base, screenshot)
    _customer_writes(base, number, "Hola, ¿tienen pan dulce?")
    conversations = f"{base}/organizations/{org_id}/conversations"
    conversation = eventually(lambda: requests.get(conversations, headers=auth, timeout=10).json()["data"]["items"],
                              bool)[0]
    olga.goto(f"{base}/inbox/{org_id}/c/{conversation['id']}")
    olga.wait_for_selector("#thread .bubble")
    assert olga.locator(".handoff-banner").count() == 0
    _stays(olga)

    asked = requests.post(f"{conversations}/{conversation['id']}/request-handoff", headers=auth,
                          json={"reason": "customer_asked"}, timeout=10)
    assert asked.status_code == 201, asked.text
    olga.wait_for_selector(".handoff-banner", timeout=10000)  # as when the bot hands off
    screenshot(olga, "live-handoff-banner", full_page=False)
    returned = requests.post(f"{conversations}/{conversation['id']}/devolver-al-bot", headers=auth, timeout=10)
    assert returned.status_code == 200, returned.text
    olga.wait_for_selector(".handoff-banner", state="detached", timeout=10000)
    assert _stayed(olga)


def test_a_webhook_delivery_is_followed_to_its_outcome(sandbox_server, chromium, screenshot, hook):
    base = sandbox_server
    olga, org_id, auth, _ = _owner(chromium, base, screenshot)
    made = requests.post(f"{base}/organizations/{org_id}/webhooks-outbound", headers=auth, timeout=10,
                         json={"url": hook.url, "events": ["message.created"]})
    assert made.status_code == 201, made.text
    hook.plan = [("sleep", 3)]  # the receiver takes its time: the delivery is still in the air
    olga.goto(f"{base}/console/{org_id}/webhooks/{made.json()['data']['id']}")
    olga.click("button:has-text('Send test')")
    olga.wait_for_selector("text=Test event sent")
    olga.wait_for_selector(".delivery-log .tag:has-text('Waiting')")
    _stays(olga)
    olga.wait_for_selector(".delivery-log .tag:has-text('Delivered')", timeout=15000)
    assert _stayed(olga)
    screenshot(olga, "live-webhook-delivered")


def test_the_inbox_reads_the_organizations_clock_not_the_browsers(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga, org_id, auth, number = _owner(chromium, base, screenshot, timezone_id="Asia/Tokyo")
    assert olga.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Tokyo"
    _customer_writes(base, number, "Hola, ¿a qué hora abren?")
    conversations = f"{base}/organizations/{org_id}/conversations"
    conversation = eventually(lambda: requests.get(conversations, headers=auth, timeout=10).json()["data"]["items"],
                              bool)[0]
    olga.goto(f"{base}/inbox/{org_id}/c/{conversation['id']}")
    shown = olga.locator("#thread .bubble time").first
    shown.wait_for()
    moment = datetime.fromisoformat(shown.get_attribute("datetime").replace("Z", "+00:00"))
    bogota, tokyo = moment.astimezone(BOGOTA), moment.astimezone(ZoneInfo("Asia/Tokyo"))
    text = shown.inner_text()  # "09:05 AM": today's messages by the hour, two digits
    assert bogota.strftime("%I:%M") in text and tokyo.strftime("%I:%M") not in text, text
    assert shown.get_attribute("title").endswith("(America/Bogota)")  # the zone named, on hover
    row = olga.locator(".conversations a.row time").first.inner_text()
    assert bogota.strftime("%I:%M") in row, row
    screenshot(olga, "inbox-times-organization-clock", full_page=False)
