import pytest

from appliance.core import runtime
from appliance.mail import delivery, service
from appliance.mail.smtp import SmtpConfig


def test_smtp_url_parsing():
    """smtp, smtps and STARTTLS URLs, with credentials."""
    config = SmtpConfig.from_url("smtp://me%40x.com:p%40ss@mail.example.com:587?starttls=1")
    assert (config.host, config.port, config.starttls, config.username, config.password) == \
        ("mail.example.com", 587, True, "me@x.com", "p@ss")
    assert SmtpConfig.from_url("smtps://mail.example.com").port == 465
    with pytest.raises(ValueError):
        SmtpConfig.from_url("http://mail.example.com")


def _queue_one(to="ana@example.com"):
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:
        mail = service.do_queue_mail(session, to=to, kind="verify_email", locale="en", name="Ana",
                                     token="t", hours=48, link="http://x")
        session.info["after_commit"].clear()  # deliver by hand below
    return database, mail.id


def _status(database, mail_id):
    from appliance.mail.models import OutgoingMail
    with database.unit_of_work(write=False) as session:
        return session.get(OutgoingMail, mail_id)


def test_without_smtp_mail_is_kept_and_its_links_never_logged(app, caplog):
    """No SMTP URL: the mail stays in the outbox table as 'logged' (the console shows its links to
    whom it was written); the log names it, never with its text (the links work)."""
    database, mail_id = _queue_one()
    caplog.set_level("INFO")
    delivery.deliver(database, delivery.MailTransport.from_url("", "a@b"), mail_id)
    assert _status(database, mail_id).status == "logged"
    assert "ana@example.com" in caplog.text and "http://x" not in caplog.text


def test_mail_bodies_are_sealed_at_rest_and_old_ones_sealed_at_start(app):
    """Issue 17, finding 5: a reset link read from outgoing_mails.body reset the password."""
    from sqlalchemy import text
    database, mail_id = _queue_one()
    with database.unit_of_work(write=False) as session:
        body, sealed = session.execute(text("SELECT body, body_sealed FROM outgoing_mails WHERE id = :id"),
                                       {"id": mail_id}).one()
    assert body == "" and "http://x" not in sealed
    assert "http://x" in delivery.body_of(_status(database, mail_id))
    with database.unit_of_work(write=True) as session:  # as a version before this one wrote it
        session.execute(text("UPDATE outgoing_mails SET body = 'reset: http://x/t', body_sealed = NULL"))
    assert service.seal_clear_bodies(database) == 1
    mail = _status(database, mail_id)
    assert mail.body == "" and delivery.body_of(mail) == "reset: http://x/t"
    assert service.seal_clear_bodies(database) == 0


def test_smtp_delivery_marks_sent_and_is_idempotent(app, mailbox, settings):
    """Delivered once over real SMTP; running the task again sends nothing more."""
    database, mail_id = _queue_one()
    transport = delivery.MailTransport.from_url(settings.smtp_url, "a@b")
    delivery.deliver(database, transport, mail_id)
    delivery.deliver(database, transport, mail_id)
    assert _status(database, mail_id).status == "sent"
    assert len(mailbox.to("ana@example.com")) == 1


def test_smtp_down_counts_the_attempt_and_raises_for_retry(app):
    """A refused connection raises (the queue retries) and the attempt is recorded."""
    database, mail_id = _queue_one()
    with pytest.raises(OSError):
        delivery.deliver(database, delivery.MailTransport.from_url("smtp://127.0.0.1:1", "a@b"), mail_id)
    mail = _status(database, mail_id)
    assert mail.status == "pending" and mail.attempts == 1 and mail.last_error
