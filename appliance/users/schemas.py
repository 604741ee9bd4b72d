from zoneinfo import available_timezones

from marshmallow import ValidationError, fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, Secret, Text
from appliance.core.locales import LOCALES

PASSWORD_RULES = {"min_length": 8, "max_length": 128}
TIMEZONE_NAMES = frozenset(available_timezones())


def known_timezone(value: str) -> None:
    if value not in TIMEZONE_NAMES:
        raise ValidationError("Unknown time zone; use an IANA name such as America/Bogota.")


class TimeZoneName(fields.String):
    """An IANA time zone name; the document lists them (a client never has to guess)."""

    def __init__(self, **kwargs):
        metadata = {"enum": sorted(TIMEZONE_NAMES), "example": "America/Bogota", **kwargs.pop("metadata", {})}
        super().__init__(validate=known_timezone, metadata=metadata, **kwargs)


class UserSchema(ApiSchema):
    id = fields.String()
    email = fields.String()
    name = fields.String()
    locale = fields.String()
    timezone = fields.String()
    email_verified = fields.Boolean()
    two_factor_enabled = fields.Boolean()
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class UserUpdateSchema(ApiSchema):
    name = Text(max_length=100, min_length=1)
    locale = fields.String(validate=validate.OneOf(LOCALES))
    timezone = TimeZoneName()


class ChangePasswordSchema(ApiSchema):
    current_password = Secret(required=True, max_length=128)
    new_password = Secret(required=True, **PASSWORD_RULES)
