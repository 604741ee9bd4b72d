"""License keys: a LICENSE product's pool, sealed at rest (the keyring), each key once per product
(by its SHA-256), counted (available, delivered, low), and handed out to paid orders.

Handing out is a conditional write per key (`assigned_at IS NULL` in the UPDATE's own WHERE).
Writers already take turns (SQLite's one writer, PostgreSQL's writers' lock), so no two payments
run this at once; the condition is the guard that keeps it so if that ever changes: a write that
changed no row lost the key, and the next one is tried. Keys are read in clear only to send them;
everywhere else (lists, events) they are masked."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.catalog.models import LICENSE, LicenseKey, Product
from appliance.catalog.service import access_product
from appliance.core import clock, events, runtime
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid
from appliance.core.rows import driver_connection, stored

MAX_KEYS_PER_CALL = 1000


def key_hash(key: str) -> str:
    return hashlib.sha256(key.strip().encode("utf-8")).hexdigest()


def masked(key: str) -> str:
    """What events and lists show of a key: its last four characters."""
    key = key.strip()
    return "•" * 4 + key[-4:] if len(key) > 6 else "•" * len(key)


@dataclass(frozen=True)
class Stock:
    product_id: str
    available: int
    delivered: int
    low_stock_at: int

    @property
    def low(self) -> bool:
        return self.available <= self.low_stock_at


@dataclass(frozen=True)
class Added:
    added: int
    duplicates: int  # already in the pool (or twice in the request): refused, not added
    stock: Stock


def access_license(session: Session, *, actor: OrgActor, product_id: str) -> Product:
    product = access_product(session, actor=actor, product_id=product_id)
    if product.kind != LICENSE:
        raise Conflict("Only a LICENSE product has keys.", code="product_not_license")
    return product


def do_add(session: Session, *, actor: OrgActor, product_id: str, keys: list[str]) -> Added:
    """Add keys to the pool; ones already in it (or repeated) are counted and left out."""
    product = access_license(session, actor=actor, product_id=product_id)
    cleaned = [key.strip() for key in keys]
    if not cleaned or len(cleaned) > MAX_KEYS_PER_CALL or any(not key or len(key) > 500 for key in cleaned):
        raise Invalid(f"keys: 1 to {MAX_KEYS_PER_CALL} keys of 1 to 500 characters.",
                      errors={"keys": [f"1 to {MAX_KEYS_PER_CALL} keys."]})
    by_hash = {key_hash(key): key for key in cleaned}
    present = set(session.exec(select(LicenseKey.key_hash).where(LicenseKey.product_id == product.id,
                                                                 LicenseKey.key_hash.in_(list(by_hash)))))
    keyring, now = runtime.get().keyring, clock.now()
    fresh = [LicenseKey(organization_id=product.organization_id, product_id=product.id, key_sealed=keyring.seal(key),
                        key_hash=digest, created_at=now) for digest, key in by_hash.items() if digest not in present]
    session.add_all(fresh)
    session.flush()
    if fresh:  # orders waiting for this pool are delivered (orders/listeners.py)
        events.emit(session, events.LICENSE_KEYS_ADDED, organization_id=product.organization_id, productId=product.id,
                    added=len(fresh))
    return Added(len(fresh), len(cleaned) - len(fresh), stock_of(session, product))


def stock_of(session: Session, product: Product) -> Stock:
    return stocks(session, [product])[product.id]


def stocks(session: Session, products: list[Product]) -> dict[str, Stock]:
    """Keys left and given out per LICENSE product, in one query for a page of products."""
    ids = [p.id for p in products if p.kind == LICENSE]
    counts = {row[0]: (row[1], row[2]) for row in session.exec(
        select(LicenseKey.product_id, func.count(LicenseKey.id) - func.count(LicenseKey.assigned_at),
               func.count(LicenseKey.assigned_at))
        .where(LicenseKey.product_id.in_(ids), LicenseKey.replaced_at.is_(None)).group_by(LicenseKey.product_id))} if ids else {}
    return {p.id: Stock(p.id, *counts.get(p.id, (0, 0)), p.low_stock_at) for p in products if p.kind == LICENSE}


@dataclass(frozen=True)
class Held:
    """A key an order holds, as the delivery needs it (read through the driver)."""
    id: str
    product_id: str
    key_sealed: str


def _held(driver, order_id: str, product_id: str) -> list[Held]:
    return [Held(*row) for row in driver.execute(
        "SELECT id, product_id, key_sealed FROM license_keys WHERE order_id = ? AND product_id = ? "
        "AND replaced_at IS NULL ORDER BY assigned_at, id", (order_id, product_id)).fetchall()]


def do_assign(session: Session, *, organization_id: str, product_id: str, order_id: str, quantity: int,
              now: datetime | None = None) -> list[Held]:
    """Give `quantity` keys of the product to the order, or none at all (the pool is short: the
    caller keeps the order waiting). Keys the order already holds count (a delivery retried).
    Through the driver: a sale's hot path (each payment event passes here)."""
    driver = driver_connection(session)
    held = _held(driver, order_id, product_id)
    wanted = quantity - len(held)
    if wanted <= 0:
        return held
    stamp = stored(session, LicenseKey.__table__.c.assigned_at, now or clock.now())
    taken = 0
    with session.begin_nested():  # all or nothing: a short pool gives back what it took
        while taken < wanted:
            # The candidates, then each claimed only where still free: one taken meanwhile is left
            # as it is here, and the loop reads the next ones.
            free = [row[0] for row in driver.execute(
                "SELECT id FROM license_keys WHERE product_id = ? AND organization_id = ? AND assigned_at IS NULL "
                "ORDER BY id LIMIT ?", (product_id, organization_id, wanted - taken)).fetchall()]
            if not free:
                raise _Short()  # leaving the block by it rolls the savepoint back: nothing taken
            for key_id in free:
                claimed = driver.execute("UPDATE license_keys SET order_id = ?, assigned_at = ? "
                                         "WHERE id = ? AND assigned_at IS NULL", (order_id, stamp, key_id))
                taken += claimed.rowcount
    return _held(driver, order_id, product_id)


class _Short(Exception):
    pass


def try_assign(session: Session, **kwargs) -> list[Held] | None:
    """do_assign, or None when the pool cannot cover the order (nothing taken)."""
    try:
        return do_assign(session, **kwargs)
    except _Short:
        return None


def held_by(session: Session, order_id: str, product_id: str | None = None) -> list[LicenseKey]:
    """The keys an order holds now (not the replaced ones), oldest first."""
    query = select(LicenseKey).where(LicenseKey.order_id == order_id, LicenseKey.replaced_at.is_(None))
    if product_id is not None:
        query = query.where(LicenseKey.product_id == product_id)
    # populate_existing: a key this session read while free is read again as the driver left it
    return list(session.exec(query.order_by(LicenseKey.assigned_at, LicenseKey.id)
                             .execution_options(populate_existing=True)))


def clear(key: LicenseKey | Held) -> str:
    return runtime.get().keyring.unseal(key.key_sealed)
