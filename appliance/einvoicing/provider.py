"""The e-invoicing provider as the appliance sees it: one call issues an invoice (the provider
validates it with DIAN) under our reference, and answers its number, CUFE and PDF; an invoice
asked twice under one reference is the same invoice (the provider refuses a second one, and the
first is looked up). Factus (factus.py) is the one shipped; netsim/factus_double.py plays it."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol


class InvoicingError(Exception):
    """`kind`: `unavailable` (a timeout, a 5xx, a 429: try again later, under the same reference),
    `refused` (the provider or DIAN said no: `message` says why; nothing was issued)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind, self.message = kind, message


@dataclass(frozen=True)
class Customer:
    document_type: str  # CC (cédula), NIT, CE (cédula de extranjería), PASSPORT, TI (tarjeta de identidad)
    identification: str
    name: str
    email: str | None = None


@dataclass(frozen=True)
class Line:
    code: str
    name: str
    quantity: Decimal
    unit_price: Decimal  # tax included
    tax_rate: str  # "19.00"


@dataclass(frozen=True)
class InvoiceRequest:
    reference: str  # ours: the provider keeps one invoice per reference
    customer: Customer
    lines: list[Line]
    numbering_range_id: int | None = None
    payment_means: str = "10"  # DIAN's: 10 cash, 47 bank transfer, 48 credit card


@dataclass(frozen=True)
class Issued:
    number: str
    cufe: str
    qr_url: str | None
    pdf: bytes | None


class InvoicingProvider(Protocol):
    def issue(self, request: InvoiceRequest) -> Issued: ...
