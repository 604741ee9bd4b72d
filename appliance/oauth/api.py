"""The OAuth endpoints (RFC 8414, 6749, 7009, 7662), userinfo, and a person's authorizations.

The OAuth documents answer top-level JSON as their RFCs shape them, not the envelope; errors of
the token, revocation and introspection endpoints are `{error, error_description}`.
"""

from flask import jsonify
from flask.views import MethodView

from appliance.http.api import Blueprint, form_body
from appliance.http.auth import current_actor, current_oauth_grant
from appliance.http.unit_of_work import db_session
from appliance.oauth import schemas, service
from appliance.oauth.server import server
from appliance.permissions import service as permissions_service
from appliance.installation import public_address

blp = Blueprint("oauth", __name__, description="OAuth 2.0 for third-party applications")
me_blp = Blueprint("oauth_authorizations", __name__, url_prefix="/users/me/authorizations",
                   description="Applications I authorized")

def _form(**fields: str) -> dict:
    """An OAuth form body for the OpenAPI document (authlib reads the form itself)."""
    return {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": {
        "type": "object", "properties": {name: {"type": "string", "description": text} for name, text in fields.items()}}}}}


_CLIENT_ID = "Public clients only (confidential clients use HTTP Basic)"
_NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def _top_level(payload: dict):
    response = jsonify(payload)
    response.headers.update(_NO_STORE)
    return response


@blp.route("/.well-known/oauth-authorization-server")
class Discovery(MethodView):
    @blp.public
    @blp.document_response(200, schemas.OAuthServerMetadataSchema)
    def get(self):
        """Authorization server metadata (RFC 8414)"""
        base = public_address.base_url()
        return jsonify({
            "issuer": base,
            "authorization_endpoint": f"{base}/oauth/authorize",
            "token_endpoint": f"{base}/oauth/token",
            "revocation_endpoint": f"{base}/oauth/revoke",
            "introspection_endpoint": f"{base}/oauth/introspect",
            "userinfo_endpoint": f"{base}/oauth/userinfo",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "none"],
            "revocation_endpoint_auth_methods_supported": ["client_secret_basic", "none"],
            "introspection_endpoint_auth_methods_supported": ["client_secret_basic"],
            "scopes_supported": [p.key for p in permissions_service.list_permissions()],
        })


@blp.route("/oauth/token")
class Token(MethodView):
    @blp.public
    @form_body
    @blp.doc(requestBody=_form(grant_type="authorization_code or refresh_token", code="authorization_code",
                               redirect_uri="authorization_code: exactly as authorized",
                               code_verifier="authorization_code: the PKCE verifier",
                               refresh_token="refresh_token", scope="refresh_token: optional, narrower",
                               client_id=_CLIENT_ID))
    @blp.document_response(200, schemas.OAuthTokenResponseSchema)
    @blp.alt_response(400, schema=schemas.OAuthErrorSchema, description="invalid_request, invalid_grant, "
                      "unauthorized_client, unsupported_grant_type, invalid_scope")
    @blp.alt_response(401, schema=schemas.OAuthErrorSchema, description="invalid_client")
    def post(self):
        """Exchange a code (with its PKCE verifier) or a refresh token for a token pair"""
        return server.create_token_response()


@blp.route("/oauth/revoke")
class Revoke(MethodView):
    @blp.public
    @form_body
    @blp.doc(requestBody=_form(token="access or refresh token", token_type_hint="optional",
                               client_id=_CLIENT_ID))
    @blp.document_response(200, schemas.OAuthRevokedSchema,
                           description="Always, for known and unknown tokens alike (RFC 7009)")
    @blp.alt_response(401, schema=schemas.OAuthErrorSchema, description="invalid_client")
    def post(self):
        """Revoke a token; a refresh token cuts its whole chain"""
        return server.create_endpoint_response("revocation")


@blp.route("/oauth/introspect")
class Introspect(MethodView):
    @blp.public
    @form_body
    @blp.doc(requestBody=_form(token="access or refresh token", token_type_hint="optional"))
    @blp.document_response(200, schemas.OAuthIntrospectionSchema)
    @blp.alt_response(401, schema=schemas.OAuthErrorSchema, description="invalid_client (public clients too)")
    def post(self):
        """Describe a token to the confidential client that owns it (RFC 7662)"""
        return server.create_endpoint_response("introspection")


@blp.route("/oauth/userinfo")
class UserInfo(MethodView):
    @blp.accepts_oauth_token
    @blp.document_response(200, schemas.OAuthUserInfoSchema)
    def get(self):
        """Who authorized this OAuth token, and in which organization (needs organizations:read)"""
        return _top_level(service.get_userinfo(db_session(), actor=current_actor(), grant=current_oauth_grant()))


@me_blp.route("")
class MyAuthorizations(MethodView):
    @me_blp.response(200, schemas.OAuthAuthorizationSchema(many=True))
    def get(self):
        """Applications I authorized, per organization"""
        return service.list_my_authorizations(db_session(), actor=current_actor())


@me_blp.route("/<uuid:authorization_id>")
class MyAuthorization(MethodView):
    @me_blp.response(204)
    def delete(self, authorization_id):
        """Revoke an application's access: its next request is 401, its refresh invalid_grant"""
        service.do_revoke_my_authorization(db_session(), actor=current_actor(),
                                           authorization_id=str(authorization_id))
