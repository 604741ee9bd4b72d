"""/organizations/{orgId}/stickers: the organization's sticker library. Reading it is for whoever
reads messages (agents pick from it in the composer); changing it is for whoever changes the
message templates (templates:write: owners and admins), since a sticker goes out in the business's
name to any customer, as a template does. Sending one: POST /messages with type sticker and
stickerId."""

from flask.views import MethodView

from appliance.http.api import Blueprint, takes_upload, uploaded_file, uploaded_form
from appliance.http.auth import current_org_actor
from appliance.http.files import file_answer, serve_stored_file
from appliance.http.unit_of_work import db_session
from appliance.stickers import schemas, service

blp = Blueprint("stickers", __name__, url_prefix="/organizations/<uuid:org_id>/stickers",
                description="The sticker library: WEBP or PNG uploads normalized to WhatsApp's stickers")


@blp.route("")
class Stickers(MethodView):
    @blp.requires("messages:read")
    @blp.response(200, schemas.StickerSchema(many=True))
    def get(self, org_id):
        """The library, newest first"""
        return service.list_stickers(db_session(), actor=current_org_actor())

    @blp.requires("templates:write")
    @blp.response(201, schemas.StickerSchema)
    @takes_upload(max_bytes=service.MAX_UPLOAD_BYTES, content_types=("image/webp", "image/png"),
                  description="A WEBP or PNG picture, still or animated, of at most 5 MB (recognized by its content)",
                  form=schemas.StickerUploadSchema())
    def post(self, org_id):
        """Add a sticker (multipart: file, name): made a 512×512 WEBP of at most 100 KB (500 KB animated);
        400 unsupported_sticker_type, 409 sticker_duplicate, 413 over 5 MB, 422 sticker_too_large,
        sticker_too_many_pixels or sticker_too_many_frames, each with a sentence"""
        return service.do_upload(db_session(), actor=current_org_actor(), upload=uploaded_file(), **uploaded_form())


@blp.route("/<uuid:sticker_id>")
class StickerById(MethodView):
    @blp.requires("messages:read")
    @blp.response(200, schemas.StickerSchema)
    def get(self, org_id, sticker_id):
        """One sticker, with what normalization did"""
        return service.access_sticker(db_session(), actor=current_org_actor(), sticker_id=str(sticker_id))

    @blp.requires("templates:write")
    @blp.response(204)
    def delete(self, org_id, sticker_id):
        """Remove a sticker from the library (messages already sent still show it)"""
        service.do_delete(db_session(), actor=current_org_actor(), sticker_id=str(sticker_id))


@blp.route("/<uuid:sticker_id>/file")
class StickerFile(MethodView):
    @blp.requires("messages:read")
    @blp.doc(responses=file_answer("The sticker: a 512×512 WEBP", (service.MIME_TYPE,)))
    def get(self, org_id, sticker_id):
        """The sticker's WEBP"""
        path = service.file_of(db_session(), actor=current_org_actor(), sticker_id=str(sticker_id))
        return serve_stored_file(path, claimed_type=service.MIME_TYPE, filename=path.name, max_age=86400)
