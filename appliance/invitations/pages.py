"""The page behind an invitation link: sign in (or create the account) with the invited email,
and join, in one step. The link only shows the page; the POST spends the invitation."""

from flask import Blueprint, render_template, request
from marshmallow import ValidationError

from appliance.auth import service as auth_service
from appliance.auth.schemas import SignupSchema
from appliance.auth.sessions import Device
from appliance.core.actor import Actor
from appliance.core.errors import AppError
from appliance.http.api import form_body, public
from appliance.http.auth import client_device, client_ip
from appliance.http.i18n import page_locale
from appliance.http.unit_of_work import db_session
from appliance.invitations import service

invitation_pages = Blueprint("invitation_pages", __name__)

TEXT = {
    "en": {"title": "Join {organization}", "intro": "You were invited as {role}, with {email}.",
           "have_account": "I have an account", "new_account": "I am new here", "name": "Your name",
           "password": "Password", "new_password": "Choose a password (8 or more characters)",
           "code": "Two-factor code (if you use one)", "join": "Join", "create_join": "Create my account and join",
           "joined": "Welcome! You are now a member of {organization}.", "invalid": "This invitation is invalid, used, revoked or expired.",
           "errors": {"invalid_credentials": "The password is incorrect.",
                      "two_factor_required": "Enter the code from your authenticator app.",
                      "invalid_two_factor_code": "That code is not valid.",
                      "too_many_requests": "Too many attempts. Wait a few minutes and try again.",
                      "email_taken": "An account with this email exists: use “I have an account”.",
                      "already_member": "You are already a member."}},
    "es": {"title": "Únete a {organization}", "intro": "Te invitaron como {role}, con {email}.",
           "have_account": "Ya tengo cuenta", "new_account": "Soy nuevo", "name": "Tu nombre",
           "password": "Contraseña", "new_password": "Elige una contraseña (8 caracteres o más)",
           "code": "Código de verificación (si lo usas)", "join": "Unirme", "create_join": "Crear mi cuenta y unirme",
           "joined": "¡Bienvenido! Ya eres miembro de {organization}.", "invalid": "Esta invitación no es válida, ya se usó, se revocó o caducó.",
           "errors": {"invalid_credentials": "La contraseña no es correcta.",
                      "two_factor_required": "Escribe el código de tu aplicación de autenticación.",
                      "invalid_two_factor_code": "Ese código no es válido.",
                      "too_many_requests": "Demasiados intentos. Espera unos minutos y vuelve a intentarlo.",
                      "email_taken": "Ya existe una cuenta con este correo: usa «Ya tengo cuenta».",
                      "already_member": "Ya eres miembro."}},
}


def _render(status=200, **context):
    lang = page_locale()
    return render_template("invitation_page.html", lang=lang, t=TEXT[lang], **context), status


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
        return _render(status=404, invalid=True)
    return _render(invitation=invitation, token=token)


@invitation_pages.post("/invitations/accept")
@public
@form_body
def accept_invitation():
    session = db_session()
    token = request.form.get("token", "")[:200]
    invitation = _preview(token)
    if invitation is None:
        return _render(status=404, invalid=True)
    device = Device(ip=client_ip(), user_agent=client_device())
    password = request.form.get("password", "")[:128]
    try:
        if request.form.get("action") == "signup":
            # The same field rules as POST /auth/signup (password length, clean name).
            fields = SignupSchema().load({"email": invitation.email, "password": password,
                                          "name": request.form.get("name", ""), "locale": page_locale()})
            signed_in = auth_service.check_signup(session, device=device, **fields)
        else:
            signed_in = auth_service.check_login(session, email=invitation.email, password=password,
                                                 two_factor_code=request.form.get("code") or None, device=device)
        service.check_accept(session, actor=Actor(user_id=signed_in.user.id), token=token)
    except ValidationError as error:
        field, messages = next(iter(error.normalized_messages().items()))
        return _render(status=400, invitation=invitation, token=token, error=f"{field}: {messages[0]}")
    except AppError as error:  # shown on the page; the unit of work rolls back on the 4xx
        message = TEXT[page_locale()]["errors"].get(error.code, error.detail)
        return _render(status=error.status, invitation=invitation, token=token, error=message)
    return _render(invitation=invitation, joined=True)
