"""Issue 22's webhook pages as a new owner would use them in a real browser on a sandbox server: a
webhook to a receiver on this machine made by form, a test sent and verified with its secret, a
customer's message followed into the delivery log, the log read on a phone in Spanish.
Screenshots for the docs."""

import json

from standardwebhooks.webhooks import Webhook

from tests.e2e.test_console_browser import _browser, _first_run, _phone_at
from tests.e2e.conftest import go_to


def test_a_new_owner_connects_a_webhook_and_follows_its_log(sandbox_server, chromium, screenshot, hook):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    go_to(olga, 'Webhooks')
    olga.wait_for_selector("text=No webhooks yet")
    olga.fill("input[name=url]", hook.url)
    olga.check("input[name=events][value='message.created']")
    olga.click("button:has-text('Create webhook')")
    olga.wait_for_selector("text=Webhook created")
    olga.click("button:has-text('Send test')")
    olga.wait_for_selector("text=Test event sent")
    # the server's sender thread delivers it in the background; the page follows it (no reload)
    olga.wait_for_selector(".delivery-log .tag:has-text('Delivered')", timeout=15000)
    olga.click("button:has-text('Show signing secret')")
    secret = olga.inner_text("#webhook-secret")
    envelope = Webhook(secret).verify(hook.requests[-1]["body"], hook.requests[-1]["headers"])
    assert envelope["type"] == "webhook.test" and envelope["organizationId"] == org_id

    olga.goto(f"{base}/inbox/{org_id}")  # the empty inbox offers to write as a simulated customer
    olga.fill("form.simulate input[name=text]", "Hola, ¿abren el domingo?")
    olga.click("form.simulate button[type=submit]")
    for _ in range(30):
        if any(json.loads(r["body"])["type"] == "message.created" for r in hook.requests):
            break
        olga.wait_for_timeout(300)
    created = [json.loads(r["body"]) for r in hook.requests if json.loads(r["body"])["type"] == "message.created"]
    assert created and created[0]["data"]["direction"] == "in"
    olga.goto(f"{base}/console/{org_id}/webhooks")
    olga.click(".webhook-list a")
    olga.click(".delivery-log summary >> nth=0")
    screenshot(olga, "console-webhook")

    phone = _phone_at(chromium, base, f"/console/{org_id}/webhooks")
    phone.wait_for_selector("text=Funciona")
    phone.click(".webhook-list a")
    phone.wait_for_selector("text=Entregas")
    screenshot(phone, "console-webhook-phone")
