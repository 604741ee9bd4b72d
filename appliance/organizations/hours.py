"""Opening hours as the organization set them (`businessHoursSchedule`, or a bot's own
`outOfHoursSchedule`): intervals per weekday in the organization's time zone, a missing day closed.

A schedule with no interval at all means "hours not set": never out of hours (the bot's health
says so when out-of-hours messages are on), rather than a bot that thinks the team never opens."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from babel.dates import format_datetime

from appliance.core.locales import customer_language

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def is_set(schedule: dict | None) -> bool:
    return bool(schedule) and any(schedule.get(day) for day in WEEKDAYS)


def _intervals(schedule: dict, weekday: int) -> list[tuple[time, time]]:
    return [(time.fromisoformat(i["open"]), time.fromisoformat(i["close"]))
            for i in schedule.get(WEEKDAYS[weekday]) or ()]


def is_open(schedule: dict | None, timezone: str, at: datetime) -> bool:
    if not is_set(schedule):
        return True
    local = at.astimezone(ZoneInfo(timezone))
    now = local.time().replace(tzinfo=None)
    return any(start <= now < end for start, end in _intervals(schedule, local.weekday()))


def next_opening(schedule: dict | None, timezone: str, at: datetime) -> datetime | None:
    """The next moment the team opens after `at` (None: hours not set). A closed period is named
    by its opening, so "once per closed period" compares these."""
    if not is_set(schedule):
        return None
    zone = ZoneInfo(timezone)
    local = at.astimezone(zone)
    for days in range(8):
        day = (local + timedelta(days=days)).date()
        for start, _ in sorted(_intervals(schedule, day.weekday())):
            opening = datetime.combine(day, start, tzinfo=zone)
            if opening > local:
                return opening.astimezone(at.tzinfo)
    return None


def describe(moment: datetime, timezone: str, country: str | None) -> str:
    """An opening as a customer reads it: "lunes 08:00" / "Monday 08:00", in the team's time (the
    day's name is CLDR's, through Babel)."""
    return format_datetime(moment, "EEEE HH:mm", tzinfo=ZoneInfo(timezone), locale=customer_language(country))


def open_spans(schedule: dict | None, timezone: str, day) -> list[tuple[datetime, datetime]]:
    """The day's opening intervals (a `date` in the organization's zone) as aware instants; none
    when the day is closed or hours are not set (an agenda offers no slot then)."""
    if not is_set(schedule):
        return []
    zone = ZoneInfo(timezone)
    return [(datetime.combine(day, start, zone), datetime.combine(day, end, zone))
            for start, end in _intervals(schedule, day.weekday()) if start < end]
