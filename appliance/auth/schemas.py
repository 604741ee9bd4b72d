from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, EmailAddress, IsoDateTime, Secret, Text
from appliance.users.schemas import PASSWORD_RULES, UserSchema
from appliance.core.locales import DEFAULT_LOCALE, LOCALES

_TOKEN = {"required": True, "max_length": 200}


class SignupSchema(ApiSchema):
    email = EmailAddress(required=True)
    password = Secret(required=True, **PASSWORD_RULES)
    name = Text(required=True, min_length=1, max_length=100)
    locale = fields.String(load_default=DEFAULT_LOCALE, validate=validate.OneOf(LOCALES))


class LoginSchema(ApiSchema):
    email = EmailAddress(required=True)
    password = Secret(required=True, max_length=128)
    two_factor_code = Secret(max_length=32, load_default=None,
                             metadata={"description": "6-digit TOTP code or a recovery code"})


class RefreshSchema(ApiSchema):
    refresh_token = Secret(**_TOKEN)


class EmailSchema(ApiSchema):
    email = EmailAddress(required=True)


class TokenSchema(ApiSchema):
    token = Secret(**_TOKEN)


class ResetPasswordSchema(ApiSchema):
    token = Secret(**_TOKEN)
    password = Secret(required=True, **PASSWORD_RULES)


class TokenPairSchema(ApiSchema):
    access_token = fields.String()
    refresh_token = fields.String()
    expires_in = fields.Integer(metadata={"description": "Seconds the access token lives"})


class SignInSchema(ApiSchema):
    user = fields.Nested(UserSchema)
    tokens = fields.Nested(TokenPairSchema)


class TokensSchema(ApiSchema):
    tokens = fields.Nested(TokenPairSchema)


class MessageSchema(ApiSchema):
    message = fields.String()


class SessionSchema(ApiSchema):
    id = fields.String()
    device = fields.String()
    ip = fields.String()
    created_at = IsoDateTime()
    last_used_at = IsoDateTime()
    current = fields.Boolean()
    impersonated_by = fields.String(allow_none=True)


class ClosedSessionsSchema(ApiSchema):
    closed = fields.Integer()


class TwoFactorSetupSchema(ApiSchema):
    secret = fields.String()
    otpauth_uri = fields.String()
    qr_svg = fields.String(metadata={"description": "SVG image of the otpauth URI as a QR code"})


class TwoFactorCodeSchema(ApiSchema):
    code = Secret(required=True, max_length=32)


class TwoFactorDisableSchema(ApiSchema):
    password = Secret(required=True, max_length=128)
    code = Secret(required=True, max_length=32)


class RecoveryCodesSchema(ApiSchema):
    recovery_codes = fields.List(fields.String())
