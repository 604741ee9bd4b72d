"""The browser inbox at /inbox: server-rendered pages, made live by htmx (vendored, no CDN) and an
EventSource on /inbox/{org}/events. Every form also works without JavaScript: it posts, and the
answer sends the browser back to the conversation.

Pages call the same services as the REST API, with the signed-in person's standing in the
organization (permissions, business-account scope) as the actor."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, request, url_for

from appliance.attendance import closing as attendance_activity, sessions as attendance_sessions
from appliance.attendance import api as attendance_api
from appliance.attendance.models import STATUSES
from appliance.catalog import service as catalog_service
from appliance.contacts import service as contacts_service
from appliance.console.navigation import navigation
from appliance.console.texts import TEXTS as CONSOLE_TEXTS
from appliance.conversations import api as conversations_api, inbox
from appliance.conversations import service as conversations_service
from appliance.core import clock
from appliance.core.errors import AppError, Invalid
from appliance.core.events import LIVE as LIVE_EVENTS
from appliance.http.api import public, takes_upload, uploaded_file, writes_on_get
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.files import serve_stored_file
from appliance.http.operations import page_permission, performs, permission_of
from appliance.http.pages import page_language, render_page
from appliance.http.unit_of_work import db_session
from appliance.inbox import view
from appliance.inbox.texts import TEXTS
from appliance.live import api as live_api
from appliance.live.api import event_stream_response
from appliance.memberships import service as memberships_service
from appliance.messages import api as messages_api, media_files
from appliance.messages import service as messages_service
from appliance.messages import tasks as messages_tasks
from appliance.messages.sending import rich, sticker_media
from appliance.messages.sending.service import Outgoing, do_send
from appliance.organizations import service as organizations_service
from appliance.organizations.zones import zone_of
from appliance.push import service as push_service
from appliance.tags import service as tags_service
from appliance.quick_replies import service as quick_replies_service
from appliance.shift_reminders import api as shift_reminders_api, service as reminders_service

inbox_pages = Blueprint("inbox_pages", __name__, url_prefix="/inbox")


def _actor(org_id, *, active: bool = True):
    """The signed-in person in the organization, with the permission of the API operation the page
    performs (`@performs`); `active` notes the request as a sign of being at work (attendance's
    auto-close), which the live stream, open all day, is not."""
    actor = memberships_service.access_organization(db_session(), actor=browser_actor(), organization_id=str(org_id),
                                                    permission=page_permission())
    # Suspended: the inbox reads while the suspension is for payment; it sends nothing (403).
    organizations_service.check_active(db_session(), organization_id=actor.organization_id, while_suspended=False,
                                       reading=request.method in ("GET", "HEAD"))
    if active:
        attendance_activity.seen(actor.organization_id, actor.user_id)
    return actor


def _render(template: str, /, **context) -> str:
    """`template` is positional only: a page's context may carry a `template` of its own (a message
    template, in the composer's fields)."""
    current = context.get("current")
    if current is not None and "action" not in context:  # the conversation's buttons post here
        context["action"] = url_for("inbox_pages.act", org_id=context["org_id"],
                                    conversation_id=current.conversation.id, action="ACTION")
    if context.get("org_id"):  # times on the organization's clock (the `org_time` filter, and the script's)
        context["zone"] = zone_of(db_session(), context["org_id"])
    html, _ = render_page(template, TEXTS, view=view, clock=clock, **context)
    return html


def _is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


@inbox_pages.get("")
@signed_in_page
def start():
    organizations = organizations_service.list_my_organizations(db_session(), actor=browser_actor(), active_only=True)
    if not organizations:
        return _render("inbox/no_org.html")
    chosen = next((o for o in organizations if o.id == request.args.get("org")), organizations[0])  # the switcher
    return redirect(url_for("inbox_pages.page", org_id=chosen.id))


@inbox_pages.get("/<uuid:org_id>")
@performs(conversations_api.Conversations.get)
@signed_in_page
def page(org_id):
    return _page(org_id, None)


@inbox_pages.get("/<uuid:org_id>/c/<uuid:conversation_id>")
@performs(conversations_api.ConversationById.get)
@signed_in_page
@writes_on_get
def conversation_page(org_id, conversation_id):
    """Opening a conversation reads it, as in every mail client (a GET that writes the read mark)."""
    actor = _actor(org_id)
    if actor.can(permission_of(conversations_api.ConversationRead.post)):
        conversations_service.do_mark_opened(db_session(), actor=actor, conversation_id=str(conversation_id))
    return _page(org_id, str(conversation_id))


def _page(org_id, conversation_id: str | None):
    actor = _actor(org_id)
    query = view.ListQuery.parse(request.args)
    current = view.conversation_view(db_session(), actor, conversation_id) if conversation_id else None
    return _render("inbox/page.html", org_id=str(org_id), actor=actor, query=query, current=current,
                   live_events=LIVE_EVENTS, vapid_key=push_service.config(db_session())["vapid_public_key"],
                   shift=view.shift_view(db_session(), actor), shift_error=request.args.get("shift_error"),
                   page=view.conversation_list(db_session(), actor, query), side=view.sidebar(db_session(), actor),
                   nav=navigation(actor, str(org_id), "inbox_pages.page"), nav_words=CONSOLE_TEXTS[page_language()],
                   organizations=organizations_service.list_my_organizations(db_session(), actor=browser_actor(),
                                                                             active_only=True))


@inbox_pages.get("/<uuid:org_id>/list")
@performs(conversations_api.Conversations.get)
@signed_in_page
def conversation_list(org_id):
    actor = _actor(org_id)
    query = view.ListQuery.parse(request.args)
    if request.args.get("rows"):  # the next page's rows only (the list's "more")
        return _render("inbox/_rows.html", org_id=str(org_id), actor=actor, query=query,
                       page=view.conversation_list(db_session(), actor, query), selected=request.args.get("selected"))
    return _render("inbox/_list.html", org_id=str(org_id), actor=actor, query=query,
                   page=view.conversation_list(db_session(), actor, query), side=view.sidebar(db_session(), actor),
                   nav=navigation(actor, str(org_id), "inbox_pages.page"), nav_words=CONSOLE_TEXTS[page_language()],
                   selected=request.args.get("selected"))


@inbox_pages.get("/<uuid:org_id>/c/<uuid:conversation_id>/part")
@performs(conversations_api.ConversationById.get)
@signed_in_page
def conversation_part(org_id, conversation_id):
    actor = _actor(org_id)
    return _render("inbox/_conversation.html", org_id=str(org_id), actor=actor,
                   current=view.conversation_view(db_session(), actor, str(conversation_id)))


@inbox_pages.get("/<uuid:org_id>/c/<uuid:conversation_id>/older")
@performs(conversations_api.ConversationById.get)  # the thread as the conversation's page shows it
@signed_in_page
def older(org_id, conversation_id):
    """The thread's previous page (the "older messages" link at its top)."""
    actor = _actor(org_id)
    before = (request.args.get("before") or "")[:500] or None
    return _render("inbox/_older.html", org_id=str(org_id), actor=actor, conversation_id=str(conversation_id),
                   current=view.thread_page(db_session(), actor, str(conversation_id), cursor=before),
                   action=url_for("inbox_pages.act", org_id=org_id, conversation_id=conversation_id, action="ACTION"))


@inbox_pages.get("/<uuid:org_id>/c/<uuid:conversation_id>/template-fields")
@performs(conversations_api.ConversationById.get)  # the composer's fields, a part of the conversation's page
@signed_in_page
def template_fields(org_id, conversation_id):
    actor = _actor(org_id)
    current = view.conversation_view(db_session(), actor, str(conversation_id))
    chosen = next((t for t in current.templates if t.id == request.args.get("template_id")), None)
    return _render("inbox/_template_fields.html", template=chosen,
                   fields=view.template_fields(chosen) if chosen else None)


@inbox_pages.post("/<uuid:org_id>/c/<uuid:conversation_id>/typing")
@performs(messages_api.Messages.post)  # the start of a reply
@signed_in_page
def typing(org_id, conversation_id):
    """The agent started writing: the customer sees "typing…" if the settings allow it."""
    actor = _actor(org_id)
    inbox.access_conversation(db_session(), actor=actor, conversation_id=str(conversation_id))  # 404 outside reach
    messages_tasks.send_read_mark(str(conversation_id), True)
    return "", 204


@inbox_pages.get("/<uuid:org_id>/events")
@performs(live_api.Events.get)
@signed_in_page
def events(org_id):
    return event_stream_response(_actor(org_id, active=False), request.headers.get("Last-Event-ID"))


@inbox_pages.get("/<uuid:org_id>/media/<uuid:message_id>")
@performs(messages_api.MessageMedia.get)
@signed_in_page
def media(org_id, message_id):
    found = media_files.open_media(actor=_actor(org_id), message_id=str(message_id))
    return serve_stored_file(found.path, claimed_type=found.mime_type, filename=found.filename)


def _field(name: str, max_length: int = 4000) -> str | None:
    value = (request.form.get(name) or "").strip()
    return value[:max_length] or None


def _message_id() -> str:
    return _field("message_id", 40) or ""


def _send(actor, conversation, **outgoing):
    number_id, to = conversation.phone_number_pk, contacts_service.address(conversation.contact)
    do_send(db_session(), actor=actor, outgoing=Outgoing(phone_number_pk=number_id, to=to, **outgoing))


def _reply(actor, conversation):
    upload = uploaded_file(required=False)
    body = quick_replies_service.expand(db_session(), actor=actor, text=_field("body"))
    if upload is not None:
        uploaded = media_files.check_upload(db_session(), actor=actor, phone_number_pk=conversation.phone_number_pk,
                                            upload=upload)
        kind, payload = media_files.as_message(uploaded, mime_type=uploaded.mime_type,
                                               filename=upload.filename or "file", caption=body)
        _send(actor, conversation, type=kind, payload=payload)
    elif body:
        _send(actor, conversation, type="text", payload={"body": body})
    else:
        raise Invalid("Write a message or attach a file.", errors={"body": ["Empty."]})


def _template(actor, conversation):
    template_id = _field("template_id", 40)
    if not template_id:
        raise Invalid("Choose a template.", errors={"templateId": ["Required."]})
    body = [value.strip() for value in request.form.getlist("var")]
    header = [value.strip() for value in request.form.getlist("header")]
    names = request.form.getlist("var_name")
    variables: dict = {"body": dict(zip(names, body)) if names else body}
    if header:
        variables["header"] = {"type": "text", "text": header[0]}
    _send(actor, conversation, type="template", template_id=template_id, variables=variables)


def _product(actor, conversation):
    """The product picker: the whole catalog, one product, or a list of the ones ticked (at most 30)."""
    offered = {p.retailer_id: p for p in catalog_service.in_meta_catalog(db_session(), actor.organization_id)}
    chosen = [offered[r] for r in request.form.getlist("product")[:31] if r in offered]
    words = TEXTS[page_language()]
    body = _field("product_text", 1024)
    if request.form.get("whole") or not chosen:
        if not offered:
            raise Invalid("No product is in Meta's catalog yet: push the catalog first.", errors={"product": ["None."]})
        args = {"catalog_message": True, "body_text": body or str(words["catalog_body"])}
    elif len(chosen) == 1:
        args = {"product_retailer_id": chosen[0].retailer_id, **({"body_text": body} if body else {})}
    else:
        args = {"products": [p.retailer_id for p in chosen], "header_text": str(words["products_header"]),
                "body_text": body or str(words["products_body"])}
    catalog_id = (chosen[0] if chosen else next(iter(offered.values()))).meta_catalog_id
    _send(actor, conversation, type="interactive", payload=rich.product({"catalog_id": catalog_id, **args}))


def _sticker(actor, conversation):
    """The sticker picker: one of the library's stickers, sent as a sticker."""
    sticker_id = _field("sticker_id", 40)
    if not sticker_id:
        raise Invalid("Choose a sticker.", errors={"stickerId": ["Required."]})
    _send(actor, conversation, type="sticker",
          local_media=sticker_media.reference(db_session(), actor=actor, sticker_id=sticker_id))


def _retry(actor, conversation):
    messages_service.check_send_again(db_session(), actor=actor, conversation_id=conversation.id,
                                      phone_number_pk=conversation.phone_number_pk, to=conversation.contact.wa_id,
                                      message_id=_message_id())


def _tag(actor, conversation):
    tag_id = _field("tag_id", 40)
    name = _field("tag_name", 60)
    if not tag_id and name:
        tag_id = tags_service.find_or_create(db_session(), actor=actor, name=name).id
    if not tag_id:
        raise Invalid("Choose or name a tag.", errors={"tag": ["Required."]})
    conversations_service.do_add_tag(db_session(), actor=actor, conversation_id=conversation.id, tag_id=tag_id)


# What each button of the conversation does: (the API operation it performs, whose permission it
# needs; the action).
ACTIONS = {
    "reply": (messages_api.Messages.post, _reply),
    "template": (messages_api.Messages.post, _template),
    "product": (messages_api.ProductMessages.post, _product),
    "sticker": (messages_api.Messages.post, _sticker),
    "retry": (messages_api.Messages.post, _retry),  # sending a failed message again
    "react": (messages_api.MessageReactions.put, lambda a, c: messages_service.do_react(db_session(), actor=a, message_id=_message_id(),
                                                               emoji=request.form.get("emoji", "")[:32])),
    "hide": (messages_api.MessageById.delete, lambda a, c: messages_service.do_set_hidden(db_session(), actor=a, message_id=_message_id(),
                                                                   hidden=True)),
    "restore": (messages_api.MessageRestore.post, lambda a, c: messages_service.do_set_hidden(db_session(), actor=a,
                                                                      message_id=_message_id(), hidden=False)),
    "note": (conversations_api.ConversationNotes.post, lambda a, c: conversations_service.do_add_note(db_session(), actor=a, conversation_id=c.id,
                                                                   body=_field("body") or "")),
    "assign": (conversations_api.ConversationAssignee.patch, lambda a, c: conversations_service.do_assign(db_session(), actor=a, conversation_id=c.id,
                                                                   user_id=_field("user_id", 40))),
    "assign_me": (conversations_api.ConversationAssignee.patch, lambda a, c: conversations_service.do_assign(db_session(), actor=a, conversation_id=c.id,
                                                                      user_id=a.user_id)),
    "close": (conversations_api.ConversationStatus.patch, lambda a, c: conversations_service.do_set_status(
        db_session(), actor=a, conversation_id=c.id, status="closed", category=_field("category", 100),
        resolution=_field("resolution", 100))),
    "reopen": (conversations_api.ConversationStatus.patch, lambda a, c: conversations_service.do_set_status(db_session(), actor=a, conversation_id=c.id,
                                                                       status="open")),
    "snooze": (conversations_api.ConversationStatus.patch, lambda a, c: conversations_service.do_set_status(
        db_session(), actor=a, conversation_id=c.id, status="snoozed", snoozed_until=conversations_service.snooze_until(request.form.get("until", ""), clock.now(),
                                                          zone_of(db_session(), a.organization_id)))),
    "tag": (conversations_api.ConversationTags.post, _tag),
    "untag": (conversations_api.ConversationTagById.delete, lambda a, c: conversations_service.do_remove_tag(db_session(), actor=a, conversation_id=c.id,
                                                                      tag_id=_field("tag_id", 40) or "")),
    "pin": (conversations_api.ConversationPin.post, lambda a, c: conversations_service.do_set_pinned(db_session(), actor=a, conversation_id=c.id, pinned=True)),
    "unpin": (conversations_api.ConversationUnpin.post, lambda a, c: conversations_service.do_set_pinned(db_session(), actor=a, conversation_id=c.id, pinned=False)),
    "unread": (conversations_api.ConversationUnread.post, lambda a, c: conversations_service.do_set_read(db_session(), actor=a, conversation_id=c.id, read=False)),
    "return_to_bot": (conversations_api.ConversationDevolverAlBot.post, lambda a, c: conversations_service.do_return_to_bot(db_session(), actor=a, conversation_id=c.id)),
}


@inbox_pages.post("/<uuid:org_id>/c/<uuid:conversation_id>/do/<action>")
@performs({name: operation for name, (operation, _) in ACTIONS.items()}, chosen_by="action")
@takes_upload(max_bytes=media_files.MAX_UPLOAD_BYTES, content_types=())  # a reply may attach a file
@signed_in_page
def act(org_id, conversation_id, action):
    if action not in ACTIONS:
        abort(404)
    _, run = ACTIONS[action]
    actor = _actor(org_id)
    conversation = inbox.view_conversation(db_session(), actor=actor, conversation_id=str(conversation_id))
    try:
        run(actor, conversation)
    except AppError as error:
        if not _is_htmx():
            raise
        db_session().rollback()
        return _render("inbox/_conversation.html", org_id=str(org_id), actor=actor, error=error.detail,
                       current=view.conversation_view(db_session(), actor, str(conversation_id))), error.status
    if not _is_htmx():
        # back to the conversation the agent acted on (not the list), as the page was
        return redirect(url_for("inbox_pages.conversation_page", org_id=org_id, conversation_id=conversation_id),
                        code=303)
    db_session().flush()
    return _render("inbox/_conversation.html", org_id=str(org_id), actor=actor,
                   current=view.conversation_view(db_session(), actor, str(conversation_id)))


# The shift control in the header (attendance): forms that post and come back ----------------------

def _back_to_inbox(org_id, error: AppError | None = None):
    conversation_id = request.form.get("conversation", "")
    args = {"shift_error": error.code} if error is not None else {}
    if conversation_id and len(conversation_id) == 36:
        return redirect(url_for("inbox_pages.conversation_page", org_id=org_id, conversation_id=conversation_id, **args),
                        code=303)
    return redirect(url_for("inbox_pages.page", org_id=org_id, **args), code=303)


def _shift(org_id, act):
    actor = _actor(org_id)
    try:
        act(actor)
    except AppError as error:
        db_session().rollback()
        return _back_to_inbox(org_id, error)
    return _back_to_inbox(org_id)


@inbox_pages.post("/<uuid:org_id>/shift/start")
@performs(attendance_api.Start.post)
@signed_in_page
def shift_start(org_id):
    return _shift(org_id, lambda actor: attendance_sessions.do_start(db_session(), actor=actor))


@inbox_pages.post("/<uuid:org_id>/shift/status")
@performs(attendance_api.Status.post)
@signed_in_page
def shift_status(org_id):
    status = request.form.get("status", "")

    def change(actor):
        if status not in STATUSES:
            raise Invalid("Pick a status of the list.", code="validation_failed")
        attendance_sessions.do_set_status(db_session(), actor=actor, status=status)
    return _shift(org_id, change)


@inbox_pages.post("/<uuid:org_id>/shift/end")
@performs(attendance_api.End.post)
@signed_in_page
def shift_end(org_id):
    note = (request.form.get("note") or "").strip()[:2000] or None
    return _shift(org_id, lambda actor: attendance_sessions.do_end(db_session(), actor=actor, note=note))


@inbox_pages.post("/<uuid:org_id>/shift/dismiss")
@performs(shift_reminders_api.Reminders.get)  # putting away a reminder one was shown
@signed_in_page
def shift_dismiss(org_id):
    return _shift(org_id, lambda actor: reminders_service.do_dismiss(db_session(), actor.organization_id, actor.user_id))


# Notifications: the switch in the header subscribes this browser (Web Push) -----------------------

@inbox_pages.get("/sw.js")
@public  # the browser fetches its updates whether or not a session is open
def service_worker():
    """The inbox's service worker, served from /inbox/ so that the inbox is its scope."""
    response = current_app.send_static_file("push-sw.js")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Type"] = "text/javascript; charset=utf-8"
    return response


@inbox_pages.post("/push/subscribe")
@signed_in_page
def push_subscribe():
    """The switch turned on: this browser's subscription kept for the signed-in person (204)."""
    push_service.do_subscribe(db_session(), actor=browser_actor(), endpoint=request.form.get("endpoint", "")[:2000],
                              p256dh=request.form.get("p256dh", "")[:200], auth=request.form.get("auth", "")[:100],
                              user_agent=(request.user_agent.string or "")[:300] or None)
    return "", 204


@inbox_pages.post("/push/unsubscribe")
@signed_in_page
def push_unsubscribe():
    push_service.do_unsubscribe(db_session(), actor=browser_actor(), endpoint=request.form.get("endpoint", "")[:2000])
    return "", 204
