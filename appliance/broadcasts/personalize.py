"""Per-recipient variables: a broadcast's `variables` are those of POST /messages, where any string
may hold placeholders filled from the recipient's contact:

- `{{contact.name}}`: the name the business gave them, else their WhatsApp profile name;
- `{{contact.phone}}`: their number, with `+`;
- `{{contact.attributes.X}}`: the contact attribute X (a CSV column of an import);
- any of them with a fallback after a bar: `{{contact.name|amigo}}`.

A placeholder that comes out empty without a fallback skips the recipient (`missing_variable`):
the network refuses empty parameters (132000), and a message reading "Hola ," is worse."""

from __future__ import annotations

import re
from typing import Any

from appliance.core.errors import Invalid

_PLACEHOLDER = re.compile(r"\{\{\s*contact\.([A-Za-z0-9_.\- ]+?)\s*(?:\|([^}]*))?\}\}")
_ANY_CONTACT = re.compile(r"\{\{\s*contact\.")
FIELDS = ("name", "phone")
SAMPLE = {"name": "Ana", "phone": "+573001234567"}


class MissingValue(Exception):
    """A placeholder with nothing to put in it for this contact."""

    def __init__(self, placeholder: str):
        super().__init__(placeholder)
        self.placeholder = placeholder


def check(variables: Any) -> None:
    """Every placeholder names a field we know (400 by the string's path otherwise)."""
    for path, text in _strings(variables, "variables"):
        for match in _PLACEHOLDER.finditer(text):
            field = match.group(1)
            if field not in FIELDS and not (field.startswith("attributes.") and len(field) > len("attributes.")):
                raise Invalid(f"{path}: unknown placeholder {match.group(0)}; use contact.name, contact.phone or "
                              "contact.attributes.<name>.", code="validation_failed",
                              errors={path: [f"Unknown placeholder {match.group(0)}."]})
        if _ANY_CONTACT.search(_PLACEHOLDER.sub("", text)):
            raise Invalid(f"{path}: a placeholder is not closed; write {{{{contact.name}}}}.", code="validation_failed",
                          errors={path: ["A placeholder is not closed."]})


def uses_contact(variables: Any) -> bool:
    return any(_PLACEHOLDER.search(text) for _, text in _strings(variables, ""))


def uses_attributes(variables: Any) -> bool:
    """Whether any placeholder reads a contact attribute (the runner then reads them)."""
    return any(match.group(1).startswith("attributes.")
               for _, text in _strings(variables, "") for match in _PLACEHOLDER.finditer(text))


def fill(variables: Any, *, name: str | None, wa_id: str | None, attributes: dict | None) -> Any:
    """The variables with this contact's values in; raises MissingValue."""
    def value(match: re.Match) -> str:
        field, fallback = match.group(1), match.group(2)
        if field == "name":
            found = name
        elif field == "phone":
            found = f"+{wa_id}" if wa_id else None
        else:
            found = (attributes or {}).get(field[len("attributes."):])
        found = "" if found is None else str(found).strip()
        if not found:
            if fallback is None or not fallback.strip():
                raise MissingValue(match.group(0))
            return fallback.strip()
        return found
    return _map(variables, lambda text: _PLACEHOLDER.sub(value, text))


def sample(variables: Any) -> Any:
    """The variables as a sample contact would have them: what creation checks against the template."""
    def value(match: re.Match) -> str:
        field = match.group(1)
        return SAMPLE.get(field) or match.group(2) or "Sample"
    return _map(variables, lambda text: _PLACEHOLDER.sub(value, text))


def _map(value: Any, change) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_map(item, change) for item in value]
    if isinstance(value, dict):
        return {key: _map(item, change) for key, item in value.items()}
    return value


def _strings(value: Any, path: str):
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}")
