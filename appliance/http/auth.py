"""Who is calling, as views read it: the actor that `appliance.callers` resolved before the view
(every view is closed unless marked `@blp.public`), and the client's address and device."""

from __future__ import annotations

from flask import g, request

from appliance.core.actor import Actor, OrgActor, TokenGrant


def current_actor() -> Actor:
    """The authenticated caller of this request (views only run once one is known)."""
    return g.actor


def current_org_actor() -> OrgActor:
    """The caller inside the organization of the path, for routes declared with `requires`."""
    return g.org_actor


def current_oauth_grant() -> TokenGrant:
    """What the OAuth access token of this request was granted (routes that accept one)."""
    return g.oauth_grant


def client_ip() -> str:
    return request.remote_addr or "unknown"


def client_device() -> str:
    return (request.user_agent.string or "unknown device")[:300]
