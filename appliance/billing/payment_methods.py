"""Cards: made at the processor from the token the person's browser got with the public key (the
card number never reaches the appliance), kept as the processor's payment source (sealed); only
the brand, last four digits and expiry are shown. The first card is the default; removing one
removes it at the processor and here; auto-pay charges the chosen card or the default."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from appliance.billing import gateway, periods
from appliance.billing.models import BillingAccount, PaymentMethod
from appliance.billing.processor import ProcessorError
from appliance.organizations.models import Organization
from appliance.core import clock, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import BadGateway, Conflict, Invalid, Unavailable


def list_methods(session: Session, *, actor: OrgActor) -> list[PaymentMethod]:
    return list(session.exec(select(PaymentMethod).where(PaymentMethod.organization_id == actor.organization_id)
                             .order_by(PaymentMethod.created_at, PaymentMethod.id)))


def as_app_error(error: ProcessorError, what: str) -> Exception:
    if error.kind == "unavailable":
        return Unavailable(f"The payment processor did not answer {what}; try again in a moment.",
                           code="processor_unavailable", headers={"Retry-After": "30"})
    return BadGateway(f"The payment processor refused {what}: {error.message}", code="processor_refused")


def make_source(session: Session, *, actor: OrgActor, token: str, email: str):
    """Ask the processor for the card's payment source (before any write: a call takes time)."""
    check_pays_itself(session, actor.organization_id)
    try:
        return gateway.processor().card_source(card_token=token, email=email)
    except ProcessorError as error:
        if error.kind == "refused":
            raise Invalid(f"The card was not accepted: {error.message}", code="card_refused",
                          errors={"token": [error.message]}) from None
        raise as_app_error(error, "the card") from None


def check_pays_itself(session: Session, organization_id: str) -> None:
    """409 billing_group_pays for a billing group's child: its parent's cards and auto-pay pay."""
    organization = session.get(Organization, organization_id)
    if organization.billing_parent_id:
        parent = session.get(Organization, organization.billing_parent_id)
        raise Conflict(f"{parent.name} pays this organization's invoices (its billing group): add cards and auto-pay "
                       "there.", code="billing_group_pays", payerId=parent.id)


def do_add(session: Session, *, actor: OrgActor, source, email: str) -> PaymentMethod:
    first = session.exec(select(PaymentMethod.id).where(PaymentMethod.organization_id == actor.organization_id)).first()
    method = PaymentMethod(organization_id=actor.organization_id,
                           source_sealed=runtime.get().keyring.seal(source.source_id), brand=source.brand,
                           last4=source.last4, exp_month=source.exp_month, exp_year=source.exp_year, email=email,
                           is_default=first is None, created_by=actor.user_id, created_at=clock.now())
    session.add(method)
    session.flush()
    return method


def access_method(session: Session, *, actor: OrgActor, method_id: str) -> PaymentMethod:
    return tenancy.access_in_org(session, PaymentMethod, method_id, actor, what="payment method",
                                 code="payment_method_not_found")


def source_of(method: PaymentMethod) -> str:
    return runtime.get().keyring.unseal(method.source_sealed)


def check_add(session: Session, *, actor: OrgActor, token: str, email: str, first_name: str | None = None,
              last_name: str | None = None) -> PaymentMethod:
    """Keep a card: its payment source made at the processor (before any write), then the row."""
    source = make_source(session, actor=actor, token=token, email=email)
    return do_add(session, actor=actor, source=source, email=email)


def check_remove(session: Session, *, actor: OrgActor, method_id: str) -> PaymentMethod:
    """Void the card at the processor (a refusal leaves it here too), then remove it here: another
    card becomes the default, and auto-pay that named this card falls back to the default."""
    method = access_method(session, actor=actor, method_id=method_id)
    remove_at_processor(source_of(method))
    session.delete(method)
    session.flush()
    if method.is_default:
        successor = session.exec(select(PaymentMethod).where(PaymentMethod.organization_id == actor.organization_id)
                                 .order_by(PaymentMethod.created_at.desc())).first()
        if successor is not None:
            successor.is_default = True
            session.add(successor)
    account = session.get(BillingAccount, actor.organization_id)
    if account is not None and account.auto_pay_method_id == method.id:
        account.auto_pay_method_id = None
        session.add(account)
    return method


def remove_at_processor(source_id: str) -> None:
    try:
        gateway.processor().remove_source(source_id)
    except ProcessorError as error:
        raise as_app_error(error, "removing the card") from None


def do_make_default(session: Session, *, actor: OrgActor, method_id: str) -> PaymentMethod:
    method = access_method(session, actor=actor, method_id=method_id)
    for other in list_methods(session, actor=actor):
        other.is_default = other.id == method.id
        session.add(other)
    session.flush()
    return method


@dataclass(frozen=True)
class Preferences:
    auto_pay_enabled: bool
    auto_pay_method_id: str | None


def preferences(session: Session, *, actor: OrgActor) -> Preferences:
    account = session.get(BillingAccount, actor.organization_id)
    return Preferences(bool(account and account.auto_pay_enabled), account.auto_pay_method_id if account else None)


def do_set_auto_pay(session: Session, *, actor: OrgActor, enabled: bool, method_id: str | None = None) -> Preferences:
    check_pays_itself(session, actor.organization_id)
    if method_id is not None:
        found = session.get(PaymentMethod, method_id)
        if found is None or found.organization_id != actor.organization_id:
            raise Invalid("No card of this organization has this id.", errors={"methodId": ["Unknown card."]})
    if enabled and method_id is None and not list_methods(session, actor=actor):
        raise Invalid("Add a card before turning auto-pay on.", code="no_payment_method",
                      errors={"enabled": ["Add a card first."]})
    account = periods.account(session, actor.organization_id)
    account.auto_pay_enabled, account.auto_pay_method_id = enabled, method_id
    account.updated_at = clock.now()
    session.add(account)
    session.flush()
    return preferences(session, actor=actor)
