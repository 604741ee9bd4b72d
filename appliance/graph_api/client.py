"""The WhatsApp Business Cloud API (Graph API) over HTTP: protocol only.

No appliance imports but `libcurl` (how handles are made): base URL, version, timeout and token
are given by the caller, answers come back as the network's own JSON, and every failure is a
`GraphError` carrying Meta's `code`, `error_data.details` and whether retrying may help. Callers
decide what a failure means (which error marks a business account for re-authorization, which
fails a message).

Facts this follows: ../shared/design/cloud-api.md (error envelope 3.3, codes 3.4, media 3.7).
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

import requests
import urllib3

from appliance import libcurl

if TYPE_CHECKING:
    import pycurl

# Codes where the same request may succeed later (Meta's guidance and the products' experience):
# throttling, temporary outages, generic errors. Everything else needs a change first.
RETRYABLE_CODES = frozenset({1, 2, 4, 80007, 130429, 131000, 131016, 131056, 131057, 132069, 133004})
# Network-level failure without a Graph answer (timeout, refused, reset).
TRANSPORT_ERROR = -1


@dataclass
class GraphError(Exception):
    """A failed Graph call: Meta's error envelope, or a transport failure (code -1)."""

    status: int  # HTTP status; 0 when no answer came back
    code: int
    message: str
    details: str | None = None
    subcode: int | None = None
    fbtrace_id: str | None = None
    body: dict[str, Any] = field(default_factory=dict)
    # A transport failure after the request may have reached the network (a read timeout, a
    # connection dropped mid-answer): repeating a send could deliver it twice.
    maybe_delivered: bool = False

    def __post_init__(self):
        super().__init__(f"({self.code}) {self.message}")

    @property
    def retryable(self) -> bool:
        return self.code == TRANSPORT_ERROR or self.code in RETRYABLE_CODES or self.status >= 500

    @property
    def token_expired(self) -> bool:
        """Only an explicit credential error (190) means the token must be renewed; timeouts and
        5xx never do (other inbox products disabled healthy numbers that way)."""
        return self.code == 190


class GraphClient:
    """One client per process; thread-safe (pooled connections, no per-call state).

    Messages (`send_message`, `mark_read`) go through libcurl, a handle per thread and kept-alive
    connections shared by the process: every message pays for its call, and a call on urllib3's pool cost
    ~0.3 ms more CPU, on requests ~0.7 ms (as much as a bot's decision). Everything else (uploads,
    streamed downloads, pages) keeps requests' conveniences."""

    def __init__(self, base_url: str, version: str, *, timeout: float = 15.0, session: requests.Session | None = None):
        self.base_url = base_url.rstrip("/")
        self.version = version.strip("/")
        self.timeout = timeout
        self._http = session or requests.Session()

    # Business accounts and numbers -----------------------------------------------------------

    def list_phone_numbers(self, token: str, waba_id: str) -> list[dict]:
        answer = self._call("GET", f"{_id(waba_id)}/phone_numbers", token, params={"limit": 100})
        return list(answer.get("data", []))

    def subscribe_app(self, token: str, waba_id: str) -> dict:
        """(Re)subscribe our app to the business account's webhooks."""
        return self._call("POST", f"{_id(waba_id)}/subscribed_apps", token)

    def register_number(self, token: str, phone_number_id: str, pin: str) -> dict:
        """Register a number for the Cloud API with its two-step verification PIN (set by the first
        registration)."""
        return self._post_json(f"{_id(phone_number_id)}/register", token, {"messaging_product": "whatsapp", "pin": pin})

    def get_business_profile(self, token: str, phone_number_id: str) -> dict:
        fields = "about,address,description,email,profile_picture_url,websites,vertical"
        answer = self._call("GET", f"{_id(phone_number_id)}/whatsapp_business_profile", token,
                            params={"fields": fields})
        data = answer.get("data") or [{}]
        return data[0]

    def update_business_profile(self, token: str, phone_number_id: str, profile: dict) -> dict:
        return self._call("POST", f"{_id(phone_number_id)}/whatsapp_business_profile", token,
                          json={"messaging_product": "whatsapp", **profile})

    def upload_profile_picture(self, token: str, content: bytes, mime_type: str) -> str:
        """Graph's resumable upload (the app of the token, a session, the bytes): answers the handle
        that `update_business_profile(..., {"profile_picture_handle": h})` takes."""
        app_id = str(self._call("GET", "app", token)["id"])
        session = self._call("POST", f"{_id(app_id)}/uploads", token,
                             params={"file_length": len(content), "file_type": mime_type})
        upload_id = str(session["id"])
        if not upload_id.startswith("upload:") or "/" in upload_id:
            raise GraphError(200, 1, "The network answered an unexpected upload session id.")
        answer = self._call("POST", upload_id, token, data=content, scheme="OAuth",
                            headers={"file_offset": "0", "Content-Type": "application/octet-stream"})
        return str(answer["h"])

    def request_coexistence_sync(self, token: str, phone_number_id: str, sync_type: str) -> dict:
        """A coexistence number's WhatsApp Business app data: `smb_app_state_sync` (its contacts) or
        `history`; the data arrives as webhooks. Answers `{messaging_product, request_id}`."""
        return self._call("POST", f"{_id(phone_number_id)}/smb_app_data", token,
                          json={"messaging_product": "whatsapp", "sync_type": sync_type})

    # Messages ----------------------------------------------------------------------------------

    def send_message(self, token: str, phone_number_id: str, message: dict) -> dict:
        """POST /{phone-number-id}/messages; `message` is the network's body without
        `messaging_product` (added here). Answers `{contacts, messages:[{id: wamid}]}`."""
        return self._post_json(f"{_id(phone_number_id)}/messages", token, {"messaging_product": "whatsapp", **message})

    def mark_read(self, token: str, phone_number_id: str, wamid: str, *, typing: bool = False) -> dict:
        body: dict[str, Any] = {"messaging_product": "whatsapp", "status": "read", "message_id": wamid}
        if typing:
            body["typing_indicator"] = {"type": "text"}
        return self._post_json(f"{_id(phone_number_id)}/messages", token, body)

    # Media -------------------------------------------------------------------------------------

    def upload_media(self, token: str, phone_number_id: str, content: bytes | BinaryIO, mime_type: str,
                     filename: str = "file") -> str:
        """`content`: the bytes, or a seekable file read as it is sent (a 100 MB document is never
        in memory: requests would build the whole multipart body there)."""
        file = io.BytesIO(content) if isinstance(content, (bytes, bytearray)) else content
        body = _MultipartBody({"messaging_product": "whatsapp", "type": mime_type}, "file", filename, mime_type, file)
        answer = self._call("POST", f"{_id(phone_number_id)}/media", token, data=body,
                            headers={"Content-Type": body.content_type})
        return str(answer["id"])

    def get_media(self, token: str, media_id: str) -> dict:
        """`{url, mime_type, sha256, file_size, id}`; the URL lives minutes and needs the token."""
        return self._call("GET", _id(media_id), token)

    def download_media(self, token: str, url: str, *, max_bytes: int) -> bytes:
        out = io.BytesIO()
        self.download_media_to(token, url, out, max_bytes=max_bytes)
        return out.getvalue()

    def download_media_to(self, token: str, url: str, out: BinaryIO, *, max_bytes: int) -> str:
        """Write the media into `out` as it arrives (never whole in memory); answers its sha256."""
        digest, size = hashlib.sha256(), 0
        try:
            with self._http.get(url, headers=_auth(token), timeout=self.timeout, stream=True) as answer:
                if answer.status_code != 200:
                    raise _error_from(answer)
                for chunk in answer.iter_content(64 * 1024):
                    size += len(chunk)
                    if size > max_bytes:
                        raise GraphError(answer.status_code, 131052, f"Media larger than {max_bytes} bytes")
                    digest.update(chunk)
                    out.write(chunk)
                return digest.hexdigest()
        except requests.RequestException as exc:
            raise _transport_error(exc) from exc

    def delete_media(self, token: str, media_id: str) -> bool:
        return bool(self._call("DELETE", _id(media_id), token).get("success"))

    # Templates ---------------------------------------------------------------------------------

    def list_templates(self, token: str, waba_id: str) -> list[dict]:
        templates, after = [], None
        while True:
            params = {"limit": 100, **({"after": after} if after else {})}
            answer = self._call("GET", f"{_id(waba_id)}/message_templates", token, params=params)
            templates.extend(answer.get("data", []))
            after = (answer.get("paging") or {}).get("cursors", {}).get("after")
            if not after or not (answer.get("paging") or {}).get("next"):
                return templates

    def create_template(self, token: str, waba_id: str, template: dict) -> dict:
        """Answers `{id, status, category}`; approval arrives later as a webhook."""
        return self._call("POST", f"{_id(waba_id)}/message_templates", token, json=template)

    # Catalogs ----------------------------------------------------------------------------------

    def product_catalogs(self, token: str, waba_id: str) -> list[dict]:
        """The catalogs connected to the business account (Meta connects one at most): `[{id, name}]`."""
        return self._call("GET", f"{_id(waba_id)}/product_catalogs", token, params={"fields": "id,name"}).get("data", [])

    def items_batch(self, token: str, catalog_id: str, requests_: list[dict]) -> dict:
        """Create, update or delete catalog items: `{handles, validation_status: [{retailer_id,
        errors: [{message}]}]}` (the rows Meta refused, with why)."""
        return self._call("POST", f"{_id(catalog_id)}/items_batch", token,
                          json={"item_type": "PRODUCT_ITEM", "requests": requests_})

    # Plumbing ----------------------------------------------------------------------------------

    def _call(self, method: str, path: str, token: str, *, scheme: str = "Bearer", headers: dict | None = None,
              **kwargs) -> dict:
        url = f"{self.base_url}/{self.version}/{path}"
        try:
            answer = self._http.request(method, url, headers={**(headers or {}), "Authorization": f"{scheme} {token}"},
                                        timeout=self.timeout, **kwargs)
        except requests.RequestException as exc:
            raise _transport_error(exc) from exc
        if answer.status_code >= 400:
            raise _error_from(answer)
        try:
            return answer.json()
        except ValueError:
            raise GraphError(answer.status_code, 1, "The network answered something that is not JSON.") from None


    def _post_json(self, path: str, token: str, body: dict) -> dict:
        """`_call("POST", path, token, json=body)` on libcurl (the messages' hot path), with the same
        answers and errors.

        Never twice: libcurl silently sends a request again on a fresh connection when a kept-alive
        one dies before any answer, but the network may have acted on the first. Each request's
        start is counted (PREREQFUNCTION), a second one is refused, and the failure says the message
        may have been delivered; with none counted, it never left."""
        import pycurl  # on the first message, not at start (appliance/libcurl.py says why)

        handle = _handle()
        answer = bytearray()
        started = 0

        def before_request(*_connection) -> int:
            nonlocal started
            started += 1
            return pycurl.PREREQFUNC_OK if started == 1 else pycurl.PREREQFUNC_ABORT

        handle.setopt(pycurl.URL, f"{self.base_url}/{self.version}/{path}")
        handle.setopt(pycurl.POSTFIELDS, json.dumps(body).encode())
        handle.setopt(pycurl.HTTPHEADER, libcurl.header_lines(
            {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}))
        handle.setopt(pycurl.TIMEOUT_MS, max(1, int(self.timeout * 1000)))  # the whole call, connecting included
        handle.setopt(pycurl.WRITEFUNCTION, answer.extend)
        handle.setopt(pycurl.PREREQFUNCTION, before_request)
        try:
            handle.perform()
        except pycurl.error as exc:
            code, message = exc.args
            raise _transport_failure(exc, timed_out=code == pycurl.E_OPERATION_TIMEDOUT, never_sent=started == 0,
                                     what=message or f"libcurl error {code}") from None
        status = handle.getinfo(pycurl.RESPONSE_CODE)
        if status >= 400:
            raise _error_from_body(status, bytes(answer))
        try:
            return json.loads(answer)
        except ValueError:
            raise GraphError(status, 1, "The network answered something that is not JSON.") from None


class _MultipartBody:
    """A multipart/form-data body of some fields and one file, read piece by piece as requests sends
    it (its length known, so it goes with a Content-Length, not chunked)."""

    def __init__(self, fields: dict[str, str], name: str, filename: str, mime_type: str, file: BinaryIO):
        boundary = uuid.uuid4().hex
        quoted = filename.replace("\\", "_").replace('"', "_").replace("\r", "_").replace("\n", "_")
        head = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
                        for key, value in fields.items())
        head += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{quoted}"\r\n'
                 f"Content-Type: {mime_type}\r\n\r\n").encode()
        tail = f"\r\n--{boundary}--\r\n".encode()
        file.seek(0, io.SEEK_END)
        size = file.tell()
        file.seek(0)
        self.content_type = f"multipart/form-data; boundary={boundary}"
        self._length = len(head) + size + len(tail)
        self._parts = [io.BytesIO(head), file, io.BytesIO(tail)]

    def __len__(self) -> int:
        return self._length

    def __iter__(self):  # requests sends a body that iterates as a stream; it is read through read()
        return iter(lambda: self.read(64 * 1024), b"")

    def read(self, size: int = -1) -> bytes:
        pieces = []
        while self._parts and (size < 0 or size > 0):
            piece = self._parts[0].read(size)
            if not piece:
                self._parts.pop(0)
                continue
            pieces.append(piece)
            size -= len(piece) if size > 0 else 0
            if size == 0:
                break
        return b"".join(pieces)


_local = threading.local()
_shared: pycurl.CurlShare | None = None  # made with the first handle
_sharing = threading.Lock()


def _handle() -> pycurl.Curl:
    """This thread's handle (a handle is used by one thread at a time)."""
    handle = getattr(_local, "handle", None)
    if handle is None:
        import pycurl

        handle = _local.handle = libcurl.new_handle()
        handle.setopt(pycurl.SHARE, _share())
    return handle


def _share() -> pycurl.CurlShare:
    """Kept-alive connections, resolved names and TLS sessions belong to the process, not to a thread:
    a sending lane's worker threads end when the number goes quiet, and the next burst's threads find
    the connections open (no new TLS handshake with the network). pycurl locks the share itself."""
    import pycurl

    global _shared
    with _sharing:
        if _shared is None:
            _shared = pycurl.CurlShare()
            for data in (pycurl.LOCK_DATA_CONNECT, pycurl.LOCK_DATA_DNS, pycurl.LOCK_DATA_SSL_SESSION):
                _shared.setopt(pycurl.SH_SHARE, data)
        return _shared


def _id(value: str) -> str:
    """Graph ids are digits (or `wamid.`-like tokens for media); refuse path tricks early."""
    text = str(value)
    if not text or "/" in text or "?" in text or "#" in text or ".." in text:
        raise ValueError(f"not a Graph id: {value!r}")
    return text


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _transport_error(exc: requests.RequestException) -> GraphError:
    return _transport_failure(exc, timed_out=isinstance(exc, requests.Timeout), never_sent=_never_sent(exc))


def _transport_failure(exc: Exception, *, timed_out: bool, never_sent: bool, what: str | None = None) -> GraphError:
    """No answer from the network (from requests or libcurl): retryable, and whether the request
    may have reached it (then a message is not sent again)."""
    kind = "timed out" if timed_out else "could not be reached"
    return GraphError(0, TRANSPORT_ERROR, f"The network {kind}: {what or exc.__class__.__name__}",
                      maybe_delivered=not never_sent)


def _never_sent(exc: requests.RequestException) -> bool:
    """Failures before the request left: no connection could be made at all."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(exc, requests.ConnectionError) and isinstance(reason, urllib3.exceptions.NewConnectionError)


def _error_from(answer: requests.Response) -> GraphError:
    return _error_from_body(answer.status_code, answer.content)


def _error_from_body(status: int, content: bytes) -> GraphError:
    try:
        body = json.loads(content)
    except ValueError:
        body = {}
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        # A proxy's HTML page, an empty 502...: no Graph code to go by, only the status.
        return GraphError(status, 1 if status < 500 else 2,
                          f"HTTP {status} without a Graph error body", body=body if isinstance(body, dict) else {})
    data = error.get("error_data") if isinstance(error.get("error_data"), dict) else {}
    code = error.get("code")
    return GraphError(status, code if isinstance(code, int) else 1, str(error.get("message", "")),
                      details=data.get("details"), subcode=error.get("error_subcode"),
                      fbtrace_id=error.get("fbtrace_id"), body=body)
