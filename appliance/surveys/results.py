"""Survey results for a range of the organization's dates (by the close each survey followed):
how many were sent and answered, the average score of question 1, every option's count, each
agent's, the comments, and why the others were not sent. Read from the daily counters
(tallies.py): a year is a few thousand rows however many surveys it had. The counters are the
organization's (they are not kept per number); the comments, which name conversations, are only
those of the numbers the actor reaches."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, time, timedelta, timezone

from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid
from appliance.organizations.zones import zone_of
from appliance.phone_numbers import service as phone_numbers_service
from appliance.surveys import service as surveys_service
from appliance.surveys.models import SurveyDelivery, SurveyTally
from appliance.surveys.tallies import LABEL_SEPARATOR
from appliance.users.models import User

DEFAULT_DAYS = 30
MAX_DAYS = 366
COMMENTS = 100  # the newest; the rest are in each conversation
SENT = ("sent", "answered", "expired")


def results(session: Session, *, actor: OrgActor, desde: date | None = None, hasta: date | None = None) -> dict:
    zone = zone_of(session, actor.organization_id)
    last = hasta or clock.now().astimezone(zone).date()
    first = desde or last - timedelta(days=DEFAULT_DAYS - 1)
    if first > last:
        raise Invalid("desde must not be after hasta.", code="invalid_range", errors={"desde": ["After hasta."]})
    if (last - first).days >= MAX_DAYS:
        raise Invalid(f"At most {MAX_DAYS} days at once.", code="invalid_range",
                      errors={"hasta": [f"At most {MAX_DAYS} days after desde."]})
    statuses: dict[str, int] = defaultdict(int)
    options: dict[str, list] = {}  # "q:o" -> [count, label]
    agents: dict[str, list] = defaultdict(lambda: [0, 0])  # user id -> [answered, score sum]
    for kind, key, count, score_sum, label in session.exec(select(
            SurveyTally.kind, SurveyTally.key, SurveyTally.count, SurveyTally.score_sum, SurveyTally.label).where(
            SurveyTally.organization_id == actor.organization_id, SurveyTally.day >= first.isoformat(),
            SurveyTally.day <= last.isoformat()).order_by(SurveyTally.day)).all():
        if kind == "status":
            statuses[key] += count
        elif kind == "option":
            found = options.setdefault(key, [0, label])
            found[0] += count
            found[1] = label or found[1]  # the newest day's texts
        elif kind == "agent":
            agents[key][0] += count
            agents[key][1] += score_sum
    sent = sum(statuses.get(status, 0) for status in SENT)
    answered = sum(count for count, _ in agents.values())
    total_score = sum(score for _, score in agents.values())
    names = dict(session.exec(select(User.id, User.name).where(User.id.in_([a for a in agents if a]))).all()) if agents else {}
    return {
        "desde": first, "hasta": last, "sent": sent, "answered": answered,
        "response_rate": round(answered / sent, 4) if sent else None,
        "average_score": round(total_score / answered, 2) if answered else None,
        "expired": statuses.get("expired", 0), "scheduled": statuses.get("scheduled", 0),
        "by_option": _by_option(options, surveys_service.config_of(session, actor.organization_id).questions),
        "by_agent": sorted(({"user_id": user_id or None, "name": names.get(user_id), "answered": count,
                             "average_score": round(score / count, 2)} for user_id, (count, score) in agents.items() if count),
                           key=lambda row: (-row["answered"], row["name"] or "")),
        "comments": _comments(session, actor, first, last, zone),
        "unsent": _reasons(statuses, "unsent"), "cancelled": _reasons(statuses, "cancelled"),
    }


def _by_option(options: dict[str, list], questions: list[dict]) -> list[dict]:
    """Every option tapped in the range, and today's options not tapped (0), question by question."""
    for q, question in enumerate(questions):
        for o, option in enumerate(question["options"]):
            options.setdefault(f"{q}:{o}", [0, LABEL_SEPARATOR.join((question["text"], option))])
    rows = []
    for key, (count, label) in options.items():
        question_index, option_index = (int(part) for part in key.split(":"))
        question, _, option = (label or "").partition(LABEL_SEPARATOR)
        rows.append({"question_index": question_index, "question": question, "option_index": option_index,
                     "option": option, "count": count})
    return sorted(rows, key=lambda row: (row["question_index"], row["option_index"]))


def _reasons(statuses: dict[str, int], status: str) -> dict[str, int]:
    prefix = f"{status}:"
    return {key[len(prefix):]: count for key, count in statuses.items() if key.startswith(prefix) and count}


def _comments(session: Session, actor: OrgActor, first: date, last: date, zone) -> list[dict]:
    start = datetime.combine(first, time(), zone).astimezone(timezone.utc)
    end = datetime.combine(last + timedelta(days=1), time(), zone).astimezone(timezone.utc)
    query = (select(SurveyDelivery.comment, SurveyDelivery.score, SurveyDelivery.conversation_id,
                    SurveyDelivery.finished_at)
             .where(SurveyDelivery.organization_id == actor.organization_id, SurveyDelivery.closed_at >= start,
                    SurveyDelivery.closed_at < end, SurveyDelivery.comment.is_not(None)))
    query = phone_numbers_service.scope_of(session, actor).only_numbers(query, SurveyDelivery.phone_number_pk)
    rows = session.exec(query.order_by(SurveyDelivery.closed_at.desc()).limit(COMMENTS)).all()
    return [{"text": text, "score": score, "conversation_id": conversation_id, "at": at}
            for text, score, conversation_id, at in rows]
