"""Issue 22's push in a real browser on a sandbox server: the inbox's switch is offered on a
secure page (localhost), the service worker at /inbox/sw.js is running, and a push delivered to
it (Chromium's DevTools protocol plays the push service) shows the notification the appliance
would send; its click target is the conversation."""

import json

from tests.e2e.test_console_browser import _browser, _first_run


def test_the_inbox_offers_notifications_and_its_service_worker_shows_a_push(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    olga.context.grant_permissions(["notifications"], origin=base)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    cdp = olga.context.new_cdp_session(olga)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    olga.goto(f"{base}/inbox/{org_id}")
    switch = olga.wait_for_selector("#push-switch:not([hidden]) [data-push]")
    assert switch.get_attribute("aria-pressed") == "false" and not switch.is_disabled()
    olga.wait_for_function("navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready")
    olga.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(50):
        if any("/inbox/" in r["scopeURL"] for r in registrations):
            break
        olga.wait_for_timeout(100)
    registration = next(r for r in registrations if "/inbox/" in r["scopeURL"])

    # A push reaches a worker once it is activated; on a loaded machine that takes a moment more.
    olga.wait_for_function("navigator.serviceWorker.ready.then(r => r.active && r.active.state === 'activated')")
    notice = {"title": "Ana Pérez", "body": "¿Tienen pan integral?", "tag": "c1", "url": f"/inbox/{org_id}"}
    shown = []
    for attempt in range(150):
        if attempt % 50 == 0:  # delivered again if it was not shown (the same tag: still one notification)
            cdp.send("ServiceWorker.deliverPushMessage", {"origin": base, "registrationId": registration["registrationId"],
                                                           "data": json.dumps(notice)})
        shown = olga.evaluate("navigator.serviceWorker.ready.then(r => r.getNotifications())"
                              ".then(ns => ns.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))")
        if shown:
            break
        olga.wait_for_timeout(100)
    assert shown == [{"title": "Ana Pérez", "body": "¿Tienen pan integral?", "tag": "c1", "url": f"/inbox/{org_id}"}]
    screenshot(olga, "inbox-notifications-switch", full_page=False)
