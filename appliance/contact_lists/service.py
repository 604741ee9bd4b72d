"""Contact lists: named sets of contacts, filled one by one, by CSV import, and emptied by
filter (the opted-out, a country...)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import delete, func
from sqlmodel import Session, select

from appliance.contact_lists import csv_import
from appliance.contacts.models import ContactList, ContactListMember
from appliance.contacts import service as contacts_service
from appliance.contacts.models import Contact
from appliance.core import clock, events, tenancy
from appliance.core.actor import OrgActor
from appliance.core.rows import insert_many
from appliance.core.errors import Conflict, Invalid, NotFound


@dataclass
class ListView:
    """A list with its size, as answers show it."""

    contact_list: ContactList
    member_count: int

    def __getattr__(self, name):
        return getattr(self.contact_list, name)


@dataclass
class ImportSummary:
    rows: int = 0
    created: int = 0
    updated: int = 0
    added: int = 0
    already_members: int = 0
    rejected: int = 0
    rejections: list[dict] = field(default_factory=list)


def _count(session: Session, list_id: str) -> int:
    return session.exec(select(func.count()).select_from(ContactListMember)
                        .where(ContactListMember.list_id == list_id)).one()


def list_lists(session: Session, *, actor: OrgActor) -> list[ListView]:
    counts = select(ContactListMember.list_id, func.count().label("n")).group_by(ContactListMember.list_id).subquery()
    rows = session.exec(select(ContactList, func.coalesce(counts.c.n, 0))
                        .outerjoin(counts, counts.c.list_id == ContactList.id)
                        .where(ContactList.organization_id == actor.organization_id)
                        .order_by(ContactList.name)).all()
    return [ListView(contact_list, count) for contact_list, count in rows]


def access_list(session: Session, *, actor: OrgActor, list_id: str) -> ContactList:
    return tenancy.access_in_org(session, ContactList, list_id, actor, what="contact list",
                                 code="contact_list_not_found")


def view_list(session: Session, *, actor: OrgActor, list_id: str) -> ListView:
    return ListView(access_list(session, actor=actor, list_id=list_id), _count(session, list_id))


def _check_name_free(session: Session, actor: OrgActor, name: str, *, other_than: str | None = None) -> None:
    """Names are compared case-folded in Python: SQL's lower() folds ASCII only in SQLite, so "Über"
    and "über" (or "Über" twice, past the check, into the UNIQUE constraint) were not caught.
    An organization has tens of lists, not thousands."""
    wanted = name.casefold()
    rows = session.exec(select(ContactList.id, ContactList.name).where(
        ContactList.organization_id == actor.organization_id)).all()
    if any(name_of.casefold() == wanted and list_id != other_than for list_id, name_of in rows):
        raise Conflict("A contact list with this name already exists.", code="contact_list_name_taken")


def do_create(session: Session, *, actor: OrgActor, name: str, description: str | None = None) -> ListView:
    _check_name_free(session, actor, name)
    now = clock.now()
    contact_list = ContactList(organization_id=actor.organization_id, name=name, description=description,
                               created_at=now, updated_at=now)
    session.add(contact_list)
    events.emit(session, events.CONTACT_LIST_CREATED, organization_id=actor.organization_id,
                contactListId=contact_list.id)
    return ListView(contact_list, 0)


def do_update(session: Session, *, actor: OrgActor, list_id: str, **changes) -> ListView:
    contact_list = access_list(session, actor=actor, list_id=list_id)
    if "name" in changes:
        _check_name_free(session, actor, changes["name"], other_than=contact_list.id)
    for name, value in changes.items():
        setattr(contact_list, name, value)
    contact_list.updated_at = clock.now()
    session.add(contact_list)
    return ListView(contact_list, _count(session, list_id))


def do_delete(session: Session, *, actor: OrgActor, list_id: str) -> None:
    """The list goes; its contacts stay."""
    contact_list = access_list(session, actor=actor, list_id=list_id)
    session.execute(delete(ContactListMember).where(ContactListMember.list_id == list_id))
    session.delete(contact_list)
    events.emit(session, events.CONTACT_LIST_DELETED, organization_id=actor.organization_id, contactListId=list_id)


def _add(session: Session, list_id: str, contact_ids: list[str]) -> int:
    """Add contacts (of the list's organization) not yet members; answers how many were added."""
    now = clock.now()
    return insert_many(session, ContactListMember.__table__,
                       [{"list_id": list_id, "contact_id": contact_id, "added_at": now} for contact_id in contact_ids],
                       or_ignore=True)


def do_add_members(session: Session, *, actor: OrgActor, list_id: str, contact_ids: list[str]) -> dict:
    contact_list = access_list(session, actor=actor, list_id=list_id)
    known = set(session.exec(select(Contact.id).where(Contact.organization_id == actor.organization_id,
                                                      Contact.id.in_(contact_ids))).all())
    unknown = [contact_id for contact_id in contact_ids if contact_id not in known]
    if unknown:
        raise NotFound("Some contacts are not in this organization; nothing was added.", code="contact_not_found",
                       contactIds=unknown[:20])
    added = _add(session, contact_list.id, list(dict.fromkeys(contact_ids)))
    return {"added": added, "already_members": len(set(contact_ids)) - added}


def do_remove_members(session: Session, *, actor: OrgActor, list_id: str, contact_ids: list[str]) -> dict:
    access_list(session, actor=actor, list_id=list_id)
    removed = session.execute(delete(ContactListMember).where(ContactListMember.list_id == list_id,
                                                              ContactListMember.contact_id.in_(contact_ids)))
    return {"removed": removed.rowcount}


def do_remove_by_filter(session: Session, *, actor: OrgActor, list_id: str, **filters) -> dict:
    """Remove the members matching every given filter (at least one: emptying a list by accident
    takes a filter that says so)."""
    access_list(session, actor=actor, list_id=list_id)
    if all(value is None for value in filters.values()):
        raise Invalid("Give at least one filter.", code="filter_required",
                      errors={"_schema": ["Give at least one of search, optedOut, botExcluded, waIdPrefix."]})
    matching = contacts_service.filtered(select(Contact.id), organization_id=actor.organization_id, **filters)
    removed = session.execute(delete(ContactListMember).where(ContactListMember.list_id == list_id,
                                                              ContactListMember.contact_id.in_(matching)))
    return {"removed": removed.rowcount}


@dataclass
class ImportPreview:
    """What an import would do, read without writing: the first rows, how many numbers are new."""

    rows: int = 0
    new: int = 0
    known: int = 0
    columns: list[str] = field(default_factory=list)
    sample: list = field(default_factory=list)  # csv_import.Row, the first PREVIEW_ROWS
    rejected: int = 0
    rejections: list[dict] = field(default_factory=list)


PREVIEW_ROWS = 10


def check_import_preview(session: Session, *, actor: OrgActor, list_id: str, content: bytes) -> ImportPreview:
    parsed = csv_import.parse(content)
    access_list(session, actor=actor, list_id=list_id)
    known = contacts_service.find_by_wa_ids(session, organization_id=actor.organization_id,
                                            wa_ids=[row.wa_id for row in parsed.rows])
    columns = list(dict.fromkeys(name for row in parsed.rows[:1000] for name in row.attributes))
    return ImportPreview(rows=len(parsed.rows) + parsed.rejected, new=len(parsed.rows) - len(known), known=len(known),
                         columns=columns, sample=parsed.rows[:PREVIEW_ROWS], rejected=parsed.rejected,
                         rejections=parsed.rejections)


def lists_of_contact(session: Session, *, actor: OrgActor, contact_id: str) -> list[ContactList]:
    contacts_service.access_contact(session, actor=actor, contact_id=contact_id)
    return list(session.exec(select(ContactList).join(ContactListMember, ContactListMember.list_id == ContactList.id)
                             .where(ContactListMember.contact_id == contact_id,
                                    ContactList.organization_id == actor.organization_id)
                             .order_by(ContactList.name)).all())


def do_import_csv(session: Session, *, actor: OrgActor, list_id: str, content: bytes,
                  update_existing: bool = False) -> ImportSummary:
    """Every readable row becomes a member of the list: new numbers become contacts; known ones keep
    their data unless `update_existing` (then the file's name and columns win). Rows that cannot be
    read are reported by line; the rest is imported in one transaction."""
    parsed = csv_import.parse(content)  # before the first statement: no lock held while reading the file
    contact_list = access_list(session, actor=actor, list_id=list_id)
    summary = ImportSummary(rows=len(parsed.rows) + parsed.rejected, rejected=parsed.rejected,
                            rejections=parsed.rejections)
    existing = contacts_service.find_by_wa_ids(session, organization_id=actor.organization_id,
                                               wa_ids=[row.wa_id for row in parsed.rows])
    new_rows = [row for row in parsed.rows if row.wa_id not in existing]
    created = contacts_service.do_add_many(session, organization_id=actor.organization_id, contacts=[
        {"wa_id": row.wa_id, "name": row.name, "attributes": row.attributes} for row in new_rows])
    summary.created = len(created)
    if update_existing:
        changes = []
        for row in parsed.rows:
            contact = existing.get(row.wa_id)
            if contact is None:
                continue
            change = {"id": contact.id, "name": row.name or contact.name,
                      "attributes": {**(contact.attributes or {}), **row.attributes}}
            if (change["name"], change["attributes"]) != (contact.name, contact.attributes or {}):
                changes.append(change)
        contacts_service.do_update_many(session, organization_id=actor.organization_id, changes=changes)
        summary.updated = len(changes)
    member_ids = [existing[row.wa_id].id for row in parsed.rows if row.wa_id in existing] + created
    summary.added = _add(session, contact_list.id, member_ids)
    summary.already_members = len(member_ids) - summary.added
    events.emit(session, events.CONTACT_LIST_IMPORTED, organization_id=actor.organization_id, contactListId=list_id,
                created=summary.created, added=summary.added)
    return summary
