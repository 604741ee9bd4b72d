"""What the console's attendance pages say: the team board, the day, the report, the calendar
(holidays and leaves), an agent's page and the rules."""

from appliance.core.i18n import Words, _l

_STATUSES_EN = {"ONLINE": "Online", "LUNCH": "Lunch", "BREAK": "Break", "MEETING": "Meeting", "TRAINING": "Training",
                "OFFLINE": "Off shift"}
_STATUSES_ES = {"ONLINE": "En línea", "LUNCH": "Almuerzo", "BREAK": "Pausa", "MEETING": "Reunión",
                "TRAINING": "Capacitación", "OFFLINE": "Fuera de turno"}

ATTENDANCE_TEXTS = Words("console_attendance", {
    "attendance_title": _l("Attendance"), "tab_board": _l("Team now"), "tab_day": _l("Day"), "tab_report": _l("Report"),
    "tab_calendar": _l("Holidays and leaves"), "tab_settings": _l("Rules"),
    "statuses": {
        "ONLINE": _l("Online"), "LUNCH": _l("Lunch"), "BREAK": _l("Break"), "MEETING": _l("Meeting"),
        "TRAINING": _l("Training"), "OFFLINE": _l("Off shift"),
    },
    "board_intro": _l("Who is working right now. Agents start, pause and end their shift from the inbox's header."),
    "off_note": _l("Attendance is off: agents cannot start shifts yet."), "turn_on": _l("Turn it on in the rules"),
    "agent": _l("Agent"), "status": _l("Status"), "since": _l("Since"), "worked_today": _l("Worked today"),
    "flags": _l("Today"), "late": _l("Late"), "absent": _l("Absent"), "on_leave": _l("On leave"),
    "holiday": _l("Holiday"), "overtime": _l("Overtime"), "grant_overtime": _l("Allow overtime today"),
    "withdraw_overtime": _l("Withdraw overtime"),
    "no_agents": _l("No agents yet. Invite your team from the Team page; agents appear here once they are members."),
    "refresh_note": _l("This page refreshes every minute."),
    "day_intro": _l("Each agent's day against the expected shift."), "date": _l("Date"), "show": _l("Show"),
    "present": _l("Present"), "late_min": _l("{n} min late"), "early_leave": _l("Left early"), "extra": _l("Extra"),
    "expected": _l("Expected"), "worked": _l("Worked"), "first_in": _l("In"), "last_out": _l("Out"),
    "in_progress": _l("working"), "no_shift": _l("no shift"), "hourly": _l("Hourly"),
    "report_intro": _l("Hours per agent in the period, counted by your rules, in payroll form."),
    "presets": {
        "fortnight": _l("This fortnight"), "previous-fortnight": _l("Previous fortnight"),
        "last-15-days": _l("Last 15 days"), "last-30-days": _l("Last 30 days"), "month": _l("This month"),
        "previous-month": _l("Previous month"), "payroll": _l("Payroll period"),
        "previous-payroll": _l("Previous payroll"),
    },
    "from": _l("From"), "to": _l("To"), "compare": _l("Compare with the period before"),
    "export_csv": _l("Download CSV (payroll)"), "worked_hours": _l("Worked"), "expected_hours": _l("Expected"),
    "overtime_hours": _l("Overtime"), "late_count": _l("Late days"), "absent_days": _l("Absences"),
    "leave_days": _l("Leave days"), "previous": _l("before"), "chart_title": _l("Team hours per day"),
    "chart_worked": _l("Worked"), "chart_expected": _l("Expected"), "no_report": _l("No agents to report on yet."),
    "hours_fmt": "{h} h {m:02d}",
    "calendar_intro": _l("Holidays are days off for everyone; leaves, for one agent. Both are left out of what is "
                         "expected."),
    "holidays": _l("Holidays"), "year": _l("Year"), "add_holiday": _l("Add holiday"), "name": _l("Name"),
    "recurring": _l("Every year"), "seed": _l("Add a country's public holidays"), "country": _l("Country (ISO code)"),
    "seed_button": _l("Add holidays"),
    "no_holidays": _l("No holidays this year. Add your country's public holidays with one click below."),
    "leaves": _l("Leaves"), "add_leave": _l("Record leave"), "type": _l("Type"), "start_date": _l("First day"),
    "end_date": _l("Last day (included)"), "note": _l("Note"), "no_leaves": _l("No leaves recorded in these months."),
    "leave_types": {
        "VACATION": _l("Vacation"), "SICK": _l("Sick leave"), "PERMISSION": _l("Permission"),
        "UNPAID": _l("Unpaid leave"), "OTHER": _l("Other"),
    },
    "delete": _l("Delete"), "save": _l("Save"), "days": _l("days"),
    "settings_intro": _l("How attendance counts. Changes apply to past days too (the views are computed from the "
                         "sessions)."),
    "enabled": _l("Attendance on (agents can start shifts in the inbox)"),
    "require_jornada_for_inbox": _l("Agents must start their shift to reply and take conversations"),
    "require_active_to_attend": _l("Only agents who are Online reply and receive conversations"),
    "auto_close_enabled": _l("Close a shift after a time without activity"),
    "inactivity_minutes": _l("Minutes without activity"),
    "close_at_shift_end": _l("Close shifts at the end of the schedule (unless overtime is allowed that day)"),
    "allow_overtime": _l("Supervisors may allow overtime"),
    "include_open_sessions": _l("Count shifts in progress in reports"),
    "late_grace_min": _l("Minutes of grace before late"),
    "early_leave_grace_min": _l("Minutes of grace before leaving early"),
    "absence_min_worked_min": _l("Minutes worked for a day not to count as absence"),
    "worked_counting": _l("What counts as worked"),
    "worked_countings": {
        "wall-clock": _l("Every minute worked"),
        "within-shift": _l("Only minutes in the schedule (plus allowed overtime)"),
    },
    "day_attribution": _l("Shifts across midnight"),
    "day_attributions": {"start-day": _l("Count on the day they start"), "split-by-day": _l("Split at midnight")},
    "payroll_period": _l("Payroll period"),
    "payroll_periods": {
        "semimonthly": _l("Fortnights (1-15, 16-end)"), "rolling-15": _l("Last 15 days"), "monthly": _l("Months"),
    },
    "work_modes": _l("Work modes"),
    "work_modes_intro": _l("Fixed agents work the business hours (or their own week); hourly agents have no "
                           "schedule, so they are never late or absent."),
    "work_mode": _l("Mode"), "modes": {"FIXED": _l("Fixed schedule"), "HOURLY": _l("Hourly")},
    "own_week": _l("own week"), "business_hours": _l("business hours"), "edit": _l("Edit"),
    "reminders": _l("Shift reminders"), "reminders_enabled": _l("Send shift reminders"), "channels": _l("Channels"),
    "channel_names": {"email": _l("E-mail"), "push": _l("Push notification"), "inbox": _l("Inbox banner")},
    "reminder_events": _l("When"),
    "event_names": {
        "shiftStart": _l("Before the shift starts"), "shiftEnd": _l("Before the shift ends"),
        "missedStart": _l("When a shift was not started"),
    },
    "start_lead": _l("Minutes before the start"), "end_lead": _l("Minutes before the end"),
    "send_test": _l("Send me a test"), "agent_intro": _l("{name}'s sessions and schedule."), "sessions": _l("Sessions"),
    "started": _l("Started"), "ended": _l("Ended"), "duration": _l("Worked"), "reason": _l("Closed by"),
    "reasons": {"USER": _l("the agent"), "INACTIVITY": _l("inactivity"), "SHIFT_END": _l("end of shift")},
    "correct_end": _l("Correct the end"), "end_at": _l("End at"), "end_now_hint": _l("Ends a forgotten shift too."),
    "no_sessions": _l("No sessions in these 30 days."), "own_schedule": _l("Own week (otherwise the business hours)"),
    "done": {
        "saved": _l("Saved."), "granted": _l("Overtime allowed for today."), "withdrawn": _l("Overtime withdrawn."),
        "holiday_added": _l("Holidays saved."), "seeded": _l("Public holidays added."), "deleted": _l("Deleted."),
        "leave_added": _l("Leave recorded."), "corrected": _l("The session's end was corrected."),
        "test_sent": _l("Test reminder sent to you."),
    },
})
