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


_CREDENTIAL = {"required": True, "metadata": {
    "description": "The PublicKeyCredential the browser answered, as JSON (its toJSON(): id, rawId, type, "
                   "response with base64url bytes)"}}


class PasskeyOptionsSchema(ApiSchema):
    public_key = fields.Dict(metadata={
        "description": "PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON (bytes in "
                       "base64url): hand it to navigator.credentials.create or get as `publicKey`"})


class PasskeyRegisterSchema(ApiSchema):
    name = Text(load_default="Passkey", min_length=1, max_length=100,
                metadata={"description": "What the person calls it (the phone, the key)"})
    credential = fields.Dict(**_CREDENTIAL)


class PasskeyLoginSchema(ApiSchema):
    credential = fields.Dict(**_CREDENTIAL)
    two_factor_code = Secret(max_length=32, load_default=None, metadata={
        "description": "Needed only when the account uses two-step sign-in and the passkey did not verify the person "
                       "(then 401 two_factor_required): a TOTP or recovery code, sent with the same credential"})


class PasskeySchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    created_at = IsoDateTime()
    last_used_at = IsoDateTime(allow_none=True)
    user_verified = fields.Boolean(metadata={"description": "The authenticator verified the person (PIN, biometrics) "
                                                            "at its last use: it satisfies two-step sign-in"})
    backed_up = fields.Boolean(metadata={"description": "Synced by a password manager rather than bound to one "
                                                        "device"})
    transports = fields.List(fields.String())
