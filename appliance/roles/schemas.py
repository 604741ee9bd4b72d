from marshmallow import fields, validate

from appliance.permissions import service as permissions_service
from appliance.core.schema import ApiSchema, IsoDateTime, Text

_PERMISSIONS = fields.List(fields.String(validate=validate.Length(max=60),
                                         metadata={"enum": sorted(permissions_service.permission_keys())}),
                           validate=validate.Length(max=100),
                           metadata={"description": "Permission keys from GET /permissions"})


class RoleSchema(ApiSchema):
    id = fields.String()
    key = fields.String()
    name = fields.String()
    description = fields.String()
    system = fields.Boolean()
    permissions = fields.List(fields.String())
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class RoleCreateSchema(ApiSchema):
    name = Text(required=True, min_length=1, max_length=60)
    description = Text(load_default="", max_length=300)
    permissions = _PERMISSIONS


class RoleUpdateSchema(ApiSchema):
    name = Text(min_length=1, max_length=60)
    description = Text(max_length=300)


class RolePermissionsSchema(ApiSchema):
    permissions = fields.List(fields.String(validate=validate.Length(max=60),
                                            metadata={"enum": sorted(permissions_service.permission_keys())}),
                              required=True,
                              validate=validate.Length(max=100))
