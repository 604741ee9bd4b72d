"""AI spend: what each organization's AI calls cost (estimated from tokens and the catalog's
prices), by its own days, and the caps a billing group's parent sets on a child (dailyUsd,
monthlyUsd; PATCH /billing-group/{id}/ai-limits).

Every call that reached a provider is counted, whoever made it (the bot, the probador, the
configurador): the caps are about money. When a cap is reached the bot stops asking (ai_step logs
it and sends the fallback) and the probador and configurador answer 409 `ai_spend_cap_reached`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlmodel import Session, select

from appliance.ai_agents.models import AISpendDay
from appliance.core import clock
from appliance.core.rows import driver_connection, insert_many, read_row
from appliance.core.errors import Conflict
from appliance.organizations.models import Organization


@dataclass(frozen=True)
class Spend:
    today_usd: float
    month_usd: float
    daily_cap_usd: float | None
    monthly_cap_usd: float | None

    @property
    def cap_reached(self) -> str | None:
        """'daily' or 'monthly' when that cap is spent, else None."""
        if self.daily_cap_usd is not None and self.today_usd >= self.daily_cap_usd:
            return "daily"
        if self.monthly_cap_usd is not None and self.month_usd >= self.monthly_cap_usd:
            return "monthly"
        return None

    @property
    def limit_usd(self) -> float | None:
        """The cap that is reached."""
        return self.daily_cap_usd if self.cap_reached == "daily" else self.monthly_cap_usd

    @property
    def spent_usd(self) -> float:
        """The spend of the period whose cap is reached."""
        return self.today_usd if self.cap_reached == "daily" else self.month_usd


def _local_day(timezone: str | None, at: datetime) -> str:
    try:
        zone = ZoneInfo(timezone or "UTC")
    except (KeyError, ValueError):
        zone = ZoneInfo("UTC")
    return at.astimezone(zone).date().isoformat()


# Through the driver: every AI reply's write transaction adds its call here, and SQLAlchemy's
# statements (even Core's) cost ~1 ms each on that path.
_ADD = ("UPDATE ai_spend_days SET calls = calls + 1, tokens_in = tokens_in + ?, tokens_out = tokens_out + ?, "
        "cost_usd = cost_usd + ? WHERE organization_id = ? AND day = ?")


def record(session: Session, organization_id: str, *, tokens_in: int, tokens_out: int, cost_usd: float) -> None:
    """Add one call to the organization's day, in the caller's write transaction."""
    organization = read_row(session, Organization.__table__, id=organization_id)
    day = _local_day(organization.timezone if organization else None, clock.now())
    changed = driver_connection(session).execute(_ADD, (tokens_in, tokens_out, cost_usd, organization_id, day)).rowcount
    if not changed:  # the day's first call; the write lock is held, so nobody inserts it meanwhile
        insert_many(session, AISpendDay.__table__, [{"organization_id": organization_id, "day": day, "calls": 1,
                                                     "tokens_in": tokens_in, "tokens_out": tokens_out,
                                                     "cost_usd": cost_usd}])


def of(session: Session, organization_id: str) -> Spend:
    """Today's and this month's spend with the caps in force."""
    organization = session.get(Organization, organization_id)
    today = _local_day(organization.timezone, clock.now())
    rows = session.exec(select(AISpendDay.day, AISpendDay.cost_usd).where(
        AISpendDay.organization_id == organization_id, AISpendDay.day >= today[:8] + "01")).all()
    return Spend(today_usd=sum(cost for day, cost in rows if day == today),
                 month_usd=sum(cost for _, cost in rows),
                 daily_cap_usd=organization.ai_daily_usd_cap, monthly_cap_usd=organization.ai_monthly_usd_cap)


def cap_reached(session: Session, organization_id: str) -> Spend | None:
    """The spend when a cap stops AI calls, else None (no read at all when no cap is set)."""
    organization = session.get(Organization, organization_id)
    if organization is None or (organization.ai_daily_usd_cap is None and organization.ai_monthly_usd_cap is None):
        return None
    spend = of(session, organization_id)
    return spend if spend.cap_reached else None


def check_within_caps(session: Session, organization_id: str) -> None:
    """409 ai_spend_cap_reached when a cap of the billing group is spent."""
    spend = cap_reached(session, organization_id)
    if spend is not None:
        raise Conflict(f"The {spend.cap_reached} AI spending limit of {spend.limit_usd:.2f} USD set by the billing group "
                       "is reached; AI answers resume when the period ends or the limit is raised.",
                       code="ai_spend_cap_reached", cap=spend.cap_reached, limitUsd=spend.limit_usd)
