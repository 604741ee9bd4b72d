"""One way to render a page: its layout's context, the reader's language, the domain's words, and a
failed form shown on the page it came from.

A domain's page words are a `Words` (its `texts.py`, core/i18n.py): declared once in English, read
in the reader's language from the gettext catalogs. An optional `errors` dict maps problem codes to
what the page says instead of the error's own detail. Layouts (web/templates/layouts) read `t`
(the page's words), `layout` (their own), `lang`; templates also have Babel's `_`, `ngettext`,
`format_date`, `format_datetime`, `format_number` and `format_percent`, in the reader's language.
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from babel import Locale, dates, numbers
from flask import has_request_context, render_template, request, session
from flask_babel import Babel, Domain, get_locale
from jinja2 import pass_context
from marshmallow import Schema, ValidationError

from appliance.core import i18n
from appliance.core.i18n import ByLanguage, CombinedWords, Words, _l
from appliance.core.errors import AppError, Invalid
from appliance.core.schema import flat_messages
from appliance.core.locales import DEFAULT_LOCALE, LOCALES


def _other_language(lang: str) -> str:
    """The layouts' switch offers the other language the appliance speaks."""
    return next(other for other in LOCALES if other != lang)


LAYOUT_TEXTS = Words("layouts", {
    "brand": "Appliance", "inbox": _l("Inbox"), "sign_out": _l("Sign out"),
    # the switch names the other language in its own words ("Español" on an English page)
    "language": ByLanguage(lambda lang: Locale.parse(_other_language(lang)).display_name.capitalize()),
    "other_language": ByLanguage(_other_language),
    "sandbox": _l("Sandbox · simulated WhatsApp network, no real messages"), "navigation": _l("Main"),
    "times_in": _l("Times in {zone}"),
})


def page_language() -> str:
    """The language the reader chose on a page (kept in the session), else their browser's."""
    chosen = session.get("lang")
    if chosen in LOCALES:
        return chosen
    return request.accept_languages.best_match(LOCALES) or DEFAULT_LOCALE


def choose_language(lang: str) -> None:
    if lang in LOCALES:
        session["lang"] = lang


def _language_of_the_request() -> str | None:
    locale = get_locale()  # Flask-Babel keeps it for the request: the selector runs once
    return str(locale) if locale is not None else None


class _Catalogs(Domain):
    """Flask-Babel's gettext (the templates' `_` and `ngettext`) reads core/i18n's catalogs: one source."""

    def get_translations(self):
        return i18n.translations(i18n.current_language())


class _Babel(Babel):
    @property
    def domain_instance(self):
        return _CATALOGS


_CATALOGS = _Catalogs()


def init_app(app) -> None:
    """Flask-Babel on the app, choosing the page's language; the templates' date and number helpers."""
    _Babel(app, locale_selector=lambda: page_language() if has_request_context() else None,
           default_locale=DEFAULT_LOCALE)
    i18n.read_language_from(_language_of_the_request)
    app.jinja_env.globals.update(format_date=format_date, format_datetime=format_datetime, format_number=format_number,
                                  format_percent=format_percent)


def render_page(template: str, texts: Words | CombinedWords, /, *, status: int = 200, **context):
    """The page `template` in the reader's language, with `t` its texts; (html, status). The first
    two are positional only, so a context may name its own `template` (a message template)."""
    lang = page_language()
    return render_template(template, lang=lang, t=texts[lang], layout=LAYOUT_TEXTS[lang], **context), status


UTC = ZoneInfo("UTC")


@pass_context
def org_time(context, moment: datetime | float | None, pattern: str = "%Y-%m-%d %H:%M", named: bool = False) -> str:
    """`{{ moment|org_time }}`: a time as the organization's clock shows it, on every page (the one
    helper; the inbox's script formats with the same zone, which the page hands it). The zone is
    the page's `zone`: the console and the inbox put the organization's there. `named` adds the
    zone's name where people compare times ("14:05 (America/Bogota)"); a page outside an
    organization shows UTC and always says so. Takes a datetime (naive ones are UTC, as stored)
    or epoch milliseconds (attendance's instants); None is an empty text."""
    if moment is None:
        return ""
    zone = context.get("zone")
    named, zone = named or zone is None, zone or UTC
    if isinstance(moment, (int, float)):
        moment = datetime.fromtimestamp(moment / 1000, timezone.utc)
    elif moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    shown = moment.astimezone(zone).strftime(pattern)
    return f"{shown} ({zone.key})" if named else shown


@pass_context
def format_datetime(context, moment: datetime, format: str = "medium") -> str:
    """`{{ format_datetime(moment, "EEEE d MMMM, HH:mm") }}`: Babel's, in the reader's language, on the
    organization's clock (the page's `zone`, else UTC) like `org_time`."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return dates.format_datetime(moment, format, tzinfo=context.get("zone") or UTC, locale=i18n.current_language())


def format_date(day, format: str = "medium") -> str:
    """`{{ format_date(day, "EEE d") }}`: a date (a day of the organization's calendar) in the reader's language."""
    return dates.format_date(day, format, locale=i18n.current_language())


def format_number(number) -> str:
    """`{{ format_number(1234) }}`: "1,234" in English, "1234" / "12.345" in Spanish (CLDR's grouping)."""
    return numbers.format_decimal(number, locale=i18n.current_language())


def format_percent(share: float) -> str:
    """`{{ format_percent(0.9) }}`: "90%" in English, "90 %" in Spanish."""
    return numbers.format_percent(share, locale=i18n.current_language())


def error_text(texts: Words | CombinedWords, error: AppError) -> str:
    """What a page says for a failure: the domain's wording for its code, else the error's detail."""
    return texts[page_language()].get("errors", {}).get(error.code, error.detail)


def render_failure(template: str, texts: Words | CombinedWords, error: AppError, **context):
    """The form's page again, with what went wrong (`error`, and `field_errors` by field) and the
    error's status, so the unit of work rolls back what the attempt wrote."""
    return render_page(template, texts, status=error.status, error=error_text(texts, error),
                       field_errors=error.errors or {}, **context)


def check_form(schema: Schema, data: dict) -> dict:
    """A page's form checked by the API's own schema (same rules, same limits); the loaded values,
    or Invalid with the messages by wire field name, which `render_failure` puts by the fields."""
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise Invalid("Check the marked fields.", errors=flat_messages(exc.messages)) from None


def check_forms(*checks: tuple[Schema, dict]) -> list[dict]:
    """Several parts of one form, each (schema, data), checked together: every field's message at
    once, not the first part's only."""
    loaded, errors = [], {}
    for schema, data in checks:
        try:
            loaded.append(check_form(schema, data))
        except Invalid as error:
            errors.update(error.errors or {})
    if errors:
        raise Invalid("Check the marked fields.", errors=errors)
    return loaded
