"""The bot's AI in the console: the agents with what each did (replies, conversations, hand-offs,
errors, cost) and the organization's AI spend against its billing group's caps; the six providers
(a key or an address, "test connection", the last error met); an agent's editor with the probador
beside it (a test chat that sends nothing to customers, showing the parts a paced bot would send,
the passages read and the tokens) and the configurador (prompt proposals for a goal, one click to
use one). Checked by the API's schemas, done by the same services; every form posts without
JavaScript."""

from __future__ import annotations

import json

from flask import request

from appliance import sandbox
from appliance.ai_agents import answering, catalog, configurador, providers, service, spend
from appliance.ai_agents import api as ai_agents_api
from appliance.ai_agents.schemas import (AgentCreateSchema, AgentUpdateSchema, ConfiguradorSchema, ProbeSchema,
                                         ProviderPutSchema)
from appliance.ai_providers.clients import PROVIDERS
from appliance.bots import agent_stats
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_bot_ai import AI_TEXTS
from appliance.core import runtime
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form, page_language
from appliance.http.unit_of_work import db_session
from appliance.knowledge import service as knowledge_service
from appliance.phone_numbers import service as phone_numbers_service

_ACTIVE = "console_pages.bot"
STATS_DAYS = (7, 30, 90)
PROBE_TURNS = 40  # messages the probador keeps (the schema's limit)


def _simulated(provider_list) -> set[str]:
    """The providers that are the sandbox's AI double, named so wherever a provider is shown."""
    return {p.provider for p in provider_list if sandbox.is_ai_double(p.base_url)}


# Agents and what they did -----------------------------------------------------------------------

@console_pages.get("/console/<uuid:org_id>/bot/ai")
@performs(ai_agents_api.Agents.get)
@signed_in_page
def bot_ai(org_id):
    actor = org_actor(org_id)
    session = db_session()
    days = request.args.get("dias", "30")
    days = int(days) if days.isdigit() and int(days) in STATS_DAYS else 30
    stats = agent_stats.agent_stats(session, actor=actor, days=days)
    provider_list = providers.list_providers(session, actor=actor)
    return render("console/bot_ai.html", actor, _ACTIVE, texts=AI_TEXTS, stats=stats, days=days, choices=STATS_DAYS,
                  top_replies=max((row["replies"] for row in stats), default=0),
                  agents={a.id: a for a in service.list_agents(session, actor=actor)},
                  providers=provider_list, simulated=_simulated(provider_list),
                  spend=spend.of(session, actor.organization_id), done=request.args.get("done"))


# Providers ------------------------------------------------------------------------------------------

def _providers_page(actor, error: AppError | None = None, failed: str | None = None, checked: dict | None = None):
    provider_list = providers.list_providers(db_session(), actor=actor)
    return render("console/bot_ai_providers.html", actor, _ACTIVE, error=error, texts=AI_TEXTS,
                  providers=provider_list, simulated=_simulated(provider_list), failed=failed, checked=checked,
                  done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/ai/providers")
@performs(ai_agents_api.Providers.get)
@signed_in_page
def bot_ai_providers(org_id):
    return _providers_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/bot/ai/providers/<string:provider>")
@performs(ai_agents_api.ProviderById.put)
@signed_in_page
def bot_ai_provider_save(org_id, provider):
    actor = org_actor(org_id)
    try:
        values = {k: v for k, v in {"apiKey": forms.text("api_key", 500), "baseUrl": forms.text("base_url", 500)}.items() if v}
        body = check_form(ProviderPutSchema(), values) if values else {}  # nothing given: the service says what is missing
        providers.do_put(db_session(), actor=actor, provider=provider, **body)
    except AppError as error:
        return _providers_page(actor, error, failed=provider)
    return back("console_pages.bot_ai_providers", "provider_saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/bot/ai/providers/<string:provider>/check")
@performs(ai_agents_api.ProviderCheck.post)
@signed_in_page
def bot_ai_provider_check(org_id, provider):
    """Answered on the page itself (the models found, or the sentence of what is wrong)."""
    actor = org_actor(org_id)
    try:
        models, problem = providers.check_connection(runtime.get().db, actor=actor, provider=provider)
    except AppError as error:
        return _providers_page(actor, error, failed=provider)
    return _providers_page(actor, checked={"provider": provider, "ok": problem is None, "models": models[:20],
                                           "error": str(problem) if problem else None})


@console_pages.post("/console/<uuid:org_id>/bot/ai/providers/<string:provider>/delete")
@performs(ai_agents_api.ProviderById.delete)
@signed_in_page
def bot_ai_provider_delete(org_id, provider):
    actor = org_actor(org_id)
    providers.do_delete(db_session(), actor=actor, provider=provider)
    return back("console_pages.bot_ai_providers", "provider_deleted", org_id=actor.organization_id)


# An agent: the editor, the probador, the configurador ------------------------------------------------

def _tags(name: str) -> list[str]:
    return [tag.strip() for tag in forms.text(name, 2000).split(",") if tag.strip()]


def _agent_values() -> dict:
    """The editor's form as the API's schema names it."""
    return {"name": forms.text("name", 200), "provider": forms.text("provider", 20), "model": forms.text("model", 300),
            "systemPrompt": request.form.get("system_prompt", "")[:20_001],
            "temperature": forms.text("temperature", 10) or "0.3", "maxTokens": forms.text("max_tokens", 10) or "500",
            "capabilities": forms.checked("capabilities"), "phoneNumberIds": forms.checked("phone_number_ids"),
            "knowledgeDocIds": forms.checked("knowledge_doc_ids"), "knowledgeTags": _tags("knowledge_tags"),
            "routeTags": _tags("route_tags"), "isDefault": bool(request.form.get("is_default")),
            "enabled": bool(request.form.get("enabled"))}


def _shown(agent) -> dict:
    return {"name": agent.name, "provider": agent.provider, "model": agent.model, "systemPrompt": agent.system_prompt,
            "temperature": agent.temperature, "maxTokens": agent.max_tokens, "capabilities": agent.capabilities,
            "phoneNumberIds": agent.phone_number_pks, "knowledgeDocIds": agent.knowledge_doc_ids,
            "knowledgeTags": agent.knowledge_tags, "routeTags": agent.route_tags, "isDefault": agent.is_default,
            "enabled": agent.enabled}


NEW_AGENT = {"name": "", "provider": "LOCAL", "model": "", "systemPrompt": "", "temperature": 0.3, "maxTokens": 500,
             "capabilities": ["knowledge_search", "handoff"], "phoneNumberIds": [], "knowledgeDocIds": [],
             "knowledgeTags": [], "routeTags": [], "isDefault": True, "enabled": True}


def _agent_page(actor, agent=None, *, error: AppError | None = None, values: dict | None = None,
                chat: list[dict] | None = None, answer=None, probe_error: AppError | None = None,
                goal: str = "", proposals=None):
    session = db_session()
    if values is None:
        values = _shown(agent) if agent is not None else dict(NEW_AGENT)
    # The model list asks a LOCAL server for its models (up to 3 s): only where a model is being
    # chosen (the editor shown, or a save refused), not after every message of the test chat.
    choosing = chat is None and proposals is None and probe_error is None
    provider_list = providers.list_providers(session, actor=actor)
    return render("console/bot_ai_agent.html", actor, _ACTIVE, error=error, texts=AI_TEXTS,
                  agent=agent, v=values, providers=PROVIDERS,
                  models=providers.models_with_local(runtime.get().db, actor=actor) if choosing else _catalog_models(),
                  configured={p.provider for p in provider_list if p.configured}, simulated=_simulated(provider_list),
                  capabilities=catalog.capabilities(page_language()),
                  numbers=phone_numbers_service.list_phone_numbers(session, actor=actor),
                  documents=knowledge_service.list_documents(session, actor=actor),
                  chat=chat or [], answer=answer, probe_error=probe_error, goal=goal, proposals=proposals,
                  done=request.args.get("done"))


def _catalog_models() -> list[dict]:
    return [{"provider": m["provider"], "model": m["model"]} for m in catalog.models()]


@console_pages.get("/console/<uuid:org_id>/bot/ai/agents/new")
@performs(ai_agents_api.Agents.post)  # the form that makes one
@signed_in_page
def bot_ai_agent_new(org_id):
    return _agent_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/bot/ai/agents")
@performs(ai_agents_api.Agents.post)
@signed_in_page
def bot_ai_agent_create(org_id):
    actor = org_actor(org_id)
    values = _agent_values()
    try:
        agent = service.do_create(db_session(), actor=actor, **check_form(AgentCreateSchema(), values))
    except AppError as error:
        return _agent_page(actor, error=error, values=values)
    return back("console_pages.bot_ai_agent", "agent_created", org_id=actor.organization_id, agent_id=agent.id)


def _access(actor, agent_id):
    return service.access_agent(db_session(), actor=actor, agent_id=str(agent_id))


@console_pages.get("/console/<uuid:org_id>/bot/ai/agents/<uuid:agent_id>")
@performs(ai_agents_api.AgentById.get)
@signed_in_page
def bot_ai_agent(org_id, agent_id):
    actor = org_actor(org_id)
    return _agent_page(actor, _access(actor, agent_id))


@console_pages.post("/console/<uuid:org_id>/bot/ai/agents/<uuid:agent_id>")
@performs(ai_agents_api.AgentById.patch)
@signed_in_page
def bot_ai_agent_save(org_id, agent_id):
    actor = org_actor(org_id)
    agent = _access(actor, agent_id)
    values = _agent_values()
    try:
        service.do_update(db_session(), actor=actor, agent_id=agent.id, **check_form(AgentUpdateSchema(), values))
    except AppError as error:
        return _agent_page(actor, agent, error=error, values=values)
    return back("console_pages.bot_ai_agent", "agent_saved", org_id=actor.organization_id, agent_id=agent.id)


@console_pages.post("/console/<uuid:org_id>/bot/ai/agents/<uuid:agent_id>/delete")
@performs(ai_agents_api.AgentById.delete)
@signed_in_page
def bot_ai_agent_delete(org_id, agent_id):
    actor = org_actor(org_id)
    service.do_delete(db_session(), actor=actor, agent_id=str(agent_id))
    return back("console_pages.bot_ai", "agent_deleted", org_id=actor.organization_id)


def _chat_so_far() -> list[dict]:
    """The probador's conversation, carried by the page itself (a hidden field), so it needs no
    storage and no script; anything that is not a list of turns starts it over."""
    try:
        turns = json.loads(request.form.get("chat", "[]")[:200_000])
    except ValueError:
        return []
    if not isinstance(turns, list):
        return []
    return [{"role": str(t.get("role")), "content": str(t.get("content"))[:4000]} for t in turns
            if isinstance(t, dict) and t.get("role") in ("user", "assistant") and t.get("content")][-(PROBE_TURNS - 1):]


@console_pages.post("/console/<uuid:org_id>/bot/ai/agents/<uuid:agent_id>/probador")
@performs(ai_agents_api.Probe.post)
@signed_in_page
def bot_ai_agent_probe(org_id, agent_id):
    """The agent answers on the page; nothing is sent to any customer (its cost still counts)."""
    actor = org_actor(org_id)
    chat = [] if request.form.get("restart") else _chat_so_far()
    said = request.form.get("message", "")[:4001].strip()
    if not said:
        return _agent_page(actor, _access(actor, agent_id), chat=chat)
    try:  # before the page's own unit of work, which would hold the write lock the probe's cost needs
        turns = check_form(ProbeSchema(), {"messages": chat + [{"role": "user", "content": said}]})["messages"]
        answer = answering.probe(runtime.get().db, actor=actor, agent_id=str(agent_id), messages=turns)
    except AppError as error:
        return _agent_page(actor, _access(actor, agent_id), chat=chat, probe_error=error)
    return _agent_page(actor, _access(actor, agent_id), chat=turns + [{"role": "assistant", "content": answer.text}],
                       answer=answer)


@console_pages.post("/console/<uuid:org_id>/bot/ai/agents/<uuid:agent_id>/configurador")
@performs(ai_agents_api.Configurador.post)
@signed_in_page
def bot_ai_agent_propose(org_id, agent_id):
    actor = org_actor(org_id)
    goal = request.form.get("goal", "")[:2001].strip()
    try:  # before the page's own unit of work (as the probador)
        checked = check_form(ConfiguradorSchema(), {"goal": goal})
        found = configurador.propose(runtime.get().db, actor=actor, agent_id=str(agent_id), goal=checked["goal"])
    except AppError as error:
        return _agent_page(actor, _access(actor, agent_id), goal=goal, probe_error=error)
    return _agent_page(actor, _access(actor, agent_id), goal=goal, proposals=found)


@console_pages.post("/console/<uuid:org_id>/bot/ai/agents/<uuid:agent_id>/prompt")
@performs(ai_agents_api.AgentById.patch)
@signed_in_page
def bot_ai_agent_use_prompt(org_id, agent_id):
    """A proposal's "Use this prompt": saved as the agent's system prompt."""
    actor = org_actor(org_id)
    agent = _access(actor, agent_id)
    try:
        fields = check_form(AgentUpdateSchema(only=("system_prompt",)),
                            {"systemPrompt": request.form.get("system_prompt", "")[:20_001]})
        service.do_update(db_session(), actor=actor, agent_id=agent.id, **fields)
    except AppError as error:
        return _agent_page(actor, agent, error=error)
    return back("console_pages.bot_ai_agent", "prompt_used", org_id=actor.organization_id, agent_id=agent.id)
