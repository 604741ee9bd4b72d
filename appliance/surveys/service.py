"""Surveys as people and the API reach them: the organization's survey settings, inactive
defaults (in its customers' language) until first saved, and partial changes within the limits
(schemas.py checks each field; the numbers are checked here, against the organization). The
settings are for some numbers (none: every number): a key or member kept to some numbers reads
them, and changes them only while they, before and after, are for its numbers alone
(core.tenancy.NumberScope). Results are results.py's; what happens at a close, an answer and a
send, closing.py's, answers.py's and sender.py's."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.i18n import Words, _l
from appliance.core.locales import customer_language
from appliance.organizations.models import Organization
from appliance.phone_numbers import service as phone_numbers_service
from appliance.surveys.models import SurveyConfig

MAX_QUESTIONS = 3
FIRST_QUESTION_OPTIONS = 3  # reply buttons: the network allows three
OTHER_QUESTION_OPTIONS = 10  # list rows: the network allows ten
OPTION_MAX_LENGTH = 20  # a reply button's title

# The settings' texts until the organization saves its own, in its customers' language.
DEFAULT_TEXTS = Words("survey_defaults", {
    "questions": [{"text": _l("How would you rate the service you received?"),
                   "options": [_l("Excellent"), _l("Good"), _l("Poor")]}],
    "comment_question": _l("Anything else you would like to tell us? Write it in a message."),
    "thanks_message": _l("Thank you for your answer!"),
})
FIELDS = ("active", "delay_minutes", "audience", "cooldown_days", "questions", "ask_comment", "comment_question",
          "thanks_message", "answer_timeout_hours", "phone_number_pks")


def config_of(session: Session, organization_id: str) -> SurveyConfig:
    """The saved settings, or the defaults (inactive, not saved) in the customers' language."""
    found = session.get(SurveyConfig, organization_id)
    if found is not None:
        return found
    country = session.exec(select(Organization.country).where(Organization.id == organization_id)).first()
    texts = DEFAULT_TEXTS[customer_language(country)]
    return SurveyConfig(organization_id=organization_id, questions=[dict(q) for q in texts["questions"]],
                        comment_question=texts["comment_question"], thanks_message=texts["thanks_message"],
                        updated_at=None)


def do_update(session: Session, *, actor: OrgActor, **changes) -> SurveyConfig:
    """Partial: fields not given keep what was saved (or the defaults)."""
    config = config_of(session, actor.organization_id)
    scope = phone_numbers_service.scope_of(session, actor)
    scope.check_covers(config.phone_number_pks)
    if "phone_number_pks" in changes:
        changes["phone_number_pks"] = tenancy.check_ids_in_org(session, "phone_numbers", changes["phone_number_pks"],
                                                               actor, field="phoneNumberIds")
        scope.check_covers(changes["phone_number_pks"])
    for name in FIELDS:
        if name in changes:
            setattr(config, name, changes[name])
    config.updated_by_user_id, config.updated_at = actor.user_id, clock.now()
    session.add(config)
    session.flush()
    return config


def score_of(option_index: int, option_count: int) -> int:
    """Option i (0-based) of n scores n - i: the first option is the best."""
    return option_count - option_index
