"""The bots' activity log (GET /bot/activity) and their health (GET /bot/salud).

`record` is how every step of the engine says what it decided; the log is what the owner reads
when asking "why did the bot (not) answer?"."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session, func, select

from appliance.ai_agents import service as agents_service
from appliance.bots import service as configs
from appliance.bots.config import ACTIVITY_KINDS
from appliance.bots.models import BotActivity, BotRule
from appliance.core import clock, pagination
from appliance.core.actor import OrgActor
from appliance.core.rows import insert_many
from appliance.core.ids import new_id
from appliance.phone_numbers import service as phone_numbers_service


RECENT = timedelta(hours=24)  # how far back the health looks for failures


def record(session: Session, *, organization_id: str, kind: str, phone_number_pk: str | None = None,
           conversation_id: str | None = None, **detail) -> None:
    """One decision, in the caller's transaction. Through the driver: a turn logs one or two, and a
    mapped object would cost a flush of its own."""
    if kind not in ACTIVITY_KINDS:
        raise ValueError(f"unknown bot activity {kind!r}")  # a programming error: the catalog is public
    insert_many(session, BotActivity.__table__, [{
        "id": new_id(), "organization_id": organization_id, "kind": kind, "phone_number_pk": phone_number_pk,
        "conversation_id": conversation_id, "detail": detail, "created_at": clock.now()}])


def record_in(session: Session, conversation, kind: str, **detail) -> None:
    """`record` for a decision about a conversation (its organization and number)."""
    record(session, organization_id=conversation.organization_id, kind=kind,
           phone_number_pk=conversation.phone_number_pk, conversation_id=conversation.id, **detail)


def list_activity(session: Session, *, actor: OrgActor, take: int, cursor: str | None,
                  phone_number_pk: str | None = None, conversation_id: str | None = None,
                  kind: str | None = None) -> pagination.Page:
    """Newest first; a key or member kept to some numbers sees theirs only."""
    query = select(BotActivity).where(BotActivity.organization_id == actor.organization_id)
    if phone_number_pk:
        query = query.where(BotActivity.phone_number_pk == phone_number_pk)
    query = phone_numbers_service.scope_of(session, actor).only_numbers(query, BotActivity.phone_number_pk)
    if conversation_id:
        query = query.where(BotActivity.conversation_id == conversation_id)
    if kind:
        query = query.where(BotActivity.kind == kind)
    return pagination.paginate(session, query, key=[BotActivity.created_at, BotActivity.id], take=take, cursor=cursor)


def in_thread(session: Session, *, actor: OrgActor, conversation_id: str, since: datetime | None,
              until: datetime | None) -> list[BotActivity]:
    """The bot's decisions about a conversation between `since` and `until` (either open), oldest
    first: the inbox shows them among the messages. The caller has checked the conversation."""
    query = select(BotActivity).where(BotActivity.organization_id == actor.organization_id,
                                      BotActivity.conversation_id == conversation_id)
    if since is not None:
        query = query.where(BotActivity.created_at >= since)
    if until is not None:
        query = query.where(BotActivity.created_at < until)
    return list(session.exec(query.order_by(BotActivity.created_at, BotActivity.id).limit(500)).all())


def health(session: Session, *, actor: OrgActor) -> dict:
    """Per number: is its bot able to do what it is set to do? Problems say what to fix."""
    rules = session.exec(select(BotRule).where(BotRule.organization_id == actor.organization_id,
                                               BotRule.enabled.is_(True))).all()
    failures = dict(session.exec(select(BotActivity.phone_number_pk, func.count()).where(
        BotActivity.organization_id == actor.organization_id, BotActivity.kind == "FAILED",
        BotActivity.created_at > clock.now() - RECENT).group_by(BotActivity.phone_number_pk)).all())
    agents = agents_service.list_agents(session, actor=actor)
    numbers = []
    for config in configs.list_configs(session, actor=actor):
        problems = []
        number_pk = config["phone_number_pk"]
        if failures.get(number_pk):
            problems.append({"code": "recent_failures", "detail": f"{failures[number_pk]} of the bot's steps failed in "
                             "the last 24 hours (a refused reply, a flow that could not go on): the activity log says why."})
        if config["enabled"]:
            if config["mode"] == "OFF":
                problems.append({"code": "mode_off", "detail": "The bot is on but its mode is OFF: it answers nothing."})
            if config["mode"] in ("RULES_ONLY", "RULES_PLUS_AI_FALLBACK") and not any(
                    not r.phone_number_pks or number_pk in r.phone_number_pks for r in rules):
                problems.append({"code": "no_rules", "detail": "No enabled rule applies to this number."})
            if config["mode"] in ("RULES_PLUS_AI_FALLBACK", "AI_AGENT") and not config["ai_provider"] and not any(
                    a.enabled and a.is_default and (not a.phone_number_pks or number_pk in a.phone_number_pks)
                    for a in agents):
                problems.append({"code": "ai_provider_missing", "detail": "The mode needs an AI agent: make one the "
                                 "number's default, or name a provider and model in the number's AI settings."})
        numbers.append({"phone_number_pk": number_pk, "enabled": config["enabled"], "mode": config["mode"],
                        "healthy": not problems, "problems": problems})
    return {"numbers": numbers}
