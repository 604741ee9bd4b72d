"""Issue 24's surveys in a real browser on a sandbox server, as a new owner would: she turns surveys
on (with a comment question) and sees the preview; a simulated customer writes, she closes the
conversation; the survey arrives in the thread as the customer's phone shows it; playing the
customer she taps the best option and writes a comment; the thanks arrive and the conversation
stays closed; the results show the score, the bar and the comment. The settings and the results
on a phone too."""

from tests.e2e.test_console_browser import _browser, _first_run, _phone_at
from tests.e2e.conftest import go_to


def test_an_owner_turns_surveys_on_and_sees_the_customers_score(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]
    go_to(olga, 'Surveys')
    olga.wait_for_selector("text=Surveys are off")
    olga.click(".subnav a:has-text('Settings')")
    olga.check("input[name=active]")
    olga.fill("input[name=delay_minutes]", "0")
    olga.check("input[name=ask_comment]")
    olga.fill("textarea[name=q1_text]", "¿Volverías a comprarnos?")
    olga.fill("textarea[name=q1_options]", "Sí\nTal vez\nNo")
    olga.click("button:has-text('Save')")
    olga.wait_for_selector("text=Survey settings saved")
    assert olga.locator(".survey-preview .wa-button").first.inner_text() == "Excelente"  # Colombia: Spanish defaults
    screenshot(olga, "console-survey-settings")

    olga.goto(f"{base}/inbox/{org_id}")
    olga.wait_for_selector("[data-simulate]")
    olga.click("[data-simulate] button")
    olga.wait_for_selector("#conversation", timeout=15000)
    olga.click("button[data-close]")
    olga.wait_for_selector("#thread .bubble.out .choices button.chip:has-text('Excelente')", timeout=15000)
    olga.click("#thread .bubble.out .choices button.chip:has-text('Excelente')")
    olga.wait_for_selector("#thread .bubble.out .choices button.chip:has-text('Tal vez')", timeout=15000)
    olga.click("#thread .bubble.out .choices button.chip:has-text('Sí')")
    olga.wait_for_selector("#thread .bubble.out:has-text('¿Quieres contarnos algo más?')", timeout=15000)
    olga.click(".as-customer summary")
    olga.fill(".as-customer input[name=text]", "El pan llegó tibio, ¡gracias!")
    olga.click(".as-customer button[type=submit]")
    olga.wait_for_selector("#thread .bubble.out:has-text('¡Gracias por tu respuesta!')", timeout=15000)
    olga.wait_for_selector("#conversation button:has-text('Reopen')")  # the answers did not reopen it
    screenshot(olga, "inbox-survey")

    olga.goto(f"{base}/console/{org_id}/surveys")
    assert olga.inner_text("[data-average]") == "3.0"
    assert "El pan llegó tibio" in olga.inner_text(".comments")
    screenshot(olga, "console-survey-results")

    phone = _phone_at(chromium, base, f"/console/{org_id}/surveys")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot(phone, "console-survey-results-phone")
    phone.goto(f"{base}/console/{org_id}/surveys/settings")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot(phone, "console-survey-settings-phone")
