"""What the library's searches say: how many found something, the questions that found nothing
(grouped by their words, so "¿Cuánto cuesta el envío?" and "cuanto cuesta envio" are one), and
which agents and documents are used. A note written with `resolvesQuestionKey` takes its group
off the list."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Integer, cast, func
from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.knowledge.models import KnowledgeDocument, KnowledgeQuery, KnowledgeQueryHit

MAX_UNANSWERED = 100


@dataclass
class Insights:
    queries: int
    answered: int
    response_rate: float
    unanswered: list[dict] = field(default_factory=list)
    by_agent: list[dict] = field(default_factory=list)
    by_document: list[dict] = field(default_factory=list)


def _rate(answered: int, asked: int) -> float:
    return round(answered / asked, 4) if asked else 0.0


def get_insights(session: Session, *, actor: OrgActor, days: int) -> Insights:
    org = actor.organization_id
    since = clock.now() - timedelta(days=days)
    in_window = (KnowledgeQuery.organization_id == org, KnowledgeQuery.created_at >= since)
    answered_sum = func.coalesce(func.sum(cast(KnowledgeQuery.answered, Integer)), 0)
    asked, answered = session.exec(select(func.count(), answered_sum).where(*in_window)).one()
    resolved = set(session.exec(select(KnowledgeDocument.resolves_question_key).where(
        KnowledgeDocument.organization_id == org, KnowledgeDocument.resolves_question_key.is_not(None))).all())
    groups = session.exec(
        select(KnowledgeQuery.question_key, func.count(), func.max(KnowledgeQuery.created_at))
        .where(*in_window, KnowledgeQuery.answered.is_(False))
        .group_by(KnowledgeQuery.question_key)
        .order_by(func.count().desc(), func.max(KnowledgeQuery.created_at).desc())).all()
    unanswered = [{"question_key": key, "count": count, "last_asked_at": last}  # max() keeps the column type
                  for key, count, last in groups if key not in resolved][:MAX_UNANSWERED]
    wording = _latest_wording(session, org, since, [group["question_key"] for group in unanswered])
    for group in unanswered:
        group["question"] = wording.get(group["question_key"], group["question_key"])
    by_agent = [{"agent_id": agent_id, "queries": count, "response_rate": _rate(hits, count)}
                for agent_id, count, hits in session.exec(
                    select(KnowledgeQuery.agent_id, func.count(), answered_sum)
                    .where(*in_window, KnowledgeQuery.agent_id.is_not(None))
                    .group_by(KnowledgeQuery.agent_id).order_by(func.count().desc())).all()]
    by_document = [{"document_id": doc_id, "title": title, "hits": hits} for doc_id, title, hits in session.exec(
        select(KnowledgeQueryHit.document_id, KnowledgeDocument.title, func.count())
        .join(KnowledgeDocument, KnowledgeDocument.id == KnowledgeQueryHit.document_id)
        .where(KnowledgeQueryHit.organization_id == org, KnowledgeQueryHit.created_at >= since)
        .group_by(KnowledgeQueryHit.document_id, KnowledgeDocument.title)
        .order_by(func.count().desc(), KnowledgeDocument.title)).all()]
    return Insights(asked, int(answered), _rate(int(answered), asked), unanswered, by_agent, by_document)


def _latest_wording(session: Session, org: str, since: datetime, keys: list[str]) -> dict[str, str]:
    """How each group was last asked, in the customer's own words."""
    if not keys:
        return {}
    rows = session.exec(select(KnowledgeQuery.question_key, KnowledgeQuery.query)
                        .where(KnowledgeQuery.organization_id == org, KnowledgeQuery.created_at >= since,
                               KnowledgeQuery.question_key.in_(keys))
                        .order_by(KnowledgeQuery.created_at)).all()
    return {key: text for key, text in rows}
