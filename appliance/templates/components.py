"""The rules of a template's components, checked before a creation reaches the network (Meta's
answer to a malformed template is a terse `(#100) Invalid parameter`), and the placeholders a
template expects, which sending checks variables against.

Facts: ../shared/design/cloud-api.md 3.2. Positional placeholders are `{{1}}`, `{{2}}`... in order
from 1; named ones are `{{order_id}}` (lower-case letters, digits, underscores); a template uses one
kind. A component with placeholders needs example values.
"""

from __future__ import annotations

import re

from appliance.core.errors import Invalid

PLACEHOLDER = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")
_NAMED = re.compile(r"^[a-z][a-z0-9_]{0,99}$")
HEADER_FORMATS = ("TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION")
BUTTON_TYPES = ("QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE", "FLOW", "OTP", "CATALOG", "MPM")
_LIMITS = {"HEADER": 60, "BODY": 1024, "FOOTER": 60}


def placeholders(text: str) -> list[str]:
    return PLACEHOLDER.findall(text or "")


def _problem(path: str, message: str) -> Invalid:
    return Invalid("The template's components are not valid.", code="invalid_template", errors={path: [message]})


def check_components(components: list[dict], parameter_format: str) -> None:
    """Raise `Invalid` (code `invalid_template`) naming the first component that the network
    would refuse."""
    seen: dict[str, int] = {}
    for i, component in enumerate(components):
        where = f"components[{i}]"
        kind = str(component.get("type", "")).upper()
        if kind not in ("HEADER", "BODY", "FOOTER", "BUTTONS"):
            raise _problem(f"{where}.type", "Must be HEADER, BODY, FOOTER or BUTTONS.")
        if kind in seen:
            raise _problem(f"{where}.type", f"A template has at most one {kind}.")
        seen[kind] = i
        if kind == "BUTTONS":
            _check_buttons(component, where)
            continue
        if kind == "HEADER":
            header_format = str(component.get("format", "TEXT")).upper()
            if header_format not in HEADER_FORMATS:
                raise _problem(f"{where}.format", f"Must be one of {', '.join(HEADER_FORMATS)}.")
            if header_format != "TEXT":
                continue
        text = component.get("text")
        if not isinstance(text, str) or not text.strip():
            raise _problem(f"{where}.text", "Required.")
        if len(text) > _LIMITS[kind]:
            raise _problem(f"{where}.text", f"At most {_LIMITS[kind]} characters.")
        names = placeholders(text)
        if kind == "FOOTER" and names:
            raise _problem(f"{where}.text", "A footer cannot have placeholders.")
        if kind == "HEADER" and len(names) > 1:
            raise _problem(f"{where}.text", "A text header has at most one placeholder.")
        _check_placeholders(names, parameter_format, f"{where}.text")
        if names:
            _check_example(component, kind, names, parameter_format, where)
    if "BODY" not in seen:
        raise _problem("components", "A template needs a BODY.")


def _check_placeholders(names: list[str], parameter_format: str, where: str) -> None:
    if parameter_format == "NAMED":
        for name in names:
            if not _NAMED.match(name):
                raise _problem(where, f"'{{{{{name}}}}}' is not a named placeholder (lower-case letters, digits, _).")
        return
    if names != [str(n) for n in range(1, len(names) + 1)]:
        raise _problem(where, "Positional placeholders must be {{1}}, {{2}}, ... in order.")


def _check_example(component: dict, kind: str, names: list[str], parameter_format: str, where: str) -> None:
    example = component.get("example") if isinstance(component.get("example"), dict) else {}
    prefix = "header" if kind == "HEADER" else "body"
    if parameter_format == "NAMED":
        given = example.get(f"{prefix}_text_named_params")
        values = {item.get("param_name") for item in given or [] if isinstance(item, dict)}
        if set(names) - values:
            raise _problem(f"{where}.example", f"Needs {prefix}_text_named_params for every placeholder.")
        return
    given = example.get(f"{prefix}_text")
    values = given[0] if kind == "BODY" and isinstance(given, list) and given and isinstance(given[0], list) else given
    if not isinstance(values, list) or len(values) != len(names):
        raise _problem(f"{where}.example", f"Needs {prefix}_text with one example per placeholder ({len(names)}).")


def _check_buttons(component: dict, where: str) -> None:
    buttons = component.get("buttons")
    if not isinstance(buttons, list) or not 1 <= len(buttons) <= 10:
        raise _problem(f"{where}.buttons", "Between 1 and 10 buttons.")
    for j, button in enumerate(buttons):
        if not isinstance(button, dict) or str(button.get("type", "")).upper() not in BUTTON_TYPES:
            raise _problem(f"{where}.buttons[{j}].type", f"Must be one of {', '.join(BUTTON_TYPES)}.")
        text = button.get("text")
        if button["type"].upper() not in ("OTP", "CATALOG", "MPM", "COPY_CODE") and (not isinstance(text, str) or not 0 < len(text) <= 25):
            raise _problem(f"{where}.buttons[{j}].text", "Between 1 and 25 characters.")
        if button["type"].upper() == "URL" and not str(button.get("url", "")).startswith("https://"):
            raise _problem(f"{where}.buttons[{j}].url", "An https:// address.")


def expected_variables(template_components: list[dict]) -> dict:
    """What a send must fill: `{header: {format, count}, body: [names], buttons: [(index, type)]}`
    (buttons listed only where the network takes a value: URL with a placeholder, COPY_CODE, FLOW)."""
    expected: dict = {"header": None, "body": [], "buttons": []}
    for component in template_components:
        kind = str(component.get("type", "")).upper()
        if kind == "HEADER":
            header_format = str(component.get("format", "TEXT")).upper()
            count = len(placeholders(component.get("text", ""))) if header_format == "TEXT" else 1
            expected["header"] = {"format": header_format, "count": count} if count else None
        elif kind == "BODY":
            expected["body"] = placeholders(component.get("text", ""))
        elif kind == "BUTTONS":
            for index, button in enumerate(component.get("buttons", [])):
                button_type = str(button.get("type", "")).upper()
                if (button_type == "URL" and placeholders(button.get("url", ""))) or button_type == "COPY_CODE":
                    expected["buttons"].append((index, button_type))
    return expected
