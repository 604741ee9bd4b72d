"""The website's side of the web chat: Socket.IO on the namespace /wc (python-socketio, long-polling
under waitress: no async server, no WebSocket upgrade, so it runs wherever the appliance runs),
mounted before Flask at /socket.io/.

Who may connect: a page of an origin the widget allows (the Origin header, at the CORS check of
every request and again at the namespace's connect, with the widget's website token in the query
string), or a page of the appliance itself (the console's preview). A widget that enforces identity
refuses visitors without the website's HMAC of their identifier. Refusals are logged and answered
with `connect_error` `{code, message}`.

Events, visitor to server (each answers through the ack): `hello` (once connected: the greeting, the
form, whether it is open, the history), `begin` (the pre-chat form), `message`
(`{clientId, text}` or `{clientId, reply: {id, title}}`), `mark` (`{ids, status}`: delivered or
read). Server to visitor: `message` for each new message of their conversation (relay.py), whoever
wrote it.

Each connected visitor holds one of the server's threads while its poll waits, so visitors are
capped (APPLIANCE_WEBCHAT_VISITORS, added to the server's threads by server.py). Several web
processes behind a proxy need sticky sessions for /socket.io/ (every Socket.IO server does): a
visitor's polls must reach the process holding their session; answers reach them from any process
(the relay reads the shared outbox)."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from appliance.core import clock, runtime, throttle
from appliance.core.errors import AppError, TooMany
from appliance.core.rows import read_row
from appliance.organizations import hours
from appliance.organizations.models import Organization
from appliance.webchat import service as widgets, visitors
from appliance.webchat.intake import Intake
from appliance.webchat.models import WebchatVisitor, WebchatWidget

log = logging.getLogger("appliance.webchat")
NAMESPACE = "/wc"
TO_VISITOR = "message"  # the Socket.IO event of a new message for the visitor (not an outbox event)
PATH = "socket.io"
WIDGET_CACHE_SECONDS = 5.0
MESSAGES_PER_MINUTE = 20  # per visitor: a person types; a script does not get to fill the inbox
CONNECTS_PER_MINUTE = 240  # per address: an office behind one NAT opens many; a script opening more is not a visitor


def _quiet_engine() -> logging.Logger:
    """Engine.IO logs a refused origin as an error; the gateway logs its refusals itself, at info
    (a stranger's page knocking is not the operator's problem)."""
    engine = logging.getLogger("appliance.webchat.engine")
    engine.setLevel(logging.CRITICAL)
    return engine


@dataclass
class Attached:
    """A connected visitor (a browser tab)."""
    widget_id: str
    organization_id: str
    visitor_id: str | None = None
    conversation_id: str | None = None


def _refusal(error: AppError) -> dict:
    """What an ack answers for a refusal: the problem's code, sentence and fields."""
    return {"error": {"code": error.code, "message": str(error), "errors": getattr(error, "errors", None) or {}}}


class _Pace:
    """At most `limit` uses a key in `seconds`, counted in this process (a visitor's messages go
    through the process holding their socket): no database write per message for it."""

    def __init__(self, limit: int, seconds: float):
        self.limit, self.seconds = limit, seconds
        self._uses: dict[str, deque] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        now = time.monotonic()
        with self._lock:
            uses = self._uses.setdefault(key, deque())
            while uses and now - uses[0] > self.seconds:
                uses.popleft()
            if len(uses) >= self.limit:
                return False
            uses.append(now)
            if len(self._uses) > 10_000:  # forget visitors long quiet
                for stale in [k for k, v in self._uses.items() if not v or now - v[-1] > self.seconds]:
                    del self._uses[stale]
            return True


class Gateway:
    def __init__(self, limit: int):
        import socketio  # only where the server answers (not the CLI's commands)
        self.limit = limit
        self.sio = socketio.Server(async_mode="threading", transports=["polling"], allow_upgrades=False,
                                   cors_allowed_origins=self._allowed,
                                   cors_credentials=False, max_http_buffer_size=64 * 1024, namespaces=[NAMESPACE],
                                   # Handlers run on the request's own thread, one of the server's: a
                                   # thread made per event would open its own database reader each time.
                                   async_handlers=False,
                                   logger=False, engineio_logger=_quiet_engine())
        self._refused = socketio.exceptions.ConnectionRefusedError
        self.attached: dict[str, Attached] = {}
        self.by_conversation: dict[str, set[str]] = {}
        self._lock = threading.Lock()
        self._widgets: dict[str, tuple[float, tuple | None]] = {}
        self._pace = _Pace(MESSAGES_PER_MINUTE, 60.0)
        for name, handler in (("connect", self._connect), ("disconnect", self._disconnect), ("hello", self._hello),
                              ("begin", self._begin),
                              ("message", self._message), ("mark", self._mark)):
            self.sio.on(name, handler, namespace=NAMESPACE)
        from appliance.webchat.relay import Relay
        self.relay = Relay(self)
        self.intake = Intake()

    def wsgi(self, app):
        import socketio
        return socketio.WSGIApp(self.sio, app, socketio_path=PATH)

    # Who may connect.

    def _widget_facts(self, token: str | None) -> tuple | None:
        """(widget id, organization id, allowed origins) of a website token, kept a few seconds: the
        CORS check runs on every poll."""
        if not token:
            return None
        now = time.monotonic()
        cached = self._widgets.get(token)
        if cached and now - cached[0] < WIDGET_CACHE_SECONDS:
            return cached[1]
        with runtime.get().db.unit_of_work(write=False) as session:
            widget = widgets.by_website_token(session, token)
            facts = (widget.id, widget.organization_id, tuple(widget.allowed_origins or ())) if widget else None
        self._widgets[token] = (now, facts)
        return facts

    @staticmethod
    def _origin(environ) -> str | None:
        origin = environ.get("HTTP_ORIGIN")
        if not origin and environ.get("HTTP_REFERER"):  # a same-origin GET carries no Origin
            parts = urlsplit(environ["HTTP_REFERER"])
            origin = f"{parts.scheme}://{parts.netloc}"
        return widgets.normalize_origin(origin) if origin else None

    @staticmethod
    def _own_origin(environ) -> str | None:
        scheme = environ.get("wsgi.url_scheme", "http")
        return widgets.normalize_origin(f"{scheme}://{environ.get('HTTP_HOST', '')}")

    def _allowed(self, origin, environ) -> bool:
        token = (parse_qs(environ.get("QUERY_STRING", "")).get("websiteToken") or [None])[0]
        facts = self._widget_facts(token)
        normalized = widgets.normalize_origin(origin)
        allowed = facts is not None and normalized is not None and (
            normalized in facts[2] or normalized == self._own_origin(environ))
        if not allowed:
            log.info("web chat refused (origin_not_allowed): %s for %s", origin, facts[0] if facts else "no widget")
        return allowed

    def _refuse(self, code: str, message: str, **facts):
        log.info("web chat refused (%s): %s %s", code, message, facts)
        raise self._refused({"code": code, "message": message})

    def _connect(self, sid, environ, auth):
        auth = auth if isinstance(auth, dict) else {}
        token = (parse_qs(environ.get("QUERY_STRING", "")).get("websiteToken") or [auth.get("websiteToken")])[0]
        token = token if isinstance(token, str) else None
        facts = self._widget_facts(token)
        if facts is None:
            self._refuse("widget_not_found", "No chat with this website token.")
        origin = self._origin(environ)
        if origin is None or (origin not in facts[2] and origin != self._own_origin(environ)):
            self._refuse("origin_not_allowed", "This website may not open this chat.", origin=origin, widget=facts[0])
        if len(self.attached) >= self.limit:
            self._refuse("busy", "The chat is full right now; try again in a minute.")
        address = environ.get("REMOTE_ADDR", "?")
        identity = visitors.Identity(identifier=auth.get("identifier"), identifier_hash=auth.get("identifierHash"))
        try:
            with runtime.get().db.unit_of_work(write=True) as session:
                throttle.take(session, f"webchat-connect:{address}", limit=CONNECTS_PER_MINUTE, window_seconds=60)
                widget = read_row(session, WebchatWidget.__table__, id=facts[0])
                identifier = visitors.verified_identifier(widget, identity)
                visitor = visitors.find(session, widget, token=auth.get("visitorToken"), identifier=identifier)
                conversation = visitors.conversation_of(session, visitor, widget) if visitor else None
        except TooMany:
            self._refuse("too_many_connections", "Too many chats opened from this address; wait a minute.")
        except AppError as error:
            self._refuse(error.code, str(error), widget=facts[0])
        with self._lock:
            self.attached[sid] = Attached(widget_id=facts[0], organization_id=facts[1],
                                          visitor_id=visitor.id if visitor else None,
                                          conversation_id=conversation.id if conversation else None)
            if conversation:
                self.by_conversation.setdefault(conversation.id, set()).add(sid)
        self.relay.ensure_running()
        return True

    def _hello(self, sid, data=None):
        """The widget's first call once connected: what to draw (asked for, not pushed from the
        connect handler, whose events could reach the browser before the connection's own answer)."""
        def ready(session, widget, attached):
            visitor = read_row(session, WebchatVisitor.__table__, id=attached.visitor_id) if attached.visitor_id else None
            return self._ready(session, widget, visitor)
        return self._work(sid, ready)

    def _ready(self, session, widget: WebchatWidget, visitor: WebchatVisitor | None) -> dict:
        organization = read_row(session, Organization.__table__, id=widget.organization_id)
        return {"ok": True, "name": organization.name, "greeting": widget.greeting or "", "preChatFields": widget.pre_chat_fields or [],
                "begun": visitor is not None,
                "open": hours.is_open(organization.business_hours_schedule, organization.timezone or "UTC", clock.now()),
                "history": visitors.history(session, widget, visitor) if visitor else []}

    def _disconnect(self, sid, *args):
        with self._lock:
            attached = self.attached.pop(sid, None)
            if attached and attached.conversation_id:
                sids = self.by_conversation.get(attached.conversation_id, set())
                sids.discard(sid)
                if not sids:
                    self.by_conversation.pop(attached.conversation_id, None)

    # What visitors do: each answers {ok...} or {error: {code, message, errors}} through the ack.

    def _work(self, sid, work):
        attached = self.attached.get(sid)
        if attached is None:
            return {"error": {"code": "not_connected", "message": "Connect first."}}
        try:
            with runtime.get().db.unit_of_work(write=True) as session:
                # Read as of now, before the write transaction begins (which the work's first write does).
                widget = read_row(session, WebchatWidget.__table__, id=attached.widget_id)
                if widget is None:
                    return {"error": {"code": "widget_not_found", "message": "This chat was removed."}}
                return work(session, widget, attached)
        except AppError as error:
            return _refusal(error)

    def _begin(self, sid, data):
        data = data if isinstance(data, dict) else {}

        def begin(session, widget, attached):
            if attached.visitor_id:
                return {"ok": True}
            identifier = visitors.verified_identifier(widget, visitors.Identity(
                identifier=data.get("identifier"), identifier_hash=data.get("identifierHash")))
            visitor, token = visitors.do_begin(session, widget, identifier=identifier, answers=data)
            attached.visitor_id = visitor.id
            return {"ok": True, "visitorToken": token}
        return self._work(sid, begin)

    def _message(self, sid, data):
        data = data if isinstance(data, dict) else {}
        attached = self.attached.get(sid)
        if attached is None or not attached.visitor_id:
            return {"error": {"code": "not_begun", "message": "Fill in the form first."}}
        if not self._pace.take(attached.visitor_id):
            return {"error": {"code": "too_many_messages", "message": "Too many messages at once; wait a moment."}}
        try:
            with runtime.get().db.unit_of_work(write=False) as session:
                widget = read_row(session, WebchatWidget.__table__, id=attached.widget_id)
                visitor = read_row(session, WebchatVisitor.__table__, id=attached.visitor_id)
            if widget is None or visitor is None:
                return {"error": {"code": "widget_not_found", "message": "This chat was removed."}}
            message_id, conversation_id = self.intake.write(widget, visitor, client_id=data.get("clientId"),
                                                            text=data.get("text"), reply=data.get("reply"))
        except AppError as error:
            return _refusal(error)
        self._join(sid, attached, conversation_id)
        return {"ok": True, "id": message_id}

    def _mark(self, sid, data):
        data = data if isinstance(data, dict) else {}

        def mark(session, widget, attached):
            if not attached.visitor_id:
                return {"ok": True, "moved": 0}
            visitor = session.get(WebchatVisitor, attached.visitor_id)
            return {"ok": True, "moved": visitors.do_mark(session, widget, visitor, ids=data.get("ids"),
                                                          status=data.get("status"))}
        return self._work(sid, mark)

    def _join(self, sid, attached: Attached, conversation_id: str) -> None:
        with self._lock:
            attached.conversation_id = conversation_id
            # every tab of this visitor follows the conversation
            for other_sid, other in self.attached.items():
                if other.visitor_id == attached.visitor_id:
                    other.conversation_id = conversation_id
                    self.by_conversation.setdefault(conversation_id, set()).add(other_sid)

    def organizations(self) -> list[str]:
        with self._lock:
            return sorted({attached.organization_id for attached in self.attached.values()})

    def following(self, conversation_ids) -> dict[str, set[str]]:
        with self._lock:
            return {cid: set(self.by_conversation[cid]) for cid in conversation_ids if cid in self.by_conversation}

    def send(self, sid: str, message: dict) -> None:
        self.sio.emit(TO_VISITOR, message, to=sid, namespace=NAMESPACE)


class _FirstUse:
    """WSGI: /socket.io/ to the gateway, made by the first visitor (python-socketio brings its
    clients' aiohttp and requests: a server whose websites have no chat never loads them); the
    rest to the app."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit
        self._wsgi = None
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        if not environ.get("PATH_INFO", "").startswith(f"/{PATH}/"):
            return self.app(environ, start_response)
        if self._wsgi is None:
            with self._lock:
                if self._wsgi is None:
                    global _gateway
                    _gateway = Gateway(limit=self.limit)
                    self._wsgi = _gateway.wsgi(self.app)
        return self._wsgi(environ, start_response)


_gateway: Gateway | None = None


def install(app, settings):
    """The app with /socket.io/ answered by the web chat's gateway in front of it."""
    return _FirstUse(app, settings.webchat_visitors)


def current() -> Gateway | None:
    return _gateway
