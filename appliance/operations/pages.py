"""GET /metrics (APPLIANCE_METRICS=true; 404 otherwise): for a scraper on this machine, or an
administrator of the installation's bearer token from elsewhere (401/403 otherwise). Not an API
operation: Prometheus's text, not JSON."""

from flask import Blueprint, Response, abort, request

from appliance.auth import sessions as auth_sessions
from appliance.core import runtime
from appliance.core.errors import Unauthorized
from appliance.http.api import public
from appliance.http.unit_of_work import db_session
from appliance.installation import service as installation

metrics_pages = Blueprint("metrics_pages", __name__)
_LOOPBACK = frozenset({"127.0.0.1", "::1"})


@metrics_pages.get("/metrics")
@public  # checked here: a scraper on this machine needs no credentials
def prometheus_metrics():
    if not runtime.get().settings.metrics:
        abort(404)
    # Through the tunnel, the internet comes from loopback: installation/tunnel.through_tunnel gives
    # those requests their visitor's address, and this machine is trusted only without a tunnel.
    if request.remote_addr not in _LOOPBACK or request.headers.get("Cf-Connecting-IP"):
        scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("From another machine, /metrics needs an administrator's bearer token.",
                               code="authentication_required")
        actor = auth_sessions.authenticate_access_token(db_session(), token.strip())
        installation.check_admin(db_session(), actor.user_id, what="reads the metrics")
    from appliance.operations import metrics  # prometheus-client at the first scrape, not at start (issue 46)

    return Response(metrics.render(db_session()), content_type=metrics.CONTENT_TYPE)
