"""/organizations/{orgId}/api-keys"""

from flask.views import MethodView

from appliance.api_keys import schemas, service
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("api_keys", __name__, url_prefix="/organizations/<uuid:org_id>/api-keys",
                description="API keys for server-to-server access")


@blp.route("")
class ApiKeys(MethodView):
    @blp.requires("api-keys:read")
    @blp.response(200, schemas.ApiKeySchema(many=True))
    def get(self, org_id):
        """List the organization's live keys (never their secrets)"""
        return service.list_keys(db_session(), actor=current_org_actor())

    @blp.requires("api-keys:write")
    @blp.arguments(schemas.ApiKeyCreateSchema)
    @blp.response(201, schemas.CreatedApiKeySchema)
    def post(self, body, org_id):
        """Create a key; its secret is in this answer only"""
        created = service.check_create_key(db_session(), actor=current_org_actor(), **body)
        return {**vars(created.key), "secret": created.secret}


@blp.route("/<uuid:key_id>")
class ApiKeyById(MethodView):
    @blp.requires("api-keys:write")
    @blp.arguments(schemas.ApiKeyUpdateSchema)
    @blp.response(200, schemas.ApiKeySchema)
    def patch(self, body, org_id, key_id):
        """Change a key's name, scopes or phone numbers (never its secret: revoke and create)"""
        return service.check_update_key(db_session(), actor=current_org_actor(), key_id=str(key_id), **body)

    @blp.requires("api-keys:write")
    @blp.response(200, schemas.ApiKeySchema)
    def delete(self, org_id, key_id):
        """Revoke a key; it stops working at once"""
        return service.do_revoke_key(db_session(), actor=current_org_actor(), key_id=str(key_id))
