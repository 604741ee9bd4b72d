"""Business phone numbers: imported with their business account, listed and read within the
actor's restrictions (a key's phone numbers, a member's business accounts)."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.core import clock, tenancy
from appliance.core.rows import read_row
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, NotFound
from appliance.phone_numbers.models import PhoneNumber


def do_import(session: Session, *, account, numbers: list[dict]) -> list[PhoneNumber]:
    """Store the network's numbers of `account` (Graph's phone_numbers items)."""
    now = clock.now()
    imported = []
    for item in numbers:
        phone_number_id = str(item.get("id") or "")
        if not phone_number_id:
            continue
        taken = session.exec(select(PhoneNumber).where(PhoneNumber.phone_number_id == phone_number_id,
                                                       PhoneNumber.disconnected_at.is_(None))).first()
        if taken is not None:
            raise Conflict("One of the account's phone numbers is already connected.",
                           code="phone_number_already_connected", phoneNumberId=phone_number_id)
        throughput = (item.get("throughput") or {}).get("level")
        number = PhoneNumber(organization_id=account.organization_id, waba_pk=account.id,
                             phone_number_id=phone_number_id,
                             display_phone_number=str(item.get("display_phone_number") or "")[:40],
                             verified_name=str(item.get("verified_name") or "")[:200],
                             quality_rating=item.get("quality_rating"),
                             # Meta: 80 by default, 1,000 once upgraded, coexistence numbers fixed at 20.
                             messages_per_second=20 if item.get("is_on_biz_app") is True
                             else 1000 if throughput == "HIGH" else 80,
                             coexistence=item.get("is_on_biz_app") is True,
                             created_at=now, updated_at=now)
        session.add(number)
        imported.append(number)
    session.flush()
    return imported


def do_disconnect_all(session: Session, *, account) -> None:
    now = clock.now()
    for number in session.exec(select(PhoneNumber).where(PhoneNumber.waba_pk == account.id,
                                                         PhoneNumber.disconnected_at.is_(None))).all():
        number.disconnected_at = number.updated_at = now
        session.add(number)


def _visible(query, actor: OrgActor):
    query = tenancy.only_allowed_phone_numbers(query, PhoneNumber.id, actor)
    return tenancy.only_visible_wabas(query, PhoneNumber.waba_pk, actor)


def scope_of(session: Session, actor: OrgActor) -> tenancy.NumberScope:
    """The numbers and business accounts the actor reaches (`core.tenancy.NumberScope`, the rule every
    module applies to its records), worked out once per unit of work; no query for an actor kept to
    nothing. Disconnected numbers count: their records stay theirs."""
    if not actor.phone_number_pks and not actor.waba_pks:
        return tenancy.EVERYTHING
    remembered = ("number_scope", actor.organization_id, actor.phone_number_pks, actor.waba_pks)
    if remembered not in session.info:
        of_org = select(PhoneNumber.id, PhoneNumber.waba_pk).where(PhoneNumber.organization_id == actor.organization_id)
        reached = dict(session.exec(_visible(of_org, actor)).all())
        accounts = set(reached.values()) if actor.phone_number_pks else set(actor.waba_pks)
        everyone = session.exec(of_org.where(PhoneNumber.waba_pk.in_(accounts))).all() if accounts else []
        partial = {waba_pk for number_pk, waba_pk in everyone if number_pk not in reached}
        session.info[remembered] = tenancy.NumberScope(numbers=frozenset(reached), accounts=frozenset(accounts),
                                                       whole_accounts=frozenset(accounts - partial))
    return session.info[remembered]


def access_for_numbers(session: Session, model, record_id: str, actor: OrgActor, *, what: str, code: str,
                        to_change: bool = False):
    """A record kept to some numbers (`phone_number_pks`; none: every number), as a rule, a flow or an
    agent: 404 `code` unless it concerns a number the actor reaches; with `to_change`, 403 unless the
    actor reaches every one of its numbers (`NumberScope.check_covers`)."""
    scope = scope_of(session, actor)
    record = tenancy.access_in_org(session, model, record_id, actor, what=what, code=code,
                                   usable=lambda row: scope.concerns(row.phone_number_pks))
    if to_change:
        scope.check_covers(record.phone_number_pks)
    return record


def list_phone_numbers(session: Session, *, actor: OrgActor, waba_pk: str | None = None) -> list[PhoneNumber]:
    query = select(PhoneNumber).where(PhoneNumber.organization_id == actor.organization_id,
                                      PhoneNumber.disconnected_at.is_(None))
    if waba_pk:
        query = query.where(PhoneNumber.waba_pk == waba_pk)
    return list(session.exec(_visible(query, actor).order_by(PhoneNumber.created_at)).all())


def access_phone_number(session: Session, *, actor: OrgActor, phone_number_pk: str) -> PhoneNumber:
    number = session.exec(_visible(select(PhoneNumber).where(PhoneNumber.id == phone_number_pk,
                                                             PhoneNumber.organization_id == actor.organization_id,
                                                             PhoneNumber.disconnected_at.is_(None)), actor)).first()
    if number is None:
        raise NotFound("No phone number with this id in this organization.", code="phone_number_not_found")
    return number


def read_phone_number(session: Session, *, actor: OrgActor, phone_number_pk: str):
    """`access_phone_number` as a read-only row, for the hot paths (every send passes here). A number
    outside the actor's scope is 403 `phone_number_not_allowed`: a send makes a record there."""
    scope_of(session, actor).check_covers([phone_number_pk])
    number = read_row(session, PhoneNumber.__table__, id=phone_number_pk, absent=("disconnected_at",))
    return tenancy.check_in_org(number, actor, what="phone number", code="phone_number_not_found")


def do_update(session: Session, *, actor: OrgActor, phone_number_pk: str, messages_per_second: int) -> PhoneNumber:
    number = access_phone_number(session, actor=actor, phone_number_pk=phone_number_pk)
    number.messages_per_second, number.updated_at = messages_per_second, clock.now()
    session.add(number)
    return number
