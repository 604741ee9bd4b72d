"""Electronic invoices of paid orders (`/orders/{id}/e-invoice`) and the account they are made with
(`/e-invoicing/account`).

Asking for an order's invoice writes it down (PENDING, with the customer as DIAN must know them)
and then asks the provider, outside any transaction; its answer is written after: ISSUED with the
number, the CUFE and the PDF (kept under DATA_DIR/einvoices), or REJECTED with the provider's
reason, or, when the provider did not answer, still PENDING with why, tried again by the minute
task after 1, 5, 15 and 60 minutes and then hourly. Each attempt uses the invoice's own id as the
provider's reference, so an answer lost on the way never makes a second invoice."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path

from sqlmodel import Session, select

from appliance.catalog import service as catalog_service
from appliance.contacts.models import Contact
from appliance.core import clock, runtime
from appliance.core.actor import OrgActor
from appliance.core.db import Database
from appliance.core.errors import Conflict, NotFound
from appliance.core.files import write_atomically
from appliance.address_rule import requests_session
from appliance.installation import addresses
from appliance.einvoicing.factus import Factus
from appliance.einvoicing.models import ISSUED, PENDING, REJECTED, ElectronicInvoice, InvoicingAccount
from appliance.einvoicing.provider import Customer, InvoiceRequest, InvoicingError, Line
from appliance.orders.models import PAID, Order
from appliance.orders.service import access_order

log = logging.getLogger("appliance.einvoicing")
RETRY_AFTER = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=15), timedelta(hours=1))
SANDBOX_URL = "sandbox:factus"  # the simulator's Factus double, wherever this server serves it
FINAL_CONSUMER = {"documentType": "CC", "identification": "222222222222"}  # DIAN's "consumidor final"
DOCUMENT_TYPES = ("CC", "NIT", "CE", "PASSPORT", "TI")
PAYMENT_MEANS = {"LINK": "48", "TRANSFER": "47", "MANUAL": "10"}  # DIAN's: a card, a bank transfer, cash


# The account ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class AccountView:
    configured: bool
    provider: str | None = None
    url: str | None = None
    client_id: str | None = None
    username: str | None = None
    numbering_range_id: int | None = None
    tax_rate: str | None = None
    updated_at: datetime | None = None


def get_account(session: Session, *, actor: OrgActor) -> AccountView:
    account = session.get(InvoicingAccount, actor.organization_id)
    if account is None:
        return AccountView(False)
    return AccountView(True, account.provider, account.url, account.client_id, account.username,
                       account.numbering_range_id, account.tax_rate, account.updated_at)


def do_put_account(session: Session, *, actor: OrgActor, url: str, client_id: str, username: str,
                   client_secret: str | None = None, password: str | None = None, numbering_range_id: int | None = None,
                   tax_rate: str = "19.00", provider: str = "FACTUS") -> AccountView:
    """Set the account; the secrets may be left out to keep the ones stored (never shown again),
    unless where they go or whose they are changes (the address, the client, the user). Checked
    against the installation's rule on addresses before anything is read (a lookup may take time)."""
    url = addresses.check_url(url, field="url", base=True).rstrip("/")
    keyring = runtime.get().keyring
    account = session.get(InvoicingAccount, actor.organization_id)
    moved = account is None or (account.url, account.client_id, account.username) != (url, client_id, username)
    if moved and (not client_secret or not password):
        raise Conflict("Give the client secret and the password: the first time, and whenever the address, the "
                       "client or the user changes (the saved ones are sent only where they were given).",
                       code="secrets_required")
    account = account or InvoicingAccount(organization_id=actor.organization_id, url=url, client_id=client_id,
                                          client_secret_sealed="", username=username, password_sealed="",
                                          updated_at=clock.now())
    account.provider, account.url, account.client_id, account.username = provider, url, client_id, username
    account.numbering_range_id, account.tax_rate, account.updated_at = numbering_range_id, tax_rate, clock.now()
    if client_secret:
        account.client_secret_sealed = keyring.seal(client_secret)
    if password:
        account.password_sealed = keyring.seal(password)
    session.add(account)
    session.flush()
    _providers.pop(actor.organization_id, None)
    return get_account(session, actor=actor)


_providers: dict[str, tuple[tuple, Factus]] = {}  # organization -> (its account's shape, its client): tokens kept


def do_use_sandbox_double(session: Session, *, organization_id: str, credentials: dict) -> None:
    """The sandbox's account at the simulator's Factus double (an owner's own account is kept)."""
    if session.get(InvoicingAccount, organization_id) is not None:
        return
    keyring = runtime.get().keyring
    session.add(InvoicingAccount(organization_id=organization_id, url=SANDBOX_URL, client_id=credentials["clientId"],
                                 client_secret_sealed=keyring.seal(credentials["clientSecret"]),
                                 username=credentials["username"], password_sealed=keyring.seal(credentials["password"]),
                                 updated_at=clock.now()))
    session.flush()


def _provider(account: InvoicingAccount) -> Factus:
    keyring, settings = runtime.get().keyring, runtime.get().settings
    sandboxed = account.url == SANDBOX_URL  # our own simulator, at the address this server gives it
    url = settings.graph_api_url.rstrip("/") + "/factus" if sandboxed else account.url
    shape = (url, account.client_id, account.client_secret_sealed, account.username, account.password_sealed)
    kept = _providers.get(account.organization_id)
    if kept is None or kept[0] != shape:
        kept = (shape, Factus(url=url, client_id=account.client_id, client_secret=keyring.unseal(account.client_secret_sealed),
                              username=account.username, password=keyring.unseal(account.password_sealed),
                              session=None if sandboxed else requests_session(addresses.rule())))
        _providers[account.organization_id] = kept
    return kept[1]


# The invoices ---------------------------------------------------------------------------------

def pdf_path(invoice: ElectronicInvoice) -> Path:
    return runtime.get().settings.data_dir / "einvoices" / invoice.organization_id / f"{invoice.id}.pdf"


def access_invoice(session: Session, *, actor: OrgActor, order_id: str) -> ElectronicInvoice:
    order = access_order(session, actor=actor, order_id=order_id)
    invoice = session.exec(select(ElectronicInvoice).where(ElectronicInvoice.order_id == order.id)).first()
    if invoice is None:
        raise NotFound("This order has no electronic invoice yet.", code="einvoice_not_found")
    return invoice


def _customer(session: Session, order: Order, given: dict | None) -> dict:
    if given:
        return given
    contact = session.get(Contact, order.contact_id)
    return {**FINAL_CONSUMER, "name": (contact.name or contact.profile_name or "Consumidor final")[:200]}


def do_request(session: Session, *, actor: OrgActor, order_id: str, customer: dict | None = None) -> ElectronicInvoice:
    """Write the request down (or take up a rejected one with corrected data)."""
    order = access_order(session, actor=actor, order_id=order_id)
    if session.get(InvoicingAccount, actor.organization_id) is None:
        raise Conflict("Set up the e-invoicing account first (Business > E-invoicing).", code="einvoicing_not_configured")
    if order.payment_status != PAID:
        raise Conflict("Only a paid order is invoiced.", code="order_not_paid")
    now = clock.now()
    invoice = session.exec(select(ElectronicInvoice).where(ElectronicInvoice.order_id == order.id)).first()
    if invoice is not None and invoice.status != REJECTED:
        return invoice  # issued, or on its way: the same invoice
    if invoice is None:
        invoice = ElectronicInvoice(organization_id=order.organization_id, order_id=order.id, created_at=now,
                                    updated_at=now)
    else:  # corrected data: a new reference, since the provider keeps the rejected one's
        session.delete(invoice)
        session.flush()
        invoice = ElectronicInvoice(organization_id=order.organization_id, order_id=order.id, created_at=now,
                                    updated_at=now)
    if order.currency != "COP":
        raise Conflict("DIAN's electronic invoices are in COP; this order is not.", code="einvoice_currency")
    invoice.customer, invoice.status = _customer(session, order, customer), PENDING
    # Asked now by the request itself; the minute task only once this first attempt is long over.
    invoice.next_attempt_at = now + RETRY_AFTER[0]
    session.add(invoice)
    session.flush()
    return invoice


def _request_of(session: Session, invoice: ElectronicInvoice, account: InvoicingAccount) -> InvoiceRequest:
    order = session.get(Order, invoice.order_id)
    names = {p.retailer_id: p.name for p in catalog_service.by_retailer_ids(
        session, order.organization_id, [item.get("productRetailerId") for item in order.items or []]).values()}
    lines = []
    for item in order.items or []:
        try:
            quantity, price = Decimal(str(item.get("quantity"))), Decimal(str(item.get("itemPrice")))
        except (InvalidOperation, ValueError):
            raise InvoicingError("refused", "An item of the order has no readable quantity or price: it cannot be "
                                            "invoiced as it was paid.") from None
        retailer = str(item.get("productRetailerId") or "item")
        lines.append(Line(retailer, names.get(retailer, retailer), quantity, price, account.tax_rate))
    customer = invoice.customer
    return InvoiceRequest(invoice.id, Customer(customer.get("documentType", "CC"), str(customer.get("identification")),
                                               str(customer.get("name")), customer.get("email")),
                          lines, account.numbering_range_id, PAYMENT_MEANS.get(order.paid_via or "", "10"))


def issue(database: Database, invoice_id: str) -> None:
    """Ask the provider for a PENDING invoice (no transaction open meanwhile); write its answer."""
    with database.unit_of_work(write=False) as reading:
        invoice = reading.get(ElectronicInvoice, invoice_id)
        if invoice is None or invoice.status != PENDING:
            return
        account = reading.get(InvoicingAccount, invoice.organization_id)
        try:
            request = _request_of(reading, invoice, account) if account else None
            problem = None
        except InvoicingError as error:
            request, problem = None, error
        provider = _provider(account) if account and request else None
    outcome: Exception | None = problem
    issued = None
    try:
        if problem is None:
            if provider is None:
                raise InvoicingError("refused", "The e-invoicing account was removed.")
            issued = provider.issue(request)
    except InvoicingError as error:
        outcome = error
    with database.unit_of_work(write=True) as writing:
        invoice = writing.get(ElectronicInvoice, invoice_id)
        if invoice is None or invoice.status != PENDING:
            return
        now = clock.now()
        invoice.attempts, invoice.updated_at = invoice.attempts + 1, now
        if issued is not None:
            if issued.pdf:
                write_atomically(pdf_path(invoice), issued.pdf)
            invoice.status, invoice.number, invoice.cufe, invoice.qr_url = ISSUED, issued.number, issued.cufe, issued.qr_url
            invoice.has_pdf, invoice.issued_at, invoice.reason, invoice.next_attempt_at = bool(issued.pdf), now, None, None
        elif outcome.kind == "refused":
            invoice.status, invoice.reason, invoice.next_attempt_at = REJECTED, outcome.message[:1000], None
        else:
            delay = RETRY_AFTER[min(invoice.attempts - 1, len(RETRY_AFTER) - 1)]
            invoice.reason, invoice.next_attempt_at = f"provider_unavailable: {outcome.message}"[:1000], now + delay
            log.warning("e-invoice %s: provider unavailable, tried again at %s", invoice.id, invoice.next_attempt_at)
        writing.add(invoice)


def check_invoice(*, actor: OrgActor, order_id: str, customer: dict | None = None) -> ElectronicInvoice:
    """The order's invoice: asked for now (the answer within the request when the provider gives
    it; PENDING with why when it does not)."""
    database = runtime.get().db
    with database.unit_of_work(write=True) as writing:
        invoice_id = do_request(writing, actor=actor, order_id=order_id, customer=customer).id
    issue(database, invoice_id)
    with database.unit_of_work(write=False) as reading:
        return access_invoice(reading, actor=actor, order_id=order_id)


def retry_due(database: Database, now: datetime | None = None) -> int:
    """The minute task: PENDING invoices whose next attempt has come."""
    now = now or clock.now()
    with database.unit_of_work(write=False) as reading:
        due = list(reading.exec(select(ElectronicInvoice.id).where(ElectronicInvoice.status == PENDING,
                                                                  ElectronicInvoice.next_attempt_at <= now)))
    for invoice_id in due:
        try:
            issue(database, invoice_id)
        except Exception:  # one invoice's trouble (a file, the keyring) never stops the others'
            log.exception("e-invoice %s: the attempt failed; tried again later", invoice_id)
            with database.unit_of_work(write=True) as writing:
                invoice = writing.get(ElectronicInvoice, invoice_id)
                if invoice is not None and invoice.status == PENDING:
                    invoice.attempts += 1
                    invoice.next_attempt_at = clock.now() + RETRY_AFTER[-1]
                    invoice.reason = "the appliance could not make the attempt: see its log"
                    writing.add(invoice)
    return len(due)


def invoices_of(session: Session, order_ids: list[str]) -> dict[str, ElectronicInvoice]:
    """The invoices of a page of orders, by order."""
    if not order_ids:
        return {}
    return {i.order_id: i for i in session.exec(select(ElectronicInvoice).where(ElectronicInvoice.order_id.in_(order_ids)))}
