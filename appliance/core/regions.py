"""The codes an organization's country and currency take, from data others keep current:
- countries: ISO 3166-1 alpha-2, as the IANA time zone database lists them (`iso3166.tab` in the
  pinned `tzdata` package), with each country's main zone from its `zone.tab`;
- currencies: ISO 4217 codes in use today somewhere (CLDR's territory currencies, through the pinned
  `babel`), not the historical or fund codes (`PES`, `MXV`, `XAU`);
- their names in the page's language, from CLDR (babel).
Nothing here is typed by hand except the few countries whose first zone in `zone.tab` is not where
most people live (see `_MAIN_ZONES`)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from babel import Locale
from babel.core import get_global
from babel.numbers import get_territory_currencies

from appliance.core import clock
from appliance.core.text import fold


def _tz_table(name: str) -> list[list[str]]:
    # One name per joinpath: inside the bundle `tzdata` is a namespace-like MultiplexedPath whose
    # joinpath takes a single child on Python 3.11.
    text = resources.files("tzdata").joinpath("zoneinfo").joinpath(name).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


_ENGLISH_NAMES = {row[0]: row[1] for row in _tz_table("iso3166.tab")}
COUNTRIES = frozenset(_ENGLISH_NAMES)

# zone.tab lists a country's zones in an order that "makes geographical sense" before putting the
# most populous first, so for these its first row is an edge (Noronha, St Johns, Lord Howe,
# Kaliningrad, Crimea, Samarkand) and the zone most of the country lives in is named here.
_MAIN_ZONES = {"AU": "Australia/Sydney", "BR": "America/Sao_Paulo", "CA": "America/Toronto",
               "RU": "Europe/Moscow", "UA": "Europe/Kyiv", "UZ": "Asia/Tashkent"}


def _first_zones() -> dict[str, str]:
    found: dict[str, str] = {}
    for row in _tz_table("zone.tab"):
        found.setdefault(row[0], row[2])
    return found


_ZONES = _first_zones() | _MAIN_ZONES


def main_zone(country: str | None) -> str | None:
    """The IANA zone where most of the country lives (None for the few places without people, e.g. BV)."""
    return _ZONES.get(country or "")


def _currencies_in_use() -> frozenset[str]:
    today = clock.now().date()  # the data changes with babel's version, not with the day: read once
    return frozenset(code for territory in get_global("territory_currencies")
                     for code in get_territory_currencies(territory, today, tender=True))


CURRENCIES = _currencies_in_use()


@cache
def country_names(language: str) -> tuple[tuple[str, str], ...]:
    """(code, name) for every country, by name as people of that language look it up."""
    names = Locale.parse(language).territories
    return tuple(sorted(((code, names.get(code, _ENGLISH_NAMES[code])) for code in COUNTRIES),
                        key=lambda pair: fold(pair[1])))


@cache
def currency_names(language: str) -> tuple[tuple[str, str], ...]:
    """(code, name) for every currency in use, by code (what a person types to find theirs)."""
    names = Locale.parse(language).currencies
    return tuple((code, _capitalized(names.get(code, code))) for code in sorted(CURRENCIES))


def _capitalized(name: str) -> str:
    return name[:1].upper() + name[1:]  # Spanish names are written in lower case ("peso mexicano")
