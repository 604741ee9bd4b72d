"""Calendar arithmetic in the organization's time zone: days as instants (epoch ms), and the shift
a schedule expects on a day. Pure functions; zoneinfo does daylight saving (a day may last 23 or
25 hours, and a shift's 09:00 is found on that day's own offset)."""

from __future__ import annotations

import bisect
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DAY = timedelta(days=1)


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def midnight_ms(day: date, timezone: str) -> int:
    return ms(datetime.combine(day, time(0), tzinfo=zone(timezone)))


def date_of(instant_ms: int, timezone: str) -> date:
    return datetime.fromtimestamp(instant_ms / 1000, zone(timezone)).date()


def dates(first: date, last: date) -> list[date]:
    """Every date from first to last, both included."""
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def shift_intervals(schedule: dict | None, timezone: str, day: date) -> list[tuple[int, int]]:
    """The [start, end) instants a schedule expects work on `day` (none: a day off)."""
    if not schedule:
        return []
    tz = zone(timezone)
    found = []
    for interval in schedule.get(WEEKDAYS[day.weekday()]) or ():
        start = datetime.combine(day, time.fromisoformat(interval["open"]), tzinfo=tz)
        end = datetime.combine(day, time.fromisoformat(interval["close"]), tzinfo=tz)
        found.append((ms(start), ms(end)))
    return sorted(found)


class DayIndex:
    """The local midnights of a range of dates, so an instant's date is a bisect, not a time zone
    conversion (the reports cut thousands of spans)."""

    def __init__(self, first: date, last: date, timezone: str):
        self.first = first
        self.days = dates(first, last)
        self.bounds = [midnight_ms(day, timezone) for day in self.days] + [midnight_ms(last + DAY, timezone)]

    @property
    def start_ms(self) -> int:
        return self.bounds[0]

    @property
    def end_ms(self) -> int:
        return self.bounds[-1]

    def position(self, instant_ms: int) -> int:
        """The index of the day holding the instant (-1 before the range, len(days) after it)."""
        return bisect.bisect_right(self.bounds, instant_ms) - 1

    def split(self, start: int, end: int):
        """(day index, start, end) pieces of [start, end) cut at local midnights, inside the range."""
        position = max(self.position(start), 0)
        while position < len(self.days) and start < end:
            day_end = self.bounds[position + 1]
            piece_start, piece_end = max(start, self.bounds[position]), min(end, day_end)
            if piece_start < piece_end:
                yield position, piece_start, piece_end
            if end <= day_end:
                return
            position += 1


def overlap(spans, intervals) -> int:
    """Milliseconds of `spans` inside `intervals` (both lists of [start, end))."""
    total = 0
    for start, end in spans:
        for open_, close in intervals:
            if open_ < end and start < close:
                total += min(end, close) - max(start, open_)
    return total
