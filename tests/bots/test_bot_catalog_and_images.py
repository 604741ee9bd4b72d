"""Issue 19, part: the services catalog (`/bot/servicios`) and the bot's image library
(`/bot/images`): every field checked, images recognized by their content, the `forzar` rule, and a
rule that sends an image."""

import io

from tests.browser_forms import sign_in
from tests.factories import organization, person
from tests.problems import assert_problem, error_fields

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
JPEG = b"\xff\xd8\xff\xe0" + b"7" * 300


def _refused(response, status, field=None, code=None):
    body = response.get_json()
    assert response.status_code == status, body
    if code:
        assert body["code"] == code, body
    if field:
        assert field.split(".")[0] in error_fields(response) and field in body["errors"], body


def _upload(api, line, content, label="Menú", caption="", name="x.png", content_type="image/png"):
    return api.client.post(f"/organizations/{line.org_id}/bot/images",
                           data={"file": (io.BytesIO(content), name, content_type), "label": label, "caption": caption},
                           headers={"Authorization": f"Bearer {line.owner['token']}"}, content_type="multipart/form-data")


def test_the_services_catalog_keeps_prices_in_order_and_refuses_bad_fields(line, api):
    base, token = f"/organizations/{line.org_id}/bot/servicios", line.owner["token"]
    made = api.post(base, {"nombre": "Pastel de boda", "categoria": "Pasteles", "orden": 2, "precios": [
        {"etiqueta": "Chico", "monto": 450}, {"etiqueta": "Grande", "monto": 900.5, "periodo": "UNICO", "stock": 3}]},
        token=token)
    assert made.status_code == 201, made.json
    cake = made.json["data"]
    assert cake["moneda"] == "USD" and cake["activo"] is True and cake["precios"][0] == {
        "etiqueta": "Chico", "monto": 450.0, "periodo": "UNICO", "stock": None}
    assert api.post(base, {"nombre": "Bolillo", "orden": 1, "moneda": "MXN"}, token=token).status_code == 201
    assert [s["nombre"] for s in api.get(base, token=token).json["data"]] == ["Bolillo", "Pastel de boda"]
    for bad, field in (({"nombre": ""}, "nombre"), ({"nombre": "x", "moneda": "pesos"}, "moneda"),
                       ({"nombre": "x", "precios": [{"etiqueta": "a", "monto": -1}]}, "precios.0.monto"),
                       ({"nombre": "x", "precios": [{"etiqueta": "a", "monto": 1}, {"etiqueta": "A", "monto": 2}]}, "precios"),
                       ({"nombre": "x", "urlContratacion": "javascript:alert(1)"}, "urlContratacion"),
                       ({"nombre": "x", "precios": [{"etiqueta": "a", "monto": 1, "periodo": "SEMANAL"}]}, "precios.0.periodo")):
        _refused(api.post(base, bad, token=token), 400, field)
    changed = api.patch(f"{base}/{cake['id']}", {"activo": False, "precios": []}, token=token)
    assert changed.status_code == 200 and changed.json["data"]["precios"] == [] and changed.json["data"]["activo"] is False
    assert api.delete(f"{base}/{cake['id']}", token=token).status_code == 200
    assert len(api.get(base, token=token).json["data"]) == 1


def test_images_are_known_by_their_content_and_a_used_one_is_only_deleted_when_forced(line, api):
    token = line.owner["token"]
    made = _upload(api, line, PNG, label="Menú del día", caption="Hoy: concha")
    assert made.status_code == 201, made.json
    image = made.json["data"]
    assert (image["mimeType"], image["sizeBytes"], image["label"]) == ("image/png", len(PNG), "Menú del día")
    file = api.client.get(image["url"], headers={"Authorization": f"Bearer {token}"})
    assert file.status_code == 200 and file.data == PNG
    assert_problem(_upload(api, line, b"%PDF-1.4 not an image", name="menu.png"), 400, "unsupported_file_type")
    _refused(_upload(api, line, b"", name="empty.png"), 400)
    _refused(_upload(api, line, PNG, label=""), 400, "label")
    assert _upload(api, line, b"\xff\xd8\xff" + b"0" * (5 * 1024 * 1024)).status_code == 413
    rule = api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "Menú", "keywords": ["menu"], "reply": "",
                                                                 "imageId": image["id"]}, token=token)
    assert rule.status_code == 201, rule.json  # an image alone is a reply
    base = f"/organizations/{line.org_id}/bot/images/{image['id']}"
    assert_problem(api.delete(base, token=token), 409, "image_in_use")
    assert api.delete(f"{base}?forzar=true", token=token).status_code == 200
    gone = api.client.get(image["url"], headers={"Authorization": f"Bearer {token}"})
    assert gone.status_code == 200 and gone.data == PNG  # sent messages still show it
    assert api.get(f"/organizations/{line.org_id}/bot/rules", token=token).json["data"][0]["imageId"] is None
    unknown = api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "x", "keywords": ["y"], "reply": "z",
                                                                    "imageId": image["id"]}, token=token)
    assert_problem(unknown, 400, "unknown_ids")


def test_another_organization_sees_none_of_them(line, api):
    image = _upload(api, line, JPEG, content_type="image/jpeg", name="a.jpg").json["data"]
    service = api.post(f"/organizations/{line.org_id}/bot/servicios", {"nombre": "Pan"}, token=line.owner["token"]).json["data"]
    eve = person(api, email="eve@example.com")["tokens"]["accessToken"]
    theirs = organization(api, eve, name="Eve", slug="eve")["id"]
    assert api.get(f"/organizations/{theirs}/bot/images", token=eve).json["data"] == []
    assert api.get(f"/organizations/{theirs}/bot/servicios", token=eve).json["data"] == []
    assert_problem(api.get(f"/organizations/{theirs}/bot/images/{image['id']}/file", token=eve), 404, "bot_image_not_found")
    assert_problem(api.patch(f"/organizations/{theirs}/bot/servicios/{service['id']}", {"nombre": "x"}, token=eve),
                   404, "service_not_found")
    assert api.get(image["url"], token=eve).status_code == 403  # not a member of ours


def test_a_rule_sends_its_image_uploaded_once_to_the_number(line, api):
    import requests
    token = line.owner["token"]
    image = _upload(api, line, JPEG, label="Menú", caption="El menú de hoy", name="m.jpg", content_type="image/jpeg").json["data"]
    assert api.put(f"/organizations/{line.org_id}/bot/config/{line.number['id']}", {
        "enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0}, token=token).status_code == 200
    assert api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "Menú", "keywords": ["menu"], "reply": "",
                                                                 "imageId": image["id"]}, token=token).status_code == 201
    for customer in ("5215500000001", "5215500000002"):
        line.customer_writes({"type": "text", "text": {"body": "¿me pasas el menú?"}}, wa_id=customer)
        line.deliver()
    sent = requests.get(f"{line.netsim_url}/_control/sent", timeout=5).json()["data"]
    assert [m["type"] for m in sent] == ["image", "image"]
    # The image's own caption (the rule has no text); uploaded once: the same media id for both.
    assert sent[0]["image"]["caption"] == "El menú de hoy" and sent[0]["image"]["id"] == sent[1]["image"]["id"]
    conversation = line.get("/conversations")["items"][0]
    [message] = [m for m in line.get(f"/conversations/{conversation['id']}/messages")["items"] if m["direction"] == "out"]
    assert message["type"] == "image" and message["sentBy"] == "bot" and message["status"] in ("sent", "delivered")
    sign_in(line.client, email="owner@example.com")  # the inbox shows the picture from the library
    page = line.client.get(f"/inbox/{line.org_id}/c/{conversation['id']}").text
    assert f'/bot/images/{image["id"]}/file' in page
