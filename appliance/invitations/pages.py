"""The page behind an invitation link: sign in (or create the account) with the invited email,
and join, in one step. The link only shows the page; the POST spends the invitation."""

from flask import Blueprint, request
from marshmallow import ValidationError

from appliance.auth import email_links
from appliance.auth import service as auth_service
from appliance.auth.pages import sign_in_browser
from appliance.auth.schemas import SignupSchema
from appliance.core.actor import Actor
from appliance.core.errors import AppError
from appliance.http.api import form_body, public
from appliance.http.auth import client_ip
from appliance.http.pages import page_language, render_failure, render_page
from appliance.http.unit_of_work import db_session
from appliance.invitations import service
from appliance.invitations.texts import TEXTS
from appliance.users import service as users_service

invitation_pages = Blueprint("invitation_pages", __name__)

_PAGE = "invitations/accept.html"


def _preview(token: str):
    try:
        return service.preview(db_session(), token=token)
    except AppError:
        return None


@invitation_pages.get("/invitations/accept")
@public
def invitation_form():
    token = request.args.get("token", "")[:200]
    invitation = _preview(token)
    if invitation is None:
        return render_page(_PAGE, TEXTS, status=404, invalid=True)
    return render_page(_PAGE, TEXTS, invitation=invitation, token=token)


@invitation_pages.post("/invitations/accept")
@public
@form_body
def accept_invitation():
    session = db_session()
    token = request.form.get("token", "")[:200]
    invitation = _preview(token)
    if invitation is None:
        return render_page(_PAGE, TEXTS, status=404, invalid=True)
    password = request.form.get("password", "")[:128]
    try:
        if request.form.get("action") == "signup":
            # The same field rules as POST /auth/signup (password length, clean name).
            fields = SignupSchema().load({"email": invitation.email, "password": password,
                                          "name": request.form.get("name", ""), "locale": page_language()})
            user = users_service.do_create_user(session, **fields)
            email_links.do_send_verification(session, user)
        else:
            user = auth_service.check_credentials(session, email=invitation.email, password=password,
                                                  two_factor_code=request.form.get("code") or None, ip=client_ip())
        service.check_accept(session, actor=Actor(user_id=user.id), token=token)
    except ValidationError as error:
        field, messages = next(iter(error.normalized_messages().items()))
        return render_page(_PAGE, TEXTS, status=400, invitation=invitation, token=token,
                           error=f"{field}: {messages[0]}")
    except AppError as error:  # shown on the page; the unit of work rolls back on the 4xx
        return render_failure(_PAGE, TEXTS, error, invitation=invitation, token=token)
    sign_in_browser(user)  # the way on: this browser is now the member's, straight into the inbox
    return render_page(_PAGE, TEXTS, invitation=invitation, joined=True)
