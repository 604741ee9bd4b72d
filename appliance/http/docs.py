"""The OpenAPI document and an offline Swagger UI (its files come from swagger_ui_bundle, no CDN)."""

from __future__ import annotations

import flask_smorest
from flask import Flask, send_from_directory
from swagger_ui_bundle import swagger_ui_path

import appliance
from appliance.http.api import ProblemSchema

DOCS_ASSETS = "/docs/assets/"

OPENAPI_CONFIG = {
    "API_TITLE": "Business Messaging Appliance",
    "API_VERSION": appliance.__version__,
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "/docs",
    "OPENAPI_SWAGGER_UI_URL": DOCS_ASSETS,
}

SPEC_KWARGS = {
    "components": {"securitySchemes": {
        "bearerAuth": {"type": "http", "scheme": "bearer",
                       "description": "Access token from /auth/login or /auth/refresh, or an API key."},
        "apiKeyAuth": {"type": "apiKey", "in": "header", "name": "X-Api-Key",
                       "description": "mk_live_<prefix>.<secret>; organization routes only."},
    }},
    "security": [{"bearerAuth": []}, {"apiKeyAuth": []}],
}


class Api(flask_smorest.Api):
    """flask-smorest's Api without its own error handler: appliance.http.errors is the only one."""

    ERROR_SCHEMA = ProblemSchema

    def _register_error_handlers(self):
        pass


def init_app(app: Flask) -> Api:
    app.config.update(OPENAPI_CONFIG)
    api = Api(app, spec_kwargs=SPEC_KWARGS)

    @app.route(DOCS_ASSETS + "<path:filename>", endpoint="swagger_ui_files")
    def swagger_ui_files(filename):
        return send_from_directory(swagger_ui_path, filename, max_age=86400)

    return api
