"""The connection to the WhatsApp network, which business accounts own (with its tokens): the
process's Graph client built from the settings (`graph_api` itself knows none), and what a refusal
means to the person whose request asked it. Every domain that calls Graph (accounts, numbers,
templates, messages) comes here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from appliance.core import runtime
from appliance.core.errors import AppError, Invalid, Unavailable
from appliance.graph_api.client import GraphClient, GraphError
from appliance.graph_api.errors import explain


@cache
def _client(base_url: str, version: str, timeout: float) -> GraphClient:
    return GraphClient(base_url, version, timeout=timeout)


@dataclass(frozen=True)
class _SimulatedNetwork:
    owns_token: Callable[[str], bool]
    graph_url: str


_simulated: _SimulatedNetwork | None = None


def route_simulated_tokens(owns_token: Callable[[str], bool] | None, graph_url: str | None = None) -> None:
    """The sandbox (appliance/sandbox) registers its in-process simulator: a call made with a token
    it issued goes there, whatever network the installation talks to, so a sandbox organization
    works on a real server without a restart. The simulator's tokens exist nowhere else, so routing
    by token is exact. None: forget it."""
    global _simulated
    _simulated = _SimulatedNetwork(owns_token, graph_url) if owns_token and graph_url else None


class _ByToken:
    """A GraphClient's face (every call takes the token first) over two networks."""

    def __init__(self, real: GraphClient, simulated: GraphClient, owns_token: Callable[[str], bool]):
        self._real, self._simulated, self._owns_token = real, simulated, owns_token

    def __getattr__(self, name: str):
        def call(token: str, *args, **kwargs):
            client = self._simulated if self._owns_token(token) else self._real
            return getattr(client, name)(token, *args, **kwargs)
        return call


def graph_client() -> GraphClient:
    """The process's Graph API client, from the settings of the installed runtime (and the
    sandbox's simulator for the tokens it issued)."""
    settings = runtime.get().settings
    real = _client(settings.graph_api_url, settings.graph_api_version, settings.graph_timeout_seconds)
    simulated = _simulated
    if simulated is None or simulated.graph_url == settings.graph_api_url:
        return real
    return _ByToken(real, _client(simulated.graph_url, settings.graph_api_version, settings.graph_timeout_seconds),
                    simulated.owns_token)  # type: ignore[return-value]


def as_app_error(error: GraphError, *, what: str) -> AppError:
    """A Graph failure during a person's request, as an answer they can act on. Meta's code and
    details travel along (`graphCode`, `graphDetails`), with what to do in English and Spanish
    (`guidance`, from data/network_errors.json)."""
    extra = {"graphCode": error.code, "graphDetails": error.details, "guidance": explain(error.code).guidance}
    if error.retryable:
        return Unavailable(f"The WhatsApp network did not answer {what}; try again in a moment.",
                           code="graph_unavailable", **extra)
    if error.code == 190:
        return Invalid(f"The WhatsApp network refused the access token {what} (code 190): it is invalid or "
                       "expired. Create a new system-user token in Meta Business Manager.",
                       code="graph_token_invalid", **extra)
    if error.code in (10, 200, 3) or 200 <= error.code <= 299:
        return Invalid(f"The access token lacks a permission {what} (code {error.code}): it needs "
                       "whatsapp_business_management and whatsapp_business_messaging.",
                       code="graph_permission_denied", **extra)
    if error.code in (100, 33):
        return Invalid(f"The WhatsApp network does not know that id {what} (code {error.code}).",
                       code="graph_object_not_found", **extra)
    return Invalid(f"The WhatsApp network refused {what} (code {error.code}): {error.message}",
                   code="graph_refused", **extra)
