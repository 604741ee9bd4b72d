"""Organization slugs: the rules, the reserved words, and suggestions from a name."""

from __future__ import annotations

import re

from appliance.core.text import slugify

SLUG_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,47}$")  # 3..48, no leading/trailing/double dash
RESERVED = frozenset({
    "admin", "api", "app", "apps", "auth", "billing", "dashboard", "docs", "health", "help", "inbox",
    "login", "logout", "me", "new", "oauth", "organizations", "public", "root", "settings", "signup",
    "static", "status", "support", "system", "www", "appliance", "webhooks", "null", "undefined",
})


def problem(slug: str) -> str | None:
    """Why `slug` cannot be used, or None when its form is fine."""
    if not SLUG_PATTERN.match(slug):
        return "Use 3 to 48 lower-case letters, digits and single dashes, starting and ending with a letter or digit."
    if slug in RESERVED:
        return "This word is reserved."
    return None


def from_name(name: str) -> str:
    slug = slugify(name)
    if len(slug) < 3:
        slug = f"{slug}-org" if slug else "org"
    if slug in RESERVED:
        slug = f"{slug}-org"
    return slug
