"""Wompi (Colombia's card and Nequi processor) as billing's PaymentProcessor, over its API v1 with
requests: the browser makes the card token with the public key, the appliance makes it a payment
source and charges it, or charges a Nequi account, with the private key.

- Each charge carries the integrity signature (SHA-256 of reference, amount, currency and the
  integrity secret) and its own reference, which Wompi takes once only: that is the idempotency a
  timeout needs (look the reference up, never charge again under another).
- Sources and Nequi charges carry both acceptance tokens Wompi requires (its terms, and the
  authorization to handle personal data), fetched fresh from GET /merchants/info each time: they
  last about an hour. (The key-in-the-path /merchants/{key} was retired on 31 October 2026.)
- A saved card's charge carries no acceptance tokens, as Wompi's recurring-charge examples: the
  person accepted them when the source was made.
- Events (`transaction.updated`) are believed only when their checksum matches: SHA-256 of the
  values `signature.properties` names (read in `data`, in that order), the timestamp and the events
  secret, compared in constant time. They must sign the transaction's id, status and amount; the
  rest of the event (its reference among it) is not signed, so act on the transaction's id.
- Removing a card voids its source (`PUT /payment_sources/{id}/void`): Wompi deletes nothing, and
  a voided source charges nothing more.

Every call has a timeout. Failures are ProcessorError: `unavailable` (timeouts, connections,
5xx, 429, an answer that is not Wompi's: it may or may not have happened), `refused` (Wompi's
4xx, with its message), `forged` (an event that does not prove itself). Nothing here logs a key, a
secret or a card token."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import urllib.parse
from typing import Any

import requests

from appliance.billing.processor import (APPROVED, DECLINED, ERROR, PENDING, VOIDED, CardSource, PaymentLink,
                                       ProcessorError, ProcessorEvent, Transaction)

log = logging.getLogger("appliance.billing")

TIMEOUT = 15.0  # seconds per call: a charge waits no longer on Wompi
STATUSES = (PENDING, APPROVED, DECLINED, VOIDED, ERROR)
SIGNED = ("transaction.id", "transaction.status", "transaction.amount_in_cents")  # what an event must sign
MAX_EVENT_BYTES = 64 << 10


def integrity_signature(reference: str, amount_minor: int, currency: str, secret: str) -> str:
    return hashlib.sha256(f"{reference}{amount_minor}{currency}{secret}".encode()).hexdigest()


def _brand_of(bin_: str) -> str:
    """The card's brand from its first digits (a payment source shows the BIN, not the brand)."""
    if bin_.startswith("4"):
        return "VISA"
    if re.match(r"5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720)", bin_):
        return "MASTERCARD"
    if re.match(r"3[47]", bin_):
        return "AMEX"
    return "CARD"


def _year(value: Any) -> int:
    year = int(value)
    return year + 2000 if 0 < year < 100 else year


def _text(value: Any) -> str:
    """A value as it enters the checksum's concatenation."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _transaction(data: Any) -> Transaction:
    """Wompi's transaction as billing's. Raises KeyError/TypeError/ValueError on another shape."""
    if not isinstance(data, dict):
        raise TypeError("not an object")
    status = str(data["status"])
    if status not in STATUSES:  # a status Wompi added: not final for us, asked again later
        log.warning("Wompi transaction %s has an unknown status %r; taken as PENDING", data["id"], status[:40])
        status = PENDING
    amount = data["amount_in_cents"]
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValueError("amount_in_cents is not an integer")
    method = data.get("payment_method_type") or (data.get("payment_method") or {}).get("type") or ""
    message = data.get("status_message")
    link = data.get("payment_link_id")
    return Transaction(transaction_id=str(data["id"]), reference=str(data["reference"]), status=status,
                       amount_minor=amount, currency=str(data["currency"]), method=str(method),
                       status_message=str(message)[:300] if message else None,
                       payment_link_id=str(link)[:100] if link else None)


class Wompi:
    """One per installation's settings (gateway.py); holds no state between calls, so threads share it."""

    def __init__(self, *, url: str, public_key: str, private_key: str, events_secret: str, integrity_secret: str,
                 checkout_url: str = "https://checkout.wompi.co", timeout: float = TIMEOUT):
        self.url, self.timeout, self.checkout_url = url.rstrip("/"), timeout, checkout_url.rstrip("/")
        self._public_key, self._private_key = public_key, private_key
        self._events_secret, self._integrity_secret = events_secret, integrity_secret

    def __repr__(self) -> str:  # never the keys
        return f"Wompi(url={self.url!r})"

    # Calls ---------------------------------------------------------------------------------------

    def _call(self, method: str, path: str, *, body: dict | None = None, params: dict | None = None,
              headers: dict | None = None, private: bool = True) -> Any:
        """Wompi's `data` (the whole answer when it has none) or ProcessorError."""
        sent = dict(headers or {})
        if private:
            sent["Authorization"] = f"Bearer {self._private_key}"
        try:
            answer = requests.request(method, self.url + path, json=body, params=params, headers=sent,
                                      timeout=self.timeout)
        except requests.RequestException as error:
            raise ProcessorError("unavailable", f"Wompi could not be reached ({type(error).__name__}).") from None
        status = answer.status_code
        if status == 429 or status >= 500:
            raise ProcessorError("unavailable", f"Wompi answered {status}: try again later.", status)
        try:
            data = answer.json()
        except ValueError:
            data = None
        if not isinstance(data, dict):
            if answer.ok:  # something between us and Wompi answered: what happened is unknown
                raise ProcessorError("unavailable", f"Wompi answered {status} without its JSON.", status)
            raise ProcessorError("refused", f"Wompi refused the call ({status}).", status)
        if answer.ok:
            return data.get("data", data)
        raise ProcessorError("refused", self._message(data, status), status)

    @staticmethod
    def _message(data: dict, status: int) -> str:
        error = data.get("error") if isinstance(data.get("error"), dict) else {}
        messages = error.get("messages")
        if isinstance(messages, dict) and messages:
            parts = []
            for name, said in messages.items():
                said = "; ".join(str(m) for m in said) if isinstance(said, list) else str(said)
                parts.append(f"{name}: {said}")
            text = ". ".join(parts)
        else:
            text = str(error.get("reason") or error.get("message") or error.get("type") or f"error {status}")
        text = text[:500]
        if status == 401:
            return f"Wompi refused the key ({text}): check the APPLIANCE_WOMPI_* settings."
        return f"Wompi refused it: {text}"

    def _acceptance(self) -> dict:
        """Both acceptance tokens, fresh, as the body fields Wompi reads them from."""
        merchant = self._call("GET", "/merchants/info", headers={"x-merchant-public-key": self._public_key},
                              private=False)
        try:
            return {"acceptance_token": str(merchant["presigned_acceptance"]["acceptance_token"]),
                    "accept_personal_auth": str(merchant["presigned_personal_data_auth"]["acceptance_token"])}
        except (KeyError, TypeError):
            raise ProcessorError("unavailable", "Wompi's merchant answer had no acceptance tokens.") from None

    def _read(self, data: Any) -> Transaction:
        try:
            return _transaction(data)
        except (KeyError, TypeError, ValueError):
            raise ProcessorError("unavailable", "Wompi answered a transaction billing cannot read.") from None

    def _charge(self, *, amount_minor: int, currency: str, reference: str, email: str, extra: dict) -> Transaction:
        if isinstance(amount_minor, bool) or not isinstance(amount_minor, int) or amount_minor <= 0:
            raise ProcessorError("refused", "The amount must be a positive number of cents.")
        if not reference or len(reference) > 255:
            raise ProcessorError("refused", "A Wompi reference has 1 to 255 characters.")
        body = {"amount_in_cents": amount_minor, "currency": currency, "customer_email": email,
                "reference": reference,
                "signature": integrity_signature(reference, amount_minor, currency, self._integrity_secret), **extra}
        return self._read(self._call("POST", "/transactions", body=body))

    # PaymentProcessor ----------------------------------------------------------------------------

    def card_source(self, *, card_token: str, email: str) -> CardSource:
        body = {"type": "CARD", "token": card_token, "customer_email": email, **self._acceptance()}
        source = self._call("POST", "/payment_sources", body=body)
        try:
            shown = source.get("public_data") or {}
            last4 = str(shown.get("last_four") or "")[-4:]
            brand = str(shown.get("brand") or _brand_of(str(shown.get("bin") or "")))
            card = CardSource(source_id=str(int(source["id"])), brand=brand, last4=last4,
                              exp_month=int(shown.get("exp_month") or 0), exp_year=_year(shown.get("exp_year") or 0))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ProcessorError("unavailable", "Wompi answered a payment source billing cannot read.") from None
        if source.get("status") not in ("AVAILABLE", None):
            state = str(source.get("status"))[:40]
            raise ProcessorError("refused", f"Wompi did not make the card available ({state}).")
        return card

    def remove_source(self, source_id: str) -> None:
        """Void the source (Wompi deletes none); one already gone is what was wanted."""
        if not str(source_id).isdigit():
            return
        try:
            self._call("PUT", f"/payment_sources/{source_id}/void")
        except ProcessorError as error:
            if error.status != 404:
                raise

    def charge_card(self, *, source_id: str, amount_minor: int, currency: str, reference: str,
                    email: str) -> Transaction:
        if not str(source_id).isdigit():
            raise ProcessorError("refused", "This card is not a Wompi payment source.")
        return self._charge(amount_minor=amount_minor, currency=currency, reference=reference, email=email,
                            extra={"payment_source_id": int(source_id), "payment_method": {"installments": 1}})

    def charge_nequi(self, *, phone_number: str, amount_minor: int, currency: str, reference: str,
                     email: str) -> Transaction:
        """The person accepts the charge in their Nequi app: it stays PENDING until they do."""
        digits = re.sub(r"\D", "", phone_number or "")
        if len(digits) == 12 and digits.startswith("57"):
            digits = digits[2:]
        if not re.fullmatch(r"3\d{9}", digits):
            raise ProcessorError("refused", "A Nequi account is a Colombian mobile number of 10 digits (3xx xxx xxxx).")
        return self._charge(amount_minor=amount_minor, currency=currency, reference=reference, email=email,
                            extra={**self._acceptance(), "payment_method": {"type": "NEQUI", "phone_number": digits}})

    def create_payment_link(self, *, name: str, description: str, amount_minor: int, currency: str,
                            sku: str) -> PaymentLink:
        """A single-use link for one amount (an order's); its transactions name it (`payment_link_id`)."""
        if isinstance(amount_minor, bool) or not isinstance(amount_minor, int) or amount_minor <= 0:
            raise ProcessorError("refused", "The amount must be a positive number of cents.")
        data = self._call("POST", "/payment_links", body={
            "name": name[:100], "description": description[:250], "single_use": True, "collect_shipping": False,
            "currency": currency, "amount_in_cents": amount_minor, "sku": sku[:36]})
        link_id = data.get("id") if isinstance(data, dict) else None
        if not link_id:
            raise ProcessorError("unavailable", "Wompi's answer had no payment link id.")
        return PaymentLink(str(link_id), f"{self.checkout_url}/l/{link_id}")

    def transaction(self, transaction_id: str) -> Transaction:
        return self._read(self._call("GET", f"/transactions/{urllib.parse.quote(str(transaction_id), safe='')}"))

    def by_reference(self, reference: str) -> list[Transaction]:
        """Every transaction of the reference, an approved one first (a reattempt may follow a decline)."""
        found = self._call("GET", "/transactions", params={"reference": reference})
        if not isinstance(found, list):
            raise ProcessorError("unavailable", "Wompi answered a search billing cannot read.")
        transactions = [self._read(data) for data in found]
        transactions = [t for t in transactions if t.reference == reference]
        return sorted(transactions, key=lambda t: t.status != APPROVED)

    def parse_event(self, raw_body: bytes) -> ProcessorEvent:
        if not self._events_secret:
            raise ProcessorError("forged", "No events secret is set (APPLIANCE_WOMPI_EVENTS_SECRET): "
                                           "no event is believed.")
        if len(raw_body) > MAX_EVENT_BYTES:
            raise ProcessorError("forged", "The event is too large to be Wompi's.")
        try:
            event = json.loads(raw_body)
            signature, data = event["signature"], event["data"]
            properties, checksum = signature["properties"], signature["checksum"]
            timestamp = event.get("timestamp", signature.get("timestamp"))
            if not isinstance(data, dict) or not isinstance(checksum, str) or not isinstance(properties, list) \
                    or not all(isinstance(p, str) for p in properties) or isinstance(timestamp, bool) \
                    or not isinstance(timestamp, (int, str)) or not str(timestamp).isdigit():
                raise TypeError("not Wompi's event shape")
            values = []
            for name in properties:
                value: Any = data
                for part in name.split("."):
                    value = value[part]
                values.append(_text(value))
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError):
            raise ProcessorError("forged", "The event is not Wompi's shape.") from None
        expected = hashlib.sha256(("".join(values) + str(timestamp) + self._events_secret).encode()).hexdigest()
        if not hmac.compare_digest(expected.encode(), checksum.strip().lower().encode("utf-8", "replace")):
            raise ProcessorError("forged", "The event's checksum does not match the events secret.")
        if event.get("event") != "transaction.updated":  # Wompi's, but not about a charge: answer 200, do nothing
            raise ProcessorError("refused", f"Wompi event {str(event.get('event'))[:60]!r} is not one billing acts on.")
        if not set(SIGNED) <= set(properties):
            raise ProcessorError("forged", "The event does not sign its transaction's id, status and amount.")
        try:
            return ProcessorEvent(transaction=_transaction(data["transaction"]))
        except (KeyError, TypeError, ValueError):
            raise ProcessorError("forged", "The event's transaction is not Wompi's shape.") from None
