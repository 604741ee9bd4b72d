"""The rule on the addresses the appliance reaches for a tenant (AI providers' base URLs, outbound
webhooks, knowledge pages, push endpoints), and connections that keep it. Imports nothing of the
appliance: the protocol clients take an `AddressRule` as a parameter, and installation/addresses.py
builds the installation's.

An address must be public: loopback, private, link-local (169.254.0.0/16: the clouds' metadata
service; fe80::/10), shared, multicast, reserved and unspecified addresses are refused, and so are
the appliance's own addresses, unless the URL's origin is on the installation's list of allowed
private servers (`scheme://host[:port]`; without a port, any port of that host; a host written as
an address also allows whatever name reaches that address). A URL is checked when it is saved
(every address its name resolves to) and again at each connection: the connection goes to the
address just checked, never to a second lookup of the name, so a name that resolves elsewhere a
moment later (DNS rebinding) reaches nothing new. A redirect is a new URL, checked the same way by
those who follow one (knowledge pages); push and webhooks follow none.

Refused before anything is sent, with one sentence whatever listens there: a refused address says
nothing about which ports are open.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
import urllib3
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.timeout import _DEFAULT_TIMEOUT

DEFAULT_PORTS = {"http": 80, "https": 443}
# NAT64's well-known prefix carries an IPv4 address in its last 32 bits: on a network with a NAT64
# gateway, 64:ff9b::a00:1 is 10.0.0.1.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")

Origin = tuple[str, str, "int | None"]  # (scheme, host, port or None: any port), as settings.parse_origins gives


class NotAllowed(ValueError):
    """The URL, or an address its name resolves to, is not one the appliance may reach for a tenant.
    (Not an OSError: the HTTP libraries pass it through instead of calling it a network failure.)"""


def normal_host(host: str) -> str:
    """A host as the rule compares them: lower case, without brackets or a final dot."""
    return host.strip("[]").rstrip(".").lower()


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif ip in _NAT64:
            ip = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip.is_global and not ip.is_multicast


def _address(host: str) -> str | None:
    """The host as an IP address (normalised), or None for a name."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return None


@dataclass(frozen=True)
class AddressRule:
    """Frozen and hashable: the connection pools built for a rule are kept per rule."""

    allowed: frozenset = frozenset()  # Origins reached whatever their address
    # (scheme, host, port, path prefix): URLs under one are reached whatever their address (the
    # sandbox's AI double on the server itself); the host is compared as written, never by address.
    prefixes: frozenset = frozenset()
    own: frozenset = frozenset()  # the appliance's own addresses (public ones too)
    everything: bool = False  # every address allowed (APPLIANCE_KNOWLEDGE_ALLOW_PRIVATE_URLS, for knowledge pages)

    # URLs ---------------------------------------------------------------------------------------

    def check_url(self, url: str, *, base: bool = False) -> tuple[str, str, int]:
        """The URL's scheme, host and port, once its form is one the appliance may reach: http(s),
        a host, no user name or password, and for a `base` (an address clients append paths to) no
        `#` or `?` (either would cut off the path a client appends: the oldest trick to pick any
        path of a server). Under an allowed prefix's origin, only paths under the prefix. No lookup
        here: `check_reachable` and the connections do that."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            raise NotAllowed("The address is not a valid URL.") from None
        if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
            raise NotAllowed("Only http:// and https:// addresses with a host can be reached.")
        if parts.username is not None or parts.password is not None:
            raise NotAllowed("Put no user name or password in the address.")
        if any(c <= " " or c in "\\\x7f" for c in url):
            raise NotAllowed("The address may not contain spaces, control characters or backslashes.")
        if base and ("#" in url or "?" in url):
            raise NotAllowed("A server's address may not carry a # or a ? part: the paths are added to it.")
        host, port = normal_host(parts.hostname), port or DEFAULT_PORTS[parts.scheme]
        for scheme, prefix_host, prefix_port, path in self.prefixes:
            if (scheme, prefix_host, prefix_port) == (parts.scheme, host, port) and \
                    not self._listed(scheme, host, port, None):
                segments = parts.path.split("/")
                if not parts.path.startswith(path) or ".." in segments or "." in segments or "%" in parts.path:
                    raise NotAllowed(self._sentence(host))
        return parts.scheme, host, port

    def check_reachable(self, url: str, *, base: bool = False) -> None:
        """`check_url`, then every address the name resolves to (NotAllowed). A name that does not
        resolve now passes: it is looked up again, and checked, at each connection."""
        scheme, host, port = self.check_url(url, base=base)
        try:
            self.addresses(scheme, host, port)
        except (socket.gaierror, UnicodeError):
            pass

    def lists(self, url: str) -> bool:
        """Whether the installation allows the URL's origin by name (its list of private servers)."""
        scheme, host, port = self.check_url(url)
        return self._listed(scheme, host, port, _address(host))

    # Addresses ----------------------------------------------------------------------------------

    def refusal(self, scheme: str, host: str, port: int, address: str) -> str | None:
        """Why a connection for scheme://host:port may not go to `address`; None: it may."""
        host = normal_host(host)
        if self._allows(scheme, host, port, address):
            return None
        if not is_public(address) or address.split("%", 1)[0] in self.own:
            return self._sentence(host)
        return None

    def addresses(self, scheme: str, host: str, port: int) -> list[tuple]:
        """getaddrinfo's answers for the host, every one of them allowed (NotAllowed otherwise):
        a name with one private address among public ones is refused, whichever a client would
        have tried first. Raises socket.gaierror for a name that does not resolve."""
        host = normal_host(host)
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        for info in found:
            refused = self.refusal(scheme, host, port, info[4][0])
            if refused is not None:
                raise NotAllowed(refused)
        return found

    def _allows(self, scheme: str, host: str, port: int, address: str | None) -> bool:
        return self._listed(scheme, host, port, address) or any((scheme, host, port) == p[:3] for p in self.prefixes)

    def _listed(self, scheme: str, host: str, port: int, address: str | None) -> bool:
        """Allowed by the installation: every address, or the origin on its list."""
        if self.everything:
            return True
        address = _address(address.split("%", 1)[0]) if address else None
        for allowed_scheme, allowed_host, allowed_port in self.allowed:
            if allowed_scheme == scheme and allowed_port in (None, port) and (
                    allowed_host == host or (address is not None and _address(allowed_host) == address)):
                return True
        return False

    @staticmethod
    def _sentence(host: str) -> str:
        return (f"{host} is not a public address (private, loopback, link-local, reserved or this appliance's own): "
                "only public servers can be reached, unless the installation's administrator allows it among the "
                "private servers.")


# Connections that keep the rule (urllib3, and requests over it) -----------------------------------

def _connect(rule: AddressRule, scheme: str, host: str, port: int, timeout, source_address, socket_options):
    """urllib3's create_connection, over the addresses the rule allowed (looked up once, here)."""
    error = None
    for family, socktype, proto, _, address in rule.addresses(scheme, host, port):
        sock = None
        try:
            sock = socket.socket(family, socktype, proto)
            for option in socket_options or ():
                sock.setsockopt(*option)
            if timeout is not _DEFAULT_TIMEOUT:
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(address)
            return sock
        except OSError as exc:
            error = exc
            if sock is not None:
                sock.close()
    raise error if error is not None else OSError("getaddrinfo returned no address")


class _Guarded:
    """A urllib3 connection whose socket goes only to an address its rule allows."""

    scheme = "http"

    def __init__(self, *args, address_rule: AddressRule, **kwargs):
        self.address_rule = address_rule
        super().__init__(*args, **kwargs)

    def _new_conn(self) -> socket.socket:  # urllib3's, with the lookup and the connect of `_connect`
        try:
            return _connect(self.address_rule, self.scheme, self._dns_host, self.port, self.timeout,
                            self.source_address, self.socket_options)
        except socket.gaierror as exc:
            raise NameResolutionError(self.host, self, exc) from exc
        except TimeoutError as exc:
            raise ConnectTimeoutError(self, f"Connection to {self.host} timed out.") from exc
        except OSError as exc:
            raise NewConnectionError(self, f"Failed to establish a new connection: {exc}") from exc


class _GuardedHTTPConnection(_Guarded, HTTPConnection):
    scheme = "http"


class _GuardedHTTPSConnection(_Guarded, HTTPSConnection):
    scheme = "https"


class GuardedHTTPConnectionPool(HTTPConnectionPool):
    """Takes `address_rule=` with the pool's other arguments."""
    ConnectionCls = _GuardedHTTPConnection


class GuardedHTTPSConnectionPool(HTTPSConnectionPool):
    ConnectionCls = _GuardedHTTPSConnection


class GuardedPoolManager(urllib3.PoolManager):
    """A PoolManager whose every connection keeps `rule`."""

    def __init__(self, rule: AddressRule, **kwargs):
        super().__init__(**kwargs)
        self.address_rule = rule
        self.pool_classes_by_scheme = {"http": GuardedHTTPConnectionPool, "https": GuardedHTTPSConnectionPool}

    def _new_pool(self, scheme, host, port, request_context=None):
        # The pool key's fields are fixed: the rule rides in the connections' keywords instead.
        pool = super()._new_pool(scheme, host, port, request_context)
        pool.conn_kw = {**pool.conn_kw, "address_rule": self.address_rule}
        return pool


class PoolsByRule:
    """One GuardedPoolManager per rule (the few rules a process sees), so kept-alive connections
    are shared by every call made under the same rule; a changed rule gets fresh connections."""

    def __init__(self, keep: int = 4, **pool_kwargs):
        self._keep, self._kwargs = keep, pool_kwargs
        self._pools: OrderedDict[AddressRule, GuardedPoolManager] = OrderedDict()
        self._lock = threading.Lock()

    def for_rule(self, rule: AddressRule) -> GuardedPoolManager:
        with self._lock:
            pools = self._pools.get(rule)
            if pools is None:
                pools = self._pools[rule] = GuardedPoolManager(rule, **self._kwargs)
                while len(self._pools) > self._keep:
                    self._pools.popitem(last=False)[1].clear()
            self._pools.move_to_end(rule)
            return pools


class _GuardedAdapter(requests.adapters.HTTPAdapter):
    def __init__(self, rule: AddressRule, **kwargs):
        self.address_rule = rule
        super().__init__(**kwargs)

    def init_poolmanager(self, connections, maxsize, block=False, **pool_kwargs):
        self._pool_connections, self._pool_maxsize, self._pool_block = connections, maxsize, block
        self.poolmanager = GuardedPoolManager(self.address_rule, num_pools=connections, maxsize=maxsize, block=block,
                                              **pool_kwargs)


class _NoRedirects(requests.Session):
    def request(self, method, url, **kwargs):
        kwargs["allow_redirects"] = False  # a redirect is an answer: its target was never checked
        return super().request(method, url, **kwargs)


def requests_session(rule: AddressRule) -> requests.Session:
    """A requests Session that keeps the rule, follows no redirect and takes no proxy from the
    environment (for libraries that take a session: pywebpush)."""
    session = _NoRedirects()
    session.trust_env = False
    for prefix in ("http://", "https://"):
        session.mount(prefix, _GuardedAdapter(rule))
    return session
