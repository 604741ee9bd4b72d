"""/organizations/{orgId}/roles"""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.roles import schemas, service

blp = Blueprint("roles", __name__, url_prefix="/organizations/<uuid:org_id>/roles",
                description="Roles and their permissions")


@blp.route("")
class Roles(MethodView):
    @blp.requires("roles:read")
    @blp.response(200, schemas.RoleSchema(many=True))
    def get(self, org_id):
        """List the organization's roles (system roles first)"""
        return service.list_roles(db_session(), actor=current_org_actor())

    @blp.requires("roles:write")
    @blp.arguments(schemas.RoleCreateSchema)
    @blp.response(201, schemas.RoleSchema)
    def post(self, body, org_id):
        """Create a custom role"""
        return service.check_create_role(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:role_id>")
class RoleById(MethodView):
    @blp.requires("roles:write")
    @blp.arguments(schemas.RoleUpdateSchema)
    @blp.response(200, schemas.RoleSchema)
    def patch(self, body, org_id, role_id):
        """Rename a custom role or change its description"""
        return service.check_update_role(db_session(), actor=current_org_actor(), role_id=str(role_id), **body)

    @blp.requires("roles:write")
    @blp.response(200, schemas.RoleSchema)
    def delete(self, org_id, role_id):
        """Delete a custom role nobody holds"""
        return service.check_delete_role(db_session(), actor=current_org_actor(), role_id=str(role_id))


@blp.route("/<uuid:role_id>/permissions")
class RolePermissions(MethodView):
    @blp.requires("roles:write")
    @blp.arguments(schemas.RolePermissionsSchema)
    @blp.response(200, schemas.RoleSchema)
    def put(self, body, org_id, role_id):
        """Replace the permission set of a custom role"""
        return service.check_replace_permissions(db_session(), actor=current_org_actor(),
                                                 role_id=str(role_id), **body)
