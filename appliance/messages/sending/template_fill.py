"""Simplified template sends: a template named by our id or by name (and language), its
placeholders filled from `variables`, checked against the synced template before anything is
stored, so the mistakes the network answers with 132000 (counts) and 132012 (header format) minutes
later, as a failed message, are a 400 naming what is missing instead.

`variables` is an array (positional body values) or an object:
`{body: [..] | {name: value}, header: {type: text|image|video|document, text | link | id}, buttons: [{index, value}]}`.

A filled template also keeps what the customer reads (`rendered`: the header, body and footer with
the values in place, the buttons' titles), so the thread shows it, the AI step reads it as the
business's last words and a search finds it; the sender leaves it out of what goes to the network
(`network_template`).
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from appliance.core.actor import OrgActor
from appliance.core.errors import NotFound
from appliance.messages.sending.compose import https_url, problem, string
from appliance.templates import service as templates_service
from appliance.templates.components import PLACEHOLDER, expected_variables
from appliance.templates.models import Template

VALUE_MAX = 1024  # a body parameter; the network's own limit for the whole body is 1024 too
HEADER_TEXT_MAX = 60


def resolve(session: Session, *, actor: OrgActor, waba_pk: str, template_id: str | None, name: str | None,
            language: str | None) -> Template:
    """The approved template a send refers to, of the sending number's business account. By name
    without a language: the first approved one of that name (the oldest)."""
    if template_id:
        try:
            template = templates_service.access_template(session, actor=actor, template_pk=template_id)
        except NotFound:  # a field of the body, not the address: 400 naming it
            raise problem("templateId", "No template with this id in this organization; list them with GET "
                          "/templates.", code="template_not_found") from None
        if template.waba_pk != waba_pk:
            raise problem("templateId", "This template belongs to another business account than the number's.",
                          code="template_not_found")
    else:
        query = select(Template).where(Template.organization_id == actor.organization_id, Template.waba_pk == waba_pk,
                                       Template.name == name)
        if language:
            query = query.where(Template.language == language)
        candidates = session.exec(query.order_by(Template.created_at, Template.id)).all()
        approved = [t for t in candidates if t.status == "APPROVED"]
        template = (approved or candidates or [None])[0]
        if template is None:
            where = f"{name} ({language})" if language else name
            raise problem("templateName", f"No template {where} in the number's business account; "
                          "sync templates (POST /templates/sync) if it was created elsewhere.", code="template_not_found")
    if template.status != "APPROVED":
        raise problem("templateId" if template_id else "templateName",
                      f"Template {template.name} ({template.language}) is {template.status}; only approved templates "
                      "can be sent.", code="template_not_approved")
    return template


def fill(template: Template, variables: Any) -> dict:
    """The network's template object (`{name, language: {code}, components}`)."""
    return filler(template)(variables)


def filler(template: Template):
    """`fill` for one template and many sets of variables (a broadcast's recipients): the
    template's placeholders are read once."""
    expected = expected_variables(template.components)
    return lambda variables: _filled(template, expected, variables)


def _filled(template: Template, expected: dict, variables: Any) -> dict:
    if variables is None:
        variables = []
    if isinstance(variables, list):
        variables = {"body": variables}
    if not isinstance(variables, dict):
        raise problem("variables", "An array of body values or an object {body, header, buttons}.")
    unknown = sorted(set(variables) - {"body", "header", "buttons"})
    if unknown:
        raise problem(f"variables.{unknown[0]}", "Unknown field; use body, header or buttons.")
    components = []
    header = _header(expected["header"], variables.get("header"))
    if header:
        components.append(header)
    body = _body(expected["body"], template.parameter_format == "NAMED", variables.get("body"))
    if body:
        components.append(body)
    components += _buttons(expected["buttons"], variables.get("buttons"))
    result: dict = {"name": template.name, "language": {"code": template.language}}
    if components:
        result["components"] = components
    result[RENDERED] = rendered(template, components)
    return result


RENDERED = "rendered"  # what the customer reads; ours, never sent (messages/text.py reads it by this name)


def _shown(parameter: dict) -> str:
    """What a body or header parameter reads as: its text, or a currency's or a date's fallback
    value (a native payload may carry anything: never more than a string comes out)."""
    kind = parameter.get("type")
    value = parameter.get("text") if kind == "text" else (parameter.get(kind) or {}).get("fallback_value") \
        if kind in ("currency", "date_time") and isinstance(parameter.get(kind), dict) else None
    return value if isinstance(value, str) else ""


def network_template(payload: dict) -> dict:
    """The template object as the network takes it (without what we keep for ourselves)."""
    return {key: value for key, value in payload.items() if key != RENDERED} if RENDERED in payload else payload


def rendered(template: Template, components: list[dict]) -> dict:
    """`{header, body, footer, buttons}` as the customer sees them: the template's texts with the
    filled components' values in place (`media`: the kind of a media header, e.g. "image")."""
    values = {"header": [], "body": {}}
    for component in components:
        parameters = component.get("parameters")
        parameters = [p for p in parameters if isinstance(p, dict)] if isinstance(parameters, list) else []
        if component.get("type") == "header":
            values["header"] = [_shown(p) for p in parameters if p.get("type") == "text"]
        elif component.get("type") == "body":
            names = expected_variables(template.components)["body"]
            values["body"] = {str(p.get("parameter_name") or (names[i] if i < len(names) else i + 1)): _shown(p)
                              for i, p in enumerate(parameters)}
    shown: dict = {"header": None, "body": "", "footer": None, "buttons": []}
    for component in template.components or []:
        kind = str(component.get("type", "")).upper()
        if kind == "HEADER":
            header_format = str(component.get("format", "TEXT")).upper()
            if header_format == "TEXT":
                given = iter(values["header"])
                shown["header"] = PLACEHOLDER.sub(lambda m: next(given, m.group(0)), component.get("text") or "")
            else:
                shown["media"] = header_format.lower()
        elif kind == "BODY":
            shown["body"] = PLACEHOLDER.sub(lambda m: values["body"].get(m.group(1), m.group(0)), component.get("text") or "")
        elif kind == "FOOTER":
            shown["footer"] = component.get("text") or None
        elif kind == "BUTTONS":
            shown["buttons"] = [b["text"] for b in component.get("buttons") or [] if b.get("text")]
    return shown


def _count(names: list[str]) -> str:
    shown = ", ".join("{{%s}}" % n for n in names)
    return f"{len(names)} value{'s' if len(names) != 1 else ''} ({shown})" if names else "no values"


def _body(names: list[str], named: bool, given: Any) -> dict | None:
    if given is None:
        given = []
    if isinstance(given, dict) and named:
        missing = [n for n in names if n not in given]
        extra = sorted(set(given) - set(names))
        if missing or extra:
            what = f"missing {', '.join(missing)}" if missing else f"unknown {', '.join(extra)}"
            raise problem("variables.body", f"The template's body expects {_count(names)}: {what}.",
                          code="template_variables_mismatch")
        given = [given[n] for n in names]
    if not isinstance(given, list):
        raise problem("variables.body", "An array of strings" + (" or an object {name: value}." if named else "."))
    if len(given) != len(names):
        raise problem("variables.body", f"The template's body expects {_count(names)}; {len(given)} given.",
                      code="template_variables_mismatch")
    if not names:
        return None
    parameters = []
    for i, (name, value) in enumerate(zip(names, given)):
        text = string(value, f"variables.body[{i}]", max_length=VALUE_MAX)
        parameter = {"type": "text", "text": text}
        if named:
            parameter["parameter_name"] = name
        parameters.append(parameter)
    return {"type": "body", "parameters": parameters}


def _header(expected: dict | None, given: Any) -> dict | None:
    if expected is None:
        if given is not None:
            raise problem("variables.header", "The template's header takes no value.", code="template_variables_mismatch")
        return None
    header_format = expected["format"]
    if header_format == "LOCATION":
        raise problem("variables.header", "Location headers are not supported by simplified sends; give the "
                      "network's template object as payload instead.", code="template_variables_mismatch")
    if not isinstance(given, dict):
        wanted = "{type: 'text', text}" if header_format == "TEXT" else "{type: '%s', link | id}" % header_format.lower()
        raise problem("variables.header", f"The template's header needs a value: {wanted}.",
                      code="template_variables_mismatch")
    kind = str(given.get("type", "")).upper()
    if kind != header_format:
        raise problem("variables.header.type", f"The template's header is {header_format}, not {kind or 'missing'}.",
                      code="template_variables_mismatch")
    if header_format == "TEXT":
        parameter = {"type": "text", "text": string(given.get("text"), "variables.header.text", max_length=HEADER_TEXT_MAX)}
    else:
        media_kind = header_format.lower()
        if given.get("id"):
            media = {"id": string(given["id"], "variables.header.id", max_length=100)}
        else:
            media = {"link": https_url(given.get("link"), "variables.header.link")}
        parameter = {"type": media_kind, media_kind: media}
    return {"type": "header", "parameters": [parameter]}


def _buttons(expected: list[tuple[int, str]], given: Any) -> list[dict]:
    if given is None:
        given = []
    if not isinstance(given, list):
        raise problem("variables.buttons", "An array of {index, value}.")
    values: dict[int, Any] = {}
    for i, item in enumerate(given):
        if not isinstance(item, dict) or not isinstance(item.get("index"), int) or isinstance(item.get("index"), bool):
            raise problem(f"variables.buttons[{i}]", "An object {index (integer), value}.")
        values[item["index"]] = item.get("value")
    wanted = dict(expected)
    for index in sorted(set(values) - set(wanted)):
        raise problem("variables.buttons", f"Button {index} takes no value (buttons that do: "
                      f"{', '.join(str(i) for i in sorted(wanted)) or 'none'}).", code="template_variables_mismatch")
    components = []
    for index, button_type in expected:
        if index not in values:
            raise problem("variables.buttons", f"Button {index} ({button_type}) needs a value.",
                          code="template_variables_mismatch")
        value = string(values[index], f"variables.buttons[{index}].value", max_length=VALUE_MAX if button_type == "URL" else 20)
        if button_type == "COPY_CODE":
            parameter = {"type": "coupon_code", "coupon_code": value}
        else:
            parameter = {"type": "text", "text": value}
        components.append({"type": "button", "sub_type": button_type.lower(), "index": str(index), "parameters": [parameter]})
    return components


def check_native(session: Session, waba_pk: str, payload: Any) -> dict:
    """A template object given as `payload` (the network's own shape): its outline only; the
    network checks it against the template. When the business account's synced templates know it,
    what the customer reads is kept beside it, as for a filled one."""
    if not isinstance(payload, dict):
        raise problem("payload", "The network's template object {name, language: {code}, components?}.")
    string(payload.get("name"), "payload.name", max_length=512)
    language = payload.get("language")
    if not isinstance(language, dict) or not isinstance(language.get("code"), str):
        raise problem("payload.language", "An object {code}.")
    if "components" in payload and not isinstance(payload["components"], list):
        raise problem("payload.components", "An array of components.")
    payload = network_template(payload)  # a caller's `rendered` is not ours to trust
    template = session.exec(select(Template).where(Template.waba_pk == waba_pk, Template.name == payload["name"],
                                                   Template.language == language["code"])).first()
    if template is not None:
        components = [c for c in payload.get("components") or [] if isinstance(c, dict)]
        payload = {**payload, RENDERED: rendered(template, components)}
    return payload
