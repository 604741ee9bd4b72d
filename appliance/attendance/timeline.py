"""A session's timeline as numbers: status spells [{status, from, to}] in epoch ms (`to` null for
the current spell), what counts as work (every status but LUNCH), and minutes per status."""

from __future__ import annotations

MINUTE = 60_000
NOT_WORK = frozenset({"LUNCH"})  # lunch is the agent's own time; breaks, meetings and training are work
TOTAL_KEYS = {"ONLINE": "onlineMin", "LUNCH": "lunchMin", "BREAK": "breakMin", "MEETING": "meetingMin",
              "TRAINING": "trainingMin"}


def begin(status: str, at: int) -> list[dict]:
    return [{"status": status, "from": at, "to": None}]


def change(timeline: list[dict], status: str, at: int) -> list[dict]:
    """The timeline with the current spell closed at `at` and a new one begun (a copy: JSON columns
    are replaced, not mutated)."""
    closed = [dict(spell) for spell in timeline]
    closed[-1]["to"] = at
    return closed + [{"status": status, "from": at, "to": None}]


def close(timeline: list[dict], at: int) -> list[dict]:
    """The timeline ended at `at`: spells begun after it dropped, the last one cut or stretched to
    it (an admin's correction may move the end either way)."""
    kept = [dict(spell) for spell in timeline if spell["from"] < at] or [dict(timeline[0], **{"from": at})]
    kept[-1]["to"] = at
    return kept


def spells_until(timeline: list[dict], now: int) -> list[tuple[str, int, int]]:
    """(status, from, to) with the current spell running to `now`."""
    return [(spell["status"], spell["from"], spell["to"] if spell["to"] is not None else max(now, spell["from"]))
            for spell in timeline]


def worked_spans(timeline: list[dict], now: int) -> list[list[int]]:
    """Merged [from, to) stretches of work."""
    spans: list[list[int]] = []
    for status, start, end in spells_until(timeline, now):
        if status in NOT_WORK or end <= start:
            continue
        if spans and spans[-1][1] == start:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return spans


def totals(timeline: list[dict], now: int) -> dict:
    found = {key: 0 for key in ("workedMin", *TOTAL_KEYS.values())}
    worked = 0
    for status, start, end in spells_until(timeline, now):
        found[TOTAL_KEYS[status]] += end - start
        if status not in NOT_WORK:
            worked += end - start
    found = {key: value // MINUTE for key, value in found.items()}
    found["workedMin"] = worked // MINUTE
    return found
