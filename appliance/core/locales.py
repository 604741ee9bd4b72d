"""The languages the appliance speaks (accounts, mails, pages, the network's guidance), defined once.
Adding one: its code here, then its gettext catalog (docs/translations.md; a test fails on a message
missing in a language)."""

LOCALES = ("en", "es")
DEFAULT_LOCALE = "en"


# Countries whose customers the appliance's own words address in Spanish (the bot's list button and
# default error text, an order's notice, a survey's default questions); elsewhere English.
SPANISH_COUNTRIES = frozenset("AR BO CL CO CR CU DO EC ES GQ GT HN MX NI PA PE PR PY SV UY VE".split())


def customer_language(country: str | None) -> str:
    return "es" if (country or "").upper() in SPANISH_COUNTRIES else "en"
