"""Restrictions an actor carries inside its organization, applied the same way by every module.

An API key may be limited to some phone numbers (`phoneNumberIds`): sends through any other number
are 403 `phone_number_not_allowed`, and listings only show the allowed numbers' records. A member may
be limited to some business accounts (`wabaIds`): listings only show those, and the others answer 404.
`NumberScope` is the one rule for every record that belongs to numbers or business accounts (bot
settings, rules, flows, agents, templates, links, broadcasts, orders, tasks...).
Modules call these helpers instead of repeating the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, TypeVar

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


def only_visible_wabas(query: Select, waba_column, actor: OrgActor) -> Select:
    """Filter a listing to the business accounts of the member's WABA scope (none: all)."""
    if not actor.waba_pks:
        return query
    return query.where(waba_column.in_(actor.waba_pks))


def check_ids_in_org(session: Session, table_name: str, ids: list[str], actor: OrgActor, *, field: str,
                     column: str = "id") -> list[str]:
    """Ids a body names (a restriction's numbers or business accounts, a rule's tag or image, a task's
    contact, a document's agents...), each one of this organization's rows of `table_name` (by
    `column`); 400 `unknown_ids` naming `field` and the others (another tenant's look as unknown).
    The one check of every such id, on PATCH as on POST: a restriction to rows that do not exist
    would silently show nothing, and a row pointing at them fails its foreign key (a 500).
    Nothing pending is flushed by the read: a caller may already hold the row it is changing, with the
    unknown id set on it, and the autoflush would write it before this says no."""
    wanted = sorted(set(ids))
    if not wanted:
        return wanted
    rows = sa.table(table_name, sa.column(column), sa.column("organization_id"))
    with session.no_autoflush:
        found = set(session.execute(sa.select(rows.c[column]).where(rows.c.organization_id == actor.organization_id,
                                                                    rows.c[column].in_(wanted))).scalars())
    unknown = [row_id for row_id in wanted if row_id not in found]
    if unknown:
        raise Invalid(f"Unknown in this organization: {', '.join(unknown[:10])}.", code="unknown_ids",
                      errors={field: [f"Unknown in this organization: {', '.join(unknown[:10])}."]})
    return wanted


@dataclass(frozen=True)
class NumberScope:
    """The numbers and business accounts an actor reaches inside its organization: a key's
    `phoneNumberIds`, a member's WABA scope, resolved to rows by `phone_numbers.service.scope_of`
    (None: every one, for an actor kept to nothing).

    - A record of one number (an order, a chat link, a broadcast, a conversation's task) is the
      actor's when it reaches the number; another answers 404 like a missing one, and lists leave it out.
    - A record for some numbers (a rule, a flow, an agent, the survey settings; none = every number)
      concerns the actor when it reaches one of them: it is read and listed. It is the actor's to
      create or change only when the actor reaches all of them, never when it is for every number:
      a kept key would otherwise change what other numbers' customers get (403).
    - A business account is reached through one of its numbers (or by the member's scope naming it),
      and is the actor's to change, or to add records to, when the actor reaches all its numbers.
    """

    numbers: frozenset[str] | None = None
    accounts: frozenset[str] | None = None
    whole_accounts: frozenset[str] | None = None  # the reached accounts whose every number is reached

    @property
    def restricted(self) -> bool:
        return self.numbers is not None

    def reaches(self, phone_number_pk: str | None) -> bool:
        return self.numbers is None or phone_number_pk in self.numbers

    def concerns(self, phone_number_pks: Iterable[str]) -> bool:
        pks = list(phone_number_pks or ())
        return self.numbers is None or not pks or any(pk in self.numbers for pk in pks)

    def covers(self, phone_number_pks: Iterable[str]) -> bool:
        pks = list(phone_number_pks or ())
        return self.numbers is None or (bool(pks) and all(pk in self.numbers for pk in pks))

    def reaches_account(self, waba_pk: str) -> bool:
        return self.accounts is None or waba_pk in self.accounts

    def covers_account(self, waba_pk: str | None) -> bool:
        return self.whole_accounts is None or waba_pk in self.whole_accounts

    def check_covers(self, phone_number_pks: Iterable[str]) -> None:
        """403 `phone_number_not_allowed` unless the actor may create or change a record for these
        numbers (empty: every number)."""
        pks = list(phone_number_pks or ())
        if self.covers(pks):
            return
        outside = next((pk for pk in pks if pk not in self.numbers), None)
        if outside is None:
            raise Forbidden("Only someone not kept to some phone numbers may make or change what applies to every "
                            "number; name the numbers.", code="phone_number_not_allowed", phoneNumberId=None)
        raise Forbidden("That phone number is outside the ones this key or member may use.",
                        code="phone_number_not_allowed", phoneNumberId=outside)

    def check_covers_account(self, waba_pk: str | None) -> None:
        """403 `phone_number_not_allowed` unless the actor reaches every number of the business account
        (None: one being connected, which no restricted actor reaches)."""
        if not self.covers_account(waba_pk):
            raise Forbidden("A key or member kept to some phone numbers changes only business accounts whose numbers "
                            "are all its own, and connects none.", code="phone_number_not_allowed", wabaId=waba_pk)

    def only_numbers(self, query: Select, phone_number_column) -> Select:
        """A listing of records of one number, cut to the reached numbers."""
        return query if self.numbers is None else query.where(phone_number_column.in_(sorted(self.numbers)))

    def only_accounts(self, query: Select, waba_column) -> Select:
        """A listing of records of one business account, cut to the reached accounts."""
        return query if self.accounts is None else query.where(waba_column.in_(sorted(self.accounts)))

    def only_concerning(self, records: Iterable[Row], numbers_of: Callable[[Row], Iterable[str]]) -> list[Row]:
        """Records for some numbers (JSON lists, which SQL does not filter well), cut to those that
        concern the actor."""
        return [record for record in records if self.concerns(numbers_of(record))]


EVERYTHING = NumberScope()  # an actor kept to no numbers and no business accounts
