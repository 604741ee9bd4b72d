"""The payment processor as billing sees it: card payment sources made from a token the browser
got with the public key, charges to a source or to a Nequi account, a transaction read by id or
found by reference (to reconcile before trying again: a timeout never charges twice), and the
processor's events with their checksum checked. Wompi (wompi.py) is the one the appliance ships;
its double (netsim/wompi_double.py) plays it in the sandbox and the tests.

Amounts are the currency's minor units (Wompi's `amount_in_cents`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

PENDING, APPROVED, DECLINED, VOIDED, ERROR = "PENDING", "APPROVED", "DECLINED", "VOIDED", "ERROR"
FINAL = (APPROVED, DECLINED, VOIDED, ERROR)


class ProcessorError(Exception):
    """`kind`: `unavailable` (a timeout, a 5xx, a 429: the call may or may not have happened, so
    reconcile by reference before trying again), `refused` (the processor said no to the request:
    its message says why), `forged` (an event whose checksum does not match: nothing is done)."""

    def __init__(self, kind: str, message: str, status: int = 0):
        super().__init__(message)
        self.kind, self.message, self.status = kind, message, status


@dataclass(frozen=True)
class CardSource:
    source_id: str  # the processor's payment source id: never shown to anyone
    brand: str
    last4: str
    exp_month: int
    exp_year: int


@dataclass(frozen=True)
class Transaction:
    transaction_id: str
    reference: str
    status: str  # PENDING, APPROVED, DECLINED, VOIDED, ERROR
    amount_minor: int
    currency: str
    method: str  # CARD, NEQUI
    status_message: str | None = None
    payment_link_id: str | None = None  # paid through a payment link (an order's)


@dataclass(frozen=True)
class PaymentLink:
    link_id: str
    url: str  # where the customer pays

@dataclass(frozen=True)
class ProcessorEvent:
    transaction: Transaction

    @property
    def key(self) -> str:
        """What makes an event the same event again: its transaction and the status it reports."""
        return f"{self.transaction.transaction_id}:{self.transaction.status}"


class PaymentProcessor(Protocol):
    def card_source(self, *, card_token: str, email: str) -> CardSource: ...

    def remove_source(self, source_id: str) -> None: ...

    def charge_card(self, *, source_id: str, amount_minor: int, currency: str, reference: str,
                    email: str) -> Transaction: ...

    def charge_nequi(self, *, phone_number: str, amount_minor: int, currency: str, reference: str,
                     email: str) -> Transaction: ...

    def create_payment_link(self, *, name: str, description: str, amount_minor: int, currency: str,
                            sku: str) -> PaymentLink: ...

    def transaction(self, transaction_id: str) -> Transaction: ...

    def by_reference(self, reference: str) -> list[Transaction]: ...

    def parse_event(self, raw_body: bytes) -> ProcessorEvent: ...
