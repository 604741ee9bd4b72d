"""Factus (factus.com.co), a DIAN-authorized provider, through its REST API v1: an OAuth2
password grant for a bearer token (kept until a minute before it expires, asked again on a 401),
`POST /v1/bills/validate` to issue and validate an invoice under our reference (`reference_code`),
`GET /v1/bills/download-pdf/{number}` for its PDF. A reference Factus already has (a call whose
answer was lost) is looked up (`GET /v1/bills?filter[reference_code]=`) instead of issued again.

Every call has a timeout; a 5xx, a 429 or no answer is `unavailable` (try again later, under the
same reference); a 4xx is `refused` with the provider's words (DIAN's rules and reasons)."""

from __future__ import annotations

import base64
import binascii
import threading
import time
from decimal import Decimal
from typing import Any

import requests

from appliance.einvoicing.provider import InvoiceRequest, InvoicingError, Issued

TIMEOUT = 20.0
DOCUMENT_IDS = {"TI": "2", "CC": "3", "CE": "5", "NIT": "6", "PASSPORT": "7"}  # Factus's identification documents
NATURAL_PERSON, COMPANY = "2", "1"  # legal_organization_id
NO_TRIBUTE = "21"  # tribute_id: "No aplica" (a person without IVA responsibility)


def _reasons(data: Any, status: int) -> str:
    """Factus's (and DIAN's) words: its message and each rule's reason."""
    if not isinstance(data, dict):
        return f"Factus answered {status}."
    parts = [str(data.get("message") or data.get("status") or f"error {status}")]
    inner = data.get("data") if isinstance(data.get("data"), dict) else {}
    errors = inner.get("errors") if isinstance(inner.get("errors"), (dict, list)) else data.get("errors")
    if isinstance(errors, dict):
        parts += [f"{rule}: {' '.join(map(str, said)) if isinstance(said, list) else said}" for rule, said in errors.items()]
    elif isinstance(errors, list):
        parts += [str(said) for said in errors]
    return "; ".join(parts)[:1000]


class Factus:
    def __init__(self, *, url: str, client_id: str, client_secret: str, username: str, password: str,
                 timeout: float = TIMEOUT, session: requests.Session | None = None):
        self.url, self.timeout = url.rstrip("/"), timeout
        self._http = session or requests.Session()  # the installation's rule on addresses keeps it (service.py)
        self._client = (client_id, client_secret)
        self._user = (username, password)
        self._token: tuple[str, float] | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:  # never the secrets
        return f"Factus(url={self.url!r})"

    def _request(self, method: str, path: str, **kwargs) -> requests.Response:
        try:
            answer = self._http.request(method, self.url + path, timeout=self.timeout, **kwargs)
        except requests.RequestException as error:
            raise InvoicingError("unavailable", f"Factus could not be reached ({type(error).__name__}).") from None
        except ValueError as error:  # the installation's rule on addresses refused where it leads
            raise InvoicingError("refused", f"The provider's address is not one the appliance may reach: {error}") \
                from None
        if answer.status_code == 429 or answer.status_code >= 500:
            raise InvoicingError("unavailable", f"Factus answered {answer.status_code}: it is tried again later.")
        return answer

    def _access_token(self, *, fresh: bool = False) -> str:
        with self._lock:
            if self._token and not fresh and self._token[1] > time.monotonic():
                return self._token[0]
            answer = self._request("POST", "/oauth/token", data={
                "grant_type": "password", "client_id": self._client[0], "client_secret": self._client[1],
                "username": self._user[0], "password": self._user[1]}, headers={"Accept": "application/json"})
            data = _json(answer)
            if not answer.ok or not isinstance(data, dict) or not data.get("access_token"):
                raise InvoicingError("refused", "Factus refused the account's credentials: check them in the "
                                                "e-invoicing settings.")
            lasts = data.get("expires_in") if isinstance(data.get("expires_in"), int) else 600
            self._token = (str(data["access_token"]), time.monotonic() + max(30, lasts - 60))
            return self._token[0]

    def _call(self, method: str, path: str, **kwargs) -> tuple[int, Any]:
        for fresh in (False, True):  # a token Factus no longer takes: a new one, once
            headers = {"Authorization": f"Bearer {self._access_token(fresh=fresh)}", "Accept": "application/json"}
            answer = self._request(method, path, headers=headers, **kwargs)
            if answer.status_code != 401:
                return answer.status_code, _json(answer)
        raise InvoicingError("refused", "Factus refused the account's token: check the e-invoicing settings.")

    def issue(self, request: InvoiceRequest) -> Issued:
        customer = request.customer
        body = {"reference_code": request.reference, "payment_form": "1", "payment_method_code": request.payment_means,
                "customer": {"identification_document_id": DOCUMENT_IDS.get(customer.document_type, "3"),
                             "identification": customer.identification, "names": customer.name,
                             "legal_organization_id": COMPANY if customer.document_type == "NIT" else NATURAL_PERSON,
                             "tribute_id": NO_TRIBUTE, **({"email": customer.email} if customer.email else {})},
                "items": [{"code_reference": line.code[:100], "name": line.name[:250], "quantity": _number(line.quantity),
                           "discount_rate": 0, "price": _number(line.unit_price), "tax_rate": line.tax_rate,
                           "unit_measure_id": 70, "standard_code_id": 1, "is_excluded": 0, "tribute_id": 1,
                           "withholding_taxes": []} for line in request.lines]}
        if request.numbering_range_id is not None:
            body["numbering_range_id"] = request.numbering_range_id
        status, data = self._call("POST", "/v1/bills/validate", json=body)
        if status == 409:  # this reference was issued already (an answer lost on the way): that invoice
            return self._by_reference(request.reference)
        if status >= 400:
            raise InvoicingError("refused", _reasons(data, status))
        bill = _object(_object(data).get("data")).get("bill")
        if not isinstance(bill, dict):
            raise InvoicingError("unavailable", "Factus answered without the invoice: it is looked up later.")
        return self._issued(bill)

    def _by_reference(self, reference: str) -> Issued:
        status, data = self._call("GET", "/v1/bills", params={"filter[reference_code]": reference})
        found = _object(_object(data).get("data")).get("data")
        if status >= 400 or not isinstance(found, list) or not found or not isinstance(found[0], dict):
            raise InvoicingError("unavailable", "Factus says this invoice exists but did not find it: tried again later.")
        return self._issued(found[0])

    def _issued(self, bill: dict) -> Issued:
        number, cufe = bill.get("number"), bill.get("cufe")
        if not number or not cufe:
            raise InvoicingError("refused", _reasons({"message": "DIAN did not validate the invoice",
                                                      "errors": bill.get("errors") or []}, 422))
        return Issued(str(number), str(cufe), str(bill.get("qr") or "") or None, self._pdf(str(number)))

    def _pdf(self, number: str) -> bytes | None:
        """The issued invoice's PDF, or None (issued all the same: nothing the PDF's call says may
        undo that; the PDF is asked again later)."""
        try:
            status, data = self._call("GET", f"/v1/bills/download-pdf/{number}")
        except InvoicingError:
            return None
        encoded = _object(_object(data).get("data")).get("pdf_base_64_encoded")
        if status >= 400 or not isinstance(encoded, str):
            return None
        try:
            return base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            return None


def _object(value: Any) -> dict:
    """A part of Factus's answer that should be an object (anything else read as empty)."""
    return value if isinstance(value, dict) else {}


def _json(answer: requests.Response) -> Any:
    try:
        return answer.json()
    except ValueError:
        return None


def _number(value: Decimal) -> str:
    return f"{value:f}"
