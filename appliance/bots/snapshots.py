"""What the engine reads on every turn but that rarely changes (an organization's rules, its flows'
trigger words, a number's configuration), read once and reused.

A snapshot of an organization's rows is kept in the process until they change: their count and
newest `updated_at` are its version (a deleted row lowers the count), checked once per write
transaction of the runner, which answers up to 20 conversations. Within that transaction the
session remembers the versions and the configurations it read, so a batch on one number reads
them once, and a change committed meanwhile is seen by the next batch."""

from __future__ import annotations

import threading
from functools import cache
from typing import Callable, TypeVar

from sqlmodel import Session, SQLModel

from appliance.bots import service as configs
from appliance.core.rows import driver_connection

T = TypeVar("T")

_cache: dict[tuple[str, str], tuple[tuple, object]] = {}
_lock = threading.Lock()


@cache
def _version_sql(table: str) -> str:
    return f"SELECT count(*), max(updated_at) FROM {table} WHERE organization_id = ?"


def of_organization(session: Session, model: type[SQLModel], organization_id: str,
                    build: Callable[[Session, str], T]) -> T:
    """`build(session, organization_id)`, as of the organization's current `model` rows."""
    key = (model.__tablename__, organization_id)
    seen = session.info.setdefault("bot_snapshots", {})
    if key in seen:
        return seen[key]
    version = tuple(driver_connection(session).execute(_version_sql(model.__tablename__), (organization_id,)).fetchone())
    cached = _cache.get(key)
    if cached is None or cached[0] != version:
        cached = (version, build(session, organization_id))
        with _lock:
            _cache[key] = cached
    seen[key] = cached[1]
    return cached[1]


def config_of(session: Session, phone_number_pk: str) -> dict | None:
    """The number's configuration (bots/service.config_of), read once per transaction."""
    seen = session.info.setdefault("bot_configs", {})
    if phone_number_pk not in seen:
        seen[phone_number_pk] = configs.config_of(session, phone_number_pk)
    return seen[phone_number_pk]
