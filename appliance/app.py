"""create_app(settings) -> Flask. Reads like a table of contents: each line plugs in one piece."""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.middleware.proxy_fix import ProxyFix

from appliance import bootstrap, callers, sandbox
from appliance.billing import money
from appliance.chat_links import lane as chat_links_lane
from appliance.core import phones
from appliance.blueprints import BLUEPRINTS, PAGES
from appliance.netsim.app import create_netsim_app
from appliance.oauth.server import server as oauth_server
from appliance.http import browser, cors, docs, errors, headers, idempotency, limits, operations, pages, unit_of_work
from appliance.http.api import SpoolingRequest
from appliance.http.routing import LazilyBuiltRule
from appliance.installation import tunnel
from appliance.paths import WEB_DIR
from appliance.webchat import gateway as webchat_gateway
from appliance.settings import Settings, load_settings


def create_app(settings: Settings | None = None, *, queue_immediate: bool = False,
               migrate: bool = False) -> Flask:
    settings = settings or load_settings()
    if settings.sandbox:  # the simulator mounted below plays the Graph API (and Google, unless configured)
        settings = settings.replace(graph_api_url=sandbox.graph_url(settings), **sandbox.google_settings(settings),
                                    **sandbox.wompi_settings(settings))
    bootstrap.start(settings, migrate=migrate, queue_immediate=queue_immediate)

    app = Flask(__name__, template_folder=str(WEB_DIR / "templates"),
                static_folder=str(WEB_DIR / "static"))
    app.config["APPLIANCE_SETTINGS"] = settings
    app.url_rule_class = LazilyBuiltRule  # url_for's builders made on first use, not at start
    app.request_class = SpoolingRequest  # uploads go to disk as they arrive (core/files.py)
    app.json.sort_keys = False
    # Short links are answered before Flask (chat_links/lane.py), inside ProxyFix (the client's address).
    app.wsgi_app = chat_links_lane.install(app.wsgi_app, settings)
    # The website's chat (Socket.IO at /socket.io/, namespace /wc) is answered before Flask too.
    app.wsgi_app = webchat_gateway.install(app.wsgi_app, settings)
    if settings.proxy_count:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.proxy_count, x_proto=settings.proxy_count)
    if settings.tunnel != "off":
        app.wsgi_app = tunnel.through_tunnel(app.wsgi_app)

    errors.init_app(app)
    headers.init_app(app)  # one header policy for every answer
    cors.init_app(app)  # the API for browser clients on other origins (before authentication)
    unit_of_work.init_app(app)
    limits.init_app(app, max_json_bytes=settings.max_json_bytes)
    callers.init_app(app)  # who is calling, before every view
    limits.init_required_body(app)  # after who is calling: a stranger hears 401/403 first
    idempotency.init_app(app)  # a repeated Idempotency-Key answers as the first time
    browser.init_app(app)
    oauth_server.init_app(app)
    api = docs.init_app(app)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)

    for page_blueprint in PAGES:
        app.register_blueprint(page_blueprint)
    app.jinja_env.globals["sandbox"] = settings.sandbox
    app.jinja_env.filters["phone"] = phones.for_people  # {{ contact.wa_id|phone }}: "+57 300 1234567"
    app.jinja_env.filters["org_time"] = pages.org_time  # {{ message.created_at|org_time }}: the organization's clock
    app.jinja_env.filters["money"] = money.text  # {{ entry.amount_minor|money(entry.currency) }}: "125000.00"
    pages.init_app(app)  # Flask-Babel: the reader's language, the catalogs' gettext, dates and numbers
    app.jinja_env.globals["may"] = operations.may  # {% if may(endpoint) %}: what that page's route lets in
    # The simulated network beside the app, at /netsim: the whole network and the other services'
    # doubles in sandbox mode, else only the Graph API of organizations that try the sandbox.
    netsim = create_netsim_app(sandbox.start(settings), sandbox=settings.sandbox,
                               control_from_anywhere=settings.sandbox_control_from_anywhere,
                               google_redirect_origin=settings.base_url or settings.served_url)
    if settings.proxy_count:  # the client's address, not the proxy's, decides "this machine"
        netsim.wsgi_app = ProxyFix(netsim.wsgi_app, x_for=settings.proxy_count, x_proto=settings.proxy_count)
    netsim.config["MOUNT_PATH"] = sandbox.MOUNT_PATH
    # The appliance calls it on loopback; pictures it serves are addressed for people's browsers.
    netsim.config["PUBLIC_URL"] = sandbox.public_url(settings)
    app.wsgi_app = DispatcherMiddleware(app.wsgi_app, {sandbox.MOUNT_PATH: netsim})
    return app
