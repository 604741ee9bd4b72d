"""The services catalog: listed by `orden`, then name. A service's currency defaults to the
organization's (and to USD when the organization has none)."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.rows import read_row
from appliance.organizations.models import Organization
from appliance.services_catalog.models import CatalogService

FIELDS = ("categoria", "nombre", "descripcion", "notas", "moneda", "url_contratacion", "activo", "mostrar_precio",
          "mostrar_sin_stock", "orden", "precios")


def list_services(session: Session, *, actor: OrgActor, active_only: bool = False) -> list[CatalogService]:
    query = select(CatalogService).where(CatalogService.organization_id == actor.organization_id)
    if active_only:
        query = query.where(CatalogService.activo.is_(True))
    return list(session.exec(query.order_by(CatalogService.orden, CatalogService.nombre)).all())


def access_service(session: Session, *, actor: OrgActor, service_id: str) -> CatalogService:
    return tenancy.access_in_org(session, CatalogService, service_id, actor, what="service",
                                 code="service_not_found")


def _save(session: Session, entry: CatalogService, changes: dict) -> CatalogService:
    for name in FIELDS:
        if name in changes:
            setattr(entry, name, changes[name])
    entry.updated_at = clock.now()
    session.add(entry)
    session.flush()
    return entry


def do_create(session: Session, *, actor: OrgActor, **fields) -> CatalogService:
    now = clock.now()
    organization = read_row(session, Organization.__table__, id=actor.organization_id)
    currency = fields.pop("moneda", None) or (organization.currency if organization else None) or "USD"
    entry = CatalogService(organization_id=actor.organization_id, moneda=currency.upper(), created_at=now, updated_at=now)
    return _save(session, entry, fields)


def do_update(session: Session, *, actor: OrgActor, service_id: str, **fields) -> CatalogService:
    return _save(session, access_service(session, actor=actor, service_id=service_id), fields)


def do_delete(session: Session, *, actor: OrgActor, service_id: str) -> CatalogService:
    """Answers the service as it was."""
    entry = access_service(session, actor=actor, service_id=service_id)
    session.delete(entry)
    return entry
