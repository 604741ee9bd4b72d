"""The push of the catalog to Meta (`POST /catalog/sync`): every product of the organization sent to
the Meta catalog connected to its business account, with Meta's `items_batch` (an UPDATE per
product, which creates what Meta does not have yet). Each product keeps what came of it: when Meta
took it, or Meta's reason for refusing the row (a missing picture is the usual one).

The network is called outside any transaction; the products are read before and their outcome
written after, in units of their own."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import select

from appliance.billing import money
from appliance.catalog import service
from appliance.catalog.models import Product
from appliance.core import clock, runtime
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict
from appliance.graph_api.client import GraphError
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount
from appliance.wabas.network import as_app_error, graph_client

BATCH = 1000  # rows a call (Meta takes up to 5,000)


@dataclass(frozen=True)
class SyncResult:
    catalog_id: str
    pushed: int
    refused: dict[str, str]  # retailer id -> Meta's reason


def item_of(product: Product) -> dict:
    """A product as a row of Meta's catalog feed: price in the currency's unit with its code."""
    data = {"id": product.retailer_id, "title": product.name, "description": product.description or product.name,
            "availability": "in stock" if product.available else "out of stock", "condition": "new",
            "price": f"{money.text(product.price_minor, product.currency)} {product.currency}"}
    if product.image_url:
        data["image_link"] = product.image_url
    if product.url:
        data["link"] = product.url
    return {"method": "UPDATE", "data": data}


def check_sync(*, actor: OrgActor, waba_pk: str | None = None) -> SyncResult:
    database = runtime.get().db
    with database.unit_of_work(write=False) as reading:
        accounts = wabas_service.list_wabas(reading, actor=actor)
        account = next((a for a in accounts if waba_pk in (None, a.id)), None)
        if account is None:
            raise Conflict("Connect a WhatsApp business account first: the catalog lives in Meta's, linked to it.",
                           code="no_business_account")
        waba_id, token = account.waba_id, wabas_service.credentials(reading.get(BusinessAccount, account.id))[0]
        products = list(reading.exec(select(Product).where(Product.organization_id == actor.organization_id)
                                     .order_by(Product.id)))
    if not products:
        raise Conflict("Add products first: there is nothing to push.", code="catalog_empty")
    try:
        catalogs = graph_client().product_catalogs(token, waba_id)
        if not catalogs:
            raise Conflict("This business account has no catalog: create one in Meta's Commerce Manager and connect "
                           "it to the account, then push again.", code="no_meta_catalog")
        catalog_id = str(catalogs[0]["id"])
        refused: dict[str, str] = {}
        for start in range(0, len(products), BATCH):
            answer = graph_client().items_batch(token, catalog_id, [item_of(p) for p in products[start:start + BATCH]])
            for status in answer.get("validation_status") or []:
                reasons = "; ".join(str(e.get("message")) for e in status.get("errors") or [])
                if reasons:
                    refused[str(status.get("retailer_id"))] = reasons[:300]
    except GraphError as error:
        raise as_app_error(error, what="when pushing the catalog") from None
    with database.unit_of_work(write=True) as writing:
        fresh = list(writing.exec(select(Product).where(Product.id.in_([p.id for p in products]))))
        service.do_mark_synced(writing, fresh, clock.now(), refused, catalog_id)
    return SyncResult(catalog_id, len(products) - len(refused), refused)
