"""Issue 51's web chat, tried as a new user would, in a real browser on a sandbox server: the owner
makes a chat box on the Web chat page (snippet, secret shown once, live preview), a shop's page on
another origin embeds the snippet, a visitor on a phone fills the pre-chat form and writes, an agent
answers from the inbox, and the visitor reads the answer on the shop's page. A page on an origin
the chat box does not allow is refused. Screenshots for the docs."""

from __future__ import annotations

import html

from tests.e2e.conftest import go_to
from tests.e2e.test_console_browser import _browser, _first_run
from tests.fixtures.local_server import QuietHandler, serving


def _shop(snippet: str):
    class Shop(QuietHandler):
        def do_GET(self):
            page = (f"<!doctype html><html lang=es><meta name=viewport content='width=device-width'>"
                    f"<title>Panadería Sol</title><h1>Panadería Sol</h1><p>Pan fresco todos los días.</p>{snippet}")
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    return Shop


def test_a_visitor_chats_from_the_shops_website_and_an_agent_answers(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    go_to(olga, "Web chat")
    olga.wait_for_selector("text=No chat box yet")
    with serving(_shop("")) as placeholder:  # a port for the shop, to allow its origin
        shop_origin = placeholder.url
    olga.fill("input[name=name]", "Tienda web")
    olga.fill("textarea[name=origins]", "https://shop.example/path")
    olga.click("button:has-text('Create the chat box')")
    olga.wait_for_selector("[role=alert]")  # the origin with a path is refused, in a sentence, the form kept
    assert olga.input_value("input[name=name]") == "Tienda web"
    olga.fill("textarea[name=origins]", shop_origin)
    olga.fill("textarea[name=greeting]", "¡Hola! ¿En qué te ayudamos?")
    olga.select_option("select[name=ask_name]", "required")
    olga.click("button:has-text('Create the chat box')")
    secret = olga.text_content("[data-identity-secret]").strip()
    assert len(secret) >= 32
    snippet = html.unescape(olga.text_content("[data-snippet]").strip())
    assert "data-website-token" in snippet
    screenshot(olga, "webchat-widget")
    olga.click("a:has-text('All chat boxes')")
    olga.click("[data-widget='Tienda web'] a")
    olga.wait_for_selector("[data-snippet]")
    assert olga.locator("[data-identity-secret]").count() == 0  # shown once

    with serving(_shop(snippet)) as shop:
        # The snippet's origin was the placeholder's port; the shop listens on its own: allow it too.
        olga.fill("textarea[name=origins]", f"{shop_origin}\n{shop.url}")
        olga.click("button:has-text('Save')")
        olga.wait_for_selector("text=Chat box saved.")

        visitor = _browser(chromium, locale="es-ES", viewport={"width": 390, "height": 844})
        visitor.goto(shop.url)
        visitor.click("[data-appliance-chat] .bubble")
        visitor.wait_for_selector(".panel.open .note:has-text('¿En qué te ayudamos?')")
        visitor.fill(".prechat input[name=name]", "Marta")
        visitor.click(".prechat button[type=submit]")
        visitor.wait_for_selector(".prechat", state="detached")
        visitor.fill(".panel textarea", "¿Tienen pan integral hoy?")
        visitor.keyboard.press("Enter")
        visitor.wait_for_selector(".msg.in[data-id]:has-text('pan integral')")
        assert visitor.evaluate("document.documentElement.scrollWidth") <= 390

        # The agent sees it arrive in the inbox, marked as web chat, and answers there.
        org_id = olga.url.split("/console/")[1].split("/")[0]
        olga.goto(f"{base}/inbox/{org_id}")
        olga.click("a.row:has([data-webchat])")
        olga.wait_for_selector("[data-webchat-window]")
        assert olga.locator(".conversation-head:has-text('Marta')").count() == 1
        olga.fill("textarea[data-reply]", "Sí, salió a las 7. ¿Te guardamos uno?")
        olga.click("form.reply button[type=submit]")
        visitor.wait_for_selector(".msg.out:has-text('¿Te guardamos uno?')", timeout=15000)
        screenshot(visitor, "webchat-visitor-phone", full_page=False)
        olga.wait_for_selector(".bubble.out:has-text('¿Te guardamos uno?')")
        screenshot(olga, "webchat-inbox")

        # A page the chat box does not allow: the chat says it may not open, and nothing reaches the inbox.
        with serving(_shop(snippet)) as stranger_site:
            stranger = _browser(chromium)
            stranger.goto(stranger_site.url)
            stranger.click("[data-appliance-chat] .bubble")
            stranger.wait_for_selector(".panel.open header small:not(:has-text('Connecting'))", timeout=15000)
            assert stranger.locator(".panel.open .note").count() == 0
