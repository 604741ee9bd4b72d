"""`appliance migrate-to-postgres URL`: a SQLite installation with data moves into an empty
PostgreSQL database, verified table by table, and is then served from it (whichever engine the
suite runs on: the installation made here is SQLite's, the target the tests' PostgreSQL server)."""

from __future__ import annotations

import pytest
from sqlmodel import func, select

from appliance.app import create_app
from appliance.cli import main
from appliance.contacts.models import Contact
from appliance.core import runtime
from appliance.core.db import Database
from appliance.settings import load_settings
from appliance.users.models import User
from tests.fixtures import engines

SHIPPING = "El envío a domicilio cuesta 5 euros y es gratis en pedidos de más de 50 euros."
HOURS = "Abrimos de lunes a sábado de 9:00 a 20:00 y los domingos por la mañana."


@pytest.fixture
def empty_postgres():
    url = engines.empty_database("moved_installation")
    yield url
    engines.drop(url)


def _installation_with_data(data_dir) -> str:
    """A SQLite installation: an owner, an organization and three contacts. Answers the org's id."""
    settings = load_settings({}, data_dir=data_dir, database_url="", base_url="http://appliance.test")
    client = create_app(settings, queue_immediate=True, migrate=True).test_client()
    token = client.post("/auth/signup", json={"email": "ana@example.com", "password": "correct horse battery",
                                              "name": "Ana"}).json["data"]["tokens"]["accessToken"]
    headers = {"Authorization": f"Bearer {token}"}
    org = client.post("/organizations", json={"name": "Panadería Sol", "slug": "sol", "billingEmail": "b@sol.test"}, headers=headers).json["data"]
    for number, name in (("573001110001", "Doña Rosa"), ("573001110002", "Pedro"), ("573001110003", "Lucía")):
        answer = client.post(f"/organizations/{org['id']}/contacts", json={"waId": number, "name": name}, headers=headers)
        assert answer.status_code == 201, answer.json
    for title, content in (("Envíos", SHIPPING), ("Horario", HOURS)):  # passages with words and vectors
        answer = client.post(f"/organizations/{org['id']}/bot/knowledge/notes", json={"title": title, "content": content},
                             headers=headers)
        assert answer.status_code == 201, answer.json
    runtime.get().db.dispose()
    return org["id"]


def test_an_installation_moves_to_postgresql_verified_and_a_second_move_is_refused(tmp_path, monkeypatch,
                                                                                  empty_postgres, capsys):
    monkeypatch.delenv("APPLIANCE_DATABASE_URL", raising=False)
    data_dir = tmp_path / "data"
    org_id = _installation_with_data(data_dir)

    assert main(["--data-dir", str(data_dir), "migrate-to-postgres", empty_postgres]) == 0
    said = capsys.readouterr().out
    assert "Copied and verified" in said and "SHA-256" in said
    assert "APPLIANCE_DATABASE_URL" in said and "What to change" in said

    moved = Database(empty_postgres)
    try:
        with moved.unit_of_work(write=False) as session:
            assert session.exec(select(func.count()).select_from(User)).one() == 1
            names = sorted(c.name for c in session.exec(select(Contact).where(Contact.organization_id == org_id)))
            assert names == ["Doña Rosa", "Lucía", "Pedro"]
            # Analyzed before the first start: its statements are planned on what was copied.
            unanalyzed = session.connection().exec_driver_sql(
                "SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('contacts', 'messages', 'users') "
                "AND last_analyze IS NULL AND last_autoanalyze IS NULL").scalar()
            assert unanalyzed == 0
    finally:
        moved.dispose()
    assert (data_dir / "appliance.db").exists()  # the way back stays

    # Served from PostgreSQL now: the contacts are found by part of a name, as before.
    settings = load_settings({}, data_dir=data_dir, database_url=empty_postgres, base_url="http://appliance.test")
    client = create_app(settings, queue_immediate=True, migrate=True).test_client()
    token = client.post("/auth/login", json={"email": "ana@example.com",
                                             "password": "correct horse battery"}).json["data"]["tokens"]["accessToken"]
    found = client.get(f"/organizations/{org_id}/contacts?search=rosa", headers={"Authorization": f"Bearer {token}"})
    assert [c["name"] for c in found.json["data"]["items"]] == ["Doña Rosa"]
    # The knowledge base answers by meaning (the copied vectors) and by words (rebuilt) as before.
    for query, expected in (("¿cuánto cuesta mandar un pedido a casa?", "5 euros"), ("domingos", "domingos")):
        answer = client.post(f"/organizations/{org_id}/bot/knowledge/search", json={"query": query},
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 201, answer.json
        assert expected in answer.json["data"]["results"][0]["text"], answer.json
    runtime.get().db.dispose()

    # Nothing is merged into a database that holds data.
    assert main(["--data-dir", str(data_dir), "migrate-to-postgres", empty_postgres]) == 2
    assert "already holds data" in capsys.readouterr().err
