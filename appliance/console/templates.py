"""Templates: the list with each one's review status, sync from the network, and a creation form
(header, body, footer, buttons, example values) with a preview drawn like a WhatsApp message.

The form is made into the network's component objects here, then checked by the API's schema and
by the same component rules the API applies (`templates.components`); an error on a component is
shown next to the field it came from."""

from __future__ import annotations

import re

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_catalog import CATALOG
from appliance.core.errors import AppError, Invalid
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.templates import service as templates_service
from appliance.templates import api as templates_api
from appliance.templates.components import PLACEHOLDER, check_components, placeholders
from appliance.templates.schemas import CATEGORIES, STATUSES, TemplateCreateSchema
from appliance.wabas import service as wabas_service

_LIST, _NEW, _ONE, _ACTIVE = ("console/templates.html", "console/template_new.html", "console/template.html",
                              "console_pages.templates")
# The statuses a person filters by; the rest (DELETED, ARCHIVED...) show under "all".
FILTERS = ("APPROVED", "PENDING", "REJECTED", "PAUSED")
# The network has yet to decide: a page showing one follows `template.status` live (console/live.py).
IN_REVIEW = frozenset({"PENDING", "IN_APPEAL"})
# Language codes people use most here first; the field takes any the network knows.
LANGUAGES = ("es", "es_MX", "es_AR", "es_ES", "en", "en_US", "en_GB", "pt_BR", "pt_PT", "fr", "it", "de")
PAGE_SIZE = 100


def preview_of(components: list[dict]) -> dict:
    """What the customer's phone shows: each text with its placeholders filled by the examples
    given (a placeholder without one stays as written)."""
    shown: dict = {"header": None, "header_format": None, "body": "", "footer": None, "buttons": []}
    for component in components:
        kind = str(component.get("type", "")).upper()
        example = component.get("example") if isinstance(component.get("example"), dict) else {}
        if kind == "HEADER":
            shown["header_format"] = str(component.get("format", "TEXT")).upper()
            shown["header"] = _filled(component.get("text", ""), example, "header")
        elif kind == "BODY":
            shown["body"] = _filled(component.get("text", ""), example, "body")
        elif kind == "FOOTER":
            shown["footer"] = str(component.get("text", ""))
        elif kind == "BUTTONS":
            shown["buttons"] = [{"type": str(b.get("type", "")).upper(), "text": str(b.get("text") or "")}
                                for b in component.get("buttons", []) if isinstance(b, dict)]
    return shown


def _filled(text: str, example: dict, prefix: str) -> str:
    text = str(text or "")
    named = {item.get("param_name"): str(item.get("example", "")) for item in example.get(f"{prefix}_text_named_params")
             or [] if isinstance(item, dict)}
    given = example.get(f"{prefix}_text") or []
    positional = given[0] if given and isinstance(given[0], list) else given
    values = dict(named) or {str(i + 1): str(v) for i, v in enumerate(positional)}
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1)) or m.group(0), text)


# Reading the form ----------------------------------------------------------------------------------

def _examples(field: str) -> list[str]:
    return [line.strip()[:200] for line in request.form.get(field, "").splitlines() if line.strip()][:20]


def _example(kind: str, names: list[str], values: list[str], parameter_format: str) -> dict:
    if parameter_format == "NAMED":
        return {f"{kind}_text_named_params": [{"param_name": n, "example": v} for n, v in zip(names, values)]}
    return {"header_text": values} if kind == "header" else {"body_text": [values]}


def components_from_form() -> tuple[list[dict], str, list[str]]:
    """The form as the network's components, the parameter format it implies ({{1}} or
    {{name}}), and each component's form field (to put an error by it)."""
    header, body, footer = forms.text("header_text", 100), request.form.get("body_text", "")[:1100].strip(), \
        forms.text("footer_text", 100)
    names = placeholders(header) + placeholders(body)
    parameter_format = "NAMED" if any(not name.isdigit() for name in names) else "POSITIONAL"
    components, fields = [], []
    if header:
        component = {"type": "HEADER", "format": "TEXT", "text": header}
        if placeholders(header):
            component["example"] = _example("header", placeholders(header), [forms.text("header_example", 200)],
                                             parameter_format)
        components.append(component), fields.append("header")
    body_component = {"type": "BODY", "text": body}
    if placeholders(body):
        body_component["example"] = _example("body", placeholders(body), _examples("body_examples"), parameter_format)
    components.append(body_component), fields.append("body")
    if footer:
        components.append({"type": "FOOTER", "text": footer}), fields.append("footer")
    buttons = [{"type": "QUICK_REPLY", "text": text[:40]} for text in
               (value.strip() for value in request.form.getlist("quick_reply")[:3]) if text]
    if forms.text("url_button_text", 40) or forms.text("url_button_url", 2000):
        buttons.append({"type": "URL", "text": forms.text("url_button_text", 40),
                        "url": forms.text("url_button_url", 2000)})
    if buttons:
        components.append({"type": "BUTTONS", "buttons": buttons}), fields.append("buttons")
    return components, parameter_format, fields


_COMPONENT_PATH = re.compile(r"^components\[(\d+)\](?:\.(\w+))?")


def _by_field(errors: dict, fields: list[str]) -> dict:
    """`components[1].example` → `body_examples`, `components[0].text` → `header_text`..."""
    placed: dict[str, list[str]] = {}
    for path, messages in errors.items():
        found = _COMPONENT_PATH.match(path)
        if found and int(found.group(1)) < len(fields):
            kind = fields[int(found.group(1))]
            field = "buttons" if kind == "buttons" else f"{kind}_examples" if found.group(2) == "example" else \
                f"{kind}_text"
        else:
            field = "body_text" if path == "components" else path
        placed.setdefault(field, []).extend(messages)
    return placed


# Pages ------------------------------------------------------------------------------------------

@console_pages.get("/console/<uuid:org_id>/templates")
@performs(templates_api.Templates.get)
@signed_in_page
def templates(org_id):
    actor = org_actor(org_id)
    status = request.args.get("status") if request.args.get("status") in STATUSES else None
    page = templates_service.list_templates(db_session(), actor=actor, take=PAGE_SIZE,
                                            cursor=request.args.get("cursor") or None, status=status)
    return render(_LIST, actor, _ACTIVE, texts=CATALOG, templates=page.items, next_cursor=page.next_cursor,
                  chosen_status=status, filters=FILTERS, done=request.args.get("done"),
                  in_review=any(found.status in IN_REVIEW for found in page.items),
                  synced={key: request.args.get(key, type=int) for key in ("templates", "added", "changed", "removed")})


@console_pages.post("/console/<uuid:org_id>/templates/sync")
@performs(templates_api.TemplateSync.post)
@signed_in_page
def templates_sync(org_id):
    actor = org_actor(org_id)
    summary = templates_service.check_sync(db_session(), actor=actor)
    return back(_ACTIVE, "synced_with_errors" if summary.errors else "synced", org_id=actor.organization_id,
                templates=summary.templates, added=summary.added, changed=summary.changed, removed=summary.removed)


def _new_page(actor, error: AppError | None = None):
    components, _, _ = components_from_form()
    accounts = wabas_service.list_wabas(db_session(), actor=actor)
    values = {key: request.form.get(key, "")[:1100] for key in (
        "business_account_id", "name", "language", "category", "header_text", "header_example", "body_text",
        "body_examples", "footer_text", "url_button_text", "url_button_url")}
    values["quick_reply"] = (request.form.getlist("quick_reply")[:3] + ["", "", ""])[:3]
    values["category"] = values["category"] or "UTILITY"
    return render(_NEW, actor, _ACTIVE, error=error, texts=CATALOG, accounts=accounts, values=values,
                  categories=CATEGORIES, languages=LANGUAGES, preview=preview_of(components))


@console_pages.get("/console/<uuid:org_id>/templates/new")
@performs(templates_api.Templates.post)  # the form that makes one
@signed_in_page
def template_new(org_id):
    return _new_page(org_actor(org_id))


def _checked(components: list[dict], parameter_format: str, fields: list[str]) -> dict:
    """The form by the API's schema and by the component rules at once, so every mistake shows
    together (the schema alone would hide the components' until its own were mended)."""
    errors: dict = {}
    try:
        checked = check_form(TemplateCreateSchema(), {
            "businessAccountId": forms.text("business_account_id", 40), "name": forms.text("name", 512),
            "language": forms.text("language", 15), "category": forms.text("category", 20),
            "components": components, "parameterFormat": parameter_format})
    except Invalid as error:
        errors.update(error.errors or {})
    try:
        check_components(components, parameter_format)
    except Invalid as error:
        errors.update(_by_field(error.errors or {}, fields))
    if errors:
        raise Invalid("Check the marked fields.", errors=errors)
    return checked


@console_pages.post("/console/<uuid:org_id>/templates/new")
@performs(templates_api.Templates.post)
@signed_in_page
def template_create(org_id):
    """Sent to the network for review; the list then shows it PENDING until the network decides."""
    actor = org_actor(org_id)
    components, parameter_format, fields = components_from_form()
    try:
        checked = _checked(components, parameter_format, fields)
        created = templates_service.check_create(db_session(), actor=actor, **checked)
    except AppError as error:
        error.errors = _by_field(error.errors or {}, fields)
        return _new_page(actor, error)
    return back("console_pages.template", "template_created", org_id=actor.organization_id, template_pk=created.id)


@console_pages.get("/console/<uuid:org_id>/templates/<uuid:template_pk>")
@performs(templates_api.TemplateById.get)
@signed_in_page
def template(org_id, template_pk):
    actor = org_actor(org_id)
    found = templates_service.access_template(db_session(), actor=actor, template_pk=str(template_pk))
    return render(_ONE, actor, _ACTIVE, texts=CATALOG, message_template=found, preview=preview_of(found.components or []),
                  done=request.args.get("done"), in_review=found.status in IN_REVIEW)
