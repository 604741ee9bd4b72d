"""The word index (knowledge/word_index.py) keeps each organization's words apart: a search never
matches another organization's passages, and another organization's documents do not move this
one's ranking (bm25 weighs words by the organization's own passages)."""

from sqlalchemy import text

from appliance.core import runtime
from appliance.knowledge import word_index, words
from tests import factories
from tests.knowledge.test_vector_snapshot import _note


def _best(org_id: str, question: str) -> list[int]:
    with runtime.get().db.unit_of_work(write=False) as session:
        return word_index.best(session, organization_id=org_id, terms=words.terms(question), k=20)


def _chunks_of(org_id: str) -> set[int]:
    with runtime.get().db.unit_of_work(write=False) as session:
        return {row[0] for row in session.execute(
            text("SELECT id FROM knowledge_chunks WHERE organization_id = :org"), {"org": org_id}).fetchall()}


def test_an_organizations_words_are_its_own(api, owner):
    org, token = owner["org"], owner["token"]
    _note(api, org, token, "Envíos", "El envío a domicilio cuesta 5 euros. Enviamos de lunes a sábado.")
    _note(api, org, token, "Tarta", "La tarta de queso se hace por encargo; el envío de tartas es gratis.")
    _note(api, org, token, "Horario", "Abrimos a las nueve.")
    ranked = _best(org["id"], "¿cuánto cuesta el envío?")
    assert len(ranked) == 2 and set(ranked) <= _chunks_of(org["id"])

    other = factories.organization(api, token, slug="vecina")
    for n in range(6):  # a neighbour whose every passage speaks of envíos and of tartas
        _note(api, {"id": other["id"]}, token, f"Envío {n}", "Envío de tarta, envíos de tartas, enviamos tartas.")
    assert _best(org["id"], "¿cuánto cuesta el envío?") == ranked  # the neighbour changes nothing here
    theirs = _best(other["id"], "envío de tarta")
    assert len(theirs) == 6 and set(theirs) <= _chunks_of(other["id"])
    assert not set(_best(org["id"], "envío de tarta")) & set(theirs)


def test_words_are_indexed_folded_as_queries_are():
    indexed = word_index.indexed_words("0a-b1", "Envío_RÁPIDO, ñandú 12,5€")
    assert indexed.split() == ["o0ab1envio", "o0ab1rapido", "o0ab1nandu", "o0ab112", "o0ab15"]
    assert words.terms("ENVÍOS rápidos") == ["envi", "rapidos"]  # a stem under 4 letters: the word itself
