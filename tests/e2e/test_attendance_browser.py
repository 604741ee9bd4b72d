"""Issue 23 in a real browser on a sandbox server: the owner turns attendance on, adds Colombia's
holidays, starts a shift from the inbox's header, goes to lunch and back, and finds it on the team
board; the report draws a month of hours (written into the server's database as the benchmark's
generator writes history) with its chart and CSV; the inbox's shift control and the report on a
phone in Spanish. Screenshots for the docs."""

import json
import sqlite3
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from tests.attendance import history
from tests.e2e.test_console_browser import _browser, _first_run, _phone_at


def _a_month_of_history(data_dir, org_id: str, user_id: str) -> None:
    """Past shifts for the report's chart, straight into the server's database (WAL: it keeps serving)."""
    rows, today = [], date.today()
    for back in range(1, 31):
        day = today - timedelta(days=back)
        if day.weekday() < 5:
            rows.append(history.session_row(org_id, user_id, history.at(day, "08:%02d" % (back % 20), "America/Bogota"),
                                            [("ONLINE", 200), ("LUNCH", 60), ("ONLINE", 230 + back % 40)]))
    with sqlite3.connect(data_dir / "appliance.db") as db:
        db.executemany(
            "INSERT INTO attendance_sessions (id, organization_id, user_id, status, started_ms, ended_ms, last_activity_ms,"
            " end_reason, note, timeline, worked_spans, totals, report, edited_by_user_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, NULL, NULL, ?)",
            [(r["id"], r["organization_id"], r["user_id"], r["status"], r["started_ms"], r["ended_ms"],
              r["last_activity_ms"], r["end_reason"], json.dumps(r["timeline"]), json.dumps(r["worked_spans"]),
              json.dumps(r["totals"]), r["updated_at"].strftime("%Y-%m-%d %H:%M:%S.%f")) for r in rows])


def test_an_owner_keeps_the_teams_day(sandbox_server, tmp_path, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    olga.click("nav a:has-text('Attendance')")
    olga.wait_for_selector("text=Attendance is off")
    olga.click("a:has-text('Turn it on in the rules')")
    olga.check("input[name=enabled]")
    olga.check("input[name=require_jornada_for_inbox]")
    olga.click("form:has(input[name=enabled]) button[type=submit]")
    olga.wait_for_selector("text=Saved.")
    screenshot(olga, "console-attendance-rules")
    olga.click(".subnav a:has-text('Holidays and leaves')")
    olga.click("button:has-text('Add holidays')")
    olga.wait_for_selector("text=Public holidays added.")
    assert olga.locator(".holiday-list li").count() >= 15  # Colombia has 18 public holidays

    olga.goto(f"{base}/inbox/{org_id}")
    olga.wait_for_selector("button.shift-start")  # an owner is not held by the rule, but may clock in
    olga.click("button.shift-start")
    olga.wait_for_selector("details.shift summary")
    olga.click("details.shift summary")
    olga.click(".shift-statuses button[value=LUNCH]")
    olga.wait_for_selector(".shift .status-LUNCH")
    olga.click("details.shift summary")
    olga.click(".shift-statuses button[value=ONLINE]")
    olga.wait_for_selector("summary .status-ONLINE")
    olga.click("details.shift summary")
    screenshot(olga, "inbox-shift", full_page=False)

    olga.goto(f"{base}/console/{org_id}/attendance")
    row = olga.wait_for_selector("tr[data-agent=Olga]")
    assert "Online" in row.inner_text()
    user_id = olga.get_attribute("tr[data-agent=Olga] a", "href").rsplit("/", 1)[1]
    screenshot(olga, "console-attendance-board")

    _a_month_of_history(tmp_path / "data", org_id, user_id)
    olga.goto(f"{base}/console/{org_id}/attendance/report?preset=last-30-days&compare=1")
    olga.wait_for_selector(".chart svg rect.worked")
    assert olga.locator(".chart rect.worked").count() == 30
    screenshot(olga, "console-attendance-report")
    with olga.expect_download() as download:
        olga.click("a:has-text('Download CSV')")
    assert download.value.suggested_filename.startswith("attendance-")

    phone = _phone_at(chromium, base, f"/inbox/{org_id}")
    phone.wait_for_selector("details.shift summary:has-text('En línea')")
    phone.click("details.shift summary")
    screenshot(phone, "inbox-shift-phone", full_page=False)
    phone.goto(f"{base}/console/{org_id}/attendance/report?preset=last-30-days")
    phone.wait_for_selector("text=Horas del equipo por día")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")  # nothing pushes it sideways
    screenshot(phone, "console-attendance-report-phone")
