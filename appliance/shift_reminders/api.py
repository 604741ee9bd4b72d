"""/organizations/{orgId}/shift-reminders: the organization's reminder choices and a test."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.shift_reminders import schemas, service

blp = Blueprint("shift_reminders", __name__, url_prefix="/organizations/<uuid:org_id>/shift-reminders",
                description="Shift reminders: before a shift starts and ends, and a missed start")


@blp.route("")
class Reminders(MethodView):
    @blp.requires("attendance:read")
    @blp.response(200, schemas.ShiftReminderSettingsSchema)
    def get(self, org_id):
        """The reminder settings (off until saved)"""
        return service.settings_of(db_session(), current_org_actor().organization_id)

    @blp.requires("attendance:manage")
    @blp.arguments(schemas.ShiftReminderPutSchema)
    @blp.response(200, schemas.ShiftReminderSettingsSchema)
    def put(self, body, org_id):
        """Change them (partial: channels and events merge key by key)"""
        return service.do_update(db_session(), actor=current_org_actor(), **body)


@blp.route("/test")
class Test(MethodView):
    @blp.requires("attendance:read")
    @blp.response(200, schemas.ShiftReminderSentSchema)
    def post(self, org_id):
        """A test reminder to me over the enabled channels"""
        return service.do_send_test(db_session(), actor=current_org_actor())
