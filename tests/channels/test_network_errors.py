"""The catalog of network error codes: every entry complete in both languages, retry advice that
agrees with the client's, and the guidance carried by answers a person gets."""

import requests

from appliance.core.locales import LOCALES
from appliance.graph_api import client, errors


def test_the_catalog_explains_at_least_40_codes_in_both_languages():
    catalog = errors.catalog()
    assert len(catalog) >= 40
    for code, info in catalog.items():
        assert info.title and info.code == code
        for language in LOCALES:  # every language the appliance speaks
            text = info.guidance[language]
            assert 20 <= len(text) <= 300 and text.endswith("."), (code, language)
        assert info.guidance["en"] != info.guidance["es"], code
    for code in (131047, 131026, 130429, 131056, 132000, 132001, 132012, 190):
        assert code in catalog


def test_retry_advice_agrees_with_the_client():
    for code, info in errors.catalog().items():
        error = client.GraphError(400, code, "x")
        assert error.retryable == info.retryable, code


def test_unknown_and_ranged_codes():
    assert errors.explain(250).title == errors.explain(200).title
    unknown = errors.explain(999999)
    assert unknown.code == 999999 and not unknown.retryable and unknown.guidance["es"]


def test_answers_carry_the_guidance(line):
    requests.put(f"{line.netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)
    down = line.api.get(f"/organizations/{line.org_id}/phone-numbers/{line.number['id']}/profile",
                        token=line.owner["token"])
    assert down.status_code == 503
    assert down.json["guidance"] == errors.explain(131000).guidance
