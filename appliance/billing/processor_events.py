"""The processor's events (POST /billing/wompi/events): the checksum checked over the event as it
came (a forged or altered one credits nothing: 401), then the payment it reports settled once
(collection.do_settle_payment: an event replayed, or one the reconciliation already settled,
changes nothing; the wallet's ledger is unique per transaction besides). A transaction of an
order's payment link is not billing's: confirmed with the processor, it goes on, as
`payment.received`, to the orders."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy import or_
from sqlmodel import Session, select

from appliance.billing import collection, gateway
from appliance.billing.models import Payment
from appliance.billing.processor import FINAL, ProcessorError
from appliance.core import events
from appliance.core.errors import Unauthorized, Unavailable

log = logging.getLogger("appliance.billing")


@dataclass(frozen=True)
class Receipt:
    received: bool
    matched: bool


def receive(session: Session, raw: bytes) -> Receipt:
    try:
        event = gateway.processor().parse_event(raw)
    except ProcessorError as error:
        if error.kind != "forged":  # signed, but of a kind billing does not follow (a token's news)
            return Receipt(True, False)
        log.warning("processor event refused: its checksum does not match")
        raise Unauthorized("The event's checksum does not match: nothing was done.",
                           code="invalid_event_checksum") from None
    transaction = event.transaction
    if transaction.payment_link_id and transaction.status in FINAL:
        # An order's payment link: the checksum covers the id, status and amount, not which link
        # or currency; those are asked of the processor itself (before any statement: no lock is
        # held while it answers). Not reachable now: 503, and Wompi posts the event again.
        try:
            transaction = gateway.processor().transaction(transaction.transaction_id)
        except ProcessorError as error:
            raise Unavailable(f"The processor could not confirm the transaction ({error.kind}); post it again.",
                              code="processor_unavailable") from None
    payment = session.exec(select(Payment).where(or_(Payment.transaction_id == transaction.transaction_id,
                                                     Payment.reference == transaction.reference))).first()
    # The checksum covers the transaction's id, status and amount, not its reference: one found by
    # reference must be for the amount asked.
    if payment is None or (payment.transaction_id is None and payment.amount_minor != transaction.amount_minor):
        if transaction.payment_link_id and transaction.status in FINAL:
            # Not billing's: an order's payment link (orders/payments.py settles it, from the outbox).
            events.emit(session, events.PAYMENT_RECEIVED, transactionId=transaction.transaction_id,
                        reference=transaction.reference, paymentLinkId=transaction.payment_link_id,
                        status=transaction.status, amountMinor=transaction.amount_minor, currency=transaction.currency,
                        statusMessage=transaction.status_message)
            return Receipt(True, True)
        log.info("processor event for a transaction that is not ours")
        return Receipt(True, False)
    collection.do_settle_payment(session, payment, transaction)
    return Receipt(True, True)
