"""The simulator over HTTP: the Graph API routes the appliance calls, and a small control API
(`/_control/...`) with which tests and demos play the other side: create business accounts, make a
customer write in, read what businesses sent, approve templates, inject faults.

A WSGI app of its own: served alone by `appliance netsim --port N`, or mounted in the appliance's
process for the sandbox (`mount_path`). In sandbox mode (and alone) it is the whole network: the Graph
API, the control API and the doubles of the other outside services (AI providers, Google, Wompi). Mounted on
a server outside sandbox mode it is only the Graph API of the organizations that try the sandbox:
every other address answers 404, and so does any call without one of its accounts' tokens.

Whatever it is sent, it answers as the service it plays would: a body over the size a route takes is
413, a body it cannot read is 400 in that service's shape (never a 500), and what it keeps is
bounded (bounded.py).

This module builds the app and keeps what every route shares (the limits, the gate, the errors);
each double's routes are a module of their own: graph_routes.py, control_routes.py, ai_routes.py,
google_routes.py, wompi_routes.py, factus_routes.py.
"""

from __future__ import annotations

import random
import secrets
import time

from flask import Flask, jsonify, request

from appliance.netsim.ai_routes import ai_providers
from appliance.netsim.calls import loopback, not_found, token_of_request
from appliance.netsim.control_routes import control_api
from appliance.netsim.google_routes import google
from appliance.netsim.graph_routes import graph_api
from appliance.netsim.network import NetworkError
from appliance.netsim.simulator import Simulator
from appliance.netsim.wompi_routes import wompi
from appliance.netsim.factus_routes import factus


# The largest body each kind of route takes (more is 413): media as Meta takes it, the chat models'
# prompts, and the small JSON of everything else.
UPLOAD_BYTES = 100 << 20
AI_BYTES = 4 << 20
CONTROL_INBOUND_BYTES = 24 << 20  # a customer's media, as base64
JSON_BYTES = 1 << 20
# A page another site frames could be dressed as Google's sign-in: no page of the simulator is framed.
PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
# What Python raises on a body of the wrong shape (a list for an object, a number for a text).
UNREADABLE = (TypeError, ValueError, KeyError, AttributeError, IndexError)


def _body_limit(path: str) -> int:
    if path.endswith("/media") or "/upload:" in path:
        return UPLOAD_BYTES
    if path.startswith("/ai/"):
        return AI_BYTES
    if path == "/_control/inbound":
        return CONTROL_INBOUND_BYTES
    return JSON_BYTES


def create_netsim_app(simulator: Simulator | None = None, *, sandbox: bool = True,
                      control_from_anywhere: bool = False, google_redirect_origin: str | None = None) -> Flask:
    """`sandbox=False`: only the Graph API, each call proven by one of its accounts' tokens; the
    control API, the doubles and every other address answer 404 (the appliance serving its sandbox
    accounts beside the real network: their customers are played through the console's signed-in
    routes instead). Profile pictures stay public, as WhatsApp's CDN serves them, at addresses made
    of the picture's hash.

    The control API has no accounts of its own (it plays every customer and reads every message
    sent), so it answers only on this machine unless `control_from_anywhere`; and webhooks it
    delivers (signed with the account's secret) may only go to this machine.

    `google_redirect_origin`: where the Google double's consent may send a browser back (the
    appliance's own origin, when mounted in it); without it, only to the appliance's callback path."""
    simulator = simulator or Simulator()
    network = simulator.network
    app = Flask("appliance.netsim")
    app.config["SIMULATOR"] = simulator
    app.config["GOOGLE_REDIRECT_ORIGIN"] = google_redirect_origin

    @app.errorhandler(NetworkError)
    def network_error(error: NetworkError):
        return jsonify(error.envelope()), error.http_status

    @app.errorhandler(404)
    def unknown_path(_error):
        if not sandbox:
            return not_found()
        return jsonify(NetworkError(100, f"Unknown path components: {request.path}").envelope()), 400

    @app.errorhandler(413)
    def too_large(_error):
        return jsonify(NetworkError(100, f"The request body is over {_body_limit(request.path)} bytes").envelope()), 413

    def unreadable(error: Exception):
        """A body of a shape no route expected: refused as the service played would, never a 500."""
        detail = f"The request could not be read ({type(error).__name__})"
        if request.path.startswith("/ai/"):
            return jsonify({"error": {"message": detail, "type": "invalid_request_error"}}), 400
        if request.path.startswith("/google/"):
            return jsonify({"error": {"code": 400, "message": detail, "status": "INVALID_ARGUMENT"}}), 400
        return jsonify(NetworkError(100, detail).envelope()), 400

    for kind in UNREADABLE:
        app.register_error_handler(kind, unreadable)

    @app.before_request
    def gate():
        request.max_content_length = _body_limit(request.path)
        if (request.content_length or 0) > request.max_content_length:
            return too_large(None)
        if not sandbox and not request.path.startswith("/_pictures/") and not _a_known_token():
            return not_found()
        if request.path.startswith("/_control"):
            if not control_from_anywhere and not loopback(request.remote_addr):
                return jsonify(NetworkError(10, "The simulator's control API answers only on its own machine "
                                                "(APPLIANCE_SANDBOX_CONTROL_FROM_ANYWHERE)").envelope()), 403
            return None
        if request.path.startswith(("/ai/", "/google/", "/wompi/", "/factus/")):
            return None  # the AI, Google, Wompi and Factus doubles have faults of their own (/_control/ai, ...)
        if simulator.faults.slow_seconds:
            time.sleep(simulator.faults.slow_seconds)
        if random.random() < simulator.faults.error_rate:
            return jsonify(NetworkError(131000, "An unknown error occurred (simulated 500)").envelope()), 500
        return None

    @app.after_request
    def not_framed(response):
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        if response.mimetype == "text/html":
            response.headers["Content-Security-Policy"] = PAGE_POLICY
        return response

    def _a_known_token() -> bool:
        """Outside sandbox mode, a caller without one of the sandbox accounts' tokens finds nothing."""
        try:
            presented = token_of_request().encode()
        except NetworkError:
            return False
        with network.lock:
            tokens = [account.access_token.encode() for account in network.accounts.values()]
        return any(secrets.compare_digest(presented, known) for known in tokens)

    app.register_blueprint(graph_api)
    if sandbox:  # outside sandbox mode the Graph API alone: neither the control API nor the doubles
        for blueprint in (control_api, ai_providers, google, wompi, factus):
            app.register_blueprint(blueprint)
    return app
