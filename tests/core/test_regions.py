"""The lists an organization's country and currency come from (issue 43): codes that exist, a main
zone for every country with people, names in both of the appliance's languages."""

from zoneinfo import available_timezones

from appliance.core import regions
from appliance.core.locales import LOCALES


def test_countries_are_iso_3166_codes_that_exist():
    assert len(regions.COUNTRIES) == 249
    assert {"MX", "CO", "ES", "US", "ME", "BR"} <= regions.COUNTRIES
    assert not {"QQ", "XK", "EU", "ZZ", "UN", "MEX"} & regions.COUNTRIES


def test_currencies_are_iso_4217_codes_in_use():
    assert {"MXN", "COP", "EUR", "USD", "ARS", "VES", "PEN"} <= regions.CURRENCIES
    assert not {"PES", "MXV", "XAU", "VEF", "ESP", "XXX"} & regions.CURRENCIES  # old, funds, metals, tests


def test_every_main_zone_is_a_zone_of_this_machine():
    zones = available_timezones()
    places_without_a_zone = {country for country in regions.COUNTRIES if regions.main_zone(country) is None}
    assert places_without_a_zone == {"BV", "HM"}  # uninhabited islands
    assert all(regions.main_zone(country) in zones for country in regions.COUNTRIES - places_without_a_zone)
    assert (regions.main_zone("MX"), regions.main_zone("CO"), regions.main_zone("US"), regions.main_zone("CA")) == (
        "America/Mexico_City", "America/Bogota", "America/New_York", "America/Toronto")


def test_names_in_every_language_sorted_as_people_read_them():
    for language in LOCALES:
        countries, currencies = regions.country_names(language), regions.currency_names(language)
        assert {code for code, _ in countries} == regions.COUNTRIES and all(name for _, name in countries)
        assert {code for code, _ in currencies} == regions.CURRENCIES
    spanish = dict(regions.country_names("es"))
    assert (spanish["MX"], spanish["ME"], dict(regions.currency_names("es"))["MXN"]) == (
        "México", "Montenegro", "Peso mexicano")
    assert dict(regions.country_names("en"))["MX"] == "Mexico"
    names = [name for _, name in regions.country_names("es")]
    assert names.index("Irán") < names.index("Irlanda") < names.index("Zimbabue")  # accents do not sort last
