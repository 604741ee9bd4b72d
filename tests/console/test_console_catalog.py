"""The console's templates and contacts pages over the test client, without JavaScript: a template
made from the form (and its errors by the field they belong to), sync, contacts searched and edited,
lists, and a CSV imported in two steps with the rejected rows by line."""

import io
import re

from tests.browser_forms import csrf_of, sign_in
from tests.factories import add_member


def _post_from(client, page_path, action, data=None, **kwargs):
    page = client.get(page_path)
    return client.post(action, data={"csrf": csrf_of(page), **(data or {})}, **kwargs)


TEMPLATE = {"name": "pedido_listo", "language": "es", "category": "UTILITY", "header_text": "Pedido {{1}}",
            "header_example": "A-17", "body_text": "Hola {{1}}, tu pedido {{2}} está listo.",
            "body_examples": "Ana\nA-17", "footer_text": "Panadería Sol", "quick_reply": ["Gracias", "", ""],
            "url_button_text": "", "url_button_url": ""}


def test_a_template_from_the_form_goes_for_review_and_shows_as_whatsapp_would(line):
    client, org_id = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    new = f"/console/{org_id}/templates/new"
    form = client.get(new).text
    assert "Send for review" in form
    TEMPLATE["business_account_id"] = re.search(r'name="business_account_id" value="([^"]+)"', form).group(1)
    refused = _post_from(client, new, new, {**TEMPLATE, "body_examples": "Ana", "name": "Pedido Listo"})
    assert refused.status_code == 400
    errors = dict(re.findall(r'<span class="field-error" id="error-([\w-]+)">([^<]+)</span>', refused.text))
    assert "name" in errors and "body_examples" in errors  # each next to its own field
    assert "Hola Ana, tu pedido {{2}} está listo." in refused.text  # the preview fills what it can
    created = _post_from(client, new, new, {**TEMPLATE, "body_text": "Hola {{1}},\ntu pedido {{2}} está listo."})
    assert created.status_code == 302, created.text
    page = client.get(created.headers["Location"])
    assert "In review" in page.text and "Hola Ana,\ntu pedido A-17 está listo." in page.text
    assert "Pedido A-17" in page.text and "Gracias" in page.text
    [stored] = line.get("/templates?status=PENDING")["items"]
    assert stored["name"] == "pedido_listo" and stored["parameterFormat"] == "POSITIONAL"
    taken = _post_from(client, new, new, TEMPLATE)
    assert taken.status_code == 409 and "already has a template" in taken.text

    listing = f"/console/{org_id}/templates"
    synced = _post_from(client, listing, f"{listing}/sync")
    assert synced.status_code == 302
    assert "Synced 1 templates: 0 new, 0 changed, 0 removed." in client.get(synced.headers["Location"]).text
    assert "pedido_listo" in client.get(f"{listing}?status=PENDING").text
    assert "pedido_listo" not in client.get(f"{listing}?status=APPROVED").text


def test_named_placeholders_and_an_agent_may_read_but_not_write(line):
    client, org_id = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    new = f"/console/{org_id}/templates/new"
    account = re.search(r'name="business_account_id" value="([^"]+)"', client.get(new).text).group(1)
    created = _post_from(client, new, new, {**TEMPLATE, "business_account_id": account, "name": "con_nombre", "header_text": "",
                                            "body_text": "Hola {{nombre}}, pedido {{pedido}}", "body_examples": "Ana\nA-9"})
    assert created.status_code == 302, created.text
    add_member(line.api, org_id, "agent", "agent@example.com")
    client.post("/sign-out", data={"csrf": csrf_of(client.get("/console/account"))})
    sign_in(client, email="agent@example.com")
    assert "con_nombre" in client.get(f"/console/{org_id}/templates").text
    assert "New template" not in client.get(f"/console/{org_id}/templates").text
    assert client.get(new).status_code == 403


def test_contacts_searched_edited_listed_and_erased(client, owner):
    sign_in(client, email="owner@example.com")
    org_id = owner["org"]["id"]
    contacts = f"/console/{org_id}/contacts"
    assert "No contacts yet" in client.get(contacts).text
    bad = _post_from(client, contacts, contacts, {"wa_id": "12", "name": "Ana"})
    assert bad.status_code == 400 and 'id="error-waId"' in bad.text and 'value="Ana"' in bad.text
    added = _post_from(client, contacts, contacts, {"wa_id": "+57 300 123 4567", "name": "Ana"})
    assert added.status_code == 302
    contact_page = added.headers["Location"].split("?")[0]
    assert "+57 300 1234567" in client.get(contact_page).text  # the number written for people
    assert _post_from(client, contacts, contacts, {"wa_id": "573001234567"}).status_code == 409

    saved = _post_from(client, contact_page, contact_page, {"name": "Ana María", "bot_excluded": "1",
                                                            "attr_name": ["ciudad", "", "nivel"],
                                                            "attr_value": ["Cali", "ignored", "oro"]})
    assert saved.status_code == 302
    read = client.get(f"/organizations/{org_id}/contacts", headers={"Authorization": f"Bearer {owner['token']}"})
    [contact] = read.json["data"]["items"]
    assert contact["name"] == "Ana María" and contact["botExcluded"] is True
    assert contact["attributes"] == {"ciudad": "Cali", "nivel": "oro"}

    lists = f"/console/{org_id}/contacts/lists"
    assert "No lists yet" in client.get(lists).text
    made = _post_from(client, lists, lists, {"name": "Clientes VIP"})
    assert made.status_code == 302 and "/import" in made.headers["Location"]
    list_id = re.search(r"/lists/([0-9a-f-]+)/import", made.headers["Location"]).group(1)
    assert _post_from(client, lists, lists, {"name": "Clientes VIP"}).status_code == 409
    joined = _post_from(client, contact_page, f"{contact_page}/lists", {"list_id": list_id})
    assert joined.status_code == 302 and "Clientes VIP" in client.get(contact_page).text
    gone = _post_from(client, contact_page, f"{contact_page}/lists", {"list_id": "0" * 8 + "-0000-4000-8000-" + "0" * 12})
    assert gone.status_code == 404 and "Ana María" in gone.text and 'role="alert"' in gone.text  # the page, saying why
    assert "Ana María" in client.get(f"{contacts}?list={list_id}").text
    assert "Ana María" in client.get(f"{contacts}?q=300").text
    assert "No contact matches" in client.get(f"{contacts}?q=zzz").text
    _post_from(client, contact_page, f"{contact_page}/lists/{list_id}/leave")
    assert "Not in any list" in client.get(contact_page).text
    erased = _post_from(client, contact_page, f"{contact_page}/delete")
    assert erased.status_code == 302 and client.get(contact_page).status_code == 404


CSV = ("telefono;nombre;ciudad\n+57 300 111 2222;Ana;Cali\nno es un número;Beto;Bogotá\n"
       "573001112222;Ana otra vez;Cali\n+52 55 1234 5678;Carla;CDMX\n").encode("cp1252")


def test_a_csv_is_previewed_then_imported_with_rejected_rows_by_line(client, owner, settings):
    sign_in(client, email="owner@example.com")
    org_id = owner["org"]["id"]
    lists = f"/console/{org_id}/contacts/lists"
    made = _post_from(client, lists, lists, {"name": "Feria"})
    page = made.headers["Location"].split("?")[0]
    empty = _post_from(client, page, page, {"file": (io.BytesIO(b""), "vacio.csv")}, content_type="multipart/form-data")
    assert empty.status_code == 400 and 'id="error-file"' in empty.text
    preview = _post_from(client, page, page, {"file": (io.BytesIO(CSV), "feria.csv")}, content_type="multipart/form-data")
    assert preview.status_code == 200, preview.text
    assert "4 rows: 2 new contacts, 0 already known, 2 rejected." in preview.text
    assert "Bogotá" not in preview.text and "CDMX" in preview.text  # cp1252 read right; rejected rows are not shown
    assert re.search(r"<td>3</td><td>not a phone number", preview.text)
    assert re.search(r"<td>4</td><td>the same number appears earlier", preview.text)
    read = client.get(f"/organizations/{org_id}/contacts", headers={"Authorization": f"Bearer {owner['token']}"})
    assert read.json["data"]["items"] == []  # nothing written by a preview
    staged = re.search(r'name="staged" value="([^"]+)"', preview.text).group(1)
    assert list((settings.data_dir / "staged-imports").glob(f"{org_id}-*.csv"))
    done = client.post(f"{page}/confirm", data={"csrf": csrf_of(preview), "staged": staged})
    assert done.status_code == 200 and "4 rows read: 2 new contacts, 0 updated, 2 joined the list" in done.text
    assert not list((settings.data_dir / "staged-imports").glob("*.csv"))  # the staged file is gone
    again = client.post(f"{page}/confirm", data={"csrf": csrf_of(preview), "staged": staged})
    assert again.status_code == 404 and "expired" in again.text
    forged = client.post(f"{page}/confirm", data={"csrf": csrf_of(preview), "staged": "../../appliance"})
    assert forged.status_code == 404
    assert "Carla" in client.get(f"/console/{org_id}/contacts").text
