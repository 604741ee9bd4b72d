"""/organizations/{orgId}/conversations: the two reads that show what came in (the inbox adds the rest)."""

from flask.views import MethodView

from appliance.conversations import schemas, service
from appliance.core.schema import PageArgsSchema
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.messages import service as messages_service
from appliance.messages.schemas import ChatMessagePageSchema

blp = Blueprint("conversations", __name__, url_prefix="/organizations/<uuid:org_id>/conversations",
                description="Conversations and their messages")


@blp.route("")
class Conversations(MethodView):
    @blp.requires("conversations:read")
    @blp.arguments(PageArgsSchema, location="query")
    @blp.response(200, schemas.ConversationPageSchema)
    def get(self, args, org_id):
        """List conversations, newest activity first (cursor-paginated)"""
        return service.list_conversations(db_session(), actor=current_org_actor(), **args)


@blp.route("/<uuid:conversation_id>/messages")
class ConversationMessages(MethodView):
    @blp.requires("messages:read")
    @blp.arguments(schemas.ChatMessageArgsSchema, location="query")
    @blp.response(200, ChatMessagePageSchema)
    def get(self, args, org_id, conversation_id):
        """A conversation's messages, newest first (`before` pages back)"""
        return messages_service.list_messages(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id),
                                              take=args["limit"], cursor=args["before"])
