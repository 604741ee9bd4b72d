"""What every provider's client takes and gives back, and the one error it raises.

A conversation is a system prompt and messages (`user`, `assistant` with optional tool calls,
`tool` results); tools are JSON-schema functions. An answer is text and/or tool calls, with the
token counts the provider reported. Failures are `ProviderError`, whose `kind` says what to do
and whose message is a sentence of ours a person can act on: never the provider's own words (a
base URL is a tenant's choice, and whatever answers there must not be read back through us), and
never a secret.

Every call keeps an `AddressRule` (appliance/address_rule.py), given by the caller: the URL is
checked before the call and each new connection's address as it is opened.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import urllib3

from appliance.address_rule import AddressRule, NotAllowed, PoolsByRule

# What a failure means to the caller: fix the key, wait, fix the request, or try later.
AUTH, RATE_LIMITED, UNAVAILABLE, TIMEOUT, BAD_REQUEST, NOT_FOUND, BAD_ANSWER, NOT_ALLOWED = (
    "auth", "rate_limited", "unavailable", "timeout", "bad_request", "not_found", "bad_answer", "url_not_allowed")
KINDS = (AUTH, RATE_LIMITED, UNAVAILABLE, TIMEOUT, BAD_REQUEST, NOT_FOUND, BAD_ANSWER, NOT_ALLOWED)
MAX_RETRY_WAIT = 5.0  # seconds: a Retry-After longer than this is not waited for (the customer is waiting)


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict  # a JSON schema of an object


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict


@dataclass(frozen=True)
class Message:
    role: str  # user | assistant | tool
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()  # an assistant's calls
    tool_call_id: str | None = None  # a tool result answers this call
    name: str | None = None  # the tool a result is of


@dataclass(frozen=True)
class ChatRequest:
    model: str
    messages: tuple[Message, ...]
    system: str = ""
    temperature: float | None = None
    max_tokens: int = 1024
    tools: tuple[Tool, ...] = ()


@dataclass(frozen=True)
class ChatReply:
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: int = 0
    finish: str = ""


class ProviderError(Exception):
    def __init__(self, kind: str, message: str, *, status: int = 0, provider: str = ""):
        super().__init__(message)
        self.kind, self.status, self.provider = kind, status, provider

    @property
    def retryable(self) -> bool:
        return self.kind in (RATE_LIMITED, UNAVAILABLE, TIMEOUT)


class ChatClient(Protocol):
    provider: str

    def chat(self, request: ChatRequest) -> ChatReply: ...

    def list_models(self) -> list[str]: ...


# As many kept connections per provider as answers the AI workers wait on at once (APPLIANCE_AI_WORKERS):
# beyond maxsize urllib3 opens a connection per call and throws it away (a TLS handshake each, to a vendor).
_pools = PoolsByRule(num_pools=16, maxsize=64, retries=False)


@dataclass
class Transport:
    """JSON over HTTP with a timeout and one retry on 429 and 5xx (and on a connection that failed
    before anything was sent). Messages name the provider, never the URL's query (Gemini's key may
    ride there), any header, or what the server answered."""

    provider: str
    addresses: AddressRule
    timeout: float = 30.0
    headers: dict = field(default_factory=dict)

    def request(self, method: str, url: str, body: dict | None = None) -> tuple[dict, int]:
        """The answer's JSON and the milliseconds it took."""
        started = time.monotonic()
        try:
            self.addresses.check_url(url)
        except NotAllowed as refused:
            raise ProviderError(NOT_ALLOWED, str(refused), provider=self.provider) from None
        for attempt in (1, 2):
            try:
                response = _pools.for_rule(self.addresses).request(
                    method, url, body=json.dumps(body).encode() if body is not None else None,
                    headers={"Content-Type": "application/json", "Accept": "application/json", **self.headers},
                    timeout=urllib3.Timeout(connect=min(5.0, self.timeout), read=self.timeout), redirect=False)
            except NotAllowed as refused:  # an address of the name, refused before connecting
                raise ProviderError(NOT_ALLOWED, str(refused), provider=self.provider) from None
            except urllib3.exceptions.NewConnectionError as exc:  # refused or unresolvable: nothing was sent
                if attempt == 1:
                    continue
                raise ProviderError(UNAVAILABLE, f"{self.provider} could not be reached ({_reason(exc)}). Check its "
                                    "address and that the server is running.", provider=self.provider) from None
            except urllib3.exceptions.TimeoutError:  # not repeated: the customer has waited the whole timeout already
                raise ProviderError(TIMEOUT, f"{self.provider} did not answer within {self.timeout:.0f} seconds.",
                                    provider=self.provider) from None
            except urllib3.exceptions.HTTPError as exc:
                if attempt == 1:
                    continue
                raise ProviderError(UNAVAILABLE, f"{self.provider} could not be reached ({_reason(exc)}). Check its "
                                    "address and that the server is running.", provider=self.provider) from None
            if response.status == 429 or response.status >= 500:
                if attempt == 1 and _retry_wait(response) <= MAX_RETRY_WAIT:
                    time.sleep(_retry_wait(response))
                    continue
            if response.status >= 400:
                raise self._refusal(response)
            try:
                answer = json.loads(response.data)
            except ValueError:
                raise ProviderError(BAD_ANSWER, f"{self.provider} answered something that is not JSON.",
                                    status=response.status, provider=self.provider) from None
            if not isinstance(answer, dict):
                raise ProviderError(BAD_ANSWER, f"{self.provider} answered an unexpected shape.", provider=self.provider)
            return answer, int((time.monotonic() - started) * 1000)
        raise AssertionError("unreachable")

    def _refusal(self, response) -> ProviderError:
        """Our sentence for the status: the body is not read back (whatever server the address
        names, its words are not ours to pass on)."""
        status, who = response.status, self.provider
        if status in (401, 403):
            return ProviderError(AUTH, f"{who} refused the API key. Paste a valid key in the provider's settings.",
                                 status=status, provider=who)
        if status == 429:
            return ProviderError(RATE_LIMITED, f"{who} is limiting requests or the account is out of credit. "
                                 "Wait, or raise the plan's limits.", status=status, provider=who)
        if status == 404:
            return ProviderError(NOT_FOUND, f"{who} does not know this model or address. Choose a model it offers, "
                                 "and check the provider's address.", status=status, provider=who)
        if status >= 500:
            return ProviderError(UNAVAILABLE, f"{who} failed on its side (HTTP {status}). Try again later.",
                                 status=status, provider=who)
        return ProviderError(BAD_REQUEST, f"{who} refused the request (HTTP {status}). Check the model and the "
                             "agent's settings.", status=status, provider=who)


def _retry_wait(response) -> float:
    value = response.headers.get("Retry-After", "")
    try:
        return max(0.0, float(value)) if value else 0.5
    except ValueError:
        return MAX_RETRY_WAIT + 1


def _reason(exc: Exception) -> str:
    reason = getattr(exc, "reason", None) or exc
    return reason.__class__.__name__


def number(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def arguments_of(raw: Any) -> dict:
    """A tool call's arguments: an object, or a JSON text of one; anything else is a bad answer."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw or "{}")
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    raise ValueError("tool call arguments are not an object")
