"""The in-memory copy of an organization's vectors (knowledge/vector_index.py) answers as vec0 does
and is never stale: a passage added, changed or deleted is seen by the next search, whichever
way it was deleted; an organization larger than the memory budget is searched in vec0 itself;
another organization's copy never answers."""

from appliance.core import runtime
from appliance.knowledge import embedder, vector_index
from tests import factories
from tests.knowledge.test_knowledge_documents import search

PARKING = "Hay parking gratuito detrás de la tienda para clientes."
SHIPPING = "El envío a domicilio cuesta 5 euros y es gratis en pedidos de más de 50 euros."
HOURS = "Abrimos de lunes a sábado de 9:00 a 20:00 y los domingos por la mañana."


def _note(api, org, token, title, content):
    made = api.post(f"/organizations/{org['id']}/bot/knowledge/notes", {"title": title, "content": content}, token=token)
    assert made.status_code == 201, made.json
    return made.json["data"]


def _nearest(org_id, query, vector=None, **options):
    vector = embedder.current().embed_queries([query])[0] if vector is None else vector
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


def test_a_large_library_is_narrowed_by_signs_and_ranked_by_exact_similarity(api, owner, monkeypatch):
    """From SIGNS_FROM passages the copy narrows by the vectors' signs first: a stored vector is
    its own best match, similarities are the exact ones, a document filter still brings k results
    back, and at this oversampling the exact top 10 is found whole."""
    import numpy as np
    from appliance.core.ids import new_id

    org_id, first, second = owner["org"]["id"], new_id(), new_id()
    rng = np.random.default_rng(3)  # 60 topics of 10 passages each, as a real library clusters
    topics = rng.standard_normal((60, vector_index.DIMENSIONS))
    vectors = (np.repeat(topics, 10, axis=0) + 0.7 * rng.standard_normal((600, vector_index.DIMENSIONS))).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with runtime.get().db.unit_of_work(write=True) as session:
        vector_index.add(session, [(9_000_000 + i, org_id, first if i < 500 else second, vectors[i])
                                   for i in range(600)])
    query = vectors[42] * 0.8 + vectors[47] * 0.2  # topic 4
    monkeypatch.setattr(vector_index, "SIGNS_FROM", 10 ** 9)
    vector_index._snapshots.clear()
    exact = _nearest(org_id, None, vector=query)
    exact_filtered = _nearest(org_id, None, vector=query, document_ids=[second])
    monkeypatch.setattr(vector_index, "SIGNS_FROM", 100)
    vector_index._snapshots.clear()
    narrowed = _nearest(org_id, None, vector=query)
    with runtime.get().db.unit_of_work(write=False) as session:
        assert vector_index._snapshot(session, org_id).signs.shape == (vector_index.DIMENSIONS // 64, 600)
    assert narrowed[0][0] == 9_000_042 and narrowed == exact
    filtered = _nearest(org_id, None, vector=query, document_ids=[second])  # fewer readable rows than candidates
    assert len(filtered) == 10 and all(chunk_id >= 9_000_500 for chunk_id, _ in filtered)
    assert filtered == exact_filtered
