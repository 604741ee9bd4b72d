"""/users/me: the signed-in person's profile (changing the password is the auth domain's:
auth/api.py)."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_actor
from appliance.http.unit_of_work import db_session
from appliance.users import schemas, service

blp = Blueprint("users", __name__, url_prefix="/users", description="The signed-in person")


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, schemas.UserSchema)
    def get(self):
        """Read my profile"""
        return service.access_me(db_session(), actor=current_actor())

    @blp.arguments(schemas.UserUpdateSchema)
    @blp.response(200, schemas.UserSchema)
    def patch(self, body):
        """Update my name, language or time zone"""
        return service.do_update_profile(db_session(), actor=current_actor(), **body)
