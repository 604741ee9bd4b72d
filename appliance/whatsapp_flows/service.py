"""WhatsApp Flows registered for sending: the network's flow id under a name, per business account;
read within the business accounts the actor reaches, registered and removed only on the accounts
whose every number it reaches (core.tenancy.NumberScope)."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict
from appliance.phone_numbers import service as phone_numbers_service
from appliance.wabas import service as wabas_service
from appliance.whatsapp_flows.models import WhatsAppFlow


def list_flows(session: Session, *, actor: OrgActor) -> list[WhatsAppFlow]:
    query = select(WhatsAppFlow).where(WhatsAppFlow.organization_id == actor.organization_id)
    scope = phone_numbers_service.scope_of(session, actor)
    return list(session.exec(scope.only_accounts(query, WhatsAppFlow.waba_pk).order_by(WhatsAppFlow.name)).all())


def access_flow(session: Session, *, actor: OrgActor, flow_pk: str) -> WhatsAppFlow:
    scope = phone_numbers_service.scope_of(session, actor)
    return tenancy.access_in_org(session, WhatsAppFlow, flow_pk, actor, what="flow", code="flow_not_found",
                                 usable=lambda flow: scope.reaches_account(flow.waba_pk))


def do_register(session: Session, *, actor: OrgActor, business_account_id: str, flow_id: str, name: str) -> WhatsAppFlow:
    account = wabas_service.account_for_new_records(session, actor=actor, waba_pk=business_account_id)
    flow = WhatsAppFlow(organization_id=actor.organization_id, waba_pk=account.id, flow_id=flow_id, name=name,
                        created_at=clock.now())
    try:
        with session.begin_nested():
            session.add(flow)
    except IntegrityError:
        raise Conflict("This flow is registered already for that business account.", code="flow_exists") from None
    return flow


def do_delete(session: Session, *, actor: OrgActor, flow_pk: str) -> None:
    flow = access_flow(session, actor=actor, flow_pk=flow_pk)
    phone_numbers_service.scope_of(session, actor).check_covers_account(flow.waba_pk)
    session.delete(flow)
