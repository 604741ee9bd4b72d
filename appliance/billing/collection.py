"""Collecting what is owed: an open invoice is paid from the paying wallet when it holds enough,
else by auto-pay (the default card, or the one chosen), one processor attempt at a time, each under
its own reference `inv:{invoice}:try:{n}` (the processor's idempotency key: a timeout is looked up
by it, never charged again under another). A failure tells the owner once (a mail, and the banner
of the Billing page), and the invoice is tried again 1, 3 and 5 days after it fell due; 7 days
past due the organization is suspended (reason `payment_overdue`: reading keeps working, sending
and automation stop) until it is paid, which lifts the suspension at once.

Every decision leaves its outcome on the invoice (`attempts`, `last_failure`) or the payment
(`status`, `status_message`); nothing here runs while holding the writers' lock over a call to the
processor."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import or_
from sqlmodel import Session, select

from appliance.billing import gateway, invoices, money, wallet
from appliance.billing.models import BillingAccount, Invoice, Payment, PaymentMethod
from appliance.billing.processor import APPROVED, FINAL, PENDING, ProcessorError, Transaction
from appliance.core import clock, runtime
from appliance.core.db import Database
from appliance.installation import public_address
from appliance.mail import service as mail_service
from appliance.organizations import service as organizations_service
from appliance.organizations.models import Organization
from appliance.users.models import User

log = logging.getLogger("appliance.billing")
RETRY_AFTER_DAYS = (1, 3, 5)  # after the invoice fell due
OVERDUE = organizations_service.PAYMENT_OVERDUE
LOST_AFTER = timedelta(minutes=10)  # a charge the processor never heard of, this long after: failed
INVOICE, CARD, NEQUI = "INVOICE", "CARD", "NEQUI"


def do_pay_from_wallet(session: Session, invoice: Invoice, now: datetime) -> bool:
    """Pay the invoice from the wallet that pays for its organization now (a child that joined or
    left a billing group since it was billed pays from its new payer)."""
    if invoice.status != invoices.OPEN:
        return invoice.status == invoices.PAID
    payer = wallet.payer_id(session, invoice.organization_id)
    if invoice.total_minor and wallet.balance(session, payer) < invoice.total_minor:
        return False
    if invoice.total_minor:
        wallet.do_move(session, wallet_id=payer, amount_minor=-invoice.total_minor, currency=invoice.currency,
                       source=INVOICE, reference=invoice.id, description=f"Invoice {invoice.number}",
                       for_organization_id=invoice.organization_id)
    invoice.wallet_id = payer
    invoice.status, invoice.paid_at, invoice.next_attempt_at = invoices.PAID, now, None
    session.add(invoice)
    session.flush()
    _lift_if_paid_up(session, invoice.organization_id, now)
    if invoice.total_minor:
        _send_receipt(session, invoice)
    return True


def do_settle_wallet(session: Session, wallet_id: str, now: datetime | None = None) -> int:
    """After money came in: the open invoices this wallet pays, oldest first, while it covers them."""
    now = now or clock.now()
    paid = 0
    paying_for = select(Organization.id).where(or_(Organization.id == wallet_id, Organization.billing_parent_id == wallet_id))
    for invoice in session.exec(select(Invoice).where(Invoice.organization_id.in_(paying_for), Invoice.status == invoices.OPEN)
                                .order_by(Invoice.period_start, Invoice.number)).all():
        if wallet.payer_id(session, invoice.organization_id) != wallet_id:
            continue  # this organization is itself a child: another wallet pays for it
        if not do_pay_from_wallet(session, invoice, now):
            break
        paid += 1
    return paid


def _lift_if_paid_up(session: Session, organization_id: str, now: datetime) -> None:
    organization = session.get(Organization, organization_id)
    grace_ended = now - timedelta(days=invoices.GRACE_DAYS)
    if organization.suspension_reason == OVERDUE and not any(
            invoice.due_at <= grace_ended for invoice in invoices.pending(session, organization_id)):
        organization.suspended_at = organization.suspension_reason = None
        organization.updated_at = now
        session.add(organization)


def auto_pay_method(session: Session, wallet_id: str) -> PaymentMethod | None:
    """The card auto-pay charges for this wallet: the chosen one, else the default; None when off."""
    account = session.get(BillingAccount, wallet_id)
    if account is None or not account.auto_pay_enabled:
        return None
    if account.auto_pay_method_id:
        chosen = session.get(PaymentMethod, account.auto_pay_method_id)
        if chosen is not None and chosen.organization_id == wallet_id:
            return chosen
    return session.exec(select(PaymentMethod).where(PaymentMethod.organization_id == wallet_id,
                                                    PaymentMethod.is_default.is_(True))).first()


def _failed(session: Session, invoice: Invoice, reason: str, now: datetime) -> None:
    """The attempt did not pay: say why, plan the next one, tell the owner the first time."""
    invoice.last_failure = reason[:300]
    later = [invoice.due_at + timedelta(days=days) for days in RETRY_AFTER_DAYS]
    invoice.next_attempt_at = next((moment for moment in later if moment > now), None)
    if invoice.owner_told_at is None:
        invoice.owner_told_at = now
        _tell_owner(session, invoice)
    session.add(invoice)
    session.flush()


def _tell_owner(session: Session, invoice: Invoice) -> None:
    payer = session.get(Organization, invoice.wallet_id)
    owner = session.get(User, payer.created_by)
    organization = session.get(Organization, invoice.organization_id)
    mail_service.do_queue_mail(session, to=owner.email, kind="invoice_payment_failed", locale=owner.locale,
                               name=owner.name, organization=organization.name, number=invoice.number,
                               amount=money.text(invoice.total_minor, invoice.currency), currency=invoice.currency,
                               reason=invoice.last_failure or "",
                               suspend_on=invoices.overdue_since(invoice).date().isoformat(),
                               link=f"{public_address.base_url()}/console/{payer.id}/billing")


def _send_receipt(session: Session, invoice: Invoice) -> None:
    """A paid invoice (of more than zero) to the organization's billing address, once: an invoice
    is paid once."""
    organization = session.get(Organization, invoice.organization_id)
    owner = session.get(User, organization.created_by)
    mail_service.do_queue_mail(session, to=organization.billing_email, kind="invoice_paid", locale=owner.locale,
                               organization=organization.name, number=invoice.number,
                               amount=money.text(invoice.total_minor, invoice.currency), currency=invoice.currency,
                               period_start=invoice.period_start.date().isoformat(),
                               period_end=invoice.period_end.date().isoformat(),
                               paid_on=invoice.paid_at.date().isoformat(),
                               link=f"{public_address.base_url()}/console/{organization.id}/billing")


def _begin_attempt(session: Session, invoice_id: str, now: datetime) -> Payment | None:
    """One due invoice: paid from the wallet if it can be; else an auto-pay attempt is written
    down (PENDING, its reference) to be sent after commit; else a failure."""
    invoice = session.get(Invoice, invoice_id)
    if invoice is None or invoice.status != invoices.OPEN or invoice.next_attempt_at is None \
            or invoice.next_attempt_at > now:
        return None
    if do_pay_from_wallet(session, invoice, now):
        return None
    invoice.attempts += 1
    payer = wallet.payer_id(session, invoice.organization_id)
    method = auto_pay_method(session, payer)
    if method is None:
        _failed(session, invoice, "The wallet does not cover it and auto-pay is off.", now)
        return None
    invoice.next_attempt_at = None  # until this attempt's outcome is known
    session.add(invoice)
    payment = Payment(organization_id=invoice.organization_id, wallet_id=payer, purpose=INVOICE,
                      invoice_id=invoice.id, reference=f"inv:{invoice.id}:try:{invoice.attempts}", method=CARD,
                      amount_minor=invoice.total_minor - max(0, wallet.balance(session, payer)),
                      currency=invoice.currency, created_at=now)
    session.add(payment)
    session.flush()
    return payment


def _charge(database: Database, payment_id: str) -> None:
    """Send a written-down card attempt to the processor, then write down what it answered."""
    with database.unit_of_work(write=False) as session:
        payment = session.get(Payment, payment_id)
        invoice = session.get(Invoice, payment.invoice_id) if payment.invoice_id else None
        method = auto_pay_method(session, payment.wallet_id)
        source = runtime.get().keyring.unseal(method.source_sealed) if method else None
        email = method.email if method else ""
    if payment.status != PENDING or payment.transaction_id or invoice is None or invoice.status != invoices.OPEN:
        with database.unit_of_work(write=True) as session:  # paid meanwhile (a transfer): nothing to charge
            do_settle_payment(session, session.get(Payment, payment_id), None, failure="Not needed: paid meanwhile.",
                              status="VOIDED")
        return
    failure = ("The card was removed." if source is None else
               None if gateway.configured() else "Card payments are not set up on this installation.")
    if failure:
        with database.unit_of_work(write=True) as session:
            do_settle_payment(session, session.get(Payment, payment_id), None, failure=failure)
        return
    try:
        answer = gateway.processor().charge_card(source_id=source, amount_minor=payment.amount_minor,
                                                 currency=payment.currency, reference=payment.reference, email=email)
    except ProcessorError as error:
        if error.kind == "unavailable":
            log.warning("card charge %s: processor unavailable; reconciled by reference later", payment.reference)
            return  # stays PENDING: reconcile() asks the processor by its reference
        with database.unit_of_work(write=True) as session:
            do_settle_payment(session, session.get(Payment, payment_id), None, failure=error.message)
        return
    with database.unit_of_work(write=True) as session:
        do_settle_payment(session, session.get(Payment, payment_id), answer)


def do_settle_payment(session: Session, payment: Payment, transaction: Transaction | None, *,
                      failure: str | None = None, status: str = "ERROR") -> None:
    """What the processor said of an attempt (its answer, an event, a poll), once: an approval
    credits the wallet (the transaction's id is the reference) and pays the attempt's invoice first,
    then what else it can; a decline plans the invoice's next attempt. A payment already settled
    stays so, except that money the processor says it took is always credited (an attempt given up
    as lost whose charge went through after all)."""
    taken = transaction is not None and transaction.status == APPROVED
    if payment.status == APPROVED or (payment.status in FINAL and not taken):
        return
    now = clock.now()
    if transaction is not None:
        payment.transaction_id = transaction.transaction_id
        payment.status_message = transaction.status_message
        if transaction.status == PENDING:
            session.add(payment)
            return
        payment.status = transaction.status
    else:
        payment.status, payment.status_message = status, (failure or "")[:300]
    payment.settled_at = now
    session.add(payment)
    session.flush()
    if payment.status == APPROVED:
        wallet.do_move(session, wallet_id=payment.wallet_id, amount_minor=payment.amount_minor, currency=payment.currency,
                       source=payment.method, reference=payment.transaction_id or payment.reference,
                       description=_described(session, payment),
                       for_organization_id=payment.organization_id, by=payment.created_by)
        invoice = session.get(Invoice, payment.invoice_id) if payment.invoice_id else None
        if invoice is not None and not do_pay_from_wallet(session, invoice, now):
            invoice.next_attempt_at = now  # the wallet was spent meanwhile: the next round tries again
            session.add(invoice)
        do_settle_wallet(session, payment.wallet_id, now)
    elif payment.purpose == INVOICE and payment.invoice_id:
        invoice = session.get(Invoice, payment.invoice_id)
        if invoice.status == invoices.OPEN:
            _failed(session, invoice, payment.status_message or f"The card payment was {payment.status.lower()}.", now)


def send_nequi(database: Database, payment_id: str) -> Payment:
    """A Nequi push written down (nequi.py): ask the processor (outside any transaction), then
    write down its answer."""
    with database.unit_of_work(write=False) as session:
        payment = session.get(Payment, payment_id)
        person = session.get(User, payment.created_by) if payment.created_by else None
        email = person.email if person else "billing@appliance.local"
    if not gateway.configured():
        with database.unit_of_work(write=True) as session:
            do_settle_payment(session, session.get(Payment, payment_id), None,
                              failure="Nequi payments are not set up on this installation.")
        return _payment(database, payment_id)
    try:
        answer = gateway.processor().charge_nequi(phone_number=payment.phone_number, amount_minor=payment.amount_minor,
                                                  currency=payment.currency, reference=payment.reference, email=email)
    except ProcessorError as error:
        if error.kind != "unavailable":
            with database.unit_of_work(write=True) as session:
                do_settle_payment(session, session.get(Payment, payment_id), None, failure=error.message)
        # unavailable: stays PENDING and the reconciliation finds it by its reference
    else:
        with database.unit_of_work(write=True) as session:
            do_settle_payment(session, session.get(Payment, payment_id), answer)
    return _payment(database, payment_id)


def _payment(database: Database, payment_id: str) -> Payment:
    with database.unit_of_work(write=False) as session:
        return session.get(Payment, payment_id)


def _described(session: Session, payment: Payment) -> str:
    """How the wallet's statement names money that came in through the processor."""
    if payment.method == NEQUI:
        return f"Nequi {payment.phone_number[:3]} *** {payment.phone_number[-4:]}" if payment.phone_number else "Nequi"
    invoice = session.get(Invoice, payment.invoice_id) if payment.invoice_id else None
    return f"Card, for invoice {invoice.number}" if invoice else "Card"


def do_suspend_overdue(session: Session, now: datetime) -> int:
    """Organizations with an invoice unpaid 7 days past due: suspended (payment_overdue)."""
    suspended = 0
    late = session.exec(select(Invoice.organization_id).where(
        Invoice.status == invoices.OPEN, Invoice.due_at <= now - timedelta(days=invoices.GRACE_DAYS)).distinct()).all()
    for organization_id in late:
        organization = session.get(Organization, organization_id)
        if organization.suspended_at is None:
            organization.suspended_at, organization.suspension_reason = now, OVERDUE
            organization.updated_at = now
            session.add(organization)
            suspended += 1
    return suspended


def reconcile(database: Database, now: datetime) -> None:
    """Pending attempts the processor's events have not settled: asked by id, or found by their
    reference when the answer never came; one it never heard of, LOST_AFTER on, failed."""
    if not gateway.configured():
        return  # nothing was sent through a processor this installation does not have
    with database.unit_of_work(write=False) as session:
        waiting = [(p.id, p.transaction_id, p.reference, p.created_at) for p in session.exec(
            select(Payment).where(Payment.status == PENDING, Payment.created_at <= now - timedelta(seconds=30)))]
    for payment_id, transaction_id, reference, created_at in waiting:
        try:
            if transaction_id:
                found = gateway.processor().transaction(transaction_id)
            else:
                matches = gateway.processor().by_reference(reference)
                found = matches[0] if matches else None
        except ProcessorError as error:
            log.warning("reconciling %s: %s", reference, error.kind)
            continue
        with database.unit_of_work(write=True) as session:
            payment = session.get(Payment, payment_id)
            if found is not None:
                do_settle_payment(session, payment, found)
            elif now - created_at >= LOST_AFTER:
                do_settle_payment(session, payment, None, failure="The processor never received this charge.")


def run(database: Database, now: datetime | None = None) -> dict:
    """The billing round (every minute): bill the periods begun, collect what is due, reconcile,
    suspend what is 7 days overdue. Answers what it did, for the log and the benchmark."""
    now = now or clock.now()
    done = {"billed": 0, "paid": 0, "attempts": 0, "suspended": 0}
    with database.unit_of_work(write=False) as session:  # those whose billed period has ended, or never billed
        billed = select(Invoice.id).where(Invoice.organization_id == Organization.id, Invoice.period_end > now)
        organization_ids = list(session.exec(select(Organization.id).where(~billed.exists()).order_by(Organization.id)))
    for start in range(0, len(organization_ids), 100):  # a hundred organizations a transaction
        with database.unit_of_work(write=True) as session:
            for organization_id in organization_ids[start:start + 100]:
                done["billed"] += invoices.do_bill_period(session, organization_id, now) is not None
    with database.unit_of_work(write=False) as session:
        due = list(session.exec(select(Invoice.id).where(Invoice.status == invoices.OPEN, Invoice.next_attempt_at <= now)
                                .order_by(Invoice.next_attempt_at)))
    for start in range(0, len(due), 100):
        attempts = []
        with database.unit_of_work(write=True) as session:
            for invoice_id in due[start:start + 100]:
                payment = _begin_attempt(session, invoice_id, now)
                if payment is not None:
                    attempts.append(payment.id)
                elif session.get(Invoice, invoice_id).status == invoices.PAID:
                    done["paid"] += 1
        for payment_id in attempts:
            _charge(database, payment_id)  # a failure is written on the payment, never raised
        done["attempts"] += len(attempts)
    reconcile(database, now)
    with database.unit_of_work(write=True) as session:
        done["suspended"] = do_suspend_overdue(session, now)
    return done
