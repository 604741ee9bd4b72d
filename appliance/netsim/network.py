"""The simulated chat network's state and rules, without HTTP: business accounts and their numbers,
customers, the messages businesses send, media, templates, and the limits Meta enforces.

Everything is in memory behind one lock: the simulator is a test double and a demo, not storage,
and what it keeps is bounded (bounded.py): the oldest sends, media and customers go first.
Facts followed: ../shared/design/cloud-api.md (3.1-3.8). Errors are raised as `NetworkError` with
Meta's code; `app.py` turns them into Graph's error envelope.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from appliance.netsim.bounded import BoundedDict, BoundedLog, json_size
from appliance.netsim.stickers import ANIMATED_MAX_BYTES, sticker_problem

OUTBOUND_TYPES = frozenset({"text", "image", "video", "audio", "document", "sticker", "location", "contacts",
                            "interactive", "reaction", "template"})
MEDIA_TYPES = frozenset({"image", "video", "audio", "document", "sticker"})
WINDOW_SECONDS = 24 * 3600
PAIR_BURST = 45  # messages to one person that may be "borrowed" from future quota
PAIR_SECONDS = 6.0  # one message per six seconds to the same person, sustained

# What the network keeps, at most (the oldest go first).
MAX_SENT, MAX_SENT_BYTES = 100_000, 64 << 20  # benchmarks send 10,000-40,000 and read them all back
MAX_MEDIA, MAX_MEDIA_BYTES = 1_000, 128 << 20
MAX_UPLOADS, MAX_UPLOAD_BYTES, MAX_UPLOAD_FILE = 100, 32 << 20, 16 << 20
MAX_PICTURES, MAX_PICTURE_BYTES = 200, 32 << 20
MAX_CUSTOMERS = 100_000
MAX_READ_MARKS = 10_000
MAX_ACCOUNTS, MAX_NUMBERS_PER_ACCOUNT = 10_000, 100
MAX_TEMPLATES, MAX_TEMPLATE_BYTES = 250, 64 << 10  # per account (Meta's long-standing 250); a template's components
MAX_PROFILE_FIELD = 4096

# HTTP status the Graph API answers with for each code (most WhatsApp codes are 400).
_HTTP_STATUS = {0: 401, 190: 401, 10: 403, 200: 403, 4: 429, 80007: 429, 2: 503, 131016: 503, 133004: 503}

TITLES = {
    100: "Invalid parameter", 131008: "Required parameter is missing", 131009: "Parameter value is not valid",
    131026: "Message undeliverable", 131030: "Recipient phone number not in allowed list",
    131047: "Re-engagement message", 131051: "Unsupported message type", 131053: "Media upload error",
    131056: "(Business Account, Consumer Account) pair rate limit hit", 130429: "Rate limit hit",
    132000: "Number of parameters does not match the expected number of params",
    132001: "Template name does not exist in the translation", 132005: "Translated text too long",
    132012: "Parameter format does not match format in the created template", 132015: "Template is paused",
    132016: "Template is disabled", 190: "Invalid OAuth access token", 131000: "Something went wrong",
    133010: "Phone number not registered", 133005: "Two step verification PIN mismatch",
}


class NetworkError(Exception):
    """A refusal by the network: Meta's code, a message and `error_data.details`."""

    def __init__(self, code: int, details: str, *, message: str | None = None):
        self.code, self.details = code, details
        self.message = message or TITLES.get(code, "Error")
        super().__init__(f"({code}) {self.message}: {details}")

    @property
    def http_status(self) -> int:
        return _HTTP_STATUS.get(self.code, 400)

    def envelope(self) -> dict:
        return {"error": {"message": f"(#{self.code}) {self.message}", "type": "OAuthException",
                          "code": self.code, "error_data": {"messaging_product": "whatsapp", "details": self.details},
                          "fbtrace_id": "A" + secrets.token_urlsafe(16)}}


def new_graph_id() -> str:
    return str(10**14 + secrets.randbelow(9 * 10**14))


def new_wamid() -> str:
    return "wamid." + base64.b64encode(b"HBgL" + secrets.token_bytes(24)).decode().rstrip("=")


@dataclass
class Number:
    phone_number_id: str
    waba_id: str
    display_phone_number: str
    verified_name: str
    messages_per_second: int = 80
    quality_rating: str = "GREEN"
    profile: dict = field(default_factory=lambda: {"about": "", "address": "", "description": "", "email": "",
                                                   "websites": [], "vertical": "OTHER", "profile_picture_url": ""})
    sent_at: deque = field(default_factory=deque)  # monotonic times of the last second's sends
    on_biz_app: bool = False  # coexistence: the number is also in the WhatsApp Business app
    registered: bool = True  # registered for the Cloud API (POST /{id}/register); unregistered ones cannot send
    pin: str | None = None  # the two-step verification PIN, set by the first registration
    address_book: list[dict] = field(default_factory=list)  # the app's contacts: {phone_number, full_name, first_name}

    def as_graph(self) -> dict:
        return {"id": self.phone_number_id, "display_phone_number": self.display_phone_number,
                "verified_name": self.verified_name, "quality_rating": self.quality_rating,
                "code_verification_status": "VERIFIED", "platform_type": "CLOUD_API" if self.registered else "NOT_APPLICABLE",
                "is_on_biz_app": self.on_biz_app,
                "throughput": {"level": "HIGH" if self.messages_per_second >= 1000 else "STANDARD"}}


@dataclass
class Account:
    waba_id: str
    name: str
    access_token: str
    app_secret: str
    webhook_url: str | None = None
    subscribed: bool = True
    numbers: list[str] = field(default_factory=list)
    templates: dict[tuple[str, str], dict] = field(default_factory=dict)  # (name, language) -> template
    app_id: str = field(default_factory=lambda: new_graph_id())  # the Meta app the token belongs to


@dataclass
class Customer:
    wa_id: str
    name: str
    user_id: str  # the business-scoped user id (BSUID)
    on_whatsapp: bool = True
    last_inbound: dict[str, float] = field(default_factory=dict)  # phone_number_id -> epoch seconds
    pair_tokens: dict[str, tuple[float, float]] = field(default_factory=dict)  # number -> (tokens, at)


@dataclass
class Media:
    media_id: str
    content: bytes
    mime_type: str
    phone_number_id: str

    def as_graph(self, base_url: str) -> dict:
        return {"messaging_product": "whatsapp", "url": f"{base_url}/_media/{self.media_id}?t={secrets.token_urlsafe(8)}",
                "mime_type": self.mime_type, "sha256": hashlib.sha256(self.content).hexdigest(),
                "file_size": len(self.content), "id": self.media_id}


class Network:
    """The whole simulated network. `clock` is injectable so tests can move the 24-hour window."""

    def __init__(self, *, clock: Callable[[], float] = time.time):
        self.clock = clock
        self.lock = threading.RLock()
        self.accounts: dict[str, Account] = {}
        self.numbers: dict[str, Number] = {}
        self.customers: dict[str, Customer] = BoundedDict(max_items=MAX_CUSTOMERS)
        self.media: dict[str, Media] = BoundedDict(max_items=MAX_MEDIA, max_bytes=MAX_MEDIA_BYTES,
                                                   size=lambda media: len(media.content))
        # resumable upload sessions: id -> {app_id, length, type, content}
        self.uploads: dict[str, dict] = BoundedDict(max_items=MAX_UPLOADS, max_bytes=MAX_UPLOAD_BYTES,
                                                    size=lambda upload: len(upload["content"]))
        # profile pictures served: name -> (content, type)
        self.pictures: dict[str, tuple[bytes, str]] = BoundedDict(max_items=MAX_PICTURES, max_bytes=MAX_PICTURE_BYTES,
                                                                  size=lambda picture: len(picture[0]))
        # the messages businesses sent and the network accepted, newest last (`sent.total`: all of them)
        self.sent = BoundedLog(max_items=MAX_SENT, max_bytes=MAX_SENT_BYTES)
        self.refused: dict[int, int] = {}  # sends refused, by error code (benchmarks count 130429)
        self.read_marks = BoundedLog(max_items=MAX_READ_MARKS, max_bytes=MAX_READ_MARKS * 200)

    def register(self, number: Number, body: dict[str, Any]) -> None:
        """POST /{phone-number-id}/register: the two-step verification PIN (6 digits) is set by the
        first registration and must match afterwards (133005)."""
        if body.get("messaging_product") != "whatsapp":
            raise NetworkError(100, "The parameter messaging_product is required and must be 'whatsapp'")
        pin = body.get("pin")
        if not isinstance(pin, str) or len(pin) != 6 or not pin.isdigit():
            raise NetworkError(100, "The parameter pin must be 6 digits")
        with self.lock:
            if number.pin is not None and number.pin != pin:
                raise NetworkError(133005, "Two-step verification PIN mismatch")
            number.pin, number.registered = pin, True

    # Set-up (the control API) -------------------------------------------------------------------

    def create_account(self, *, name: str, numbers: list[dict], waba_id: str | None = None,
                       access_token: str | None = None, app_secret: str | None = None,
                       webhook_url: str | None = None) -> Account:
        if len(numbers) > MAX_NUMBERS_PER_ACCOUNT:
            raise NetworkError(100, f"At most {MAX_NUMBERS_PER_ACCOUNT} numbers per business account")
        with self.lock:
            if len(self.accounts) >= MAX_ACCOUNTS:
                raise NetworkError(100, f"The simulator holds at most {MAX_ACCOUNTS} business accounts")
            account = Account(waba_id=waba_id or new_graph_id(), name=name,
                              access_token=access_token or "EAAG" + secrets.token_urlsafe(32),
                              app_secret=app_secret or secrets.token_hex(16), webhook_url=webhook_url)
            if account.waba_id in self.accounts:
                raise NetworkError(100, f"Business account {account.waba_id} exists already")
            for spec in numbers:
                number = Number(phone_number_id=str(spec.get("phoneNumberId") or new_graph_id()), waba_id=account.waba_id,
                                display_phone_number=str(spec["displayPhoneNumber"]),
                                verified_name=str(spec.get("verifiedName") or name),
                                messages_per_second=int(spec.get("messagesPerSecond") or 80),
                                on_biz_app=bool(spec.get("coexistence")), registered=spec.get("registered", True) is not False,
                                pin=str(spec["pin"]) if spec.get("pin") else None,
                                address_book=[{"phone_number": str(c["phoneNumber"]), "full_name": c.get("fullName", ""),
                                               "first_name": c.get("firstName", "")}
                                              for c in spec.get("addressBook") or []])
                self.numbers[number.phone_number_id] = number
                account.numbers.append(number.phone_number_id)
            self.accounts[account.waba_id] = account
            return account

    def customer(self, wa_id: str, *, name: str | None = None, on_whatsapp: bool | None = None) -> Customer:
        with self.lock:
            customer = self.customers.get(wa_id)
            if customer is None:
                digest = hashlib.sha256(wa_id.encode()).hexdigest()
                customer = self.customers[wa_id] = Customer(wa_id=wa_id, name=name or f"Customer {wa_id[-4:]}",
                                                            user_id=f"US.{int(digest[:16], 16)}")
            if name:
                customer.name = name
            if on_whatsapp is not None:
                customer.on_whatsapp = on_whatsapp
            return customer

    # Access --------------------------------------------------------------------------------------

    def account_for_token(self, token: str, waba_id: str) -> Account:
        account = self.accounts.get(waba_id)
        if account is None:
            raise NetworkError(100, f"Unsupported get request. Object with ID '{waba_id}' does not exist")
        self._check_token(account, token)
        return account

    def number_for_token(self, token: str, phone_number_id: str) -> Number:
        number = self.numbers.get(phone_number_id)
        if number is None:
            raise NetworkError(100, f"Unsupported post request. Object with ID '{phone_number_id}' does not exist")
        self._check_token(self.accounts[number.waba_id], token)
        return number

    @staticmethod
    def _check_token(account: Account, token: str) -> None:
        if not secrets.compare_digest(token.encode(), account.access_token.encode()):
            raise NetworkError(190, "Error validating access token: the session is invalid or has expired")

    # Sending -------------------------------------------------------------------------------------

    def send(self, number: Number, body: dict[str, Any]) -> dict:
        """Validate and accept one message; answers Graph's response. Refusals are counted by code."""
        try:
            return self._send(number, body)
        except NetworkError as error:
            with self.lock:
                self.refused[error.code] = self.refused.get(error.code, 0) + 1
            raise

    def _send(self, number: Number, body: dict[str, Any]) -> dict:
        """Limits checked in Meta's order: the request, the number's throughput, the recipient, the
        window, the pair rate."""
        if body.get("messaging_product") != "whatsapp":
            raise NetworkError(100, "The parameter messaging_product is required and must be 'whatsapp'")
        if not number.registered:
            raise NetworkError(133010, "The phone number is not registered for the Cloud API")
        kind = body.get("type", "text")
        if kind not in OUTBOUND_TYPES:
            raise NetworkError(131051, f"Message type '{kind}' is not supported")
        to = str(body.get("to") or "").lstrip("+")
        if not to.isdigit() or not 8 <= len(to) <= 15:
            raise NetworkError(131009, "The parameter to is not a valid phone number")
        payload = body.get(kind)
        if not isinstance(payload, (dict, list)):
            raise NetworkError(131008, f"The parameter {kind} is required")
        with self.lock:
            self._take_throughput(number)
            customer = self.customer(to)
            if to == "".join(c for c in number.display_phone_number if c.isdigit()):
                raise NetworkError(131021, "Recipient cannot be sender")
            if not customer.on_whatsapp:
                raise NetworkError(131026, "Message undeliverable: the recipient is not on WhatsApp")
            if kind == "template":
                self._check_template(number, payload)
            elif not self._window_open(customer, number):
                raise NetworkError(131047, "Message failed to send because more than 24 hours have passed "
                                           "since the customer last replied to this number")
            self._check_content(kind, payload)
            if kind == "sticker" and payload.get("id"):
                self._check_sticker(number, str(payload["id"]))
            self._take_pair(customer, number)
            wamid = new_wamid()
            self.sent.append({"wamid": wamid, "phone_number_id": number.phone_number_id, "to": to,
                              "type": kind, kind: payload, "context": body.get("context"),
                              "biz_opaque_callback_data": body.get("biz_opaque_callback_data"),
                              "at": self.clock()})
        return {"messaging_product": "whatsapp", "contacts": [{"input": str(body.get("to")), "wa_id": to}],
                "messages": [{"id": wamid, "message_status": "accepted"}]}

    def _take_throughput(self, number: Number) -> None:
        now = time.monotonic()
        window = number.sent_at
        while window and now - window[0] >= 1.0:
            window.popleft()
        if len(window) >= number.messages_per_second:
            raise NetworkError(130429, f"Cloud API message throughput ({number.messages_per_second} mps) "
                                       "has been reached for this phone number")
        window.append(now)

    def _take_pair(self, customer: Customer, number: Number) -> None:
        now = time.monotonic()
        tokens, at = customer.pair_tokens.get(number.phone_number_id, (float(PAIR_BURST), now))
        tokens = min(float(PAIR_BURST), tokens + (now - at) / PAIR_SECONDS)
        if tokens < 1.0:
            customer.pair_tokens[number.phone_number_id] = (tokens, now)
            raise NetworkError(131056, "Too many messages sent from this phone number to the same phone "
                                       "number in a short period of time")
        customer.pair_tokens[number.phone_number_id] = (tokens - 1.0, now)

    def _window_open(self, customer: Customer, number: Number) -> bool:
        last = customer.last_inbound.get(number.phone_number_id)
        return last is not None and self.clock() - last < WINDOW_SECONDS

    @staticmethod
    def _check_content(kind: str, payload: Any) -> None:
        if kind == "text":
            text = payload.get("body")
            if not isinstance(text, str) or not text:
                raise NetworkError(131008, "The parameter text['body'] is required")
            if len(text) > 4096:
                raise NetworkError(131009, "text['body'] is longer than 4096 characters")
        elif kind in MEDIA_TYPES:
            if not payload.get("id") and not payload.get("link"):
                raise NetworkError(131008, f"Either {kind}['id'] or {kind}['link'] is required")
        elif kind == "reaction":
            if not payload.get("message_id"):
                raise NetworkError(131008, "The parameter reaction['message_id'] is required")
        elif kind == "location":
            if "latitude" not in payload or "longitude" not in payload:
                raise NetworkError(131008, "location['latitude'] and location['longitude'] are required")
        elif kind == "interactive":
            if payload.get("type") not in ("button", "list", "cta_url", "flow", "product", "product_list",
                                           "catalog_message", "location_request_message", "carousel", "address_message"):
                raise NetworkError(131009, "interactive['type'] is not valid")

    def _check_sticker(self, number: Number, media_id: str) -> None:
        """A sticker by id goes only if it is media this number uploaded and a sticker's file."""
        media = self.media.get(media_id)
        if media is None or media.phone_number_id != number.phone_number_id:
            raise NetworkError(131053, f"Media {media_id} was not uploaded by this phone number")
        problem = sticker_problem(media.content, media.mime_type)
        if problem:
            raise NetworkError(131053, problem)

    def _check_template(self, number: Number, template: dict) -> None:
        account = self.accounts[number.waba_id]
        name = template.get("name")
        language = (template.get("language") or {}).get("code")
        found = account.templates.get((name, language))
        if found is None or found["status"] not in ("APPROVED", "PAUSED", "DISABLED"):
            raise NetworkError(132001, f"Template name ({name}) does not exist in {language}")
        if found["status"] == "PAUSED":
            raise NetworkError(132015, f"Template {name} is paused")
        if found["status"] == "DISABLED":
            raise NetworkError(132016, f"Template {name} is disabled")
        given = {c.get("type"): c.get("parameters", []) for c in template.get("components", []) or []}
        # Parameter counts first, then formats (a missing body parameter is 132000 even when the
        # header is also wrong).
        for component in sorted(found["components"], key=lambda c: c["type"] != "BODY"):
            kind = component["type"].lower()
            if kind == "body":
                expected = component.get("text", "").count("{{")
                if len(given.get("body", [])) != expected:
                    raise NetworkError(132000, f"body: number of localizable_params ({len(given.get('body', []))}) "
                                               f"does not match the expected number of params ({expected})")
            if kind == "header" and component.get("format", "TEXT") != "TEXT":
                parameters = given.get("header", [])
                wanted = component["format"].lower()
                if not parameters or parameters[0].get("type") != wanted:
                    got = parameters[0].get("type", "UNKNOWN").upper() if parameters else "UNKNOWN"
                    raise NetworkError(132012, f"header: Format mismatch, expected {component['format']}, received {got}")

    # Templates ------------------------------------------------------------------------------------

    def create_template(self, account: Account, body: dict) -> dict:
        name, language, category = body.get("name"), body.get("language"), body.get("category")
        if not isinstance(name, str) or not name or not name.replace("_", "").isalnum() or name.lower() != name:
            raise NetworkError(100, "name must be lower-case letters, digits and underscores")
        if category not in ("MARKETING", "UTILITY", "AUTHENTICATION"):
            raise NetworkError(100, "category must be MARKETING, UTILITY or AUTHENTICATION")
        components = body.get("components")
        if not isinstance(components, list) or not any(c.get("type") == "BODY" for c in components if isinstance(c, dict)):
            raise NetworkError(100, "components must include a BODY")
        if not isinstance(language, str) or not language:
            raise NetworkError(100, "language must be a language code")
        if json_size(components) > MAX_TEMPLATE_BYTES:
            raise NetworkError(100, "The template is too large")
        with self.lock:
            if (name, language) in account.templates:
                raise NetworkError(100, f"Content in this language already exists for {name}")
            if len(account.templates) >= MAX_TEMPLATES:
                raise NetworkError(100, f"Message template limit ({MAX_TEMPLATES}) reached for this business account")
            template = {"id": new_graph_id(), "name": name, "language": language, "category": category,
                        "status": "PENDING", "components": components, "parameter_format": body.get("parameter_format", "POSITIONAL")}
            account.templates[(name, language)] = template
        return {"id": template["id"], "status": "PENDING", "category": category}

    def set_template_status(self, waba_id: str, name: str, language: str, status: str) -> dict:
        with self.lock:
            template = self.accounts[waba_id].templates[(name, language)]
            template["status"] = status
            return dict(template)

    # Media ----------------------------------------------------------------------------------------

    def store_media(self, number: Number, content: bytes, mime_type: str) -> Media:
        limits = {"image": 5 << 20, "video": 16 << 20, "audio": 16 << 20, "application": 100 << 20, "text": 100 << 20}
        # WEBP is the stickers' type: the network takes it up to an animated sticker's limit.
        limit = ANIMATED_MAX_BYTES if mime_type == "image/webp" else limits.get(mime_type.split("/")[0])
        if limit is None or mime_type == "text/html":
            raise NetworkError(131053, f"Unsupported mime type {mime_type}")
        if len(content) > limit:
            raise NetworkError(131053, f"Media larger than {limit} bytes for {mime_type}")
        media = Media(media_id=new_graph_id(), content=content, mime_type=mime_type,
                      phone_number_id=number.phone_number_id)
        with self.lock:
            self.media[media.media_id] = media
        return media

    # Resumable uploads (profile pictures) -------------------------------------------------------------

    def start_upload(self, account: Account, app_id: str, file_length: str, file_type: str) -> str:
        if app_id != account.app_id:
            raise NetworkError(100, f"Unsupported post request. Object with ID '{app_id}' does not exist")
        if not str(file_length).isdigit() or file_type not in ("image/jpeg", "image/jpg", "image/png", "video/mp4",
                                                               "application/pdf"):
            raise NetworkError(100, "file_length and a supported file_type are required")
        if int(file_length) > MAX_UPLOAD_FILE:
            raise NetworkError(100, f"file_length is over {MAX_UPLOAD_FILE} bytes")
        upload_id = "upload:" + base64.urlsafe_b64encode(secrets.token_bytes(18)).decode()
        with self.lock:
            self.uploads[upload_id] = {"app_id": app_id, "length": int(file_length), "type": file_type, "content": b""}
        return upload_id

    def upload_bytes(self, account: Account, upload_id: str, offset: str, content: bytes) -> str:
        with self.lock:
            upload = self.uploads.get(upload_id)
            if upload is None or upload["app_id"] != account.app_id:
                raise NetworkError(100, f"Unsupported post request. Object with ID '{upload_id}' does not exist")
            if str(offset) != str(len(upload["content"])):
                raise NetworkError(100, f"file_offset must be {len(upload['content'])}")
            if len(upload["content"]) + len(content) > upload["length"]:
                raise NetworkError(100, "The uploaded bytes are more than file_length")
            upload["content"] += content
            self.uploads[upload_id] = upload  # measured again with its bytes
            if len(upload["content"]) != upload["length"]:
                raise NetworkError(100, "The uploaded bytes do not match file_length")
            handle = "4::" + base64.b64encode(hashlib.sha256(upload["content"]).digest()).decode()
            upload["handle"] = handle
            return handle

    def profile_picture(self, account: Account, handle: str, base_url: str) -> str:
        """Like WhatsApp's picture CDN, the simulator serves the picture at a public address that
        changes with the picture (so a console shows the sandbox's picture, not a dead link)."""
        with self.lock:
            upload = next((u for u in self.uploads.values() if u.get("handle") == handle and u["app_id"] == account.app_id), None)
            if upload is None or upload["type"] not in ("image/jpeg", "image/jpg", "image/png"):
                raise NetworkError(100, "profile_picture_handle is not the handle of an uploaded image")
            name = hashlib.sha256(handle.encode()).hexdigest()[:24]
            self.pictures[name] = (upload["content"], "image/png" if upload["type"] == "image/png" else "image/jpeg")
        return f"{base_url}/_pictures/{name}"

    # Customers writing in ---------------------------------------------------------------------------

    def record_inbound(self, customer: Customer, number: Number) -> float:
        """A customer's message opens (or refreshes) the 24-hour window with this number."""
        with self.lock:
            now = self.clock()
            customer.last_inbound[number.phone_number_id] = now
            return now
