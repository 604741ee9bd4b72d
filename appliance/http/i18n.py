"""The language of server-rendered pages: the browser's preference among those we ship."""

from flask import request

from appliance.core.locales import DEFAULT_LOCALE, LOCALES


def page_locale() -> str:
    return request.accept_languages.best_match(LOCALES) or DEFAULT_LOCALE
