from marshmallow import fields, validate

from appliance.permissions import service as permissions_service
from appliance.core.schema import ApiSchema, IsoDateTime, Text, UuidString

_SCOPES = fields.List(fields.String(validate=validate.Length(max=60),
                                    metadata={"enum": sorted(permissions_service.api_key_scopes())}),
                      validate=validate.Length(max=50),
                      metadata={"description": "API-key scopes; empty = every permission of the organization (routes about persons still refuse keys)"})
_NUMBERS = fields.List(UuidString(), validate=validate.Length(max=500), data_key="phoneNumberIds",
                       metadata={"description": "Phone numbers the key may use (our ids); empty = all"})


class ApiKeySchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    prefix = fields.String(metadata={"description": "Visible part of the key: mk_live_<prefix>.<secret>"})
    scopes = fields.List(fields.String())
    phone_number_pks = fields.List(fields.String(), data_key="phoneNumberIds")
    expires_at = IsoDateTime(allow_none=True)
    last_used_at = IsoDateTime(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class CreatedApiKeySchema(ApiKeySchema):
    secret = fields.String(metadata={"description": "The whole key; shown this once, never again"})


class ApiKeyCreateSchema(ApiSchema):
    name = Text(required=True, min_length=1, max_length=100)
    scopes = _SCOPES
    phone_number_pks = _NUMBERS
    expires_at = fields.AwareDateTime(default_timezone=None, allow_none=True)


class ApiKeyUpdateSchema(ApiSchema):
    name = Text(min_length=1, max_length=100)
    scopes = _SCOPES
    phone_number_pks = _NUMBERS
