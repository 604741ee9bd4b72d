"""Holidays (the organization's, or seeded from the `holidays` package's data for a country and
year) and agents' leaves (inclusive date ranges; one agent's leaves never overlap)."""

from __future__ import annotations

from datetime import date

from sqlmodel import Session, select

from appliance.attendance import rules
from appliance.attendance.models import Holiday, Leave
from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid


def list_holidays(session: Session, *, actor: OrgActor, year: int | None = None) -> list[Holiday]:
    """The year's holidays (default: this year), recurring ones included, by date."""
    year = year or rules.today(rules.organization(session, actor.organization_id).timezone).year
    rows = session.exec(select(Holiday).where(Holiday.organization_id == actor.organization_id)).all()
    return sorted((row for row in rows if row.recurring or row.date.startswith(f"{year:04d}-")),
                  key=lambda row: row.date[5:])


def do_put_holidays(session: Session, *, actor: OrgActor, items: list[dict]) -> list[Holiday]:
    """Create or update many at once: one holiday per date (a date already there gets the new name)."""
    seen = set()
    for position, item in enumerate(items):
        if item["date"] in seen:
            raise Invalid("A date appears twice.", code="duplicate_date", errors={f"items.{position}.date": ["Twice."]})
        seen.add(item["date"])
    existing = {row.date: row for row in session.exec(select(Holiday).where(
        Holiday.organization_id == actor.organization_id, Holiday.date.in_([i["date"].isoformat() for i in items])))}
    saved = []
    for item in items:
        iso = item["date"].isoformat()
        row = existing.get(iso) or Holiday(organization_id=actor.organization_id, date=iso, created_at=clock.now())
        row.name, row.recurring = item["name"], item.get("recurring", False)
        session.add(row)
        saved.append(row)
    session.flush()
    return saved


def do_seed(session: Session, *, actor: OrgActor, year: int, country: str = "CO") -> list[Holiday]:
    """The country's public holidays for the year, named in the organization's language."""
    import holidays as holiday_data  # on the first seed, not at start (footprint)

    if country not in holiday_data.list_supported_countries():
        raise Invalid("No holiday data for this country.", code="unknown_country",
                      errors={"country": ["Use an ISO 3166 code the holidays data knows (CO, MX, ES, US...)."]})
    organization = rules.organization(session, actor.organization_id)
    found = holiday_data.country_holidays(country, years=year, language=_language(country, organization))
    return do_put_holidays(session, actor=actor, items=[{"date": day, "name": name[:120], "recurring": False}
                                                        for day, name in sorted(found.items())])


def _language(country: str, organization) -> str | None:
    """The organization's language when the country's data has it, else the data's default."""
    import holidays as holiday_data

    wanted = "es" if (organization.country or country) in _SPANISH else "en_US"
    supported = holiday_data.country_holidays(country).supported_languages
    return wanted if wanted in supported else None


_SPANISH = {"AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "ES", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY",
            "SV", "UY", "VE"}


def do_delete_holiday(session: Session, *, actor: OrgActor, holiday_id: str) -> Holiday:
    holiday = tenancy.access_in_org(session, Holiday, holiday_id, actor, what="holiday", code="holiday_not_found")
    session.delete(holiday)
    return holiday


def list_leaves(session: Session, *, actor: OrgActor, first: date | None = None, last: date | None = None,
                agent_id: str | None = None) -> list[Leave]:
    """Leaves touching a range; a person without attendance:manage sees only their own."""
    if not actor.can("attendance:manage"):
        agent_id = actor.user_id
    query = select(Leave).where(Leave.organization_id == actor.organization_id)
    if first:
        query = query.where(Leave.end_date >= first.isoformat())
    if last:
        query = query.where(Leave.start_date <= last.isoformat())
    if agent_id:
        query = query.where(Leave.user_id == agent_id)
    return list(session.exec(query.order_by(Leave.start_date, Leave.id)))


def do_create_leave(session: Session, *, actor: OrgActor, agent_user_id: str, type: str, start_date: date,
                    end_date: date, note: str | None = None) -> Leave:
    agent = rules.access_agent(session, actor=actor, agent_id=agent_user_id, field="agentUserId")
    if end_date < start_date:
        raise Invalid("The leave ends before it starts.", code="end_before_start",
                      errors={"endDate": ["Must be on or after startDate."]})
    clash = session.exec(select(Leave).where(Leave.organization_id == actor.organization_id, Leave.user_id == agent.user_id,
                                             Leave.start_date <= end_date.isoformat(),
                                             Leave.end_date >= start_date.isoformat())).first()
    if clash is not None:
        raise Conflict(f"This agent already has a leave from {clash.start_date} to {clash.end_date}.",
                       code="leave_overlaps")
    leave = Leave(organization_id=actor.organization_id, user_id=agent.user_id, type=type,
                  start_date=start_date.isoformat(), end_date=end_date.isoformat(), note=note,
                  created_by_user_id=actor.user_id, created_at=clock.now())
    session.add(leave)
    session.flush()
    return leave


def do_delete_leave(session: Session, *, actor: OrgActor, leave_id: str) -> Leave:
    leave = tenancy.access_in_org(session, Leave, leave_id, actor, what="leave", code="leave_not_found")
    session.delete(leave)
    return leave
