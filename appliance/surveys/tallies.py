"""The survey results' counters (SurveyTally), one upsert per change: a survey's status as it moves
(scheduled, sent, answered...), each option tapped, each agent's answered surveys and scores. Every
status change of a survey goes through `move`, so the counters and the rows never disagree;
`rebuild` recounts an organization from the rows (the tests compare both)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from sqlmodel import Session, delete, select

from appliance.core.rows import driver_connection
from appliance.organizations.zones import zone_of
from appliance.surveys.models import SurveyAnswer, SurveyDelivery, SurveyTally

LABEL_SEPARATOR = "\u241f"


def day_of(session: Session, organization_id: str, at: datetime) -> str:
    zones = session.info.setdefault("survey_zones", {})
    if organization_id not in zones:
        zones[organization_id] = zone_of(session, organization_id)
    return at.astimezone(zones[organization_id]).date().isoformat()


def status_key(status: str, reason: str | None) -> str:
    return f"{status}:{reason}" if status in ("unsent", "cancelled") else status


def add(session: Session, *, organization_id: str, day: str, kind: str, key: str, count: int = 1, score: int = 0,
        label: str | None = None) -> None:
    driver_connection(session).execute(
        "INSERT INTO survey_tallies (organization_id, day, kind, key, count, score_sum, label) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (organization_id, day, kind, key) DO UPDATE SET count = survey_tallies.count + excluded.count, "
        "score_sum = survey_tallies.score_sum + excluded.score_sum, label = coalesce(excluded.label, survey_tallies.label)",
        (organization_id, day, kind, key[:60], count, score, label))


def added(session: Session, rows: list[dict]) -> None:
    """New deliveries (dicts as inserted) counted by their status."""
    for row in rows:
        add(session, organization_id=row["organization_id"], day=day_of(session, row["organization_id"], row["closed_at"]),
            kind="status", key=status_key(row["status"], row["unsent_reason"]))


def move(session: Session, delivery: SurveyDelivery, status: str, reason: str | None = None) -> None:
    """Change a survey's status (and reason), its counters with it."""
    before, after = status_key(delivery.status, delivery.unsent_reason), status_key(status, reason)
    delivery.status, delivery.unsent_reason = status, reason
    session.add(delivery)
    if before != after:
        day = day_of(session, delivery.organization_id, delivery.closed_at)
        add(session, organization_id=delivery.organization_id, day=day, kind="status", key=before, count=-1)
        add(session, organization_id=delivery.organization_id, day=day, kind="status", key=after)


def answered(session: Session, delivery: SurveyDelivery, *, question: int, option: int, score: int, texts: tuple[str, str]) -> None:
    day = day_of(session, delivery.organization_id, delivery.closed_at)
    add(session, organization_id=delivery.organization_id, day=day, kind="option", key=f"{question}:{option}",
        label=LABEL_SEPARATOR.join(texts))
    if question == 0:
        add(session, organization_id=delivery.organization_id, day=day, kind="agent", key=delivery.agent_user_id or "",
            score=score)


def rebuild(session: Session, organization_id: str) -> None:
    """Count an organization's results again from its surveys (after rows were written by other
    means, or the organization's zone changed)."""
    session.exec(delete(SurveyTally).where(SurveyTally.organization_id == organization_id))
    counts: Counter = Counter()
    scores: Counter = Counter()
    labels: dict = {}
    days: dict[str, str] = {}
    for delivery_id, closed_at, status, reason, agent, score in session.exec(select(
            SurveyDelivery.id, SurveyDelivery.closed_at, SurveyDelivery.status, SurveyDelivery.unsent_reason,
            SurveyDelivery.agent_user_id, SurveyDelivery.score).where(SurveyDelivery.organization_id == organization_id)):
        day = days[delivery_id] = day_of(session, organization_id, closed_at)
        counts[(day, "status", status_key(status, reason))] += 1
        if score is not None:
            counts[(day, "agent", agent or "")] += 1
            scores[(day, "agent", agent or "")] += score
    for delivery_id, question_index, option_index, question, option in session.exec(select(
            SurveyAnswer.delivery_id, SurveyAnswer.question_index, SurveyAnswer.option_index, SurveyAnswer.question,
            SurveyAnswer.option).where(SurveyAnswer.organization_id == organization_id).order_by(SurveyAnswer.answered_at)):
        key = (days[delivery_id], "option", f"{question_index}:{option_index}")
        counts[key] += 1
        labels[key] = LABEL_SEPARATOR.join((question, option))
    for (day, kind, key), count in counts.items():
        add(session, organization_id=organization_id, day=day, kind=kind, key=key, count=count,
            score=scores.get((day, kind, key), 0), label=labels.get((day, kind, key)))
