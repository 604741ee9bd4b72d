"""Issue 19's "Done means", as a new owner would in a real browser: drop a PDF price list on the
library, choose a DOCX policy, watch both become ready, search "cuánto cuesta el envío" in the
tester and get the right passage with its similarity, then see the question the library could
not answer in the insights and answer it with a note. Screenshots of the pages for the docs, on
a desktop and, in Spanish, on a phone."""

import base64

import requests

from tests.e2e.test_console_browser import PASSWORD, _browser, _first_run, _phone_at
from tests.e2e.conftest import go_to
from tests.knowledge.test_knowledge_documents import POLICY, PRICE_LIST
from tests.waiting import eventually

DROP = """([name, data]) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, {type: "application/pdf"}));
  const zone = document.querySelector("[data-dropzone]");
  zone.dispatchEvent(new DragEvent("dragover", {dataTransfer: transfer, bubbles: true, cancelable: true}));
  zone.dispatchEvent(new DragEvent("drop", {dataTransfer: transfer, bubbles: true, cancelable: true}));
}"""


def test_a_new_owner_fills_the_library_and_finds_the_shipping_price(sandbox_server, chromium, screenshot, tmp_path):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    go_to(olga, 'Bot')
    olga.click("a:has-text('Knowledge base')")
    olga.wait_for_selector("text=The library is empty")
    screenshot(olga, "console-knowledge-empty")

    # The price list dropped on the zone, the policy chosen with the file picker.
    olga.evaluate(DROP, ["precios-2026.pdf", base64.b64encode(PRICE_LIST).decode()])
    olga.wait_for_selector("[data-dropzone] span:has-text('precios-2026.pdf')")
    olga.fill("form[data-upload-progress] input[name=tags]", "precios")
    olga.click("form[data-upload-progress] button:has-text('Upload')")
    olga.wait_for_selector("text=File uploaded; it is being read.")
    policy = tmp_path / "politica-de-la-tienda.docx"
    policy.write_bytes(POLICY)
    olga.set_input_files("[data-dropzone] input[type=file]", str(policy))
    olga.click("form[data-upload-progress] button:has-text('Upload')")
    # Not the same sentence again: the first upload's is still on the page until the second's answer
    # replaces it, and a note typed before that would be typed into the page being replaced.
    olga.wait_for_selector("#knowledge-library :text('politica-de-la-tienda.docx')")
    olga.fill("form[action$='/notes'] input[name=title]", "Aparcamiento")
    olga.fill("form[action$='/notes'] textarea[name=content]", "Hay parking gratis detrás de la tienda.")
    olga.click("button:has-text('Add note')")
    olga.wait_for_selector("text=Note added.")
    olga.fill("input[name=url]", "http://10.0.0.5/intranet")
    olga.click("button:has-text('Add page')")
    olga.wait_for_selector("#error-url:has-text('not a public address')")
    def ready() -> int:  # the page refreshes itself while documents are read; here it is simply read again
        olga.goto(f"{base}/console/{org_id}/bot/knowledge")
        return olga.locator("li[data-status=READY]").count()

    eventually(ready, lambda count: count == 3, seconds=30, every=0.5)
    screenshot(olga, "console-knowledge-library")

    # The tester finds the shipping price, says how close and that the words matched.
    olga.click(".subnav a:has-text('Try a search')")
    olga.fill("input[name=q]", "cuánto cuesta el envío")
    olga.click("button:has-text('Search')")
    first = olga.locator(".knowledge-results li").first
    first.wait_for()
    assert "5 euros" in first.inner_text() and "precios 2026" in first.inner_text()
    assert first.locator("meter").count() == 1 and first.locator(".tag:has-text('matched by words')").count() == 1
    screenshot(olga, "console-knowledge-search")

    # A customer's question nobody answered, answered from the insights.
    login = requests.post(f"{base}/auth/login", json={"email": "olga@sol.test", "password": PASSWORD}, timeout=10)
    token = login.json()["data"]["tokens"]["accessToken"]
    for _ in range(3):
        requests.post(f"{base}/organizations/{org_id}/bot/knowledge/search", json={"query": "¿Hacen envíos a Canarias?"},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)
    requests.post(f"{base}/organizations/{org_id}/bot/knowledge/search", json={"query": "precio del envío"},
                  headers={"Authorization": f"Bearer {token}"}, timeout=10)
    olga.click(".subnav a:has-text('Insights')")
    olga.wait_for_selector("text=¿Hacen envíos a Canarias?")
    screenshot(olga, "console-knowledge-insights")
    olga.click("summary:has-text('Answer with a note')")
    olga.fill(".unanswered textarea[name=content]", "Sí: a Canarias enviamos por 12 euros, en 3 días.")
    olga.click(".unanswered button:has-text('Add note')")
    olga.wait_for_selector("text=Answered: the question left the list.")

    # On a phone, in Spanish.
    phone = _phone_at(chromium, base, f"/console/{org_id}/bot/knowledge")
    phone.wait_for_selector("text=Base de conocimiento")
    screenshot(phone, "console-knowledge-library-phone-es")
    phone.goto(f"{base}/console/{org_id}/bot/knowledge/search?q=¿Aceptan devoluciones?")
    phone.wait_for_selector(".knowledge-results li")
    screenshot(phone, "console-knowledge-search-phone-es")
