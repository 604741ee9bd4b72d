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
# A token pasted with a line break or spaces around it is taken (they are trimmed); inside, only
# printable ASCII.
_CREDENTIAL = re.compile(r"^[ \t\r\n]*[\x21-\x7e]+[ \t\r\n]*$")
# The same rules as JSON Schema patterns, so the OpenAPI document says what the server enforces
# (a client generating valid data from it is never refused). Lone surrogates cannot be written there.
_NEVER = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029"
_NEVER_ON_ONE_LINE = _NEVER + r"\t\n\r\u200b\u2060\ufeff\u180e\u202a-\u202e\u2066-\u2069"
# A character that is not a space: \s as JSON Schema's (ECMAScript's) regular expressions read it,
# which counts the BOM as a space and Python's does not.
_SOME_TEXT = re.compile(r"[^\s\ufeff]")

# An http(s) address, one regular expression for the server's check and the document's pattern: a
# host name whose labels start and end with a letter or digit and which ends in a top-level domain
# (letters, or punycode), `localhost`, an IPv4 address or a bracketed IPv6 one; an optional user and
# port (1..65535); then a path, query or fragment without spaces. Whether the appliance may reach
# the address is another rule (400 url_not_allowed, checked where it fetches or posts).
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_IPV4_PART = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_IPV4 = rf"(?:{_IPV4_PART}\.){{3}}{_IPV4_PART}"


def _ipv6() -> str:
    """RFC 3986's IPv6address: whatever it matches, Python's urlsplit and ipaddress take (a looser
    pattern let `[f3C2D378b:1]` through to a 500)."""
    h16, ls32 = "[0-9A-Fa-f]{1,4}", rf"(?:[0-9A-Fa-f]{{1,4}}:[0-9A-Fa-f]{{1,4}}|{_IPV4})"
    tails = [rf"(?:{h16}:){{4}}{ls32}", rf"(?:{h16}:){{3}}{ls32}", rf"(?:{h16}:){{2}}{ls32}", rf"{h16}:{ls32}", ls32,
             h16, ""]
    forms = [rf"(?:{h16}:){{6}}{ls32}", rf"::(?:{h16}:){{5}}{ls32}"]
    forms += [rf"(?:(?:{h16}:){{0,{before}}}{h16})?::{tail}" for before, tail in enumerate(tails)]
    return "(?:" + "|".join(forms) + ")"


_WEB_HOSTS = (rf"(?:{_LABEL}\.)+(?:[A-Za-z]{{2,63}}|xn--[A-Za-z0-9-]{{1,59}})\.?", "localhost", _IPV4,
              rf"\[{_ipv6()}\]")
_ANY_HOST = rf"{_LABEL}(?:\.{_LABEL})*\.?"  # a name of the LAN too (`ollama`, `nas.local`)
_PORT = r"6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}"
_URL_REST = r"[^\x00-\x20\x7f-\x9f\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]"


# An email address in its common form: dot-separated atoms, then a domain name (a subset of what
# marshmallow's Email takes: no quoted names, no address literals).
EMAIL_ADDRESS = (rf"[A-Za-z0-9!#$%&'*+/=?^_`{{|}}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{{|}}~-]+)*"
                 rf"@(?:{_LABEL}\.)+[A-Za-z]{{2,63}}")


def web_address_pattern(*, any_host: bool = False) -> str:
    hosts = "|".join((*_WEB_HOSTS, _ANY_HOST) if any_host else _WEB_HOSTS)
    return rf"^https?://(?:[A-Za-z0-9._~!$&'()*+,;=:%-]*@)?(?:{hosts})(?::(?:{_PORT}))?(?:[/?#]{_URL_REST}*)?$"


# What a cursor is made of (base64url without padding, core/pagination.py): the document states it,
# and the server refuses anything else before trying to read it.
CURSOR_PATTERN = r"^[A-Za-z0-9_-]*$"


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


def _full_match(pattern: str, error: str):
    # fullmatch: `$` alone would also take a value ending in a line break
    regex = re.compile(pattern)

    def check(value: str) -> None:
        if not regex.fullmatch(value):
            raise ValidationError(error)
    return check


def _has_text(value: str) -> None:
    if not _SOME_TEXT.search(value):
        raise ValidationError("Write something other than spaces.")


def _normalised(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip()


class Text(fields.String):
    """A string of bounded length with no control characters, NFC-normalised and trimmed.

    Checked as it was sent, which is what the document's maxLength and pattern describe, and only
    then normalised and trimmed: 201 characters are refused where 200 are allowed even if the last
    is a space, and so is a name ending in a tab."""

    def __init__(self, *, max_length: int, min_length: int = 0, multiline: bool = False, **kwargs):
        validators = [validate.Length(min=min_length, max=max_length), _no_control_chars]
        if not multiline:
            validators.append(_single_line)
        if min_length > 0:
            validators.append(_has_text)
        super().__init__(validate=validators, post_load=[_normalised, *kwargs.pop("post_load", [])],
                         **_documented(kwargs, _text_pattern(multiline=multiline, required_text=min_length > 0)))


class Secret(fields.String):
    """A password or code: kept as typed (no trimming), bounded, no control characters."""

    def __init__(self, *, max_length: int, min_length: int = 1, **kwargs):
        super().__init__(validate=[validate.Length(min=min_length, max=max_length), _no_control_chars],
                         **_documented(kwargs, f"^[^{_NEVER}]*$"))


class Credential(fields.String):
    """A token or secret another system reads in a header: printable ASCII without spaces (a
    pasted token with a stray line break or a non-Latin-1 letter is refused here, not at the
    network's door). Spaces and line breaks around it are trimmed (pasted with a trailing newline)."""

    def __init__(self, *, max_length: int, **kwargs):
        super().__init__(validate=[validate.Length(min=1, max=max_length), validate.Regexp(
            _CREDENTIAL, error="Use only printable ASCII characters, without spaces or line breaks.")],
            post_load=[str.strip], **_documented(kwargs, _CREDENTIAL.pattern))


class Matching(fields.String):
    """A string of at most `max_length` characters that `pattern` matches whole: the server checks
    the very pattern the document states, wherever the field sits (in a list too)."""

    def __init__(self, pattern: str, *, max_length: int, error: str, **kwargs):
        checks = [validate.Length(max=max_length), _no_control_chars, _full_match(pattern, error)]
        super().__init__(validate=checks, **_documented(kwargs, pattern))


class WebAddress(Matching):
    """An http or https address (`web_address_pattern`); with `any_host`, also a name without a
    domain (a server of the LAN)."""

    def __init__(self, *, max_length: int = 2000, any_host: bool = False, **kwargs):
        super().__init__(web_address_pattern(any_host=any_host), max_length=max_length,
                         error="Give an http:// or https:// address.", **kwargs)


class Cursor(fields.String):
    """Where a list goes on: its `nextCursor`, given back as it came. Documented as base64url of at
    most 500 characters with `format: cursor`, a value only the server makes (any other is 400
    `invalid_cursor`); empty or absent: the first page."""

    def __init__(self, **kwargs):
        kwargs["metadata"] = {"format": "cursor", "description": "nextCursor of the previous page, as it came; "
                              "absent: the first page", **(kwargs.get("metadata") or {})}
        super().__init__(load_default=None, validate=[
            validate.Length(max=500), _full_match(CURSOR_PATTERN, "The cursor is not one this server issued.")],
            **_documented(kwargs, CURSOR_PATTERN))


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
    cursor = Cursor()


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

