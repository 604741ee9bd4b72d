"""The one CSV writer of every export (a campaign's recipients, the attendance report in payroll form).

A spreadsheet opening a CSV runs a cell that starts with `=`, `+`, `-` or `@` as a formula (and a
tab or carriage return before them is skipped by some), so text chosen by someone else (a
customer's or an agent's name: `=HYPERLINK(...)`) could fetch, link or compute on the reader's
machine. Such a cell is written after an apostrophe, which makes it text; numbers stay numbers
(`-3`, `+573001234567`, `7.50`: a number cannot be a formula). With a byte-order mark first, so
spreadsheets read the accents right."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from decimal import Decimal

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
BOM = "\ufeff"


def inert(value) -> object:
    """A cell a spreadsheet will not run: None as empty, numbers as they are, text that starts
    like a formula after an apostrophe."""
    if value is None:
        return ""
    if isinstance(value, (int, float, Decimal)):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_text(header: Iterable, rows: Iterable[Iterable]) -> str:
    """The whole file: the header, then every row, each cell through `inert`."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([inert(cell) for cell in header])
    for row in rows:
        writer.writerow([inert(cell) for cell in row])
    return BOM + out.getvalue()
