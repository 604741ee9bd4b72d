from marshmallow import fields

from appliance.core.schema import ApiSchema, EmailAddress, IsoDateTime, UuidString
from appliance.roles.schemas import RoleSchema


class InvitationSchema(ApiSchema):
    id = fields.String()
    email = fields.String()
    role = fields.Nested(RoleSchema)
    created_at = IsoDateTime()
    expires_at = IsoDateTime()


class InvitationCreateSchema(ApiSchema):
    email = EmailAddress(required=True)
    role_id = UuidString(required=True)
