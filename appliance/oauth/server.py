"""authlib's authorization server, fitted to the reference.

authlib parses the requests, authenticates clients and writes the `{error, error_description}`
answers. Its defaults fall short in four places, each closed by a subclass here:
- PKCE: it accepts `plain` and requests without a challenge; `S256Only` refuses both, for every client.
- Codes: it deletes a used code, so a replay cannot be recognised; ours are kept and a replay with
  the right verifier revokes what the code issued (`CodeGrant.query_authorization_code`).
- Refresh: it neither rotates with a grace window nor detects reuse; `RefreshGrant` delegates both
  to `oauth.service`.
- Revocation answers 400 for another client's token, where RFC 7009 and the reference say 200;
  and `invalid_client` is 401 always (authlib: only when HTTP Basic was tried).
Token values are ours (opaque, prefixed, stored as HMACs), so the grants issue pairs through the
service instead of authlib's generator. The policy lives in `appliance.oauth.service` (no flask).
"""

from __future__ import annotations

from dataclasses import dataclass

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import ClientMixin, grants
from authlib.oauth2.rfc6749.errors import InvalidRequestError
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge, create_s256_code_challenge
from authlib.oauth2.rfc7662 import IntrospectionEndpoint

from appliance.http.unit_of_work import db_session
from appliance.oauth import service
from appliance.oauth.models import OAuthAuthorization, OAuthClient

_GRANT_TYPES = ("authorization_code", "refresh_token")


class Client(ClientMixin):
    """An `OAuthClient` row as authlib asks about it."""

    def __init__(self, row: OAuthClient):
        self.row = row

    def get_client_id(self):
        return self.row.client_id

    def get_default_redirect_uri(self):
        return None  # redirect_uri is always required

    def get_allowed_scope(self, scope):
        return scope

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri in self.row.redirect_uris  # character by character

    def check_client_secret(self, client_secret):
        return service.client_secret_matches(self.row, client_secret)

    def check_endpoint_auth_method(self, method, endpoint):
        if self.row.suspended_at is not None and endpoint != "token":
            return False  # invalid_client; at the token endpoint: unauthorized_client (check_grant_type)
        return method == ("none" if self.row.public else "client_secret_basic")

    def check_grant_type(self, grant_type):
        return self.row.suspended_at is None and grant_type in _GRANT_TYPES

    def check_response_type(self, response_type):
        return response_type == "code"


@dataclass
class GrantUser:
    """Who approved, handed by the consent page to authlib's `create_authorization_response`."""

    authorization: OAuthAuthorization
    scopes: list[str]


class Code:
    """A stored code as authlib's grant reads it."""

    def __init__(self, lookup: service.CodeLookup):
        self.lookup = lookup

    def get_redirect_uri(self):
        return self.lookup.code.redirect_uri

    def get_scope(self):
        return self.lookup.code.scope


class S256Only(CodeChallenge):
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("PKCE is required: send code_challenge with code_challenge_method=S256.")
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("Only code_challenge_method=S256 is accepted.")
        super().validate_code_challenge(grant, redirect_uri)

    def validate_code_verifier(self, grant, result):
        if not grant.request.form.get("code_verifier"):
            raise InvalidRequestError("Missing 'code_verifier'.")
        super().validate_code_verifier(grant, result)

    def get_authorization_code_challenge(self, authorization_code):
        return authorization_code.lookup.code.code_challenge

    def get_authorization_code_challenge_method(self, authorization_code):
        return "S256"


def _pair_body(pair: service.IssuedPair) -> dict:
    return {"access_token": pair.access_token, "token_type": "Bearer", "expires_in": pair.expires_in,
            "refresh_token": pair.refresh_token, "scope": pair.scope}


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "none"]

    def save_authorization_code(self, code, request):
        user: GrantUser = request.user
        service.do_save_code(db_session(), code=code, authorization=user.authorization,
                             redirect_uri=request.payload.redirect_uri, scopes=user.scopes,
                             code_challenge=request.payload.data["code_challenge"])

    def query_authorization_code(self, code, client):
        lookup = service.find_code(db_session(), code=code, client=client.row)
        if lookup is None:
            return None
        if lookup.replayed:
            verifier = self.request.form.get("code_verifier") or ""
            if create_s256_code_challenge(verifier) == lookup.code.code_challenge:
                service.revoke_code_chain_after(db_session(), lookup.code.id)
            return None  # invalid_grant either way
        return Code(lookup)

    def delete_authorization_code(self, authorization_code):
        service.do_mark_code_used(db_session(), authorization_code.lookup.code)

    def authenticate_user(self, authorization_code):
        return authorization_code.lookup.authorization

    def create_token_response(self):
        lookup = self.request.authorization_code.lookup
        pair = service.do_issue_pair(db_session(), authorization=lookup.authorization, code_id=lookup.code.id,
                                     scope=lookup.code.scope)
        self.delete_authorization_code(self.request.authorization_code)
        return 200, _pair_body(pair), self.TOKEN_RESPONSE_HEADER


class Refresh:
    def __init__(self, lookup: service.RefreshLookup):
        self.lookup = lookup

    def check_client(self, client):
        return True  # find_refresh only answers tokens of the presenting client

    def get_scope(self):
        return self.lookup.token.scope


class RefreshGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "none"]

    def authenticate_refresh_token(self, refresh_token):
        lookup = service.find_refresh(db_session(), refresh_token=refresh_token, client=self.request.client.row)
        return Refresh(lookup) if lookup else None

    def create_token_response(self):
        refresh: Refresh = self.request.refresh_token
        pair = service.do_rotate(db_session(), refresh.lookup,
                                 scope=self.request.payload.scope or refresh.lookup.token.scope)
        return 200, _pair_body(pair), self.TOKEN_RESPONSE_HEADER


def _presented(request, client: Client):
    """(pair, is_refresh) for the form's token if it belongs to `client`, else None."""
    value = request.form.get("token", "")
    token = service.find_token(db_session(), value)
    if token is None or service.token_client_pk(db_session(), token) != client.row.id:
        return None
    return token, value.startswith(service.REFRESH_PREFIX)


class Revocation(RevocationEndpoint):
    CLIENT_AUTH_METHODS = ["client_secret_basic", "none"]

    def authenticate_token(self, request, client):
        self.check_params(request, client)
        return _presented(request, client)  # unknown or another client's: 200, nothing revoked

    def revoke_token(self, token, request):
        pair, is_refresh = token
        service.do_revoke_token(db_session(), pair, presented_refresh=is_refresh)


class Introspection(IntrospectionEndpoint):
    CLIENT_AUTH_METHODS = ["client_secret_basic"]  # confidential clients only

    def authenticate_token(self, request, client):
        self.check_params(request, client)
        presented = _presented(request, client)  # another client's token: inactive for this one
        return (presented, client) if presented else None

    def create_introspection_payload(self, token):
        if token is None:
            return {"active": False}
        (pair, is_refresh), client = token
        state = service.describe_token(db_session(), pair, presented_refresh=is_refresh, client=client.row)
        if not state.active:
            return {"active": False}
        return {"active": True, "scope": state.scope, "client_id": state.client_id, "sub": state.user_id,
                "org_id": state.organization_id, "exp": state.expires_at, "token_type": "Bearer",
                "token_use": state.token_type}


def _query_client(client_id):
    row = service.get_client(db_session(), client_id)
    return Client(row) if row else None


def _save_token(token, request):  # pragma: no cover - our grants store their pairs themselves
    raise RuntimeError("tokens are issued by appliance.oauth.service")


# What each error of RFC 6749 and RFC 7009 means, for answers where authlib names none: every OAuth
# error we answer carries both `error` and `error_description` (our decision; the RFCs make the
# description optional, and clients log it).
ERROR_DESCRIPTIONS = {
    "invalid_request": "The request is missing a parameter, repeats one, or is otherwise malformed.",
    "invalid_client": "The client could not be authenticated: unknown client, wrong secret or wrong method.",
    "invalid_grant": "The code or refresh token is invalid, expired, revoked, or was issued to another client.",
    "unauthorized_client": "This client may not use this grant type.",
    "unsupported_grant_type": "The grant type is not supported; use authorization_code or refresh_token.",
    "invalid_scope": "The requested scope is invalid, unknown, or beyond what the client registered.",
    "access_denied": "The person or the server denied the request.",
    "unsupported_response_type": "Only the response type 'code' is supported.",
    "server_error": "The server met an unexpected condition.",
    "temporarily_unavailable": "The server is temporarily unable to handle the request; try again later.",
    "unsupported_token_type": "This server cannot revoke that type of token.",
}


def describe_error(error: str, description: str | None = None) -> str:
    return description or ERROR_DESCRIPTIONS.get(error, "The request failed.")


class Server(AuthorizationServer):
    def handle_error_response(self, request, error):
        if error.error == "invalid_client":
            error.status_code = 401  # the reference's table; authlib says 400 unless HTTP Basic was tried
        error.description = describe_error(error.error, error.description)
        return super().handle_error_response(request, error)


server = Server(query_client=_query_client, save_token=_save_token)
server.register_grant(CodeGrant, [S256Only(required=True)])
server.register_grant(RefreshGrant)
server.register_endpoint(Revocation)
server.register_endpoint(Introspection)
