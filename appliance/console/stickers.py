"""The sticker library in the console: the grid of the organization's stickers with what
normalization did to each, an upload form (file and name), and delete buttons. Checked by the API's
schema, saved by the same service; every form works without JavaScript."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, form_outcome, org_actor, render
from appliance.console.texts_stickers import STICKER_TEXTS
from appliance.core.errors import AppError
from appliance.http.api import takes_upload, uploaded_file
from appliance.http.browser import signed_in_page
from appliance.http.files import serve_stored_file
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.stickers import api as stickers_api
from appliance.stickers import service
from appliance.stickers.schemas import StickerUploadSchema
from appliance.stickers.sentences import what_was_done

_ACTIVE = "console_pages.stickers"


def _page(actor, error: AppError | None = None):
    stickers = service.list_stickers(db_session(), actor=actor)
    added = next((s for s in stickers if s.id == request.args.get("sticker")), None)
    return render("console/stickers.html", actor, _ACTIVE, error=error, texts=STICKER_TEXTS, stickers=stickers,
                  added=added, done=request.args.get("done"), normalization=what_was_done,
                  values=request.form if error is not None else {})


@console_pages.get("/console/<uuid:org_id>/stickers")
@performs(stickers_api.Stickers.get)
@signed_in_page
def stickers(org_id):
    return _page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/stickers")
@performs(stickers_api.Stickers.post)
@takes_upload(max_bytes=service.MAX_UPLOAD_BYTES, content_types=())
@signed_in_page
def sticker_upload(org_id):
    actor = org_actor(org_id)
    uploaded = {}  # the new sticker, which the page then names with what normalization did

    def work():
        fields = check_form(StickerUploadSchema(), {"name": forms.optional("name", 200)})
        uploaded["sticker"] = service.do_upload(db_session(), actor=actor, upload=uploaded_file(required=False),
                                                **fields)
    return form_outcome(work, failed=lambda error: _page(actor, error),
                        done=lambda: back(_ACTIVE, "added", org_id=actor.organization_id,
                                          sticker=uploaded["sticker"].id))


@console_pages.get("/console/<uuid:org_id>/stickers/<uuid:sticker_id>/file")
@performs(stickers_api.StickerFile.get)
@signed_in_page
def sticker_file(org_id, sticker_id):
    """The sticker's WEBP (the grid's pictures, and the inbox's picker)."""
    path = service.file_of(db_session(), actor=org_actor(org_id), sticker_id=str(sticker_id))
    return serve_stored_file(path, claimed_type=service.MIME_TYPE, filename=path.name, max_age=86400)


@console_pages.post("/console/<uuid:org_id>/stickers/<uuid:sticker_id>/delete")
@performs(stickers_api.StickerById.delete)
@signed_in_page
def sticker_delete(org_id, sticker_id):
    actor = org_actor(org_id)
    return form_outcome(lambda: service.do_delete(db_session(), actor=actor, sticker_id=str(sticker_id)),
                        failed=lambda error: _page(actor, error),
                        done=lambda: back(_ACTIVE, "deleted", org_id=actor.organization_id))
