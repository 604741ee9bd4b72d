"""Reading the console's forms into what the API's schemas take (wire names), so a page is checked
by the same rules as the route it stands for."""

from __future__ import annotations

from flask import request

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DEFAULT_HOURS = {day: [{"open": "09:00", "close": "18:00"}] for day in WEEKDAYS[:5]}


def text(name: str, limit: int = 500) -> str:
    return request.form.get(name, "")[:limit].strip()


def optional(name: str, limit: int = 500) -> str | None:
    return text(name, limit) or None


def business_hours() -> dict:
    """The weekly editor (a row per weekday: open?, from, to) as `businessHoursSchedule`."""
    schedule = {}
    for day in WEEKDAYS:
        if request.form.get(f"hours-{day}-open"):
            schedule[day] = [{"open": text(f"hours-{day}-from", 5), "close": text(f"hours-{day}-to", 5)}]
    return schedule


def organization_fields() -> dict:
    """The business's profile as OrganizationCreateSchema/UpdateSchema name it (the hours apart:
    `business_hours`); empty optional fields are left out, so the schema's defaults apply. Country
    and currency come from lists (a code each); what is posted is checked whole, never cut to fit."""
    fields = {"name": text("org_name", 200), "country": optional("country", 100),
              "currency": optional("currency", 100), "timezone": optional("timezone", 64)}
    return {key: value for key, value in fields.items() if value is not None}


def checked(name: str) -> list[str]:
    """The values of a group of checkboxes."""
    return [value[:100] for value in request.form.getlist(name)][:200]


def whole_number(value: str) -> int | str:
    """A form's count as a number when it is one (ASCII digits only: "²" is a digit to Python, not
    to int()); else as typed, for the schema to refuse naming the field."""
    return int(value) if value.isascii() and value.isdecimal() else value
