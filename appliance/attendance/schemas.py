"""Attendance on the wire: instants are epoch ms, dates YYYY-MM-DD in the organization's zone."""

from marshmallow import fields, validate

from appliance.attendance.models import LEAVE_TYPES, STATUSES, WORK_MODES
from appliance.core.schema import ApiSchema, IsoDateTime, Text, UuidString
from appliance.organizations.schemas import BusinessHoursSchema

COUNTINGS = ("wall-clock", "within-shift")
ATTRIBUTIONS = ("start-day", "split-by-day")
PAYROLL_PERIODS = ("semimonthly", "rolling-15", "monthly")
_MINUTES = {"description": "Minutes"}


class AttendanceSpellSchema(ApiSchema):
    status = fields.String()
    from_ = fields.Integer(data_key="from", attribute="from", metadata={"description": "Epoch ms"})
    to = fields.Integer(allow_none=True, metadata={"description": "Epoch ms; null for the current spell"})


class AttendanceTotalsSchema(ApiSchema):
    """Minutes per status, read from the keys timeline.totals writes (a session's own `totals`)."""

    worked_min = fields.Integer(attribute="workedMin", metadata={"description": "Every status but LUNCH"})
    online_min = fields.Integer(attribute="onlineMin")
    lunch_min = fields.Integer(attribute="lunchMin")
    break_min = fields.Integer(attribute="breakMin")
    meeting_min = fields.Integer(attribute="meetingMin")
    training_min = fields.Integer(attribute="trainingMin")


class AttendanceSessionSchema(ApiSchema):
    id = fields.String()
    agent_user_id = fields.String(attribute="user_id")
    status = fields.String(metadata={"description": "ONLINE, LUNCH, BREAK, MEETING, TRAINING (in progress) or the last one"})
    in_progress = fields.Function(lambda row: row.ended_ms is None)
    started_at = fields.Integer(attribute="started_ms", metadata={"description": "Epoch ms"})
    ended_at = fields.Integer(attribute="ended_ms", allow_none=True, metadata={"description": "Epoch ms; null in progress"})
    end_reason = fields.String(allow_none=True, metadata={"description": "USER, INACTIVITY or SHIFT_END"})
    note = fields.String(allow_none=True)
    timeline = fields.List(fields.Nested(AttendanceSpellSchema))
    totals = fields.Dict(metadata={"description": "workedMin, onlineMin, lunchMin, breakMin, meetingMin, trainingMin"})
    report = fields.Dict(allow_none=True, metadata={"description": "The day as it stood when the session ended"})
    edited_by_user_id = fields.String(allow_none=True)


class AttendanceStatusBodySchema(ApiSchema):
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))


class AttendanceEndBodySchema(ApiSchema):
    note = Text(max_length=2000, multiline=True, allow_none=True)


class AttendanceRangeArgsSchema(ApiSchema):
    from_ = fields.Date(data_key="from", attribute="first", metadata={
        "description": "YYYY-MM-DD (default: 29 days before to); not after to (400 invalid_range), and the range "
                       "covers at most 366 days (400 range_too_long)"})
    to = fields.Date(attribute="last", metadata={"description": "YYYY-MM-DD, included (default: today)"})


class AttendanceReportArgsSchema(AttendanceRangeArgsSchema):
    compare = fields.Boolean(load_default=False)


class AttendanceDayArgsSchema(ApiSchema):
    date = fields.Date(required=True, metadata={"description": "YYYY-MM-DD"})


class AttendanceSessionPatchSchema(ApiSchema):
    ended_at = fields.Integer(required=True, validate=validate.Range(min=0), metadata={"description": "Epoch ms"})


class AttendanceSettingsSchema(ApiSchema):
    enabled = fields.Boolean()
    auto_close_enabled = fields.Boolean()
    close_at_shift_end = fields.Boolean()
    require_jornada_for_inbox = fields.Boolean()
    allow_overtime = fields.Boolean()
    require_active_to_attend = fields.Boolean()
    include_open_sessions = fields.Boolean()
    inactivity_minutes = fields.Integer(validate=validate.Range(min=5, max=720))
    late_grace_min = fields.Integer(validate=validate.Range(min=0, max=240))
    early_leave_grace_min = fields.Integer(validate=validate.Range(min=0, max=240))
    absence_min_worked_min = fields.Integer(validate=validate.Range(min=0, max=1440))
    worked_counting = fields.String(validate=validate.OneOf(COUNTINGS))
    day_attribution = fields.String(validate=validate.OneOf(ATTRIBUTIONS))
    payroll_period = fields.String(validate=validate.OneOf(PAYROLL_PERIODS))
    celebrations = fields.Raw(allow_none=True, metadata={"description": "Anything (birthdays, anniversaries...); at most 16 KB of JSON"})
    enabled_at = IsoDateTime(dump_only=True, allow_none=True, metadata={
        "description": "When attendance was last turned on; no day before it is expected of anyone (null: never)"})
    updated_at = IsoDateTime(dump_only=True, allow_none=True)


class AttendanceSettingsPatchSchema(AttendanceSettingsSchema):
    min_fields = 1


class AttendanceOvertimeBodySchema(ApiSchema):
    enabled = fields.Boolean(required=True)


class AttendanceOvertimeSchema(ApiSchema):
    agent_user_id = fields.String()
    name = fields.String(allow_none=True)
    date = fields.String()
    granted_by_user_id = fields.String(allow_none=True)
    created_at = IsoDateTime()


class AttendanceOvertimeSetSchema(ApiSchema):
    agent_user_id = fields.String()
    date = fields.String()
    enabled = fields.Boolean()


class AttendanceWorkModeBodySchema(ApiSchema):
    work_mode = fields.String(required=True, validate=validate.OneOf(WORK_MODES))
    schedule = fields.Nested(BusinessHoursSchema, allow_none=True, metadata={
        "description": "FIXED only: the agent's own week (businessHoursSchedule's shape); null or absent: the organization's hours"})


class AttendanceWorkModeSchema(ApiSchema):
    agent_user_id = fields.String()
    name = fields.String()
    work_mode = fields.String()
    schedule = fields.Dict(allow_none=True)
    own_schedule = fields.Boolean()


def _intervals(pairs) -> list[dict]:
    return [{"from": start, "to": end} for start, end in pairs]


class AttendanceDayFactsSchema(ApiSchema):
    date = fields.String()
    expected_min = fields.Integer(metadata=_MINUTES)
    worked_min = fields.Integer(metadata={"description": "As workedCounting counts"})
    wall_min = fields.Integer(metadata={"description": "Every worked minute"})
    in_shift_min = fields.Integer()
    extra_min = fields.Integer(metadata={"description": "Worked outside the shift"})
    overtime_min = fields.Integer(metadata={"description": "Extra minutes on a day with overtime granted"})
    present = fields.Boolean()
    in_progress = fields.Boolean()
    late = fields.Boolean()
    late_minutes = fields.Integer()
    early_leave = fields.Boolean()
    absent = fields.Boolean()
    on_leave = fields.String(allow_none=True, metadata={"description": "The leave's type, or null"})
    holiday = fields.String(allow_none=True, metadata={"description": "The holiday's name, or null"})
    overtime = fields.Boolean()
    first_start_at = fields.Integer(allow_none=True)
    last_end_at = fields.Integer(allow_none=True)
    shift = fields.Function(lambda day: _intervals(day["shift"]), metadata={
        "description": "The expected shift's intervals [{from, to}] (epoch ms); empty: no shift that day"})


class _Metrics(AttendanceDayFactsSchema):
    remaining_min = fields.Integer(allow_none=True, metadata={"description": "Of the shift still ahead; null without one"})


class _Schedule(ApiSchema):
    work_mode = fields.String()
    intervals = fields.Function(lambda schedule: _intervals(schedule["intervals"]),
                                metadata={"description": "[{from, to}] epoch ms"})
    holiday = fields.String(allow_none=True)
    on_leave = fields.String(allow_none=True)


class AttendanceTodaySchema(ApiSchema):
    date = fields.String()
    timezone = fields.String()
    session = fields.Nested(AttendanceSessionSchema, allow_none=True)
    sessions = fields.List(fields.Nested(AttendanceSessionSchema))
    totals = fields.Nested(AttendanceTotalsSchema)
    timeline = fields.List(fields.Nested(AttendanceSpellSchema))
    metrics = fields.Nested(_Metrics)
    schedule = fields.Nested(_Schedule)


class _TeamAgent(ApiSchema):
    agent_user_id = fields.String()
    name = fields.String()
    status = fields.String(metadata={"description": "OFFLINE or the status of the session in progress"})
    since = fields.Integer(allow_none=True)
    session_id = fields.String(allow_none=True)
    worked_min = fields.Integer()
    late = fields.Boolean()
    absent = fields.Boolean()
    on_leave = fields.String(allow_none=True)
    holiday = fields.String(allow_none=True)
    overtime = fields.Boolean()


class AttendanceTeamStatusSchema(ApiSchema):
    date = fields.String()
    agents = fields.List(fields.Nested(_TeamAgent))
    counts = fields.Dict(keys=fields.String(), values=fields.Integer())


class _DayAgent(AttendanceDayFactsSchema):
    agent_user_id = fields.String()
    name = fields.String()
    work_mode = fields.String()


class _DaySummary(ApiSchema):
    present = fields.Integer()
    late = fields.Integer()
    absent = fields.Integer()
    on_leave = fields.Integer()
    extra_min = fields.Integer()


class AttendanceDaySchema(ApiSchema):
    date = fields.String()
    timezone = fields.String()
    agents = fields.List(fields.Nested(_DayAgent))
    summary = fields.Nested(_DaySummary)


class _Sums(ApiSchema):
    worked_min = fields.Integer()
    expected_min = fields.Integer()
    late_count = fields.Integer()
    absent_days = fields.Integer()
    overtime_min = fields.Integer()
    leave_days = fields.Integer()
    extra_min = fields.Integer()
    early_leave_count = fields.Integer()
    present_days = fields.Integer()
    holiday_days = fields.Integer()


class _ReportAgent(_Sums):
    agent_user_id = fields.String()
    name = fields.String()
    email = fields.String()
    work_mode = fields.String()
    previous = fields.Nested(_Sums)


class _Previous(ApiSchema):
    from_ = fields.String(data_key="from", attribute="from")
    to = fields.String()
    totals = fields.Nested(_Sums)


class _DailyPoint(ApiSchema):
    date = fields.String()
    worked_min = fields.Integer()
    expected_min = fields.Integer()


class _ReportRules(ApiSchema):
    worked_counting = fields.String()
    day_attribution = fields.String()
    include_open_sessions = fields.Boolean()


class AttendanceReportSchema(ApiSchema):
    from_ = fields.String(data_key="from", attribute="from")
    to = fields.String()
    timezone = fields.String()
    settings = fields.Nested(_ReportRules)
    agents = fields.List(fields.Nested(_ReportAgent))
    totals = fields.Nested(_Sums)
    days = fields.List(fields.Nested(_DailyPoint))
    previous = fields.Nested(_Previous)


class _Preset(ApiSchema):
    key = fields.String(metadata={"description": "fortnight, previous-fortnight, last-15-days, last-30-days, month, "
                                                "previous-month, payroll, previous-payroll"})
    from_ = fields.String(data_key="from", attribute="from")
    to = fields.String()


class AttendancePresetsSchema(ApiSchema):
    today = fields.String()
    timezone = fields.String()
    payroll_period = fields.String()
    presets = fields.List(fields.Nested(_Preset))


class HolidayItemSchema(ApiSchema):
    date = fields.Date(required=True, metadata={"description": "YYYY-MM-DD"})
    name = Text(required=True, min_length=1, max_length=120)
    recurring = fields.Boolean(load_default=False, metadata={"description": "Every year on this month and day"})


class HolidayBodySchema(ApiSchema):
    items = fields.List(fields.Nested(HolidayItemSchema), required=True, validate=validate.Length(min=1, max=400))


class HolidaySchema(ApiSchema):
    id = fields.String()
    date = fields.String()
    name = fields.String()
    recurring = fields.Boolean()
    created_at = IsoDateTime()


class HolidayYearArgsSchema(ApiSchema):
    year = fields.Integer(validate=validate.Range(min=1970, max=2100))


class HolidaySeedArgsSchema(ApiSchema):
    year = fields.Integer(required=True, validate=validate.Range(min=1970, max=2100))
    country = fields.String(load_default="CO", validate=validate.Regexp(r"^[A-Z]{2}$", error="Use a 2-letter ISO code."))


class LeaveArgsSchema(ApiSchema):
    from_ = fields.Date(data_key="from", attribute="first", metadata={"description": "YYYY-MM-DD: leaves ending on or after it"})
    to = fields.Date(attribute="last", metadata={"description": "YYYY-MM-DD: leaves starting on or before it"})
    agent_id = UuidString()


class LeaveBodySchema(ApiSchema):
    agent_user_id = UuidString(required=True)
    type = fields.String(required=True, validate=validate.OneOf(LEAVE_TYPES))
    start_date = fields.Date(required=True)
    end_date = fields.Date(required=True, metadata={"description": "Inclusive; the start date for one day"})
    note = Text(max_length=500, allow_none=True)


class LeaveSchema(ApiSchema):
    id = fields.String()
    agent_user_id = fields.String(attribute="user_id")
    type = fields.String()
    start_date = fields.String()
    end_date = fields.String()
    note = fields.String(allow_none=True)
    created_by_user_id = fields.String(allow_none=True)
    created_at = IsoDateTime()
