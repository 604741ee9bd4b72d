"""Broadcasts people and integrations create and manage: the checks at creation (number, template,
variables, audience, schedule), the listing with live counts, the recipients, cancel, resume and
retry-failed. The sending itself is runner.py's.

States: SCHEDULED (scheduledAt ahead) -> RUNNING -> COMPLETED; PAUSED while the template or the
account cannot send (the reason says which; POST /resume carries on); CANCELLED from any but
COMPLETED. A recipient's state is its message's (pending, sent, delivered, read, failed) unless it
was skipped (opted_out, invalid_number, duplicate, missing_variable, cancelled)."""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace

from sqlalchemy import and_, case, func, or_
from sqlmodel import Session, select

from appliance.broadcasts import personalize, tasks
from appliance.broadcasts.updates import status_changed
from appliance.broadcasts.models import Broadcast, BroadcastRecipient
from appliance.contacts.models import Contact, ContactList, ContactListMember
from appliance.core import clock, pagination, tenancy
from appliance.core.actor import OrgActor
from appliance.core.db import after_commit
from appliance.core.rows import insert_many
from appliance.core.errors import Conflict, Invalid
from appliance.core.ids import new_id
from appliance.messages.models import Message
from appliance.messages.sending import queue as send_queue
from appliance.messages.sending import template_fill
from appliance.phone_numbers import service as phone_numbers_service

MAX_CONTACT_IDS = 10_000  # in one request; bigger audiences go through contact lists
REPLY_WINDOW = timedelta(days=30)  # the reference: replies within 30 days of sending count
FILTERS = ("replied", "read", "delivered", "sent", "failed", "pending", "skipped")


def _problem(field: str, message: str, code: str = "validation_failed") -> Invalid:
    return Invalid(f"{field}: {message}", code=code, errors={field: [message]})


# Creating -------------------------------------------------------------------------------------------

def do_create(session: Session, *, actor: OrgActor, name: str, phone_number_id: str, template_id: str | None = None,
              template_name: str | None = None, template_language: str | None = None, variables=None,
              audience: dict, scheduled_at: datetime | None = None) -> SimpleNamespace:
    number = _number(session, actor, phone_number_id)
    if not template_id and not template_name:
        raise _problem("templateId", "Give templateId, or templateName (and templateLanguage).")
    template = template_fill.resolve(session, actor=actor, waba_pk=number.waba_pk, template_id=template_id,
                                     name=template_name, language=template_language)
    personalize.check(variables)
    template_fill.fill(template, personalize.sample(variables))  # 400 by field when they do not fill it
    now = clock.now()
    if scheduled_at is not None and scheduled_at <= now:
        raise _problem("scheduledAt", "A time in the future; leave it out to send now.", code="schedule_in_past")
    contacts = _audience(session, actor, audience)
    broadcast = Broadcast(organization_id=actor.organization_id, name=name, phone_number_pk=number.id,
                          template_id=template.id, template_name=template.name, template_language=template.language,
                          variables=variables, audience=audience, status="SCHEDULED" if scheduled_at else "RUNNING",
                          scheduled_at=scheduled_at, started_at=None if scheduled_at else now,
                          created_by_user_id=actor.user_id, created_at=now, updated_at=now)
    session.add(broadcast)
    session.flush()
    recipients = _recipients(broadcast, contacts)
    insert_many(session, BroadcastRecipient.__table__, recipients)
    _wake_runner(session, broadcast)
    skipped = sum(1 for r in recipients if r["skipped_reason"])
    return _shown(broadcast, {"total": len(recipients), "pending": len(recipients) - skipped, "sent": 0,
                              "delivered": 0, "read": 0, "failed": 0, "skipped": skipped, "replied": 0})


def _number(session: Session, actor: OrgActor, phone_number_id: str):
    phone_numbers_service.scope_of(session, actor).check_covers([phone_number_id])  # 403 for one kept to others
    try:
        return phone_numbers_service.read_phone_number(session, actor=actor, phone_number_pk=phone_number_id)
    except Exception as error:  # another organization's or a disconnected number: the field is wrong
        if getattr(error, "status", None) != 404:
            raise
        raise _problem("phoneNumberId", "No connected number with this id in this organization.",
                       code="phone_number_not_found") from None


def _audience(session: Session, actor: OrgActor, audience: dict) -> list[tuple[str, str | None, bool]]:
    """(contact id, wa_id, opted out) of every contact in the lists and ids, each once, oldest first."""
    list_ids = list(dict.fromkeys(audience.get("contact_list_ids") or ()))
    contact_ids = list(dict.fromkeys(audience.get("contact_ids") or ()))
    if not list_ids and not contact_ids:
        raise _problem("audience", "Give contactListIds, contactIds or both.", code="audience_empty")
    if len(contact_ids) > MAX_CONTACT_IDS:
        raise _problem("audience.contactIds", f"At most {MAX_CONTACT_IDS:,} ids; put bigger audiences in a contact list.")
    org = actor.organization_id
    if list_ids:
        known = set(session.exec(select(ContactList.id).where(ContactList.organization_id == org,
                                                              ContactList.id.in_(list_ids))).all())
        unknown = [i for i in list_ids if i not in known]
        if unknown:
            raise _problem("audience.contactListIds", f"No contact list {unknown[0]} in this organization.",
                           code="contact_list_not_found")
    if contact_ids:
        known = set(session.exec(select(Contact.id).where(Contact.organization_id == org,
                                                          Contact.id.in_(contact_ids))).all())
        unknown = [i for i in contact_ids if i not in known]
        if unknown:
            raise _problem("audience.contactIds", f"No contact {unknown[0]} in this organization"
                           + (f" (and {len(unknown) - 1} more)." if len(unknown) > 1 else "."), code="contact_not_found")
    members = select(ContactListMember.contact_id).where(ContactListMember.list_id.in_(list_ids))
    rows = session.exec(select(Contact.id, Contact.wa_id, Contact.opted_out_at)
                        .where(Contact.organization_id == org,
                               or_(Contact.id.in_(members) if list_ids else False,
                                   Contact.id.in_(contact_ids) if contact_ids else False))
                        .order_by(Contact.created_at, Contact.id)).all()
    if not rows:
        raise _problem("audience", "These lists have no contacts yet.", code="audience_empty")
    reachable = [row for row in rows if row[1] and row[2] is None]
    if not reachable:
        raise _problem("audience", f"None of the {len(rows)} contacts can be sent to: every one opted out or has no "
                       "WhatsApp number.", code="audience_unreachable")
    return [(contact_id, wa_id, opted_out_at is not None) for contact_id, wa_id, opted_out_at in rows]


def _recipients(broadcast: Broadcast, contacts) -> list[dict]:
    seen: set[str] = set()
    rows = []
    for contact_id, wa_id, opted_out in contacts:
        reason = ("invalid_number" if not wa_id else "opted_out" if opted_out else "duplicate" if wa_id in seen else None)
        if wa_id:
            seen.add(wa_id)
        rows.append({"id": new_id(), "broadcast_id": broadcast.id, "organization_id": broadcast.organization_id,
                     "contact_id": contact_id, "wa_id": wa_id or "", "skipped_reason": reason, "message_id": None,
                     "attempts": 0, "sent_at": None, "replied_at": None})
    return rows


def _wake_runner(session: Session, broadcast: Broadcast) -> None:
    at = broadcast.scheduled_at if broadcast.status == "SCHEDULED" else None
    after_commit(session, lambda: tasks.wake(broadcast.id, at=at))


# Reading --------------------------------------------------------------------------------------------

def access_broadcast(session: Session, *, actor: OrgActor, broadcast_id: str) -> Broadcast:
    scope = phone_numbers_service.scope_of(session, actor)
    return tenancy.access_in_org(session, Broadcast, broadcast_id, actor, what="broadcast", code="broadcast_not_found",
                                 usable=lambda broadcast: scope.reaches(broadcast.phone_number_pk))


def get_broadcast(session: Session, *, actor: OrgActor, broadcast_id: str) -> Broadcast:
    broadcast = access_broadcast(session, actor=actor, broadcast_id=broadcast_id)
    return _shown(broadcast, counts_of(session, [broadcast.id])[broadcast.id])


def _shown(broadcast: Broadcast, counts: dict) -> SimpleNamespace:
    """The broadcast as answered: its fields, its template as one object and its live counts (not
    a column)."""
    template = {"id": broadcast.template_id, "name": broadcast.template_name, "language": broadcast.template_language}
    return SimpleNamespace(**broadcast.model_dump(), template=template, counts=counts)


def _visible(session: Session, actor: OrgActor, query):
    """`query` kept to the actor's organization and numbers (a key or member kept to some sees theirs)."""
    query = query.where(Broadcast.organization_id == actor.organization_id)
    return phone_numbers_service.scope_of(session, actor).only_numbers(query, Broadcast.phone_number_pk)


def count_with_status(session: Session, *, actor: OrgActor, status: str) -> int:
    """How many of the actor's campaigns are in `status` (the console's home: the paused ones)."""
    query = select(func.count()).select_from(Broadcast).where(Broadcast.status == status)
    return session.exec(_visible(session, actor, query)).one()


def list_broadcasts(session: Session, *, actor: OrgActor, take: int, cursor: str | None, status: str | None = None,
                    phone_number_id: str | None = None) -> pagination.Page:
    """Newest first, each with its counts; a key or member kept to some numbers sees theirs only."""
    query = _visible(session, actor, select(Broadcast))
    if status:
        query = query.where(Broadcast.status == status)
    if phone_number_id:
        query = query.where(Broadcast.phone_number_pk == phone_number_id)
    page = pagination.paginate(session, query, key=[Broadcast.created_at, Broadcast.id], take=take, cursor=cursor)
    counts = counts_of(session, [b.id for b in page.items])
    return pagination.Page([_shown(b, counts[b.id]) for b in page.items], page.next_cursor)


def _state():
    """A recipient's state as one SQL expression: skipped, pending (no message yet, or queued), or
    the message's status."""
    return case((BroadcastRecipient.skipped_reason.is_not(None), "skipped"),
                (BroadcastRecipient.message_id.is_(None), "pending"),
                (Message.status == "pending", "pending"), else_=Message.status)


def counts_of(session: Session, broadcast_ids: list[str]) -> dict[str, dict]:
    """{total, pending, sent, delivered, read, failed, skipped, replied} of each broadcast. sent,
    delivered and read count every recipient that got at least that far (a read message was also
    delivered and sent), so they read as a funnel."""
    result = {b: {"total": 0, "pending": 0, "sent": 0, "delivered": 0, "read": 0, "failed": 0, "skipped": 0,
                  "replied": 0} for b in broadcast_ids}
    if not broadcast_ids:
        return result
    state = _state()
    rows = session.exec(select(BroadcastRecipient.broadcast_id, state, func.count(), func.count(BroadcastRecipient.replied_at))
                        .select_from(BroadcastRecipient)
                        .outerjoin(Message, Message.id == BroadcastRecipient.message_id)
                        .where(BroadcastRecipient.broadcast_id.in_(broadcast_ids))
                        .group_by(BroadcastRecipient.broadcast_id, state)).all()
    for broadcast_id, name, count, replied in rows:
        counts = result[broadcast_id]
        counts["total"] += count
        counts["replied"] += replied
        if name in ("sent", "delivered", "read"):
            counts["sent"] += count
            counts["delivered"] += count if name in ("delivered", "read") else 0
            counts["read"] += count if name == "read" else 0
        else:
            counts[name if name in counts else "failed"] += count
    return result


def list_recipients(session: Session, *, actor: OrgActor, broadcast_id: str, take: int, cursor: str | None,
                    filter: str | None = None) -> pagination.Page:
    """In the audience's order; `filter` as the counts read (delivered includes read...)."""
    broadcast = access_broadcast(session, actor=actor, broadcast_id=broadcast_id)
    state = _state().label("status")
    query = (select(BroadcastRecipient.id, BroadcastRecipient.contact_id, BroadcastRecipient.wa_id,
                    BroadcastRecipient.skipped_reason, BroadcastRecipient.message_id, BroadcastRecipient.attempts,
                    BroadcastRecipient.sent_at, BroadcastRecipient.replied_at, state,
                    Message.error_code, Message.error_title, Contact.name, Contact.profile_name)
             .select_from(BroadcastRecipient)
             .outerjoin(Message, Message.id == BroadcastRecipient.message_id)
             .join(Contact, Contact.id == BroadcastRecipient.contact_id)
             .where(BroadcastRecipient.broadcast_id == broadcast.id))
    wanted = {"replied": BroadcastRecipient.replied_at.is_not(None),
              "read": Message.status == "read",
              "delivered": Message.status.in_(("delivered", "read")),
              "sent": Message.status.in_(("sent", "delivered", "read")),
              "failed": and_(BroadcastRecipient.skipped_reason.is_(None), Message.status == "failed"),
              "pending": and_(BroadcastRecipient.skipped_reason.is_(None),
                              or_(BroadcastRecipient.message_id.is_(None), Message.status == "pending")),
              "skipped": BroadcastRecipient.skipped_reason.is_not(None)}
    if filter:
        query = query.where(wanted[filter])
    return pagination.paginate(session, query, key=[BroadcastRecipient.id], take=take, cursor=cursor, descending=False)


# Changing -------------------------------------------------------------------------------------------

def do_cancel(session: Session, *, actor: OrgActor, broadcast_id: str) -> Broadcast:
    """Nothing more goes: recipients not yet given a message are skipped (`cancelled`), and messages
    still waiting their turn fail with -5 instead of leaving; those already in the air finish."""
    broadcast = access_broadcast(session, actor=actor, broadcast_id=broadcast_id)
    if broadcast.status in ("COMPLETED", "CANCELLED"):
        raise Conflict(f"The broadcast is {broadcast.status.lower()} already.", code="broadcast_finished")
    now = clock.now()
    broadcast.status, broadcast.completed_at, broadcast.updated_at = "CANCELLED", now, now
    session.add(broadcast)
    session.flush()
    status_changed(session, broadcast)
    waiting = BroadcastRecipient.__table__
    session.execute(waiting.update().where(waiting.c.broadcast_id == broadcast.id, waiting.c.message_id.is_(None),
                                           waiting.c.skipped_reason.is_(None)).values(skipped_reason="cancelled"))
    queued = session.exec(select(BroadcastRecipient.message_id).join(Message, Message.id == BroadcastRecipient.message_id)
                          .where(BroadcastRecipient.broadcast_id == broadcast.id, Message.send_state == "queued")).all()
    send_queue.cancel_queued(session, list(queued))
    return get_broadcast(session, actor=actor, broadcast_id=broadcast.id)


def do_resume(session: Session, *, actor: OrgActor, broadcast_id: str) -> Broadcast:
    """A paused broadcast carries on (its template or account is fine again, or the person says so);
    the runner pauses it again at once if not."""
    broadcast = access_broadcast(session, actor=actor, broadcast_id=broadcast_id)
    if broadcast.status != "PAUSED":
        raise Conflict("Only a paused broadcast can be resumed.", code="broadcast_not_paused")
    broadcast.status, broadcast.paused_reason, broadcast.paused_detail = "RUNNING", None, None
    broadcast.updated_at = clock.now()
    session.add(broadcast)
    status_changed(session, broadcast)
    _wake_runner(session, broadcast)
    return get_broadcast(session, actor=actor, broadcast_id=broadcast.id)


def do_retry_failed(session: Session, *, actor: OrgActor, broadcast_id: str) -> dict:
    """Every failed recipient is sent again in place: the same row gets a new message (the failed
    one stays in the conversation, with its error), whatever the error's code. A person asked for
    it, having read each recipient's guidance (131026 will likely fail again; -2/-3 may reach the
    customer twice); only the runner's own retries follow the guidance by themselves."""
    broadcast = access_broadcast(session, actor=actor, broadcast_id=broadcast_id)
    if broadcast.status == "CANCELLED":
        raise Conflict("A cancelled broadcast sends nothing more.", code="broadcast_finished")
    retried = list(session.exec(select(BroadcastRecipient.id)
                                .join(Message, Message.id == BroadcastRecipient.message_id)
                                .where(BroadcastRecipient.broadcast_id == broadcast.id, Message.status == "failed",
                                       Message.send_state.is_(None))).all())
    if retried:
        table = BroadcastRecipient.__table__
        for start in range(0, len(retried), 500):
            session.execute(table.update().where(table.c.id.in_(retried[start:start + 500])).values(message_id=None))
        if broadcast.status in ("COMPLETED", "PAUSED"):
            broadcast.status, broadcast.completed_at = "RUNNING", None
            broadcast.paused_reason = broadcast.paused_detail = None
            status_changed(session, broadcast)
        broadcast.updated_at = clock.now()
        session.add(broadcast)
        _wake_runner(session, broadcast)
    return {"retried": len(retried), "broadcast": get_broadcast(session, actor=actor, broadcast_id=broadcast.id)}
