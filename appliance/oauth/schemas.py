from marshmallow import Schema, fields

from appliance.core.schema import ApiSchema, IsoDateTime


class OAuthServerMetadataSchema(Schema):
    """RFC 8414 authorization server metadata."""

    issuer = fields.String()
    authorization_endpoint = fields.String()
    token_endpoint = fields.String()
    revocation_endpoint = fields.String()
    introspection_endpoint = fields.String()
    userinfo_endpoint = fields.String()
    response_types_supported = fields.List(fields.String())
    grant_types_supported = fields.List(fields.String())
    code_challenge_methods_supported = fields.List(fields.String())
    token_endpoint_auth_methods_supported = fields.List(fields.String())
    revocation_endpoint_auth_methods_supported = fields.List(fields.String())
    introspection_endpoint_auth_methods_supported = fields.List(fields.String())
    scopes_supported = fields.List(fields.String())


class OAuthTokenResponseSchema(Schema):
    access_token = fields.String()
    token_type = fields.String(metadata={"example": "Bearer"})
    expires_in = fields.Integer(metadata={"example": 3600})
    refresh_token = fields.String()
    scope = fields.String()


class OAuthRevokedSchema(Schema):
    """An empty object."""


class OAuthErrorSchema(Schema):
    error = fields.String(metadata={"example": "invalid_grant"})
    error_description = fields.String()


class OAuthIntrospectionSchema(Schema):
    active = fields.Boolean()
    scope = fields.String()
    client_id = fields.String()
    sub = fields.String()
    org_id = fields.String()
    exp = fields.Integer()
    token_type = fields.String()
    token_use = fields.String(metadata={"description": "access_token or refresh_token"})


class OAuthUserInfoSchema(Schema):
    """OpenID-style claims, top-level, as OAuth client libraries read them."""

    sub = fields.String()
    name = fields.String()
    email = fields.String()
    email_verified = fields.Boolean()
    locale = fields.String()
    org_id = fields.String()
    scope = fields.String()


class OAuthAuthorizationSchema(ApiSchema):
    id = fields.String(attribute="authorization.id")
    client_id = fields.String(attribute="client.client_id")
    application_name = fields.String(attribute="client.name")
    application_site_url = fields.String(attribute="client.site_url", allow_none=True)
    application_logo_url = fields.String(attribute="client.logo_url", allow_none=True)
    organization_id = fields.String(attribute="organization.id")
    organization_name = fields.String(attribute="organization.name")
    scopes = fields.List(fields.String(), attribute="authorization.scopes")
    created_at = IsoDateTime(attribute="authorization.created_at")
    last_used_at = IsoDateTime(attribute="authorization.last_used_at", allow_none=True)
