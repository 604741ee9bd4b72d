"""Issue 16's walk in a real browser, without a terminal: a fresh `appliance serve --sandbox`; `/`
leads to the first-run page; the owner creates herself and the business, finds her sandbox number,
invites an agent (the mail read from a local SMTP server), creates an API key that works, and
answers a simulated customer in the inbox. The agent accepts in the browser and reads the console in
Spanish on a phone. Screenshots of every console page (`make screenshots` keeps them in docs/)."""

import re
import struct
import zlib

import pytest
import requests

from tests.e2e.conftest import free_port, go_to, start_server
from tests.waiting import eventually

PASSWORD = "correct horse battery"
CUSTOMER = "5215512345678"


@pytest.fixture
def fresh_server(tmp_path, smtp):
    port = free_port()
    proc = start_server(tmp_path / "data", port, "--sandbox", env={"APPLIANCE_SMTP_URL": ""})  # set in the browser
    try:
        yield f"http://127.0.0.1:{port}", smtp[1]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _browser(chromium, locale="en-US", viewport=None):
    context = chromium.new_context(locale=locale, viewport=viewport or {"width": 1366, "height": 860})
    return context.new_page()


def _phone_at(chromium, base, path, email="olga@sol.test"):
    """A phone in Spanish, signed in and on `path`."""
    phone = _browser(chromium, locale="es-ES", viewport={"width": 390, "height": 844})
    phone.goto(f"{base}/sign-in?next={path}")
    phone.fill("input[name=email]", email)
    phone.fill("input[name=password]", PASSWORD)
    phone.click("button[type=submit]")
    phone.wait_for_url(f"**{path}")
    return phone


def _first_run(page, base, screenshot):
    page.goto(base + "/")
    page.wait_for_url("**/setup")
    screenshot(page, "console-setup")
    page.fill("input[name=name]", "Olga")
    page.fill("input[name=email]", "olga@sol.test")
    page.fill("input[name=password]", "short")  # the page says what is wrong, next to the field
    page.fill("input[name=org_name]", "Panadería Sol")
    page.select_option("select[name=country]", "CO")  # lists: nothing typed is cut (issue 43)
    page.select_option("select[name=currency]", "COP")
    page.fill("input[name=timezone]", "America/Bogota")
    page.check("input[name=hours-sat-open]")
    page.fill("input[name=hours-sat-from]", "08:00")
    page.fill("input[name=hours-sat-to]", "13:00")
    page.click("button[type=submit]")
    page.wait_for_selector(".field-error:has-text('between 8 and 128')")
    assert page.input_value("input[name=org_name]") == "Panadería Sol"  # nothing typed is lost
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/whatsapp?welcome=1")


CSV = "telefono,nombre,ciudad\n+57 300 111 2222,Ana,Cali\nsin número,Beto,Bogotá\n+57 310 555 0000,Carla,Pasto\n"


def _templates_and_contacts(olga, screenshot):
    """A template written with its preview drawn while typing; a list filled from a CSV, with the
    preview of the file first and the rejected row named by its line."""
    go_to(olga, 'Templates')
    olga.wait_for_selector("text=No templates here yet")
    olga.click("a:has-text('New template')")
    olga.fill("input[name=name]", "pedido_listo")
    olga.fill("textarea[name=body_text]", "Hola {{1}}, tu pedido {{2}} está listo.")
    olga.fill("textarea[name=body_examples]", "Ana\nA-17")
    olga.fill("input[name=footer_text]", "Panadería Sol")
    olga.fill("input[name=quick_reply] >> nth=0", "¡Gracias!")
    olga.wait_for_selector(".wa-body:has-text('Hola Ana, tu pedido A-17 está listo.')")  # drawn as typed
    olga.wait_for_selector(".wa-button:has-text('¡Gracias!')")
    screenshot(olga, "console-template-new")
    olga.click("button:has-text('Send for review')")
    olga.wait_for_selector("text=Sent for review")
    olga.click("a:has-text('All templates')")
    olga.wait_for_selector("td:has-text('pedido_listo')")
    screenshot(olga, "console-templates")

    go_to(olga, 'Contacts')
    olga.click(".tabs a:has-text('Lists')")
    olga.fill("input[name=name]", "Feria de mayo")
    olga.click("button:has-text('Create')")
    olga.wait_for_selector("text=List created")
    olga.set_input_files("input[type=file]", files=[{"name": "feria.csv", "mimeType": "text/csv",
                                                     "buffer": CSV.encode()}])
    olga.click("button:has-text('Read the file')")  # uploaded with a progress bar, then the preview
    olga.wait_for_selector("text=3 rows: 2 new contacts, 0 already known, 1 rejected.")
    olga.wait_for_selector("td:has-text('not a phone number')")
    screenshot(olga, "console-contacts-import-preview")
    olga.click("button:has-text('Import 2 contacts')")
    olga.wait_for_selector("text=Import finished")
    olga.click("a:has-text('See contacts')")
    olga.wait_for_selector("td:has-text('+57 310 5550000')")  # numbers written for people
    screenshot(olga, "console-contacts")
    olga.click("a:has-text('Carla')")
    olga.wait_for_selector("input[name=attr_name][value=ciudad]")
    screenshot(olga, "console-contact")


def _mail_server(olga, smtp_port, mailbox, screenshot):
    """Until a mail server is set, her mails wait on her account page; she sets the local one and
    it is saved only once its test mail arrived."""
    go_to(olga, 'My account')
    olga.wait_for_selector("text=Mail waiting for you")
    go_to(olga, 'Mail')
    olga.fill("input[name=host]", "127.0.0.1")
    olga.fill("input[name=port]", "1")  # nothing listens there: said, nothing saved
    olga.check("input[name=security][value=none]")
    olga.fill("input[name=sender]", "avisos@sol.test")
    olga.click("button:has-text('Send a test mail and save')")
    olga.wait_for_selector(".error[role=alert]")
    olga.fill("input[name=port]", str(smtp_port))
    olga.click("button:has-text('Send a test mail and save')")
    olga.wait_for_selector("#done")
    assert eventually(lambda: mailbox.to("olga@sol.test"), bool)
    screenshot(olga, "console-mail")


def _business_profile(olga, screenshot):
    """The sandbox number's profile as customers will see it, with a picture."""
    go_to(olga, 'WhatsApp')
    olga.click(".account td a")
    olga.fill("input[name=about]", "Pan recién hecho todos los días")
    olga.fill("textarea[name=description]", "Panadería de barrio desde 1987.")
    olga.select_option("select[name=vertical]", "RESTAURANT")
    olga.fill("input[name=websites] >> nth=0", "https://sol.test")
    olga.click("button:has-text('Save profile')")
    olga.wait_for_selector("text=Profile saved on WhatsApp.")
    olga.set_input_files("input[name=file]", files=[{"name": "sol.png", "mimeType": "image/png", "buffer": _logo()}])
    olga.click("button:has-text('Upload picture')")
    olga.wait_for_selector("text=Picture saved on WhatsApp.")
    assert eventually(lambda: olga.evaluate("document.querySelector('.profile-picture img').naturalWidth"),
                      lambda width: width == 192)  # served and shown
    assert "done=picture_saved" in olga.url  # the upload's answer at its own address
    screenshot(olga, "console-number")
    return olga.url.split("?")[0].replace(olga.url.split("/console/")[0], "")


def _bot(olga, screenshot):
    """The sandbox number's bot turned on with a welcome and a rule, its readiness said."""
    go_to(olga, 'Bot')
    olga.click("button:has-text('Turn on')")
    olga.wait_for_selector("text=The bot is on but its mode is OFF")
    olga.click("a:has-text('Settings')")
    olga.select_option("select[name=mode]", "RULES_ONLY")
    olga.check("input[name=welcome_enabled]")
    olga.fill("textarea[name=welcome_message]", "¡Hola! Soy el asistente de Panadería Sol.")
    olga.fill("input[name=human_handoff_keywords]", "asesor, persona")
    olga.click("button:has-text('Save')")
    olga.wait_for_selector("text=Saved. The bot works with these settings")
    screenshot(olga, "console-bot-settings")
    go_to(olga, 'Bot')
    olga.click("a:has-text('Rules')")
    olga.fill("input[name=name]", "Horario")
    olga.fill("input[name=keywords]", "horario, abren, cierran")
    olga.fill("textarea[name=reply]", "Abrimos de lunes a sábado, de 7 a 19.")
    olga.click("button:has-text('New rule')")
    olga.wait_for_selector("text=Rule created.")
    screenshot(olga, "console-bot-rules")
    go_to(olga, 'Bot')
    olga.wait_for_selector("text=ready")
    screenshot(olga, "console-bot")


def _logo() -> bytes:
    """A 192×192 PNG (a warm circle), drawn here so the test needs no image file."""
    size, rows = 192, []
    for y in range(size):
        row = bytearray(b"\x00")
        for x in range(size):
            inside = (x - 96) ** 2 + (y - 96) ** 2 < 80 ** 2
            row += bytes((230, 150, 40) if inside else (255, 248, 235))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def test_a_new_owner_sets_up_everything_in_the_browser(fresh_server, mailbox, chromium, screenshot):
    base, smtp_port = fresh_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    assert requests.get(f"{base}/setup", timeout=10).status_code == 404  # only once
    olga.wait_for_selector("text=Your sandbox number is ready")
    olga.wait_for_selector(".account td:has-text('+1')")  # the simulated number, listed
    screenshot(olga, "console-whatsapp-welcome")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    # The organization: the hours she chose are there; a bad time zone is refused by the field.
    go_to(olga, 'Organization')
    assert olga.is_checked("input[name=hours-sat-open]") and olga.input_value("input[name=hours-sat-to]") == "13:00"
    olga.fill("input[name=timezone]", "Mars/Base")
    olga.click("form.panel button[type=submit]")
    olga.wait_for_selector(".field-error:has-text('Unknown time zone')")
    olga.fill("input[name=timezone]", "America/Bogota")
    olga.fill("input[name=keywords]", "BAJA, STOP")
    olga.click("form.panel button[type=submit]")
    olga.wait_for_selector("#done")
    screenshot(olga, "console-organization")
    _mail_server(olga, smtp_port, mailbox, screenshot)
    number_page = _business_profile(olga, screenshot)
    _bot(olga, screenshot)

    # The team: invite Beto as an agent; the mail arrives at the local SMTP server.
    go_to(olga, 'Team')
    olga.fill("input[name=email]", "beto@sol.test")
    olga.select_option("select[name=role_id]", label="Agent")
    olga.click("button:has-text('Send invitation')")
    olga.wait_for_selector("text=Invitation sent.")
    olga.wait_for_selector(".rows li:has-text('beto@sol.test')")
    olga.click("summary:has-text('New role')")
    olga.fill("input[name=role_name]", "Cajero")
    olga.check("input[value='contacts:read']")
    olga.check("input[value='conversations:read']")
    olga.click("button:has-text('Create role')")
    olga.wait_for_selector(".rows li:has-text('Cajero')")
    screenshot(olga, "console-team")
    mail = eventually(lambda: [m for m in mailbox.to("beto@sol.test") if "/invitations/" in m.get_content()], bool)[-1]
    link = re.search(r"https?://\S+/invitations/accept\?token=[\w-]+", mail.get_content()).group(0)

    # An API key: the secret is shown once and works against the API.
    go_to(olga, 'API keys')
    olga.wait_for_selector("text=No keys yet")
    olga.fill("input[name=name]", "ERP")
    olga.check("input[value='contacts:read']")
    olga.click("button:has-text('Create key')")
    secret = olga.text_content("#new-secret").strip()
    assert secret.startswith("mk_")
    screenshot(olga, "console-api-keys")
    assert requests.get(f"{base}/organizations/{org_id}/contacts", headers={"X-Api-Key": secret},
                        timeout=10).status_code == 200
    assert requests.get(f"{base}/organizations/{org_id}/roles", headers={"X-Api-Key": secret},
                        timeout=10).status_code == 403  # only what it was given

    _templates_and_contacts(olga, screenshot)

    # My account: the verification link waits in the console only without SMTP; here it was mailed.
    go_to(olga, 'My account')
    olga.click("button:has-text('Set up')")
    olga.wait_for_selector(".qr svg")
    screenshot(olga, "console-account-2fa")

    # Beto accepts in the browser (Spanish), then looks at the console on a phone.
    beto = _browser(chromium, locale="es-MX", viewport={"width": 390, "height": 844})
    assert link.startswith(f"{base}/invitations/accept?token=")  # written for the port served (issue 43)
    beto.goto(link)
    # Beto has no account yet: the page opens on creating one.
    beto.fill("details[open] input[name=name]", "Beto")
    beto.fill("details[open] input[name=password]", PASSWORD)
    beto.click("details[open] button[type=submit]")
    beto.wait_for_selector("text=Panadería Sol")
    beto.goto(f"{base}/console")
    beto.wait_for_url("**/home")
    nav = beto.text_content("nav")
    assert "Bandeja" in nav and "Mi cuenta" in nav
    assert "Claves API" not in nav and "WhatsApp" not in nav  # an agent does not see what it cannot open
    beto.goto(f"{base}/console/{org_id}/organization")
    assert beto.is_disabled("input[name=org_name]")
    screenshot(beto, "console-phone-organization-es", full_page=False)
    beto.goto(f"{base}/console/account")
    screenshot(beto, "console-phone-account-es")

    # A simulated customer writes; Olga answers from the inbox, linked from the console.
    go_to(olga, 'Inbox')
    olga.wait_for_selector("[data-simulate]")
    olga.click("[data-simulate] button")
    olga.wait_for_selector("#conversation", timeout=15000)  # the first conversation opens as it arrives
    olga.fill("[data-reply]", "¡Hola! Sí, tenemos pan dulce.")
    olga.press("[data-reply]", "Enter")
    olga.wait_for_selector("#thread .bubble.out:has-text('pan dulce')")
    sent = eventually(lambda: requests.get(f"{base}/netsim/_control/sent", timeout=10).json()["data"],
                      lambda items: any("pan dulce" in m.get("text", {}).get("body", "") for m in items))
    assert sent

    # Every console page in Spanish on a phone, for the screenshots.
    for name, path in (("whatsapp", f"/console/{org_id}/whatsapp"), ("team", f"/console/{org_id}/team"),
                       ("api-keys", f"/console/{org_id}/api-keys"), ("templates", f"/console/{org_id}/templates"),
                       ("template-new", f"/console/{org_id}/templates/new"), ("contacts", f"/console/{org_id}/contacts"),
                       ("mail", "/console/mail"), ("number", number_page), ("bot", f"/console/{org_id}/bot")):
        phone = _phone_at(chromium, base, path)
        screenshot(phone, f"console-phone-{name}-es")
        phone.context.close()
    for page in (olga, beto):
        page.context.close()
