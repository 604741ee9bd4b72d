"""Rich sends (product, interactive, flow, carousel), media upload and proxy, edit, hide and
restore, reactions."""

import requests

from tests.fixtures.line import CUSTOMER
from tests.problems import assert_problem, error_fields

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def _interactive(outbox):
    return outbox.network_got()[-1]["interactive"]


def test_a_list_message(outbox):
    created = outbox.send(path="/interactive", kind="list", bodyText="¿Qué pan quieres?", buttonText="Ver panes",
                          headerText="Panadería Sol", sections=[{"title": "Dulces", "rows": [
                              {"id": "concha", "title": "Concha", "description": "Vainilla o chocolate"},
                              {"id": "cuerno", "title": "Cuerno"}]}])
    assert created.status_code == 201, created.json
    assert outbox.get(created.json["data"]["id"])["status"] == "sent"
    assert _interactive(outbox) == {
        "type": "list", "header": {"type": "text", "text": "Panadería Sol"}, "body": {"text": "¿Qué pan quieres?"},
        "action": {"button": "Ver panes", "sections": [{"title": "Dulces", "rows": [
            {"id": "concha", "title": "Concha", "description": "Vainilla o chocolate"}, {"id": "cuerno", "title": "Cuerno"}]}]}}


def test_other_interactive_kinds_and_their_required_fields(outbox):
    assert outbox.send(path="/interactive", kind="cta_url", bodyText="Nuestro menú", displayText="Abrir menú",
                       url="https://pan.example/menu").status_code == 201
    assert _interactive(outbox)["action"] == {"name": "cta_url", "parameters": {"display_text": "Abrir menú",
                                                                                "url": "https://pan.example/menu"}}
    assert outbox.send(path="/interactive", kind="location_request", bodyText="¿Dónde entregamos?").status_code == 201
    assert _interactive(outbox)["type"] == "location_request_message"
    assert outbox.send(path="/interactive", kind="request_contact_info", bodyText="¿Nos compartes tu contacto?").status_code == 201
    assert _interactive(outbox)["action"]["buttons"][0]["reply"]["id"] == "request_contact_info"
    for body, field in [({"kind": "list", "bodyText": "x", "buttonText": "Ver"}, "sections"),
                        ({"kind": "list", "bodyText": "x", "sections": [{"rows": [{"id": "a", "title": "A"}]}]}, "buttonText"),
                        ({"kind": "cta_url", "bodyText": "x", "url": "https://a.example"}, "displayText"),
                        ({"kind": "cta_url", "bodyText": "x", "displayText": "Ir", "url": "javascript:alert(1)"}, "url"),
                        ({"kind": "location_request"}, "bodyText"),
                        ({"kind": "poll", "bodyText": "x"}, "kind"),
                        ({"kind": "list", "bodyText": "x", "buttonText": "Ver", "sections": [
                            {"rows": [{"id": str(i), "title": f"Pan {i}"} for i in range(11)]}]}, "sections")]:
        refused = outbox.send(path="/interactive", **body)
        assert refused.status_code == 400 and field in error_fields(refused), (body, refused.json)


def test_products_one_a_list_sections_or_the_whole_catalog(outbox):
    base = {"catalogId": "1234567890"}
    assert outbox.send(path="/product", **base, productRetailerId="concha-01", bodyText="Te va a gustar").status_code == 201
    assert _interactive(outbox)["action"] == {"catalog_id": "1234567890", "product_retailer_id": "concha-01"}
    assert outbox.send(path="/product", **base, products=["a", "b"], headerText="Pan dulce", bodyText="Elige").status_code == 201
    assert _interactive(outbox)["action"]["sections"] == [
        {"title": "Pan dulce", "product_items": [{"product_retailer_id": "a"}, {"product_retailer_id": "b"}]}]
    assert outbox.send(path="/product", **base, headerText="Menú", bodyText="Elige", sections=[
        {"title": "Dulce", "productRetailerIds": ["a"]}, {"title": "Salado", "productRetailerIds": ["b", "c"]}]).status_code == 201
    assert [s["title"] for s in _interactive(outbox)["action"]["sections"]] == ["Dulce", "Salado"]
    assert outbox.send(path="/product", **base, catalogMessage=True, bodyText="Todo el catálogo",
                       thumbnailProductRetailerId="a").status_code == 201
    assert _interactive(outbox)["type"] == "catalog_message"
    for body, field in [({"products": ["a"], "productRetailerId": "b"}, "productRetailerId"),
                        ({}, "productRetailerId"),
                        ({"products": ["a"], "bodyText": "x"}, "headerText"),
                        ({"sections": [{"title": f"S{i}", "productRetailerIds": [f"{i}-{j}" for j in range(4)]}
                                       for i in range(8)], "headerText": "h", "bodyText": "b"}, "sections")]:
        refused = outbox.send(path="/product", **base, **body)
        assert refused.status_code == 400 and field in error_fields(refused), (body, refused.json)


def test_a_carousel_of_up_to_ten_cards(outbox):
    card = {"headerType": "image", "mediaLink": "https://pan.example/concha.jpg", "bodyText": "Concha",
            "displayText": "Comprar", "url": "https://pan.example/concha"}
    assert outbox.send(path="/carousel", bodyText="Lo más pedido", cards=[card, {**card, "bodyText": "Cuerno"}]).status_code == 201
    sent = _interactive(outbox)
    assert sent["type"] == "carousel" and [c["card_index"] for c in sent["action"]["cards"]] == [0, 1]
    assert sent["action"]["cards"][0]["header"] == {"type": "image", "image": {"link": "https://pan.example/concha.jpg"}}
    too_many = outbox.send(path="/carousel", bodyText="x", cards=[card] * 11)
    assert too_many.status_code == 400 and "cards" in error_fields(too_many)
    no_media = outbox.send(path="/carousel", bodyText="x", cards=[{k: v for k, v in card.items() if k != "mediaLink"}])
    assert no_media.status_code == 400 and "cards" in error_fields(no_media)


def test_a_flow_is_sent_by_our_record(outbox):
    line = outbox.line
    flow = line.api.post(f"/organizations/{line.org_id}/whatsapp-flows", {
        "businessAccountId": line.waba["id"], "flowId": "1122334455", "name": "Pedido a domicilio"},
        token=line.owner["token"])
    assert flow.status_code == 201, flow.json
    again = line.api.post(f"/organizations/{line.org_id}/whatsapp-flows", {
        "businessAccountId": line.waba["id"], "flowId": "1122334455", "name": "otra vez"}, token=line.owner["token"])
    assert again.status_code == 409
    created = outbox.send(path="/flow", flowId=flow.json["data"]["id"], bodyText="Haz tu pedido", ctaText="Pedir",
                          screen="INICIO", data={"sucursal": "centro"})
    assert created.status_code == 201, created.json
    parameters = _interactive(outbox)["action"]["parameters"]
    assert parameters["flow_id"] == "1122334455" and parameters["flow_action_payload"] == {
        "screen": "INICIO", "data": {"sucursal": "centro"}}
    missing = outbox.send(path="/flow", flowId="00000000-0000-7000-8000-000000000001", bodyText="x", ctaText="y", screen="A")
    assert_problem(missing, 404, "flow_not_found")
    no_screen = outbox.send(path="/flow", flowId=flow.json["data"]["id"], bodyText="x", ctaText="y")
    assert no_screen.status_code == 400 and "screen" in error_fields(no_screen)


def test_an_image_with_caption_by_upload_and_the_media_proxy(outbox):
    uploaded = outbox.call("POST", f"/upload?phoneNumberId={outbox.line.number['id']}",
                           data={"file": (__import__("io").BytesIO(PNG), "hogaza.png", "image/png")},
                           content_type="multipart/form-data")
    assert uploaded.status_code == 201, uploaded.json
    media_id = uploaded.json["data"]["mediaId"]
    created = outbox.send(type="image", payload={"id": media_id, "caption": "Hogaza de masa madre"})
    assert created.status_code == 201, created.json
    assert outbox.network_got()[-1]["image"] == {"id": media_id, "caption": "Hogaza de masa madre"}
    served = outbox.call("GET", f"/{created.json['data']['id']}/media")
    assert served.status_code == 200 and served.data == PNG and served.mimetype == "image/png"
    text_only = outbox.text()
    assert outbox.call("GET", f"/{text_only['id']}/media").json["code"] == "media_not_available"


def test_uploads_are_held_to_the_networks_limits(outbox):
    path = f"/upload?phoneNumberId={outbox.line.number['id']}"
    big = outbox.call("POST", path, data=b"\xff\xd8\xff" + b"\x00" * (5 * 1024 * 1024), content_type="image/jpeg")
    assert_problem(big, 413, "media_too_large")
    odd = outbox.call("POST", path, data=b"<html>", content_type="text/html")
    assert odd.status_code == 400
    assert outbox.call("POST", "/upload", data=PNG, content_type="image/png").status_code == 400  # no phoneNumberId


def test_inbound_media_is_served_from_the_network_when_not_yet_stored(outbox):
    line = outbox.line
    line.customer_writes({"type": "image", "image": {"caption": "mi pan"}}, media={"contentBase64": __import__(
        "base64").b64encode(PNG).decode(), "mimeType": "image/png"})
    line.deliver()
    conversation = line.get("/conversations")["items"][0]
    image = next(m for m in line.get(f"/conversations/{conversation['id']}/messages")["items"] if m["type"] == "image")
    served = outbox.call("GET", f"/{image['id']}/media")
    assert served.status_code == 200 and served.data == PNG


def test_edit_hide_and_restore(outbox):
    created = outbox.text("Abrimos a las 8")
    edited = outbox.call("PATCH", f"/{created['id']}/edit", {"body": "Abrimos a las 7"})
    assert edited.status_code == 200 and edited.json["data"]["payload"]["body"] == "Abrimos a las 7"
    assert edited.json["data"]["editedAt"]
    assert outbox.call("PATCH", f"/{created['id']}/edit", {"body": ""}).status_code == 400
    hidden = outbox.call("DELETE", f"/{created['id']}")
    assert hidden.status_code == 200 and hidden.json["data"]["hidden"] is True
    restored = outbox.call("POST", f"/{created['id']}/restore")
    assert restored.status_code == 200 and restored.json["data"]["hidden"] is False
    image = outbox.send(type="image", payload={"link": "https://pan.example/x.jpg"}).json["data"]
    refused = outbox.call("PATCH", f"/{image['id']}/edit", {"body": "x"})
    assert_problem(refused, 400, "message_not_editable")
    assert outbox.call("DELETE", "/00000000-0000-7000-8000-000000000001").status_code == 404


def test_reactions_one_per_person_sent_to_the_customer(outbox, api):
    line = outbox.line
    conversation = line.get("/conversations")["items"][0]
    [inbound] = line.get(f"/conversations/{conversation['id']}/messages")["items"]
    path = f"/organizations/{line.org_id}/messages/{inbound['id']}/reactions"
    first = api.put(path, {"emoji": "👍"}, token=line.owner["token"])
    assert first.status_code == 200, first.json
    assert [r["emoji"] for r in first.json["data"]["reactions"]] == ["👍"]
    changed = api.put(path, {"emoji": "❤️"}, token=line.owner["token"]).json["data"]["reactions"]
    assert [r["emoji"] for r in changed] == ["❤️"]  # one per person: replaced
    by_key = outbox.call("PUT", f"/{inbound['id']}/reactions", {"emoji": "🎉"}).json["data"]["reactions"]
    assert sorted(r["emoji"] for r in by_key) == ["❤️", "🎉"]
    removed = api.delete(path, token=line.owner["token"]).json["data"]["reactions"]
    assert [r["emoji"] for r in removed] == ["🎉"]
    reactions = [m["reaction"] for m in outbox.network_got() if m["type"] == "reaction"]
    assert reactions == [{"message_id": inbound["wamid"], "emoji": e} for e in ("👍", "❤️", "🎉", "🎉")]
    assert api.put(path, {"emoji": "abc"}, token=line.owner["token"]).status_code == 400
    assert CUSTOMER and requests
