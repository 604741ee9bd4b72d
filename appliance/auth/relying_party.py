"""Who the appliance is to a passkey: the WebAuthn relying party, read from the public address
(installation/public_address.py) when a ceremony starts, never kept.

Browsers run WebAuthn only in a secure context, and a relying party id must be a host name:
- `https://host[:port]` -> id `host`, origin the address itself;
- `http://localhost[:port]` (or `*.localhost`) -> the same: browsers count localhost as secure;
- `http://127.0.0.1:port` or `http://[::1]:port`, the address of an appliance nobody set one for ->
  id `localhost`, origin `http://localhost:port`: the same server, at the name a browser accepts
  (an IP address is never a relying party id);
- anything else (http on another host, https on an IP address): no passkeys, with the reason.

A page is offered passkeys only when it was itself opened at that origin: a ceremony started
elsewhere would fail the origin check anyway, so it is hidden and the page says where to go (or,
for a localhost relying party seen from another computer, only that passkeys need https or localhost).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from appliance.installation import public_address

# Why passkeys are not offered (the pages word each one).
NOT_SECURE = "not_secure"  # the public address is http on a host other than localhost
IP_ADDRESS = "ip_address"  # https on a bare IP address: no relying party id
OTHER_ORIGIN = "other_origin"  # this page was opened at another address than the relying party's
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class RelyingParty:
    id: str
    origin: str


@dataclass(frozen=True)
class Availability:
    """Whether a page opened at some origin may run passkey ceremonies; if not, why, and where they
    would work (`origin`, None when nowhere)."""

    offered: bool
    reason: str | None
    origin: str | None


def origin_of(url: str) -> str:
    """`scheme://host[:port]` as a browser writes an origin: host lower-cased, default port left out."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port and port != _DEFAULT_PORTS.get(scheme) else "")


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _is_localhost_name(host: str) -> bool:
    return host == "localhost" or host.endswith(".localhost")


def _is_loopback(host: str) -> bool:
    return _is_localhost_name(host) or (_is_ip(host) and ipaddress.ip_address(host).is_loopback)


def _read(address: str) -> tuple[RelyingParty | None, str | None]:
    origin = origin_of(address)
    parts = urlsplit(origin)
    host = (parts.hostname or "").lower()
    if parts.scheme == "https":
        return (None, IP_ADDRESS) if _is_ip(host) else (RelyingParty(host, origin), None)
    if _is_localhost_name(host):
        return RelyingParty(host, origin), None
    if _is_loopback(host):
        return RelyingParty("localhost", origin_of(f"http://localhost:{parts.port or 80}")), None
    return None, NOT_SECURE


def current() -> RelyingParty | None:
    """The relying party of the public address now, or None where browsers allow no passkeys."""
    return _read(public_address.base_url())[0]


def availability(page_origin: str) -> Availability:
    """Whether a page opened at `page_origin` offers passkeys."""
    party, reason = _read(public_address.base_url())
    if party is None:
        return Availability(False, reason, None)
    page = origin_of(page_origin)
    if page == party.origin:
        return Availability(True, None, party.origin)
    if _is_localhost_name(party.id) and not _is_loopback(urlsplit(page).hostname or ""):
        # localhost is the reader's own computer: from another one, no link would lead here.
        return Availability(False, NOT_SECURE, None)
    return Availability(False, OTHER_ORIGIN, party.origin)
