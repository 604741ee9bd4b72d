"""The organization's time zone, where its dates are counted (reports, statistics, surveys)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from sqlmodel import Session, select

from appliance.organizations.models import Organization


def zone_of(session: Session, organization_id: str) -> ZoneInfo:
    name = session.exec(select(Organization.timezone).where(Organization.id == organization_id)).first()
    try:
        return ZoneInfo(name or "UTC")
    except Exception:  # an unknown zone name stored before validation: UTC rather than failing
        return ZoneInfo("UTC")
