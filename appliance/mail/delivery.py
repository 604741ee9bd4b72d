"""How a queued mail leaves: where it goes (`MailTransport`: the SMTP server, or nowhere and the
mail is kept), one delivery with its retries, the mails whose task was lost, and a mail's body read
back from its seal (shown to whom it was written: the console, the CLI)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, select

from appliance.core import clock, runtime
from appliance.core.db import Database
from appliance.mail import smtp
from appliance.mail.models import OutgoingMail

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 6


def body_of(mail: OutgoingMail) -> str:
    """The mail's text (its links work: show it only to whom it was written)."""
    return runtime.get().keyring.unseal(mail.body_sealed) if mail.body_sealed is not None else mail.body


def list_stuck_ids(session: Session, *, older_than_seconds: int = 60) -> list[str]:
    cutoff = clock.now() - timedelta(seconds=older_than_seconds)
    return list(session.exec(select(OutgoingMail.id).where(
        OutgoingMail.status == "pending", OutgoingMail.created_at < cutoff)).all())


@dataclass(frozen=True)
class MailTransport:
    """Where mail goes: an SMTP server (None: kept in the outbox table and logged) and the sender."""

    config: smtp.SmtpConfig | None
    sender: str

    @classmethod
    def from_url(cls, smtp_url: str, sender: str) -> "MailTransport":
        return cls(smtp.SmtpConfig.from_url(smtp_url) if smtp_url else None, sender)


def deliver(database: Database, transport: MailTransport, mail_id: str) -> None:
    """Send one pending mail. Opens its own short transactions: SMTP must not hold the write lock.

    Safe to run twice: a mail that is no longer pending is left alone. Raises on an SMTP failure
    so that the queue retries it.
    """
    with database.unit_of_work(write=False) as session:
        mail = session.get(OutgoingMail, mail_id)
        if mail is None or mail.status != "pending":
            return
    if transport.config is None:
        # Kept for the console (the person's account page, the team page), never in the log: its links work.
        log.info("mail kept, no SMTP configured: to=%s subject=%s", mail.to_address, mail.subject)
        _finish(database, mail_id, "logged")
        return
    try:
        smtp.send(transport.config, sender=transport.sender,
                  to=mail.to_address, subject=mail.subject, body=body_of(mail),
                  message_id=f"<{mail.id}@appliance>")
    except Exception as exc:
        _record_failure(database, mail_id, exc)
        raise
    _finish(database, mail_id, "sent")


def _finish(database: Database, mail_id: str, status: str) -> None:
    with database.unit_of_work(write=True) as session:
        mail = session.get(OutgoingMail, mail_id)
        mail.status, mail.delivered_at = status, clock.now()
        mail.attempts += 1
        session.add(mail)


def _record_failure(database: Database, mail_id: str, exc: Exception) -> None:
    log.warning("mail %s not delivered: %s", mail_id, exc)
    with database.unit_of_work(write=True) as session:
        mail = session.get(OutgoingMail, mail_id)
        mail.attempts += 1
        mail.last_error = repr(exc)[:1000]
        if mail.attempts >= MAX_ATTEMPTS:
            mail.status = "failed"
        session.add(mail)
