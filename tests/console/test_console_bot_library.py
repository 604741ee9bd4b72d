"""The console's image library and services catalog, without JavaScript: an image uploaded,
shown, refused when it is not one, kept while a rule sends it unless forced; a service with its
prices, refused by the price's field."""

import io

from tests.browser_forms import csrf_of, sign_in

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def test_images_are_added_shown_and_deleted_only_when_forced_while_a_rule_sends_them(line, api):
    client, org = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    page_path = f"/console/{org}/bot/images"
    assert "No images yet" in client.get(page_path).text
    not_an_image = client.post(page_path, data={"csrf": csrf_of(client.get(page_path)), "label": "Menú",
                                                "file": (io.BytesIO(b"hola"), "menu.png")}, content_type="multipart/form-data")
    assert not_an_image.status_code == 400 and "JPG, PNG or WEBP" in not_an_image.text
    added = client.post(page_path, data={"csrf": csrf_of(client.get(page_path)), "label": "Menú", "caption": "Hoy",
                                         "file": (io.BytesIO(PNG), "menu.png")}, content_type="multipart/form-data")
    assert added.status_code == 302, added.text
    [image] = api.get(f"/organizations/{org}/bot/images", token=line.owner["token"]).json["data"]
    listing = client.get(page_path).text
    shown = client.get(f"/console/{org}/bot/images/{image['id']}/file")
    assert 'alt="Menú"' in listing and shown.status_code == 200 and shown.data == PNG
    rules = f"/console/{org}/bot/rules"
    assert client.post(rules, data={"csrf": csrf_of(client.get(rules)), "name": "Menú", "keywords": "menu",
                                    "match_type": "CONTAINS", "action": "NONE", "reply": "", "image_id": image["id"],
                                    "priority": "100", "enabled": "1"}).status_code == 302
    delete = f"{page_path}/{image['id']}/delete"
    kept = client.post(delete, data={"csrf": csrf_of(client.get(page_path))})
    assert kept.status_code == 409 and 'name="forzar"' in kept.text  # says why, offers to force
    assert client.post(delete, data={"csrf": csrf_of(client.get(page_path)), "forzar": "1"}).status_code == 302
    assert api.get(f"/organizations/{org}/bot/images", token=line.owner["token"]).json["data"] == []


def test_a_service_is_written_with_its_prices_and_refused_by_the_price_at_fault(line, api):
    client, org = line.client, line.org_id
    sign_in(client, email="owner@example.com")
    page_path = f"/console/{org}/bot/services"
    assert "No services yet" in client.get(page_path).text
    form = {"nombre": "Pastel", "categoria": "Pasteles", "moneda": "mxn", "orden": "1", "activo": "1",
            "mostrar_precio": "1", "price-0-etiqueta": "Chico", "price-0-monto": "450", "price-0-periodo": "UNICO",
            "price-1-etiqueta": "Grande", "price-1-monto": "-5", "price-1-periodo": "UNICO"}
    refused = client.post(page_path, data={"csrf": csrf_of(client.get(page_path)), **form})
    assert refused.status_code == 400 and 'id="error-precios-1-monto"' in refused.text and 'value="Grande"' in refused.text
    saved = client.post(page_path, data={"csrf": csrf_of(client.get(page_path)), **form, "price-1-monto": "900"})
    assert saved.status_code == 302
    [service] = api.get(f"/organizations/{org}/bot/servicios", token=line.owner["token"]).json["data"]
    assert service["moneda"] == "MXN" and [p["monto"] for p in service["precios"]] == [450.0, 900.0]
    assert "Chico: 450.00 MXN" in client.get(page_path).text
