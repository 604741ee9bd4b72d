"""The language of server-rendered pages: the browser's preference among those we ship."""

from flask import request

PAGE_LOCALES = ("en", "es")


def page_locale() -> str:
    return request.accept_languages.best_match(PAGE_LOCALES) or "en"
