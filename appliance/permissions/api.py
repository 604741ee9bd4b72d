from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.permissions import schemas, service

blp = Blueprint("permissions", __name__, url_prefix="/permissions", description="The permission catalog")


@blp.route("")
class Permissions(MethodView):
    @blp.response(200, schemas.PermissionSchema(many=True))
    def get(self):
        """List every permission a role or an API key can hold"""
        return service.list_permissions()
