"""The in-memory copy of an organization's vectors (knowledge/vector_index.py) answers as vec0 does
and is never stale: a passage added, changed or deleted is seen by the next search, whichever
way it was deleted; an organization larger than the memory budget is searched in vec0 itself;
another organization's copy never answers."""

import pytest

from appliance.core import runtime
from appliance.knowledge import embedder, vector_index
from tests import factories
from tests.knowledge.test_knowledge_documents import search

PARKING = "Hay parking gratuito detrás de la tienda para clientes."
SHIPPING = "El envío a domicilio cuesta 5 euros y es gratis en pedidos de más de 50 euros."
HOURS = "Abrimos de lunes a sábado de 9:00 a 20:00 y los domingos por la mañana."


@pytest.fixture
def owner(api):
    return factories.owner(api)


def _note(api, org, token, title, content):
    made = api.post(f"/organizations/{org['id']}/bot/knowledge/notes", {"title": title, "content": content}, token=token)
    assert made.status_code == 201, made.json
    return made.json["data"]


def _nearest(org_id, query, **options):
    vector = embedder.current().embed_queries([query])[0]
    with runtime.get().db.unit_of_work(write=False) as session:
        return vector_index.nearest(session, organization_id=org_id, vector=vector, k=10, **options)


def test_a_change_to_the_library_is_seen_by_the_next_search(api, owner):
    org, token = owner["org"], owner["token"]
    parking = _note(api, org, token, "Parking", PARKING)
    assert search(api, org, token, "¿dónde aparco?", minSimilarity=0)[0]["documentId"] == parking["id"]  # copy made
    shipping = _note(api, org, token, "Envíos", SHIPPING)
    assert search(api, org, token, "¿cuánto cuesta el envío?")[0]["documentId"] == shipping["id"]
    changed = api.patch(f"/organizations/{org['id']}/bot/knowledge/notes/{shipping['id']}",
                        {"content": HOURS, "title": "Horario"}, token=token)
    assert changed.status_code == 200, changed.json
    assert search(api, org, token, "¿a qué hora abren el domingo?")[0]["documentId"] == shipping["id"]
    assert not [r for r in search(api, org, token, "¿cuánto cuesta el envío?", minSimilarity=0)
                if "5 euros" in r["text"]]  # the old passage went with its rewrite
    assert api.delete(f"/organizations/{org['id']}/bot/knowledge/{parking['id']}", token=token).status_code == 200
    assert {r["documentId"] for r in search(api, org, token, "¿dónde aparco?", minSimilarity=0)} == {shipping["id"]}


def test_the_copy_answers_as_vec0_and_an_oversized_library_is_searched_there(api, owner, monkeypatch):
    org, token = owner["org"], owner["token"]
    notes = [_note(api, org, token, title, text) for title, text in (("Parking", PARKING), ("Envíos", SHIPPING),
                                                                      ("Horario", HOURS))]
    other = factories.organization(api, token, slug="otra")
    _note(api, {"id": other["id"]}, token, "Envíos de la otra", SHIPPING)
    from_copy = _nearest(org["id"], "precio del envío")
    filtered = _nearest(org["id"], "precio del envío", document_ids=[notes[0]["id"], notes[2]["id"]])
    monkeypatch.setattr(vector_index, "MEMORY_BUDGET", 0)
    from_vec0 = _nearest(org["id"], "precio del envío")
    assert [c for c, _ in from_copy] == [c for c, _ in from_vec0] and len(from_copy) == 3
    assert all(abs(a - b) < 1e-3 for (_, a), (_, b) in zip(from_copy, from_vec0))
    assert [c for c, _ in filtered] == [c for c, _ in _nearest(org["id"], "precio del envío",
                                                               document_ids=[notes[0]["id"], notes[2]["id"]])]
    assert len(filtered) == 2
