"""libcurl handles (pycurl) as the appliance makes them for calls on hot paths: a message to the
network, a webhook to a receiver. Why libcurl there: the HTTP, kept-alive connections and waiting
happen in C with the GIL released: ~180 µs of CPU a signed webhook POST against ~290 µs for the
standard library's http.client on threads (tests/bench/bench_posting.py), and a message's call
~0.3 ms less than on urllib3's pool, most of a message's cost at a thousand a second
(docs/architecture.md has the figures). pycurl's wheels carry libcurl and OpenSSL for Linux, macOS
and Windows.

Every handle: http and https only, HTTP/1.1 (APNs' own switches to HTTP/2, all APNs speaks), no
redirects followed, no proxy from the environment (a LAN's integrations and the messages' path are
not for a proxy to see), no signals (handles live on worker threads), certificates checked against
certifi's store and the system's certificate directory where there is one (a business's own CA
installed there is trusted).

pycurl is imported by the functions that make or drive handles, on the first call, not at start:
with its own libcurl and OpenSSL it adds ~10 MB to a server that may not have sent anything yet
(issue 46, footprint)."""

from __future__ import annotations

import os
import ssl
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit, urlunsplit

import certifi

if TYPE_CHECKING:
    import pycurl

_SYSTEM_CERTIFICATES = ssl.get_default_verify_paths().capath


def new_handle() -> pycurl.Curl:
    import pycurl  # on first use (see the module's docstring)

    handle = pycurl.Curl()
    handle.setopt(pycurl.NOSIGNAL, 1)
    handle.setopt(pycurl.PROTOCOLS, pycurl.PROTO_HTTP | pycurl.PROTO_HTTPS)
    handle.setopt(pycurl.FOLLOWLOCATION, 0)
    # HTTP/1.1, as before libcurl: over HTTP/2 libcurl would also resend requests by itself (a
    # GOAWAY's streams), which the messages' never-twice guard would then have to fail as uncertain.
    handle.setopt(pycurl.HTTP_VERSION, pycurl.CURL_HTTP_VERSION_1_1)
    handle.setopt(pycurl.PROXY, "")
    handle.setopt(pycurl.USERAGENT, "appliance")  # not libcurl's list of every library it was built with
    handle.setopt(pycurl.CAINFO, certifi.where())
    if _SYSTEM_CERTIFICATES and os.path.isdir(_SYSTEM_CERTIFICATES):
        handle.setopt(pycurl.CAPATH, _SYSTEM_CERTIFICATES)
    return handle


def header_lines(headers: dict[str, str]) -> list[str]:
    """Request headers as libcurl takes them, without the `Expect: 100-continue` round trip it
    would add before a body over 1 KB."""
    return [f"{name}: {value}" for name, value in headers.items()] + ["Expect:"]


def ascii_url(url: str) -> str:
    """An address as libcurl takes it (ASCII only): an international host name in IDNA (`xn--`), other
    characters of the path and query percent-encoded, as a browser sends them. Raises ValueError
    for a host IDNA cannot spell."""
    if url.isascii():
        return url
    parts = urlsplit(url)
    host = (parts.hostname or "").encode("idna").decode("ascii")
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    if parts.username is not None:
        netloc = quote(parts.username, safe="") + (f":{quote(parts.password, safe='')}" if parts.password else "") + "@" + netloc
    safe = "/%:@!$&'()*+,;=-._~?"
    return urlunsplit((parts.scheme, netloc, quote(parts.path, safe=safe), quote(parts.query, safe=safe), ""))
