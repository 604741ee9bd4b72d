"""What may be sent: each type's object checked here, field by field, against the network's rules
(../shared/design/cloud-api.md 3.1, 3.7), so a mistake is a 400 naming the field before anything
is stored or sent, instead of a failed message minutes later.

Payloads are the network's own shapes (`{body, preview_url}` for text, `{id | link, caption}` for
media...); these functions answer the object as it will be sent.
"""

from __future__ import annotations

import re
from typing import Any

from appliance.core.errors import Invalid
from appliance.messages.kinds import MEDIA_TYPES

SEND_TYPES = ("text", "template", "image", "video", "audio", "document", "sticker", "location", "contacts",
              "interactive", "reaction")
CAPTIONED = frozenset({"image", "video", "document"})
INTERACTIVE_TYPES = ("button", "list", "cta_url", "flow", "product", "product_list", "catalog_message",
                     "location_request_message", "carousel", "address_message")
TEXT_MAX = 4096
CAPTION_MAX = 1024
_E164 = re.compile(r"\d{8,15}")
_WAMID = re.compile(r"wamid\.[A-Za-z0-9_=+/-]{8,}")


def problem(field: str, message: str, *, code: str = "validation_failed") -> Invalid:
    return Invalid(f"{field}: {message}", code=code, errors={field: [message]})


def normalize_recipient(value: str) -> str:
    """E.164 as the network writes it: digits only, a leading + dropped; anything else is refused
    (spaces, dashes and brackets too: a caller that sends them has a bug worth hearing about)."""
    digits = value[1:] if value.startswith("+") else value
    if not _E164.fullmatch(digits):
        raise problem("to", "An E.164 phone number: 8 to 15 digits, optionally after a '+'.", code="invalid_recipient")
    return digits


def compose(kind: str, payload: Any) -> Any:
    """The type's object as the network takes it, or a 400 naming the field at fault."""
    if kind == "text":
        return _text(_object(payload, "payload"))
    if kind in MEDIA_TYPES:
        return media_object(kind, _object(payload, "payload"), "payload")
    if kind == "location":
        return _location(_object(payload, "payload"))
    if kind == "contacts":
        return _contacts(payload)
    if kind == "interactive":
        return interactive(_object(payload, "payload"), "payload")
    if kind == "reaction":
        return _reaction(_object(payload, "payload"))
    raise problem("type", f"One of {', '.join(SEND_TYPES)}.")


def _object(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise problem(where, "An object is required.")
    return value


def _only(value: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise problem(f"{where}.{unknown[0]}", "Unknown field.")


def string(value: Any, where: str, *, max_length: int, required: bool = True) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise problem(where, "A non-empty string is required.")
    if len(value) > max_length:
        raise problem(where, f"At most {max_length} characters ({len(value)} given).")
    return value


def https_url(value: Any, where: str) -> str:
    text = string(value, where, max_length=2000)
    if not re.fullmatch(r"https?://[^\s/$.?#][^\s]*", text):
        raise problem(where, "An http(s):// address.")
    return text


def _text(payload: dict) -> dict:
    _only(payload, {"body", "preview_url"}, "payload")
    body = string(payload.get("body"), "payload.body", max_length=TEXT_MAX)
    preview = payload.get("preview_url", False)
    if not isinstance(preview, bool):
        raise problem("payload.preview_url", "true or false.")
    return {"body": body, "preview_url": preview}


def media_object(kind: str, payload: dict, where: str) -> dict:
    allowed = {"id", "link"} | ({"caption"} if kind in CAPTIONED else set()) | ({"filename"} if kind == "document" else set())
    _only(payload, allowed, where)
    if bool(payload.get("id")) == bool(payload.get("link")):
        raise problem(f"{where}.id", "Exactly one of id (an uploaded media id) or link.")
    result: dict = {}
    if payload.get("id"):
        media_id = payload["id"]
        if not isinstance(media_id, str) or not re.fullmatch(r"[0-9A-Za-z_.-]{1,100}", media_id):
            raise problem(f"{where}.id", "A media id as POST /messages/upload answered it.")
        result["id"] = media_id
    else:
        result["link"] = https_url(payload["link"], f"{where}.link")
    if payload.get("caption") is not None:
        result["caption"] = string(payload["caption"], f"{where}.caption", max_length=CAPTION_MAX)
    if payload.get("filename") is not None:
        result["filename"] = string(payload["filename"], f"{where}.filename", max_length=240)
    return result


def _number(value: Any, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise problem(where, f"A number from {low:g} to {high:g}.")
    return value


def _location(payload: dict) -> dict:
    _only(payload, {"latitude", "longitude", "name", "address"}, "payload")
    result = {"latitude": _number(payload.get("latitude"), "payload.latitude", -90, 90),
              "longitude": _number(payload.get("longitude"), "payload.longitude", -180, 180)}
    for key in ("name", "address"):
        if payload.get(key) is not None:
            result[key] = string(payload[key], f"payload.{key}", max_length=1000)
    return result


def _contacts(payload: Any) -> list:
    cards = payload.get("contacts") if isinstance(payload, dict) else payload
    if not isinstance(cards, list) or not 1 <= len(cards) <= 10:
        raise problem("payload.contacts", "A list of 1 to 10 contact cards.")
    for i, card in enumerate(cards):
        where = f"payload.contacts[{i}]"
        card = _object(card, where)
        name = _object(card.get("name"), f"{where}.name")
        string(name.get("formatted_name"), f"{where}.name.formatted_name", max_length=500)
        phones = card.get("phones", [])
        if not isinstance(phones, list) or not all(isinstance(p, dict) and isinstance(p.get("phone"), str) for p in phones):
            raise problem(f"{where}.phones", "A list of {phone, type?, wa_id?} objects.")
    return cards


def _reaction(payload: dict) -> dict:
    _only(payload, {"message_id", "emoji"}, "payload")
    message_id = payload.get("message_id")
    if not isinstance(message_id, str) or not _WAMID.fullmatch(message_id):
        raise problem("payload.message_id", "The wamid of the message reacted to.")
    emoji = payload.get("emoji")
    if not isinstance(emoji, str) or len(emoji) > 16 or (emoji and not check_emoji(emoji)):
        raise problem("payload.emoji", "One emoji, or an empty string to remove the reaction.")
    return {"message_id": message_id, "emoji": emoji}


def check_emoji(value: str) -> bool:
    """One emoji as people type it (with skin tones, joiners, flags): no letters, digits or spaces."""
    return 0 < len(value) <= 16 and not any(c.isalnum() or c.isspace() for c in value)


# Interactive ---------------------------------------------------------------------------------------

def interactive(payload: dict, where: str) -> dict:
    """The network's interactive object, with the limits of each kind (cloud-api.md 3.1)."""
    kind = payload.get("type")
    if kind not in INTERACTIVE_TYPES:
        raise problem(f"{where}.type", f"One of {', '.join(INTERACTIVE_TYPES)}.")
    body = payload.get("body")
    if body is not None or kind != "product":  # a single product may go without a body
        text = _object(body, f"{where}.body").get("text")
        string(text, f"{where}.body.text", max_length=1024)
    if payload.get("footer") is not None:
        string(_object(payload["footer"], f"{where}.footer").get("text"), f"{where}.footer.text", max_length=60)
    header = payload.get("header")
    if header is not None and _object(header, f"{where}.header").get("type") == "text":
        string(header.get("text"), f"{where}.header.text", max_length=60)
    action = _object(payload.get("action"), f"{where}.action")
    if kind == "button":
        buttons = action.get("buttons")
        if not isinstance(buttons, list) or not 1 <= len(buttons) <= 3:
            raise problem(f"{where}.action.buttons", "1 to 3 reply buttons.")
        for i, button in enumerate(buttons):
            reply = _object(_object(button, f"{where}.action.buttons[{i}]").get("reply"), f"{where}.action.buttons[{i}].reply")
            string(reply.get("id"), f"{where}.action.buttons[{i}].reply.id", max_length=256)
            string(reply.get("title"), f"{where}.action.buttons[{i}].reply.title", max_length=20)
    elif kind == "list":
        check_list_action(action, f"{where}.action")
    elif kind == "cta_url":
        parameters = _object(action.get("parameters"), f"{where}.action.parameters")
        string(parameters.get("display_text"), f"{where}.action.parameters.display_text", max_length=20)
        https_url(parameters.get("url"), f"{where}.action.parameters.url")
    return payload


def check_list_action(action: dict, where: str) -> None:
    string(action.get("button"), f"{where}.button", max_length=20)
    sections = action.get("sections")
    if not isinstance(sections, list) or not 1 <= len(sections) <= 10:
        raise problem(f"{where}.sections", "1 to 10 sections.")
    rows = 0
    for i, section in enumerate(sections):
        section = _object(section, f"{where}.sections[{i}]")
        if len(sections) > 1 or section.get("title") is not None:
            string(section.get("title"), f"{where}.sections[{i}].title", max_length=24)
        items = section.get("rows")
        if not isinstance(items, list) or not items:
            raise problem(f"{where}.sections[{i}].rows", "At least one row.")
        for j, row in enumerate(items):
            row = _object(row, f"{where}.sections[{i}].rows[{j}]")
            string(row.get("id"), f"{where}.sections[{i}].rows[{j}].id", max_length=200)
            string(row.get("title"), f"{where}.sections[{i}].rows[{j}].title", max_length=24)
            string(row.get("description"), f"{where}.sections[{i}].rows[{j}].description", max_length=72, required=False)
        rows += len(items)
    if rows > 10:
        raise problem(f"{where}.sections", f"At most 10 rows in all ({rows} given).")
