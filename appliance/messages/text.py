"""What a person reads in a message, whichever way it went: inbound rows keep the network's message
(`{"text": {"body": ...}}`), outbound rows the type's object (`{"body": ...}`). One reading serves
the full-text index, the inbox list's preview and the links of a conversation."""

from __future__ import annotations

import re

from appliance.messages.kinds import CAPTIONED_TYPES

PREVIEW_MAX = 200
# Emoji say what a message without words is, in every language of the inbox.
_KIND_MARKS = {"image": "📷", "video": "🎥", "audio": "🎤", "document": "📄", "sticker": "💟", "location": "📍",
               "contacts": "👤", "template": "📋", "interactive": "💬", "reaction": "", "order": "🛒"}
_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)


def _inner(kind: str, payload) -> dict:
    if not isinstance(payload, dict):
        return {}
    nested = payload.get(kind)
    return nested if isinstance(nested, dict) else payload


def _text(value) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def plain_text(kind: str, payload) -> str | None:
    """The words of a message (its body, caption, chosen reply, place...), or None."""
    inner = _inner(kind, payload)
    if kind == "text":
        return _text(inner.get("body"))
    if kind in CAPTIONED_TYPES:
        parts = [_text(inner.get("caption")), _text(inner.get("filename")) if kind == "document" else None]
        return " ".join(p for p in parts if p) or None
    if kind == "interactive":
        body = inner.get("body")
        for candidate in (body.get("text") if isinstance(body, dict) else None,
                          (inner.get("button_reply") or {}).get("title"), (inner.get("list_reply") or {}).get("title")):
            if _text(candidate):
                return _text(candidate)
        return None
    if kind == "button":
        return _text(inner.get("text"))
    if kind == "location":
        parts = [_text(inner.get("name")), _text(inner.get("address"))]
        return " · ".join(p for p in parts if p) or None
    if kind == "contacts":
        contacts = inner.get("contacts") if isinstance(inner.get("contacts"), list) else payload.get("contacts", [])
        names = [_text((c.get("name") or {}).get("formatted_name")) for c in contacts or [] if isinstance(c, dict)]
        return ", ".join(n for n in names if n) or None
    if kind == "template":  # what the customer read, when it was kept (sending/template_fill.py); else its name
        shown = inner.get("rendered") if isinstance(inner.get("rendered"), dict) else {}
        parts = [_text(shown.get(part)) for part in ("header", "body", "footer")]
        return "\n".join(p for p in parts if p) or _text(inner.get("name"))
    return None


def preview(kind: str, payload) -> str | None:
    """One line for the conversation list: the words, after an emoji for what has no words."""
    words = plain_text(kind, payload)
    mark = _KIND_MARKS.get(kind, "")
    line = f"{mark} {words}" if mark and words else (words or mark or None)
    if line is None:
        return None
    line = " ".join(line.split())
    return line if len(line) <= PREVIEW_MAX else line[:PREVIEW_MAX - 1] + "…"


def links(text: str | None) -> list[str]:
    """The web addresses in a text, in order, without trailing punctuation."""
    return [url.rstrip(".,;:!?)]}") for url in _URL.findall(text or "")]
