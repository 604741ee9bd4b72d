"""Surveys in the console: the results (sent, answered, response rate and average score; question 1's
options as bars; each agent; the comments; why others were not sent) for a range of dates, and the
settings with a preview of the messages as the customer's WhatsApp shows them."""

from __future__ import annotations

from datetime import date

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_surveys import SURVEY_TEXTS
from appliance.core.errors import AppError, Invalid
from appliance.core.locales import customer_language
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.organizations.models import Organization
from appliance.phone_numbers import service as phone_numbers_service
from appliance.surveys import results as survey_results, service as surveys_service
from appliance.surveys import api as surveys_api
from appliance.surveys.models import AUDIENCES
from appliance.surveys.schemas import SurveyConfigPatchSchema
from appliance.surveys.sender import LIST_BUTTON

_ACTIVE = "console_pages.surveys"


def _date_arg(name: str) -> date | None:
    try:
        return date.fromisoformat(request.args.get(name) or "")
    except ValueError:
        return None


@console_pages.get("/console/<uuid:org_id>/surveys")
@performs(surveys_api.SurveyResults.get)
@signed_in_page
def surveys(org_id):
    actor = org_actor(org_id)
    session = db_session()
    error = None
    try:
        found = survey_results.results(session, actor=actor, desde=_date_arg("desde"), hasta=_date_arg("hasta"))
    except Invalid as refused:  # a range the form allowed but the rules do not: the default range, and why
        error, found = refused, survey_results.results(session, actor=actor)
    first_question = [row for row in found["by_option"] if row["question_index"] == 0]
    later = [row for row in found["by_option"] if row["question_index"] > 0]
    return render("console/surveys.html", actor, _ACTIVE, texts=SURVEY_TEXTS, results=found, error=error,
                  config=surveys_service.config_of(session, actor.organization_id),
                  first_question=first_question, later=later)


def _preview(session, actor, config: dict) -> dict:
    country = session.get(Organization, actor.organization_id).country
    return {"questions": config["questions"], "list_button": LIST_BUTTON.resolve(customer_language(country)),
            "ask_comment": config["ask_comment"], "comment_question": config["comment_question"],
            "thanks_message": config["thanks_message"]}


def _settings_page(actor, error: AppError | None = None, values: dict | None = None):
    session = db_session()
    saved = surveys_service.config_of(session, actor.organization_id)
    shown = values or {name: getattr(saved, name) for name in surveys_service.FIELDS}
    return render("console/survey_settings.html", actor, _ACTIVE, error=error, texts=SURVEY_TEXTS, config=shown,
                  saved=saved, audiences=AUDIENCES, preview=_preview(session, actor, shown),
                  numbers=phone_numbers_service.list_phone_numbers(session, actor=actor),
                  limits=surveys_service, done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/surveys/settings")
@performs(surveys_api.SurveyConfig.get)
@signed_in_page
def survey_settings(org_id):
    return _settings_page(org_actor(org_id))


def _form_questions() -> list[dict]:
    """Up to three questions, each a text and its options one per line; blank ones left out."""
    questions = []
    for i in range(surveys_service.MAX_QUESTIONS):
        text = request.form.get(f"q{i}_text", "").strip()[:1100]
        options = [line.strip() for line in request.form.get(f"q{i}_options", "").splitlines() if line.strip()][:12]
        if text or options:
            questions.append({"text": text, "options": [option[:40] for option in options]})
    return questions


@console_pages.post("/console/<uuid:org_id>/surveys/settings")
@performs(surveys_api.SurveyConfig.patch)
@signed_in_page
def survey_settings_save(org_id):
    actor = org_actor(org_id)
    body = {"active": bool(request.form.get("active")), "delayMinutes": forms.text("delay_minutes", 10),
            "audience": forms.text("audience", 10), "cooldownDays": forms.text("cooldown_days", 10),
            "answerTimeoutHours": forms.text("answer_timeout_hours", 10), "questions": _form_questions(),
            "askComment": bool(request.form.get("ask_comment")),
            "commentQuestion": forms.text("comment_question", 1100),
            "thanksMessage": forms.optional("thanks_message", 1100),
            "phoneNumberIds": forms.checked("phone_number_ids")}
    try:
        surveys_service.do_update(db_session(), actor=actor, **check_form(SurveyConfigPatchSchema(), body))
    except AppError as error:
        db_session().rollback()
        values = {"active": body["active"], "delay_minutes": body["delayMinutes"], "audience": body["audience"],
                  "cooldown_days": body["cooldownDays"], "answer_timeout_hours": body["answerTimeoutHours"],
                  "questions": body["questions"], "ask_comment": body["askComment"],
                  "comment_question": body["commentQuestion"], "thanks_message": body["thanksMessage"],
                  "phone_number_pks": body["phoneNumberIds"]}
        return _settings_page(actor, error, values)
    return back("console_pages.survey_settings", "saved", org_id=actor.organization_id)
