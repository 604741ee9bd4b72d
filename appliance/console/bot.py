"""The bot in the console: each number's bot (on or off, and what keeps it from working), its
settings, and the organization's rules. Saved through bots.service and bots.rules, checked by the
API's schemas, so the page refuses exactly what the API refuses."""

from __future__ import annotations

from flask import request

from appliance.bots import activity
from appliance.bots import flows as flows_service
from appliance.bots import images as images_service
from appliance.bots import rules as rules_service
from appliance.bots import service as bots_service
from appliance.bots import api as bots_api
from appliance.bots.matching import MATCH_TYPES
from appliance.bots.schemas import RULE_ACTIONS, BotConfigUpdateSchema, BotRuleCreateSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_bot import BOT_TEXTS
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.phone_numbers import service as phone_numbers_service
from appliance.tags import service as tags_service

_BOT, _SETTINGS, _RULES, _RULE = "console/bot.html", "console/bot_settings.html", "console/bot_rules.html", "console/bot_rule.html"
_ACTIVE = "console_pages.bot"
_SETTING_FIELDS = ("mode", "ritmo_de_respuesta", "debounce_seconds", "welcome_message", "out_of_hours_message",
                   "fallback_message", "disclosure_message", "handoff_message", "max_replies_per_window",
                   "reply_window_minutes")
_SWITCHES = ("enabled", "welcome_enabled", "out_of_hours_enabled", "fallback_enabled")


def _words(name: str) -> list[str]:
    """A comma-separated field as a list, empties dropped."""
    return [word.strip() for word in request.form.get(name, "")[:5000].split(",") if word.strip()][:200]


@console_pages.get("/console/<uuid:org_id>/bot")
@performs(bots_api.BotConfigs.get)
@signed_in_page
def bot(org_id):
    actor = org_actor(org_id)
    session = db_session()
    numbers = {n.id: n for n in phone_numbers_service.list_phone_numbers(session, actor=actor)}
    health = {h["phone_number_pk"]: h for h in activity.health(session, actor=actor)["numbers"]}
    return render(_BOT, actor, _ACTIVE, texts=BOT_TEXTS, numbers=numbers, health=health,
                  rule_count=len(rules_service.list_rules(session, actor=actor)),
                  flow_count=len(flows_service.list_flows(session, actor=actor)), done=request.args.get("done"))


def _settings_page(actor, phone_id: str, error: AppError | None = None):
    session = db_session()
    number = phone_numbers_service.access_phone_number(session, actor=actor, phone_number_pk=phone_id)
    config = bots_service.get_config(session, actor=actor, phone_number_pk=phone_id)
    if error is not None:  # what was typed, not what is stored
        config = {**config, **{name: request.form.get(name, "") for name in _SETTING_FIELDS},
                  **{name: bool(request.form.get(name)) for name in _SWITCHES},
                  "human_handoff_keywords": _words("human_handoff_keywords")}
    return render(_SETTINGS, actor, _ACTIVE, error=error, texts=BOT_TEXTS, number=number, config=config,
                  done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/numbers/<uuid:phone_id>")
@performs(bots_api.BotConfigByNumber.get)
@signed_in_page
def bot_settings(org_id, phone_id):
    return _settings_page(org_actor(org_id), str(phone_id))


@console_pages.post("/console/<uuid:org_id>/bot/numbers/<uuid:phone_id>")
@performs(bots_api.BotConfigByNumber.put)
@signed_in_page
def bot_settings_save(org_id, phone_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(BotConfigUpdateSchema(), {
            "enabled": bool(request.form.get("enabled")), "mode": forms.text("mode", 40),
            "ritmoDeRespuesta": forms.text("ritmo_de_respuesta", 20),
            "debounceSeconds": forms.text("debounce_seconds", 10),
            "welcomeEnabled": bool(request.form.get("welcome_enabled")),
            "welcomeMessage": request.form.get("welcome_message", "")[:5000],
            "outOfHoursEnabled": bool(request.form.get("out_of_hours_enabled")),
            "outOfHoursMessage": request.form.get("out_of_hours_message", "")[:5000],
            "fallbackEnabled": bool(request.form.get("fallback_enabled")),
            "fallbackMessage": request.form.get("fallback_message", "")[:5000],
            "disclosureMessage": request.form.get("disclosure_message", "")[:5000],
            "humanHandoffKeywords": _words("human_handoff_keywords"),
            "handoffMessage": request.form.get("handoff_message", "")[:5000],
            "maxRepliesPerWindow": forms.text("max_replies_per_window", 10),
            "replyWindowMinutes": forms.text("reply_window_minutes", 10), **_ai_and_follow_up_fields()})
        bots_service.check_put(db_session(), actor=actor, phone_number_pk=str(phone_id), **fields)
    except AppError as error:
        return _settings_page(actor, str(phone_id), error)
    return back("console_pages.bot_settings", "bot_saved", org_id=actor.organization_id, phone_id=phone_id)


def _ai_and_follow_up_fields() -> dict:
    """The AI and follow-up panels, each read only when the form has it (its number fields are
    always there), so a form without them leaves those settings as they are."""
    fields = {}
    if "knowledge_top_k" in request.form:
        fields.update({"intentClassifierEnabled": bool(request.form.get("intent_classifier_enabled")),
                       "knowledgeTopK": forms.text("knowledge_top_k", 10),
                       "knowledgeMinSimilarity": forms.text("knowledge_min_similarity", 10),
                       "protectedValues": [line.strip() for line in request.form.get("protected_values", "")[:5000]
                                           .splitlines() if line.strip()]})
    if "follow_up_after_min" in request.form:
        fields.update({"followUpEnabled": bool(request.form.get("follow_up_enabled")),
                       "followUpAfterMin": forms.text("follow_up_after_min", 10),
                       "followUpCloseAfterMin": forms.text("follow_up_close_after_min", 10),
                       "followUpMode": forms.text("follow_up_mode", 10),
                       "followUpMessage": request.form.get("follow_up_message", "")[:5000],
                       "followUpCloseMessage": request.form.get("follow_up_close_message", "")[:5000]})
    return fields


@console_pages.post("/console/<uuid:org_id>/bot/numbers/<uuid:phone_id>/toggle")
@performs(bots_api.BotToggle.patch)
@signed_in_page
def bot_toggle(org_id, phone_id):
    actor = org_actor(org_id)
    config = bots_service.check_toggle(db_session(), actor=actor, phone_number_pk=str(phone_id))
    return back(_ACTIVE, "bot_on" if config["enabled"] else "bot_off", org_id=actor.organization_id)


def _rule_values() -> dict:
    return {"name": forms.text("name", 200), "keywords": _words("keywords"), "matchType": forms.text("match_type", 20),
            "reply": request.form.get("reply", "")[:5000], "action": forms.text("action", 20),
            "tagId": forms.optional("tag_id", 40), "flowId": forms.optional("flow_id", 40),
            "imageId": forms.optional("image_id", 40), "priority": forms.text("priority", 10) or "100",
            "enabled": bool(request.form.get("enabled")),
            "phoneNumberIds": [value[:40] for value in request.form.getlist("phone_number_ids")][:100]}


def _rules_page(actor, template: str = _RULES, rule=None, error: AppError | None = None):
    session = db_session()
    values = None
    if error is not None:
        values = _rule_values()
        values["keywords"] = ", ".join(values["keywords"])
    return render(template, actor, "console_pages.bot", error=error, texts=BOT_TEXTS,
                  rules=rules_service.list_rules(session, actor=actor) if rule is None else [], rule=rule, values=values,
                  tags=tags_service.list_tags(session, actor=actor),
                  numbers=phone_numbers_service.list_phone_numbers(session, actor=actor),
                  flows=flows_service.list_flows(session, actor=actor), match_types=MATCH_TYPES, actions=RULE_ACTIONS,
                  images=images_service.list_images(session, actor=actor),
                  done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/rules")
@performs(bots_api.BotRules.get)
@signed_in_page
def bot_rules(org_id):
    return _rules_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/bot/rules")
@performs(bots_api.BotRules.post)
@signed_in_page
def bot_rule_create(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(BotRuleCreateSchema(), _rule_values())
        rules_service.do_create(db_session(), actor=actor, **fields)
    except AppError as error:
        return _rules_page(actor, error=error)
    return back("console_pages.bot_rules", "rule_created", org_id=actor.organization_id)


@console_pages.get("/console/<uuid:org_id>/bot/rules/<uuid:rule_id>")
@performs(bots_api.BotRuleById.get)
@signed_in_page
def bot_rule(org_id, rule_id):
    actor = org_actor(org_id)
    return _rules_page(actor, _RULE, rules_service.access_rule(db_session(), actor=actor, rule_id=str(rule_id)))


@console_pages.post("/console/<uuid:org_id>/bot/rules/<uuid:rule_id>")
@performs(bots_api.BotRuleById.patch)
@signed_in_page
def bot_rule_save(org_id, rule_id):
    actor = org_actor(org_id)
    session = db_session()
    rule = rules_service.access_rule(session, actor=actor, rule_id=str(rule_id))
    try:
        fields = check_form(BotRuleCreateSchema(), _rule_values())
        rules_service.do_update(session, actor=actor, rule_id=str(rule_id), **fields)
    except AppError as error:
        return _rules_page(actor, _RULE, rule, error)
    return back("console_pages.bot_rules", "rule_saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/bot/rules/<uuid:rule_id>/delete")
@performs(bots_api.BotRuleById.delete)
@signed_in_page
def bot_rule_delete(org_id, rule_id):
    actor = org_actor(org_id)
    rules_service.do_delete(db_session(), actor=actor, rule_id=str(rule_id))
    return back("console_pages.bot_rules", "rule_deleted", org_id=actor.organization_id)
