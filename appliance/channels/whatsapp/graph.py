"""The process's Graph API client, built from the settings (client.py itself knows no settings)."""

from __future__ import annotations

from functools import cache

from appliance.channels.whatsapp.client import GraphClient, GraphError
from appliance.channels.whatsapp.errors import explain
from appliance.core import runtime
from appliance.core.errors import AppError, Invalid, Unavailable


@cache
def _client(base_url: str, version: str, timeout: float) -> GraphClient:
    return GraphClient(base_url, version, timeout=timeout)


def graph_client() -> GraphClient:
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
