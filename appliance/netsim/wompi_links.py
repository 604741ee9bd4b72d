"""The Wompi double's payment links and their checkout (wompi_double.py holds the account): a
merchant makes a link with its private key (`POST /payment_links`: name, description, single_use,
collect_shipping, currency COP, amount_in_cents, sku) and reads it (`GET /payment_links/{id}`); the
customer opens `/wompi/checkout/l/{id}` and pays with a card (the sandbox's test cards: 4242 4242
4242 4242 approves, 4111 1111 1111 1111 declines). The payment is a transaction like any other
(PENDING, then settled by the clock or the control, its event posted) that names the link
(`payment_link_id`) and gets a reference Wompi-style. A single-use link takes no payment after
an approved one."""

from __future__ import annotations

import html
import re
import secrets

from appliance.core import clock
from appliance.netsim.wompi_double import (CARD_OUTCOMES, ERROR, PENDING, Answer, WompiState, _brand, _invalid, _key,
                                           _luhn, _not_found, _unauthorized, public_view)


def api(state: WompiState, method: str, path: str, *, authorization: str | None, body) -> Answer:
    """/payment_links calls (path after /v1)."""
    parts = path.strip("/").split("/")
    key = _key(state, authorization)
    if method == "POST" and len(parts) == 1:
        if key != "private":
            return _unauthorized() if key is None else _unauthorized("Este recurso requiere la llave privada")
        return create(state, body)
    if method == "GET" and len(parts) == 2:
        with state.lock:
            link = state.links.get(parts[1])
        return Answer(200, {"data": public_view(link), "meta": {}}) if link else _not_found()
    return _not_found()


def create(state: WompiState, body) -> Answer:
    if not isinstance(body, dict):
        return _invalid({"body": "Se esperaba un objeto JSON"})
    problems = {}
    for name, limit in (("name", 100), ("description", 250)):
        if not isinstance(body.get(name), str) or not body[name].strip() or len(body[name]) > limit:
            problems[name] = f"Debe tener entre 1 y {limit} caracteres"
    for name in ("single_use", "collect_shipping"):
        if not isinstance(body.get(name), bool):
            problems[name] = "Debe ser verdadero o falso"
    if body.get("currency") != "COP":
        problems["currency"] = "Solo se acepta COP"
    amount = body.get("amount_in_cents")
    if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool) or not 0 < amount <= 10 ** 12):
        problems["amount_in_cents"] = "Debe ser un entero positivo"
    sku = body.get("sku")
    if sku is not None and (not isinstance(sku, str) or len(sku) > 36):
        problems["sku"] = "Debe tener a lo más 36 caracteres"
    if problems:
        return _invalid(problems)
    link_id = "test_" + secrets.token_hex(4)
    link = {"id": link_id, "name": body["name"], "description": body["description"], "single_use": body["single_use"],
            "collect_shipping": body["collect_shipping"], "currency": "COP", "amount_in_cents": amount, "sku": sku,
            "active": True, "expires_at": body.get("expires_at"), "created_at": clock.iso(clock.now()),
            "merchant_public_key": state.public_key}
    with state.lock:
        state.links[link_id] = link
    return Answer(201, {"data": public_view(link), "meta": {}})


def pay(state: WompiState, link_id: str, *, card_number: str, email: str, amount_in_cents: int | None = None) -> Answer:
    """The customer pays on the checkout page: a PENDING transaction that names the link."""
    number = re.sub(r"[\s-]", "", card_number or "")
    with state.lock:
        link = state.links.get(link_id)
        if link is None:
            return _not_found()
        if not link["active"]:
            return _invalid({"payment_link": "Este link de pago ya fue usado o está inactivo"})
        amount = link["amount_in_cents"] or amount_in_cents
        if not isinstance(amount, int) or amount <= 0:
            return _invalid({"amount_in_cents": "Debe ser un entero positivo"})
        if not (13 <= len(number) <= 19 and number.isdigit() and _luhn(number)):
            return _invalid({"number": "El número de la tarjeta no es válido"})
        if "@" not in (email or "") or len(email) > 255:
            return _invalid({"customer_email": "Debe ser un correo electrónico válido"})
        now = clock.now()
        state.sequence += 1
        transaction_id = f"{state.merchant_id}-{int(now.timestamp())}-{state.sequence:05d}"
        record = {"id": transaction_id, "created_at": clock.iso(now), "finalized_at": None, "amount_in_cents": amount,
                  "reference": f"{link_id}_{int(now.timestamp())}_{secrets.token_hex(3)}", "customer_email": email,
                  "currency": "COP", "payment_method_type": "CARD",
                  "payment_method": {"type": "CARD", "extra": {"brand": _brand(number) or "VISA",
                                                               "last_four": number[-4:]}, "installments": 1},
                  "status": PENDING, "status_message": None, "shipping_address": None, "redirect_url": None,
                  "payment_source_id": None, "payment_link_id": link_id, "taxes": [], "_created": now,
                  "_outcome": CARD_OUTCOMES.get(number, ERROR), "_link": link_id}
        state.references[record["reference"]] = transaction_id
        state.transactions[transaction_id] = record
        state.pending[transaction_id] = now
    return Answer(201, {"data": public_view(record), "meta": {}})



_STATUS_WORDS = {PENDING: "Procesando tu pago…", "APPROVED": "¡Pago aprobado!", "DECLINED": "Pago rechazado",
                 "VOIDED": "Pago anulado", ERROR: "El pago tuvo un error"}
_PAGE = ("<!doctype html><html lang=es><meta charset=utf-8><meta name=viewport content='width=device-width'>{refresh}"
         "<title>Wompi (sandbox) · {title}</title><main style='font-family:sans-serif;max-width:26rem;margin:2rem auto;"
         "padding:0 1rem'><p style='color:#555'>Wompi · sandbox</p>{body}</main></html>")


def _money(amount: int | None) -> str:
    return f"$ {amount / 100:,.2f} COP".replace(",", "_").replace(".", ",").replace("_", ".") if amount else "—"


def checkout_page(state: WompiState, link_id: str, *, transaction_id: str | None = None,
                  problem: str | None = None) -> tuple[int, str]:
    """The customer's checkout: the link's amount and a card form; after paying, the payment's
    status (the page looks again every two seconds until it is final)."""
    with state.lock:
        link = state.links.get(link_id)
        record = state.transactions.get(transaction_id) if transaction_id else None
    if link is None:
        return 404, _PAGE.format(refresh="", title="No encontrado", body="<h1>Este link de pago no existe</h1>")
    title = html.escape(link["name"])
    if record is not None and record.get("_link") == link_id:
        status = record["status"]
        refresh = "<meta http-equiv=refresh content=2>" if status == PENDING else ""
        return 200, _PAGE.format(refresh=refresh, title=title, body=(
            f"<h1 data-status='{status}'>{_STATUS_WORDS.get(status, status)}</h1><p>{title}: "
            f"{_money(record['amount_in_cents'])}</p><p>Referencia <code>{html.escape(record['reference'])}</code></p>"))
    if not link["active"]:
        return 200, _PAGE.format(refresh="", title=title, body="<h1>Este link de pago ya fue pagado</h1>")
    error = f"<p role=alert style='color:#b42318'>{html.escape(problem)}</p>" if problem else ""
    return 200, _PAGE.format(refresh="", title=title, body=(
        f"<h1>{title}</h1><p>{html.escape(link['description'])}</p><p><strong>{_money(link['amount_in_cents'])}"
        f"</strong></p>{error}<form method=post><p><label>Número de tarjeta<br><input name=number inputmode=numeric "
        "autocomplete=cc-number required></label></p><p><label>Correo electrónico<br><input name=email type=email "
        "required></label></p><button>Pagar</button></form><p style='color:#555;font-size:.85rem'>Tarjetas de prueba: "
        "4242 4242 4242 4242 aprueba, 4111 1111 1111 1111 rechaza.</p>"))
