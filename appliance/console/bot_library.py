"""The bot's library in the console: the image library (upload with a progress bar, label and
caption, delete with the `forzar` rule said in words) and the services catalog editor (a service
and its prices in one form). Checked by the API's schemas, saved by the same services."""

from __future__ import annotations

from flask import request

from appliance.bots import images as images_service
from appliance.bots import api as bots_api
from appliance.bots.image_schemas import BotImageUpdateSchema, BotImageUploadSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_bot_library import BOT_LIBRARY_TEXTS
from appliance.core.errors import AppError
from appliance.http.api import takes_upload, uploaded_file
from appliance.http.browser import signed_in_page
from appliance.http.files import serve_stored_file
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.services_catalog import service as catalog_service
from appliance.services_catalog import api as services_catalog_api
from appliance.services_catalog.schemas import PERIODS, ServiceCreateSchema

_ACTIVE = "console_pages.bot"
PRICE_ROWS = 3  # empty price rows offered under a service's prices


# Images ---------------------------------------------------------------------------------------

def _images_page(actor, error: AppError | None = None, editing: str | None = None):
    return render("console/bot_images.html", actor, _ACTIVE, error=error, texts=BOT_LIBRARY_TEXTS,
                  images=images_service.list_images(db_session(), actor=actor), editing=editing,
                  in_use=error is not None and error.code == "image_in_use", done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/images")
@performs(bots_api.BotImages.get)
@signed_in_page
def bot_images(org_id):
    return _images_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/bot/images")
@performs(bots_api.BotImages.post)
@takes_upload(max_bytes=images_service.MAX_BYTES, content_types=())
@signed_in_page
def bot_image_upload(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(BotImageUploadSchema(), {"label": forms.text("label", 200),
                                                     "caption": request.form.get("caption", "")[:2000]})
        images_service.do_upload(db_session(), actor=actor, upload=uploaded_file(required=False), **fields)
    except AppError as error:
        return _images_page(actor, error)
    return back("console_pages.bot_images", "image_added", org_id=actor.organization_id)


@console_pages.get("/console/<uuid:org_id>/bot/images/<uuid:image_id>/file")
@performs(bots_api.BotImageFile.get)
@signed_in_page
def bot_image_file(org_id, image_id):
    """The picture, also of an image deleted since a message showed it (the file stays)."""
    actor = org_actor(org_id)
    found = images_service.file_of(db_session(), actor=actor, image_id=str(image_id))
    return serve_stored_file(found.path, claimed_type=found.mime_type, filename=found.filename)


@console_pages.post("/console/<uuid:org_id>/bot/images/<uuid:image_id>")
@performs(bots_api.BotImageById.patch)
@signed_in_page
def bot_image_save(org_id, image_id):
    actor = org_actor(org_id)
    images_service.access_image(db_session(), actor=actor, image_id=str(image_id))  # 404 before the form
    try:
        fields = check_form(BotImageUpdateSchema(), {"label": forms.text("label", 200),
                                                     "caption": request.form.get("caption", "")[:2000]})
        images_service.do_update(db_session(), actor=actor, image_id=str(image_id), **fields)
    except AppError as error:
        return _images_page(actor, error, editing=str(image_id))
    return back("console_pages.bot_images", "image_saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/bot/images/<uuid:image_id>/delete")
@performs(bots_api.BotImageById.delete)
@signed_in_page
def bot_image_delete(org_id, image_id):
    actor = org_actor(org_id)
    try:
        images_service.do_delete(db_session(), actor=actor, image_id=str(image_id), forzar=bool(request.form.get("forzar")))
    except AppError as error:
        return _images_page(actor, error, editing=str(image_id))
    return back("console_pages.bot_images", "image_deleted", org_id=actor.organization_id)


# Services catalog -----------------------------------------------------------------------------

def _prices_from_form() -> list[dict]:
    """The price rows with a label (the others are the empty rows offered)."""
    prices = []
    for i in range(50):
        label = forms.text(f"price-{i}-etiqueta", 200)
        if not label:
            continue
        stock = forms.text(f"price-{i}-stock", 20)
        prices.append({"etiqueta": label, "monto": forms.text(f"price-{i}-monto", 30) or "0",
                       "periodo": forms.text(f"price-{i}-periodo", 20) or "UNICO", "stock": stock or None})
    return prices


def _service_values() -> dict:
    return {"nombre": forms.text("nombre", 300), "categoria": forms.text("categoria", 200),
            "descripcion": request.form.get("descripcion", "")[:5000], "notas": request.form.get("notas", "")[:5000],
            "moneda": forms.text("moneda", 10).upper() or None, "urlContratacion": forms.optional("url", 2100),
            "activo": bool(request.form.get("activo")), "mostrarPrecio": bool(request.form.get("mostrar_precio")),
            "mostrarSinStock": bool(request.form.get("mostrar_sin_stock")), "orden": forms.text("orden", 10) or "0",
            "precios": _prices_from_form()}


def _services_page(actor, error: AppError | None = None, editing: str | None = None):
    return render("console/bot_services.html", actor, _ACTIVE, error=error, texts=BOT_LIBRARY_TEXTS,
                  services=catalog_service.list_services(db_session(), actor=actor), editing=editing,
                  periods=PERIODS, price_rows=PRICE_ROWS, done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/services")
@performs(services_catalog_api.Services.get)
@signed_in_page
def bot_services(org_id):
    return _services_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/bot/services")
@performs(services_catalog_api.Services.post)
@signed_in_page
def bot_service_create(org_id):
    actor = org_actor(org_id)
    try:
        values = {k: v for k, v in _service_values().items() if v is not None}
        catalog_service.do_create(db_session(), actor=actor, **check_form(ServiceCreateSchema(), values))
    except AppError as error:
        return _services_page(actor, error, editing="new")
    return back("console_pages.bot_services", "service_created", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/bot/services/<uuid:service_id>")
@performs(services_catalog_api.ServiceById.patch)
@signed_in_page
def bot_service_save(org_id, service_id):
    actor = org_actor(org_id)
    catalog_service.access_service(db_session(), actor=actor, service_id=str(service_id))  # 404 before the form
    try:
        values = {k: v for k, v in _service_values().items() if v is not None}
        catalog_service.do_update(db_session(), actor=actor, service_id=str(service_id),
                                  **check_form(ServiceCreateSchema(), values))
    except AppError as error:
        return _services_page(actor, error, editing=str(service_id))
    return back("console_pages.bot_services", "service_saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/bot/services/<uuid:service_id>/delete")
@performs(services_catalog_api.ServiceById.delete)
@signed_in_page
def bot_service_delete(org_id, service_id):
    actor = org_actor(org_id)
    catalog_service.do_delete(db_session(), actor=actor, service_id=str(service_id))
    return back("console_pages.bot_services", "service_deleted", org_id=actor.organization_id)
