"""Agents: written with every field checked (provider and model against the catalog, capabilities,
the numbers and documents of the organization, route tags unique across its agents), one default
per number, and conversations pinned to one of them. A key or member kept to some numbers reads the
agents of one of them (and of every number) and changes only those of theirs alone
(core.tenancy.NumberScope)."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.ai_agents import catalog
from appliance.ai_agents.models import BotAgent
from appliance.conversations import inbox as conversations_inbox, service as conversations_service
from appliance.conversations.models import Conversation
from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid
from appliance.knowledge.models import KnowledgeDocument
from appliance.organizations import plans
from appliance.phone_numbers import service as phone_numbers_service
from appliance.phone_numbers.models import PhoneNumber

FIELDS = ("name", "phone_number_pks", "provider", "model", "system_prompt", "temperature", "max_tokens",
          "knowledge_doc_ids", "knowledge_tags", "route_tags", "capabilities", "is_default", "enabled")


def list_agents(session: Session, *, actor: OrgActor, phone_number_pk: str | None = None) -> list[BotAgent]:
    """By name; with a number, the agents that serve it (theirs, and those of every number)."""
    agents = phone_numbers_service.scope_of(session, actor).only_concerning(
        session.exec(select(BotAgent).where(BotAgent.organization_id == actor.organization_id)
                     .order_by(BotAgent.name, BotAgent.created_at)).all(), lambda agent: agent.phone_number_pks)
    if phone_number_pk:
        agents = [a for a in agents if not a.phone_number_pks or phone_number_pk in a.phone_number_pks]
    return agents


def access_agent(session: Session, *, actor: OrgActor, agent_id: str, to_change: bool = False) -> BotAgent:
    """The agent, if the actor reads it (404 for another number's); `to_change`: if it may change it,
    reaching every number it is for (403 otherwise)."""
    return phone_numbers_service.access_for_numbers(session, BotAgent, agent_id, actor, what="agent", code="agent_not_found",
                                                    to_change=to_change)


def _check(session: Session, actor: OrgActor, agent: BotAgent, changes: dict) -> None:
    org = actor.organization_id
    provider, model = changes.get("provider", agent.provider), changes.get("model", agent.model)
    if "provider" in changes or "model" in changes:
        catalog.check_provider_model(provider, model)
    if "capabilities" in changes:
        catalog.check_capabilities(changes["capabilities"])
    if changes.get("phone_number_pks"):
        known = set(session.exec(select(PhoneNumber.id).where(PhoneNumber.organization_id == org,
                                                               PhoneNumber.id.in_(changes["phone_number_pks"]))).all())
        missing = [pk for pk in changes["phone_number_pks"] if pk not in known]
        if missing:
            raise Invalid("Some numbers are not this organization's.", code="phone_number_not_found",
                          errors={"phoneNumberIds": [f"Unknown: {', '.join(missing)}."]})
    if changes.get("knowledge_doc_ids"):
        known = set(session.exec(select(KnowledgeDocument.id).where(
            KnowledgeDocument.organization_id == org, KnowledgeDocument.id.in_(changes["knowledge_doc_ids"]))).all())
        missing = [doc for doc in changes["knowledge_doc_ids"] if doc not in known]
        if missing:
            raise Invalid("Some documents are not in this organization's knowledge base.",
                          code="knowledge_document_not_found", errors={"knowledgeDocIds": [f"Unknown: {', '.join(missing)}."]})
    if changes.get("route_tags"):
        wanted = {tag.casefold() for tag in changes["route_tags"]}
        for other in session.exec(select(BotAgent).where(BotAgent.organization_id == org, BotAgent.id != agent.id)).all():
            taken = wanted & {tag.casefold() for tag in other.route_tags}
            if taken:
                raise Invalid(f"The route tags {', '.join(sorted(taken))} already send conversations to {other.name}.",
                              code="route_tag_conflict", errors={"routeTags": [f"Used by {other.name}."]},
                              agentId=other.id)


def _save(session: Session, actor: OrgActor, agent: BotAgent, changes: dict) -> BotAgent:
    _check(session, actor, agent, changes)
    for name in FIELDS:
        if name in changes:
            value = changes[name]
            setattr(agent, name, list(dict.fromkeys(value)) if isinstance(value, list) else value)
    phone_numbers_service.scope_of(session, actor).check_covers(agent.phone_number_pks)
    agent.updated_at = clock.now()
    session.add(agent)
    session.flush()
    if agent.is_default:
        _only_default(session, actor, agent)
    return agent


def _only_default(session: Session, actor: OrgActor, agent: BotAgent) -> None:
    """One default per number: another default sharing a number (an agent of every number shares
    them all) stops being one; an actor kept to some numbers may not unseat one it could not change."""
    scope = phone_numbers_service.scope_of(session, actor)
    for other in session.exec(select(BotAgent).where(BotAgent.organization_id == agent.organization_id,
                                                     BotAgent.id != agent.id, BotAgent.is_default.is_(True))).all():
        if not agent.phone_number_pks or not other.phone_number_pks or \
                set(agent.phone_number_pks) & set(other.phone_number_pks):
            scope.check_covers(other.phone_number_pks)
            other.is_default = False
            other.updated_at = agent.updated_at
            session.add(other)


def do_create(session: Session, *, actor: OrgActor, **fields) -> BotAgent:
    """400 plan_capability_missing on a plan without AI agents."""
    plans.check_capability(session, actor.organization_id, "bot.ai")
    now = clock.now()
    agent = BotAgent(organization_id=actor.organization_id, name=fields["name"], provider=fields["provider"],
                     model=fields["model"], created_at=now, updated_at=now)
    return _save(session, actor, agent, fields)


def do_update(session: Session, *, actor: OrgActor, agent_id: str, **changes) -> BotAgent:
    return _save(session, actor, access_agent(session, actor=actor, agent_id=agent_id, to_change=True), changes)


def do_delete(session: Session, *, actor: OrgActor, agent_id: str) -> BotAgent:
    """Conversations pinned to it go back to the router."""
    agent = access_agent(session, actor=actor, agent_id=agent_id, to_change=True)
    conversations_service.do_forget_bot_agent(session, organization_id=actor.organization_id, agent_id=agent.id)
    session.delete(agent)
    return agent


def do_pin(session: Session, *, actor: OrgActor, conversation_id: str, agent_id: str | None) -> Conversation:
    """PATCH /conversations/{id}/agent: pin an agent of the conversation's number, or (null) let the
    router decide."""
    if agent_id is not None:
        agent = access_agent(session, actor=actor, agent_id=agent_id)
        conversation = conversations_inbox.access_conversation(session, actor=actor, conversation_id=conversation_id)
        if agent.phone_number_pks and conversation.phone_number_pk not in agent.phone_number_pks:
            raise Invalid(f"{agent.name} does not serve this conversation's number.", code="agent_not_on_number",
                          errors={"agentId": ["Not an agent of this number."]})
    return conversations_service.do_set_bot_agent(session, actor=actor, conversation_id=conversation_id,
                                                  agent_id=agent_id)
