"""Billing periods: from an organization's anchor (when it was created), one after another by its
interval (a month or a year, calendar arithmetic: 31 January + 1 month is 28 or 29 February, and
the next is 31 March again, each counted from the anchor, never from the previous end). An
interval change waits for the end of the period already paid (from the next period)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dateutil.relativedelta import relativedelta
from sqlmodel import Session

from appliance.core import clock
from appliance.core.errors import Invalid
from appliance.organizations import plans
from appliance.organizations.models import Organization
from appliance.billing.models import BillingAccount

_MONTHS = {"MONTHLY": 1, "YEARLY": 12}


@dataclass(frozen=True)
class Period:
    start: datetime
    end: datetime
    interval: str

    @property
    def seconds(self) -> float:
        return (self.end - self.start).total_seconds()


def account(session: Session, organization_id: str) -> BillingAccount:
    """The organization's billing account, made on first use (anchored at its creation)."""
    found = session.get(BillingAccount, organization_id)
    if found is None:
        organization = session.get(Organization, organization_id)
        now = clock.now()
        found = BillingAccount(organization_id=organization_id, anchor_at=organization.created_at, created_at=now,
                               updated_at=now)
        session.add(found)
        session.flush()
    return found


def period_at(anchor: datetime, interval: str, moment: datetime) -> Period:
    """The period, counted from `anchor` by `interval`, that holds `moment`."""
    step = _MONTHS[interval]
    months = max(0, (moment.year - anchor.year) * 12 + moment.month - anchor.month)
    count = months // step
    while count > 0 and anchor + relativedelta(months=count * step) > moment:
        count -= 1
    while anchor + relativedelta(months=(count + 1) * step) <= moment:
        count += 1
    return Period(anchor + relativedelta(months=count * step), anchor + relativedelta(months=(count + 1) * step),
                  interval)


def current(session: Session, organization_id: str, moment: datetime | None = None) -> Period:
    """The period holding `moment` (now), with an interval change that has come into effect."""
    moment = moment or clock.now()
    organization = session.get(Organization, organization_id)
    kept = session.get(BillingAccount, organization_id)
    anchor = kept.anchor_at if kept else organization.created_at
    interval = organization.billing_interval
    if kept and kept.next_interval and moment >= kept.next_interval_from:
        anchor, interval = kept.next_interval_from, kept.next_interval
    return period_at(anchor, interval, moment)


@dataclass(frozen=True)
class IntervalChange:
    organization_id: str
    interval: str  # in effect now
    next_interval: str | None  # from `effective_from` on (None: no change waiting)
    effective_from: datetime | None


def _settle(session: Session, organization: Organization, kept: BillingAccount, moment: datetime) -> None:
    """Write down a change that has come into effect: the anchor moves to where it took effect."""
    if kept.next_interval and moment >= kept.next_interval_from:
        organization.billing_interval = kept.next_interval
        kept.anchor_at = kept.next_interval_from
        kept.next_interval = kept.next_interval_from = None
        organization.updated_at = kept.updated_at = moment
        session.add_all([organization, kept])


def interval_change(session: Session, organization_id: str) -> IntervalChange:
    organization = session.get(Organization, organization_id)
    kept = session.get(BillingAccount, organization_id)
    now = clock.now()
    if kept and kept.next_interval and now >= kept.next_interval_from:
        return IntervalChange(organization_id, kept.next_interval, None, None)
    if kept and kept.next_interval:
        return IntervalChange(organization_id, organization.billing_interval, kept.next_interval, kept.next_interval_from)
    return IntervalChange(organization_id, organization.billing_interval, None, None)


def do_set_interval(session: Session, *, organization_id: str, interval: str) -> IntervalChange:
    """From the next period on; asking for the interval in effect cancels a change waiting."""
    if interval not in plans.INTERVALS:
        raise Invalid("The interval is MONTHLY or YEARLY.", errors={"interval": ["MONTHLY or YEARLY."]})
    organization = session.get(Organization, organization_id)
    kept = account(session, organization_id)
    now = clock.now()
    _settle(session, organization, kept, now)
    if interval == organization.billing_interval:
        kept.next_interval = kept.next_interval_from = None
    else:
        kept.next_interval, kept.next_interval_from = interval, current(session, organization_id, now).end
    kept.updated_at = now
    session.add(kept)
    session.flush()
    return interval_change(session, organization_id)
