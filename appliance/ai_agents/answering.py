"""An agent's answer to a conversation: the prompt (its system prompt, the business's facts, the
passages of its library that fit the last question, the conversation), the provider's reply with
its tool calls carried out (at most 3 rounds), protected values masked, and the reply cut into
the parts a paced bot would send.

Read-only and outside any transaction while the provider thinks: the database is read in short
units before and between calls, never held open across one. What the agent decided to *do*
(hand off, create a task, send an image) comes back as `actions` for the caller to carry out: the
probador only shows them; the bot engine does them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlmodel import select

from appliance.ai_agents import catalog, providers, service as agents_service, spend
from appliance.ai_agents.models import BotAgent
from appliance.agenda import booking
from appliance.ai_providers.base import NOT_ALLOWED, ChatReply, ChatRequest, Message, ProviderError, Tool
from appliance.core import outside_calls, text as bot_text
from appliance.core.actor import OrgActor
from appliance.core.db import Database
from appliance.core.rows import read_row
from appliance.core.errors import AppError, BadGateway, Invalid
from appliance.installation import addresses
from appliance.knowledge import search as knowledge_search
from appliance.organizations.models import Organization
from appliance.services_catalog.models import CatalogService

MAX_TOOL_ROUNDS = 3
HISTORY = 20  # messages of the conversation the model sees
STYLE = ("Answer in the customer's language, briefly, as in a WhatsApp chat. Use only the facts and passages "
         "given here; when they do not say, say you do not know and offer a person of the team.")

TOOLS = {
    "knowledge_search": Tool("knowledge_search", "Search the business's documents for passages that answer a question.",
                             {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
    "services_catalog": Tool("services_catalog", "List the services and products offered, with their prices.",
                             {"type": "object", "properties": {}}),
    "send_images": Tool("send_image", "Send the customer a picture of the business's image library by its label.",
                        {"type": "object", "properties": {"label": {"type": "string"}}, "required": ["label"]}),
    "handoff": Tool("handoff", "Give the conversation to a person of the team.",
                    {"type": "object", "properties": {"reason": {"type": "string"}}}),
    "create_task": Tool("create_task", "Leave the team a task (call back, prepare an order).",
                        {"type": "object", "properties": {"title": {"type": "string"}, "detail": {"type": "string"}},
                         "required": ["title"]}),
}
# Capabilities that are more than one tool.
MORE_TOOLS = {
    "schedule_appointment": (
        Tool("free_slots", "The agenda's free times on a date (the business's time zone).",
             {"type": "object", "properties": {"date": {"type": "string", "description": "YYYY-MM-DD"},
                                               "durationMin": {"type": "integer"}}, "required": ["date"]}),
        Tool("book_appointment", "Book a free time for this customer; only times free_slots gave can be booked.",
             {"type": "object", "properties": {"start": {"type": "string", "description": "YYYY-MM-DDTHH:MM, local"},
                                               "durationMin": {"type": "integer"}, "title": {"type": "string"}},
              "required": ["start"]})),
}
ACTION_TOOLS = ("send_image", "handoff", "create_task")


@dataclass(frozen=True)
class Customer:
    """Whom a booking is for: the conversation's contact."""
    conversation_id: str
    contact_id: str


@dataclass
class Passage:
    document_id: str
    title: str
    text: str
    similarity: float


@dataclass
class Answer:
    text: str
    parts: list[str]
    knowledge: list[Passage] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)  # {type: handoff | create_task | send_image, ...}
    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: int = 0
    cost_usd: float = 0.0
    masked: int = 0  # protected values cut out of the reply


def answer(database: Database, *, actor: OrgActor, agent: BotAgent, messages: list[tuple[str, str]],
           top_k: int = knowledge_search.DEFAULT_TOP_K, min_similarity: float = knowledge_search.DEFAULT_MIN_SIMILARITY,
           protected_values: list[str] = (), instruction: str | None = None, search: bool = True,
           customer: Customer | None = None) -> Answer:
    """`messages`: (user | assistant, text), oldest first; `instruction` is added to the system
    prompt (a follow-up's nudge), and `search` False leaves the library out of the prompt (the
    tool stays offered). `customer`: the conversation bookings are made for (None: the probador,
    where a booking is only checked). Raises providers' Invalid (provider_not_configured) and
    ProviderError."""
    question = next((text for role, text in reversed(messages) if role == "user"), "") if search else ""
    with database.unit_of_work(write=False) as session:
        client = providers.client_of(session, actor.organization_id, agent.provider)
        organization = read_row(session, Organization.__table__, id=actor.organization_id)
        services = _services(session, actor.organization_id) if "services_catalog" in agent.capabilities else []
        passages = _search(session, actor, agent, question, top_k, min_similarity) if question else []
    tools = tuple(tool for key in agent.capabilities for tool in ((TOOLS[key],) if key in TOOLS else MORE_TOOLS.get(key, ())))
    conversation = [Message(role, text) for role, text in messages[-HISTORY:] if text.strip()]
    system = _system(agent, organization, services, passages) + (f"\n\n{instruction}" if instruction else "")
    request = ChatRequest(model=agent.model, system=system, tools=tools,
                          temperature=agent.temperature, max_tokens=agent.max_tokens, messages=tuple(conversation))
    result = Answer("", [], knowledge=list(passages))
    # A model often searches with the customer's words as they are: what the prompt was built
    # from answers that call too, instead of a second search.
    searched = {_query_key(question): passages} if question else {}
    for _ in range(MAX_TOOL_ROUNDS + 1):
        reply = client.chat(request)
        _count(result, agent, reply)
        if not reply.tool_calls:
            break
        results = []
        for call in reply.tool_calls:
            results.append(Message("tool", _carry_out(database, actor, agent, call, result, top_k, min_similarity,
                                                      searched, customer), tool_call_id=call.id, name=call.name))
        request = ChatRequest(**{**vars(request), "messages": request.messages + (
            Message("assistant", reply.text, tool_calls=reply.tool_calls),) + tuple(results)})
    text, result.masked = bot_text.mask_protected(reply.text.strip(), list(protected_values))
    result.text, result.parts = text, (bot_text.split(text) if text else [])
    return result


def _count(result: Answer, agent: BotAgent, reply: ChatReply) -> None:
    result.tokens_in += reply.tokens_in
    result.tokens_out += reply.tokens_out
    result.latency_ms += reply.latency_ms
    result.cost_usd = catalog.cost_usd(agent.provider, agent.model, result.tokens_in, result.tokens_out)


def _search(session, actor: OrgActor, agent: BotAgent, query: str, top_k: int, min_similarity: float) -> list[Passage]:
    """The agent's library: its own documents (none listed: all it may read), narrowed by its tags;
    the search reads the documents once for all three filters."""
    found = knowledge_search.do_search(session, actor=actor, query=query, top_k=top_k, min_similarity=min_similarity,
                                       agent_id=agent.id, tags=list(agent.knowledge_tags) or None,
                                       within=list(agent.knowledge_doc_ids) or None, record=False)
    return [Passage(r.document_id, r.title, r.text, r.similarity) for r in found]


def _services(session, organization_id: str) -> list[str]:
    lines = []
    for service in session.exec(select(CatalogService).where(CatalogService.organization_id == organization_id,
                                                             CatalogService.activo.is_(True))
                                .order_by(CatalogService.orden, CatalogService.nombre)).all():
        prices = ", ".join(f"{p['etiqueta']}: {p['monto']:g} {service.moneda}" + (
            "" if p.get("periodo", "UNICO") == "UNICO" else f" / {p['periodo'].lower()}")
            for p in service.precios if service.mostrar_precio and (p.get("stock") != 0 or service.mostrar_sin_stock))
        lines.append(f"- {service.nombre}" + (f" ({service.categoria})" if service.categoria else "")
                     + (f": {prices}" if prices else "") + (f". {service.descripcion}" if service.descripcion else ""))
    return lines


def _hours(schedule: dict) -> str:
    days = [day + " " + ", ".join(f"{i['open']}-{i['close']}" for i in intervals)
            for day, intervals in (schedule or {}).items() if intervals]
    return "; ".join(days) or "not given"


def business_facts(organization: Organization) -> str:
    return (f"Business: {organization.name}. Time zone: {organization.timezone}. "
            f"Opening hours: {_hours(organization.business_hours_schedule)}.")


def _system(agent: BotAgent, organization: Organization, services: list[str], passages: list[Passage]) -> str:
    parts = [agent.system_prompt.strip() or f"You are the assistant of {organization.name}.", STYLE,
             business_facts(organization)]
    if services:
        parts.append("Services and prices:\n" + "\n".join(services))
    if passages:
        parts.append("From the business's documents:\n" + "\n".join(f"[{i}] {p.title}: {p.text}"
                                                                     for i, p in enumerate(passages, 1)))
    return "\n\n".join(parts)


def _query_key(query: str) -> str:
    return " ".join(bot_text.fold(query).split())


def _carry_out(database: Database, actor: OrgActor, agent: BotAgent, call, result: Answer, top_k: int,
               min_similarity: float, searched: dict[str, list[Passage]],
               customer: Customer | None) -> str:
    """A tool call's result as the model reads it (JSON); `searched` holds this answer's searches by
    their folded words."""
    if call.name in ("free_slots", "book_appointment") and "schedule_appointment" in agent.capabilities:
        return json.dumps(_agenda(database, actor, call, result, customer), ensure_ascii=False, default=str)
    if call.name == "knowledge_search":
        query = str(call.arguments.get("query") or "")[:1000]
        found = searched.get(_query_key(query))
        if found is None:
            with database.unit_of_work(write=False) as session:
                found = _search(session, actor, agent, query, top_k, min_similarity) if query else []
            searched[_query_key(query)] = found
        known = {(p.document_id, p.text) for p in result.knowledge}
        result.knowledge += [p for p in found if (p.document_id, p.text) not in known]
        return json.dumps({"passages": [{"title": p.title, "text": p.text} for p in found]}, ensure_ascii=False)
    if call.name == "services_catalog":
        with database.unit_of_work(write=False) as session:
            return json.dumps({"services": _services(session, actor.organization_id)}, ensure_ascii=False)
    if call.name in ACTION_TOOLS:
        result.actions.append({"type": call.name, **{k: str(v)[:500] for k, v in call.arguments.items()}})
        return json.dumps({"ok": True})
    return json.dumps({"error": f"unknown tool {call.name}"})


def _agenda(database: Database, actor: OrgActor, call, result: Answer, customer: Customer | None) -> dict:
    arguments = call.arguments
    if call.name == "free_slots":
        return booking.free_times(database, actor=actor, day=str(arguments.get("date") or ""),
                                  duration_min=arguments.get("durationMin"))
    booked = booking.book(database, actor=actor, start=str(arguments.get("start") or ""),
                          duration_min=arguments.get("durationMin"),
                          title=str(arguments.get("title") or ""),
                          conversation_id=customer.conversation_id if customer else None,
                          contact_id=customer.contact_id if customer else None, dry_run=customer is None)
    if booked.get("booked"):
        result.actions.append({"type": "appointment_booked", "start": booked["start"],
                               **({"appointmentId": booked["appointmentId"]} if booked.get("appointmentId") else {})})
    return booked


def provider_failed(error: ProviderError) -> AppError:
    """What a person who asked (the probador, the configurador) is told: 502 with the client's
    sentence (ours, never the provider's words) and the kind of failure; an address the appliance
    may not reach is 400 url_not_allowed, as when it is saved."""
    if error.kind == NOT_ALLOWED:
        return Invalid(str(error), code=addresses.URL_NOT_ALLOWED, provider=error.provider)
    return BadGateway(str(error), code="ai_provider_failed", provider=error.provider, kind=error.kind)


def probe(database: Database, *, actor: OrgActor, agent_id: str, messages: list[dict]) -> Answer:
    """The probador: the agent answers a test conversation; nothing is sent to anyone, nothing is
    recorded but its cost (it counts toward the AI spend caps: 409 ai_spend_cap_reached once one is
    reached). A provider's failure is 502 `ai_provider_failed` with its sentence."""
    with database.unit_of_work(write=False) as session:
        agent = agents_service.access_agent(session, actor=actor, agent_id=agent_id)
        spend.check_within_caps(session, actor.organization_id)
        session.expunge(agent)
    try:
        result = outside_calls.call(actor.organization_id, answer, database, actor=actor, agent=agent,
                                    messages=[(m["role"], m["content"]) for m in messages])
    except ProviderError as exc:
        raise provider_failed(exc) from None
    with database.unit_of_work(write=True) as session:  # a test costs what a reply costs
        spend.record(session, actor.organization_id, tokens_in=result.tokens_in, tokens_out=result.tokens_out,
                     cost_usd=result.cost_usd)
    return result
