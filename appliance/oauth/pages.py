"""GET/POST /oauth/authorize: sign in (with the second factor), pick an organization, approve;
and the person's integrations page, which lists and revokes what they approved.

A browser that is signed in (appliance.http.browser) goes straight to consent; signing in here
signs the browser in too. The consent form carries a signed ticket (the person, this exact
request, ten minutes), and the approval needs that ticket, so another site can neither forge a
consent nor reuse one. The pages refuse to be framed.

An unknown client or redirect URI is shown on the page, never redirected; once both are known to
be registered, every other problem goes back to the application as `error=...&state=...`.
"""

from __future__ import annotations

import base64
import hmac
import json
from urllib.parse import urlencode

from authlib.oauth2 import OAuth2Error
from flask import Blueprint, redirect, request, url_for

from appliance.auth.pages import check_sign_in_form, needs_second_factor, sign_in_browser
from appliance.core import clock, runtime
from appliance.core.actor import Actor
from appliance.core.errors import AppError, Forbidden
from appliance.http.api import form_body, public, writes_on_get
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.pages import page_language, render_failure, render_page
from appliance.http.unit_of_work import db_session
from appliance.oauth import service
from appliance.oauth.server import GrantUser, describe_error, server
from appliance.oauth.texts import TEXTS
from appliance.organizations import service as organizations_service
from appliance.permissions import service as permissions_service
from appliance.users.models import User

oauth_pages = Blueprint("oauth_pages", __name__)
_SIGN_IN, _CONSENT, _ERROR = "oauth/sign_in.html", "oauth/consent.html", "oauth/error.html"
TICKET_SECONDS = 600

_NOT_FRAMED = {"X-Frame-Options": "DENY", "Cache-Control": "no-store"}  # and the pages' CSP (http/headers.py)


def _page(template: str, *, status: int = 200, **context):
    html, status = render_page(template, TEXTS, status=status, **context)
    return html, status, _NOT_FRAMED


def _error_page(message_key: str, status: int = 400):
    return _page(_ERROR, status=status, error=TEXTS[page_language()][message_key])


def _back_to_client(redirect_uri: str, error: str, description: str | None = None):
    params = {"error": error, "error_description": describe_error(error, description)}
    if request.args.get("state"):
        params["state"] = request.args["state"]
    return redirect(f"{redirect_uri}{'&' if '?' in redirect_uri else '?'}{urlencode(params)}")


def _ticket_mac(body: str) -> bytes:
    return runtime.get().keyring.token_hash("oauth-consent:" + body).encode()


def _ticket(user_id: str) -> str:
    expires = int(clock.now().timestamp()) + TICKET_SECONDS
    body = base64.urlsafe_b64encode(json.dumps(
        {"u": user_id, "q": request.query_string.decode(), "e": expires}).encode()).decode()
    return f"{body}.{_ticket_mac(body).decode()}"


def _ticket_user(ticket: str) -> str | None:
    """The person a ticket was signed for, if it is ours, unexpired and for this very request."""
    body, _, mac = ticket.partition(".")
    if not hmac.compare_digest(mac.encode(), _ticket_mac(body)):  # bytes: any input compares safely
        return None
    data = json.loads(base64.urlsafe_b64decode(body.encode()))
    if data["e"] < clock.now().timestamp() or data["q"] != request.query_string.decode():
        return None
    return data["u"]


@oauth_pages.route("/oauth/authorize", methods=["GET", "POST"])
@public  # the consent ticket guards the POST; the browser session, if any, is read below
@form_body
@writes_on_get  # a signed-in browser's prompt=none is answered with a code at once
def authorize():
    client = service.get_client(db_session(), request.args.get("client_id"))
    if client is None or client.suspended_at is not None:
        return _error_page("unknown_client")
    redirect_uri = request.args.get("redirect_uri", "")
    if redirect_uri not in client.redirect_uris:
        return _error_page("unknown_redirect")
    scopes = service.split_scope(request.args.get("scope"))
    if not scopes or not set(scopes) <= set(client.scopes):  # registered scopes are catalog keys
        return _back_to_client(redirect_uri, "invalid_scope", "Ask only for scopes the application registered.")
    try:
        grant = server.get_consent_grant(end_user=None)
    except OAuth2Error as error:
        return _back_to_client(redirect_uri, error.error, error.description)
    catalog = {p.key: p for p in permissions_service.list_permissions()}
    context = {"client": client, "scopes": [catalog[s] for s in permissions_service.in_catalog_order(scopes)],
               "action": f"/oauth/authorize?{request.query_string.decode()}"}
    step = request.form.get("step") if request.method == "POST" else None
    if step == "consent":
        return _decide(grant, client, redirect_uri, scopes, context)
    signed_in = browser_actor()
    if signed_in is not None and step != "signin":
        user = db_session().get(User, signed_in.user_id)
    elif step != "signin":
        return _page(_SIGN_IN, email="", need_code=False, **context)
    else:
        try:
            user = check_sign_in_form()
        except AppError as error:
            html, status = render_failure(_SIGN_IN, TEXTS, error, email=request.form.get("email", "")[:254],
                                          need_code=needs_second_factor(error), **context)
            return html, status, _NOT_FRAMED
        sign_in_browser(user)
    organizations = organizations_service.list_my_organizations(db_session(), actor=Actor(user_id=user.id),
                                                                active_only=True)
    if not organizations:
        return _error_page("no_organizations", status=403)
    if request.args.get("prompt") == "none":
        # Consent is skipped only when exactly one organization already approved all of it.
        prior = service.prior_consents(db_session(), client=client, user_id=user.id, scopes=scopes)
        live = {a.organization_id for a in prior} & {o.id for o in organizations}
        if len(live) == 1:
            return _approve(grant, client, user, live.pop(), redirect_uri, scopes)
    return _page(_CONSENT, ticket=_ticket(user.id), organizations=organizations, person=user, **context)


def _decide(grant, client, redirect_uri, scopes, context):
    user_id = _ticket_user(request.form.get("ticket", "")[:2000])
    if user_id is None:
        return _page(_SIGN_IN, status=400, email="", need_code=False, error=TEXTS[page_language()]["expired"],
                     **context)
    if request.form.get("decision") != "approve":
        return _back_to_client(redirect_uri, "access_denied", "The person did not authorize the application.")
    user = db_session().get(User, user_id)
    return _approve(grant, client, user, request.form.get("organization_id", "")[:64], redirect_uri, scopes)


def _approve(grant, client, user, organization_id, redirect_uri, scopes):
    try:
        authorization = service.do_consent(db_session(), client=client, user_id=user.id,
                                           organization_id=organization_id, scopes=scopes)
    except Forbidden:  # not a member there (any more), suspended, or holding none of the scopes
        return _back_to_client(redirect_uri, "access_denied", "You lack these permissions in that organization.")
    return server.create_authorization_response(grant_user=GrantUser(authorization, scopes), grant=grant)


@oauth_pages.get("/settings/integrations")
@signed_in_page
def integrations():
    views = service.list_my_authorizations(db_session(), actor=browser_actor())
    catalog = {p.key: p for p in permissions_service.list_permissions()}
    return _page("oauth/integrations.html", authorizations=views, catalog=catalog,
                 revoked=request.args.get("done") == "revoked")


@oauth_pages.post("/settings/integrations/<authorization_id>/revoke")
@signed_in_page
def revoke_integration(authorization_id: str):
    service.do_revoke_my_authorization(db_session(), actor=browser_actor(), authorization_id=authorization_id[:64])
    return redirect(url_for("oauth_pages.integrations", done="revoked"))
