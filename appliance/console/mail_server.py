"""The installation's mail server (SMTP): set by its administrator, proven by a test mail to them
before it is stored. Until it is set, each person finds their mails' links on My account, and
inviters find their invitations' links on the team page."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, render
from appliance.core import runtime
from appliance.core.errors import AppError
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.mail import servers
from appliance.mail.schemas import MailServerSchema

_PAGE, _ACTIVE = "console/mail_server.html", "console_pages.mail_server"


def _page(error: AppError | None = None):
    session = db_session()
    servers.check_admin(session, browser_actor().user_id)
    settings = runtime.get().settings
    stored = servers.current(session)
    from_environment = settings.smtp_url.split("@")[-1].split("?")[0] if settings.smtp_url else None
    values = {"host": stored.host if stored else "", "port": stored.port if stored else 587,
              "security": stored.security if stored else "starttls", "username": (stored.username or "") if stored else "",
              "sender": stored.sender if stored else settings.mail_from}
    if error is not None:
        values.update({key: request.form.get(key, "")[:254] for key in ("host", "port", "security", "username", "sender")})
    return render(_PAGE, None, _ACTIVE, error=error, stored=stored, from_environment=from_environment, values=values,
                  security_choices=servers.SECURITY, done=request.args.get("done"))


@console_pages.get("/console/mail")
@signed_in_page
def mail_server():
    return _page()


@console_pages.post("/console/mail")
@signed_in_page
def mail_server_save():
    try:
        fields = check_form(MailServerSchema(), {
            "host": forms.text("host", 253), "port": forms.text("port", 5) or None, "security": forms.text("security", 10),
            "username": forms.optional("username", 254), "password": request.form.get("password", "")[:500] or None,
            "sender": forms.text("sender", 254)})
        servers.check_save(db_session(), user_id=browser_actor().user_id, **fields)
    except AppError as error:
        return _page(error)
    return back(_ACTIVE, "mail_server_saved")
