"""Keyword rules of the organization's bots: saved checked (a rule that can never act is refused
when saved, not when a customer writes), listed in the order they are tried. A key or member kept
to some numbers reads the rules that apply to one of them and changes only those that apply to
theirs alone (core.tenancy.NumberScope)."""

from __future__ import annotations

from types import SimpleNamespace

from sqlmodel import Session, select

from appliance.bots import snapshots
from appliance.bots.matching import CompiledRule, compile_rule, normalize
from appliance.bots.models import BotRule
from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid
from appliance.phone_numbers import service as phone_numbers_service

FIELDS = ("name", "phone_number_pks", "keywords", "match_type", "reply", "action", "flow_id", "tag_id",
          "image_id", "priority", "enabled")


def list_rules(session: Session, *, actor: OrgActor) -> list[BotRule]:
    return phone_numbers_service.scope_of(session, actor).only_concerning(
        _rules_of(session, actor.organization_id), lambda rule: rule.phone_number_pks)


def _rules_of(session: Session, organization_id: str) -> list[BotRule]:
    """In the order they are tried: priority, then age."""
    return list(session.exec(select(BotRule).where(BotRule.organization_id == organization_id)
                             .order_by(BotRule.priority, BotRule.created_at)).all())


def access_rule(session: Session, *, actor: OrgActor, rule_id: str, to_change: bool = False) -> BotRule:
    """The bot rule, if the actor reads it (404 for another number's); `to_change`: if it may change it,
    reaching every number it is for (403 otherwise)."""
    return phone_numbers_service.access_for_numbers(session, BotRule, rule_id, actor, what="bot rule", code="bot_rule_not_found",
                                                    to_change=to_change)


def _check(session: Session, actor: OrgActor, rule: BotRule) -> None:
    """What a rule needs to be able to act, across its fields."""
    if rule.action == "NONE" and not rule.reply.strip() and not rule.image_id:
        raise Invalid("A rule must reply, act, or both.", code="bot_rule_does_nothing",
                      errors={"reply": ["Write a reply, or choose an action."]})
    if rule.action == "START_FLOW" and not rule.flow_id:
        raise Invalid("START_FLOW needs flowId.", errors={"flowId": ["Required for START_FLOW."]})
    if rule.action == "ADD_TAG" and not rule.tag_id:
        raise Invalid("ADD_TAG needs tagId.", errors={"tagId": ["Required for ADD_TAG."]})
    # Ids are checked whenever given, whatever the action: a flow or tag of nobody's would be kept
    # (and refused by the database as a 500) for an action that does not even use it.
    for table, value, field in (("bot_flows", rule.flow_id, "flowId"), ("tags", rule.tag_id, "tagId"),
                                ("bot_images", rule.image_id, "imageId")):
        if value:
            tenancy.check_ids_in_org(session, table, [value], actor, field=field)
    rule.phone_number_pks = tenancy.check_ids_in_org(session, "phone_numbers", rule.phone_number_pks, actor,
                                                     field="phoneNumberIds")
    phone_numbers_service.scope_of(session, actor).check_covers(rule.phone_number_pks)


def _save(session: Session, actor: OrgActor, rule: BotRule, changes: dict) -> BotRule:
    for name in FIELDS:
        if name in changes:
            setattr(rule, name, changes[name])
    rule.keywords = list(dict.fromkeys(rule.keywords))
    _check(session, actor, rule)
    rule.updated_at = clock.now()
    session.add(rule)
    session.flush()
    return rule


def do_create(session: Session, *, actor: OrgActor, **fields) -> BotRule:
    now = clock.now()
    return _save(session, actor, BotRule(organization_id=actor.organization_id, created_at=now, updated_at=now),
                 fields)


def do_update(session: Session, *, actor: OrgActor, rule_id: str, **fields) -> BotRule:
    return _save(session, actor, access_rule(session, actor=actor, rule_id=rule_id, to_change=True), fields)


def do_delete(session: Session, *, actor: OrgActor, rule_id: str) -> None:
    session.delete(access_rule(session, actor=actor, rule_id=rule_id, to_change=True))


def _compile(session: Session, organization_id: str) -> list[tuple[CompiledRule, SimpleNamespace]]:
    """The engine's view of the enabled rules, in the order they are tried."""
    compiled = []
    for rule in _rules_of(session, organization_id):
        if rule.enabled:
            snapshot = SimpleNamespace(id=rule.id, name=rule.name, reply=rule.reply, action=rule.action,
                                       flow_id=rule.flow_id, tag_id=rule.tag_id, image_id=rule.image_id)
            compiled.append((compile_rule(rule.id, rule.keywords, rule.match_type, rule.phone_number_pks), snapshot))
    return compiled


def first_matching(session: Session, organization_id: str, text: str, phone_number_pk: str) -> SimpleNamespace | None:
    """The first enabled rule (priority order) of the number whose words are in `text`."""
    normalized = normalize(text)
    if not normalized:
        return None
    for compiled, rule in snapshots.of_organization(session, BotRule, organization_id, _compile):
        if compiled.matches(normalized, phone_number_pk):
            return rule
    return None
