"""Issue 46: GET /metrics in Prometheus's text format behind APPLIANCE_METRICS: for a scraper on this
machine, or an installation administrator's bearer token from elsewhere; 404 while the setting is off."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

from appliance.backups import service as backups
from appliance.core import clock
from tests import factories
from tests.fixtures import engines
from tests.problems import assert_problem

ELSEWHERE = {"REMOTE_ADDR": "192.168.1.30"}


@pytest.fixture
def settings(settings):
    return settings.replace(metrics=True)


@pytest.fixture
def owner(api):
    return factories.owner(api)  # the first person: an administrator of the installation


def _families(text: str) -> dict:
    return {family.name: family for family in text_string_to_metric_families(text)}


def test_a_scraper_on_this_machine_reads_the_installation(client, owner):
    answer = client.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert answer.status_code == 200 and answer.content_type.startswith("text/plain; version=0.0.4")
    families = _families(answer.text)
    assert families["appliance_info"].samples[0].labels["version"]
    assert families["appliance_queue_waiting_tasks"].samples[0].value == 0
    assert families["appliance_disk_free_bytes"].samples[0].value > 0
    assert families["appliance_public_address_problems"].samples[0].value == 1  # the tests' address is not https
    assert families["appliance_tunnel_up"].samples[0].value == 0
    if engines.ON_POSTGRES:
        assert families["appliance_backups_by_postgresql"].samples[0].value == 1
    else:
        assert families["appliance_backups_by_postgresql"].samples[0].value == 0
        assert families["appliance_backup_last_ready_seconds"].samples[0].value == 0  # none yet


def test_a_backup_that_worked_shows_when(client, api, owner):
    if engines.ON_POSTGRES:  # its backups are PostgreSQL's own (backups/service.py): the appliance makes none
        assert_problem(api.post("/installation/backups", {}, token=owner["token"]), 409, "backups_by_postgresql")
        families = _families(client.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.1"}).text)
        # No "newest backup" to alert on: a 0 there would say none was ever made.
        assert "appliance_backup_last_ready_seconds" not in families
        assert "appliance_backup_last_failed_seconds" not in families
        return
    assert api.post("/installation/backups", {}, token=owner["token"]).status_code == 202
    backups.maker.wait(60)
    families = _families(client.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.1"}).text)
    assert abs(families["appliance_backup_last_ready_seconds"].samples[0].value - clock.now().timestamp()) < 60
    assert families["appliance_backup_last_failed_seconds"].samples[0].value == 0


def test_from_elsewhere_it_takes_an_administrators_token(client, api, owner):
    assert_problem(client.get("/metrics", environ_base=ELSEWHERE), 401, "authentication_required")
    other = factories.person(api, email="bo@example.com")["tokens"]["accessToken"]
    assert_problem(client.get("/metrics", environ_base=ELSEWHERE, headers={"Authorization": f"Bearer {other}"}),
                   403, "not_installation_admin")
    answer = client.get("/metrics", environ_base=ELSEWHERE, headers={"Authorization": f"Bearer {owner['token']}"})
    assert answer.status_code == 200 and "appliance_database_size_bytes" in answer.text


def test_without_the_setting_there_is_no_such_page(client, owner, settings):
    from appliance.core import runtime

    runtime.get().settings = runtime.get().settings.replace(metrics=False)
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.1"}).status_code == 404


class TestThroughTheTunnel:
    """cloudflared runs on this machine: what comes through it is from loopback, with Cloudflare's
    Cf-Connecting-IP naming the visitor. That visitor is not "this machine"."""

    @pytest.fixture
    def settings(self, settings):
        return settings.replace(metrics=True, tunnel="cloudflare")

    def test_a_visitor_through_the_tunnel_needs_the_token_a_local_scraper_does_not(self, client, owner):
        through = {"REMOTE_ADDR": "127.0.0.1"}
        assert_problem(client.get("/metrics", environ_base=through, headers={"Cf-Connecting-IP": "203.0.113.9"}),
                       401, "authentication_required")
        assert client.get("/metrics", environ_base=through).status_code == 200
        assert client.get("/metrics", environ_base=through, headers={
            "Cf-Connecting-IP": "203.0.113.9", "Authorization": f"Bearer {owner['token']}"}).status_code == 200
