"""Shift reminders: the organization's choices, and sending a reminder to a person over the enabled
channels (e-mail, push, the inbox). Which reminders are due is reminders.py's."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict
from appliance.core.i18n import _l, language_of, resolved
from appliance.core.queue import enqueue_after_commit
from appliance.core.schema import camelcase
from appliance.mail import service as mail_service
from appliance.organizations.zones import zone_of
from appliance.push import tasks as push_tasks
from appliance.shift_reminders.models import CHANNELS, ShiftReminder, ShiftReminderSettings
from appliance.users.models import User
from appliance.installation import public_address

FIELDS = ("enabled", "channels", "events", "shift_start_lead_min", "shift_end_lead_min")

# (subject, text) of each reminder, said in the person's language.
TEXTS = {
    "shiftStart": (_l("Your shift starts at {time}"),
                   _l("Your shift starts at {time}. Start it in the inbox when you arrive.")),
    "shiftEnd": (_l("Your shift ends at {time}"),
                 _l("Your shift ends at {time}. End it with a note when you are done.")),
    "missedStart": (_l("You have not started your shift"),
                    _l("Your shift began at {time} and you have not started it yet.")),
    "test": (_l("Test reminder"), _l("This is a test shift reminder: reminders reach you here.")),
}


def settings_of(session: Session, organization_id: str) -> ShiftReminderSettings:
    return session.get(ShiftReminderSettings, organization_id) or ShiftReminderSettings(organization_id=organization_id)


def do_update(session: Session, *, actor: OrgActor, **changes) -> ShiftReminderSettings:
    """Partial: channels and events merge key by key into what is saved."""
    found = settings_of(session, actor.organization_id)
    for name in FIELDS:
        if name not in changes:
            continue
        value = changes[name]
        if name in ("channels", "events"):  # events' keys arrive snake_case from the schema
            value = {**getattr(found, name), **{camelcase(key): on for key, on in value.items()}}
        setattr(found, name, value)
    found.updated_at = clock.now()
    session.add(found)
    session.flush()
    return found


def texts_for(kind: str, locale: str, at: str) -> tuple[str, str]:
    subject, text = resolved(TEXTS[kind], language_of(locale))
    return subject.format(time=at), text.format(time=at)


def send(session: Session, *, settings: ShiftReminderSettings, organization_id: str, user: User, kind: str,
         shift_start_ms: int, at: str) -> ShiftReminder | None:
    """One reminder over the enabled channels, recorded (once: the same person, shift and kind is
    never reminded twice). Answers the record, or None when it was already sent."""
    if session.get(ShiftReminder, (organization_id, user.id, shift_start_ms, kind)) is not None:
        return None
    subject, text = texts_for(kind, user.locale, at)
    channels = [name for name in CHANNELS if settings.channels.get(name)]
    link = public_address.url(f"/inbox/{organization_id}")
    if "email" in channels:
        mail_service.do_queue_mail(session, to=user.email, kind="shift_reminder", locale=user.locale, subject=subject,
                                   name=user.name, text=text, link=link)
    if "push" in channels:
        enqueue_after_commit(session, push_tasks.push_to_users, [user.id],
                             {"title": subject, "body": text, "url": f"/inbox/{organization_id}", "tag": f"shift-{kind}"})
    reminder = ShiftReminder(organization_id=organization_id, user_id=user.id, shift_start_ms=shift_start_ms, kind=kind,
                             channels=channels, text=text[:300], sent_at=clock.now())
    session.add(reminder)
    session.flush()
    return reminder


def do_send_test(session: Session, *, actor: OrgActor) -> ShiftReminder:
    settings = settings_of(session, actor.organization_id)
    if not any(settings.channels.get(name) for name in CHANNELS):
        raise Conflict("No channel is enabled: turn on e-mail, push or the inbox first.", code="no_channel_enabled")
    now = clock.now()
    return send(session, settings=settings, organization_id=actor.organization_id, user=session.get(User, actor.user_id),
                kind="test", shift_start_ms=int(now.timestamp() * 1000),
                at=now.astimezone(zone_of(session, actor.organization_id)).strftime("%H:%M"))  # as the real ones say it


def unseen(session: Session, organization_id: str, user_id: str) -> ShiftReminder | None:
    """The newest reminder for the inbox not yet dismissed (from the last 12 hours)."""
    since = datetime.fromtimestamp(clock.now().timestamp() - 12 * 3600, timezone.utc)
    found = session.exec(select(ShiftReminder).where(
        ShiftReminder.organization_id == organization_id, ShiftReminder.user_id == user_id,
        ShiftReminder.seen_at.is_(None), ShiftReminder.sent_at >= since).order_by(ShiftReminder.sent_at.desc())).first()
    return found if found is not None and "inbox" in found.channels else None


def do_dismiss(session: Session, organization_id: str, user_id: str) -> None:
    for reminder in session.exec(select(ShiftReminder).where(ShiftReminder.organization_id == organization_id,
                                                             ShiftReminder.user_id == user_id,
                                                             ShiftReminder.seen_at.is_(None))):
        reminder.seen_at = clock.now()
        session.add(reminder)

