"""The browser's sign-in and sign-out (the helpers the OAuth and invitation pages use too), and the
pages behind the links we mail: confirm an email address, choose a new password.

A mailed link only shows a page; the change happens on the button (a POST), so a mail scanner
that follows links does not spend the token.
"""

from flask import Blueprint, redirect, request

from appliance.auth import email_links
from appliance.auth import service as auth_service
from appliance.auth import sessions as auth_sessions
from appliance.auth.sessions import Device
from appliance.auth.texts import TEXTS
from appliance.core.actor import Actor
from appliance.core.errors import AppError
from appliance.http.api import form_body, public
from appliance.http.auth import client_device, client_ip
from appliance.http.browser import browser_actor, browser_form, log_in, log_out, safe_next
from appliance.http.pages import page_language, render_failure, render_page
from appliance.http.unit_of_work import db_session
from appliance.users.models import User
from appliance.users.schemas import PASSWORD_RULES

auth_pages = Blueprint("auth_pages", __name__)
_SIGN_IN, _VERIFY, _RESET = "auth/sign_in.html", "auth/verify_email.html", "auth/reset_password.html"


# Signing a browser in and out: also used by the OAuth and invitation pages.

def sign_in_browser(user: User) -> None:
    """Open a browser session for `user` (after the password and second factor were checked)."""
    auth_session = auth_sessions.do_open_browser_session(db_session(), user,
                                                         Device(ip=client_ip(), user_agent=client_device()))
    log_in(Actor(user_id=user.id, session_id=auth_session.id))


def check_sign_in_form() -> User:
    """The person whose email, password and second factor this POSTed form holds; failures raise
    (and are counted by the sign-in guard even though the request rolls back)."""
    return auth_service.check_credentials(
        db_session(), email=request.form.get("email", "")[:254], password=request.form.get("password", "")[:128],
        two_factor_code=request.form.get("code") or None, ip=client_ip())


def needs_second_factor(error: AppError) -> bool:
    """Whether a failed sign-in should show the code field."""
    return error.code in ("two_factor_required", "invalid_two_factor_code")


def sign_out_browser() -> None:
    actor = browser_actor()
    if actor is not None:
        auth_sessions.do_close_browser_session(db_session(), actor.session_id)
    log_out()


def _missing_link():
    return TEXTS[page_language()]["missing"]


@auth_pages.get("/verify-email")
@public
def verify_email_form():
    token = request.args.get("token", "")
    return render_page(_VERIFY, TEXTS, token=token, error=None if token else _missing_link())


@auth_pages.post("/verify-email")
@public
@form_body
def verify_email():
    token = request.form.get("token", "")[:200]
    try:
        email_links.check_verify_email(db_session(), token=token, ip=client_ip())
    except AppError as error:  # shown on the page; the unit of work rolls back on the 4xx
        return render_failure(_VERIFY, TEXTS, error, token=token)
    return render_page(_VERIFY, TEXTS, done=True)


@auth_pages.get("/reset-password")
@public
def reset_password_form():
    token = request.args.get("token", "")
    return render_page(_RESET, TEXTS, token=token, error=None if token else _missing_link())


@auth_pages.post("/reset-password")
@public
@form_body
def reset_password():
    token = request.form.get("token", "")[:200]
    password, confirm = request.form.get("password", ""), request.form.get("confirm", "")
    t = TEXTS[page_language()]
    if not PASSWORD_RULES["min_length"] <= len(password) <= PASSWORD_RULES["max_length"]:
        return render_page(_RESET, TEXTS, status=400, token=token, error=t["length"])
    if password != confirm:
        return render_page(_RESET, TEXTS, status=400, token=token, error=t["mismatch"])
    try:
        email_links.check_reset_password(db_session(), token=token, password=password, ip=client_ip())
    except AppError as error:
        return render_failure(_RESET, TEXTS, error, token=token)
    return render_page(_RESET, TEXTS, done=True)


@auth_pages.route("/sign-in", methods=["GET", "POST"])
@browser_form
def sign_in():
    target = safe_next(request.args.get("next"))
    if request.method == "GET":
        if browser_actor() is not None:
            return redirect(target)
        return render_page(_SIGN_IN, TEXTS, email="", need_code=False, next=target)
    try:
        user = check_sign_in_form()
    except AppError as error:
        return render_failure(_SIGN_IN, TEXTS, error, email=request.form.get("email", "")[:254], next=target,
                              need_code=needs_second_factor(error))
    sign_in_browser(user)
    return redirect(target)


@auth_pages.post("/sign-out")
@browser_form
def sign_out():
    sign_out_browser()
    return redirect("/sign-in")
