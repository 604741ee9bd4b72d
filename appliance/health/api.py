"""/health: public, no database session unless readiness asks for one."""

from flask.views import MethodView

from appliance.health import schemas, service
from appliance.http.api import Blueprint

blp = Blueprint("health", __name__, url_prefix="/health", description="Health checks")


@blp.route("")
class Health(MethodView):
    @blp.public
    @blp.response(200, schemas.HealthSchema)
    def get(self):
        """Service name, running version and time"""
        return service.summary()


@blp.route("/live")
class Live(MethodView):
    @blp.public
    @blp.response(200, schemas.LivenessSchema)
    def get(self):
        """Liveness: the process answers"""
        return service.liveness()


@blp.route("/ready")
class Ready(MethodView):
    @blp.public
    @blp.response(200, schemas.ReadinessSchema)
    @blp.alt_response(503, description="The database or the queue store is failing")
    def get(self):
        """Readiness: the database and the queue store work (503 if either fails)"""
        return service.readiness()
