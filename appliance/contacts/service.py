"""Contacts: the customers of an organization, created or updated as the network reports them."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.contacts.models import Contact
from appliance.core import clock, events


def do_upsert_from_network(session: Session, *, organization_id: str, wa_id: str | None, user_id: str | None,
                           profile_name: str | None) -> tuple[Contact, bool]:
    """The contact the network calls `wa_id` / `user_id` (created if new; `True` then). The
    business-scoped user id wins when both match different contacts: it survives a number change."""
    contact = None
    if user_id:
        contact = session.exec(select(Contact).where(Contact.organization_id == organization_id,
                                                     Contact.user_id == user_id)).first()
    if contact is None and wa_id:
        contact = session.exec(select(Contact).where(Contact.organization_id == organization_id,
                                                     Contact.wa_id == wa_id)).first()
    now = clock.now()
    if contact is None:
        contact = Contact(organization_id=organization_id, wa_id=wa_id, user_id=user_id,
                          profile_name=(profile_name or None) and profile_name[:200], created_at=now, updated_at=now)
        session.add(contact)
        events.emit(session, "contact.created", organization_id=organization_id, contactId=contact.id)
        return contact, True
    changed = False
    for attribute, value in (("wa_id", wa_id), ("user_id", user_id), ("profile_name", (profile_name or "")[:200] or None)):
        if value and getattr(contact, attribute) != value:
            setattr(contact, attribute, value)
            changed = True
    if changed:
        contact.updated_at = now
        session.add(contact)
    return contact, False


def do_record_opt_out(session: Session, *, contact: Contact, keyword: str) -> None:
    if contact.opted_out_at is not None:
        return
    contact.opted_out_at = contact.updated_at = clock.now()
    session.add(contact)
    events.emit(session, "contact.opted_out", organization_id=contact.organization_id, contactId=contact.id,
                keyword=keyword)
