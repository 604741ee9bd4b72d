"""Add-ons: units bought beyond the plan's included ones, and a preview that equals the charge.

An increase is charged at once for what is left of the period: unit price x units added x the
period's remaining seconds / its seconds, rounded to the currency's unit, debited from the wallet
(402 insufficient_wallet_balance when it does not cover it: nothing is bought on credit). A
decrease takes effect at the end of the period already paid, with no refund. The preview answers
`prorationAt`, the moment it computed at; a change that sends it back is charged at that same
moment, so the amount is the one shown (a preview older than PREVIEW_VALID_SECONDS, or from another
period, is refused: preview again). With billing off every price is zero."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid, PaymentRequired
from appliance.organizations import entitlements, plans
from appliance.organizations.models import Organization, OrganizationAddon
from appliance.billing import money, periods, wallet

PREVIEW_VALID_SECONDS = 15 * 60
MAX_QUANTITY = 10_000


@dataclass(frozen=True)
class Preview:
    addon_type: str
    current_quantity: int
    quantity: int
    delta: int
    unit_price: str
    proration_amount: str
    currency: str
    interval: str
    period_end: datetime
    wallet_before: str
    wallet_after: str
    sufficient: bool
    proration_at: datetime


@dataclass(frozen=True)
class CatalogLine:
    addon_type: str
    name: dict
    unit_price: str
    currency: str
    interval: str


@dataclass(frozen=True)
class Contracted:
    addon_type: str
    quantity: int
    next_quantity: int | None
    next_from: datetime | None


@dataclass(frozen=True)
class AddonsView:
    catalog: list[CatalogLine]
    contracted: list[Contracted]
    included: dict[str, int]
    currency: str
    interval: str
    period_end: datetime


def unit_price(organization: Organization, addon_type: str, interval: str) -> Decimal:
    return plans.addons()[addon_type].prices[interval] if entitlements.billing_on() else Decimal(0)


def _kept(session: Session, organization_id: str, addon_type: str) -> OrganizationAddon | None:
    return session.get(OrganizationAddon, (organization_id, addon_type))


def view(session: Session, *, actor: OrgActor) -> AddonsView:
    organization = session.get(Organization, actor.organization_id)
    period = periods.current(session, organization.id)
    currency = wallet.currency_of(session, organization.id)
    plan = plans.plans().get(organization.plan_slug) or plans.plans()[plans.FREE]
    now = clock.now()
    kept = {a.addon_type: a for a in session.exec(select(OrganizationAddon).where(
        OrganizationAddon.organization_id == organization.id))}
    contracted = []
    for kind in plans.ADDON_TYPES:
        addon = kept.get(kind)
        waiting = addon is not None and addon.next_from is not None and now < addon.next_from
        contracted.append(Contracted(kind, addon.quantity_at(now) if addon else 0,
                                     addon.next_quantity if waiting else None, addon.next_from if waiting else None))
    catalog = [CatalogLine(kind, plans.addons()[kind].name,
                           money.text(money.to_minor(unit_price(organization, kind, period.interval), currency), currency),
                           currency, period.interval) for kind in plans.ADDON_TYPES]
    return AddonsView(catalog, contracted, dict(plan.included), currency, period.interval, period.end)


def _check_request(addon_type: str, quantity) -> None:
    if addon_type not in plans.ADDON_TYPES:
        raise Invalid(f"addonType is one of {', '.join(plans.ADDON_TYPES)}.",
                      errors={"addonType": [f"One of {', '.join(plans.ADDON_TYPES)}."]})
    if isinstance(quantity, bool) or not isinstance(quantity, int) or not 0 <= quantity <= MAX_QUANTITY:
        raise Invalid(f"quantity is a whole number from 0 to {MAX_QUANTITY}: the units wanted in all.",
                      errors={"quantity": [f"A whole number from 0 to {MAX_QUANTITY}."]})


def preview(session: Session, *, actor: OrgActor, addon_type: str, quantity: int,
            at: datetime | None = None) -> Preview:
    """What changing `addon_type` to `quantity` units (the absolute target) costs now, and what the
    wallet holds before and after."""
    _check_request(addon_type, quantity)
    at = at or clock.now()
    organization = session.get(Organization, actor.organization_id)
    period = periods.current(session, organization.id, at)
    currency = wallet.currency_of(session, organization.id)
    addon = _kept(session, organization.id, addon_type)
    current_quantity = addon.quantity_at(at) if addon else 0
    delta = quantity - current_quantity
    price = unit_price(organization, addon_type, period.interval)
    remaining = max(0.0, (period.end - at).total_seconds())
    proration = 0
    if delta > 0:
        share = Decimal(int(remaining * 1000)) / Decimal(int(period.seconds * 1000))
        proration = money.to_minor(price * delta * share, currency)
    before = wallet.balance(session, wallet.payer_id(session, organization.id))
    return Preview(addon_type, current_quantity, quantity, delta, money.text(money.to_minor(price, currency), currency),
                   money.text(proration, currency), currency, period.interval, period.end,
                   money.text(before, currency), money.text(before - proration, currency), before - proration >= 0, at)


def _check_proration_at(session: Session, organization_id: str, proration_at: datetime | None) -> datetime:
    now = clock.now()
    if proration_at is None:
        return now
    stale = Invalid("The preview is out of date; preview again and confirm its amount.", code="stale_preview",
                    errors={"prorationAt": ["Preview again: this moment is not within the last 15 minutes of "
                                            "the current period."]})
    if proration_at > now + timedelta(seconds=5) or proration_at < now - timedelta(seconds=PREVIEW_VALID_SECONDS):
        raise stale
    if periods.current(session, organization_id, proration_at) != periods.current(session, organization_id, now):
        raise stale
    return min(proration_at, now)


def do_change(session: Session, *, actor: OrgActor, addon_type: str, quantity: int,
              proration_at: datetime | None = None) -> AddonsView:
    """Set `addon_type` to `quantity` units: an increase is debited now (as previewed at
    `proration_at`), a decrease waits for the period's end. The same change twice changes nothing
    the second time (the quantity is already there, and the debit's reference is the change)."""
    _check_request(addon_type, quantity)
    at = _check_proration_at(session, actor.organization_id, proration_at)
    shown = preview(session, actor=actor, addon_type=addon_type, quantity=quantity, at=at)
    organization_id = actor.organization_id
    addon = _kept(session, organization_id, addon_type) or OrganizationAddon(
        organization_id=organization_id, addon_type=addon_type, quantity=0, updated_at=at)
    now = clock.now()
    if addon.next_from is not None and now >= addon.next_from:  # a decrease that has come into effect
        addon.quantity, addon.next_quantity, addon.next_from = addon.next_quantity or 0, None, None
    if shown.delta > 0:
        if not shown.sufficient:
            raise PaymentRequired(
                f"The wallet holds {shown.wallet_before} {shown.currency} and this costs {shown.proration_amount}; "
                "add funds first.", code="insufficient_wallet_balance", required=shown.proration_amount,
                balance=shown.wallet_before, currency=shown.currency)
        amount = money.to_minor(Decimal(shown.proration_amount), shown.currency)
        if amount:
            wallet.do_move(session, wallet_id=wallet.payer_id(session, organization_id), amount_minor=-amount,
                           currency=shown.currency, source=wallet.ADDON,
                           reference=f"{organization_id}:{addon_type}:{shown.current_quantity}->{quantity}@{at.isoformat()}",
                           description=f"{addon_type} {shown.current_quantity} -> {quantity} until "
                                       f"{shown.period_end.date().isoformat()}",
                           for_organization_id=organization_id, by=actor.user_id)
        addon.quantity, addon.next_quantity, addon.next_from = quantity, None, None
    elif shown.delta < 0:
        addon.next_quantity, addon.next_from = quantity, shown.period_end
    else:
        addon.next_quantity = addon.next_from = None  # back to what is in effect: a waiting decrease is dropped
    addon.updated_at = now
    session.add(addon)
    session.flush()
    return view(session, actor=actor)
