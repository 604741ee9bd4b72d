"""Nequi push: the owner names their Nequi number and an amount; the processor sends a request to
that phone, and the wallet is credited when the person accepts it there (an event, or the
reconciliation poll, settles the payment: collection.do_settle_payment). Declined or expired, the
payment says so and nothing is credited."""

from __future__ import annotations

import re

from sqlmodel import Session

from appliance.billing import gateway, money, tasks, wallet
from appliance.billing.models import Payment
from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.queue import enqueue_after_commit
from appliance.core.errors import Invalid, NotFound
from appliance.core.ids import new_id

_NEQUI_NUMBER = re.compile(r"3\d{9}")  # a Colombian mobile number, ten digits


def check_push(session: Session, *, actor: OrgActor, phone_number: str, amount) -> Payment:
    """Write the push down (PENDING, its reference) in the request's transaction; sent after it."""
    gateway.check_configured()
    digits = re.sub(r"[\s\-()]", "", phone_number or "").removeprefix("+57")
    if not _NEQUI_NUMBER.fullmatch(digits):
        raise Invalid("A Nequi number is a Colombian mobile number of ten digits starting with 3.",
                      errors={"phoneNumber": ["Ten digits starting with 3."]})
    wallet_id = wallet.payer_id(session, actor.organization_id)
    currency = wallet.currency_of(session, wallet_id)
    payment_id = new_id()
    payment = Payment(id=payment_id, organization_id=actor.organization_id, wallet_id=wallet_id, purpose="NEQUI",
                      reference=f"nequi:{payment_id}", method="NEQUI", amount_minor=money.parse_amount(amount, currency),
                      currency=currency, phone_number=digits, created_by=actor.user_id, created_at=clock.now())
    session.add(payment)
    session.flush()
    enqueue_after_commit(session, tasks.send_nequi_push, payment.id)
    return payment


def access_push(session: Session, *, actor: OrgActor, payment_id: str) -> Payment:
    payment = tenancy.access_in_org(session, Payment, payment_id, actor, what="Nequi payment",
                                    code="payment_not_found")
    if payment.method != "NEQUI":
        raise NotFound("No Nequi payment with this id.", code="payment_not_found")
    return payment
