from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, UuidString
from appliance.roles.schemas import RoleSchema


class MembershipSchema(ApiSchema):
    id = fields.String()
    user_id = fields.String()
    email = fields.String()
    name = fields.String()
    role = fields.Nested(RoleSchema)
    waba_pks = fields.List(fields.String(), data_key="wabaIds", metadata={"description": "Business accounts visible; empty = all"})
    suspended = fields.Boolean()
    preferences = fields.Dict()
    created_at = IsoDateTime()


class SetRoleSchema(ApiSchema):
    role_id = UuidString(required=True)


class SetWabaScopeSchema(ApiSchema):
    waba_pks = fields.List(UuidString(), required=True, data_key="wabaIds", validate=validate.Length(max=200),
                           metadata={"description": "Business accounts the member may see; empty = all"})


class MembershipSuspensionSchema(ApiSchema):
    suspended = fields.Boolean(required=True)


class PreferencesSchema(ApiSchema):
    organization_id = UuidString(required=True)
    preferences = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=60)), required=True,
                              metadata={"description": "Keys to set; a null value removes the key"})
