"""Meta's product catalogs as the simulator plays them: each simulated business account has one
catalog connected (as Commerce Manager leaves it), read with `GET /{waba_id}/product_catalogs`, and
filled with `POST /{catalog_id}/items_batch` (item_type PRODUCT_ITEM, requests of CREATE, UPDATE or
DELETE with the retailer id in `data.id`; UPDATE creates what is missing, as allow_upsert does).
Each item is checked as Meta checks a feed row: a title, a price written "45000.00 COP" (major units
and the ISO code), an availability of "in stock" or "out of stock", and an https image_link; a row
that fails is refused with its reason in `validation_status`, the others are taken. (The sandbox's
customer orders only what the catalog took: sandbox/service.check_customer_orders.)"""

from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass, field

from appliance.netsim.bounded import BoundedDict

MAX_ITEMS, MAX_REQUESTS = 10_000, 5_000
AVAILABILITIES = ("in stock", "out of stock")
_PRICE = re.compile(r"\A\d{1,13}(\.\d{1,2})? [A-Z]{3}\Z")


@dataclass
class Catalog:
    catalog_id: str
    name: str
    items: BoundedDict = field(default_factory=lambda: BoundedDict(max_items=MAX_ITEMS, max_bytes=20_000_000))  # retailer id -> item


class Catalogs:
    def __init__(self):
        self.lock = threading.Lock()
        self.by_id: dict[str, Catalog] = {}
        self.of_account: dict[str, str] = {}  # waba id -> its connected catalog's id

    def connected(self, waba_id: str, account_name: str) -> Catalog:
        with self.lock:
            if waba_id not in self.of_account:
                catalog = Catalog(str(10**15 + secrets.randbelow(9 * 10**15)), f"Catálogo de {account_name}")
                self.by_id[catalog.catalog_id] = catalog
                self.of_account[waba_id] = catalog.catalog_id
            return self.by_id[self.of_account[waba_id]]

    def owner_of(self, catalog_id: str) -> str | None:
        return next((waba for waba, found in self.of_account.items() if found == catalog_id), None)

    def batch(self, catalog: Catalog, item_type: str, requests: list) -> dict:
        """Meta's answer to items_batch: a handle, and each refused row's reasons."""
        statuses = []
        if item_type != "PRODUCT_ITEM":
            raise ValueError("item_type must be PRODUCT_ITEM")
        if not isinstance(requests, list) or not 1 <= len(requests) <= MAX_REQUESTS:
            raise ValueError(f"requests must hold 1 to {MAX_REQUESTS} rows")
        with self.lock:
            for row in requests:
                data = row.get("data") if isinstance(row, dict) else None
                method = row.get("method") if isinstance(row, dict) else None
                retailer_id = str((data or {}).get("id") or "")
                errors = _refusals(method, data, retailer_id)
                if not errors:
                    if method == "DELETE":
                        catalog.items.pop(retailer_id, None)
                    else:
                        catalog.items[retailer_id] = {**catalog.items.get(retailer_id, {}), **data}
                statuses.append({"retailer_id": retailer_id, "errors": [{"message": e} for e in errors],
                                 "warnings": []})
        return {"handles": [secrets.token_urlsafe(12)],
                "validation_status": [s for s in statuses if s["errors"]]}


def _refusals(method, data, retailer_id: str) -> list[str]:
    if method not in ("CREATE", "UPDATE", "DELETE"):
        return ["method must be CREATE, UPDATE or DELETE"]
    if not isinstance(data, dict) or not retailer_id:
        return ["data.id (the retailer id) is required"]
    if method == "DELETE":
        return []
    errors = []
    if not str(data.get("title") or "").strip():
        errors.append("title is required")
    if not _PRICE.match(str(data.get("price") or "")):
        errors.append('price must be written as "45000.00 COP"')
    if data.get("availability") not in AVAILABILITIES:
        errors.append('availability must be "in stock" or "out of stock"')
    if not str(data.get("image_link") or "").startswith("https://"):
        errors.append("image_link is required (an https address of the product's picture)")
    return errors
