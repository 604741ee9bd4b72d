"""Shared fixtures: a real migrated database per test, SQLite or PostgreSQL (fixtures/engines.py),
copied from a template migrated once, the queue in immediate mode (or the server's threads, when a test asks:
fixtures/workers.py), a real local SMTP server, and a small API helper."""

from __future__ import annotations

import re
import shutil
import socket
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy

import pyotp
import pytest
from aiosmtpd.controller import Controller

from appliance import bootstrap
from appliance.app import create_app
from appliance.core import clock, crypto
from appliance.settings import load_settings
from tests.fixtures import engines
from tests.fixtures.doubles import allowed_doubles

# Fixtures every folder may use, without importing them: people, the simulated network, a business on it.
pytest_plugins = ["tests.fixtures.people", "tests.fixtures.network", "tests.fixtures.line", "tests.fixtures.hook",
                  "tests.fixtures.push_service", "tests.fixtures.tls", "tests.fixtures.workers"]

# argon2id at its cheapest (~0.1 ms instead of ~25 ms a hash): most tests sign someone up and none of
# those is about the hash. Tests marked `real_password_cost` hash as the product does.
CHEAP_PASSWORD_COST = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}
crypto.set_password_cost(**CHEAP_PASSWORD_COST)


def pytest_collection_modifyitems(items):
    """Tests that run whole servers, browsers and kills are marked `processes`: `make test` runs
    them alone, one at a time, after the rest has run on every core (their timings assume the
    machine is theirs)."""
    for item in items:
        path = str(item.path)
        if "/tests/e2e/" in path or path.endswith(("/tests/test_server.py",
                                                   "/tests/operations/test_upgrade_from_238e48e.py",
                                                   "/tests/backups/test_kills.py",
                                                   "/tests/backups/test_failed_migration.py")):
            item.add_marker(pytest.mark.processes)


@dataclass
class Mailbox:
    """Mails received by the local SMTP server."""
    messages: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    def last_to(self, address: str):
        mails = self.to(address)
        assert mails, f"no mail for {address}"
        return mails[-1]

    def token_from_last(self, address: str) -> str:
        body = self.last_to(address).get_content()
        return re.search(r"token=([\w-]+)", body).group(1)


@pytest.fixture(scope="session")
def smtp():
    mailbox = Mailbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield mailbox, port
    controller.stop()


@pytest.fixture(scope="session")
def template_database():
    """The migrated template's database URL on PostgreSQL (dropped when the run ends); "" on SQLite
    (the data directory's file)."""
    if not engines.ON_POSTGRES:
        yield ""
        return
    url = engines.new_template()
    yield url
    engines.drop(url)


@pytest.fixture(scope="session")
def template_data_dir(tmp_path_factory, template_database):
    data_dir = tmp_path_factory.mktemp("template")
    runtime = bootstrap.start(load_settings({}, data_dir=data_dir, database_url=template_database),
                              migrate=True, queue_immediate=True)
    runtime.db.dispose()
    return data_dir


@pytest.fixture
def database_url(request, template_data_dir, template_database):
    """This test's own database: "" on SQLite (a copy of the template's file comes with the data
    directory), a copy of the template database on PostgreSQL, dropped after the test."""
    if not engines.ON_POSTGRES:
        return ""
    url = engines.copy_of(template_database)
    request.addfinalizer(lambda: engines.drop(url))
    # The command line and the servers a test starts read it as the operator sets it: from the environment.
    monkeypatch = request.getfixturevalue("monkeypatch")
    monkeypatch.setenv("APPLIANCE_DATABASE_URL", url)
    return url


@pytest.fixture
def settings(request, tmp_path, template_data_dir, database_url, smtp):
    data_dir = tmp_path / "data"
    shutil.copytree(template_data_dir, data_dir)
    settings = load_settings({}, data_dir=data_dir, database_url=database_url, smtp_url=f"smtp://127.0.0.1:{smtp[1]}",
                             base_url="http://appliance.test")
    if "netsim_url" in request.fixturenames:  # the test plays the network: the app's Graph API is it
        settings = settings.replace(graph_api_url=request.getfixturevalue("netsim_url"), graph_timeout_seconds=2.0)
    return settings.replace(allowed_private_urls=allowed_doubles(request))


@pytest.fixture
def mailbox(smtp):
    mailbox = smtp[0]
    with mailbox.lock:
        mailbox.messages.clear()
    return mailbox


@pytest.fixture(autouse=True)
def _password_cost(request):
    if request.node.get_closest_marker("real_password_cost") is None:
        yield
        return
    crypto.set_password_cost(**crypto.PASSWORD_COST)
    yield
    crypto.set_password_cost(**CHEAP_PASSWORD_COST)


@pytest.fixture(autouse=True)
def _real_clock():
    clock.reset()
    yield
    clock.reset()


# Settings every test sets to its own (its data directory, its SMTP server, its simulator, the
# doubles it may reach), which
# the app reads through the runtime, never while it is being built.
_PER_TEST = {"data_dir", "database_url", "smtp_url", "graph_api_url", "graph_timeout_seconds", "base_url", "allowed_private_urls"}
_apps: dict[tuple, object] = {}


@pytest.fixture
def app(settings):
    """The app over this test's own database and runtime. Building the Flask app (its ~280 routes)
    took a third of a simple test, so one is kept per shape of settings and the test's runtime
    installed under it, as a restarted server would (a sandbox app is always new: it mounts its
    own simulator)."""
    shape = tuple(sorted((name, repr(value)) for name, value in settings._values.items() if name not in _PER_TEST))
    built = _apps.get(shape) if not settings.sandbox else None
    if built is None:
        built = create_app(settings, queue_immediate=True)
        if not settings.sandbox:
            _apps[shape] = built
    else:
        bootstrap.start(settings, queue_immediate=True)
    yield built
    from appliance.core import runtime
    runtime.get().db.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


class Api:
    """Talks to the app as an API client would."""

    def __init__(self, client):
        self.client = client

    def post(self, path, json=None, token=None, **kwargs):
        return self.client.post(path, json=json, headers=self._headers(token), **kwargs)

    def get(self, path, token=None):
        return self.client.get(path, headers=self._headers(token))

    def patch(self, path, json=None, token=None):
        return self.client.patch(path, json=json, headers=self._headers(token))

    def put(self, path, json=None, token=None):
        return self.client.put(path, json=json, headers=self._headers(token))

    def delete(self, path, token=None):
        return self.client.delete(path, headers=self._headers(token))

    @staticmethod
    def _headers(token):
        return {"Authorization": f"Bearer {token}"} if token else {}

    def signup(self, email="ana@example.com", password="correct horse battery", name="Ana", **extra):
        response = self.post("/auth/signup", {"email": email, "password": password, "name": name, **extra})
        assert response.status_code == 201, response.json
        return response.json["data"]

    def login(self, email="ana@example.com", password="correct horse battery", code=None, status=200):
        body = {"email": email, "password": password}
        if code is not None:
            body["twoFactorCode"] = code
        response = self.post("/auth/login", body, environ_base={"REMOTE_ADDR": "10.0.0.2"})
        assert response.status_code == status, response.json
        return response.json.get("data") if status == 200 else response.json

    def enable_2fa(self, token) -> tuple[pyotp.TOTP, list[str]]:
        setup = self.post("/auth/2fa/setup", token=token).json["data"]
        totp = pyotp.TOTP(setup["secret"])
        response = self.post("/auth/2fa/enable", {"code": totp.now()}, token=token)
        assert response.status_code == 200, response.json
        return totp, response.json["data"]["recoveryCodes"]


@pytest.fixture
def api(client):
    return Api(client)


def next_totp(totp: pyotp.TOTP) -> str:
    """A code for the next time step (a fresh code the server has not seen yet)."""
    clock.advance(30)
    return totp.at(clock.now())
