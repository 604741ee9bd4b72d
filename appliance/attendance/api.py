"""/organizations/{orgId}/attendance: a person's shift (start, status, end, today, history) with
attendance:read; the team's views, rules, corrections, holidays and leaves with attendance:manage."""

from flask.views import MethodView

from appliance.attendance import calendar_days, rules, schemas, service, sessions
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("attendance", __name__, url_prefix="/organizations/<uuid:org_id>/attendance",
                description="Attendance: work sessions, statuses, schedules, holidays, leaves and reports")

READ, MANAGE = "attendance:read", "attendance:manage"


@blp.route("/me")
class Me(MethodView):
    @blp.requires(READ)
    @blp.response(200, schemas.AttendanceSessionSchema, nullable=True)
    def get(self, org_id):
        """My session in progress (null when none)"""
        return sessions.me(db_session(), actor=current_org_actor())


@blp.route("/start")
class Start(MethodView):
    @blp.requires(READ)
    @blp.response(201, schemas.AttendanceSessionSchema)
    def post(self, org_id):
        """Start my shift (the one in progress is answered if there is one)"""
        return sessions.do_start(db_session(), actor=current_org_actor())


@blp.route("/status")
class Status(MethodView):
    @blp.requires(READ)
    @blp.arguments(schemas.AttendanceStatusBodySchema)
    @blp.response(201, schemas.AttendanceSessionSchema)
    def post(self, body, org_id):
        """Change my status: ONLINE, LUNCH, BREAK, MEETING, TRAINING (emits agent.status_changed)"""
        return sessions.do_set_status(db_session(), actor=current_org_actor(), **body)


@blp.route("/end")
class End(MethodView):
    @blp.requires(READ)
    @blp.arguments(schemas.AttendanceEndBodySchema, required=False)  # the note is optional: no body at all
    @blp.response(201, schemas.AttendanceSessionSchema)
    def post(self, body, org_id):
        """End my shift with an optional note; the day's report is frozen on the session"""
        return sessions.do_end(db_session(), actor=current_org_actor(), **body)


@blp.route("/today")
class Today(MethodView):
    @blp.requires(READ)
    @blp.response(200, schemas.AttendanceTodaySchema)
    def get(self, org_id):
        """My day: live totals, timeline, metrics and the expected schedule"""
        return service.today(db_session(), actor=current_org_actor())


@blp.route("/settings")
class Settings(MethodView):
    @blp.requires(MANAGE)
    @blp.response(200, schemas.AttendanceSettingsSchema)
    def get(self, org_id):
        """The organization's attendance rules (the defaults until saved)"""
        return rules.settings_of(db_session(), current_org_actor().organization_id)

    @blp.requires(MANAGE)
    @blp.arguments(schemas.AttendanceSettingsPatchSchema)
    @blp.response(200, schemas.AttendanceSettingsSchema)
    def patch(self, body, org_id):
        """Change the rules (the views follow at once)"""
        return rules.do_update_settings(db_session(), actor=current_org_actor(), **body)


@blp.route("/overtime")
class Overtime(MethodView):
    @blp.requires(MANAGE)
    @blp.response(200, schemas.AttendanceOvertimeSchema(many=True))
    def get(self, org_id):
        """Agents with overtime granted today"""
        return rules.list_overtime(db_session(), actor=current_org_actor())


@blp.route("/overtime/<uuid:agent_id>")
class OvertimeGrant(MethodView):
    @blp.requires(MANAGE)
    @blp.arguments(schemas.AttendanceOvertimeBodySchema)
    @blp.response(201, schemas.AttendanceOvertimeSetSchema)
    def post(self, body, org_id, agent_id):
        """Grant or withdraw today's overtime for an agent"""
        return rules.do_set_overtime(db_session(), actor=current_org_actor(), agent_id=str(agent_id), **body)


@blp.route("/team-status")
class TeamStatus(MethodView):
    @blp.requires(MANAGE)
    @blp.response(200, schemas.AttendanceTeamStatusSchema)
    def get(self, org_id):
        """Every agent now: status, since when, today's minutes"""
        return service.team_status(db_session(), actor=current_org_actor())


@blp.route("/day")
class Day(MethodView):
    @blp.requires(MANAGE)
    @blp.arguments(schemas.AttendanceDayArgsSchema, location="query")
    @blp.response(200, schemas.AttendanceDaySchema)
    def get(self, args, org_id):
        """One day of the team: present, late, absent, extra per agent"""
        return service.day(db_session(), actor=current_org_actor(), on=args["date"])


@blp.route("/work-modes")
class WorkModes(MethodView):
    @blp.requires(MANAGE)
    @blp.response(200, schemas.AttendanceWorkModeSchema(many=True))
    def get(self, org_id):
        """Each member's work mode and expected week"""
        return rules.list_work_modes(db_session(), actor=current_org_actor())


@blp.route("/work-modes/<uuid:agent_id>")
class WorkModeById(MethodView):
    @blp.requires(MANAGE)
    @blp.arguments(schemas.AttendanceWorkModeBodySchema)
    @blp.response(200, schemas.AttendanceWorkModeSchema)
    def patch(self, body, org_id, agent_id):
        """FIXED (optionally on the agent's own week) or HOURLY; history follows"""
        return rules.do_set_work_mode(db_session(), actor=current_org_actor(), agent_id=str(agent_id), **body)


@blp.route("/period-presets")
class PeriodPresets(MethodView):
    @blp.requires(READ)
    @blp.response(200, schemas.AttendancePresetsSchema)
    def get(self, org_id):
        """Fortnight, last 15 and 30 days, month and the payroll period, in the organization's time zone"""
        return service.period_presets(db_session(), actor=current_org_actor())


@blp.route("/report")
class Report(MethodView):
    @blp.requires(MANAGE)
    @blp.arguments(schemas.AttendanceReportArgsSchema, location="query")
    @blp.response(200, schemas.AttendanceReportSchema)
    def get(self, args, org_id):
        """Hours per agent over a range (default the last 30 days); compare adds the range before"""
        return service.report(db_session(), actor=current_org_actor(), **args)


@blp.route("/sessions")
class MySessions(MethodView):
    @blp.requires(READ)
    @blp.arguments(schemas.AttendanceRangeArgsSchema, location="query")
    @blp.response(200, schemas.AttendanceSessionSchema(many=True))
    def get(self, args, org_id):
        """My sessions, newest first (default the last 30 days)"""
        return sessions.my_history(db_session(), actor=current_org_actor(), **args)


@blp.route("/sessions/agent/<uuid:agent_id>")
class AgentSessions(MethodView):
    @blp.requires(MANAGE)
    @blp.arguments(schemas.AttendanceRangeArgsSchema, location="query")
    @blp.response(200, schemas.AttendanceSessionSchema(many=True))
    def get(self, args, org_id, agent_id):
        """An agent's sessions, newest first (default the last 30 days)"""
        return sessions.agent_history(db_session(), actor=current_org_actor(), agent_id=str(agent_id), **args)


@blp.route("/sessions/<uuid:session_id>")
class SessionById(MethodView):
    @blp.requires(MANAGE)
    @blp.arguments(schemas.AttendanceSessionPatchSchema)
    @blp.response(200, schemas.AttendanceSessionSchema)
    def patch(self, body, org_id, session_id):
        """Correct when a session ended (or end a forgotten one); totals recomputed"""
        return sessions.do_correct_end(db_session(), actor=current_org_actor(), session_id=str(session_id), **body)

    @blp.requires(MANAGE)
    @blp.response(200, schemas.AttendanceSessionSchema)
    def delete(self, org_id, session_id):
        """Delete a session"""
        return sessions.do_delete(db_session(), actor=current_org_actor(), session_id=str(session_id))


@blp.route("/holidays")
class Holidays(MethodView):
    @blp.requires(READ)
    @blp.arguments(schemas.HolidayYearArgsSchema, location="query")
    @blp.response(200, schemas.HolidaySchema(many=True))
    def get(self, args, org_id):
        """The year's holidays (default this year), recurring ones included"""
        return calendar_days.list_holidays(db_session(), actor=current_org_actor(), **args)

    @blp.requires(MANAGE)
    @blp.arguments(schemas.HolidayBodySchema)
    @blp.response(201, schemas.HolidaySchema(many=True))
    def post(self, body, org_id):
        """Create or update many holidays at once (one per date)"""
        return calendar_days.do_put_holidays(db_session(), actor=current_org_actor(), **body)


@blp.route("/holidays/seed")
class HolidaySeed(MethodView):
    @blp.requires(MANAGE)
    @blp.arguments(schemas.HolidaySeedArgsSchema, location="query")
    @blp.response(201, schemas.HolidaySchema(many=True))
    def post(self, args, org_id):
        """A country's public holidays for a year, from the holidays package's data (default CO)"""
        return calendar_days.do_seed(db_session(), actor=current_org_actor(), **args)


@blp.route("/holidays/<uuid:holiday_id>")
class HolidayById(MethodView):
    @blp.requires(MANAGE)
    @blp.response(200, schemas.HolidaySchema)
    def delete(self, org_id, holiday_id):
        """Delete a holiday"""
        return calendar_days.do_delete_holiday(db_session(), actor=current_org_actor(), holiday_id=str(holiday_id))


@blp.route("/leaves")
class Leaves(MethodView):
    @blp.requires(READ)
    @blp.arguments(schemas.LeaveArgsSchema, location="query")
    @blp.response(200, schemas.LeaveSchema(many=True))
    def get(self, args, org_id):
        """Leaves touching a range (an agent without attendance:manage sees their own)"""
        return calendar_days.list_leaves(db_session(), actor=current_org_actor(), **args)

    @blp.requires(MANAGE)
    @blp.arguments(schemas.LeaveBodySchema)
    @blp.response(201, schemas.LeaveSchema)
    def post(self, body, org_id):
        """Record a leave: VACATION, SICK, PERMISSION, UNPAID or OTHER, dates inclusive; overlaps 409"""
        return calendar_days.do_create_leave(db_session(), actor=current_org_actor(), **body)


@blp.route("/leaves/<uuid:leave_id>")
class LeaveById(MethodView):
    @blp.requires(MANAGE)
    @blp.response(200, schemas.LeaveSchema)
    def delete(self, org_id, leave_id):
        """Delete a leave"""
        return calendar_days.do_delete_leave(db_session(), actor=current_org_actor(), leave_id=str(leave_id))
