"""Reading a public web page for the knowledge base, with the limits an outside URL deserves.

The installation's rule on addresses (installation/addresses.py, appliance/address_rule.py) decides
where: http(s) only, every address the name resolves to public or on the installation's allowed
private servers (every address with APPLIANCE_KNOWLEDGE_ALLOW_PRIVATE_URLS), and the connection
goes to the address that was checked (the name is only used for TLS and the Host header), so a
name that resolves differently a moment later cannot reach the office network. Redirects are
followed by hand (at most 5), each checked the same way; at most 5 MB is read, and the whole read
has a deadline.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import urllib3

from appliance.address_rule import AddressRule, GuardedHTTPConnectionPool, GuardedHTTPSConnectionPool
from appliance.address_rule import NotAllowed as Refused
from appliance.installation import addresses

MAX_BYTES = 5 * 1024 * 1024
TIMEOUT_SECONDS = 15.0
MAX_REDIRECTS = 5
_READABLE = ("text/html", "application/xhtml+xml", "text/plain", "text/markdown")
USER_AGENT = "appliance-knowledge/1 (+reads pages its owner added to a knowledge base)"


class FetchFailed(Exception):
    """The page could not be read; the message says why in words for the library's status."""


class NotAllowed(FetchFailed):
    """The URL points somewhere the appliance must not go."""


@dataclass(frozen=True)
class Page:
    url: str  # after redirects
    body: bytes | None  # None: not modified since the ETag given
    content_type: str
    etag: str | None


def check_url(url: str, *, allow_private: bool) -> None:
    """Refuse, before anything is stored, a URL that is not http(s) or names a host the appliance may
    not reach (NotAllowed); a name that does not resolve is FetchFailed."""
    _resolve(_rule(allow_private), url)


def _rule(allow_private: bool) -> AddressRule:
    return addresses.rule(everything=allow_private)


def _resolve(rule: AddressRule, url: str) -> tuple[str, str, int]:
    """The URL's scheme, host and port once the rule allows its form and every address of its name."""
    try:
        scheme, host, port = rule.check_url(url)
        rule.addresses(scheme, host, port)
    except Refused as refused:
        raise NotAllowed(str(refused)) from None
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchFailed(f"The name {urlsplit(url).hostname} could not be found ({exc}).") from exc
    return scheme, host, port


def fetch(url: str, *, allow_private: bool, etag: str | None = None) -> Page:
    deadline = time.monotonic() + TIMEOUT_SECONDS
    rule = _rule(allow_private)
    for _ in range(MAX_REDIRECTS + 1):
        scheme, host, port = _resolve(rule, url)
        parts = urlsplit(url)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        headers = {"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1"}
        if etag:
            headers["If-None-Match"] = etag
        remaining = max(0.5, deadline - time.monotonic())
        timeout = urllib3.Timeout(connect=min(5.0, remaining), read=remaining)
        # The pool's connections look the name up again and connect only to addresses the rule allows.
        if scheme == "https":
            pool = GuardedHTTPSConnectionPool(host, port, address_rule=rule, cert_reqs="CERT_REQUIRED",
                                              timeout=timeout, retries=False, maxsize=1)
        else:
            pool = GuardedHTTPConnectionPool(host, port, address_rule=rule, timeout=timeout, retries=False, maxsize=1)
        try:
            response = pool.urlopen("GET", path, headers=headers, redirect=False, preload_content=False,
                                    assert_same_host=False)
            try:
                if response.status in (301, 302, 303, 307, 308) and response.headers.get("Location"):
                    url = urljoin(url, response.headers["Location"])
                    continue
                if response.status == 304:
                    return Page(url, None, "", etag)
                if response.status >= 400:
                    raise FetchFailed(f"The page answered HTTP {response.status}.")
                content_type = (response.headers.get("Content-Type") or "text/html").split(";")[0].strip().lower()
                if content_type not in _READABLE:
                    raise FetchFailed(f"The address is not a web page ({content_type}).")
                declared = response.headers.get("Content-Length")
                if declared and declared.isdigit() and int(declared) > MAX_BYTES:
                    raise FetchFailed("The page is larger than 5 MB.")
                body = _read_limited(response, deadline)
                return Page(url, body, content_type, response.headers.get("ETag"))
            finally:
                response.release_conn()
        except Refused as refused:  # the name resolved elsewhere since it was checked
            raise NotAllowed(str(refused)) from None
        except urllib3.exceptions.HTTPError as exc:
            raise FetchFailed(f"The page could not be reached ({exc.__class__.__name__}).") from exc
        finally:
            pool.close()
    raise FetchFailed("The page redirects too many times.")


def _read_limited(response, deadline: float) -> bytes:
    body = bytearray()
    for piece in response.stream(64 * 1024):
        body.extend(piece)
        if len(body) > MAX_BYTES:
            raise FetchFailed("The page is larger than 5 MB.")
        if time.monotonic() > deadline:
            raise FetchFailed(f"The page took more than {TIMEOUT_SECONDS:.0f} seconds to arrive.")
    return bytes(body)
