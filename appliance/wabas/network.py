"""The connection to the WhatsApp network, which business accounts own (with its tokens): the
process's Graph client built from the settings (`graph_api` itself knows none), and what a refusal
means to the person whose request asked it. Every domain that calls Graph (accounts, numbers,
templates, messages) comes here."""

from __future__ import annotations

from functools import cache

from appliance.core import runtime
from appliance.core.errors import AppError, Invalid, Unavailable
from appliance.graph_api.client import GraphClient, GraphError
from appliance.graph_api.errors import explain


@cache
def _client(base_url: str, version: str, timeout: float) -> GraphClient:
    return GraphClient(base_url, version, timeout=timeout)


def graph_client() -> GraphClient:
    """The process's Graph API client, from the settings of the installed runtime."""
    settings = runtime.get().settings
    return _client(settings.graph_api_url, settings.graph_api_version, settings.graph_timeout_seconds)


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
