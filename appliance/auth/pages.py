"""The browser's sign-in and sign-out (the helpers the OAuth and invitation pages use too), and the
pages behind the links we mail: confirm an email address, choose a new password; and signing in with
a passkey (the page's script, web/static/passkeys.js, runs the browser's side of the ceremony).

A mailed link only shows a page; the change happens on the button (a POST), so a mail scanner
that follows links does not spend the token.
"""

import json

from flask import Blueprint, jsonify, redirect, request

from appliance.auth import email_links, passkeys, relying_party
from appliance.auth import service as auth_service
from appliance.auth import sessions as auth_sessions
from appliance.auth.sessions import Device
from appliance.auth.texts import PASSKEY_TEXTS, TEXTS
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
_SIGN_IN_TEXTS = TEXTS | PASSKEY_TEXTS
_CREDENTIAL_CHARACTERS = 20_000  # a passkey's answer as JSON: a few hundred bytes, a few KB with attestation


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


def passkey_availability() -> relying_party.Availability:
    """Whether this page, opened where it was, may offer passkeys (and if not, why)."""
    return relying_party.availability(f"{request.scheme}://{request.host}")


def passkey_credential() -> dict | None:
    """The passkey answer a page's script put in the form (`credential`, JSON), or None."""
    try:
        credential = json.loads(request.form.get("credential", "")[:_CREDENTIAL_CHARACTERS])
    except ValueError:
        return None
    return credential if isinstance(credential, dict) else None


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
        return render_page(_SIGN_IN, _SIGN_IN_TEXTS, email="", need_code=False, next=target,
                           passkeys=passkey_availability())
    try:
        user = check_sign_in_form()
    except AppError as error:
        return render_failure(_SIGN_IN, _SIGN_IN_TEXTS, error, email=request.form.get("email", "")[:254], next=target,
                              need_code=needs_second_factor(error), passkeys=passkey_availability())
    sign_in_browser(user)
    return redirect(target)


@auth_pages.post("/sign-in/passkey/options")
@browser_form
def sign_in_passkey_options():
    """The script's first step: options (with a fresh challenge) for navigator.credentials.get."""
    return jsonify(publicKey=passkeys.do_login_options(db_session(), ip=client_ip()))


@auth_pages.post("/sign-in/passkey")
@browser_form
def sign_in_passkey():
    """The passkey's answer, posted as a form: signed in as after a password; the code's step when the
    passkey did not verify the person and they use two-step sign-in (the same answer posted again)."""
    target = safe_next(request.args.get("next"))
    credential = passkey_credential()
    try:
        user = passkeys.check_login(db_session(), credential=credential or {},
                                    two_factor_code=request.form.get("code") or None, ip=client_ip())
    except AppError as error:
        second_step = needs_second_factor(error) and credential is not None
        return render_failure(_SIGN_IN, _SIGN_IN_TEXTS, error, email="", need_code=False, next=target,
                              passkeys=passkey_availability(),
                              passkey_credential=request.form.get("credential", "") if second_step else None)
    sign_in_browser(user)
    return redirect(target)


@auth_pages.post("/sign-out")
@browser_form
def sign_out():
    sign_out_browser()
    return redirect("/sign-in")
