"""Contacts: the customers of an organization, created by people (the API, CSV imports) or as the
network reports them. Organization-wide: a contact is not tied to one business number."""

from __future__ import annotations

import re

from sqlalchemy import bindparam, update
from sqlmodel import Session, select

from appliance.contacts.models import ContactList, ContactListMember
from appliance.contacts import search as contact_search
from appliance.contacts.models import Contact
from appliance.core import clock, events, pagination, tenancy
from appliance.core.rows import insert_many, read_row
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, NotFound
from appliance.core.ids import new_id

_PHONE_DECORATION = re.compile(r"[\s\-().]")


def normalize_wa_id(raw: str) -> str | None:
    """A phone number as the network writes `wa_id`: country code and number, digits only
    ("+52 1 55-1234-5678" -> "5215512345678"); None when it cannot be one (8 to 15 digits, the first
    not 0: no country code starts with 0)."""
    text = _PHONE_DECORATION.sub("", str(raw or ""))
    if text.startswith("+"):
        text = text[1:]
    elif text.startswith("00"):
        text = text[2:]
    return text if text.isdigit() and 8 <= len(text) <= 15 and text[0] != "0" else None


# A visitor of the business's website (appliance/webchat) has no WhatsApp number: their contact's
# `user_id` is this prefix and the visitor's id, and it is what a send's `to` names.
WEBCHAT_PREFIX = "wc:"


def is_webchat_address(address: str | None) -> bool:
    return bool(address) and address.startswith(WEBCHAT_PREFIX)


def address(contact) -> str | None:
    """Where a message to this contact goes: their WhatsApp number, or a web-chat visitor's address."""
    if contact.wa_id:
        return contact.wa_id
    return contact.user_id if is_webchat_address(contact.user_id) else None


def find_by_address(session: Session, *, organization_id: str, address: str):
    """The contact a web-chat address names (a read-only row), or None."""
    return read_row(session, Contact.__table__, organization_id=organization_id, user_id=address, remember=False)


def number_variants(wa_id: str) -> list[str]:
    """The other way people write the phone the network calls `wa_id`, where the two differ by a
    digit: Mexico's mobile 1 (the network's wa_id keeps 52 1 and ten digits; people dial 52 and the
    ten since 2019), Argentina's mobile 9 (54 9 and ten; 54 and ten), Brazil's ninth digit (55, the
    area, 9 and eight; an account made before the ninth digit is 55, the area and eight, a mobile's
    starting 6 to 9). So a contact imported one way is the customer who writes in the other."""
    if len(wa_id) == 13 and wa_id.startswith(("521", "549")):
        return [wa_id[:2] + wa_id[3:]]
    if len(wa_id) == 12 and wa_id.startswith(("52", "54")):
        return [wa_id[:2] + ("1" if wa_id.startswith("52") else "9") + wa_id[2:]]
    if wa_id.startswith("55") and len(wa_id) == 13 and wa_id[4] == "9":
        return [wa_id[:4] + wa_id[5:]]
    if wa_id.startswith("55") and len(wa_id) == 12 and wa_id[4] in "6789":
        return [wa_id[:4] + "9" + wa_id[4:]]
    return []


# Reading ----------------------------------------------------------------------------------------

def matching(organization_id: str, search: str):
    """The ids of the organization's contacts whose name, profile name or number contains `search`
    (case and accents aside): through a trigram index from three characters on (contacts/search.py)."""
    search = " ".join(search.split()).lstrip("+")
    return select(Contact.id).where(Contact.organization_id == organization_id, contact_search.contains(search))


def filtered(query, *, organization_id: str, search: str | None = None, list_id: str | None = None,
             opted_out: bool | None = None, bot_excluded: bool | None = None, wa_id_prefix: str | None = None):
    """`query` (over contacts) narrowed by the filters listings and bulk removals share."""
    query = query.where(Contact.organization_id == organization_id)
    if search:
        query = query.where(Contact.id.in_(matching(organization_id, search)))
    if list_id:
        query = query.where(Contact.id.in_(select(ContactListMember.contact_id).where(ContactListMember.list_id == list_id)))
    if opted_out is not None:
        query = query.where(Contact.opted_out_at.is_not(None) if opted_out else Contact.opted_out_at.is_(None))
    if bot_excluded is not None:
        query = query.where(Contact.bot_excluded == bot_excluded)
    if wa_id_prefix:
        query = query.where(Contact.wa_id.like(wa_id_prefix + "%"))
    return query


def list_contacts(session: Session, *, actor: OrgActor, take: int, cursor: str | None, list_id: str | None = None,
                  **filters) -> pagination.Page:
    """Newest first (cursor-paginated)."""
    if list_id:
        _check_list(session, actor, list_id)
    query = filtered(select(Contact), organization_id=actor.organization_id, list_id=list_id, **filters)
    return pagination.paginate(session, query, key=[Contact.created_at, Contact.id], take=take, cursor=cursor)


def _check_list(session: Session, actor: OrgActor, list_id: str) -> None:
    found = session.exec(select(ContactList.id).where(ContactList.id == list_id,
                                                      ContactList.organization_id == actor.organization_id)).first()
    if found is None:
        raise NotFound("No contact list with this id in this organization.", code="contact_list_not_found")


def access_contact(session: Session, *, actor: OrgActor, contact_id: str) -> Contact:
    return tenancy.access_in_org(session, Contact, contact_id, actor, what="contact", code="contact_not_found")


def find_by_wa_ids(session: Session, *, organization_id: str, wa_ids: list[str]) -> dict:
    """The contacts with these numbers, as read-only rows `{id, wa_id, name, attributes}` (imports
    look up tens of thousands: mapped objects would cost seconds)."""
    found: dict = {}
    table = Contact.__table__
    for start in range(0, len(wa_ids), 500):  # bounded IN lists
        chunk = wa_ids[start:start + 500]
        for row in session.execute(select(table.c.id, table.c.wa_id, table.c.name, table.c.attributes)
                                   .where(table.c.organization_id == organization_id, table.c.wa_id.in_(chunk))):
            found[row.wa_id] = row
    return found


# Writing by people --------------------------------------------------------------------------------

def do_create(session: Session, *, actor: OrgActor, wa_id: str, name: str | None = None,
              user_id: str | None = None, bot_excluded: bool = False, attributes: dict | None = None) -> Contact:
    for column, value in ((Contact.wa_id, wa_id), (Contact.user_id, user_id)):
        if value is None:
            continue
        taken = session.exec(select(Contact.id).where(Contact.organization_id == actor.organization_id,
                                                      column == value)).first()
        if taken is not None:
            raise Conflict("A contact with this WhatsApp id already exists.", code="contact_exists", contactId=taken)
    return do_add(session, organization_id=actor.organization_id, wa_id=wa_id, name=name, user_id=user_id,
                  bot_excluded=bot_excluded, attributes=attributes or {})


def do_add(session: Session, *, organization_id: str, wa_id: str | None, name: str | None = None,
           user_id: str | None = None, bot_excluded: bool = False, attributes: dict | None = None,
           profile_name: str | None = None) -> Contact:
    """A new contact (the caller checked it is new)."""
    now = clock.now()
    contact = Contact(organization_id=organization_id, wa_id=wa_id, user_id=user_id, name=name,
                      profile_name=profile_name, bot_excluded=bot_excluded, attributes=attributes or {},
                      created_at=now, updated_at=now)
    session.add(contact)
    events.emit(session, events.CONTACT_CREATED, organization_id=organization_id, contactId=contact.id)
    return contact


def do_add_many(session: Session, *, organization_id: str, contacts: list[dict]) -> list[str]:
    """New contacts (`{wa_id, name, attributes}`, checked new by the caller) in one statement,
    each with its event: imports bring thousands. Answers their ids in order."""
    if not contacts:
        return []
    now = clock.now()
    rows = [{"id": new_id(), "organization_id": organization_id, "wa_id": item["wa_id"], "user_id": None,
             "name": item.get("name"), "profile_name": None, "bot_excluded": False,
             "attributes": item.get("attributes") or {}, "opted_out_at": None, "created_at": now, "updated_at": now}
            for item in contacts]
    insert_many(session, Contact.__table__, rows)
    events.emit_many(session, events.CONTACT_CREATED, organization_id=organization_id,
                     items=[{"contactId": row["id"]} for row in rows])
    return [row["id"] for row in rows]


def do_update_many(session: Session, *, organization_id: str, changes: list[dict]) -> None:
    """New names and attributes (`{id, name, attributes}`) for many contacts in one statement, each
    with its `contact.updated` event (imports)."""
    if not changes:
        return
    table = Contact.__table__
    session.execute(update(table).where(table.c.id == bindparam("contact_id")).values(
        name=bindparam("new_name"), attributes=bindparam("new_attributes"), updated_at=clock.now()),
        [{"contact_id": c["id"], "new_name": c["name"], "new_attributes": c["attributes"]} for c in changes])
    events.emit_many(session, events.CONTACT_UPDATED, organization_id=organization_id,
                     items=[{"contactId": c["id"], "changed": ["attributes", "name"]} for c in changes])


def do_update(session: Session, *, actor: OrgActor, contact_id: str, **changes) -> Contact:
    """Change `name`, `bot_excluded` or `attributes` (replaced whole); an unchanged value is not a change."""
    contact = access_contact(session, actor=actor, contact_id=contact_id)
    changed = [field for field, value in changes.items() if getattr(contact, field) != value]
    if changed:
        for field in changed:
            setattr(contact, field, changes[field])
        contact.updated_at = clock.now()
        session.add(contact)
        events.emit(session, events.CONTACT_UPDATED, organization_id=contact.organization_id, contactId=contact.id,
                    changed=sorted(changed))
    return contact


def do_delete(session: Session, *, actor: OrgActor, contact_id: str) -> None:
    """Erase the contact with its conversations, messages and list memberships (a person's right
    to be forgotten); the network keeps its own copy."""
    contact = access_contact(session, actor=actor, contact_id=contact_id)
    session.delete(contact)
    events.emit(session, events.CONTACT_DELETED, organization_id=contact.organization_id, contactId=contact.id)


# Writing as the network reports -------------------------------------------------------------------

def do_upsert_from_network(session: Session, *, organization_id: str, wa_id: str | None, user_id: str | None,
                           profile_name: str | None, networks_form: bool = True) -> tuple[Contact, bool]:
    """The contact the network calls `wa_id` / `user_id` (created if new; `True` then). The
    business-scoped user id wins when both match different contacts: it survives a number change.
    A contact written without the network's digit (`number_variants`) is the same customer, and
    takes `wa_id` when it is the network's own (`networks_form`: a delivery's; a send's `to` is as
    its caller wrote it)."""
    # Read as a plain row first (every inbound delivery passes here); loaded through the ORM only
    # when something changed. The answer is read-only either way: callers only need its fields.
    table, row = Contact.__table__, None
    if user_id:
        row = read_row(session, table, organization_id=organization_id, user_id=user_id, remember=False)
    if row is None and wa_id:
        row = read_row(session, table, organization_id=organization_id, wa_id=wa_id, remember=False)
    for variant in number_variants(wa_id) if row is None and wa_id else ():
        # Imported or typed without the network's digit: the same customer, whose number takes
        # the network's form below (what later deliveries will say).
        row = read_row(session, table, organization_id=organization_id, wa_id=variant, remember=False)
        if row is not None:
            wa_id = wa_id if networks_form else variant
            break
    profile_name = (profile_name or "")[:200] or None
    if row is None:
        return do_add(session, organization_id=organization_id, wa_id=wa_id, user_id=user_id,
                      profile_name=profile_name), True
    changes = {attribute: value for attribute, value in (("wa_id", wa_id), ("user_id", user_id),
                                                         ("profile_name", profile_name))
               if value and getattr(row, attribute) != value}
    if not changes:
        return row, False
    contact = session.get(Contact, row.id)
    for attribute, value in changes.items():
        setattr(contact, attribute, value)
    contact.updated_at = clock.now()
    session.add(contact)
    return contact, False


def do_record_address_book(session: Session, *, organization_id: str, items: list[dict]) -> int:
    """A coexistence number's WhatsApp Business app contacts (`smb_app_state_sync`): an added or
    edited entry creates the contact, or names one that has no name of ours; a removal from the
    phone's address book leaves the contact (and its conversations) here. Answers how many changed."""
    changed = 0
    for item in items:
        wa_id = normalize_wa_id(item["contact"]["phone_number"])
        if item["action"] != "add" or wa_id is None:
            continue
        full_name = str(item["contact"].get("full_name") or item["contact"].get("first_name") or "").strip()[:200] or None
        contact = session.exec(select(Contact).where(Contact.organization_id == organization_id,
                                                     Contact.wa_id == wa_id)).first()
        if contact is None:
            do_add(session, organization_id=organization_id, wa_id=wa_id, name=full_name)
            changed += 1
        elif contact.name is None and full_name:
            contact.name, contact.updated_at = full_name, clock.now()
            session.add(contact)
            events.emit(session, events.CONTACT_UPDATED, organization_id=organization_id, contactId=contact.id,
                        changed=["name"])
            changed += 1
    return changed
