"""/organizations/{orgId}/conversations: the inbox. Listing, one conversation, what people change
on it, reports and the inbox settings. A conversation's messages, media, links and the message
search are the messages domain's (messages/api.py, `thread_blp`)."""

from flask.views import MethodView

from appliance.conversations import inbox, inbox_settings, reports, schemas, service
from appliance.conversations.inbox import InboxFilter
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("conversations", __name__, url_prefix="/organizations/<uuid:org_id>/conversations",
                description="The inbox: conversations, their messages, and what the team does with them")


@blp.route("")
class Conversations(MethodView):
    @blp.requires("conversations:read")
    @blp.arguments(schemas.ConversationListArgsSchema, location="query")
    @blp.response(200, schemas.ConversationPageSchema)
    def get(self, args, org_id):
        """List conversations: pinned first, then the latest activity (cursor-paginated)"""
        take, cursor = args.pop("take"), args.pop("cursor")
        filters = InboxFilter(status=args.get("status"), phone_number_pk=args.get("phone_number_pk"),
                              assignee=args.get("assignee_user_id"), tag_id=args.get("tag_id"),
                              unread_only=args["unread_only"], handoff_pending=args.get("handoff_pending"),
                              search=args.get("search"), resolution=args.get("resolution_outcome"))
        return inbox.list_conversations(db_session(), actor=current_org_actor(), filters=filters, take=take, cursor=cursor)


def _settings_route(path: str, group: str, schema, read_permission: str, title: str):
    """GET and PATCH of one group of inbox settings (all three share the shape)."""
    class Settings(MethodView):
        @blp.requires(read_permission)
        @blp.response(200, schema)
        def get(self, org_id):
            return inbox_settings.read_settings(db_session(), current_org_actor().organization_id, group)

        @blp.requires("organizations:write")
        @blp.arguments(schema)
        @blp.response(200, schema)
        def patch(self, body, org_id):
            return inbox_settings.do_update(db_session(), actor=current_org_actor(), group=group, changes=body)

    Settings.get.__doc__, Settings.patch.__doc__ = f"Read the {title}", f"Change some of the {title}"
    Settings.__name__ = f"{group.title()}Settings"
    blp.route(path)(Settings)


_settings_route("/messaging-settings", "messaging", schemas.MessagingSettingsSchema, "conversations:read",
                "messaging settings (read receipts, typing indicator, inbox tabs)")
_settings_route("/workload/settings", "workload", schemas.WorkloadSettingsSchema, "reports:read",
                "workload panel's thresholds (SLA, staleness)")
_settings_route("/notification-settings", "notifications", schemas.NotificationSettingsSchema, "conversations:read",
                "e-mail notifications of customers left waiting")


@blp.route("/workload")
class Workload(MethodView):
    @blp.requires("reports:read")
    @blp.response(200, schemas.WorkloadSchema)
    def get(self, org_id):
        """Each agent's open load (waiting, past the SLA, stale) and recent performance"""
        return reports.workload(db_session(), actor=current_org_actor())


@blp.route("/workload/agent/<uuid:user_id>")
class WorkloadAgent(MethodView):
    @blp.requires("reports:read")
    @blp.arguments(schemas.AgentDetailArgsSchema, location="query")
    @blp.response(200, schemas.AgentDetailSchema)
    def get(self, args, org_id, user_id):
        """One agent: open load and a day-by-day series (`days`, or `from` and `to` dates)"""
        return reports.agent_detail(db_session(), actor=current_org_actor(), user_id=str(user_id),
                                    days=args.get("days"), since=args.get("from_"), until=args.get("to"))


@blp.route("/activity-trends")
class ActivityTrends(MethodView):
    @blp.requires("reports:read")
    @blp.arguments(schemas.TrendArgsSchema, location="query")
    @blp.response(200, schemas.TrendDaySchema(many=True))
    def get(self, args, org_id):
        """Daily conversations in and closed over the last `days`"""
        return reports.activity_trends(db_session(), actor=current_org_actor(), days=args["days"])


@blp.route("/activity-heatmap")
class ActivityHeatmap(MethodView):
    @blp.requires("reports:read")
    @blp.arguments(schemas.HeatmapArgsSchema, location="query")
    @blp.response(200, schemas.HeatmapSchema)
    def get(self, args, org_id):
        """Weekday by hour: customer messages, late answers or average response time"""
        return reports.activity_heatmap(db_session(), actor=current_org_actor(), days=args["days"], metric=args["metric"])


@blp.route("/unread-counts")
class UnreadCounts(MethodView):
    @blp.requires("conversations:read")
    @blp.arguments(schemas.UnreadCountsArgsSchema, location="query")
    @blp.response(200, schemas.UnreadCountsSchema)
    def get(self, args, org_id):
        """Unread conversations by status, and the caller's own and the unassigned among the open"""
        return inbox.unread_counts(db_session(), actor=current_org_actor(), phone_number_pk=args.get("phone_number_pk"))


@blp.route("/<uuid:conversation_id>")
class ConversationById(MethodView):
    @blp.requires("conversations:read")
    @blp.response(200, schemas.ConversationSchema)
    def get(self, org_id, conversation_id):
        """Read a conversation, with its contact and tags"""
        return inbox.view_conversation(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id))


def _detail(conversation):
    return inbox.with_details(db_session(), [conversation])[0]


@blp.route("/<uuid:conversation_id>/status")
class ConversationStatus(MethodView):
    @blp.requires("conversations:write")
    @blp.arguments(schemas.StatusChangeSchema)
    @blp.response(200, schemas.ConversationSchema)
    def patch(self, body, org_id, conversation_id):
        """Open, snooze (until `snoozedUntil`) or close (with `category` and `resolution`)"""
        return _detail(service.do_set_status(db_session(), actor=current_org_actor(),
                                           conversation_id=str(conversation_id), **body))


@blp.route("/<uuid:conversation_id>/categorize")
class ConversationCategorize(MethodView):
    @blp.requires("conversations:write")
    @blp.arguments(schemas.CategorizeSchema)
    @blp.response(200, schemas.ConversationSchema)
    def patch(self, body, org_id, conversation_id):
        """Set category and resolution without changing the status (null clears one)"""
        return _detail(service.do_categorize(db_session(), actor=current_org_actor(),
                                           conversation_id=str(conversation_id), **body))


def _toggle_route(path: str, doc: str, change):
    """A POST without a body that changes one flag and answers the conversation."""
    class Toggle(MethodView):
        @blp.requires("conversations:write")
        @blp.response(200, schemas.ConversationSchema)
        def post(self, org_id, conversation_id):
            return _detail(change(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id)))

    Toggle.post.__doc__ = doc
    Toggle.__name__ = "Conversation" + "".join(part.title() for part in path.strip("/").split("/")[-1].split("-"))
    blp.route(f"/<uuid:conversation_id>{path}")(Toggle)
    return Toggle


# Named, as the other routes are: the inbox's buttons name the operation they perform.
ConversationRead = _toggle_route("/read", "Mark read", lambda s, **kw: service.do_set_read(s, read=True, **kw))
ConversationUnread = _toggle_route("/unread", "Mark unread", lambda s, **kw: service.do_set_read(s, read=False, **kw))
ConversationPin = _toggle_route("/pin", "Pin to the top of the list",
                                lambda s, **kw: service.do_set_pinned(s, pinned=True, **kw))
ConversationUnpin = _toggle_route("/unpin", "Unpin", lambda s, **kw: service.do_set_pinned(s, pinned=False, **kw))
ConversationDevolverAlBot = _toggle_route("/devolver-al-bot", "Return to the bot after a hand-off, keeping the context",
                                          service.do_return_to_bot)


@blp.route("/<uuid:conversation_id>/request-handoff")
class ConversationHandoff(MethodView):
    @blp.requires("conversations:write")
    @blp.arguments(schemas.HandoffSchema)
    @blp.response(201, schemas.ConversationSchema)
    def post(self, body, org_id, conversation_id):
        """Ask for a person: automation falls silent, the team is told (conversation.handoff_requested)"""
        return _detail(service.do_request_handoff(db_session(), actor=current_org_actor(),
                                                conversation_id=str(conversation_id), **body))


@blp.route("/<uuid:conversation_id>/assignee")
class ConversationAssignee(MethodView):
    @blp.requires("conversations:write")
    @blp.arguments(schemas.AssigneeSchema)
    @blp.response(200, schemas.ConversationSchema)
    def patch(self, body, org_id, conversation_id):
        """Assign to a member, or release with null (conversation.assignment_changed)"""
        return _detail(service.do_assign(db_session(), actor=current_org_actor(),
                                       conversation_id=str(conversation_id), user_id=body["user_id"]))


@blp.route("/<uuid:conversation_id>/tags")
class ConversationTags(MethodView):
    @blp.requires("conversations:write")
    @blp.arguments(schemas.TagRefSchema)
    @blp.response(200, schemas.ConversationSchema)
    def post(self, body, org_id, conversation_id):
        """Put a tag on the conversation (again: no change)"""
        return _detail(service.do_add_tag(db_session(), actor=current_org_actor(),
                                        conversation_id=str(conversation_id), tag_id=body["tag_id"]))


@blp.route("/<uuid:conversation_id>/tags/<uuid:tag_id>")
class ConversationTagById(MethodView):
    @blp.requires("conversations:write")
    @blp.response(200, schemas.ConversationSchema)
    def delete(self, org_id, conversation_id, tag_id):
        """Take a tag off the conversation"""
        return _detail(service.do_remove_tag(db_session(), actor=current_org_actor(),
                                           conversation_id=str(conversation_id), tag_id=str(tag_id)))


@blp.route("/<uuid:conversation_id>/notes")
class ConversationNotes(MethodView):
    @blp.requires("conversations:read")
    @blp.response(200, schemas.NoteSchema(many=True))
    def get(self, org_id, conversation_id):
        """Internal notes, oldest first (never sent to the customer)"""
        return service.list_notes(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id))

    @blp.requires("conversations:write")
    @blp.arguments(schemas.NoteCreateSchema)
    @blp.response(201, schemas.NoteSchema)
    def post(self, body, org_id, conversation_id):
        """Add an internal note for the team"""
        return service.do_add_note(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id), **body)
