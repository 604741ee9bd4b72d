"""Scripted conversations of the bots (`/bot/flows`): saved only when they can run. Every `next`
names a step, a chain of steps that do not wait for the customer never loops back on itself (the
bot would talk forever), every tag exists. A flow that could stall a customer is refused when it
is saved, not found out while someone waits.

Steps are stored as the API shapes them (camelCase keys), so what is read back is what was sent."""

from __future__ import annotations

import json

from sqlmodel import Session, select

from appliance.bots.models import BotFlow, BotRule
from appliance.bots.schemas import FlowStepSchema
from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid
from appliance.paths import SHIPPED_DATA_DIR
from appliance.phone_numbers import service as phone_numbers_service

FIELDS = ("name", "phone_number_pks", "trigger_keywords", "enabled", "steps")
WAITING_STEPS = ("question", "buttons")  # steps that wait for the customer's answer
# A loaded step's attribute names as the API spells them (saveAs, validate...): the schema says.
_WIRE_NAMES = {name: field.data_key or name for name, field in FlowStepSchema().fields.items()}


def list_flows(session: Session, *, actor: OrgActor) -> list[BotFlow]:
    """Oldest first; for a key or member kept to some numbers, the flows of one of them (and of every
    number)."""
    flows = session.exec(select(BotFlow).where(BotFlow.organization_id == actor.organization_id)
                         .order_by(BotFlow.created_at)).all()
    return phone_numbers_service.scope_of(session, actor).only_concerning(flows, lambda flow: flow.phone_number_pks)


def access_flow(session: Session, *, actor: OrgActor, flow_id: str, to_change: bool = False) -> BotFlow:
    """The bot flow, if the actor reads it (404 for another number's); `to_change`: if it may change it,
    reaching every number it is for (403 otherwise)."""
    return phone_numbers_service.access_for_numbers(session, BotFlow, flow_id, actor, what="bot flow", code="bot_flow_not_found",
                                                    to_change=to_change)


def _wire(step: dict) -> dict:
    """A loaded step as stored: wire names, nothing empty."""
    stored = {_WIRE_NAMES.get(name, name): value for name, value in step.items() if value is not None}
    if "options" in stored:
        stored["options"] = [dict(option) for option in stored["options"]]
    return stored


def check_steps(steps: list[dict]) -> None:
    """The graph of a flow (steps as stored): ids unique, every `next` known, no loop of steps that
    never wait. 400 `bot_flow_invalid` naming the step."""
    ids: dict[str, int] = {}
    for index, step in enumerate(steps):
        if step["id"] in ids:
            raise _invalid(index, "id", f"Step id {step['id']!r} is used twice.")
        ids[step["id"]] = index
    for index, step in enumerate(steps):
        for field, target in _targets(step):
            if target not in ids:
                raise _invalid(index, field, f"No step {target!r} in this flow.")
    # A loop in which no step waits would send messages until a cap stopped it.
    following = {step["id"]: step.get("next") for step in steps if step["type"] not in WAITING_STEPS}
    for start in following:
        seen, current = [start], following.get(start)
        while current is not None and current in following:
            if current in seen:
                loop = seen[seen.index(current):] + [current]
                raise _invalid(ids[start], "next", "These steps loop without a question or buttons to wait for the "
                               f"customer: {' → '.join(loop)}.")
            seen.append(current)
            current = following.get(current)


def _targets(step: dict) -> list[tuple[str, str]]:
    if step["type"] == "buttons":
        return [(f"options.{i}.next", option["next"]) for i, option in enumerate(step.get("options", ()))]
    return [("next", step["next"])] if step.get("next") else []


def _invalid(index: int, field: str, message: str) -> Invalid:
    return Invalid(message, code="bot_flow_invalid", errors={f"steps.{index}.{field}": [message]})


def _check(session: Session, actor: OrgActor, flow: BotFlow) -> None:
    check_steps(flow.steps)
    for index, step in enumerate(flow.steps):
        if step["type"] == "set_tag":
            tenancy.check_ids_in_org(session, "tags", [step["tagId"]], actor, field=f"steps.{index}.tagId")
        if step["type"] == "transfer_to_ai" and step.get("agentId"):
            tenancy.check_ids_in_org(session, "bot_agents", [step["agentId"]], actor, field=f"steps.{index}.agentId")
    flow.phone_number_pks = tenancy.check_ids_in_org(session, "phone_numbers", flow.phone_number_pks, actor,
                                                     field="phoneNumberIds")
    phone_numbers_service.scope_of(session, actor).check_covers(flow.phone_number_pks)


def _save(session: Session, actor: OrgActor, flow: BotFlow, changes: dict) -> BotFlow:
    for name in FIELDS:
        if name in changes:
            setattr(flow, name, [_wire(step) for step in changes[name]] if name == "steps" else changes[name])
    flow.trigger_keywords = list(dict.fromkeys(flow.trigger_keywords))
    _check(session, actor, flow)
    flow.updated_at = clock.now()
    session.add(flow)
    session.flush()
    return flow


def do_create(session: Session, *, actor: OrgActor, **fields) -> BotFlow:
    now = clock.now()
    return _save(session, actor, BotFlow(organization_id=actor.organization_id, created_at=now, updated_at=now), fields)


def do_update(session: Session, *, actor: OrgActor, flow_id: str, **fields) -> BotFlow:
    return _save(session, actor, access_flow(session, actor=actor, flow_id=flow_id, to_change=True), fields)


def do_delete(session: Session, *, actor: OrgActor, flow_id: str) -> None:
    """A flow that rules start cannot go (they would stop working): 409 naming them."""
    flow = access_flow(session, actor=actor, flow_id=flow_id, to_change=True)
    starters = session.exec(select(BotRule.name).where(BotRule.organization_id == actor.organization_id,
                                                       BotRule.flow_id == flow.id)).all()
    if starters:
        raise Conflict(f"Rules start this flow: {', '.join(starters)}. Change them first.", code="bot_flow_in_use",
                       rules=list(starters))
    session.delete(flow)


def templates() -> list[dict]:
    """Example flows in Spanish and English, ready to POST (data/bot_flow_templates.json)."""
    return json.loads((SHIPPED_DATA_DIR / "bot_flow_templates.json").read_text(encoding="utf-8"))
