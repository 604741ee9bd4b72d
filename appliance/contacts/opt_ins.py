"""Consent: a contact's opt-in records (IN or OUT), the newest of which decides whether they may
be sent marketing (broadcasts skip them) and whether the bot speaks to them. The contact's
`opted_out_at` is the newest record's answer, written in the same transaction as the record."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.contacts.models import Contact, OptInRecord
from appliance.core import clock, events, tenancy
from appliance.core.actor import OrgActor

TYPES = ("IN", "OUT")
KEYWORD_SOURCE = "keyword"


def list_records(session: Session, *, actor: OrgActor, contact_id: str) -> list[OptInRecord]:
    """The contact's history, newest first."""
    contact = tenancy.access_in_org(session, Contact, contact_id, actor, what="contact", code="contact_not_found")
    return list(session.exec(select(OptInRecord).where(OptInRecord.contact_id == contact.id)
                             .order_by(OptInRecord.created_at.desc(), OptInRecord.id.desc())).all())


def do_record(session: Session, *, actor: OrgActor, contact_id: str, type: str, source: str | None = None,
              channel: str | None = None, payload: dict | None = None) -> OptInRecord:
    contact = tenancy.access_in_org(session, Contact, contact_id, actor, what="contact", code="contact_not_found")
    return _record(session, contact, type=type, source=source or "api", channel=channel, payload=payload or {},
                   user_id=actor.user_id, created_by=actor.caller_key)


def do_record_keyword(session: Session, *, contact, keyword: str) -> None:
    """The customer wrote an opt-out keyword: an OUT record (source `keyword`), every time they do;
    `contact.opted_out` is announced only when it changes. `contact`: the contact or a row of it."""
    if not isinstance(contact, Contact):
        contact = session.get(Contact, contact.id)
    _record(session, contact, type="OUT", source=KEYWORD_SOURCE, channel="whatsapp", payload={"keyword": keyword},
            user_id=None, created_by=KEYWORD_SOURCE)


def _record(session: Session, contact: Contact, *, type: str, source: str, channel: str | None, payload: dict,
            user_id: str | None, created_by: str) -> OptInRecord:
    now = clock.now()
    record = OptInRecord(organization_id=contact.organization_id, contact_id=contact.id, type=type, source=source,
                         channel=channel, payload=payload, created_by_user_id=user_id, created_by=created_by,
                         created_at=now)
    session.add(record)
    was_out = contact.opted_out_at is not None
    if (type == "OUT") != was_out:
        contact.opted_out_at = now if type == "OUT" else None
        contact.updated_at = now
        session.add(contact)
        if type == "OUT":
            events.emit(session, events.CONTACT_OPTED_OUT, organization_id=contact.organization_id,
                        contactId=contact.id, source=source, **({"keyword": payload["keyword"]} if "keyword" in payload else {}))
        else:
            events.emit(session, events.CONTACT_UPDATED, organization_id=contact.organization_id, contactId=contact.id,
                        changed=["optedOut"])
    session.flush()
    return record
