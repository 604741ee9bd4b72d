"""The one way pages are made: one layout per kind of page, the language switch (the words in every
language: tests/core/test_translations.py)."""

import re
from pathlib import Path

from appliance.paths import WEB_DIR


def test_every_page_extends_a_layout():
    """Pages extend layouts/card.html or layouts/app.html, directly or through a section's base
    (console/base.html); partials (_*.html) and layouts themselves extend nothing."""
    templates = Path(WEB_DIR) / "templates"

    def layout_of(path):
        found = re.search(r'{% extends "([^"]+)" %}', path.read_text())
        if found is None or found.group(1).startswith("layouts/"):
            return found and found.group(1)
        return layout_of(templates / found.group(1))

    for path in templates.rglob("*.html"):
        if path.name.startswith("_") or path.parent.name == "layouts" or "{% extends" not in path.read_text():
            continue
        assert layout_of(path) in ("layouts/card.html", "layouts/app.html"), path


def test_pages_follow_the_chosen_language_and_the_switch_stays_on_site(client):
    """/language/es switches every page to Spanish and goes back where the reader was; an outside
    address is refused as the way back."""
    assert "Sign in" in client.get("/sign-in").text
    switched = client.get("/language/es?next=/sign-in")
    assert switched.status_code == 302 and switched.headers["Location"] == "/sign-in"
    page = client.get("/sign-in")
    assert "Iniciar sesión" in page.text and '<html lang="es">' in page.text
    assert client.get("/language/en?next=https://evil.example/").headers["Location"] == "/"
    assert client.get("/language/fr?next=/sign-in").status_code == 302  # not a language we speak: ignored
    assert "Sign in" in client.get("/sign-in").text


def test_no_template_reads_a_text_named_like_a_dict_method():
    """A page's texts are a dict, and Jinja's `t.copy` finds dict.copy before the "copy" text: the
    buttons of five pages said "<built-in method copy of dict object>". Such keys are read t['copy']."""
    import re
    methods = "|".join(name for name in dir(dict) if not name.startswith("_"))
    pattern = re.compile(rf"\bt\.({methods})\b(?!\()")
    offenders = [f"{path.name}: {match.group(0)}" for path in (Path(WEB_DIR) / "templates").rglob("*.html")
                 for match in pattern.finditer(path.read_text())]
    assert offenders == []
