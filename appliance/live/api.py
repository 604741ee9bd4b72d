"""GET /organizations/{orgId}/events: live updates of the inbox as Server-Sent Events."""

from flask import Response, request
from flask.views import MethodView

from appliance.core import events, runtime
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.live import feed

blp = Blueprint("live", __name__, url_prefix="/organizations/<uuid:org_id>/events",
                description="Live updates of the inbox (Server-Sent Events)")


def event_stream_response(actor, last_event_id: str | None, names=events.LIVE) -> Response:
    """The stream of `names` as an HTTP answer (the API's route, the inbox's and the console's
    pages share it)."""
    settings = runtime.get().settings
    chunks = feed.open_stream(runtime.get().db, actor=actor, last_event_id=feed.parse_last_event_id(last_event_id),
                              heartbeat_seconds=settings.live_heartbeat_seconds,
                              limit=feed.stream_limit(settings.threads), names=names,
                              client_gone=request.environ.get("waitress.client_disconnected", lambda: False))
    return Response(chunks, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@blp.route("")
class Events(MethodView):
    @blp.requires("conversations:read")
    @blp.doc(responses={"200": {
        "description": "`id`, `event` (the event's name) and `data` (`{id, type, createdAt, organizationId, data}`) "
                       "per event; `: heartbeat` comments while quiet",
        "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
    def get(self, org_id):
        """Stream conversation.* and message.* events as they happen (resume with `Last-Event-ID`)"""
        return event_stream_response(current_org_actor(),
                                     request.headers.get("Last-Event-ID", request.args.get("lastEventId")))
