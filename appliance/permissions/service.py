"""Reads data/permissions.json once: the catalog of `resource:action` keys and the system roles."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from appliance.core.actor import OrgActor
from appliance.core.errors import Forbidden
from appliance.paths import SHIPPED_DATA_DIR


@dataclass(frozen=True)
class Permission:
    key: str
    resource: str
    action: str
    api_key_scope: bool
    description: dict


@dataclass(frozen=True)
class SystemRole:
    key: str
    name: str
    description: str
    permissions: tuple[str, ...]


@cache
def _load() -> dict:
    return json.loads((SHIPPED_DATA_DIR / "permissions.json").read_text(encoding="utf-8"))


def list_permissions() -> list[Permission]:
    return [Permission(p["key"], p["resource"], p["action"], p["apiKeyScope"], p["description"])
            for p in _load()["permissions"]]


@cache
def permission_keys() -> frozenset[str]:
    return frozenset(p["key"] for p in _load()["permissions"])


def list_system_roles() -> list[SystemRole]:
    return [SystemRole(r["key"], r["name"], r["description"], tuple(r["permissions"]))
            for r in _load()["systemRoles"]]


def unknown_permissions(keys: list[str]) -> list[str]:
    return [k for k in keys if k not in permission_keys()]


@cache
def _catalog_position() -> dict[str, int]:
    return {p["key"]: n for n, p in enumerate(_load()["permissions"])}


def in_catalog_order(keys) -> list[str]:
    """Known keys, deduplicated, in the catalog's order (how roles and keys show them)."""
    position = _catalog_position()
    return sorted({k for k in keys if k in position}, key=position.__getitem__)


def check_grantable(actor: OrgActor, keys) -> None:
    """Nobody hands out (in a role, a key or an invitation) a permission they do not hold."""
    beyond = in_catalog_order(set(keys) - actor.permissions)
    if beyond:
        raise Forbidden("You cannot grant permissions you do not hold: " + ", ".join(beyond),
                        code="permission_escalation")


@cache
def api_key_scopes() -> frozenset[str]:
    """What an API key may hold; a key created without scopes holds all of them."""
    return frozenset(p["key"] for p in _load()["permissions"] if p["apiKeyScope"])
