"""flask-smorest subclasses: every success answer is `{data, timestamp}`, documented as such."""

from __future__ import annotations

import io
from functools import wraps

import flask_smorest
from flask import Request, Response, current_app, g, request
from flask_smorest.utils import unpack_tuple_response
from marshmallow import INCLUDE, Schema, ValidationError, fields, validate
from webargs.flaskparser import FlaskParser
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge

from appliance.core import clock, files
from appliance.core.errors import Invalid
from appliance.core.files import Upload
from appliance.core.schema import IsoDateTime, flat_messages

_envelopes: dict[tuple[type, bool, bool], type[Schema]] = {}


def envelope_for(schema, nullable: bool = False) -> type[Schema]:
    """The `{data: <schema>, timestamp}` schema wrapping `schema` (a class or an instance);
    `nullable`: data may be null (GET /attendance/me without a session in progress)."""
    instance = schema() if isinstance(schema, type) else schema
    key = (type(instance), bool(instance.many), nullable)
    if key not in _envelopes:
        base = type(instance).__name__.removesuffix("Schema")
        name = f"{base}{'List' if instance.many else ''}{'OrNull' if nullable else ''}Envelope"
        _envelopes[key] = type(name, (_Envelope,), {
            "data": fields.Nested(type(instance), many=instance.many, required=True, allow_none=nullable),
            "timestamp": IsoDateTime(required=True),
        })
    return _envelopes[key]


class _Envelope(Schema):
    """Dumps `{data, timestamp}` without marshmallow's generic field machinery (every answer
    passes here): the nested schema dumps `data` (hooks included), the clock formats the time."""

    def _serialize(self, obj, *, many=False):
        if many or not isinstance(obj, dict) or obj.keys() != {"data", "timestamp"}:
            return super()._serialize(obj, many=many)
        data = obj["data"]
        return {"data": None if data is None else self.fields["data"].schema.dump(data),
                "timestamp": clock.iso(obj["timestamp"])}


class ProblemSchema(Schema):
    """RFC 9457 problem details, as appliance.http.errors renders every error; some carry members of
    their own (RFC 9457's extensions: `graphCode`, `retryAfter`...)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(metadata={"example": "about:blank"})
    title = fields.String()
    status = fields.Integer()
    code = fields.String(metadata={"description": "Stable machine-readable error code"})
    detail = fields.String()
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                         metadata={"description": "Messages per field (validation errors)"})
    timestamp = IsoDateTime()


class ArgumentsParser(FlaskParser):
    # The reference answers 400 for validation errors (webargs would say 422).
    DEFAULT_VALIDATION_STATUS = 400


class Blueprint(flask_smorest.Blueprint):
    """Routes are authenticated unless decorated with `@blp.public`.

    `shown_with="users"`: the routes of this blueprint appear under another blueprint's tag in the
    OpenAPI document (routes the reference puts under one prefix but another domain owns, such as
    /conversations/{id}/messages), and this blueprint adds no tag of its own."""

    ARGUMENTS_PARSER = ArgumentsParser()

    def __init__(self, *args, shown_with: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.shown_with = shown_with

    def route(self, rule, *, parameters=None, tags=None, **options):
        if tags is None and self.shown_with:
            tags = [self.shown_with]
        return super().route(rule, parameters=parameters, tags=tags, **options)

    def arguments(self, schema, *args, **kwargs):
        # webargs builds a schema given as a class anew for every request (~0.5 ms); one instance
        # serves them all (loading keeps no state on it).
        return super().arguments(schema() if isinstance(schema, type) else schema, *args, **kwargs)

    def response(self, status_code, schema=None, *, nullable: bool = False, **kwargs):
        if schema is None:
            documented = super().response(status_code, **kwargs)

            def no_body(func):
                @wraps(func)
                def wrapper(*args, **kw):
                    result = func(*args, **kw)
                    return result if isinstance(result, Response) else Response(status=status_code)
                return documented(wrapper)
            return no_body

        documented = super().response(status_code, envelope_for(schema, nullable), **kwargs)

        def enveloped(func):
            @wraps(func)
            def wrapper(*args, **kw):
                result, status, headers = unpack_tuple_response(func(*args, **kw))
                if isinstance(result, Response):
                    return result
                body = {"data": result, "timestamp": clock.now()}
                return body, status or status_code, headers or {}
            return documented(wrapper)
        return enveloped

    def document_response(self, status_code, schema, **kwargs):
        """Document an answer that is not enveloped (the OAuth documents, as their RFCs shape
        them); the view returns a ready Response."""
        return super().response(status_code, schema, **kwargs)

    def accepts_oauth_token(self, func):
        """Let an OAuth access token call this route that is outside any organization (userinfo);
        routes about persons refuse OAuth tokens otherwise."""
        func._accepts_oauth_token = True
        return func

    def public(self, func):
        """Mark a view method as needing no credentials (and say so in the OpenAPI document)."""
        func._public = True
        return self.doc(security=[])(func)

    def requires(self, permission: str, *, while_suspended: bool = False):
        """State the permission an organization route needs; checked before the view runs
        (appliance.http.auth) and shown in the OpenAPI document as `x-permission`. Routes of a
        suspended organization answer 403 unless `while_suspended`."""
        def decorator(func):
            func._permission = permission
            func._while_suspended = while_suspended
            return self.doc(**{"x-permission": permission})(func)
        return decorator


def view_attr(name: str):
    """The attribute `name` that decorators set on the view method serving this request, or None."""
    if "view_target" not in g:  # found once per request; auth and limits each ask for flags
        target = None
        if request.endpoint is not None:
            view = current_app.view_functions[request.endpoint]
            view_class = getattr(view, "view_class", None)
            target = getattr(view_class, request.method.lower(), None) if view_class else view
        g.view_target = target
    return getattr(g.view_target, name, None)


def public(func):
    """Mark a plain (non-API) view as needing no credentials."""
    func._public = True
    return func


def writes_on_get(func):
    """Mark a plain view whose GET may change state (an OAuth authorization answered at once)."""
    func._writes_on_get = True
    return func


def takes_upload(*, max_bytes: int, content_types: tuple[str, ...], field: str = "file",
                 description: str = "The file", form: Schema | None = None):
    """Mark an API view as taking a file instead of JSON: `multipart/form-data` with the file in
    `field`, or the file itself as the body with one of `content_types`. Bodies above `max_bytes`
    answer 413 (appliance.http.limits). With `form`, the multipart body also carries that schema's
    fields (read with `uploaded_form`), and the file can only come that way."""
    def decorator(func):
        func._upload = (max_bytes, () if form is not None else content_types)
        func._upload_form = form
        schema = {"type": "string", "format": "binary", "minLength": 1, "description": description}
        properties, required = {field: schema}, [field]
        if form is not None:
            for name, declared in form.fields.items():
                key = declared.data_key or name
                properties[key] = {"type": "string", **({"maxLength": _max_length(declared)} if _max_length(declared) else {}),
                                   **({"minLength": 1} if declared.required else {})}
                if declared.metadata.get("pattern"):  # what Text refuses (control characters, line breaks)
                    properties[key]["pattern"] = declared.metadata["pattern"]
                if isinstance(declared, fields.Boolean):  # a form's boolean is one of its words
                    properties[key]["enum"] = sorted(str(word) for word in declared.truthy | declared.falsy
                                                     if isinstance(word, str))
                if declared.required:
                    required.append(key)
        # The form's schema refuses fields it does not know; the document says so.
        content = {"multipart/form-data": {"schema": {"type": "object", "required": required, "properties": properties,
                                                      **({"additionalProperties": False} if form is not None else {})}}}
        if form is None:
            content.update({kind: {"schema": schema} for kind in content_types})
        func._apidoc = {**getattr(func, "_apidoc", {}), "manual_doc": {
            **getattr(func, "_apidoc", {}).get("manual_doc", {}), "requestBody": {"required": True, "content": content}}}
        return func
    return decorator


class SpoolingRequest(Request):
    """Flask's request, with uploaded files spooled under the data directory (core/files.spool)
    rather than the system's temporary folder, which is memory on many Linux systems."""

    def _get_file_stream(self, total_content_length, content_type, filename=None, content_length=None):
        return files.spool()


def uploaded_file(field: str = "file", *, required: bool = True) -> Upload | None:
    """The upload of a `takes_upload` view, on disk (never whole in memory). A form's file comes
    spooled by the form parser; a file sent as the body is copied into a spool piece by piece, and
    413 as soon as it passes the route's bound. `required=False`: None when the form has no file
    (a page's form where attaching one is optional)."""
    max_bytes, content_types = view_attr("_upload")
    if not required and request.mimetype != "multipart/form-data":
        return None
    if request.mimetype != "multipart/form-data" and request.mimetype not in content_types:
        raise Invalid(f"Send the file as multipart/form-data or as {', '.join(content_types)}.",
                      code="unsupported_content_type")
    if request.mimetype == "multipart/form-data":
        stored = request.files.get(field)
        if stored is None or (not required and not stored.filename):
            if not required:
                return None
            raise Invalid(f"Send the file in the form field '{field}'.", code="file_missing",
                          errors={field: ["Missing data for required field."]})
        stream = stored.stream
        stream.seek(0, io.SEEK_END)
        upload = Upload(stream, stream.tell(), stored.mimetype or None, stored.filename or None)
    else:
        upload = _spooled_body()
    if upload.size > max_bytes:  # the form's framing was allowed for, not a bigger file
        raise RequestEntityTooLarge()
    return upload


def _spooled_body() -> Upload:
    """A file sent as the body, copied into a spool once (the stream reads once), 413 as soon as it
    passes the route's bound."""
    if "spooled_body" not in g:
        max_bytes, _ = view_attr("_upload")
        spooled, size = files.spool(), 0
        while piece := request.stream.read(files.CHUNK):
            size += len(piece)
            if size > max_bytes:
                raise RequestEntityTooLarge()
            spooled.write(piece)
        g.spooled_body = Upload(spooled, size, request.mimetype or None, None)
    return g.spooled_body


def digest_upload(digest) -> None:
    """Feed what an upload request carries to `digest` (an Idempotency-Key's fingerprint) without
    holding it in memory: the form's fields and each file's pieces, or the body's pieces."""
    if request.mimetype != "multipart/form-data":
        for piece in _spooled_body().chunks():
            digest.update(piece)
        return
    for name, value in request.form.items(multi=True):
        digest.update(f"{name}={value}".encode() + b"\0")
    for name, stored in request.files.items(multi=True):
        digest.update(f"{name}:{stored.filename}".encode() + b"\0")
        stored.stream.seek(0)
        while piece := stored.stream.read(files.CHUNK):
            digest.update(piece)
        stored.stream.seek(0)


def _max_length(declared) -> int | None:
    return next((v.max for v in declared.validators if isinstance(v, validate.Length) and v.max), None)


def uploaded_form() -> dict:
    """The fields beside the file of a `takes_upload(form=...)` view, checked by that schema (400
    by field, as a JSON body's would be)."""
    schema = view_attr("_upload_form")
    try:
        # Not a plain dict: form values are text, so booleans are read as words ("true"), not JSON's
        return schema.load(MultiDict({name: request.form[name] for name in request.form if name != "file"}))
    except ValidationError as exc:
        raise Invalid("Check the marked fields.", errors=flat_messages(exc.messages)) from None


def form_body(func):
    """Mark a plain view as taking an HTML form body instead of JSON."""
    func._form_body = True
    return func
