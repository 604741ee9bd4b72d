"""The browser's sign-in and sign-out, and the pages behind the links we mail: confirm an email
address, choose a new password.

A mailed link only shows a page; the change happens on the button (a POST), so a mail scanner
that follows links does not spend the token.
"""

from flask import Blueprint, redirect, render_template, request

from appliance.auth import email_links
from appliance.auth import service as auth_service
from appliance.auth import sessions as auth_sessions
from appliance.auth.sessions import Device
from appliance.core.actor import Actor
from appliance.core.errors import AppError
from appliance.http.api import form_body, public
from appliance.http.auth import client_device, client_ip
from appliance.http.browser import browser_actor, browser_form, log_in, log_out, safe_next
from appliance.http.i18n import page_locale
from appliance.http.unit_of_work import db_session
from appliance.users.models import User
from appliance.users.schemas import PASSWORD_RULES

auth_pages = Blueprint("auth_pages", __name__)

TEXT = {
    "en": {
        "verify_title": "Confirm your email", "verify_intro": "Press the button to confirm this address.",
        "verify_button": "Confirm my email", "verified": "Your email is confirmed. You can close this page.",
        "reset_title": "Choose a new password", "reset_intro": "At least 8 characters. Every session of the account will be closed.",
        "password": "New password", "confirm": "Repeat it", "reset_button": "Change password",
        "reset_done": "Your password has changed. Sign in with the new one.",
        "mismatch": "The two passwords are not the same.", "length": "Use between 8 and 128 characters.",
        "missing": "This link is incomplete: open the whole link from the mail.",
        "signin_title": "Sign in", "email": "Email", "signin_password": "Password",
        "code": "Authenticator or recovery code", "signin_button": "Sign in",
        "forgot": "Forgot your password? Ask for a reset link through the API or your administrator.",
    },
    "es": {
        "verify_title": "Confirma tu correo", "verify_intro": "Pulsa el botón para confirmar esta dirección.",
        "verify_button": "Confirmar mi correo", "verified": "Tu correo está confirmado. Puedes cerrar esta página.",
        "reset_title": "Elige una contraseña nueva", "reset_intro": "Mínimo 8 caracteres. Se cerrarán todas las sesiones de la cuenta.",
        "password": "Contraseña nueva", "confirm": "Repítela", "reset_button": "Cambiar contraseña",
        "reset_done": "Tu contraseña cambió. Inicia sesión con la nueva.",
        "mismatch": "Las dos contraseñas no coinciden.", "length": "Usa entre 8 y 128 caracteres.",
        "missing": "Este enlace está incompleto: abre el enlace completo del correo.",
        "signin_title": "Iniciar sesión", "email": "Correo", "signin_password": "Contraseña",
        "code": "Código del autenticador o de recuperación", "signin_button": "Entrar",
        "forgot": "¿Olvidaste la contraseña? Pide un enlace de cambio por la API o a tu administrador.",
    },
}


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


_INVALID_LINK = {"en": "This link is invalid, used or expired. Ask for a new one.",
                 "es": "Este enlace no es válido, ya se usó o caducó. Pide uno nuevo."}


def _page(kind: str, *, status: int = 200, **context):
    lang = page_locale()
    return render_template("auth_page.html", kind=kind, lang=lang, t=TEXT[lang], **context), status


def _failure(kind: str, error: AppError, token: str):
    lang = page_locale()
    message = _INVALID_LINK[lang] if error.code == "invalid_token" else error.detail
    return _page(kind, status=error.status, error=message, token=token)


@auth_pages.get("/verify-email")
@public
def verify_email_form():
    token = request.args.get("token", "")
    return _page("verify", token=token, error=None if token else TEXT[page_locale()]["missing"])


@auth_pages.post("/verify-email")
@public
@form_body
def verify_email():
    token = request.form.get("token", "")[:200]
    try:
        email_links.check_verify_email(db_session(), token=token, ip=client_ip())
    except AppError as error:  # shown on the page; the unit of work rolls back on the 4xx
        return _failure("verify", error, token)
    return _page("verified")


@auth_pages.get("/reset-password")
@public
def reset_password_form():
    token = request.args.get("token", "")
    return _page("reset", token=token, error=None if token else TEXT[page_locale()]["missing"])


@auth_pages.post("/reset-password")
@public
@form_body
def reset_password():
    token = request.form.get("token", "")[:200]
    password, confirm = request.form.get("password", ""), request.form.get("confirm", "")
    t = TEXT[page_locale()]
    if not PASSWORD_RULES["min_length"] <= len(password) <= PASSWORD_RULES["max_length"]:
        return _page("reset", status=400, token=token, error=t["length"])
    if password != confirm:
        return _page("reset", status=400, token=token, error=t["mismatch"])
    try:
        email_links.check_reset_password(db_session(), token=token, password=password, ip=client_ip())
    except AppError as error:
        return _failure("reset", error, token)
    return _page("reset_done")


@auth_pages.route("/sign-in", methods=["GET", "POST"])
@browser_form
def sign_in():
    target = safe_next(request.args.get("next"))
    if request.method == "GET":
        if browser_actor() is not None:
            return redirect(target)
        return _page("signin", email="", need_code=False, next=target)
    try:
        user = check_sign_in_form()
    except AppError as error:
        return _page("signin", status=error.status, email=request.form.get("email", "")[:254], error=error.detail,
                     next=target, need_code=needs_second_factor(error))
    sign_in_browser(user)
    return redirect(target)


@auth_pages.post("/sign-out")
@browser_form
def sign_out():
    sign_out_browser()
    return redirect("/sign-in")
