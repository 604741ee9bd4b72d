from marshmallow import fields

from appliance.core.schema import ApiSchema


class PermissionSchema(ApiSchema):
    key = fields.String(metadata={"example": "conversations:read"})
    resource = fields.String()
    action = fields.String()
    api_key_scope = fields.Boolean(metadata={"description": "Usable as an API-key scope"})
    description = fields.Dict(keys=fields.String(), values=fields.String(),
                              metadata={"description": "Human description per language (en, es)"})
