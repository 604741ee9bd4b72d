"""Issue 50, the catalog: products (goods and licenses) validated as money and web addresses, their
retailer id unique in the organization; a license's keys sealed, each once, counted with a low-stock
warning and never shown; the push to the Meta catalog of the business account (the simulator's), each
product keeping what Meta said of it."""

from __future__ import annotations

from sqlmodel import select

from appliance.catalog.models import LicenseKey
from appliance.core import runtime
from tests.problems import assert_problem

LICENSE = {"retailerId": "office-2024", "name": "Office 2024 Pro", "price": "45000.00", "currency": "COP",
           "kind": "LICENSE", "imageUrl": "https://tienda.example.com/office.png", "lowStockAt": 2}


def products(line) -> str:
    return f"/organizations/{line.org_id}/catalog/products"


def test_a_product_is_validated_and_its_retailer_id_is_its_own(line):
    token = line.owner["token"]
    made = line.api.post(products(line), LICENSE, token=token)
    assert made.status_code == 201, made.json
    assert (made.json["data"]["price"], made.json["data"]["kind"], made.json["data"]["syncedAt"]) == ("45000.00", "LICENSE", None)
    assert_problem(line.api.post(products(line), LICENSE, token=token), 409, "retailer_id_taken")
    for wrong, field in (({"price": "-1"}, "price"), ({"price": "12.345"}, "price"), ({"price": "abc"}, "price"),
                         ({"currency": "XYZ"}, "currency"), ({"imageUrl": "javascript:alert(1)"}, "imageUrl"),
                         ({"imageUrl": "http://tienda.example.com/a.png"}, "imageUrl"), ({"url": "https://[abc"}, "url"),
                         ({"kind": "SERVICE"}, "kind")):
        refused = line.api.post(products(line), {**LICENSE, "retailerId": "other", **wrong}, token=token)
        assert refused.status_code == 400 and field in refused.json["errors"], (wrong, refused.json)
    goods = line.api.post(products(line), {"retailerId": "pan", "name": "Pan", "price": 4000, "currency": "cop"},
                          token=token).json["data"]
    assert (goods["kind"], goods["currency"], goods["price"]) == ("GOODS", "COP", "4000.00")
    changed = line.api.patch(f"{products(line)}/{goods['id']}", {"price": "4500.5", "available": False}, token=token)
    assert changed.json["data"]["price"] == "4500.50" and changed.json["data"]["available"] is False
    assert_problem(line.api.patch(f"{products(line)}/{goods['id']}", {"retailerId": "office-2024"}, token=token),
                   409, "retailer_id_taken")
    listed = line.get("/catalog/products")["items"]
    assert [p["name"] for p in listed] == ["Office 2024 Pro", "Pan"]
    assert [p["name"] for p in line.get("/catalog/products?kind=GOODS")["items"]] == ["Pan"]
    assert line.api.delete(f"{products(line)}/{goods['id']}", token=token).status_code == 204


def test_keys_are_sealed_once_each_and_counted(line):
    token = line.owner["token"]
    product = line.api.post(products(line), LICENSE, token=token).json["data"]
    path = f"{products(line)}/{product['id']}/license-keys"
    added = line.api.post(path, {"keys": ["AAAA-1111", "BBBB-2222", " AAAA-1111 ", "CCCC-3333"]}, token=token)
    assert added.status_code == 201 and added.json["data"]["added"] == 3 and added.json["data"]["duplicates"] == 1
    again = line.api.post(path, {"keys": ["BBBB-2222", "DDDD-4444"]}, token=token).json["data"]
    assert (again["added"], again["duplicates"]) == (1, 1)
    stock = line.api.get(path, token=token).json["data"]
    assert stock == {"available": 4, "delivered": 0, "lowStockAt": 2, "low": False}
    with runtime.get().db.unit_of_work(write=False) as session:
        stored = session.exec(select(LicenseKey.key_sealed)).all()
    assert len(stored) == 4 and not any("AAAA" in sealed for sealed in stored)  # sealed at rest
    assert_problem(line.api.post(path, {"keys": []}, token=token), 400, "validation_failed")
    goods = line.api.post(products(line), {"retailerId": "pan", "name": "Pan", "price": "1", "currency": "COP"},
                          token=token).json["data"]
    assert_problem(line.api.post(f"{products(line)}/{goods['id']}/license-keys", {"keys": ["X"]}, token=token),
                   409, "product_not_license")
    assert_problem(line.api.get(f"{products(line)}/{goods['id']}/license-keys", token=token), 409, "product_not_license")


def test_the_catalog_is_pushed_to_meta_and_each_product_says_what_meta_said(line, simulator):
    token = line.owner["token"]
    assert_problem(line.api.post(f"/organizations/{line.org_id}/catalog/sync", {}, token=token), 409, "catalog_empty")
    line.api.post(products(line), LICENSE, token=token)
    line.api.post(products(line), {"retailerId": "pan", "name": "Pan", "price": "4000", "currency": "COP"}, token=token)
    pushed = line.api.post(f"/organizations/{line.org_id}/catalog/sync", {}, token=token)
    assert pushed.status_code == 200, pushed.json
    assert pushed.json["data"]["pushed"] == 1 and "image_link is required" in pushed.json["data"]["refused"]["pan"]
    catalog = simulator.catalogs.by_id[pushed.json["data"]["catalogId"]]
    assert catalog.items["office-2024"]["price"] == "45000.00 COP"
    assert catalog.items["office-2024"]["availability"] == "in stock" and "pan" not in catalog.items
    by_name = {p["retailerId"]: p for p in line.get("/catalog/products")["items"]}
    assert by_name["office-2024"]["syncedAt"] and by_name["office-2024"]["syncError"] is None
    assert "image_link" in by_name["pan"]["syncError"] and by_name["pan"]["syncedAt"] is None


def test_another_organizations_products_are_not_found(line, api):
    product = line.api.post(products(line), LICENSE, token=line.owner["token"]).json["data"]
    intruder = api.signup(email="intruder@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Evil", "slug": "evil", "billingEmail": "e@evil.test"},
                      token=intruder).json["data"]["id"]
    assert_problem(api.get(f"/organizations/{theirs}/catalog/products/{product['id']}", token=intruder),
                   404, "product_not_found")
    assert_problem(api.post(f"/organizations/{theirs}/catalog/products/{product['id']}/license-keys",
                            {"keys": ["X-1"]}, token=intruder), 404, "product_not_found")
