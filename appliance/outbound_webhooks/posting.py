"""One POST to a receiver, on the standard library's http.client with a kept-alive connection per
worker thread and receiver: a webhook sender makes a thousand requests a second, and `requests`
spent about three times the CPU per request for features a webhook does not use (redirects are
not followed, no proxy of the environment may see a LAN's integrations, cookies mean nothing).

Answers (status, the first KEPT bytes of the body, error in words). Certificates are verified
against the system's store (a receiver with a self-signed certificate fails, and says so)."""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
from urllib.parse import urlsplit

KEPT = 2048  # bytes of a response kept in the log
_local = threading.local()
_TLS = ssl.create_default_context()


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float) -> tuple[int | None, str | None, str | None]:
    parts = urlsplit(url)
    key = (parts.scheme, parts.hostname, parts.port)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    connections: dict = getattr(_local, "connections", None) or {}
    _local.connections = connections
    reused = key in connections
    for _ in range(2):  # a kept-alive connection the receiver closed meanwhile: once more on a new one
        connection = connections.get(key) or _connect(parts, timeout)
        connections[key] = connection
        try:
            connection.request("POST", path, body=body, headers={**headers, "host": parts.netloc})
            answer = connection.getresponse()
            text = answer.read(KEPT + 1)
            if not answer.isclosed():  # more than we keep: the connection cannot be reused
                connection.close()
                connections.pop(key, None)
            location = answer.getheader("location") if 300 <= answer.status < 400 else None
            said = f"Redirected to {location[:200]} (redirects are not followed)." if location else None
            return answer.status, text[:KEPT].decode("utf-8", "replace"), said
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
            connection.close()
            connections.pop(key, None)
            if not reused:
                return None, None, _in_words(exc)
            reused = False
        except (OSError, http.client.HTTPException) as exc:
            connection.close()
            connections.pop(key, None)
            return None, None, _in_words(exc, timeout)
    return None, None, "The connection failed."


def _connect(parts, timeout: float) -> http.client.HTTPConnection:
    if parts.scheme == "https":
        return http.client.HTTPSConnection(parts.hostname, parts.port, timeout=timeout, context=_TLS)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)


def _in_words(exc: Exception, timeout: float = 0) -> str:
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return f"No answer within {timeout:g} s."
    if isinstance(exc, ConnectionRefusedError):
        return "Connection refused: nothing listens at that address."
    if isinstance(exc, http.client.RemoteDisconnected):
        return "The receiver closed the connection without answering."
    if isinstance(exc, (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
        return "The connection was reset by the receiver."
    if isinstance(exc, http.client.HTTPException):
        return "The receiver answered something that is not HTTP."
    if isinstance(exc, socket.gaierror):
        return "The host name does not resolve."
    if isinstance(exc, ssl.SSLError):
        return f"The secure connection failed: {exc.reason or exc}."[:300]
    return f"The connection failed: {exc}"[:300]
