"""The workload panel and activity reports, read from the conversations as they are now and from
the hourly counters (InboxActivity) for what happened: no scan of messages. Days and hours are the
organization's (its timezone)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import case, func
from sqlmodel import Session, select

from appliance.conversations import inbox_settings
from appliance.conversations.inbox import visible
from appliance.conversations.models import Conversation, InboxActivity
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid, NotFound
from appliance.memberships import service as memberships_service
from appliance.organizations.zones import zone_of

RECENT_DAYS = 7
METRICS = ("volume", "late", "avgResponse")


def _activity(session: Session, organization_id: str, since: datetime, user_id: str | None = None) -> list[InboxActivity]:
    query = select(InboxActivity).where(InboxActivity.organization_id == organization_id, InboxActivity.hour >= since)
    if user_id is not None:
        query = query.where(InboxActivity.user_id == user_id)
    return list(session.exec(query))


def _open_load(session: Session, actor: OrgActor, sla: timedelta, stale: timedelta) -> dict:
    """Open conversations per assignee: how many, how many wait for an answer, past the SLA, stale."""
    now = clock.now()
    rows = session.exec(visible(select(
        Conversation.assignee_user_id, func.count(),
        func.count(Conversation.awaiting_reply_since),
        func.sum(case((Conversation.awaiting_reply_since < now - sla, 1), else_=0)),
        func.sum(case((Conversation.last_message_at < now - stale, 1), else_=0)),
    ).where(Conversation.organization_id == actor.organization_id, Conversation.status == "open"), actor)
        .group_by(Conversation.assignee_user_id)).all()
    return {assignee: {"open": n, "waiting": waiting, "overdue": int(overdue or 0), "stale": int(old or 0)}
            for assignee, n, waiting, overdue, old in rows}


def waiting(session: Session, *, actor: OrgActor) -> tuple[int, datetime | None]:
    """The actor's open conversations waiting for an answer: how many, and since when the oldest
    waits (the console's home)."""
    return session.exec(visible(select(func.count(Conversation.awaiting_reply_since),
                                       func.min(Conversation.awaiting_reply_since))
                                .where(Conversation.organization_id == actor.organization_id,
                                       Conversation.status == "open"), actor)).one()


def _performance(rows: list[InboxActivity]) -> dict:
    replies = sum(r.replies for r in rows)
    seconds = sum(r.response_seconds for r in rows)
    return {"replies": replies, "late_replies": sum(r.late_replies for r in rows), "closed": sum(r.closed for r in rows),
            "avg_response_seconds": round(seconds / replies) if replies else None}


def workload(session: Session, *, actor: OrgActor) -> dict:
    settings = inbox_settings.read_settings(session, actor.organization_id, "workload")
    load = _open_load(session, actor, timedelta(minutes=settings["sla_minutes"]), timedelta(minutes=settings["stale_minutes"]))
    recent = defaultdict(list)
    for row in _activity(session, actor.organization_id, clock.now() - timedelta(days=RECENT_DAYS)):
        recent[row.user_id].append(row)
    empty = {"open": 0, "waiting": 0, "overdue": 0, "stale": 0}
    agents = [{"user_id": m.user_id, "name": m.name, "email": m.email, "role": m.role.key, **load.get(m.user_id, empty),
               "recent": _performance(recent.get(m.user_id, []))}
              for m in memberships_service.list_members(session, actor=actor) if not m.suspended]
    return {"settings": settings, "recent_days": RECENT_DAYS, "agents": agents, "unassigned": load.get(None, empty)}


def _days(days: int | None, since: date | None, until: date | None, zone: ZoneInfo) -> tuple[date, date]:
    today = clock.now().astimezone(zone).date()
    until = until or today
    since = since or until - timedelta(days=(days or RECENT_DAYS) - 1)
    if since > until:
        raise Invalid("from must not be after to.", errors={"from": ["After to."]})
    if (until - since).days >= 366:
        raise Invalid("A report covers at most 366 days.", errors={"from": ["Too far back."]})
    return since, until


def _by_day(rows: list[InboxActivity], zone: ZoneInfo) -> dict[date, list[InboxActivity]]:
    grouped = defaultdict(list)
    for row in rows:
        grouped[row.hour.astimezone(zone).date()].append(row)
    return grouped


def _start_of(day: date, zone: ZoneInfo) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=zone)


def agent_detail(session: Session, *, actor: OrgActor, user_id: str, days: int | None, since: date | None,
                 until: date | None) -> dict:
    member = next((m for m in memberships_service.list_members(session, actor=actor) if m.user_id == user_id), None)
    if member is None:
        raise NotFound("No member with this user id in this organization.", code="member_not_found")
    zone = zone_of(session, actor.organization_id)
    since, until = _days(days, since, until, zone)
    settings = inbox_settings.read_settings(session, actor.organization_id, "workload")
    load = _open_load(session, actor, timedelta(minutes=settings["sla_minutes"]), timedelta(minutes=settings["stale_minutes"]))
    grouped = _by_day(_activity(session, actor.organization_id, _start_of(since, zone), user_id), zone)
    series = [{"date": day.isoformat(), **_performance(grouped.get(day, []))}
              for day in (since + timedelta(days=n) for n in range((until - since).days + 1))]
    return {"user_id": member.user_id, "name": member.name, "email": member.email,
            **load.get(member.user_id, {"open": 0, "waiting": 0, "overdue": 0, "stale": 0}),
            "from": since.isoformat(), "to": until.isoformat(),
            "totals": _performance([r for rows in grouped.values() for r in rows]), "days": series}


def activity_trends(session: Session, *, actor: OrgActor, days: int) -> list[dict]:
    """Per day: conversations that came in (new or reopened by the customer), closed, customer messages."""
    zone = zone_of(session, actor.organization_id)
    since, until = _days(days, None, None, zone)
    grouped = _by_day(_activity(session, actor.organization_id, _start_of(since, zone)), zone)
    return [{"date": day.isoformat(), "incoming": sum(r.incoming for r in grouped.get(day, [])),
             "closed": sum(r.closed for r in grouped.get(day, [])),
             "inbound_messages": sum(r.inbound_messages for r in grouped.get(day, []))}
            for day in (since + timedelta(days=n) for n in range((until - since).days + 1))]


def activity_heatmap(session: Session, *, actor: OrgActor, days: int, metric: str) -> dict:
    """Weekday (0 = Monday) by hour of the organization's day: customer messages (volume), answers
    later than the SLA (late), or the average wait for an answer in seconds (avgResponse)."""
    zone = zone_of(session, actor.organization_id)
    since, _ = _days(days, None, None, zone)
    sums = [[0] * 24 for _ in range(7)]
    counts = [[0] * 24 for _ in range(7)]
    for row in _activity(session, actor.organization_id, _start_of(since, zone)):
        local = row.hour.astimezone(zone)
        weekday, hour = local.weekday(), local.hour
        if metric == "volume":
            sums[weekday][hour] += row.inbound_messages
        elif metric == "late":
            sums[weekday][hour] += row.late_replies
        else:
            sums[weekday][hour] += row.response_seconds
            counts[weekday][hour] += row.replies
    if metric == "avgResponse":
        cells = [[round(s / c) if c else None for s, c in zip(srow, crow)] for srow, crow in zip(sums, counts)]
    else:
        cells = sums
    return {"metric": metric, "days": days, "timezone": str(zone), "weekdays": cells}
