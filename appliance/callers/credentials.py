"""Credentials of API requests, resolved before every view that is not `@blp.public`."""

from __future__ import annotations

from flask import Flask, g, request

from appliance.attendance import closing as attendance_activity
from appliance.api_keys import service as api_keys_service
from appliance.auth import sessions as auth_sessions
from appliance.core.errors import Forbidden, Unauthorized
from appliance.http.api import view_attr
from appliance.http.unit_of_work import db_session
from appliance.memberships import service as memberships_service
from appliance.oauth import service as oauth_service
from appliance.organizations import service as organizations_service

# flask-smorest's own routes (the OpenAPI document and Swagger UI) and static files.
_PUBLIC_ENDPOINT_PREFIXES = ("api-docs.", "static", "swagger_ui_files")


def _view_is_public() -> bool:
    endpoint = request.endpoint
    if endpoint is None or endpoint.startswith(_PUBLIC_ENDPOINT_PREFIXES):
        return True  # no endpoint: routing answers 404/405 itself
    return bool(view_attr("_public"))


def _credentials() -> tuple[str, str] | None:
    """(kind, token) from X-Api-Key or Authorization. Values starting mk_live_/mk_test_ are API keys
    in either header, Bearer values starting mo_at_ are OAuth access tokens, any other Bearer value
    is a JWT. A failing X-Api-Key never falls back."""
    api_key = request.headers.get("X-Api-Key")
    if api_key is not None:
        return "api_key", api_key.strip()
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("Use 'Authorization: Bearer <token>'.", code="invalid_authorization_header")
    if api_keys_service.is_api_key(token):
        return "api_key", token
    return ("oauth" if token.startswith(oauth_service.ACCESS_PREFIX) else "jwt"), token


def _check_active(organization_id: str) -> None:
    organizations_service.check_active(db_session(), organization_id=organization_id,
                                       while_suspended=bool(view_attr("_while_suspended")),
                                       reading=request.method in ("GET", "HEAD"))


def _authenticate_key(token: str, permission: str | None) -> None:
    actor = api_keys_service.authenticate(db_session(), token)
    if permission is None:  # routes about persons, or outside any organization
        raise Forbidden("API keys work on organization routes only.", code="api_key_not_allowed")
    api_keys_service.check_key_in_organization(actor, str(request.view_args["org_id"]))
    if permission not in actor.permissions:
        raise Forbidden(f"This API key lacks the scope {permission}.", code="scope_missing",
                        permission=permission)
    g.actor = g.org_actor = actor
    _check_active(actor.organization_id)


def _authenticate_oauth(token: str, permission: str | None) -> None:
    actor, grant = oauth_service.authenticate_access_token(db_session(), token)
    g.actor, g.oauth_grant = actor, grant
    if permission is None:
        if not view_attr("_accepts_oauth_token"):  # routes about persons: sessions, 2FA, profile...
            raise Forbidden("OAuth tokens work on organization routes only.", code="oauth_token_not_allowed")
        return
    g.org_actor = oauth_service.access_organization(db_session(), actor=actor, grant=grant,
                                                    organization_id=str(request.view_args["org_id"]),
                                                    permission=permission)
    _check_active(grant.organization_id)
    attendance_activity.seen(grant.organization_id, actor.user_id)


def _authenticate() -> None:
    g.actor = None
    if request.method == "OPTIONS":
        return  # what a route allows is no secret; a browser's preflight carries no credentials
    if _view_is_public():
        return  # public routes ignore credentials: a stale token must not block sign-in
    credentials = _credentials()
    if credentials is None:
        raise Unauthorized("Sign in first: this route needs a bearer token or an API key.",
                           code="authentication_required")
    kind, token = credentials
    permission = view_attr("_permission")
    if kind == "api_key":
        _authenticate_key(token, permission)
        return
    if kind == "oauth":
        _authenticate_oauth(token, permission)
        return
    if view_attr("_accepts_oauth_token"):
        raise Unauthorized("This route takes an OAuth access token.", code="invalid_token")
    g.actor = auth_sessions.authenticate_access_token(db_session(), token)
    if permission is not None:
        g.org_actor = memberships_service.access_organization(
            db_session(), actor=g.actor, organization_id=str(request.view_args["org_id"]),
            permission=permission)
        _check_active(g.org_actor.organization_id)
        attendance_activity.seen(g.org_actor.organization_id, g.org_actor.user_id)


def init_app(app: Flask) -> None:
    app.before_request(_authenticate)
