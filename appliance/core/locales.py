"""The languages the appliance speaks (accounts, mails, pages, the network's guidance), defined once.
Adding one: its code here, then each domain's texts (a test fails on a text missing in a language)."""

LOCALES = ("en", "es")
DEFAULT_LOCALE = "en"
