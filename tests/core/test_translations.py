"""The gettext catalogs (appliance/translations, core/i18n.py): complete, the same messages as the code
and the templates, and what pages, mails and background work say in each language."""

import re
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po
from flask import render_template_string

import appliance.app  # noqa: F401  (every page module, and so every Words, is imported)
from appliance.core import i18n
from appliance.core.locales import LOCALES
from appliance.mail import templates as mail_templates
from appliance.paths import ROOT, TRANSLATIONS_DIR

# The keywords `make translations` extracts with: read from the Makefile, so the two cannot differ.
_MAKEFILE_KEYWORDS = re.findall(r"-k (\S+)", (ROOT / "Makefile").read_text())
_MAY_HOLD_MESSAGES = re.compile(r"\b(_|_l|_lp|_ln|gettext|pgettext|ngettext)\(")


def _catalog(lang: str):
    with open(TRANSLATIONS_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=lang)


def _keywords() -> dict:
    keywords = dict(DEFAULT_KEYWORDS)
    for spec in _MAKEFILE_KEYWORDS:
        name, _, args = spec.partition(":")
        keywords[name] = tuple((int(a[:-1]), "c") if a.endswith("c") else int(a) for a in args.split(",")) if args else None
    return keywords


def _messages_of_the_code() -> set:
    """What `pybabel extract` finds (babel.cfg: the package's Python, the templates), read only from
    files that name a gettext function at all (tokenizing every module would take seconds)."""
    assert {"_l", "_lp:1c,2", "_ln:1,2"} <= set(_MAKEFILE_KEYWORDS)
    keywords, found = _keywords(), set()
    sources = [(path, "python") for path in (ROOT / "appliance").rglob("*.py")]
    sources += [(path, "jinja2") for path in (ROOT / "web" / "templates").rglob("*.html")]
    for path, method in sources:
        if not _MAY_HOLD_MESSAGES.search(path.read_text(encoding="utf-8")):
            continue
        for _, message, _, context in extract_from_file(method, str(path), keywords=keywords):
            found.add((context, message))
    return found


def test_every_message_has_its_spanish_and_keeps_its_placeholders():
    """Every msgid has a Spanish msgstr (each plural form), none fuzzy, and each `{placeholder}` of the
    English is in the Spanish; English's catalog leaves msgstr empty (the msgid is the English) or
    keeps the placeholders too."""
    problems = []
    for lang in LOCALES:
        for message in _catalog(lang):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy:
                problems.append((lang, ids[0], "fuzzy"))
            if lang != "en" and not all(strings):
                problems.append((lang, ids[0], "not translated"))
            for index, text in enumerate(strings):
                english = ids[min(index, len(ids) - 1)]
                if text and not i18n.placeholders(english) <= i18n.placeholders(text):
                    problems.append((lang, english, f"placeholders missing in {text!r}"))
    assert problems == []


def test_the_catalogs_hold_exactly_the_messages_of_the_code_and_the_templates():
    """`make translations` would change nothing: no message of the code is missing from a catalog,
    none in a catalog is gone from the code."""
    expected = _messages_of_the_code()
    for lang in LOCALES:
        held = {(message.context, message.id) for message in _catalog(lang) if message.id}
        assert sorted(expected - held, key=str) == [], f"{lang}: run make translations and translate"
        assert sorted(held - expected, key=str) == [], f"{lang}: run make translations"


def test_every_declared_message_reads_in_every_language():
    """Each `Words` resolves in every language to the same keys, from messages the catalogs hold
    (a message made at run time instead of written out would escape extraction)."""
    held = {(message.context, message.id) for message in _catalog("es") if message.id}
    assert {words.name for words in i18n.Words.registry} >= {"layouts", "home", "auth", "oauth", "invitations", "inbox"}
    for words in i18n.Words.registry:
        for message in i18n.messages_in(words.declared):
            key = (message.context, (message.singular, message.plural) if isinstance(message, i18n.LazyPlural)
                   else message.message)
            assert key in held, (words.name, key)
        assert words["es"].keys() == words["en"].keys()


def test_plurals_and_numbers_follow_the_language():
    plural = i18n.LazyPlural("{n} contact", "{n} contacts")
    assert plural.resolve("en").format(n=1) == "1 contact"
    assert plural.resolve("en").format(n=1200) == "1,200 contacts"
    with i18n.in_language("es"):
        assert i18n.ngettext("{n} contact", "{n} contacts", 1).format(n=1) == "{n} contacto".format(n=1)
        assert plural.format(n=3) == "3 contactos"
    assert plural.resolve("es").format(n=12000) == "12.000 contactos"


def test_background_work_speaks_the_language_it_is_given():
    """Mails and notices are written for their reader, whatever language the code runs in."""
    spanish = mail_templates.render("reset_password", "es-CO", name="Ana", link="L", token="T")
    assert spanish.subject == "Restablece tu contraseña" and spanish.body.startswith("Hola Ana:")
    assert mail_templates.render("reset_password", "fr", name="Ann", link="L", token="T").subject == "Reset your password"
    with i18n.in_language("es"):
        assert i18n.gettext("Sign in") == "Iniciar sesión"
        assert str(i18n._l("Sign out")) == "Cerrar sesión"
    assert i18n.current_language() == "en" and i18n.gettext("Sign in") == "Sign in"


def test_a_page_and_the_templates_gettext_read_the_reader_language(app, client):
    """A page in Spanish and in English, and Flask-Babel's `_`/`ngettext` in templates reading the same
    catalogs, with Babel's date in the reader's language."""
    client.get("/language/es?next=/sign-in")
    spanish = client.get("/sign-in").text
    assert '<html lang="es">' in spanish and "Iniciar sesión" in spanish and "Cerrar sesión" not in spanish
    client.get("/language/en?next=/sign-in")
    assert "Sign in" in client.get("/sign-in").text
    template = "{{ _('Sign in') }} · {{ ngettext('{n} contact', '{n} contacts', 2) }} · {{ format_date(day, 'EEEE') }}"
    from datetime import date
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert render_template_string(template, day=date(2026, 1, 5)) == "Iniciar sesión · {n} contactos · lunes"
    with app.test_request_context(headers={"Accept-Language": "en-US"}):
        assert render_template_string(template, day=date(2026, 1, 5)) == "Sign in · {n} contacts · Monday"


def test_no_texts_dicts_left_in_the_package():
    """Words are declared once in English: no module keeps its own `{"es": ..., "en": ...}` dict or a
    `Texts(...)` per language any more."""
    offenders = []
    for path in Path(ROOT / "appliance").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if re.search(r"\bTexts\(", text) or re.search(r"""["']es["']:\s*[{("]""", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
