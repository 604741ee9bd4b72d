"""Marshmallow building blocks shared by every domain's schemas.py (no flask here).

JSON field names are camelCase on the wire and snake_case in Python; unknown fields are
rejected; text fields refuse control characters.
"""

from __future__ import annotations

import re
import unicodedata

from marshmallow import RAISE, Schema, ValidationError, fields, missing, pre_load, validate, validates_schema

from appliance.core import clock

# Never in any text: C0 controls but tab and line breaks, DEL, C1 controls, the Unicode line and
# paragraph separators, and lone UTF-16 surrogates (they cannot be stored as UTF-8).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# Never in a one-line text (a name, a title): characters that hide or reorder what people read
# (zero-width space, word joiner, BOM, Mongolian vowel separator, bidi embeddings, overrides and
# isolates). Zero-width joiners stay: emoji sequences and several scripts need them.
_INVISIBLE = re.compile("[\u200b\u2060\ufeff\u180e\u202a-\u202e\u2066-\u2069]")
_CREDENTIAL = re.compile(r"^[\x21-\x7e]+$")
_URL_PATTERN = r"^https?://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(:[0-9]{1,5})?(/[A-Za-z0-9._~%/-]*)?$"
# The same rules as JSON Schema patterns, so the OpenAPI document says what the server enforces
# (a client generating valid data from it is never refused). Lone surrogates cannot be written there.
_NEVER = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029"
_NEVER_ON_ONE_LINE = _NEVER + r"\t\n\r\u200b\u2060\ufeff\u180e\u202a-\u202e\u2066-\u2069"


def _documented(kwargs: dict, pattern: str) -> dict:
    kwargs["metadata"] = {"pattern": pattern, **(kwargs.get("metadata") or {})}
    return kwargs


def _text_pattern(*, multiline: bool, required_text: bool) -> str:
    never = _NEVER if multiline else _NEVER_ON_ONE_LINE
    # Trimmed before its length is checked: a required text needs one character that is not a space.
    return f"^[^{never}]*[^\\s{never}][^{never}]*$" if required_text else f"^[^{never}]*$"


def camelcase(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


# Fields whose serialized form of a value of exactly this type is the value itself: long listings
# skip marshmallow's per-field call for them.
_PLAIN = {fields.String: str, fields.Boolean: bool, fields.Integer: int}


class ApiSchema(Schema):
    class Meta:
        unknown = RAISE
        ordered = True

    min_fields = 0  # an update that must change something: documented as minProperties (http/docs.py)

    @validates_schema
    def _enough_fields(self, data, **kwargs):
        if self.min_fields and len(data) < self.min_fields:
            raise ValidationError("Give at least one field to change.", "_schema")

    def on_bind_field(self, field_name, field_obj):
        field_obj.data_key = camelcase(field_obj.data_key or field_name)
        if isinstance(field_obj, fields.Url) and "pattern" not in field_obj.metadata:
            # what marshmallow's URL check takes, for the document (its `format: url` says less)
            field_obj.metadata = {**field_obj.metadata, "pattern": _URL_PATTERN}

    @pre_load
    def _strict_types(self, data, **kwargs):
        """An integer field takes whole numbers only (marshmallow would turn 1.9 into 1, and true into
        1, without a word); in a JSON body a boolean field takes true or false (not "yes", 1 or "t").
        Query strings and forms are text, so only a body's dict is held to JSON's types."""
        if not hasattr(data, "get"):
            return data
        errors = {}
        json_body = type(data) is dict
        for field in self.load_fields.values():
            raw = data.get(field.data_key)
            if isinstance(field, fields.Integer):
                if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                    errors[field.data_key] = ["Not a valid integer."]
            elif isinstance(field, fields.Boolean) and json_body and raw is not None and not isinstance(raw, bool):
                errors[field.data_key] = ["Not a valid boolean: use true or false."]
        if errors:
            raise ValidationError(errors)
        return data

    def _serialize(self, obj, *, many=False):
        # Marshmallow's dump reaches each value through four generic accessor calls; every
        # answer is dumped through here, so read plain objects' attributes directly. Mappings,
        # dotted attributes and missing values with defaults keep marshmallow's own path.
        if many and obj is not None:
            return [self._serialize(item) for item in obj]
        if obj is None or hasattr(obj, "__getitem__"):
            return super()._serialize(obj)
        plan = self.__dict__.get("_dump_plan")
        if plan is None:
            plan = self._dump_plan = [
                (field.data_key or name, name, field.attribute or name, field,
                 field._CHECK_ATTRIBUTE and "." not in (field.attribute or name), _PLAIN.get(type(field)))
                for name, field in self.dump_fields.items()]
        out = {}
        for key, name, attribute, field, direct, plain in plan:
            if direct:
                value = getattr(obj, attribute, missing)
                if value is missing:  # absent: marshmallow applies dump_default, or skips the key
                    value = field.serialize(name, obj, accessor=self.get_attribute)
                    if value is not missing:
                        out[key] = value
                    continue
                if value is None or type(value) is plain:  # a str, bool or int field's own value: as is
                    out[key] = value
                else:
                    out[key] = field._serialize(value, name, obj)
            else:
                value = field.serialize(name, obj, accessor=self.get_attribute)
                if value is not missing:
                    out[key] = value
        return out


def _no_control_chars(value: str) -> None:
    if _CONTROL.search(value):
        raise ValidationError("Control characters are not allowed.")


def _single_line(value: str) -> None:
    if "\n" in value or "\r" in value or "\t" in value:
        raise ValidationError("Must be a single line.")
    if _INVISIBLE.search(value):
        raise ValidationError("Invisible or direction-changing characters are not allowed.")


class Text(fields.String):
    """A string of bounded length with no control characters, NFC-normalised and trimmed."""

    def __init__(self, *, max_length: int, min_length: int = 0, multiline: bool = False, **kwargs):
        validators = [validate.Length(min=min_length, max=max_length), _no_control_chars]
        if not multiline:
            validators.append(_single_line)
        super().__init__(validate=validators, **_documented(kwargs, _text_pattern(
            multiline=multiline, required_text=min_length > 0)))

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        return unicodedata.normalize("NFC", text).strip()


class Secret(fields.String):
    """A password or code: kept as typed (no trimming), bounded, no control characters."""

    def __init__(self, *, max_length: int, min_length: int = 1, **kwargs):
        super().__init__(validate=[validate.Length(min=min_length, max=max_length), _no_control_chars],
                         **_documented(kwargs, f"^[^{_NEVER}]*$"))


class Credential(fields.String):
    """A token or secret another system reads in a header: printable ASCII without spaces (a
    pasted token with a stray line break or a non-Latin-1 letter is refused here, not at the
    network's door)."""

    def __init__(self, *, max_length: int, **kwargs):
        super().__init__(validate=[validate.Length(min=1, max=max_length), validate.Regexp(
            _CREDENTIAL, error="Use only printable ASCII characters, without spaces or line breaks.")],
            **_documented(kwargs, _CREDENTIAL.pattern))

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip()  # pasted with a trailing newline


class EmailAddress(fields.Email):
    """An email address, trimmed and lower-cased so that lookups are exact."""

    def __init__(self, **kwargs):
        super().__init__(validate=validate.Length(max=254), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            value = value.strip()
        return super()._deserialize(value, attr, data, **kwargs).lower()


class IsoDateTime(fields.DateTime):
    """ISO 8601 UTC with milliseconds and `Z`."""

    def _serialize(self, value, attr, obj, **kwargs):
        return clock.iso(value)


class PageArgsSchema(ApiSchema):
    take = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(load_default=None, validate=validate.Length(max=500))


class UuidString(fields.UUID):
    """A UUID, validated, handed to services as its canonical string (ids are strings everywhere)."""

    def _deserialize(self, value, attr, data, **kwargs):
        return str(super()._deserialize(value, attr, data, **kwargs))


def flat_messages(messages, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages as `{"a.b.0.c": [..]}`: the one shape of `errors` in problems
    (the OpenAPI document says: a map of lists of strings) and the one pages put by their fields."""
    if isinstance(messages, list):
        return {prefix or "_body": [str(m) for m in messages]} if all(not isinstance(m, dict) for m in messages) else {}
    if not isinstance(messages, dict):
        return {prefix or "_body": [str(messages)]}
    flat: dict[str, list[str]] = {}
    for key, value in messages.items():
        flat.update(flat_messages(value, f"{prefix}.{key}" if prefix else str(key)))
    return flat

