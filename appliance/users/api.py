"""/users/me: the signed-in person's profile and password."""

from flask.views import MethodView

from appliance.auth import service as auth_service
from appliance.http.api import Blueprint
from appliance.http.auth import client_ip, current_actor
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


@blp.route("/me/change-password")
class ChangePassword(MethodView):
    @blp.arguments(schemas.ChangePasswordSchema)
    @blp.response(204)
    def post(self, body):
        """Change my password; my other sessions are closed"""
        auth_service.check_change_password(db_session(), actor=current_actor(), ip=client_ip(), **body)
