"""What the simulated network posts back to a business: inbound messages and message statuses,
shaped as Meta's webhooks, signed as Meta signs them, delivered at least once.

Meta signs the ASCII-escaped JSON it sends (`ä` as `\\u00e4`, `/` as `\\/`) with HMAC-SHA256 of the
app secret, in `X-Hub-Signature-256: sha256=<hex>`; receivers must check the raw bytes. Deliveries
are batched (several changes per POST), may repeat, and statuses may arrive out of order: the
fault settings reproduce each of these on demand.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import queue
import random
import threading
from dataclasses import dataclass, field

import requests

from appliance.netsim.bounded import BoundedLog

log = logging.getLogger("appliance.netsim")

INBOUND_TYPES = frozenset({"text", "image", "video", "audio", "document", "sticker", "location", "contacts",
                           "interactive", "button", "reaction", "order", "system", "referral", "request_welcome",
                           "unsupported"})
RETRY_SECONDS = (0.2, 1.0, 5.0, 30.0, 120.0)  # Meta retries for days; a simulator gives up sooner


def encode(payload: dict) -> bytes:
    """Meta's wire form: ASCII-only JSON with escaped slashes."""
    return json.dumps(payload, ensure_ascii=True, separators=(",", ":")).replace("/", "\\/").encode("ascii")


def sign(app_secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()


def envelope(waba_id: str, changes: list[dict]) -> dict:
    return {"object": "whatsapp_business_account", "entry": [{"id": waba_id, "changes": changes}]}


def messages_change(number, *, contacts: list[dict] | None = None, messages: list[dict] | None = None,
                    statuses: list[dict] | None = None, field_name: str = "messages") -> dict:
    value: dict = {"messaging_product": "whatsapp",
                   "metadata": {"display_phone_number": "".join(c for c in number.display_phone_number if c.isdigit()),
                                "phone_number_id": number.phone_number_id}}
    if contacts:
        value["contacts"] = contacts
    if messages:
        value["messages"] = messages
    if statuses:
        value["statuses"] = statuses
    return {"field": field_name, "value": value}


def status_entry(sent: dict, status: str, at: float, *, errors: list[dict] | None = None) -> dict:
    entry = {"id": sent["wamid"], "status": status, "timestamp": str(int(at)), "recipient_id": sent["to"]}
    if sent.get("biz_opaque_callback_data"):
        entry["biz_opaque_callback_data"] = sent["biz_opaque_callback_data"]
    if status in ("sent", "delivered", "read") and sent["type"] != "reaction":
        entry["pricing"] = {"billable": sent["type"] == "template", "pricing_model": "PMP",
                            "category": "marketing" if sent["type"] == "template" else "service",
                            "type": "regular" if sent["type"] == "template" else "free_customer_service"}
    if errors:
        entry["errors"] = errors
    return entry


@dataclass
class Faults:
    """Misbehaviour on demand, as rates between 0 and 1 (tests set them, demos leave them at 0)."""

    duplicate_rate: float = 0.0  # a delivery is posted twice
    reorder_statuses: bool = False  # statuses of one message arrive last-first
    error_rate: float = 0.0  # the Graph API answers 500 to a business call
    slow_seconds: float = 0.0  # the Graph API answers after this long (timeouts)
    fail_next: list[int] = field(default_factory=list)  # codes the next sends fail with, in order

    def update(self, changes: dict) -> None:
        for key, value in changes.items():
            attribute = {"duplicateRate": "duplicate_rate", "reorderStatuses": "reorder_statuses",
                         "errorRate": "error_rate", "slowSeconds": "slow_seconds", "failNext": "fail_next"}.get(key)
            if attribute is None:
                raise ValueError(f"unknown fault {key!r}")
            if attribute == "fail_next" and (not isinstance(value, list) or len(value) > 100
                                             or not all(isinstance(code, int) for code in value)):
                raise ValueError("failNext: at most 100 error codes")
            if attribute == "slow_seconds" and not 0 <= float(value) <= 120:
                raise ValueError("slowSeconds: 0 to 120")
            setattr(self, attribute, type(getattr(self, attribute))(value))


@dataclass
class Delivery:
    url: str
    app_secret: str
    payload: dict
    attempt: int = 0


class Deliverer:
    """Posts webhooks from one background thread, in order, retrying failures with back-off.
    `wait_idle()` lets tests and the control API wait until everything queued was delivered."""

    def __init__(self, faults: Faults, *, timeout: float = 10.0):
        self.faults = faults
        self.timeout = timeout
        self._queue: queue.Queue[Delivery] = queue.Queue()
        self._pending = 0
        self._idle = threading.Condition()
        self._http = requests.Session()
        # (status, attempt, payload) of the POSTs made, newest last: the last 1,000 within 16 MB
        self.delivered = BoundedLog(max_items=1_000, max_bytes=16 << 20)
        self._thread = threading.Thread(target=self._run, name="netsim-webhooks", daemon=True)
        self._thread.start()

    def post(self, url: str | None, app_secret: str, payload: dict) -> None:
        if not url:
            log.info("no webhook URL set for %s; delivery dropped", payload["entry"][0]["id"])
            return
        with self._idle:
            self._pending += 1
        self._queue.put(Delivery(url, app_secret, payload))
        if random.random() < self.faults.duplicate_rate:
            with self._idle:
                self._pending += 1
            self._queue.put(Delivery(url, app_secret, payload))

    def wait_idle(self, timeout: float = 30.0) -> bool:
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout=timeout)

    def _run(self) -> None:
        while True:
            delivery = self._queue.get()
            body = encode(delivery.payload)
            try:
                answer = self._http.post(delivery.url, data=body, timeout=self.timeout, headers={
                    "Content-Type": "application/json", "X-Hub-Signature-256": sign(delivery.app_secret, body),
                    "User-Agent": "facebookexternalua"})
                status = answer.status_code
            except requests.RequestException as exc:
                status = 0
                log.info("webhook delivery to %s failed: %s", delivery.url, exc.__class__.__name__)
            self.delivered.append({"status": status, "attempt": delivery.attempt, "payload": delivery.payload})
            if status != 200 and delivery.attempt + 1 < len(RETRY_SECONDS):
                delivery.attempt += 1
                threading.Timer(RETRY_SECONDS[delivery.attempt - 1], self._queue.put, args=(delivery,)).start()
                continue
            with self._idle:
                self._pending -= 1
                self._idle.notify_all()
