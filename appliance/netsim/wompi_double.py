"""The Wompi double: the merchant side of Wompi's API v1 that billing uses, for the sandbox and the
tests (served by the simulator's app under /wompi/v1; wompi_routes.py), with Wompi's sandbox data.

- GET /merchants/info (the public key in `x-merchant-public-key`; Wompi retired the key-in-the-path
  form on 31 October 2026, so it is not served): the two acceptance tokens, the terms' and the
  personal data's, each good for an hour.
- POST /tokens/cards: a card token (what the browser does in production; the console's no-JS
  fallback and the tests call it here). 4242 4242 4242 4242 approves, 4111 1111 1111 1111
  declines, any other valid number ends in ERROR, as in Wompi's sandbox. Nothing keeps the number.
- /payment_sources (private key): a CARD source from a token and both acceptance tokens; read one;
  void one (`PUT /payment_sources/{id}/void`), after which it charges nothing.
- POST /transactions: a saved card (`payment_source_id`, private key) or Nequi (3991111111
  approves, 3992222222 declines, any other number ERROR), both acceptance tokens for Nequi, the
  integrity signature checked, a reference used once only. GET /transactions/{id} and
  GET /transactions?reference= (private key).
- Every transaction starts PENDING and ends when told (POST /_control/wompi/settle) or, with
  `settleSeconds`, once that long has passed on the appliance's clock (appliance.core.clock, which
  tests move): the double looks whenever it is called, never by sleeping. Each end posts
  `transaction.updated` to the events URL, its checksum made with the events secret (also in
  `X-Event-Checksum`); an answer other than 200 is posted again 30 minutes, 3 hours and 24 hours
  on, by the same clock.
- /_control/wompi: the keys and secrets, the events URL, the delay, faults (a 500, 503 or 429
  before anything is done; a 502 or a timeout after the call WAS carried out: what "reconcile by
  reference before trying again" is for); read what it holds.

Errors are Wompi's shapes: 401 INVALID_ACCESS_TOKEN, 404 NOT_FOUND_ERROR, 422
INPUT_VALIDATION_ERROR with `messages` per field. The keys and secrets are made anew by each process
(ones written in the code would let anyone sign the double's events), and what it keeps is bounded.
The functions here take the request's parts and answer an `Answer`; they raise nothing for any body."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import queue
import re
import secrets
import threading
from dataclasses import dataclass, field
from datetime import timedelta

import requests

from appliance.core import clock
from appliance.netsim.bounded import BoundedDict, BoundedLog

log = logging.getLogger("appliance.netsim")

PENDING, APPROVED, DECLINED, VOIDED, ERROR = "PENDING", "APPROVED", "DECLINED", "VOIDED", "ERROR"
CARD_OUTCOMES = {"4242424242424242": APPROVED, "4111111111111111": DECLINED}  # any other: ERROR
NEQUI_OUTCOMES = {"3991111111": APPROVED, "3992222222": DECLINED}  # any other: ERROR
STATUS_MESSAGES = {DECLINED: "La transacción fue rechazada (Sandbox)",
                   ERROR: "La transacción tuvo un error (Sandbox)"}
CARD_FACTS = ("bin", "brand", "name", "last_four", "exp_month", "exp_year", "card_holder")  # what a source shows
SIGNED_PROPERTIES = ["transaction.id", "transaction.status", "transaction.amount_in_cents"]
RETRY_AFTER = (timedelta(minutes=30), timedelta(hours=3), timedelta(hours=24))  # Wompi's, after the first post
ACCEPTANCE_SECONDS = 3600
FAULTS = {"500": 500, "503": 503, "429": 429, "502": 502, "timeout": 504}
CARRIED_OUT = ("502", "timeout")  # the call was done; only its answer was lost
MAX_TOKENS, MAX_SOURCES, MAX_TRANSACTIONS, MAX_CALLS, MAX_EVENTS = 2_000, 2_000, 5_000, 1_000, 1_000
MAX_REFERENCE = 255
TERMS_URL = "https://wompi.co/wp-content/uploads/2019/09/TERMINOS-Y-CONDICIONES-DE-USO-USUARIOS-WOMPI.pdf"
PERSONAL_DATA_URL = "https://wompi.com/assets/downloadble/autorizacion-administracion-datos-personales.pdf"


def _secret(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(24)


@dataclass
class WompiState:
    """One merchant's account in Wompi's sandbox: keys, tokens, sources, transactions, events."""

    public_key: str = field(default_factory=lambda: _secret("pub_test_"))
    private_key: str = field(default_factory=lambda: _secret("prv_test_"))
    events_secret: str = field(default_factory=lambda: _secret("test_events_"))
    integrity_secret: str = field(default_factory=lambda: _secret("test_integrity_"))
    merchant_id: int = field(default_factory=lambda: 1000 + secrets.randbelow(9000))
    events_url: str | None = None
    settle_seconds: float | None = None  # None: a transaction ends only when told
    fail: str | None = None  # a key of FAULTS
    fail_times: int = 0
    fail_on: str = "writes"  # "writes" (POST, PUT) or "all"
    hang_seconds: float = 3.0  # how long a "timeout" keeps the caller waiting
    acceptance: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_TOKENS))  # token -> (type, expires)
    cards: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_TOKENS))  # tok_ -> card facts
    sources: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_SOURCES))  # int id -> source
    transactions: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_TRANSACTIONS))  # id -> transaction
    references: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_TRANSACTIONS * 2))  # used once
    links: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_TOKENS))  # payment link id -> link
    pending: dict = field(default_factory=dict)  # transaction id -> created (datetime), oldest first
    retries: list = field(default_factory=list)  # [(due, event)] posts to try again
    events: BoundedLog = field(default_factory=lambda: BoundedLog(max_items=MAX_EVENTS, max_bytes=MAX_EVENTS * 2048))
    calls: BoundedLog = field(default_factory=lambda: BoundedLog(max_items=MAX_CALLS, max_bytes=MAX_CALLS * 200))
    sequence: int = 0
    sender: _Sender | None = field(default=None, repr=False)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def __post_init__(self):
        self.next_source = 3000 + secrets.randbelow(5000)


@dataclass
class Answer:
    status: int
    body: dict | str | None
    hang: float = 0.0  # seconds the route keeps the caller waiting before answering (a timeout)


# Wompi's shapes ---------------------------------------------------------------------------------


def _unauthorized(reason: str = "La llave proporcionada no corresponde a este ambiente.") -> Answer:
    return Answer(401, {"error": {"type": "INVALID_ACCESS_TOKEN", "reason": reason}})


def _not_found() -> Answer:
    return Answer(404, {"error": {"type": "NOT_FOUND_ERROR", "reason": "La entidad solicitada no existe"}})


def _invalid(messages: dict[str, str]) -> Answer:
    return Answer(422, {"error": {"type": "INPUT_VALIDATION_ERROR",
                                  "messages": {name: [message] for name, message in messages.items()}}})


def integrity_signature(reference: str, amount_in_cents: int, currency: str, secret: str,
                        expiration_time: str | None = None) -> str:
    """SHA-256 of reference, amount, currency, [expiration time,] integrity secret, in hex."""
    return hashlib.sha256(f"{reference}{amount_in_cents}{currency}{expiration_time or ''}{secret}".encode()).hexdigest()


def _key(state: WompiState, authorization: str | None) -> str | None:
    """Which of the merchant's keys the call carries: "public", "private" or None."""
    scheme, _, value = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    presented = value.strip().encode()
    if hmac.compare_digest(presented, state.private_key.encode()):
        return "private"
    if hmac.compare_digest(presented, state.public_key.encode()):
        return "public"
    return None


def _luhn(number: str) -> bool:
    total = 0
    for position, digit in enumerate(reversed(number)):
        value = int(digit) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _brand(number: str) -> str | None:
    if number.startswith("4"):
        return "VISA"
    if re.match(r"5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720)", number):
        return "MASTERCARD"
    if re.match(r"3[47]", number):
        return "AMEX"
    return None


def public_view(record: dict) -> dict:
    """A record as Wompi shows it (what the double keeps for itself starts with `_`)."""
    return {key: value for key, value in record.items() if not key.startswith("_")}


def _acceptance_token(state: WompiState, kind: str) -> str:
    """A JWT-shaped token the double recognises again (not a real JWT: nobody reads its claims)."""
    now = clock.now()
    issued = int(now.timestamp())
    claims = {"contract_id": 1 if kind == "END_USER_POLICY" else 2, "jit": f"{issued}-{secrets.randbelow(99999)}",
              "exp": issued + ACCEPTANCE_SECONDS}
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    token = f"eyJhbGciOiJIUzI1NiJ9.{payload}.{secrets.token_urlsafe(32)}"
    state.acceptance[token] = (kind, now + timedelta(seconds=ACCEPTANCE_SECONDS))
    return token


def _acceptance_refused(state: WompiState, body: dict) -> Answer | None:
    problems = {}
    for name, kind in (("acceptance_token", "END_USER_POLICY"), ("accept_personal_auth", "PERSONAL_DATA_AUTH")):
        token = body.get(name)
        known = state.acceptance.get(token) if isinstance(token, str) else None
        if token is None:
            problems[name] = f"{name} no está presente"
        elif known is None or known[0] != kind or known[1] <= clock.now():
            problems[name] = "El token de aceptación no es válido o ya venció: pide uno nuevo"
    return _invalid(problems) if problems else None


# The API ------------------------------------------------------------------------------------------


def api(state: WompiState, method: str, path: str, *, authorization: str | None = None,
        merchant_key: str | None = None, query: dict | None = None, body=None) -> Answer:
    """One call to the API, `path` after /v1. Faults first (some after the call is carried out)."""
    path = "/" + path.strip("/")
    due = settle_due(state)
    fault = _take_fault(state, method)
    if fault and fault not in CARRIED_OUT:
        kind = "TOO_MANY_REQUESTS" if fault == "429" else "INTERNAL_SERVER_ERROR"
        answer = Answer(FAULTS[fault], {"error": {"type": kind, "reason": f"Falla simulada ({fault})"}})
    else:
        answer = _dispatch(state, method, path, authorization, merchant_key, query or {}, body)
        if fault == "502":
            answer = Answer(502, "<html><head><title>502 Bad Gateway</title></head><body>Bad Gateway</body></html>")
        elif fault == "timeout":
            answer = Answer(504, {"error": {"type": "GATEWAY_TIMEOUT", "reason": "Falla simulada (timeout)"}},
                            hang=state.hang_seconds)
    with state.lock:
        state.calls.append({"method": method, "path": "/wompi/v1" + path, "status": answer.status,
                            **({"fault": fault} if fault else {})})
    send_events(state, due)
    return answer


def _take_fault(state: WompiState, method: str) -> str | None:
    with state.lock:
        if not state.fail or state.fail_times <= 0 or (state.fail_on == "writes" and method not in ("POST", "PUT")):
            return None
        fault = state.fail
        state.fail_times -= 1
        if state.fail_times <= 0:
            state.fail = None
        return fault


def _dispatch(state, method, path, authorization, merchant_key, query, body) -> Answer:
    key = _key(state, authorization)
    parts = path.strip("/").split("/")
    if method == "GET" and path == "/merchants/info":
        return merchant(state, merchant_key)
    if method == "POST" and path == "/tokens/cards":
        return card_token(state, key, body)
    if parts[0] == "payment_sources":
        if key != "private":
            return _unauthorized() if key is None else _unauthorized("Este recurso requiere la llave privada")
        if method == "POST" and len(parts) == 1:
            return payment_source(state, body)
        if len(parts) >= 2 and parts[1].isdigit():
            source = state.sources.get(int(parts[1]))
            if source is None:
                return _not_found()
            if method == "GET" and len(parts) == 2:
                return Answer(200, {"data": public_view(source), "meta": {}})
            if method == "PUT" and len(parts) == 3 and parts[2] == "void":
                with state.lock:
                    source["status"] = VOIDED
                return Answer(200, {"data": public_view(source), "meta": {}})
        return _not_found()
    if parts[0] == "transactions":
        if method == "POST" and len(parts) == 1:
            return transaction(state, key, body)
        if method == "GET" and len(parts) == 1:
            if key != "private":
                return _unauthorized() if key is None else _unauthorized("Este recurso requiere la llave privada")
            return search(state, query)
        if method == "GET" and len(parts) == 2:
            with state.lock:
                found = state.transactions.get(parts[1])
            if key is None and authorization:
                return _unauthorized()
            if key != "private" or found is None:  # Wompi: without the private key a transaction is not found
                return _not_found()
            return Answer(200, {"data": public_view(found), "meta": {}})
    return _not_found()


def merchant(state: WompiState, merchant_key: str | None) -> Answer:
    if not merchant_key or not hmac.compare_digest(merchant_key.encode(), state.public_key.encode()):
        return _not_found()
    with state.lock:
        terms, personal = _acceptance_token(state, "END_USER_POLICY"), _acceptance_token(state, "PERSONAL_DATA_AUTH")
    return Answer(200, {"data": {
        "id": state.merchant_id, "name": "Comercio de pruebas", "legal_name": "Comercio de pruebas SAS",
        "legal_id_type": "NIT", "legal_id": "900000000", "active": True, "public_key": state.public_key,
        "accepted_currencies": ["COP"], "accepted_payment_methods": ["CARD", "NEQUI"],
        "presigned_acceptance": {"acceptance_token": terms, "permalink": TERMS_URL, "type": "END_USER_POLICY"},
        "presigned_personal_data_auth": {"acceptance_token": personal, "permalink": PERSONAL_DATA_URL,
                                         "type": "PERSONAL_DATA_AUTH"}}, "meta": {}})


def card_token(state: WompiState, key: str | None, body) -> Answer:
    if key is None:
        return _unauthorized()
    if not isinstance(body, dict):
        return _invalid({"body": "Se esperaba un objeto JSON"})
    number = re.sub(r"[ -]", "", str(body.get("number") or ""))
    cvc, month, year = str(body.get("cvc") or ""), str(body.get("exp_month") or ""), str(body.get("exp_year") or "")
    holder = body.get("card_holder")
    problems = {}
    if not re.fullmatch(r"\d{13,19}", number) or not _luhn(number) or _brand(number) is None:
        problems["number"] = "El número de tarjeta no es válido"
    if not re.fullmatch(r"\d{3,4}", cvc):
        problems["cvc"] = "El código de seguridad debe tener 3 o 4 dígitos"
    if not re.fullmatch(r"0[1-9]|1[0-2]", month):
        problems["exp_month"] = "El mes de expiración debe tener 2 dígitos (01 a 12)"
    if not re.fullmatch(r"\d{2}", year):
        problems["exp_year"] = "El año de expiración debe tener 2 dígitos"
    if not isinstance(holder, str) or not 5 <= len(holder.strip()) <= 120:
        problems["card_holder"] = "El nombre del titular debe tener entre 5 y 120 caracteres"
    now = clock.now()
    if not problems and (2000 + int(year), int(month)) < (now.year, now.month):
        problems["exp_year"] = "La tarjeta está vencida"
    if problems:
        return _invalid(problems)
    brand = _brand(number)
    with state.lock:
        state.sequence += 1
        token = f"tok_test_{state.sequence}_{secrets.token_hex(16)}"
        card = {"id": token, "created_at": clock.iso(now), "brand": brand, "name": f"{brand}-{number[-4:]}",
                "last_four": number[-4:], "bin": number[:6], "exp_year": year, "exp_month": month,
                "card_holder": holder.strip(), "created_with_cvc": True,
                "expires_at": clock.iso(now + timedelta(days=180)),
                "validity_ends_at": clock.iso(now + timedelta(days=2))}
        state.cards[token] = {**card, "_outcome": CARD_OUTCOMES.get(number, ERROR), "_uses": 0}
    return Answer(201, {"status": "CREATED", "data": card})


def payment_source(state: WompiState, body) -> Answer:
    if not isinstance(body, dict):
        return _invalid({"body": "Se esperaba un objeto JSON"})
    problems = {}
    if body.get("type") != "CARD":
        problems["type"] = "El doble de Wompi solo hace fuentes de pago de tipo CARD"
    email = body.get("customer_email")
    if not isinstance(email, str) or "@" not in email or len(email) > 255:
        problems["customer_email"] = "Debe ser un correo electrónico válido"
    if problems:
        return _invalid(problems)
    with state.lock:
        refused = _acceptance_refused(state, body)
        if refused:
            return refused
        card = state.cards.get(body.get("token")) if isinstance(body.get("token"), str) else None
        if card is None:
            return _invalid({"token": "El token no existe"})
        if card["_uses"] >= 2:  # Wompi: "¡No uses un token más de dos veces!"
            return _invalid({"token": "El token ya fue usado"})
        card["_uses"] += 1
        state.next_source += 1
        source = {"id": state.next_source, "public_data": {
            "type": "CARD", "bin": card["bin"], "last_four": card["last_four"], "exp_month": card["exp_month"],
            "exp_year": card["exp_year"], "card_holder": card["card_holder"],
            "validity_ends_at": card["validity_ends_at"]},
            "token": card["id"], "type": "CARD", "status": "AVAILABLE", "customer_email": email,
            "_card": {k: card[k] for k in CARD_FACTS},
            "_outcome": card["_outcome"]}
        state.sources[source["id"]] = source
    return Answer(201, {"data": public_view(source), "meta": {}})


def transaction(state: WompiState, key: str | None, body) -> Answer:
    """POST /transactions: a saved card or Nequi, checked as Wompi checks them."""
    if key is None:
        return _unauthorized()
    if not isinstance(body, dict):
        return _invalid({"body": "Se esperaba un objeto JSON"})
    amount, currency, reference = body.get("amount_in_cents"), body.get("currency"), body.get("reference")
    email, signature, method = body.get("customer_email"), body.get("signature"), body.get("payment_method")
    source_id = body.get("payment_source_id")
    problems = {}
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 < amount <= 10 ** 12:
        problems["amount_in_cents"] = "Debe ser un entero positivo"
    if currency != "COP":
        problems["currency"] = "Solo se acepta COP"
    if not isinstance(reference, str) or not reference or len(reference) > MAX_REFERENCE:
        problems["reference"] = f"Debe tener entre 1 y {MAX_REFERENCE} caracteres"
    if not isinstance(email, str) or "@" not in email or len(email) > 255:
        problems["customer_email"] = "Debe ser un correo electrónico válido"
    if not isinstance(signature, str):
        problems["signature"] = "La firma es requerida"
    if method is not None and not isinstance(method, dict):
        problems["payment_method"] = "Debe ser un objeto"
    elif source_id is None and not (isinstance(method, dict) and method.get("type")):
        problems["payment_method"] = "Se requiere payment_method (con su type) o payment_source_id"
    if source_id is not None and (not isinstance(source_id, int) or isinstance(source_id, bool)):
        problems["payment_source_id"] = "Debe ser un entero"
    if problems:
        return _invalid(problems)
    expiration = body.get("expiration_time") if isinstance(body.get("expiration_time"), str) else None
    expected = integrity_signature(reference, amount, currency, state.integrity_secret, expiration)
    if not hmac.compare_digest(signature.lower().encode(), expected.encode()):
        return _invalid({"signature": "La firma es inválida"})
    now = clock.now()
    record = {"id": None, "created_at": clock.iso(now), "finalized_at": None, "amount_in_cents": amount,
              "reference": reference, "customer_email": email, "currency": currency, "payment_method_type": None,
              "payment_method": None, "status": PENDING, "status_message": None, "shipping_address": None,
              "redirect_url": body.get("redirect_url") if isinstance(body.get("redirect_url"), str) else None,
              "payment_source_id": None, "payment_link_id": None, "taxes": [], "_created": now}
    with state.lock:
        if source_id is not None:
            if key != "private":
                return _unauthorized("Para usar una fuente de pago se requiere la llave privada")
            source = state.sources.get(source_id)
            if source is None or source["status"] != "AVAILABLE":
                return _invalid({"payment_source_id": "La fuente de pago no existe o no está disponible"})
            installments = (method or {}).get("installments", 1)
            if not isinstance(installments, int) or isinstance(installments, bool) or not 1 <= installments <= 36:
                return _invalid({"installments": "Debe ser un entero entre 1 y 36"})
            record.update(payment_method_type="CARD", payment_source_id=source_id, _outcome=source["_outcome"],
                          payment_method={"type": "CARD", "extra": {**source["_card"], "is_three_ds": False},
                                          "installments": installments})
        else:
            refused = _acceptance_refused(state, body)
            if refused:
                return refused
            kind = method.get("type")
            if kind == "NEQUI":
                phone = method.get("phone_number")
                if not isinstance(phone, str) or not re.fullmatch(r"3\d{9}", phone):
                    return _invalid({"phone_number": "Debe ser un celular colombiano de 10 dígitos"})
                record.update(payment_method_type="NEQUI", payment_method={"type": "NEQUI", "phone_number": phone},
                              _outcome=NEQUI_OUTCOMES.get(phone, ERROR))
            elif kind == "CARD":
                card = state.cards.get(method.get("token")) if isinstance(method.get("token"), str) else None
                if card is None:
                    return _invalid({"token": "El token no existe"})
                installments = method.get("installments", 1)
                if not isinstance(installments, int) or isinstance(installments, bool) or not 1 <= installments <= 36:
                    return _invalid({"installments": "Debe ser un entero entre 1 y 36"})
                card["_uses"] += 1
                extra = {k: card[k] for k in CARD_FACTS}
                record.update(payment_method_type="CARD", _outcome=card["_outcome"],
                              payment_method={"type": "CARD", "extra": extra, "installments": installments})
            else:
                return _invalid({"payment_method": f"El doble de Wompi no hace pagos de tipo {str(kind)[:40]}"})
        if reference in state.references:
            return _invalid({"reference": "La referencia ya ha sido usada"})
        state.sequence += 1
        record["id"] = f"{state.merchant_id}-{int(now.timestamp())}-{state.sequence:05d}"
        state.references[reference] = record["id"]
        state.transactions[record["id"]] = record
        state.pending[record["id"]] = now
    return Answer(201, {"data": public_view(record), "meta": {}})


def search(state: WompiState, query: dict) -> Answer:
    """GET /transactions: by `reference` alone, or by `from_date` and `until_date` (YYYY-MM-DD)."""
    reference = query.get("reference")
    low, high = query.get("from_date"), query.get("until_date")
    if not reference and not (low and high):
        return _invalid({"reference": "Se requiere reference, o from_date y until_date"})
    with state.lock:
        found = [t for t in state.transactions.values()
                 if (not reference or t["reference"] == reference)
                 and (not low or t["created_at"][:10] >= low) and (not high or t["created_at"][:10] <= high)
                 and all(not query.get(name) or str(t[name]) == query[name]
                         for name in ("id", "status", "payment_method_type", "customer_email"))]
    found.sort(key=lambda t: t["_created"], reverse=True)
    try:
        page, size = max(1, int(query.get("page", 1))), min(200, max(1, int(query.get("page_size", 50))))
    except ValueError:
        return _invalid({"page": "page y page_size deben ser enteros"})
    shown = found[(page - 1) * size:page * size]
    return Answer(200, {"data": [public_view(t) for t in shown],
                        "meta": {"page": page, "page_size": size, "total_results": len(found)}})


# Ending transactions and posting their events -----------------------------------------------------


def settle_due(state: WompiState) -> list[dict]:
    """Transactions whose delay has passed end now; posts whose retry is due go again. Answers the
    events to post (the caller sends them, outside the lock)."""
    now = clock.now()
    events = []
    with state.lock:
        if state.settle_seconds is not None:
            for transaction_id, created in list(state.pending.items()):
                if (now - created).total_seconds() >= state.settle_seconds:
                    event = end_transaction(state, transaction_id, None)
                    if event:
                        events.append(event)
        if state.retries:
            due = [event for at, event in state.retries if at <= now]
            state.retries = [(at, event) for at, event in state.retries if at > now]
            events.extend(due)
    return events


def end_transaction(state: WompiState, transaction_id: str, status: str | None) -> dict | None:
    """Under the lock: the transaction's final status, and its event (None if it had ended)."""
    state.pending.pop(transaction_id, None)
    record = state.transactions.get(transaction_id)
    if record is None or record["status"] != PENDING:
        return None
    now = clock.now()
    record["status"] = status or record["_outcome"]
    record["finalized_at"] = clock.iso(now)
    record["status_message"] = STATUS_MESSAGES.get(record["status"])
    link = state.links.get(record.get("_link")) if record.get("_link") else None
    if link is not None and link["single_use"] and record["status"] == APPROVED:
        link["active"] = False  # a single-use payment link (wompi_links.py) is spent by its approved payment
    return _event(state, record, now)


def event_checksum(values: list, timestamp: int, secret: str) -> str:
    return hashlib.sha256(("".join(str(v) for v in values) + str(timestamp) + secret).encode()).hexdigest()


def _event(state: WompiState, record: dict, now) -> dict:
    transaction = {name: record[name] for name in (
        "id", "amount_in_cents", "reference", "customer_email", "currency", "payment_method_type", "redirect_url",
        "status", "shipping_address", "payment_link_id", "payment_source_id")}
    timestamp = int(now.timestamp())
    checksum = event_checksum([transaction["id"], transaction["status"], transaction["amount_in_cents"]], timestamp,
                              state.events_secret)
    body = {"event": "transaction.updated", "data": {"transaction": transaction},
            "environment": "test" if state.public_key.startswith("pub_test_") else "prod",
            "signature": {"properties": list(SIGNED_PROPERTIES), "checksum": checksum},
            "timestamp": timestamp, "sent_at": clock.iso(now)}
    entry = {"transaction_id": record["id"], "status": record["status"], "attempts": [], "body": body,
             "first_at": now}
    state.events.append(entry)
    return entry


def send_events(state: WompiState, events: list[dict]) -> None:
    """Queue the events' posts to the events URL (none set: they stay in the log, unsent)."""
    if not events:
        return
    with state.lock:
        url = state.events_url
        if url is None:
            return
        if state.sender is None:
            state.sender = _Sender()
    for event in events:
        state.sender.post(url, event, lambda entry, status: _posted(state, entry, status))


def _posted(state: WompiState, entry: dict, status: int) -> None:
    with state.lock:
        entry["attempts"].append({"status": status, "at": clock.iso(clock.now())})
        tries = len(entry["attempts"])
        if status != 200 and tries <= len(RETRY_AFTER):
            state.retries.append((entry["first_at"] + RETRY_AFTER[tries - 1], entry))


class _Sender:
    """Posts events from one background thread, in order; `wait_idle` lets the control answer once
    what it ended was posted. Started the first time a Wompi event is due (most simulators never)."""

    def __init__(self, *, timeout: float = 10.0):
        self.timeout = timeout
        self._queue: queue.Queue = queue.Queue()
        self._pending = 0
        self._idle = threading.Condition()
        threading.Thread(target=self._run, name="netsim-wompi-events", daemon=True).start()

    def post(self, url: str, entry: dict, done) -> None:
        with self._idle:
            self._pending += 1
        self._queue.put((url, entry, done))

    def wait_idle(self, timeout: float) -> bool:
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout=timeout)

    def _run(self) -> None:
        while True:
            url, entry, done = self._queue.get()
            body = json.dumps(entry["body"], separators=(",", ":")).encode()
            try:
                answer = requests.post(url, data=body, timeout=self.timeout, headers={
                    "Content-Type": "application/json", "X-Event-Checksum": entry["body"]["signature"]["checksum"]})
                status = answer.status_code
            except requests.RequestException as exc:
                status = 0
                log.info("wompi event to %s failed: %s", url, type(exc).__name__)
            try:
                done(entry, status)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()
