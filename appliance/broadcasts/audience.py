"""What an audience amounts to before a broadcast is made (the console's wizard): each contact
list with its members, those who opted out and those without a WhatsApp number, and a sample
contact for the preview."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func
from sqlmodel import Session, select

from appliance.contacts.models import Contact, ContactList, ContactListMember
from appliance.core.actor import OrgActor


@dataclass(frozen=True)
class ListSummary:
    id: str
    name: str
    members: int
    opted_out: int
    no_number: int


def summary(session: Session, *, actor: OrgActor) -> list[ListSummary]:
    """Every contact list of the organization, by name, with its counts (one grouped query)."""
    rows = session.exec(
        select(ContactList.id, ContactList.name, func.count(Contact.id),
               func.count(case((Contact.opted_out_at.is_not(None), 1))),
               func.count(case(((Contact.wa_id.is_(None)) & Contact.opted_out_at.is_(None), 1))))
        .select_from(ContactList)
        .outerjoin(ContactListMember, ContactListMember.list_id == ContactList.id)
        .outerjoin(Contact, Contact.id == ContactListMember.contact_id)
        .where(ContactList.organization_id == actor.organization_id)
        .group_by(ContactList.id, ContactList.name).order_by(ContactList.name)).all()
    return [ListSummary(*row) for row in rows]


def reachable_in(session: Session, *, actor: OrgActor, list_ids: list[str]) -> int:
    """Contacts of these lists a broadcast would reach, each counted once."""
    if not list_ids:
        return 0
    members = select(ContactListMember.contact_id).where(ContactListMember.list_id.in_(list_ids))
    return session.exec(select(func.count()).select_from(Contact).where(
        Contact.organization_id == actor.organization_id, Contact.id.in_(members), Contact.wa_id.is_not(None),
        Contact.opted_out_at.is_(None))).one()


def sample_contact(session: Session, *, actor: OrgActor, list_ids: list[str]) -> Contact | None:
    """The first reachable contact of the lists (else of the organization): whom the preview shows."""
    query = select(Contact).where(Contact.organization_id == actor.organization_id, Contact.wa_id.is_not(None),
                                  Contact.opted_out_at.is_(None))
    if list_ids:
        query = query.where(Contact.id.in_(select(ContactListMember.contact_id)
                                           .where(ContactListMember.list_id.in_(list_ids))))
    return session.exec(query.order_by(Contact.created_at, Contact.id).limit(1)).first()
