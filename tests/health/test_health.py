import os

import psycopg

import appliance
from appliance.app import create_app
from appliance.core import queue, runtime
from tests.fixtures import engines


def test_health_names_service_and_version(client):
    """GET /health: status, service, version and timestamp, in the envelope."""
    data = client.get("/health").json["data"]
    assert data["status"] == "ok" and data["service"] == "appliance"
    assert data["version"] == appliance.__version__ and data["timestamp"].endswith("Z")


def test_live_reports_uptime(client):
    """GET /health/live answers 200 with the uptime."""
    response = client.get("/health/live")
    assert response.status_code == 200 and response.json["data"]["uptimeSeconds"] >= 0


def _real_queue_app(settings):
    app = create_app(settings, queue_immediate=False)
    return app.test_client()


def test_ready_when_database_and_queue_work(settings):
    """GET /health/ready: 200 with both checks ok, on the real queue file."""
    client = _real_queue_app(settings)
    response = client.get("/health/ready")
    assert response.status_code == 200
    assert response.json["data"]["checks"] == {"database": "ok", "queue": "ok"}
    queue.configure(None, immediate=True)


def _break_the_database(settings) -> None:
    """SQLite: the file is no longer a database. PostgreSQL: the server no longer lets anyone into
    the database, and the sessions in it end (as when it goes away)."""
    if engines.ON_POSTGRES:
        name = engines.database_name(settings.database_location)
        with psycopg.connect(engines.server_url(), autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        return
    runtime.get().db.dispose()
    for suffix in ("", "-wal", "-shm"):
        path = str(settings.database_path) + suffix
        if os.path.exists(path):
            os.remove(path)
    settings.database_path.write_bytes(b"this is not a database" * 100)


def test_ready_is_503_when_the_database_is_broken(settings):
    """A database file that is not a database, or a PostgreSQL database nobody may enter, makes
    readiness 503 not_ready."""
    client = _real_queue_app(settings)
    _break_the_database(settings)
    response = client.get("/health/ready")
    assert response.status_code == 503
    assert response.json["code"] == "not_ready" and response.json["checks"]["database"] == "failing"
    queue.configure(None, immediate=True)


def test_ready_is_503_when_the_queue_store_fails(settings):
    """An unusable queue store (queue.db; on PostgreSQL the queue's tables) makes readiness 503 with
    the queue named."""
    client = _real_queue_app(settings)
    queue.huey.storage.close()
    if engines.ON_POSTGRES:
        queue.huey.storage.sql("DROP TABLE queue_task")
    else:
        os.remove(settings.queue_path)
        os.mkdir(settings.queue_path)  # a directory where the file should be
    response = client.get("/health/ready")
    assert response.status_code == 503 and response.json["checks"]["queue"] == "failing"
    queue.configure(None, immediate=True)
