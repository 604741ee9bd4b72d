"""The organization's time zone, where its dates are counted (reports, statistics, surveys) and its
times are shown (every page: the `org_time` filter, http/pages.py)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from sqlmodel import Session, select

from appliance.organizations.models import Organization

UTC = ZoneInfo("UTC")


def zone_named(name: str | None) -> ZoneInfo:
    """The zone of that name; UTC for none, or for an unknown name stored before validation
    (rather than failing a page or a report)."""
    try:
        return ZoneInfo(name or "UTC")
    except Exception:
        return UTC


def zone_of(session: Session, organization_id: str) -> ZoneInfo:
    return zone_named(session.exec(select(Organization.timezone).where(Organization.id == organization_id)).first())
