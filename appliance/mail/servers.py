"""The installation's mail server, set in the console by its administrator (the person of the
first run) and proven by a test mail before it is stored. APPLIANCE_SMTP_URL, when set, wins: the
console then shows it read-only. Until either exists, mail is kept in the outbox table and each
person's links are shown to them in the console."""

from __future__ import annotations

import smtplib
import socket

from sqlmodel import Session

from appliance.core import clock, runtime
from appliance.core.errors import Invalid
from appliance.installation import service as installation
from appliance.mail import smtp, templates
from appliance.mail.models import MailServer
from appliance.mail.delivery import MailTransport
from appliance.users.models import User

SECURITY = ("starttls", "ssl", "none")
_ROW = "default"
TEST_TIMEOUT_SECONDS = 10.0


def transport(session: Session) -> MailTransport:
    """Where mail goes now: the environment's URL, else the stored server, else nowhere."""
    settings = runtime.get().settings
    if settings.smtp_url:
        return MailTransport.from_url(settings.smtp_url, settings.mail_from)
    server = session.get(MailServer, _ROW)
    if server is None:
        return MailTransport(None, settings.mail_from)
    return MailTransport(_config(server, _password(server)), server.sender)


def is_set(session: Session) -> bool:
    return transport(session).config is not None


def current(session: Session) -> MailServer | None:
    return session.get(MailServer, _ROW)


def _password(server: MailServer | None) -> str | None:
    return runtime.get().keyring.unseal(server.password_sealed) if server and server.password_sealed else None


def _config(server: MailServer, password: str | None, timeout: float = smtp.SmtpConfig.timeout) -> smtp.SmtpConfig:
    return smtp.SmtpConfig(host=server.host, port=server.port, ssl=server.security == "ssl",
                           starttls=server.security == "starttls", username=server.username or None,
                           password=password, timeout=timeout)


def check_admin(session: Session, user_id: str) -> User:
    return installation.check_admin(session, user_id, what="sets the mail server")


def check_save(session: Session, *, user_id: str, host: str, port: int, security: str, sender: str,
               username: str | None = None, password: str | None = None) -> MailServer:
    """Send a test mail to the administrator through the server; store it only if that worked.
    A blank password keeps the stored one (the form never shows it back)."""
    with runtime.get().db.unit_of_work(write=False) as reading:  # no write lock while SMTP talks
        admin = check_admin(reading, user_id)
        stored = current(reading)
        name, to, locale = admin.name, admin.email, admin.locale
    password = password or _password(stored)
    candidate = MailServer(id=_ROW, host=host, port=port, security=security, username=username or None,
                           sender=sender, tested_at=clock.now(), updated_at=clock.now(), updated_by=user_id)
    text = templates.render("mail_server_test", locale, name=name, host=host)
    try:
        smtp.send(_config(candidate, password, TEST_TIMEOUT_SECONDS), sender=sender, to=to, subject=text.subject,
                  body=text.body, message_id=f"<test-{clock.now().timestamp()}@appliance>")
    except (OSError, smtplib.SMTPException, socket.timeout) as exc:
        raise Invalid(f"The mail server did not take the test mail: {_reason(exc)}. Nothing was saved.",
                      code="mail_server_test_failed", errors={"host": [_reason(exc)]}) from None
    server = session.get(MailServer, _ROW) or candidate
    for field in ("host", "port", "security", "username", "sender", "tested_at", "updated_at", "updated_by"):
        setattr(server, field, getattr(candidate, field))
    server.password_sealed = runtime.get().keyring.seal(password) if password else None
    session.add(server)
    return server


def _reason(exc: Exception) -> str:
    """What went wrong, without echoing credentials (SMTP answers can quote what was sent)."""
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return "the user name or password was refused"
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"it answered {exc.smtp_code}"
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return "it did not answer in time"
    if isinstance(exc, ConnectionRefusedError):
        return "nothing listens at that host and port"
    if isinstance(exc, socket.gaierror):
        return "the host name is unknown"
    return type(exc).__name__
