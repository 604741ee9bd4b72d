"""The Factus double: the e-invoicing provider's API v1 that the appliance uses, for the sandbox
and the tests (served by the simulator's app under /factus; factus_routes.py).

- POST /oauth/token (form; grant_type=password with the client and the user): a bearer token for
  10 minutes.
- POST /v1/bills/validate: an invoice checked as DIAN's rules would (a customer identification of
  digits, items with a positive quantity and price and an IVA rate of 0, 5 or 19), numbered in
  the sandbox's range SETP990000001..., with a CUFE (SHA-384, as DIAN makes it) and a QR address;
  a reference_code already issued answers 409. An identification made of one repeated digit (but
  the final consumer's 222222222222) is refused as DIAN refuses a customer it cannot find (rule
  FAK24), to show a rejection.
- GET /v1/bills?filter[reference_code]= and GET /v1/bills/download-pdf/{number} (the PDF, base64).
- Control (`/_control/factus`): the credentials, `down` (answer 503 to that many calls), and what
  was issued.

Its credentials are made anew by each process unless set (the sandbox sets fixed test ones)."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import threading
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from appliance.core import clock
from appliance.netsim.bounded import BoundedDict

MAX_BILLS, MAX_TOKENS = 5_000, 1_000
TAX_RATES = ("0.00", "5.00", "19.00")
FINAL_CONSUMER = "222222222222"  # DIAN's "consumidor final": valid


@dataclass
class FactusState:
    client_id: str = field(default_factory=lambda: "client-" + secrets.token_hex(6))
    client_secret: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    username: str = "sandbox@factus.test"
    password: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    down: int = 0  # calls answered 503 before anything is done
    sequence: int = 0
    tokens: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_TOKENS))  # token -> expires (datetime)
    bills: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_BILLS))  # reference -> bill
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)


def _down(state: FactusState) -> bool:
    with state.lock:
        if state.down > 0:
            state.down -= 1
            return True
        return False


def token(state: FactusState, form: dict) -> tuple[int, dict]:
    if _down(state):
        return 503, {"message": "Service Unavailable"}
    wanted = (state.client_id, state.client_secret, state.username, state.password)
    given = tuple(str(form.get(k, "")) for k in ("client_id", "client_secret", "username", "password"))
    if form.get("grant_type") != "password" or not all(secrets.compare_digest(a.encode(), b.encode())
                                                       for a, b in zip(wanted, given)):
        return 401, {"error": "invalid_client", "message": "Client authentication failed"}
    issued = secrets.token_urlsafe(24)
    with state.lock:
        state.tokens[issued] = clock.now().timestamp() + 600
    return 200, {"token_type": "Bearer", "expires_in": 600, "access_token": issued, "refresh_token": secrets.token_urlsafe(24)}


def authorized(state: FactusState, header: str | None) -> bool:
    scheme, _, value = (header or "").partition(" ")
    with state.lock:
        expires = state.tokens.get(value.strip()) if scheme.lower() == "bearer" else None
    return expires is not None and expires > clock.now().timestamp()


def _refusal(errors: dict) -> tuple[int, dict]:
    return 422, {"status": "Validation error", "message": "Documento con errores en campos mandatorios.",
                 "data": {"errors": errors}}


def validate(state: FactusState, body) -> tuple[int, dict]:
    if _down(state):
        return 503, {"message": "Service Unavailable"}
    if not isinstance(body, dict):
        return _refusal({"body": "Se esperaba un objeto JSON"})
    reference = str(body.get("reference_code") or "")
    customer = body.get("customer") if isinstance(body.get("customer"), dict) else {}
    items = body.get("items") if isinstance(body.get("items"), list) else []
    errors = {}
    if not reference or len(reference) > 100:
        errors["reference_code"] = "El código de referencia es obligatorio"
    identification = str(customer.get("identification") or "")
    if not re.fullmatch(r"\d{5,15}", identification):
        errors["customer.identification"] = "La identificación debe tener entre 5 y 15 dígitos"
    if not str(customer.get("names") or customer.get("company") or "").strip():
        errors["customer.names"] = "El nombre del cliente es obligatorio"
    if not items:
        errors["items"] = "La factura debe tener al menos un ítem"
    total = Decimal(0)
    for n, item in enumerate(items):
        try:
            quantity, price = Decimal(str(item.get("quantity"))), Decimal(str(item.get("price")))
        except (InvalidOperation, ValueError, AttributeError):
            quantity = price = Decimal(0)
        if quantity <= 0 or price <= 0:
            errors[f"items.{n}"] = "Cantidad y precio deben ser mayores que cero"
        if isinstance(item, dict) and str(item.get("tax_rate")) not in TAX_RATES:
            errors[f"items.{n}.tax_rate"] = "Tarifa de IVA no válida"
        total += quantity * price
    if errors:
        return _refusal(errors)
    if len(set(identification)) == 1 and identification != FINAL_CONSUMER:  # a customer DIAN does not know
        return _refusal({"FAK24": "Regla: FAK24, Rechazo: No está informado el número de identificación del "
                                  "adquiriente en el RUT o el documento no es válido."})
    with state.lock:
        if reference in state.bills:
            return 409, {"status": "Conflict", "message": f"Ya existe una factura con el código de referencia {reference}"}
        state.sequence += 1
        number = f"SETP99{state.sequence:07d}"
        issued_at = clock.iso(clock.now())
        cufe = hashlib.sha384(f"{number}{issued_at}{total:.2f}{identification}".encode()).hexdigest()
        bill = {"id": state.sequence, "number": number, "reference_code": reference, "status": 1, "cufe": cufe,
                "qr": f"https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey={cufe}",
                "validated": issued_at, "total": f"{total:.2f}", "errors": [],
                "_customer": customer.get("names") or customer.get("company"), "_items": items}
        state.bills[reference] = bill
    return 201, {"status": "Created", "message": "Documento con código de referencia {} registrado y validado "
                 "con éxito".format(reference), "data": {"bill": _public(bill)}}


def _public(bill: dict) -> dict:
    return {key: value for key, value in bill.items() if not key.startswith("_")}


def by_reference(state: FactusState, reference: str) -> tuple[int, dict]:
    with state.lock:
        bill = state.bills.get(reference)
    return 200, {"status": "OK", "data": {"data": [_public(bill)] if bill else [], "pagination": {"total": int(bool(bill))}}}


def pdf(state: FactusState, number: str) -> tuple[int, dict]:
    if _down(state):
        return 503, {"message": "Service Unavailable"}
    with state.lock:
        bill = next((b for b in state.bills.values() if b["number"] == number), None)
    if bill is None:
        return 404, {"status": "Not Found", "message": "Factura no encontrada"}
    from fpdf import FPDF  # as the appliance's own invoices are written; only when one is asked
    document = FPDF()
    document.add_page()
    document.set_font("helvetica", size=14)
    document.cell(0, 10, f"Factura electronica de venta {bill['number']}", new_x="LMARGIN", new_y="NEXT")
    document.set_font("helvetica", size=9)
    for text in (f"Cliente: {bill['_customer']}", f"Total: {bill['total']} COP", f"CUFE: {bill['cufe'][:64]}",
                 bill["cufe"][64:], "Documento de prueba (sandbox): sin validez ante la DIAN"):
        document.cell(0, 6, text.encode("latin-1", "replace").decode("latin-1"), new_x="LMARGIN", new_y="NEXT")
    content = bytes(document.output())
    return 200, {"status": "OK", "data": {"file_name": f"{number}.pdf",
                                          "pdf_base_64_encoded": base64.b64encode(content).decode()}}


def control(state: FactusState, body: dict) -> dict:
    with state.lock:
        for key, attribute in (("clientId", "client_id"), ("clientSecret", "client_secret"), ("username", "username"),
                               ("password", "password")):
            if isinstance(body.get(key), str) and body[key]:
                setattr(state, attribute, body[key])
        if isinstance(body.get("down"), int) and not isinstance(body.get("down"), bool):
            state.down = max(0, body["down"])
        return read(state)


def read(state: FactusState) -> dict:
    with state.lock:
        return {"clientId": state.client_id, "username": state.username, "down": state.down,
                "bills": [_public(b) for b in state.bills.values()]}
