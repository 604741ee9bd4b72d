"""/organizations/{orgId}/agenda: appointments, free slots, the ICS feed's token and the Google
Calendar connection; /public/agenda/{token}/calendar.ics, the feed itself."""

from flask import Response
from flask.views import MethodView

from appliance.agenda import feed, provider, schemas, service, slots
from appliance.agenda.managing import MANAGE
from appliance.agenda.pages import begin_connect
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("agenda", __name__, url_prefix="/organizations/<uuid:org_id>/agenda",
                description="The agenda: appointments, free slots, the ICS feed and the calendar connection")
feed_blp = Blueprint("agenda_feed", __name__, url_prefix="/public/agenda",
                     description="The agenda's public ICS feed (by its secret token)")


@blp.route("/appointments")
class Appointments(MethodView):
    @blp.requires("calendar:read")
    @blp.arguments(schemas.AppointmentArgsSchema, location="query")
    @blp.response(200, schemas.AppointmentSchema(many=True))
    def get(self, args, org_id):
        """Appointments overlapping from..to, by start (at most 1,000)"""
        return service.list_appointments(db_session(), actor=current_org_actor(), **args)

    @blp.requires("calendar:write")
    @blp.arguments(schemas.AppointmentCreateSchema)
    @blp.response(201, schemas.AppointmentSchema)
    def post(self, body, org_id):
        """Book one (409 appointment_overlaps, or calendar_busy when the connected calendar is busy)"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/appointments/<uuid:appointment_id>")
class AppointmentById(MethodView):
    @blp.requires("calendar:read")
    @blp.response(200, schemas.AppointmentSchema)
    def get(self, org_id, appointment_id):
        """One appointment"""
        return service.access_appointment(db_session(), actor=current_org_actor(), appointment_id=str(appointment_id))

    @blp.requires("calendar:write")
    @blp.arguments(schemas.AppointmentPatchSchema(partial=True))
    @blp.response(200, schemas.AppointmentSchema)
    def patch(self, body, org_id, appointment_id):
        """Change it (partial); moving it checks overlaps again"""
        return service.do_update(db_session(), actor=current_org_actor(), appointment_id=str(appointment_id), **body)

    @blp.requires("calendar:write")
    @blp.response(204)
    def delete(self, org_id, appointment_id):
        """Delete it (its calendar event too)"""
        service.do_delete(db_session(), actor=current_org_actor(), appointment_id=str(appointment_id))


@blp.route("/slots")
class Slots(MethodView):
    @blp.requires("calendar:read")
    @blp.arguments(schemas.SlotsArgsSchema, location="query")
    @blp.response(200, schemas.SlotsSchema)
    def get(self, args, org_id):
        """Free slots of a day: business hours minus appointments minus the calendar's busy times"""
        return slots.free_slots(db_session(), actor=current_org_actor(), day=args["date"],
                                duration_min=args["duration_min"])


@blp.route("/feed-token")
class FeedToken(MethodView):
    @blp.requires(MANAGE)
    @blp.response(201, schemas.FeedTokenSchema)
    def post(self, org_id):
        """A new address for the ICS feed (the previous one stops working, and this one once its maker
        may no longer make it; 400 person_required for an API key)"""
        return feed.do_new_token(db_session(), actor=current_org_actor())


@blp.route("/calendar-provider/status")
class CalendarStatus(MethodView):
    @blp.requires("calendar:read")
    @blp.response(200, schemas.CalendarStatusSchema)
    def get(self, org_id):
        """Whether Google Calendar is connected, its account, switches, last sync and last error"""
        return provider.status(db_session(), actor=current_org_actor())


@blp.route("/calendar-provider/connect")
class CalendarConnect(MethodView):
    @blp.requires(MANAGE)
    @blp.response(200, schemas.CalendarConnectSchema)
    def get(self, org_id):
        """Google's consent URL, for the browser that asks (a cookie holds its state's secret; 409
        calendar_not_configured without an OAuth client, 400 person_required for an API key)"""
        return {"url": begin_connect(current_org_actor())}


@blp.route("/calendar-provider")
class CalendarProvider(MethodView):
    @blp.requires(MANAGE)
    @blp.arguments(schemas.CalendarPatchSchema)
    @blp.response(200, schemas.CalendarStatusSchema)
    def patch(self, body, org_id):
        """pushEnabled (appointments become events), blockBusyEnabled (busy times block slots)"""
        return provider.do_update(db_session(), actor=current_org_actor(), **body)

    @blp.requires(MANAGE)
    @blp.response(200, schemas.CalendarStatusSchema)
    def delete(self, org_id):
        """Disconnect (the tokens are forgotten)"""
        return provider.do_disconnect(db_session(), actor=current_org_actor())


@feed_blp.route("/<token>/calendar.ics")
class CalendarFeed(MethodView):
    @feed_blp.public
    @feed_blp.doc(responses={"200": {"description": "The feed", "content": {"text/calendar": {"schema": {"type": "string"}}}},
                             "404": {"description": "Not a feed's token (calendar_feed_not_found)"}})
    def get(self, token):
        """The appointments as iCalendar (30 days back, a year ahead)"""
        return Response(feed.calendar_of(db_session(), token), content_type="text/calendar; charset=utf-8",
                        headers={"Cache-Control": "private, max-age=300"})
