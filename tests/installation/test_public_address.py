"""Issue 45: the installation's administrators and the public address (GET/PUT
/installation/public-address): who may, what is stored, where it comes from, its problems."""

import pytest

from appliance import cli
from appliance.core import runtime
from appliance.settings import SETTINGS
from tests import factories
from tests.problems import assert_problem

ADDRESS = "/installation/public-address"


@pytest.fixture
def settings(settings):
    """As it ships: no APPLIANCE_BASE_URL, port 8080."""
    unset = next(s.default for s in SETTINGS if s.name == "APPLIANCE_BASE_URL")
    return settings.replace(base_url=unset)


@pytest.fixture
def owner(api):
    return factories.owner(api)  # the first person: an administrator of the installation


def test_the_default_follows_the_port_served_and_says_why_nobody_outside_reaches_it(api, owner):
    answer = api.get(ADDRESS, token=owner["token"])
    assert answer.status_code == 200, answer.json
    data = answer.json["data"]
    assert data["baseUrl"] == "http://127.0.0.1:8080" and data["source"] == "default"
    assert data["problems"] == ["not_https", "loopback"] and data["checkedAt"]


@pytest.mark.parametrize("address, problems", [
    ("https://1.2.3.4:8443", []),
    ("http://192.168.1.20:8080", ["not_https", "private_address"]),
    ("https://tienda.local", ["private_address"]),
    ("https://localhost", ["loopback"]),
    ("https://[::1]:8443", ["loopback"]),
    ("http://100.64.3.4", ["not_https", "private_address"]),
])
def test_a_kept_address_is_stored_with_its_problems(api, owner, address, problems):
    kept = api.put(ADDRESS, {"baseUrl": address}, token=owner["token"])
    assert kept.status_code == 200, kept.json
    assert (kept.json["data"]["baseUrl"], kept.json["data"]["source"], kept.json["data"]["problems"]) == (
        address, "console", problems)
    assert api.get(ADDRESS, token=owner["token"]).json["data"]["baseUrl"] == address


@pytest.mark.parametrize("address", ["tienda.example.com", "ftp://tienda.example.com", "https://tienda.example.com/app",
                                     "https://tienda.example.com?x=1", "https://tienda.example.com#top",
                                     "https://ana:secreto@tienda.example.com", "https://tienda.example.com:99999",
                                     "https://[nope]", "https://" + "a" * 300 + ".com"])
def test_an_address_that_is_not_one_is_400_with_the_field(api, owner, address):
    answer = api.put(ADDRESS, {"baseUrl": address}, token=owner["token"])
    assert_problem(answer, 400, "invalid_base_url")
    assert answer.json["errors"]["baseUrl"]
    assert api.get(ADDRESS, token=owner["token"]).json["data"]["source"] == "default"  # nothing half-kept


def test_the_environment_wins_and_a_put_is_409(api, owner):
    runtime.get().settings = runtime.get().settings.replace(base_url="https://chat.panaderia.mx")
    data = api.get(ADDRESS, token=owner["token"]).json["data"]
    assert (data["baseUrl"], data["source"], data["problems"]) == ("https://chat.panaderia.mx", "setting", [])
    assert_problem(api.put(ADDRESS, {"baseUrl": "https://1.2.3.4"}, token=owner["token"]), 409, "set_by_environment")


def test_only_an_administrator_of_the_installation_may(api, client, owner, settings):
    other = factories.person(api, email="bo@example.com")["tokens"]["accessToken"]
    assert_problem(api.get(ADDRESS, token=other), 403, "not_installation_admin")
    assert_problem(api.put(ADDRESS, {"baseUrl": "https://1.2.3.4"}, token=other), 403, "not_installation_admin")
    # An API key, even the owner's, belongs to an organization, never to the installation.
    key = api.post(f"/organizations/{owner['org']['id']}/api-keys", {"name": "erp"}, token=owner["token"]).json["data"]
    assert_problem(client.get(ADDRESS, headers={"X-Api-Key": key["secret"]}), 403, "api_key_not_allowed")

    assert cli.main(["--data-dir", str(settings.data_dir), "staff", "admin", "bo@example.com"]) == 0
    assert api.get(ADDRESS, token=other).status_code == 200
    assert cli.main(["--data-dir", str(settings.data_dir), "staff", "admin", "bo@example.com", "--remove"]) == 0
    assert_problem(api.get(ADDRESS, token=other), 403, "not_installation_admin")


def test_the_last_administrator_is_never_removed(owner, settings, capsys):
    assert cli.main(["--data-dir", str(settings.data_dir), "staff", "admin", "owner@example.com", "--remove"]) == 1
    assert "last administrator" in capsys.readouterr().err
    assert cli.main(["--data-dir", str(settings.data_dir), "staff", "admin", "nobody@example.com"]) == 1
