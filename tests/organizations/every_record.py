"""One record of every kind a route of the API, the console or the inbox names in its path, made in
one organization (a business on the simulated network) and by its owner: what the cross-tenant
check hands another tenant's routes."""

from __future__ import annotations

import io

import requests

import pytest

from sqlmodel import select

from appliance.backups.models import Backup
from appliance.catalog.models import LicenseKey
from appliance.core import clock, ids as new_ids, runtime
from appliance.outbound_webhooks.models import OutboundWebhook, WebhookDelivery
from tests.stickers.pictures import drawing

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
CART = {"type": "order", "order": {"catalog_id": "cat-sol", "text": "Para el sábado", "product_items": [
    {"product_retailer_id": "pan", "quantity": 2, "item_price": 12.5, "currency": "COP"}]}}
# Path parameters that name no record of the organization, with the value a call gives them: a
# provider's kind (LOCAL, OPENAI...) and a QR code's format are the same words in every
# organization; the organization is the one the call is about.
NOT_RECORDS = {"provider": "LOCAL", "kind": "svg"}


def one_of_each(line) -> dict[str, str]:
    """The path parameter's name -> one of this organization's ids (or its owner's); a name that
    means another kind under some paths has a key of its own (`key_for`)."""
    api, token, org = line.api, line.owner["token"], line.org_id
    base = f"/organizations/{org}"

    def made(path, body, status=201):
        answer = api.post(base + path, body, token=token)
        assert answer.status_code == status, (path, answer.json)
        return answer.json["data"]

    me = api.get("/users/me", token=token).json["data"]["id"]
    line.customer_writes(CART)  # a contact, its conversation, a message and the order it carries
    line.deliver()
    [order] = line.get("/orders")["items"]
    template = made("/templates", {"businessAccountId": line.waba["id"], "name": "oferta", "language": "es",
                                   "category": "MARKETING", "components": [
                                       {"type": "BODY", "text": "Hola {{1}}", "example": {"body_text": [["Ana"]]}}]})
    assert requests.post(f"{line.netsim_url}/_control/templates/{line.account['wabaId']}/status", timeout=5,
                         json={"name": "oferta", "language": "es", "status": "APPROVED"}).status_code == 200
    line.deliver()
    role = made("/roles", {"name": "Ours"})
    assert api.patch(f"{base}/attendance/settings", {"enabled": True}, token=token).status_code == 200
    image = api.client.post(f"{base}/bot/images", data={"file": (io.BytesIO(PNG), "x.png", "image/png"), "label": "Menú"},
                            headers={"Authorization": f"Bearer {token}"}, content_type="multipart/form-data")
    assert image.status_code == 201, image.json
    sticker = api.client.post(f"{base}/stickers", data={"file": (io.BytesIO(drawing(200, 200)), "sol.png", "image/png")},
                              headers={"Authorization": f"Bearer {token}"}, content_type="multipart/form-data")
    assert sticker.status_code == 201, sticker.json
    ids = {
        "role_id": role["id"],
        "key_id": made("/api-keys", {"name": "ours"})["id"],
        "membership_id": line.get("/memberships")[0]["id"],
        "agent_id": made("/bot/agents", {"name": "Ventas", "provider": "GEMINI", "model": "gemini-2.0-flash"})["id"],
        "person_id": me, "user_id": me, "target_org_id": org,
        "appointment_id": made("/agenda/appointments", {"title": "Corte", "start": "2030-01-01T10:00:00Z",
                                                        "end": "2030-01-01T11:00:00Z"})["id"],
        "contact_id": order["contactId"], "conversation_id": order["conversationId"], "message_id": order["messageId"],
        "order_id": order["id"], "template_pk": template["id"],
        "broadcast_id": made("/broadcasts", {"name": "Semana", "phoneNumberId": line.number["id"], "templateName": "oferta",
                                             "variables": ["Ana"], "audience": {"contactIds": [order["contactId"]]},
                                             "scheduledAt": "2030-01-01T10:00:00Z"})["id"],
        "document_id": made("/bot/knowledge/notes", {"title": "Horario", "content": "Abrimos a las 9."})["id"],
        "flow_id": made("/bot/flows", {"name": "F", "steps": [{"id": "a", "type": "message", "text": "Hola"}]})["id"],
        "flow_pk": made("/whatsapp-flows", {"businessAccountId": line.waba["id"], "flowId": "1234", "name": "Citas"})["id"],
        "holiday_id": made("/attendance/holidays", {"items": [{"date": "2030-12-25", "name": "Navidad"}]})[0]["id"],
        "leave_id": made("/attendance/leaves", {"agentUserId": me, "type": "VACATION", "startDate": "2030-08-01",
                                                "endDate": "2030-08-02"})["id"],
        "session_id": made("/attendance/start", {})["id"],
        "image_id": image.json["data"]["id"],
        "sticker_id": sticker.json["data"]["id"],
        "invitation_id": made("/invitations", {"email": "luis@example.com", "roleId": role["id"]})["id"],
        "link_id": made("/chatapp-links", {"phoneNumberId": line.number["id"], "name": "Instagram"})["id"],
        "list_id": made("/contact-lists", {"name": "VIP"})["id"],
        "page_id": made("/link-pages", {"handle": "pan-sol", "title": "Pan Sol"})["id"],
        "phone_id": line.number["id"], "phone_number_pk": line.number["id"], "waba_pk": line.waba["id"],
        "report_id": made("/billing/payment-reports", {"amount": "1000.00", "bank": "Banco", "reference": "T-1",
                                                       "paidAt": "2026-01-01T10:00:00Z"})["id"],
        "quick_reply_id": made("/quick-replies", {"shortcut": "/hola", "text": "Hola"})["id"],
        "number_id": line.number["id"],  # the console's name for a number (the API's phone_number_pk)
        "rule_id": made("/bot/rules", {"name": "R", "keywords": ["pan"], "reply": "Sí"})["id"],
        "service_id": made("/bot/servicios", {"nombre": "Pastel"})["id"],
        "tag_id": made("/tags", {"name": "VIP"})["id"],
        "task_id": made("/tasks", {"title": "Llamar"})["id"],
    }
    ids["reply_id"] = ids["quick_reply_id"]  # the console's name for a quick reply
    product = made("/catalog/products", {"retailerId": "pan", "name": "Pan", "price": "1000", "currency": "COP",
                                         "kind": "LICENSE"})
    made(f"/catalog/products/{product['id']}/license-keys", {"keys": ["KEY-1"]})
    ids["product_id"] = product["id"]
    ids["widget_id"] = made("/webchat/widgets", {"name": "Web", "allowedOrigins": ["https://shop.example"]})["id"]
    with runtime.get().db.unit_of_work(write=False) as session:
        ids["license_key_id"] = session.exec(select(LicenseKey.id)).first()
    ids["organization_id"] = org  # the installation administrators' name for one (not an org_id: they stand outside it)
    ids["webhook_id"], ids["delivery_id"] = _webhook_with_a_delivery(org, me)
    # The owner's own records, which the console's account pages name: a signed-in device and a
    # phone that gets notifications.
    ids["auth_session_id"] = api.get("/auth/me/sessions", token=token).json["data"][0]["id"]
    device = api.post("/push/device", {"token": "phone-of-the-owner", "platform": "ANDROID"}, token=token)
    assert device.status_code == 200, device.json
    ids["item_id"] = device.json["data"]["id"]
    ids["passkey_id"] = _passkey(me)
    ids["backup_id"] = _backup(me)
    ids["invoice_id"], ids["method_id"], ids["payment_id"] = _billing_records(org, me)
    return ids


def _passkey(user_id: str) -> str:
    """A row: the owner's passkey (its ceremonies need an https public address and an authenticator,
    tests/auth/test_passkeys.py's; not what is tested here)."""
    from appliance.auth.models import Passkey

    with runtime.get().db.unit_of_work(write=True) as session:
        passkey = Passkey(user_id=user_id, credential_id=f"cred-{new_ids.new_id()}", public_key=b"cose", name="Laptop",
                          created_at=clock.now())
        session.add(passkey)
        session.flush()
        return passkey.id


def _webhook_with_a_delivery(organization_id: str, user_id: str) -> tuple[str, str]:
    """Rows, not requests: a webhook's address rules and its sending are not what is tested here."""
    now = clock.now()
    with runtime.get().db.unit_of_work(write=True) as session:
        webhook = OutboundWebhook(organization_id=organization_id, url="https://hooks.example.com/in",
                                  events=["conversation.updated"], format="GENERIC", secret_sealed="sealed",
                                  created_by_user_id=user_id, created_at=now, updated_at=now)
        session.add(webhook)
        session.flush()
        delivery = WebhookDelivery(webhook_id=webhook.id, organization_id=organization_id, event_id="evt_1",
                                   event_type="conversation.updated", request_body="{}", status="DELIVERED",
                                   created_at=now)
        session.add(delivery)
        session.flush()
        return webhook.id, delivery.id


def _backup(user_id: str) -> str:
    """A row: making an archive runs a process of its own, and only its id is asked for here."""
    with runtime.get().db.unit_of_work(write=True) as session:
        backup = Backup(id=new_ids.new_id(), kind="MANUAL", status="READY", file_name="backup.tar.gz",
                        app_version="test", created_by_user_id=user_id, created_at=clock.now())
        session.add(backup)
        session.flush()
        return backup.id


def _billing_records(organization_id: str, user_id: str) -> tuple[str, str, str]:
    """Rows: an invoice (a period billed), a card and a Nequi push (their processor is not what is
    tested here)."""
    from appliance.billing import invoices
    from appliance.billing.models import Payment, PaymentMethod
    now = clock.now()
    with runtime.get().db.unit_of_work(write=True) as session:
        invoice = invoices.do_bill_period(session, organization_id, now)
        card = PaymentMethod(organization_id=organization_id, source_sealed="sealed", brand="VISA", last4="4242",
                             exp_month=12, exp_year=2030, email="owner@example.com", is_default=True, created_at=now)
        push = Payment(organization_id=organization_id, wallet_id=organization_id, purpose="NEQUI",
                       reference=f"nequi:{new_ids.new_id()}", method="NEQUI", amount_minor=100000, currency="COP",
                       phone_number="3991111111", created_by=user_id, created_at=now)
        session.add_all([card, push])
        session.flush()
        return invoice.id, card.id, push.id


def key_for(name: str, path: str) -> str:
    """Which of `one_of_each`'s ids a path parameter takes: its name, except where one name means
    two kinds (an `agent_id` under /attendance is a person, not an AI agent; a `session_id` under
    /console/account is a signed-in device, not an attendance session)."""
    if name == "agent_id" and "/attendance/" in path:
        return "person_id"
    if name == "session_id" and path.startswith("/console/account/"):
        return "auth_session_id"
    if name == "key_id" and "/license-keys/" in path:
        return "license_key_id"
    return name


def id_for(name: str, path: str, ids: dict[str, str]) -> str:
    key = key_for(name, path)
    if key not in ids:
        pytest.fail(f"{path} names a {name}, a kind of id the cross-tenant check cannot fill: make one in "
                    "tests/organizations/every_record.py (one_of_each)")
    return ids[key]
