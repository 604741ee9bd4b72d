"""GET /installation/status (api-decisions, "Operating the appliance"): every field of the decision,
for the installation's administrators only; the queue's failures counted; HTTPS, the tunnel and
what Meta last did as they are."""

import datetime as dt
import shutil

import appliance
from appliance.core import clock, queue, runtime
from appliance.installation import https, tunnel
from tests import factories
from tests.fixtures import engines
from tests.fixtures.line import VERIFY_TOKEN
from tests.fixtures.tls import make_ca
from tests.problems import assert_problem

STATUS = "/installation/status"


@queue.huey.task()
def _breaks():
    raise RuntimeError("a task that fails")


def _status(api, token) -> dict:
    answer = api.get(STATUS, token=token)
    assert answer.status_code == 200, answer.json
    return answer.json["data"]


def _moment(text: str) -> dt.datetime:
    assert text.endswith("Z"), text
    return dt.datetime.fromisoformat(text[:-1] + "+00:00")


def test_it_says_every_field_of_the_decision(api, owner, settings):
    data = _status(api, owner["token"])
    assert set(data) == {"version", "startedAt", "database", "disk", "queue", "backups", "publicAddress", "tls",
                         "tunnel", "whatsapp"}
    assert data["version"] == appliance.__version__
    assert _moment(data["startedAt"]) <= clock.now()

    database = data["database"]
    if engines.ON_POSTGRES:
        assert database["engine"] == "postgresql" and database["sizeBytes"] > 0
        with runtime.get().db.unit_of_work(write=False) as session:
            running = session.connection().exec_driver_sql("SHOW server_version").scalar()
        assert database["postgresqlVersion"] == running
    else:
        assert database["engine"] == "sqlite"
        assert database["sizeBytes"] >= settings.database_path.stat().st_size > 0
        # The SQLite the database runs on (pysqlite3's own, core/db.py), not the one Python was built with.
        with runtime.get().db.unit_of_work(write=False) as session:
            running = session.connection().exec_driver_sql("select sqlite_version()").scalar()
        assert database["sqliteVersion"] == running

    free = shutil.disk_usage(settings.data_dir).free
    assert abs(data["disk"]["freeBytes"] - free) < 256 * 1024 * 1024  # the disk of the data directory, as it is
    assert set(data["queue"]) == {"waiting", "failed"} and data["queue"]["waiting"] == 0
    # None made yet (issue 46 makes them); on PostgreSQL they are PostgreSQL's own (backups/service.py).
    assert data["backups"] == {"lastReadyAt": None, "lastFailedAt": None, "byPostgresql": engines.ON_POSTGRES}
    assert data["publicAddress"] == {"baseUrl": "http://appliance.test", "source": "setting", "problems": ["not_https"]}
    assert data["tls"] == {"mode": "off", "httpsPort": None, "domains": [], "notAfter": None, "installedAt": None,
                           "renewAt": None, "lastError": None, "lastErrorAt": None, "nextTryAt": None}
    assert data["tunnel"] == {"provider": None, "state": "off", "lastError": None, "restarts": 0, "startedAt": None,
                              "connectedAt": None}
    assert data["whatsapp"] == {"lastDeliveryAt": None, "verifiedAt": None, "lastRejectedAt": None,
                                "refusedVerifications": data["whatsapp"]["refusedVerifications"]}
    assert isinstance(data["whatsapp"]["refusedVerifications"], int)


def test_only_an_administrator_of_the_installation_reads_it(api, client, owner):
    assert_problem(api.get(STATUS), 401, "authentication_required")
    other = factories.person(api, email="bo@example.com")["tokens"]["accessToken"]
    assert_problem(api.get(STATUS, token=other), 403, "not_installation_admin")
    # An organization owner who does not administer the installation is refused too.
    theirs = factories.organization(api, other, name="Otra", slug="otra")
    assert theirs["id"] and api.get(STATUS, token=other).status_code == 403
    # An API key, even the administrator's organization's, belongs to an organization, not the installation.
    key = api.post(f"/organizations/{owner['org']['id']}/api-keys", {"name": "monitor"}, token=owner["token"]).json["data"]
    assert_problem(client.get(STATUS, headers={"X-Api-Key": key["secret"]}), 403, "api_key_not_allowed")


def test_a_task_that_raised_is_counted_as_failed(api, owner):
    before = _status(api, owner["token"])["queue"]["failed"]
    _breaks()  # the queue runs it at once in tests, as a worker would later: its error is logged, not raised
    assert _status(api, owner["token"])["queue"]["failed"] == before + 1


def test_https_and_the_tunnel_as_they_are(api, owner, settings, tmp_path):
    ca = make_ca()
    chain, key = ca.leaf(("localhost", "chat.sol.test"))
    (tmp_path / "cert.pem").write_bytes(chain)
    (tmp_path / "key.pem").write_bytes(key)
    https.start(settings.replace(tls="files", tls_cert=str(tmp_path / "cert.pem"), tls_key=str(tmp_path / "key.pem")))
    runtime.get().settings = runtime.get().settings.replace(tunnel="cloudflare", tunnel_token="")
    tunnel.start(runtime.get().settings)
    try:
        data = _status(api, owner["token"])
    finally:
        https.stop()
        tunnel.stop()
    tls = data["tls"]
    assert (tls["mode"], tls["httpsPort"], tls["domains"], tls["lastError"]) == (
        "files", 8443, ["localhost", "chat.sol.test"], None)
    assert _moment(tls["installedAt"]) <= clock.now() < _moment(tls["notAfter"])
    # A tunnel asked for without its token is a state with its sentence, not a failed start.
    assert (data["tunnel"]["provider"], data["tunnel"]["state"], data["tunnel"]["lastError"]) == (
        "cloudflare", "missing", "APPLIANCE_TUNNEL=cloudflare needs APPLIANCE_TUNNEL_TOKEN")


def test_what_meta_last_did(api, line):
    token = line.owner["token"]
    assert _status(api, token)["whatsapp"]["lastDeliveryAt"] is None
    assert line.client.get("/webhooks/whatsapp", query_string={
        "hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "42"}).status_code == 200
    line.customer_writes()
    assert [answer.status_code for answer in line.deliver()] == [200]
    whatsapp = _status(api, token)["whatsapp"]
    assert whatsapp["verifiedAt"] is not None and _moment(whatsapp["lastDeliveryAt"]) <= clock.now()
