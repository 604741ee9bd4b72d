"""The mail outbox: queue a mail in the caller's transaction (a task delivers it after commit:
delivery.py), list what was written, seal old bodies."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.core import clock, runtime
from appliance.core.db import Database
from appliance.core.queue import enqueue_after_commit
from appliance.mail import tasks, templates
from appliance.mail.models import OutgoingMail


def do_queue_mail(session: Session, *, to: str, kind: str, locale: str, **values) -> OutgoingMail:
    """Store a mail and have it delivered once the transaction commits."""
    text = templates.render(kind, locale, **values)
    mail = OutgoingMail(to_address=to, subject=text.subject, body_sealed=runtime.get().keyring.seal(text.body),
                        created_at=clock.now())
    session.add(mail)
    session.flush()
    enqueue_after_commit(session, tasks.deliver_mail, mail.id)
    return mail


def seal_clear_bodies(database: Database) -> int:
    """Seal the bodies of mails written before bodies were sealed (at start, once; a migration has
    no key). Answers how many."""
    keyring = runtime.get().keyring
    with database.unit_of_work(write=True) as session:
        clear = session.exec(select(OutgoingMail).where(OutgoingMail.body_sealed.is_(None))).all()
        for mail in clear:
            mail.body_sealed, mail.body = keyring.seal(mail.body), ""
            session.add(mail)
    return len(clear)


def list_mails(session: Session, *, to: str | None = None, limit: int = 20) -> list[OutgoingMail]:
    query = select(OutgoingMail).order_by(OutgoingMail.id.desc()).limit(limit)
    if to:
        query = query.where(OutgoingMail.to_address == to.lower())
    return list(session.exec(query).all())
