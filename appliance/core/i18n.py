"""The appliance's words in every language: gettext catalogs, the language being spoken, and
`Words`, a page's (or a domain's) texts declared once in English and read in any language.

English is the code's language: an English sentence is its own message id, and each language's
translations are in `appliance/translations/<lang>/LC_MESSAGES/messages.po` (docs/translations.md
says how to add one). The catalogs are read from the .po files at their first use, compiled in
memory and kept: no compiled .mo file is built or shipped.

The language spoken is the one `in_language` set (mails, bot messages, pushes: work done for
someone who is not the reader), else the page's (the http layer tells it through
`read_language_from`), else English. Declarations at import time use the lazy forms (`_l`,
`_lp`, `_ln`): they are translated when read, in the language asked for.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from io import BytesIO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from appliance.core.locales import DEFAULT_LOCALE, LOCALES
from appliance.paths import TRANSLATIONS_DIR

__all__ = ["LOCALES", "DEFAULT_LOCALE", "Words", "CombinedWords", "ByLanguage", "in_language", "current_language",
           "gettext", "pgettext", "ngettext", "_l", "_lp", "_ln"]

_spoken: ContextVar[str | None] = ContextVar("spoken_language", default=None)
_ambient: Callable[[], str | None] | None = None


def read_language_from(source: Callable[[], str | None]) -> None:
    """Where the language comes from when no `in_language` block says it: the http layer installs
    the page's (the reader's choice or their browser's); None outside a request."""
    global _ambient
    _ambient = source


def language_of(locale: str | None) -> str:
    """One of LOCALES for a stored locale ("es", "es-CO", "en_US", None): its language, else English."""
    lang = (locale or "")[:2].lower()
    return lang if lang in LOCALES else DEFAULT_LOCALE


def current_language() -> str:
    chosen = _spoken.get() or (_ambient() if _ambient else None)
    return chosen if chosen in LOCALES else DEFAULT_LOCALE


@contextmanager
def in_language(locale: str | None) -> Iterator[str]:
    """Speak `locale`'s language inside the block (work done for someone else: a mail to a person, a
    message to a customer); yields the language chosen."""
    token = _spoken.set(language_of(locale))
    try:
        yield _spoken.get()
    finally:
        _spoken.reset(token)


@cache
def translations(lang: str) -> Translations:
    """`lang`'s catalog, read from its .po file and compiled in memory once (fuzzy entries left out)."""
    if lang not in LOCALES:
        raise KeyError(lang)
    with open(TRANSLATIONS_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain="messages")


def gettext(message: str) -> str:
    return translations(current_language()).gettext(message)


def pgettext(context: str, message: str) -> str:
    return translations(current_language()).pgettext(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return translations(current_language()).ngettext(singular, plural, count)


class Lazy:
    """A message translated when it is read: `str(lazy)` in the language spoken, `resolve(lang)` in
    another. Made at import time by `_l` / `_lp`."""

    __slots__ = ("context", "message")

    def __init__(self, message: str, context: str | None = None):
        self.message, self.context = message, context

    def resolve(self, lang: str) -> str:
        catalog = translations(lang)
        return catalog.pgettext(self.context, self.message) if self.context else catalog.gettext(self.message)

    def __str__(self) -> str:
        return self.resolve(current_language())

    def format(self, *args, **values) -> str:
        return str(self).format(*args, **values)

    def __repr__(self) -> str:
        return f"_l({self.message!r})" if self.context is None else f"_lp({self.context!r}, {self.message!r})"


class Plural(str):
    """A resolved plural message. As a text it is the plural form; `format(n=3, ...)` picks the form
    the language uses for the count (named by `count`) and writes the count with its digit grouping."""

    def __new__(cls, lang: str, singular: str, plural: str, context: str | None, count: str):
        made = super().__new__(cls, cls._form(lang, singular, plural, context, 2))
        made.lang, made.singular, made.plural, made.context, made.count = lang, singular, plural, context, count
        return made

    @staticmethod
    def _form(lang: str, singular: str, plural: str, context: str | None, n: int) -> str:
        catalog = translations(lang)
        return catalog.npgettext(context, singular, plural, n) if context else catalog.ngettext(singular, plural, n)

    def format(self, *args, **values) -> str:
        n = values[self.count]
        values[self.count] = format_decimal(n, locale=self.lang)
        return self._form(self.lang, self.singular, self.plural, self.context, n).format(*args, **values)


class LazyPlural:
    """A message with a singular and a plural, declared at import time (`_ln`)."""

    __slots__ = ("singular", "plural", "context", "count")

    def __init__(self, singular: str, plural: str, context: str | None = None, count: str = "n"):
        self.singular, self.plural, self.context, self.count = singular, plural, context, count

    def resolve(self, lang: str) -> Plural:
        return Plural(lang, self.singular, self.plural, self.context, self.count)

    def format(self, *args, **values) -> str:
        return self.resolve(current_language()).format(*args, **values)


class ByLanguage:
    """A value each language computes for itself (CLDR's day names, the other language's name)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[str], object]):
        self.make = make

    def resolve(self, lang: str):
        return self.make(lang)


def _l(message: str) -> Lazy:
    return Lazy(message)


def _lp(context: str, message: str) -> Lazy:
    """The same English said differently elsewhere: `context` tells the two apart in the catalog."""
    return Lazy(message, context)


def _ln(singular: str, plural: str, *, count: str = "n") -> LazyPlural:
    return LazyPlural(singular, plural, count=count)


def resolved(value, lang: str):
    """`value` read in `lang`: lazy messages translated, dicts, lists and tuples walked."""
    if isinstance(value, (Lazy, LazyPlural, ByLanguage)):
        return value.resolve(lang)
    if isinstance(value, dict):
        return {key: resolved(item, lang) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(resolved(item, lang) for item in value)
    return value


def messages_in(value) -> Iterator[Lazy | LazyPlural]:
    """Every lazy message of a declaration, nested ones too."""
    if isinstance(value, (Lazy, LazyPlural)):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from messages_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from messages_in(item)


_TEMPLATE_FIELD = re.compile(r"%\((\w+)\)[sd]")


def placeholders(text: str) -> set[str]:
    """The `{name}` fields of a text (`{{` and `}}` are braces, not fields), and the `%(name)s` of a
    message written in a template (Jinja's gettext fills those)."""
    fields = {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}
    return fields | {f"%({name})" for name in _TEMPLATE_FIELD.findall(text)}


class Words:
    """A page's (or domain's) texts: `Words("inbox", {"send": _l("Send"), ...})`; `words[lang]` is
    the dict in that language, nested dicts and lists too, resolved once per language."""

    registry: list["Words"] = []

    def __init__(self, name: str, declared: dict):
        self.name, self.declared, self._by_language = name, declared, {}
        Words.registry.append(self)

    def __getitem__(self, lang: str) -> dict:
        if lang not in LOCALES:
            raise KeyError(lang)
        found = self._by_language.get(lang)
        if found is None:
            found = self._by_language[lang] = resolved(self.declared, lang)
        return found

    def __or__(self, other: "Words") -> "CombinedWords":
        """A section's words over its area's (the console's navigation and a page's own words)."""
        return CombinedWords((self, other))


class CombinedWords:
    """Several `Words` read as one: later ones win, and their `done` and `errors` dicts are merged
    rather than replaced."""

    def __init__(self, parts: tuple):
        self.parts, self._by_language = parts, {}

    def __or__(self, other: Words) -> "CombinedWords":
        return CombinedWords((*self.parts, other))

    def __getitem__(self, lang: str) -> dict:
        if lang not in self._by_language:
            merged: dict = {}
            for part in self.parts:
                for key, value in part[lang].items():
                    merged[key] = {**merged.get(key, {}), **value} if key in ("done", "errors") else value
            self._by_language[lang] = merged
        return self._by_language[lang]
