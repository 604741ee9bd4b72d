"""What every route of the simulator reads of a call: the simulator it serves, the caller's token,
the JSON body, where the simulator answers, and whether an address is this machine."""

from __future__ import annotations

import ipaddress

from flask import current_app, jsonify, request

from appliance.netsim.network import NetworkError
from appliance.netsim.simulator import Simulator


def simulator() -> Simulator:
    """The simulator this app serves (create_netsim_app puts it in the app's config)."""
    return current_app.config["SIMULATOR"]


def loopback(host: str | None) -> bool:
    host = (host or "").strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def not_found() -> tuple:
    return jsonify({"error": {"message": "Not found", "code": 404}}), 404


def token_of_request() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme not in ("Bearer", "OAuth") or not value.strip():  # uploads say "OAuth <token>"
        raise NetworkError(190, "An access token is required to request this resource")
    return value.strip()


def base_url() -> str:
    """Where this simulator answers, as the caller reached it."""
    return request.host_url.rstrip("/") + (current_app.config.get("MOUNT_PATH") or "")


def json_body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise NetworkError(100, "The request body must be a JSON object")
    return body
