"""Bot flows in the console: the list, a new flow (blank or from an example), and the editor, a
form with one fieldset per step and, beside each, the message as the customer's WhatsApp will
show it. Saved through bots.flows and checked by the API's schemas: the page refuses exactly what
`POST /bot/flows` refuses, and the error sits by the step's field."""

from __future__ import annotations

import re

from flask import request

from appliance.ai_agents import service as agents_service
from appliance.bots import flows as flows_service
from appliance.bots import api as bots_api
from appliance.bots.schemas import ANSWER_CHECKS, STEP_FIELDS, STEP_TYPES, BotFlowCreateSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_bot_work import BOT_WORK_TEXTS
from appliance.core.errors import AppError, Invalid
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.phone_numbers import service as phone_numbers_service
from appliance.tags import service as tags_service

_LIST, _EDITOR = "console/bot_flows.html", "console/bot_flow.html"
_ACTIVE = "console_pages.bot"
MAX_STEPS, MAX_OPTIONS = 50, 10
# A step's fields as the form names them, and as the API (and the stored flow) does.
_STEP_INPUTS = {"text": "text", "save_as": "saveAs", "answer_check": "validate", "error_text": "errorText",
                "tag_id": "tagId", "agent_id": "agentId", "next": "next"}


def _words(name: str) -> list[str]:
    return [word.strip() for word in request.form.get(name, "")[:5000].split(",") if word.strip()][:50]


def _slug(text: str, taken: set[str]) -> str:
    """A step or option id from its title: what people type is not an id."""
    base = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40] or "paso"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    return candidate


def _options_from_form(prefix: str) -> list[dict]:
    options, taken = [], set()
    for j in range(MAX_OPTIONS):
        title = forms.text(f"{prefix}opt-{j}-title", 100)
        if not title:
            continue
        option_id = forms.text(f"{prefix}opt-{j}-id", 60) or _slug(title, taken)
        taken.add(option_id)
        options.append({"id": option_id, "title": title, "next": forms.text(f"{prefix}opt-{j}-next", 60)})
    return options


def steps_from_form() -> list[dict]:
    """The steps in the form's order (rows marked to remove, and an empty new row, left out), each
    with only the fields its type takes: changing a step's type drops what no longer applies."""
    steps, taken = [], set()
    raw_count = forms.text("step_count", 4)
    count = min(int(raw_count), MAX_STEPS) if raw_count.isdigit() else 0
    for i in range(count + 1):  # + the row for a new step, whose type is empty unless one is chosen
        prefix = f"steps-{i}-"
        kind = forms.text(f"{prefix}type", 30)
        if not kind or request.form.get(f"{prefix}remove"):
            continue
        step_id = forms.text(f"{prefix}id", 60) or _slug(forms.text(f"{prefix}text", 40) or kind, taken)
        taken.add(step_id)
        step = {"id": step_id, "type": kind}
        needed, optional = STEP_FIELDS.get(kind, (set(), set()))
        for name in (needed | optional | ({"next"} if kind in ("message", "question", "set_tag") else set())):
            if name == "options":
                step["options"] = _options_from_form(prefix)
            elif name in _STEP_INPUTS:
                value = request.form.get(f"{prefix}{name}", "")[:1024].strip()
                if value:
                    step[_STEP_INPUTS[name]] = value
        steps.append(step)
    return steps


def _flow_values() -> dict:
    return {"name": forms.text("name", 200), "triggerKeywords": _words("trigger_keywords"),
            "enabled": bool(request.form.get("enabled")),
            "phoneNumberIds": [value[:40] for value in request.form.getlist("phone_number_ids")][:100],
            "steps": steps_from_form()}


def _page(actor, template: str, *, flow=None, values: dict | None = None, error: AppError | None = None):
    session = db_session()
    return render(template, actor, _ACTIVE, error=error, texts=BOT_WORK_TEXTS, flow=flow, values=values,
                  flows=flows_service.list_flows(session, actor=actor) if flow is None else [],
                  examples=flows_service.templates(), tags=tags_service.list_tags(session, actor=actor),
                  agents=agents_service.list_agents(session, actor=actor),
                  numbers=phone_numbers_service.list_phone_numbers(session, actor=actor),
                  step_types=STEP_TYPES, answer_checks=ANSWER_CHECKS, max_options=MAX_OPTIONS,
                  done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/flows")
@performs(bots_api.BotFlows.get)
@signed_in_page
def bot_flows(org_id):
    return _page(org_actor(org_id), _LIST)


@console_pages.post("/console/<uuid:org_id>/bot/flows")
@performs(bots_api.BotFlows.post)
@signed_in_page
def bot_flow_create(org_id):
    """A new flow: from one of the examples (as it is, ready to adapt) or with one first message."""
    actor = org_actor(org_id)
    example = forms.text("example", 60)
    try:
        if example:
            chosen = next((e["flow"] for e in flows_service.templates() if f"{e['language']}:{e['key']}" == example), None)
            if chosen is None:
                raise Invalid("Choose one of the examples.", errors={"example": ["Unknown example."]})
            body = {**chosen, "name": forms.text("name", 200) or chosen["name"]}
        else:
            first = request.form.get("first_message", "")[:1024].strip()
            body = {"name": forms.text("name", 200), "triggerKeywords": _words("trigger_keywords"), "enabled": False,
                    "steps": [{"id": "inicio", "type": "message", "text": first}] if first else []}
        fields = check_form(BotFlowCreateSchema(), body)
        flow = flows_service.do_create(db_session(), actor=actor, **fields)
    except AppError as error:
        return _page(actor, _LIST, error=error)
    return back("console_pages.bot_flow", "flow_created", org_id=actor.organization_id, flow_id=flow.id)


@console_pages.get("/console/<uuid:org_id>/bot/flows/<uuid:flow_id>")
@performs(bots_api.BotFlowById.get)
@signed_in_page
def bot_flow(org_id, flow_id):
    actor = org_actor(org_id)
    return _page(actor, _EDITOR, flow=flows_service.access_flow(db_session(), actor=actor, flow_id=str(flow_id)))


@console_pages.post("/console/<uuid:org_id>/bot/flows/<uuid:flow_id>")
@performs(bots_api.BotFlowById.patch)
@signed_in_page
def bot_flow_save(org_id, flow_id):
    actor = org_actor(org_id)
    session = db_session()
    flow = flows_service.access_flow(session, actor=actor, flow_id=str(flow_id))
    values = _flow_values()
    try:
        fields = check_form(BotFlowCreateSchema(), values)
        flows_service.do_update(session, actor=actor, flow_id=flow.id, **fields)
    except AppError as error:
        return _page(actor, _EDITOR, flow=flow, values=values, error=error)
    return back("console_pages.bot_flow", "flow_saved", org_id=actor.organization_id, flow_id=flow.id)


@console_pages.post("/console/<uuid:org_id>/bot/flows/<uuid:flow_id>/delete")
@performs(bots_api.BotFlowById.delete)
@signed_in_page
def bot_flow_delete(org_id, flow_id):
    actor = org_actor(org_id)
    try:
        flows_service.do_delete(db_session(), actor=actor, flow_id=str(flow_id))
    except AppError as error:
        return _page(actor, _EDITOR, flow=flows_service.access_flow(db_session(), actor=actor, flow_id=str(flow_id)),
                     error=error)
    return back("console_pages.bot_flows", "flow_deleted", org_id=actor.organization_id)
