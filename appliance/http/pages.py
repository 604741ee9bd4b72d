"""One way to render a page: its layout's context, the reader's language, the domain's texts, and a
failed form shown on the page it came from.

A domain's page texts are a `Texts` (its `texts.py`): one dict per language of core/locales.py,
with the same keys in each (tests/http/test_pages.py checks every registered `Texts`). An
optional `errors` dict maps problem codes to what the page says instead of the error's own detail.
Layouts (web/templates/layouts) read `t` (the page's texts), `layout` (their own), `lang`.
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from flask import render_template, request, session
from jinja2 import pass_context
from marshmallow import Schema, ValidationError

from appliance.core.errors import AppError, Invalid
from appliance.core.schema import flat_messages
from appliance.core.locales import DEFAULT_LOCALE, LOCALES


class Texts:
    """A domain's texts in every language: `texts[lang]` is one language's dict."""

    registry: list["Texts"] = []

    def __init__(self, name: str, **by_locale: dict):
        self.name, self.by_locale = name, by_locale
        Texts.registry.append(self)

    def __getitem__(self, lang: str) -> dict:
        return self.by_locale[lang]

    def __or__(self, other: "Texts") -> "CombinedTexts":
        """A section's texts over its area's (the console's navigation and a page's own words)."""
        return CombinedTexts((self, other))


class CombinedTexts:
    """Several domains' texts read as one: later ones win, and their `done` and `errors` dicts are
    merged rather than replaced."""

    def __init__(self, parts: tuple):
        self.parts, self._cache = parts, {}

    def __or__(self, other: Texts) -> "CombinedTexts":
        return CombinedTexts((*self.parts, other))

    def __getitem__(self, lang: str) -> dict:
        if lang not in self._cache:
            merged: dict = {}
            for part in self.parts:
                for key, value in part[lang].items():
                    merged[key] = {**merged.get(key, {}), **value} if key in ("done", "errors") else value
            self._cache[lang] = merged
        return self._cache[lang]


LAYOUT_TEXTS = Texts(
    "layouts",
    en={"brand": "Appliance", "inbox": "Inbox", "sign_out": "Sign out", "language": "Español",
        "other_language": "es", "sandbox": "Sandbox · simulated WhatsApp network, no real messages",
        "navigation": "Main", "times_in": "Times in {zone}"},
    es={"brand": "Appliance", "inbox": "Bandeja", "sign_out": "Cerrar sesión", "language": "English",
        "other_language": "en", "sandbox": "Sandbox · red de WhatsApp simulada, sin mensajes reales",
        "navigation": "Principal", "times_in": "Horas en {zone}"},
)


def page_language() -> str:
    """The language the reader chose on a page (kept in the session), else their browser's."""
    chosen = session.get("lang")
    if chosen in LOCALES:
        return chosen
    return request.accept_languages.best_match(LOCALES) or DEFAULT_LOCALE


def choose_language(lang: str) -> None:
    if lang in LOCALES:
        session["lang"] = lang


def render_page(template: str, texts: Texts | CombinedTexts, /, *, status: int = 200, **context):
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


def error_text(texts: Texts | CombinedTexts, error: AppError) -> str:
    """What a page says for a failure: the domain's wording for its code, else the error's detail."""
    return texts[page_language()].get("errors", {}).get(error.code, error.detail)


def render_failure(template: str, texts: Texts | CombinedTexts, error: AppError, **context):
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
