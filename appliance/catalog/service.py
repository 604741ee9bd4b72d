"""Products: the business's catalog (`/catalog/products`): goods and licenses with a price in one
currency, an optional picture and page, and whether they are for sale. The retailer id is the
product's id in Meta's catalog and in a customer's cart, so it is unique in an organization and
an order's items find their product by it. A product with keys given out is not deleted (its
sales name it): it is made unavailable instead."""

from __future__ import annotations

import json
from datetime import datetime
from urllib.parse import urlsplit

from babel.numbers import list_currencies
from sqlalchemy import func, text
from sqlmodel import Session, select

from appliance.billing import money
from appliance.catalog.models import LicenseKey, Product
from appliance.core import clock, pagination, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid


def _web_address(value: str | None, field: str, *, schemes: tuple[str, ...] = ("https", "http")) -> str | None:
    """An address Meta and customers' phones open, with a host (a picture's: https only, as Meta
    takes it and the pages show it)."""
    if not value:
        return None
    try:
        parts = urlsplit(value.strip())
        host = parts.hostname
    except ValueError:  # an address that does not parse ("https://[abc")
        parts, host = None, None
    if parts is None or parts.scheme not in schemes or not host:
        raise Invalid(f"{field} must be a web address ({schemes[0]}://...).", errors={field: ["A web address."]})
    return value.strip()


def _currency(value: str) -> str:
    currency = value.strip().upper()
    if currency not in list_currencies():  # CLDR's ISO 4217 codes
        raise Invalid("currency must be an ISO 4217 code (COP, USD...).", errors={"currency": ["An ISO 4217 code."]})
    return currency


def _check_retailer_free(session: Session, organization_id: str, retailer_id: str, product_id: str | None = None):
    taken = session.exec(select(Product.id).where(Product.organization_id == organization_id,
                                                  Product.retailer_id == retailer_id)).first()
    if taken and taken != product_id:
        raise Conflict("Another product has this retailerId.", code="retailer_id_taken", productId=taken)


def do_create(session: Session, *, actor: OrgActor, retailer_id: str, name: str, price, currency: str,
              description: str = "", image_url: str | None = None, url: str | None = None, available: bool = True,
              kind: str = "GOODS", low_stock_at: int = 5) -> Product:
    currency = _currency(currency)
    _check_retailer_free(session, actor.organization_id, retailer_id.strip())
    now = clock.now()
    product = Product(organization_id=actor.organization_id, retailer_id=retailer_id.strip(), name=name.strip(),
                      description=description, price_minor=money.parse_amount(price, currency, field="price"),
                      currency=currency, image_url=_web_address(image_url, "imageUrl", schemes=("https",)),
                      url=_web_address(url, "url"),
                      available=available, kind=kind, low_stock_at=low_stock_at, created_at=now, updated_at=now)
    session.add(product)
    session.flush()
    return product


def list_products(session: Session, *, actor: OrgActor, take: int = 50, cursor: str | None = None,
                  kind: str | None = None, q: str | None = None) -> pagination.Page:
    query = select(Product).where(Product.organization_id == actor.organization_id)
    if kind:
        query = query.where(Product.kind == kind)
    if q:
        query = query.where(func.lower(Product.name).contains(q.strip().lower(), autoescape=True))
    return pagination.paginate(session, query, key=[Product.name, Product.id], take=take, cursor=cursor,
                               descending=False)


def access_product(session: Session, *, actor: OrgActor, product_id: str) -> Product:
    return tenancy.access_in_org(session, Product, product_id, actor, what="product", code="product_not_found")


def do_update(session: Session, *, actor: OrgActor, product_id: str, **changes) -> Product:
    """Change what is named; a new price is read in the (new) currency."""
    product = access_product(session, actor=actor, product_id=product_id)
    if "kind" in changes and changes["kind"] != product.kind and _given_out(session, product.id):
        raise Conflict("Keys of this product were delivered: its kind stays LICENSE.", code="product_has_sales")
    if any(changes.get(name, getattr(product, name)) != getattr(product, name) for name in ("kind", "retailer_id")):
        _check_no_order_waits(session, product)
    if "currency" in changes:
        product.currency = _currency(changes.pop("currency"))
    if "price" in changes:
        product.price_minor = money.parse_amount(changes.pop("price"), product.currency, field="price")
    if "retailer_id" in changes:
        changes["retailer_id"] = changes["retailer_id"].strip()
        _check_retailer_free(session, actor.organization_id, changes["retailer_id"], product.id)
    if "image_url" in changes:
        changes["image_url"] = _web_address(changes["image_url"], "imageUrl", schemes=("https",))
    if "url" in changes:
        changes["url"] = _web_address(changes["url"], "url")
    for name, value in changes.items():
        if name in ("retailer_id", "name", "description", "image_url", "url", "available", "kind", "low_stock_at"):
            setattr(product, name, value.strip() if name == "name" else value)
    product.updated_at = clock.now()
    session.add(product)
    session.flush()
    return product


def _given_out(session: Session, product_id: str) -> bool:
    return session.exec(select(LicenseKey.id).where(LicenseKey.product_id == product_id,
                                                    LicenseKey.assigned_at.is_not(None))).first() is not None


def _check_no_order_waits(session: Session, product: Product) -> None:
    """A paid order waiting for this product's keys finds it by its retailer id and kind: neither
    changes (nor is the product deleted) until it is delivered. (The orders' table by its name:
    the orders import the catalog, not the other way round.)"""
    waiting = session.execute(text("SELECT id, items FROM orders WHERE organization_id = :organization AND "
                                   "payment_status = 'PAID' AND delivery_status = 'WAITING'"),
                              {"organization": product.organization_id}).all()
    for order_id, items in waiting:
        items = json.loads(items) if isinstance(items, str) else items or []
        if any(isinstance(i, dict) and i.get("productRetailerId") == product.retailer_id for i in items):
            raise Conflict("A paid order waits for this product's keys: add keys to deliver it first.",
                           code="product_has_waiting_orders", orderId=order_id)


def do_delete(session: Session, *, actor: OrgActor, product_id: str) -> Product:
    product = access_product(session, actor=actor, product_id=product_id)
    if _given_out(session, product.id):
        raise Conflict("Keys of this product were delivered; make it unavailable instead of deleting it.",
                       code="product_has_sales")
    _check_no_order_waits(session, product)
    session.delete(product)
    session.flush()
    return product


def by_id(session: Session, product_id: str) -> Product | None:
    return session.get(Product, product_id)


def by_retailer_ids(session: Session, organization_id: str, retailer_ids: list[str]) -> dict[str, Product]:
    """An order's products, by the retailer ids its items name."""
    if not retailer_ids:
        return {}
    return {p.retailer_id: p for p in session.exec(select(Product).where(
        Product.organization_id == organization_id, Product.retailer_id.in_(set(retailer_ids))))}


def do_mark_synced(session: Session, products: list[Product], at: datetime, errors: dict[str, str],
                   catalog_id: str) -> None:
    """What Meta answered for each product pushed: its reason, or the moment (and the catalog) it
    took it in."""
    for product in products:
        product.sync_error = errors.get(product.retailer_id)
        if product.sync_error is None:
            product.synced_at, product.meta_catalog_id = at, catalog_id
        session.add(product)
    session.flush()


def in_meta_catalog(session: Session, organization_id: str, take: int = 30) -> list[Product]:
    """Products a customer can be sent in WhatsApp (for sale, and in Meta's catalog), by name."""
    return list(session.exec(select(Product).where(Product.organization_id == organization_id, Product.available.is_(True),
                                                   Product.meta_catalog_id.is_not(None))
                             .order_by(Product.name, Product.id).limit(take)))
