"""/organizations/{orgId}/messages: sending every type, and what happens to a message after."""

from flask.views import MethodView

from appliance.http.api import Blueprint, takes_upload, uploaded_file
from appliance.http.files import file_answer, serve_stored_file
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.messages import media_files, schemas, search, service, thread
from appliance.messages.sending import rich, sticker_media
from appliance.messages.sending.service import Outgoing, do_send
from appliance.whatsapp_flows import service as flows_service

blp = Blueprint("messages", __name__, url_prefix="/organizations/<uuid:org_id>/messages",
                description="Sending messages; editing, hiding and reacting; media")

# A conversation's messages sit under /conversations in the API (tagged with them), but they are
# this domain's: conversations import nothing of messages.
thread_blp = Blueprint("conversation_messages", __name__, url_prefix="/organizations/<uuid:org_id>/conversations",
                       description="A conversation's messages, media and links; message search", shown_with="conversations")

_ADDRESS = ("phone_number_pk", "to", "reply_to_message_id", "client_id")


def _sent(body: dict, kind: str, payload, **more) -> tuple:
    """Send `payload` of `kind` (`more`: a template's reference, a file of the appliance's own); 201
    for a new message, 200 for a repeated clientId."""
    address = {key: str(body[key]) if body.get(key) is not None else None for key in _ADDRESS}
    message, created = do_send(db_session(), actor=current_org_actor(),
                               outgoing=Outgoing(type=kind, payload=payload, **address, **more))
    return message, 201 if created else 200


@blp.route("")
class Messages(MethodView):
    @blp.requires("messages:send")
    @blp.arguments(schemas.SendMessageSchema)
    @blp.response(201, schemas.ChatMessageSchema)
    @blp.alt_response(200, schema=schemas.ChatMessageSchema, description="A repeated clientId: the first message")
    def post(self, body, org_id):
        """Send a message of any type (stored as pending, then sent by the number's queue); a sticker of the
        library with type sticker and stickerId (404 sticker_not_found)"""
        if body["sticker_id"]:
            return _sent(body, "sticker", None, local_media=sticker_media.reference(
                db_session(), actor=current_org_actor(), sticker_id=str(body["sticker_id"])))
        return _sent(body, body["type"], body["payload"],
                     template_id=str(body["template_id"]) if body["template_id"] else None,
                     template_name=body["template_name"], template_language=body["template_language"],
                     variables=body["variables"])


@blp.route("/product")
class ProductMessages(MethodView):
    @blp.requires("messages:send")
    @blp.arguments(schemas.ProductMessageSchema)
    @blp.response(201, schemas.ChatMessageSchema)
    def post(self, body, org_id):
        """Send one product, a product list, sections of products, or the whole catalog"""
        return _sent(body, "interactive", rich.product(body))


@blp.route("/interactive")
class InteractiveMessages(MethodView):
    @blp.requires("messages:send")
    @blp.arguments(schemas.InteractiveMessageSchema)
    @blp.response(201, schemas.ChatMessageSchema)
    def post(self, body, org_id):
        """Send a list, a link button (cta_url), a location request or a contact request"""
        return _sent(body, "interactive", rich.interactive(body))


@blp.route("/flow")
class FlowMessages(MethodView):
    @blp.requires("messages:send")
    @blp.arguments(schemas.FlowMessageSchema)
    @blp.response(201, schemas.ChatMessageSchema)
    def post(self, body, org_id):
        """Send a registered WhatsApp Flow"""
        flow = flows_service.access_flow(db_session(), actor=current_org_actor(), flow_pk=str(body["flow_id"]))
        return _sent(body, "interactive", rich.flow(body, network_flow_id=flow.flow_id))


@blp.route("/carousel")
class CarouselMessages(MethodView):
    @blp.requires("messages:send")
    @blp.arguments(schemas.CarouselMessageSchema)
    @blp.response(201, schemas.ChatMessageSchema)
    def post(self, body, org_id):
        """Send up to 10 cards, each an image or video with a link button"""
        return _sent(body, "interactive", rich.carousel(body))


@blp.route("/upload")
class Uploads(MethodView):
    @blp.requires("messages:send")
    @blp.arguments(schemas.UploadArgsSchema, location="query")
    @blp.response(201, schemas.UploadedMediaSchema)
    @takes_upload(max_bytes=media_files.MAX_UPLOAD_BYTES, content_types=tuple(media_files.MEDIA_LIMITS),
                  description="A file of a type and size the network takes (images 5 MB, video and audio 16 MB, "
                              "documents 100 MB, stickers 500 KB)")
    def post(self, args, org_id):
        """Upload media to the network; send the answered mediaId as payload.id"""
        return media_files.check_upload(db_session(), actor=current_org_actor(), phone_number_pk=str(args["phone_number_pk"]),
                                        upload=uploaded_file())


@blp.route("/<uuid:message_id>")
class MessageById(MethodView):
    @blp.requires("messages:read")
    @blp.response(200, schemas.ChatMessageSchema)
    def get(self, org_id, message_id):
        """Read one message"""
        return service.access_message(db_session(), actor=current_org_actor(), message_id=str(message_id))

    @blp.requires("messages:send")
    @blp.response(200, schemas.ChatMessageSchema)
    def delete(self, org_id, message_id):
        """Hide a message as a tombstone (here only: the network cannot unsend)"""
        return service.do_set_hidden(db_session(), actor=current_org_actor(), message_id=str(message_id), hidden=True)


@blp.route("/<uuid:message_id>/restore")
class MessageRestore(MethodView):
    @blp.requires("messages:send")
    @blp.response(200, schemas.ChatMessageSchema)
    def post(self, org_id, message_id):
        """Show a hidden message again"""
        return service.do_set_hidden(db_session(), actor=current_org_actor(), message_id=str(message_id), hidden=False)


@blp.route("/<uuid:message_id>/edit")
class MessageEdit(MethodView):
    @blp.requires("messages:send")
    @blp.arguments(schemas.EditMessageSchema)
    @blp.response(200, schemas.ChatMessageSchema)
    def patch(self, body, org_id, message_id):
        """Correct the text of a sent text message (our record: the network cannot edit a delivered message)"""
        return service.do_edit(db_session(), actor=current_org_actor(), message_id=str(message_id), body=body["body"])


@blp.route("/<uuid:message_id>/reactions")
class MessageReactions(MethodView):
    @blp.requires("messages:send")
    @blp.arguments(schemas.ReactionSchema)
    @blp.response(200, schemas.ReactionsSchema)
    def put(self, body, org_id, message_id):
        """Set your reaction (one per person per message; an empty emoji removes it); sent to the customer"""
        return service.do_react(db_session(), actor=current_org_actor(), message_id=str(message_id), emoji=body["emoji"])

    @blp.requires("messages:send")
    @blp.response(200, schemas.ReactionsSchema)
    def delete(self, org_id, message_id):
        """Remove your reaction"""
        return service.do_react(db_session(), actor=current_org_actor(), message_id=str(message_id), emoji="")


@blp.route("/<uuid:message_id>/media")
class MessageMedia(MethodView):
    @blp.requires("messages:read")
    @blp.doc(responses=file_answer("The file: raster images inline with their type; audio and video with theirs; "
                                   "anything else as an attachment (application/octet-stream unless a harmless "
                                   "document type)"))
    def get(self, org_id, message_id):
        """The message's media: from the local copy, else fetched from the network"""
        media = media_files.open_media(actor=current_org_actor(), message_id=str(message_id))
        return serve_stored_file(media.path, claimed_type=media.mime_type, filename=media.filename)


@thread_blp.route("/search")
class Search(MethodView):
    @thread_blp.requires("messages:read")
    @thread_blp.arguments(schemas.SearchArgsSchema, location="query")
    @thread_blp.response(200, schemas.SearchPageSchema)
    def get(self, args, org_id):
        """Search message content, newest first (accents and case ignored; the last word may be cut short)"""
        filters = search.SearchFilter(q=args["q"], since=args.get("from_"), until=args.get("to"),
                                      direction=args.get("direction"), has_attachment=args.get("has_attachment"),
                                      sent_by_me=args["sent_by_me"], conversation_id=args.get("conversation_id"))
        return search.search_messages(db_session(), actor=current_org_actor(), filters=filters, take=args["limit"],
                                      cursor=args["before"])


@thread_blp.route("/<uuid:conversation_id>/messages")
class ConversationMessages(MethodView):
    @thread_blp.requires("messages:read")
    @thread_blp.arguments(schemas.ThreadArgsSchema, location="query")
    @thread_blp.response(200, schemas.ThreadPageSchema)
    def get(self, args, org_id, conversation_id):
        """A conversation's messages, newest first (`before` pages back; `around` centres on one message)"""
        return thread.list_messages(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id),
                                    take=args["limit"], cursor=args["before"], around=args["around"])


@thread_blp.route("/<uuid:conversation_id>/media")
class ConversationMedia(MethodView):
    @thread_blp.requires("messages:read")
    @thread_blp.arguments(schemas.MediaArgsSchema, location="query")
    @thread_blp.response(200, schemas.SearchPageSchema)
    def get(self, args, org_id, conversation_id):
        """Media messages, newest first, of one category (image, video, audio, doc) or all"""
        return thread.list_media(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id),
                                 category=args["category"], take=args["limit"], cursor=args["before"])


@thread_blp.route("/<uuid:conversation_id>/media/counts")
class ConversationMediaCounts(MethodView):
    @thread_blp.requires("messages:read")
    @thread_blp.response(200, schemas.MediaCountsSchema)
    def get(self, org_id, conversation_id):
        """How many media messages of each category, and links"""
        return thread.media_counts(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id))


@thread_blp.route("/<uuid:conversation_id>/links")
class ConversationLinks(MethodView):
    @thread_blp.requires("messages:read")
    @thread_blp.arguments(schemas.LinkArgsSchema, location="query")
    @thread_blp.response(200, schemas.LinkPageSchema)
    def get(self, args, org_id, conversation_id):
        """Web addresses written in the conversation, newest first"""
        return thread.list_links(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id),
                                 take=args["limit"], cursor=args["before"])
