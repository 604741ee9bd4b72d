"""My account: profile and language, password, two-factor authentication (QR code, recovery codes),
passkeys, open sessions, and, while no mail server is set, the mails the appliance would have sent you."""

from __future__ import annotations

import re

from flask import jsonify, request

from appliance.auth import passkeys
from appliance.auth import service as auth_service
from appliance.auth import sessions as auth_sessions
from appliance.auth import two_factor
from appliance.auth.pages import passkey_availability, passkey_credential
from appliance.auth.schemas import PasskeyRegisterSchema
from appliance.auth.texts import PASSKEY_TEXTS
from appliance.console import forms
from appliance.console.common import back, console_pages, render
from appliance.core.errors import AppError
from appliance.http.auth import client_ip
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.pages import check_form, choose_language
from appliance.http.unit_of_work import db_session
from appliance.mail import servers as mail_servers
from appliance.mail import delivery as mail_delivery
from appliance.mail import service as mail_service
from appliance.users import service as users_service
from appliance.users.schemas import ChangePasswordSchema, UserUpdateSchema

_ACCOUNT = "console/account.html"
_ACTIVE = "console_pages.account"
_LINK = re.compile(r"https?://\S+")


def _unsent_mails(email: str) -> list[dict]:
    """Without SMTP, mail is only kept: show the person theirs (verification links) here."""
    if mail_servers.is_set(db_session()):
        return []
    mails = mail_service.list_mails(db_session(), to=email, limit=5)
    return [{"subject": m.subject, "at": m.created_at, "links": _LINK.findall(mail_delivery.body_of(m))} for m in mails]


def _page(status: int = 200, error: AppError | None = None, **extra):
    actor = browser_actor()
    user = users_service.access_me(db_session(), actor=actor)
    context = {"user": user, "sessions": auth_sessions.list_sessions(db_session(), actor=actor),
               "current_session": actor.session_id, "mails": _unsent_mails(user.email),
               "passkeys": passkeys.list_passkeys(db_session(), actor=actor), "passkey_offer": passkey_availability(),
               "done": request.args.get("done"), **extra}
    secret_shown = "setup" in extra or "recovery_codes" in extra
    return render(_ACCOUNT, None, _ACTIVE, error=error, status=status, no_store=secret_shown, texts=PASSKEY_TEXTS,
                  **context)


@console_pages.get("/console/account")
@signed_in_page
def account():
    return _page()


@console_pages.post("/console/account/profile")
@signed_in_page
def account_profile():
    try:
        fields = check_form(UserUpdateSchema(), {"name": forms.text("name", 200), "locale": forms.text("locale", 5)})
    except AppError as error:
        return _page(error=error, form="profile")
    users_service.do_update_profile(db_session(), actor=browser_actor(), **fields)
    choose_language(fields["locale"])  # the pages follow the language the person chose
    return back(_ACTIVE, "profile")


@console_pages.post("/console/account/password")
@signed_in_page
def account_password():
    try:
        fields = check_form(ChangePasswordSchema(), {"currentPassword": request.form.get("current", "")[:200],
                                                     "newPassword": request.form.get("new", "")[:200]})
        auth_service.check_change_password(db_session(), actor=browser_actor(), ip=client_ip(), **fields)
    except AppError as error:
        return _page(error=error, form="password")
    return back(_ACTIVE, "password")


@console_pages.post("/console/account/sessions/<uuid:session_id>/close")
@signed_in_page
def account_close_session(session_id):
    auth_sessions.do_close_session(db_session(), actor=browser_actor(), session_id=str(session_id))
    return back(_ACTIVE, "session_closed")


@console_pages.post("/console/account/sessions/close-others")
@signed_in_page
def account_close_other_sessions():
    auth_sessions.do_close_other_sessions(db_session(), actor=browser_actor())
    return back(_ACTIVE, "sessions_closed")


@console_pages.post("/console/account/2fa/setup")
@signed_in_page
def account_2fa_setup():
    """A new seed, pending until a code from it turns 2FA on; the QR code is shown once, here."""
    try:
        setup = two_factor.do_setup(db_session(), actor=browser_actor())
    except AppError as error:
        return _page(error=error, form="2fa")
    return _page(setup=setup)


@console_pages.post("/console/account/2fa/enable")
@signed_in_page
def account_2fa_enable():
    try:
        codes = two_factor.check_enable(db_session(), actor=browser_actor(), code=forms.text("code", 40),
                                        ip=client_ip())
    except AppError as error:  # the same QR code again, to try the next code
        setup = two_factor.pending_setup(db_session(), actor=browser_actor())
        return _page(error=error, form="2fa", **({"setup": setup} if setup else {}))
    return _page(recovery_codes=codes)


@console_pages.post("/console/account/2fa/disable")
@signed_in_page
def account_2fa_disable():
    try:
        two_factor.check_disable(db_session(), actor=browser_actor(), password=request.form.get("password", "")[:200],
                                 code=forms.text("code", 40), ip=client_ip())
    except AppError as error:
        return _page(error=error, form="2fa")
    return back(_ACTIVE, "2fa_off")


@console_pages.post("/console/account/2fa/recovery-codes")
@signed_in_page
def account_2fa_recovery_codes():
    try:
        codes = two_factor.check_regenerate_recovery_codes(db_session(), actor=browser_actor(),
                                                           code=forms.text("code", 40), ip=client_ip())
    except AppError as error:
        return _page(error=error, form="2fa")
    return _page(recovery_codes=codes)


@console_pages.post("/console/account/passkeys/options")
@signed_in_page
def account_passkey_options():
    """The script's first step: options (with a fresh challenge) for navigator.credentials.create."""
    return jsonify(publicKey=passkeys.do_registration_options(db_session(), actor=browser_actor(), ip=client_ip()))


@console_pages.post("/console/account/passkeys")
@signed_in_page
def account_passkey_add():
    """The new passkey the browser made, posted with its name by the page's script."""
    try:
        fields = check_form(PasskeyRegisterSchema(), {"name": forms.text("name", 200) or "Passkey",
                                                      "credential": passkey_credential()})
        passkeys.check_register(db_session(), actor=browser_actor(), ip=client_ip(), **fields)
    except AppError as error:
        return _page(error=error, form="passkeys")
    return back(_ACTIVE, "passkey_added")


@console_pages.post("/console/account/passkeys/<uuid:passkey_id>/remove")
@signed_in_page
def account_passkey_remove(passkey_id):
    passkeys.do_remove(db_session(), actor=browser_actor(), passkey_id=str(passkey_id))
    return back(_ACTIVE, "passkey_removed")
