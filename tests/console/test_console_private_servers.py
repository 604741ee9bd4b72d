"""Issue 44: the installation's allowed private servers, kept in the console by its administrator
(the first person, as the mail server is), in English and Spanish; the environment's
APPLIANCE_ALLOWED_PRIVATE_URLS wins and shows read-only. What the list allows is what
organizations' providers may then reach."""

import pytest

from tests import factories
from tests.browser_forms import csrf_of, sign_in
from tests.problems import assert_problem

PAGE = "/console/private-servers"


@pytest.fixture
def settings(settings):
    return settings.replace(allowed_private_urls="")  # not set in the environment: the console decides


def _save(client, text, **headers):
    return client.post(PAGE, data={"csrf": csrf_of(client.get(PAGE)), "origins": text}, headers=headers)


def test_the_administrator_lists_the_private_servers_that_organizations_may_reach(client, api, owner):
    local = f"/organizations/{owner['org']['id']}/bot/providers/LOCAL"
    assert_problem(api.put(local, {"baseUrl": "http://127.0.0.1:11434"}, token=owner["token"]), 400, "url_not_allowed")
    sign_in(client, email="owner@example.com")
    page = client.get(PAGE)
    assert page.status_code == 200 and "only public servers are reached" in page.text
    assert f'href="{PAGE}"' in client.get("/console/account").text  # in the administrator's navigation

    bad = _save(client, "http://127.0.0.1:11434\nftp://nas.local")
    assert bad.status_code == 400 and 'id="error-origins"' in bad.text and "ftp://nas.local" in bad.text
    assert_problem(api.put(local, {"baseUrl": "http://127.0.0.1:11434"}, token=owner["token"]), 400, "url_not_allowed")

    saved = _save(client, "http://127.0.0.1:11434, http://192.168.1.50/\n\n")
    assert saved.status_code == 302 and saved.location.endswith("done=private_servers_saved#done")
    shown = client.get(PAGE).text
    assert "http://127.0.0.1:11434\nhttp://192.168.1.50</textarea>" in shown and "are saved" in client.get(saved.location).text
    assert api.put(local, {"baseUrl": "http://127.0.0.1:11434"}, token=owner["token"]).status_code == 200
    for refused in ("http://127.0.0.1:8080", "https://127.0.0.1:11434", "http://192.168.1.51"):
        assert_problem(api.put(local, {"baseUrl": refused}, token=owner["token"]), 400, "url_not_allowed")
    assert api.put(local, {"baseUrl": "http://192.168.1.50:8000"}, token=owner["token"]).status_code == 200  # any port

    assert _save(client, "").status_code == 302  # emptied: loopback refused again
    assert_problem(api.put(local, {"baseUrl": "http://127.0.0.1:11434"}, token=owner["token"]), 400, "url_not_allowed")


def test_only_the_administrator_sees_or_changes_them(client, api, owner):
    factories.add_member(api, owner["org"]["id"], "admin", "beto@example.com")
    sign_in(client, email="beto@example.com")
    assert client.get(PAGE).status_code == 403
    assert f'href="{PAGE}"' not in client.get("/console/account").text
    assert client.post(PAGE, data={"csrf": csrf_of(client.get("/console/account")), "origins": "http://10.0.0.1"}
                       ).status_code == 403


def test_the_page_speaks_spanish(client, owner):
    sign_in(client, email="owner@example.com")
    page = client.get(PAGE, headers={"Accept-Language": "es"})
    assert "Servidores privados" in page.text and "solo se alcanzan servidores públicos" in page.text
    bad = _save(client, "gopher://x", **{"Accept-Language": "es"})
    assert bad.status_code == 400 and "Escribe un servidor por línea" in bad.text


class TestSetInTheEnvironment:
    @pytest.fixture
    def settings(self, settings):
        return settings.replace(allowed_private_urls="http://127.0.0.1:11434")

    def test_the_environment_wins_and_the_page_shows_it_read_only(self, client, owner):
        sign_in(client, email="owner@example.com")
        page = client.get(PAGE)
        assert "APPLIANCE_ALLOWED_PRIVATE_URLS" in page.text and "<code>http://127.0.0.1:11434</code>" in page.text
        assert "<textarea" not in page.text
        refused = _save(client, "http://10.0.0.1")
        assert refused.status_code == 400 and "change it there" in refused.text
