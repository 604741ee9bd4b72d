"""The console's chat-link pages without JavaScript (issue 24): make a link by form (mistakes come
back by field), see its QR code (an SVG, and a PNG to download that reads back as its address), a
click counted on its page, change its message, archive it (its address answers 404) and bring it
back; an agent may look but not change."""

import io

import zxingcpp
from PIL import Image

from tests import factories
from tests.browser_forms import csrf_of, sign_in


def test_an_owner_makes_shares_and_archives_a_link(client, line):
    org = line.org_id
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org}/links")
    assert "No links yet" in page.text
    form = {"csrf": csrf_of(page), "phone_number_id": line.number["id"], "name": "", "prefilled_message": "Hola, vi el afiche"}
    wrong = client.post(f"/console/{org}/links", data=form)
    assert wrong.status_code == 400 and 'aria-invalid="true"' in wrong.text and "Hola, vi el afiche" in wrong.text
    made = client.post(f"/console/{org}/links", data=form | {"name": "Afiche centro", "campaign_tag": "nov"})
    assert made.status_code == 302
    shown = client.get(made.headers["Location"])
    assert "Link made" in shown.text and "No clicks yet" in shown.text
    short = shown.text.split('id="short-url">')[1].split("<")[0]
    page_path = made.headers["Location"].split("?")[0]
    svg = client.get(page_path + "/qr.svg")
    assert svg.status_code == 200 and svg.headers["Content-Type"].startswith("image/svg+xml")
    png = client.get(page_path + "/qr.png")
    [code] = zxingcpp.read_barcodes(Image.open(io.BytesIO(png.data)).convert("L"))
    assert code.text == short and "attachment" in png.headers["Content-Disposition"]

    slug = short.rsplit("/", 1)[1]
    assert client.get(f"/l/{slug}", headers={"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)"}).status_code == 302
    assert '<span class="kpi">1</span>' in client.get(page_path).text

    changed = client.post(page_path, data={"csrf": csrf_of(shown), "name": "Afiche centro", "prefilled_message": "Quiero pan"})
    assert changed.status_code == 302 and "Quiero%20pan" in client.get(changed.headers["Location"]).text
    archived = client.post(page_path + "/archive", data={"csrf": csrf_of(shown)})
    assert "Archived:" in client.get(archived.headers["Location"]).text
    assert client.get(f"/l/{slug}").status_code == 404
    assert "Afiche centro" not in client.get(f"/console/{org}/links").text
    assert "Afiche centro" in client.get(f"/console/{org}/links?archived=1").text
    client.post(page_path + "/archive", data={"csrf": csrf_of(shown)})
    assert client.get(f"/l/{slug}").status_code == 302


def test_an_agent_sees_links_without_their_forms(client, api, line):
    factories.add_member(api, line.org_id, "agent", "luis@example.com")
    sign_in(client, email="luis@example.com")
    page = client.get(f"/console/{line.org_id}/links")
    assert page.status_code == 200 and "Make link" not in page.text
    assert client.post(f"/console/{line.org_id}/links", data={"csrf": csrf_of(page), "name": "x"}).status_code == 403


def test_an_owner_builds_a_link_page_with_a_preview(client, line):
    org = line.org_id
    sign_in(client, email="owner@example.com")
    links_page = client.get(f"/console/{org}/links")
    client.post(f"/console/{org}/links", data={"csrf": csrf_of(links_page), "phone_number_id": line.number["id"],
                                               "name": "Pedidos", "prefilled_message": "Quiero pedir"})
    pages = client.get(f"/console/{org}/link-pages")
    assert "No link pages yet" in pages.text
    bad = client.post(f"/console/{org}/link-pages", data={"csrf": csrf_of(pages), "handle": "a", "title": "Sol"})
    assert bad.status_code == 400 and 'aria-invalid="true"' in bad.text
    made = client.post(f"/console/{org}/link-pages", data={"csrf": csrf_of(pages), "handle": "Panaderia-Sol", "title": "Sol"})
    assert made.status_code == 302
    editor = client.get(made.headers["Location"])
    chat_option = editor.text.split('<option value="chat:')[1].split('"')[0]
    path = made.headers["Location"].split("?")[0]
    wrong = client.post(path, data={"csrf": csrf_of(editor), "title": "Sol", "published": "1",
                                    "item_id": ["", "", ""], "item_label": ["Menú", "", ""],
                                    "item_target": ["ftp://menu", "", ""]})
    assert wrong.status_code == 400
    saved = client.post(path, data={"csrf": csrf_of(editor), "title": "Panadería Sol", "description": "Pan de masa madre",
                                    "published": "1", "item_id": ["", "", ""], "item_label": ["Pide aquí", "Menú", ""],
                                    "item_target": [f"chat:{chat_option}", "https://sol.example/menu", ""]})
    assert saved.status_code == 302
    shown = client.get(saved.headers["Location"]).text
    assert "Pide aquí" in shown and "Pan de masa madre" in shown and "Open the public page" in shown
    public = client.get("/link-pages/p/panaderia-sol")
    assert public.status_code == 200 and "Pide aquí" in public.text and "Menú" in public.text
