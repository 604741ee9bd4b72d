"""The catalog in the console: products (goods and licenses) with their picture, price and whether
they are for sale, a license's keys (added one per line, counted, never shown), and the push to
Meta's catalog with what Meta said of each product. Every form works without JavaScript."""

from __future__ import annotations

from flask import request

from appliance.catalog import api as catalog_api
from appliance.catalog import keys, service, sync
from appliance.catalog.schemas import LicenseKeysAddSchema, ProductCreateSchema, ProductPatchSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, form_outcome, org_actor, render
from appliance.console.texts_products import PRODUCT_TEXTS
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.orders import api as orders_api
from appliance.orders import delivery_template
from appliance.orders.schemas import SalesSettingsPutSchema

_ACTIVE = "console_pages.products"


def _list_page(actor, error: AppError | None = None, values: dict | None = None):
    session = db_session()
    search = request.args.get("q", "")[:100]
    found = service.list_products(session, actor=actor, take=50, cursor=request.args.get("cursor") or None,
                                  q=search or None)
    return render("console/products.html", actor, _ACTIVE, error=error, status=error.status if error else 200,
                  texts=PRODUCT_TEXTS, page=found, stocks=keys.stocks(session, found.items), search=search,
                  values=values or {}, done=request.args.get("done"),
                  delivery=delivery_template.get(session, organization_id=actor.organization_id),
                  templates=delivery_template.candidates(session, actor=actor))


def _product_page(actor, product_id, error: AppError | None = None):
    session = db_session()
    product = service.access_product(session, actor=actor, product_id=str(product_id))
    return render("console/product.html", actor, _ACTIVE, error=error, status=error.status if error else 200,
                  texts=PRODUCT_TEXTS, product=product, stock=keys.stocks(session, [product]).get(product.id),
                  done=request.args.get("done"))


def _fields(*, creating: bool) -> dict:
    body = {"name": forms.text("name", 150), "price": forms.text("price", 20), "currency": forms.text("currency", 3),
            "description": request.form.get("description", "")[:5000], "imageUrl": forms.optional("imageUrl", 1000),
            "url": forms.optional("url", 1000), "available": bool(request.form.get("available")),
            "kind": forms.text("kind", 10) or "GOODS"}
    low = forms.text("lowStockAt", 6)
    if low:
        body["lowStockAt"] = forms.whole_number(low)
    if creating or forms.text("retailerId", 100):
        body["retailerId"] = forms.text("retailerId", 100)
    return body


@console_pages.get("/console/<uuid:org_id>/catalog")
@performs(catalog_api.Products.get)
@signed_in_page
def products(org_id):
    return _list_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/catalog")
@performs(catalog_api.Products.post)
@signed_in_page
def product_create(org_id):
    actor = org_actor(org_id)
    body = _fields(creating=True)
    return form_outcome(lambda: service.do_create(db_session(), actor=actor, **check_form(ProductCreateSchema(), body)),
                        failed=lambda error: _list_page(actor, error, body),
                        done=lambda: back(_ACTIVE, "created", org_id=actor.organization_id))


@console_pages.get("/console/<uuid:org_id>/catalog/<uuid:product_id>")
@performs(catalog_api.ProductById.get)
@signed_in_page
def product(org_id, product_id):
    return _product_page(org_actor(org_id), product_id)


def _on_product(actor, product_id, done: str, work):
    return form_outcome(work, failed=lambda error: _product_page(actor, product_id, error),
                        done=lambda: back("console_pages.product", done, org_id=actor.organization_id,
                                          product_id=str(product_id)))


@console_pages.post("/console/<uuid:org_id>/catalog/<uuid:product_id>")
@performs(catalog_api.ProductById.patch)
@signed_in_page
def product_save(org_id, product_id):
    actor = org_actor(org_id)
    return _on_product(actor, product_id, "saved", lambda: service.do_update(
        db_session(), actor=actor, product_id=str(product_id),
        **check_form(ProductPatchSchema(), _fields(creating=False))))


@console_pages.post("/console/<uuid:org_id>/catalog/<uuid:product_id>/keys")
@performs(catalog_api.LicenseKeys.post)
@signed_in_page
def product_keys(org_id, product_id):
    actor = org_actor(org_id)
    lines = [line.strip() for line in request.form.get("keys", "")[:600_000].splitlines() if line.strip()]
    return _on_product(actor, product_id, "keys_added", lambda: keys.do_add(
        db_session(), actor=actor, product_id=str(product_id), **check_form(LicenseKeysAddSchema(), {"keys": lines})))


@console_pages.post("/console/<uuid:org_id>/catalog/<uuid:product_id>/delete")
@performs(catalog_api.ProductById.delete)
@signed_in_page
def product_delete(org_id, product_id):
    actor = org_actor(org_id)
    return form_outcome(lambda: service.do_delete(db_session(), actor=actor, product_id=str(product_id)),
                        failed=lambda error: _product_page(actor, product_id, error),
                        done=lambda: back(_ACTIVE, "deleted", org_id=actor.organization_id))


@console_pages.post("/console/<uuid:org_id>/catalog/delivery-template")
@performs(orders_api.SalesSettings.put)
@signed_in_page
def products_delivery_template(org_id):
    actor = org_actor(org_id)
    name, _, language = forms.text("template", 600).partition("|")
    chosen = {"deliveryTemplate": {"name": name, "language": language} if name else None}
    return form_outcome(
        lambda: delivery_template.do_put(db_session(), actor=actor,
                                         **(check_form(SalesSettingsPutSchema(), chosen)["delivery_template"] or
                                            {"name": None, "language": None})),
        failed=lambda error: _list_page(actor, error),
        done=lambda: back(_ACTIVE, "delivery_saved", org_id=actor.organization_id))


@console_pages.post("/console/<uuid:org_id>/catalog/sync")
@performs(catalog_api.Sync.post)
@signed_in_page
def products_sync(org_id):
    actor = org_actor(org_id)
    try:
        sync.check_sync(actor=actor)
    except AppError as error:
        return _list_page(actor, error)
    return back(_ACTIVE, "synced", org_id=actor.organization_id)
