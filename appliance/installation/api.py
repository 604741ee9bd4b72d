"""/installation/...: what belongs to the whole installation, for its administrators (403
`not_installation_admin` for anyone else, API keys and applications included)."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_actor
from appliance.http.unit_of_work import db_session
from appliance.installation import https, public_address, schemas, service

blp = Blueprint("installation", __name__, url_prefix="/installation",
                description="The installation: its public address and state (administrators only)")


def _admin_id() -> str:
    return service.check_admin_actor(db_session(), current_actor())


@blp.route("/public-address")
class PublicAddress(MethodView):
    @blp.response(200, schemas.PublicAddressSchema)
    def get(self):
        """The public address every link starts from, where it comes from, and its problems"""
        _admin_id()
        return public_address.state(db_session())

    @blp.arguments(schemas.PublicAddressUpdateSchema)
    @blp.response(200, schemas.PublicAddressSchema)
    def put(self, body):
        """Keep a public address (409 set_by_environment while APPLIANCE_BASE_URL decides)"""
        public_address.look_up(body["base_url"])  # before the unit's first statement: a lookup may take 2 s
        saved = public_address.check_save(db_session(), user_id=_admin_id(), address=body["base_url"])
        https.address_changed()
        return saved

