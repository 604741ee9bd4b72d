"""The installation's rule on the addresses the appliance reaches for organizations, as it stands
now (the rule itself, and the connections that keep it, are appliance/address_rule.py's):

- the allowed private servers: APPLIANCE_ALLOWED_PRIVATE_URLS when it is set, else the list the
  installation's administrator keeps in the console (table `allowed_private_servers`; the
  environment wins, as it does for the mail server);
- the sandbox's AI double on this server, while the sandbox is on (sandbox.start says where it
  is; this is the one place that decides when it counts), and only the double's paths;
- the appliance's own addresses (its public address's and its listen address's), refused like
  private ones.

Services check a tenant's URL when it is saved (`check_url`: 400 `url_not_allowed`); the clients
check every connection against `rule()`, so a URL saved before a change, or a name that resolves
elsewhere later, is refused when it is used.
"""

from __future__ import annotations

import socket
import time
from functools import lru_cache
from urllib.parse import urlsplit

from sqlmodel import Session, select

from appliance.address_rule import DEFAULT_PORTS, AddressRule, NotAllowed, normal_host
from appliance.core import runtime
from appliance.core.cache import CommitInvalidatedCache
from appliance.core.errors import Invalid
from appliance.installation.models import AllowedPrivateServer
from appliance.settings import parse_origins
from appliance.installation import public_address

URL_NOT_ALLOWED = "url_not_allowed"
OWN_ADDRESSES_SECONDS = 300  # how long the addresses of the appliance's own names are kept


# Read for every connection's rule: kept 2 s, and emptied by a change committed in this process.
_stored = CommitInvalidatedCache("allowed_private_servers", watched=(AllowedPrivateServer,), max_entries=8)
_sandbox_ai_double: tuple[str, str, int, str] | None = None
RULE_SECONDS = 1.0
_rules: dict[tuple, tuple[float, AddressRule]] = {}


def note_sandbox_ai_double(url: str) -> None:
    """Where this server serves the sandbox's AI double (its path prefix): reached, while the
    sandbox is on, though it is this machine's own loopback address."""
    global _sandbox_ai_double
    parts = urlsplit(url)
    _sandbox_ai_double = (parts.scheme, normal_host(parts.hostname or ""), parts.port or DEFAULT_PORTS[parts.scheme],
                          parts.path.rstrip("/") + "/")


def rule(*, everything: bool = False) -> AddressRule:
    """The rule now; `everything`: every address allowed (knowledge pages with
    APPLIANCE_KNOWLEDGE_ALLOW_PRIVATE_URLS). Every webhook POST asks: the rule made is kept while
    the settings object, the stored list's cache generation and the sandbox's double are the same,
    and at most RULE_SECONDS (building it again cost ~13 µs, a fifth of a POST's)."""
    settings = runtime.get().settings
    key = (settings, _stored.generation, everything, _sandbox_ai_double)  # settings: by identity
    now = time.monotonic()
    kept = _rules.get(key)
    if kept is not None and kept[0] > now:
        return kept[1]
    sandbox = settings.sandbox and _sandbox_ai_double is not None
    made = AddressRule(allowed=allowed_origins(), prefixes=frozenset({_sandbox_ai_double}) if sandbox else frozenset(),
                       own=_own_addresses(public_address.base_url(), settings.served_url, int(now // OWN_ADDRESSES_SECONDS)),
                       everything=everything)
    if len(_rules) > 8:
        _rules.clear()
    _rules[key] = (now + RULE_SECONDS, made)
    return made


def check_url(url: str, *, field: str, base: bool = False, everything: bool = False) -> str:
    """A URL a tenant saves, checked now (every address its name resolves to): 400
    `url_not_allowed` with the rule's sentence. `base`: an address clients append paths to (no
    query). Call it before the unit of work's first statement: a lookup may take seconds, and
    no write lock should wait for it."""
    url = url.strip()
    try:
        rule(everything=everything).check_reachable(url, base=base)
    except NotAllowed as refused:
        raise Invalid(str(refused), code=URL_NOT_ALLOWED, errors={field: [str(refused)]}) from None
    return url


def listed(url: str) -> bool:
    """Whether the URL's origin is one of the allowed private servers (where plain http may do)."""
    try:
        return rule().lists(url)
    except NotAllowed:
        return False


# The allowed private servers ----------------------------------------------------------------------

def from_environment() -> bool:
    """Whether APPLIANCE_ALLOWED_PRIVATE_URLS decides (the console's list then does not count)."""
    return bool(runtime.get().settings.allowed_private_urls)


def allowed_origins() -> frozenset:
    settings = runtime.get().settings
    if settings.allowed_private_urls:
        return settings.allowed_private_urls
    key = str(settings.database_path)  # tests run many databases in one process
    generation = _stored.generation
    origins = _stored.get(key)
    if origins is None:
        with runtime.get().db.unit_of_work(write=False) as session:
            origins = parse_origins(",".join(stored(session)))
        _stored.put(key, origins, generation=generation)
    return origins


def stored(session: Session) -> list[str]:
    """The console's list, as its administrator wrote it (normalised)."""
    return list(session.exec(select(AllowedPrivateServer.origin).order_by(AllowedPrivateServer.origin)).all())


def origin_text(origin: tuple) -> str:
    scheme, host, port = origin
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}" + (f":{port}" if port is not None else "")


@lru_cache(maxsize=8)
def _own_addresses(base_url: str, served_url: str, _period: int) -> frozenset:
    """The addresses the appliance's public address and its listen address resolve to (looked up
    again every OWN_ADDRESSES_SECONDS: `_period` is the key that moves)."""
    found = set()
    for url in (base_url, served_url):
        host = urlsplit(url).hostname
        if not host:
            continue
        try:
            found.update(info[4][0].split("%", 1)[0]
                         for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError):
            pass
    return frozenset(found)
