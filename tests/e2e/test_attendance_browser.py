"""Issue 23 as a team would use it, in real browsers on a sandbox server: Beto, an agent, starts his
shift from the inbox's header, takes lunch; Olga, the owner, sees him live on the team board, adds
Colombia's holidays and grants him a leave; Beto comes back and ends his shift with a note; Olga
downloads the fortnight's report in payroll form. The report draws a month of hours (written into
the server's database as the benchmark's generator writes history); the shift control and the report
on a phone in Spanish. Screenshots for the docs."""

import csv
import io
import json
import sqlite3
from datetime import date, timedelta

from tests.attendance import history
from tests.e2e.test_console_browser import _phone_at
from tests.e2e.test_inbox_browser import _signed_in_page, _team, inbox_server  # noqa: F401  (the fixture)


def _a_month_of_history(data_dir, org_id: str, user_id: str) -> None:
    """Past shifts for the report's chart, straight into the server's database (WAL: it keeps serving)."""
    rows, today = [], date.today()
    for back in range(1, 31):
        day = today - timedelta(days=back)
        if day.weekday() < 5:
            rows.append(history.session_row(org_id, user_id, history.at(day, "08:%02d" % (back % 20), "UTC"),
                                            [("ONLINE", 200), ("LUNCH", 60), ("ONLINE", 230 + back % 40)]))
    with sqlite3.connect(data_dir / "appliance.db") as db:
        db.executemany(
            "INSERT INTO attendance_sessions (id, organization_id, user_id, status, started_ms, ended_ms, last_activity_ms,"
            " end_reason, note, timeline, worked_spans, totals, report, edited_by_user_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, NULL, NULL, ?)",
            [(r["id"], r["organization_id"], r["user_id"], r["status"], r["started_ms"], r["ended_ms"],
              r["last_activity_ms"], r["end_reason"], json.dumps(r["timeline"]), json.dumps(r["worked_spans"]),
              json.dumps(r["totals"]), r["updated_at"].strftime("%Y-%m-%d %H:%M:%S.%f")) for r in rows])


def test_an_agent_keeps_his_shift_and_the_owner_keeps_the_teams_day(inbox_server, tmp_path, mailbox, chromium,
                                                                     screenshot):
    base = inbox_server
    org, _, _ = _team(base, mailbox)
    org_id = org["id"]
    olga = _signed_in_page(chromium, base, "olga@sol.test")
    olga.goto(f"{base}/console/{org_id}/attendance")
    olga.wait_for_selector("text=Attendance is off")
    olga.click("a:has-text('Turn it on in the rules')")
    olga.check("input[name=enabled]")
    olga.check("input[name=require_jornada_for_inbox]")
    olga.click("form:has(input[name=enabled]) button[type=submit]")
    olga.wait_for_selector("text=Saved.")
    screenshot(olga, "console-attendance-rules")

    beto = _signed_in_page(chromium, base, "beto@sol.test")
    beto.wait_for_selector("text=Start your shift to reply")
    beto.click("button.shift-start")
    beto.wait_for_selector("details.shift summary .status-ONLINE")
    beto.click("details.shift summary")
    beto.click(".shift-statuses button[value=LUNCH]")
    beto.wait_for_selector("summary .status-LUNCH")

    olga.goto(f"{base}/console/{org_id}/attendance")
    row = olga.wait_for_selector("tr[data-agent=Beto]")
    assert "Lunch" in row.inner_text()
    beto_id = olga.get_attribute("tr[data-agent=Beto] a", "href").rsplit("/", 1)[1]
    screenshot(olga, "console-attendance-board")

    olga.click(".subnav a:has-text('Holidays and leaves')")
    olga.fill("input[name=country]", "CO")
    olga.click("button:has-text('Add holidays')")
    olga.wait_for_selector("text=Public holidays added.")
    assert olga.locator(".holiday-list li").count() >= 15  # Colombia has 18 public holidays
    olga.select_option("select[name=agent_user_id]", beto_id)
    olga.select_option("select[name=type]", "VACATION")
    start = date.today() + timedelta(days=20)
    olga.fill("input[name=start_date]", start.isoformat())
    olga.fill("input[name=end_date]", (start + timedelta(days=4)).isoformat())
    olga.fill("input[name=note]", "Cartagena")
    olga.click("button:has-text('Record leave')")
    olga.wait_for_selector("text=Leave recorded.")
    assert "Cartagena" in olga.inner_text(".leave-list")
    screenshot(olga, "console-attendance-calendar")

    beto.click("details.shift summary")
    beto.click(".shift-statuses button[value=ONLINE]")
    beto.wait_for_selector("summary .status-ONLINE")
    beto.click("details.shift summary")
    screenshot(beto, "inbox-shift", full_page=False)
    beto.fill(".shift-end textarea[name=note]", "Cerré 12 conversaciones")
    beto.click(".shift-end button[type=submit]")
    beto.wait_for_selector("button.shift-start")

    _a_month_of_history(tmp_path / "data", org_id, beto_id)
    olga.goto(f"{base}/console/{org_id}/attendance/report?preset=fortnight")
    olga.wait_for_selector(".chart svg rect.worked")
    with olga.expect_download() as download:
        olga.click("a:has-text('Download CSV')")
    payroll = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8-sig").read())))
    assert [r["agent"] for r in payroll] == ["Beto"] and float(payroll[0]["worked_hours"]) >= 0
    olga.goto(f"{base}/console/{org_id}/attendance/report?preset=last-30-days&compare=1")
    assert olga.locator(".chart rect.worked").count() == 30
    screenshot(olga, "console-attendance-report")

    phone = _phone_at(chromium, base, f"/inbox/{org_id}", email="beto@sol.test")
    phone.wait_for_selector("button.shift-start:has-text('Iniciar turno')")
    phone.click("button.shift-start")
    phone.click("details.shift summary")
    screenshot(phone, "inbox-shift-phone", full_page=False)
    phone = _phone_at(chromium, base, f"/console/{org_id}/attendance/report?preset=last-30-days")
    phone.wait_for_selector("text=Horas del equipo por día")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")  # nothing pushes it sideways
    screenshot(phone, "console-attendance-report-phone")
