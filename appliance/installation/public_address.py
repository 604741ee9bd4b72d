"""The installation's public address: where customers, Meta, Google and the team reach the appliance,
and so where every absolute link it writes starts (mails, QR codes, short links, link pages, calendar
feeds, the WhatsApp callback URL, the OAuth issuer and redirects).

- APPLIANCE_BASE_URL, when set, decides (`source: setting`; a PUT is 409 `set_by_environment`);
- else the address the installation's administrator stored (`source: console`, table
  `installation_settings`, name `public_address`);
- else `http://127.0.0.1:<the port actually served>` (`source: default`: the listen address when
  APPLIANCE_HOST names one).

`base_url()` is read when a link is written, never kept by its caller: a change shows in the next
mail or QR code. Its problems (`loopback`, `private_address`, `not_https`) are what keeps customers,
Meta or browsers from using it; the console says them in words wherever such a link is shown.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime
from urllib.parse import urlsplit

from sqlmodel import Session

from appliance.address_rule import normal_host
from appliance.core import clock, runtime
from appliance.core.cache import CommitInvalidatedCache
from appliance.core.errors import Conflict, Invalid
from appliance.installation.models import InstallationSetting

NAME = "public_address"
LOOPBACK, PRIVATE_ADDRESS, NOT_HTTPS = "loopback", "private_address", "not_https"
LOOKUP_SECONDS = 2.0  # a name that does not resolve this fast is judged by its name alone

# Read for every link written: kept 2 s, emptied by a change committed in this process.
_lookups_lock = threading.Lock()  # one lookup of an address at a time, the others wait for its answer
_stored = CommitInvalidatedCache("public_address", watched=(InstallationSetting,), max_entries=8)


@dataclass(frozen=True)
class PublicAddress:
    base_url: str
    source: str  # setting | console | default
    problems: tuple[str, ...]
    checked_at: datetime


def base_url() -> str:
    """Where absolute links start now (no final slash)."""
    settings = runtime.get().settings
    return settings.base_url or _stored_value() or settings.served_url


def url(path: str) -> str:
    """An absolute link to `path` (which starts with /) on the public address."""
    return base_url() + path


def current_problems() -> tuple[str, tuple[str, ...]]:
    """The address links start from now and its problems, for pages that show a link."""
    address = base_url()
    return address, problems_now(address)


def problems_now(address: str) -> tuple[str, ...]:
    """`problems(address)`, looked up at most once a minute (a name may take 2 s to resolve; the
    status page, /metrics and every page with a link ask)."""
    with _lookups_lock:
        return _problems_this_minute(address, int(time.monotonic() // 60))


def look_up(address: str) -> None:
    """What a request about to save `address` calls before its unit's first statement, so the
    lookup never runs while the write lock is held."""
    try:
        problems_now(normalized(address))
    except Invalid:
        pass  # the save says what is wrong


@lru_cache(maxsize=16)
def _problems_this_minute(address: str, _minute: int) -> tuple[str, ...]:
    return problems(address)


def state(session: Session) -> PublicAddress:
    settings = runtime.get().settings
    stored = session.get(InstallationSetting, NAME)
    if settings.base_url:
        address, source = settings.base_url, "setting"
    elif stored is not None:
        address, source = stored.value, "console"
    else:
        address, source = settings.served_url, "default"
    return PublicAddress(base_url=address, source=source, problems=problems_now(address), checked_at=clock.now())


def check_save(session: Session, *, user_id: str, address: str) -> PublicAddress:
    """Stores the public address the administrator gives (the installation admin check is the
    caller's). 400 `invalid_base_url` unless an absolute http(s) URL without path, query or
    fragment; 409 `set_by_environment` while APPLIANCE_BASE_URL decides."""
    if runtime.get().settings.base_url:
        raise Conflict("APPLIANCE_BASE_URL decides the public address: change it there.", code="set_by_environment")
    address = normalized(address)
    row = session.get(InstallationSetting, NAME)
    if row is None:
        row = InstallationSetting(name=NAME, value=address, updated_at=clock.now())
        session.add(row)
    row.value, row.updated_by_user_id, row.updated_at = address, user_id, clock.now()
    session.flush()
    return state(session)


def normalized(address: str) -> str:
    """`scheme://host[:port]` from what a person typed (a final slash is forgiven), or 400."""
    text = (address or "").strip()
    if text.endswith("/") and text.count("/") == 3:
        text = text[:-1]
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        parts, port = None, None
    problem = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        problem = "An absolute address starting with https:// (or http://) and a host name."
    elif parts.path or parts.query or parts.fragment or "?" in text or "#" in text:
        problem = "Only the scheme, the host and a port: no path, query or fragment."
    elif parts.username or parts.password:
        problem = "No user name or password in the address."
    elif len(text) > 300:
        problem = "At most 300 characters."
    if problem:
        raise Invalid(f"That is not an address the appliance can be reached at: {problem}", code="invalid_base_url",
                      errors={"baseUrl": [problem]})
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def problems(address: str) -> tuple[str, ...]:
    """What keeps others from using the address: `not_https` (Meta calls only https callbacks;
    browsers give service workers, passkeys and the clipboard only to secure origins), `loopback`
    (reaches only this machine) and `private_address` (reaches only this network)."""
    parts = urlsplit(address)
    found = [] if parts.scheme == "https" else [NOT_HTTPS]
    kinds = {_kind(address) for address in _addresses(normal_host(parts.hostname or ""))}
    if LOOPBACK in kinds:
        found.append(LOOPBACK)
    elif PRIVATE_ADDRESS in kinds:
        found.append(PRIVATE_ADDRESS)
    return tuple(found)


def _addresses(host: str) -> list[str]:
    """The host itself when it is an address; else what its name resolves to, looked up at most
    LOOKUP_SECONDS (a name of a network without DNS here is judged by the name: `localhost` and
    `*.localhost` are loopback, `*.local`, `*.lan`, `*.internal`, `*.home.arpa` private)."""
    try:
        ipaddress.ip_address(host)
        return [host]
    except ValueError:
        pass
    if host == "localhost" or host.endswith(".localhost"):
        return ["127.0.0.1"]
    if host.endswith((".local", ".lan", ".internal", ".home.arpa")) or "." not in host:
        return ["10.0.0.1"]  # a name only a local network knows
    found: list[str] = []

    def look_up():
        try:
            found.extend(info[4][0].split("%", 1)[0] for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError):
            pass

    lookup = threading.Thread(target=look_up, daemon=True, name="public-address-lookup")
    lookup.start()
    lookup.join(LOOKUP_SECONDS)
    return list(found) if not lookup.is_alive() else []


def _kind(address: str) -> str | None:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback or ip.is_unspecified:
        return LOOPBACK
    if ip.is_private or ip.is_link_local or ip in _SHARED:
        return PRIVATE_ADDRESS
    return None


_SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT: not reachable from outside either


def _stored_value() -> str | None:
    key = str(runtime.get().settings.database_path)  # tests run many databases in one process
    generation = _stored.generation
    value = _stored.get(key)
    if value is None:
        with runtime.get().db.unit_of_work(write=False) as session:
            row = session.get(InstallationSetting, NAME)
            value = row.value if row is not None else ""
        _stored.put(key, value, generation=generation)
    return value or None
