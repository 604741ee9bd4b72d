"""GET /installation/status (the installation's administrators)."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.unit_of_work import db_session
from appliance.http.auth import current_actor
from appliance.installation import service as installation
from appliance.operations import schemas, service

blp = Blueprint("installation_status", __name__, url_prefix="/installation",
                description="The installation's state (administrators only)")


@blp.route("/status")
class Status(MethodView):
    @blp.response(200, schemas.InstallationStatusSchema)
    def get(self):
        """The installation at a glance: version, database, disk, queue, backups, public address, HTTPS, tunnel, Meta"""
        installation.check_admin_actor(db_session(), current_actor())
        return service.read(db_session())
