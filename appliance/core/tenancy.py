"""Restrictions an actor carries inside its organization, applied the same way by every module.

An API key may be limited to some phone numbers (`phoneNumberIds`): sends through any other number
are 403 `phone_number_not_allowed`, and listings only show the allowed numbers' records. A member may
be limited to some business accounts (`wabaIds`): listings only show those, and the others answer 404.
Modules call these helpers instead of repeating the rules.
"""

from __future__ import annotations

from typing import Callable, TypeVar

import sqlalchemy as sa
from sqlalchemy.sql import Select
from sqlmodel import Session

from appliance.core.actor import OrgActor
from appliance.core.errors import Forbidden, Invalid, NotFound

Row = TypeVar("Row")


def check_in_org(row: Row | None, actor: OrgActor, *, what: str, code: str,
                 usable: Callable[[Row], bool] | None = None, message: str | None = None, **details) -> Row:
    """`row` if it is the actor organization's (and `usable`, the domain's own rule: not revoked,
    inside the actor's business accounts...); otherwise 404 `code`. Another tenant's row answers
    exactly as a missing one, so nothing leaks its existence."""
    if row is None or row.organization_id != actor.organization_id or (usable is not None and not usable(row)):
        raise NotFound(message or f"No {what} with this id in this organization.", code=code, **details)
    return row


def access_in_org(session: Session, model: type[Row], row_id: str, actor: OrgActor, **rules) -> Row:
    """The `model` row `row_id` of the actor's organization, or 404 (the rules of `check_in_org`)."""
    return check_in_org(session.get(model, row_id), actor, **rules)


def check_phone_number_allowed(actor: OrgActor, phone_number_pk: str) -> None:
    if actor.phone_number_pks and phone_number_pk not in actor.phone_number_pks:
        raise Forbidden("This key may not use that phone number.", code="phone_number_not_allowed",
                        phoneNumberId=phone_number_pk)


def only_allowed_phone_numbers(query: Select, phone_number_column, actor: OrgActor) -> Select:
    """Filter a listing to the actor's phone numbers (no filter when the actor has no restriction)."""
    if not actor.phone_number_pks:
        return query
    return query.where(phone_number_column.in_(actor.phone_number_pks))


def waba_visible(actor: OrgActor, waba_pk: str) -> bool:
    """A member limited to some business accounts (`wabaIds`) sees only those."""
    return not actor.waba_pks or waba_pk in actor.waba_pks


def only_visible_wabas(query: Select, waba_column, actor: OrgActor) -> Select:
    """Filter a listing to the business accounts of the member's WABA scope (none: all)."""
    if not actor.waba_pks:
        return query
    return query.where(waba_column.in_(actor.waba_pks))


def check_ids_in_org(session: Session, table_name: str, ids: list[str], actor: OrgActor, *, field: str) -> list[str]:
    """Ids a restriction names (a key's numbers, a member's business accounts), each one of this
    organization's rows of `table_name`; 400 naming the others (another tenant's look as unknown).
    A restriction to rows that do not exist would silently show nothing."""
    wanted = sorted(set(ids))
    if not wanted:
        return wanted
    rows = sa.table(table_name, sa.column("id"), sa.column("organization_id"))
    found = set(session.execute(sa.select(rows.c.id).where(rows.c.organization_id == actor.organization_id,
                                                           rows.c.id.in_(wanted))).scalars())
    unknown = [row_id for row_id in wanted if row_id not in found]
    if unknown:
        raise Invalid(f"Unknown in this organization: {', '.join(unknown[:10])}.", code="unknown_ids",
                      errors={field: [f"Unknown in this organization: {', '.join(unknown[:10])}."]})
    return wanted
