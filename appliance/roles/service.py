"""System roles are created with every organization and are fixed; custom roles are the
organization's own. Nobody can grant a permission they do not hold themselves."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid
from appliance.core.text import slugify
from appliance.permissions import service as permissions_service
from appliance.roles.models import Role


def do_create_system_roles(session: Session, *, organization_id: str) -> dict[str, Role]:
    now = clock.now()
    roles = {}
    for system_role in permissions_service.list_system_roles():
        role = Role(organization_id=organization_id, key=system_role.key, name=system_role.name,
                    description=system_role.description, system=True,
                    permissions=list(system_role.permissions), created_at=now, updated_at=now)
        session.add(role)
        roles[role.key] = role
    session.flush()
    return roles


def list_roles(session: Session, *, actor: OrgActor) -> list[Role]:
    return list(session.exec(select(Role).where(Role.organization_id == actor.organization_id)
                             .order_by(Role.system.desc(), Role.created_at)).all())


def access_role(session: Session, *, actor: OrgActor, role_id: str) -> Role:
    return tenancy.access_in_org(session, Role, role_id, actor, what="role", code="role_not_found")


def _check_permissions(actor: OrgActor, permissions: list[str]) -> list[str]:
    unknown = permissions_service.unknown_permissions(permissions)
    if unknown:
        raise Invalid("Unknown permissions: " + ", ".join(unknown), code="unknown_permission",
                      errors={"permissions": [f"Unknown permission {k}." for k in unknown]})
    permissions_service.check_grantable(actor, permissions)
    return permissions_service.in_catalog_order(permissions)


def _custom_key(name: str) -> str:
    return "custom-" + (slugify(name) or "role")


def _check_name_free(session: Session, organization_id: str, name: str, *, except_id: str | None = None) -> None:
    clash = session.exec(select(Role).where(Role.organization_id == organization_id,
                                            Role.name == name)).first()
    if clash is not None and clash.id != except_id:
        raise Conflict("A role with this name already exists.", code="role_name_taken",
                       errors={"name": ["Already used in this organization."]})


def check_create_role(session: Session, *, actor: OrgActor, name: str, description: str = "",
                      permissions: list[str] | None = None) -> Role:
    _check_name_free(session, actor.organization_id, name)
    ordered = _check_permissions(actor, permissions or [])
    key, n = _custom_key(name), 1
    while session.exec(select(Role.id).where(Role.organization_id == actor.organization_id,
                                              Role.key == key)).first():
        n += 1
        key = f"{_custom_key(name)}-{n}"
    now = clock.now()
    role = Role(organization_id=actor.organization_id, key=key, name=name, description=description,
                permissions=ordered, created_at=now, updated_at=now)
    session.add(role)
    session.flush()
    return role


def _custom(session: Session, actor: OrgActor, role_id: str) -> Role:
    role = access_role(session, actor=actor, role_id=role_id)
    if role.system:
        raise Conflict("System roles cannot be changed or removed.", code="system_role")
    return role


def check_update_role(session: Session, *, actor: OrgActor, role_id: str, name: str | None = None,
                      description: str | None = None) -> Role:
    role = _custom(session, actor, role_id)
    if name is not None and name != role.name:
        _check_name_free(session, actor.organization_id, name, except_id=role.id)
        role.name = name
    if description is not None:
        role.description = description
    role.updated_at = clock.now()
    session.add(role)
    session.flush()
    return role


def check_replace_permissions(session: Session, *, actor: OrgActor, role_id: str,
                              permissions: list[str]) -> Role:
    role = _custom(session, actor, role_id)
    role.permissions = _check_permissions(actor, permissions)
    role.updated_at = clock.now()
    session.add(role)
    session.flush()
    return role


def check_delete_role(session: Session, *, actor: OrgActor, role_id: str) -> Role:
    role = _custom(session, actor, role_id)
    session.delete(role)
    try:
        session.flush()
    except IntegrityError:  # memberships.role_id is ON DELETE RESTRICT: the database keeps the rule
        raise Conflict("Members still hold this role; give them another role first.", code="role_in_use") from None
    return role
