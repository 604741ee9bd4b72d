"""The OpenAPI document and an offline Swagger UI (its files come from swagger_ui_bundle, no CDN)."""

from __future__ import annotations

import json
import threading

import flask
import flask_smorest
from flask import Flask, send_from_directory
from marshmallow import fields
from swagger_ui_bundle import swagger_ui_path

import appliance
from appliance.core.schema import ApiSchema
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
    """flask-smorest's Api without its own error handler (appliance.http.errors is the only one),
    documenting the routes when the document is first asked for instead of at start-up.

    Turning ~30 blueprints' schemas into OpenAPI took 0.3 s of every `create_app` (the server's
    start, the CLI, each test); routing and argument parsing never needed it."""

    ERROR_SCHEMA = ProblemSchema

    def __init__(self, *args, **kwargs):
        self._undocumented: list[tuple] = []
        self._documenting = threading.Lock()
        super().__init__(*args, **kwargs)

    def _register_error_handlers(self):
        pass

    def _init_spec(self, **kwargs):
        super()._init_spec(**kwargs)
        for rule in (null_means_null, key_rules):
            self.ma_plugin.converter.add_attribute_function(rule)

    def register_blueprint(self, blp, *, parameters=None, **options):
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))

    def document(self) -> None:
        """Put the routes registered so far into the OpenAPI document (once each)."""
        with self._documenting:
            while self._undocumented:
                blp, name, parameters = self._undocumented.pop(0)
                blp.register_views_in_doc(self, self._app, self.spec, name=name, parameters=parameters)
                if not getattr(blp, "shown_with", None):
                    self.spec.tag({"name": name, "description": blp.description})

    def _openapi_json(self):
        self.document()
        return flask.current_app.response_class(json.dumps(with_schema_rules(as_problems(self.spec.to_dict())), indent=2),
                                                mimetype="application/json")


# apispec's null branch of a nullable object in OpenAPI 3.0: on its own it is any object at all.
_ANY_OBJECT_OR_NULL = {"type": "object", "nullable": True}


def null_means_null(converter, field, ret: dict, **kwargs) -> dict:
    """A nullable nested object (a schedule, a card) is that object or null: the null branch takes
    null only, not any object (whose keys the server would refuse)."""
    branches = ret.get("anyOf") or []
    if _ANY_OBJECT_OR_NULL not in branches:
        return {}
    return {"anyOf": [{**branch, "enum": [None]} if branch == _ANY_OBJECT_OR_NULL else branch for branch in branches]}


def key_rules(converter, field, ret: dict, **kwargs) -> dict:
    """A map's rules on its keys (a contact's attribute names, preference keys) as `propertyNames`:
    OpenAPI 3.0 has no word for them, JSON Schema (and the generators that read the document) does."""
    if not isinstance(field, fields.Dict) or field.key_field is None:
        return {}
    names = {rule: value for rule, value in converter.field2property(field.key_field).items()
             if rule in ("minLength", "maxLength", "pattern", "enum")}
    return {"propertyNames": names} if names else {}


def _problem_content(response: dict) -> None:
    content = response.get("content")
    if not content or "application/json" not in content or "application/problem+json" in content:
        return
    if content["application/json"].get("schema", {}).get("$ref", "").endswith("/OAuthError"):
        return  # the OAuth endpoints answer RFC 6749's {error, error_description} as application/json
    content["application/problem+json"] = content.pop("application/json")


def _schema_classes(base: type) -> list[type]:
    found = []
    for cls in base.__subclasses__():
        found += [cls, *_schema_classes(cls)]
    return found


def with_schema_rules(document: dict) -> dict:
    """Rules a schema checks beyond its fields, in the document: `min_fields` as minProperties."""
    schemas = document.get("components", {}).get("schemas", {})
    for cls in _schema_classes(ApiSchema):
        name = cls.__name__.removesuffix("Schema")
        if cls.min_fields and name in schemas:
            schemas[name]["minProperties"] = cls.min_fields
    return document


def as_problems(document: dict) -> dict:
    """Every error answer is `application/problem+json` (http/errors.py): say so wherever the
    document describes one (4xx, 5xx, `default`), in operations and in shared responses."""
    for response in document.get("components", {}).get("responses", {}).values():
        _problem_content(response)
    for item in document.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for status, response in operation.get("responses", {}).items():
                if (status == "default" or str(status)[:1] in "45") and "$ref" not in response:
                    _problem_content(response)
    return document


def init_app(app: Flask) -> Api:
    app.config.update(OPENAPI_CONFIG)
    api = Api(app, spec_kwargs=SPEC_KWARGS)

    @app.route(DOCS_ASSETS + "<path:filename>", endpoint="swagger_ui_files")
    def swagger_ui_files(filename):
        return send_from_directory(swagger_ui_path, filename, max_age=86400)

    return api
