"""Issue 19: the knowledge base's documents through the API: files recognized by their content,
notes, processing in the background with a visible status, search by meaning and by words, and
everything refused with a reason and without a trace."""

import io
import uuid

from sqlmodel import select

from appliance.core import runtime
from appliance.knowledge import embedder, files, processing, tasks
from appliance.knowledge.models import KnowledgeChunk, KnowledgeDocument
from appliance.organizations.models import Organization
from tests import factories
from tests.knowledge.samples import docx_bytes, pdf_bytes
from tests.problems import assert_problem

PRICE_LIST = pdf_bytes([
    ["# Lista de precios 2026", "Corte de pelo de caballero: 15 euros. Corte y barba: 22 euros. Tinte completo: 45 euros."],
    ["# Envíos", "El envío a domicilio cuesta 5 euros en toda la península y es gratis en pedidos de más de 50 euros. "
     "Las islas tienen un recargo de 8 euros."],
])
POLICY = docx_bytes(["# Política de la tienda", "## Devoluciones",
                     "Aceptamos devoluciones durante 30 días con el ticket de compra. El dinero se devuelve a la misma tarjeta.",
                     "## Horario", "Abrimos de lunes a sábado de 9:00 a 20:00."])


def _base(org_id):
    return f"/organizations/{org_id}/bot/knowledge"


def upload(api, org, content, name, token, **form):
    return api.client.post(_base(org["id"]), data={"file": (io.BytesIO(content), name), **form},
                           headers={"Authorization": f"Bearer {token}"}, content_type="multipart/form-data")


def search(api, org, token, query, **options):
    found = api.post(f"{_base(org['id'])}/search", {"query": query, **options}, token=token)
    assert found.status_code == 201, found.json
    return found.json["data"]["results"]


def _index_rows(organization_id=None):
    driver = runtime.get().db
    with driver.unit_of_work(write=False) as session:
        vectors = session.connection().exec_driver_sql("SELECT count(*) FROM vec_knowledge_chunks").scalar()
        if driver.is_sqlite:  # SQLite's plain copy follows vec0 (vector_index.py); PostgreSQL has one table
            copies = session.connection().exec_driver_sql("SELECT count(*) FROM vec_knowledge_vectors").scalar()
            assert copies == vectors
        words = session.connection().exec_driver_sql("SELECT count(*) FROM fts_knowledge_chunks").scalar()
        chunks = len(session.exec(select(KnowledgeChunk.id)).all())
    return chunks, vectors, words


def _agent(api, org, token, name="Ventas") -> str:
    """An AI agent of the organization: documents are given only to the organization's own."""
    made = api.post(f"/organizations/{org['id']}/bot/agents", {"name": name, "provider": "GEMINI",
                                                              "model": "gemini-2.0-flash"}, token=token)
    assert made.status_code == 201, made.json
    return made.json["data"]["id"]


def test_a_price_list_and_a_policy_become_ready_and_answer_in_spanish(api, owner):
    org, token = owner["org"], owner["token"]
    made = upload(api, org, PRICE_LIST, "precios.pdf", token, tags="precios, tienda")
    assert made.status_code == 201, made.json
    doc = made.json["data"]
    assert (doc["sourceType"], doc["mimeType"], doc["fileName"], doc["title"]) == (
        "FILE", "application/pdf", "precios.pdf", "precios")
    assert doc["tags"] == ["precios", "tienda"] and doc["compartido"] is True and doc["agentIds"] == []
    policy = upload(api, org, POLICY, "politica.docx", token, title="Política").json["data"]
    listed = {d["id"]: d for d in api.get(_base(org["id"]), token=token).json["data"]}
    assert listed[doc["id"]]["status"] == "READY" and listed[doc["id"]]["chunkCount"] >= 1
    assert listed[policy["id"]]["status"] == "READY" and listed[policy["id"]]["title"] == "Política"

    results = search(api, org, token, "¿cuánto cuesta el envío?")
    assert results and results[0]["documentId"] == doc["id"] and "5 euros" in results[0]["text"]
    assert 0.3 <= results[0]["similarity"] <= 1 and results[0]["porTexto"] is True and results[0]["score"] > 0
    assert search(api, org, token, "¿aceptan devoluciones?")[0]["documentId"] == policy["id"]
    assert len(search(api, org, token, "precio", topK=1)) == 1


def test_unreadable_files_are_refused_with_a_reason_and_leave_nothing(api, owner, settings):
    org, token = owner["org"], owner["token"]
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 100
    cases = [(png, "foto.pdf", "unsupported_file_type"), (b"", "vacio.txt", "no_text_found"),
             (b"   \n\n  ", "blancos.txt", "no_text_found"),
             (pdf_bytes([["secreto"]], password="clave"), "cerrado.pdf", "file_encrypted"),
             (PRICE_LIST[:400], "roto.pdf", "file_corrupt"),
             (b"PK\x03\x04" + b"\x00" * 50, "roto.docx", "unsupported_file_type"),
             (b"\x00\x01\x02\x03" * 100, "datos.csv", "unsupported_file_type")]
    for content, name, code in cases:
        assert_problem(upload(api, org, content, name, token), 400, code)
    too_big = upload(api, org, b"a" * (25 * 1024 * 1024 + 1), "grande.txt", token)
    assert too_big.status_code == 413
    assert api.get(_base(org["id"]), token=token).json["data"] == []
    assert not (settings.data_dir / "media" / org["id"] / "knowledge").exists() or not any(
        (settings.data_dir / "media" / org["id"] / "knowledge").iterdir())
    bad_form = upload(api, org, b"hola", "a.txt", token, agentIds="not-a-uuid")
    assert_problem(bad_form, 400, "validation_failed")
    # Whether a PDF has text is read on the queue (issue 44: nothing at the door reads pages): a scan
    # is kept, FAILED with the reason.
    scan = upload(api, org, pdf_bytes([[]]), "escaneado.pdf", token)
    assert scan.status_code == 201, scan.json
    failed = api.get(f"{_base(org['id'])}/{scan.json['data']['id']}", token=token).json["data"]
    assert failed["status"] == "FAILED" and "no text" in failed["error"] and failed["chunkCount"] == 0


def test_text_files_csv_rows_stay_whole_with_their_header(api, owner):
    org, token = owner["org"], owner["token"]
    rows = "\n".join(f"SKU-{i:03d};Tornillo de {i} mm;{i * 0.1:.2f}" for i in range(1, 400))
    made = upload(api, org, ("codigo;producto;precio\n" + rows).encode("latin-1"), "catalogo.csv", token)
    assert made.status_code == 201 and made.json["data"]["mimeType"] == "text/csv"
    with runtime.get().db.unit_of_work(write=False) as session:
        chunks = session.exec(select(KnowledgeChunk.text).order_by(KnowledgeChunk.ordinal)).all()
    assert len(chunks) > 1 and all(chunk.startswith("codigo | producto | precio\n") for chunk in chunks)
    assert sum(chunk.count("SKU-") for chunk in chunks) == 399  # no row cut, none repeated
    found = search(api, org, token, "SKU-217", minSimilarity=0.99)
    assert found and found[0]["porTexto"] is True and "SKU-217" in found[0]["text"]  # kept by its words alone
    markdown = upload(api, org, "# Preguntas\n\n¿Hacen factura? Sí, pídala en caja.".encode(), "faq.md", token)
    assert markdown.json["data"]["mimeType"] == "text/markdown"


def test_notes_are_reprocessed_when_their_text_changes_and_describe_themselves(api, owner):
    org, token = owner["org"], owner["token"]
    agent = _agent(api, org, token)
    made = api.post(f"{_base(org['id'])}/notes", {"title": "Aparcamiento", "content": "Hay parking gratuito detrás de la tienda.",
                                                  "tags": ["local"], "agentIds": [agent]}, token=token)
    assert made.status_code == 201, made.json
    note = made.json["data"]
    assert note["content"].startswith("Hay parking") and note["compartido"] is False and note["agentIds"] == [agent]
    assert search(api, org, token, "parking gratuito")[0]["documentId"] == note["id"]
    changed = api.patch(f"{_base(org['id'])}/notes/{note['id']}", {"content": "El aparcamiento cuesta 2 euros la hora."},
                        token=token)
    assert changed.status_code == 200 and changed.json["data"]["status"] == "PROCESSING"  # read after the commit
    assert api.get(f"{_base(org['id'])}/{note['id']}", token=token).json["data"]["status"] == "READY"
    assert not [r for r in search(api, org, token, "gratuito", minSimilarity=0.99) if r["documentId"] == note["id"]]
    assert api.patch(f"{_base(org['id'])}/{note['id']}/tags", {"tags": ["local", "coche"]}, token=token).json["data"]["tags"] == ["local", "coche"]
    shared = api.patch(f"{_base(org['id'])}/{note['id']}/agentes", {"agentIds": [], "compartido": True}, token=token)
    assert shared.json["data"]["compartido"] is True
    renamed = api.patch(f"{_base(org['id'])}/{note['id']}/title", {"title": "Parking"}, token=token).json["data"]
    assert renamed["title"] == "Parking" and renamed["status"] == "PROCESSING"  # a note's title is in its text
    assert api.get(f"{_base(org['id'])}/{note['id']}", token=token).json["data"]["content"].startswith("El aparcamiento")
    file = upload(api, org, b"Texto plano de prueba.", "a.txt", token).json["data"]
    assert_problem(api.patch(f"{_base(org['id'])}/notes/{file['id']}", {"content": "x"}, token=token), 400, "not_a_note")
    assert_problem(api.patch(f"{_base(org['id'])}/notes/{note['id']}", {}, token=token), 400, "validation_failed")
    assert_problem(api.post(f"{_base(org['id'])}/notes", {"title": "x"}, token=token), 400, "validation_failed")


def test_search_by_tags_and_as_an_agent(api, owner):
    org, token = owner["org"], owner["token"]
    ventas, soporte = _agent(api, org, token), _agent(api, org, token, "Soporte")
    notes = api.post  # three notes about the same thing, for three kinds of reader
    own = notes(f"{_base(org['id'])}/notes", {"title": "Garantía de ventas", "content": "La garantía dura dos años.",
                                             "agentIds": [ventas], "tags": ["ventas"]}, token=token).json["data"]
    other = notes(f"{_base(org['id'])}/notes", {"title": "Garantía de soporte", "content": "La garantía cubre piezas.",
                                               "agentIds": [soporte], "tags": ["soporte"]}, token=token).json["data"]
    common = notes(f"{_base(org['id'])}/notes", {"title": "Garantía general", "content": "Toda garantía necesita el ticket.",
                                                "compartido": True}, token=token).json["data"]
    as_sales = {r["documentId"] for r in search(api, org, token, "garantía", agentId=ventas, minSimilarity=0)}
    assert as_sales == {own["id"], common["id"]}
    assert {r["documentId"] for r in search(api, org, token, "garantía", tags=["SOPORTE"], minSimilarity=0)} == {other["id"]}
    assert search(api, org, token, "garantía", tags=["nadie"]) == []
    for bad in ({"query": ""}, {"query": "x", "topK": 0}, {"query": "x", "topK": 21}, {"query": "x", "minSimilarity": 1.5},
                {"query": "x", "agentId": "nope"}, {"query": "x", "tags": "ventas"}):
        assert_problem(api.post(f"{_base(org['id'])}/search", bad, token=token), 400, "validation_failed")


def test_deleting_a_document_takes_its_passages_vectors_words_and_file(api, owner, settings):
    org, token = owner["org"], owner["token"]
    doc = upload(api, org, PRICE_LIST, "precios.pdf", token).json["data"]
    before = _index_rows()
    assert before[0] > 0 and before == (before[0],) * 3
    assert files.path_of(org["id"], doc["id"]).exists()
    gone = api.delete(f"{_base(org['id'])}/{doc['id']}", token=token)
    assert gone.status_code == 200 and gone.json["data"]["id"] == doc["id"]
    assert _index_rows() == (0, 0, 0) and not files.path_of(org["id"], doc["id"]).exists()
    assert_problem(api.get(f"{_base(org['id'])}/{doc['id']}", token=token), 404, "knowledge_document_not_found")
    assert search(api, org, token, "envío") == []


def test_a_document_deleted_while_processing_leaves_nothing(api, owner):
    org, token = owner["org"], owner["token"]

    class DeletingEmbedder:
        """Embeds like the real one, but the document is deleted (by its owner, elsewhere) meanwhile."""
        name, dimensions, default_min_similarity = "deleting", 512, 0.3

        def __init__(self, real):
            self.real = real

        def embed_queries(self, texts):
            return self.real.embed_queries(texts)

        def embed_passages(self, texts):
            with runtime.get().db.unit_of_work(write=True) as session:
                    for document in session.exec(select(KnowledgeDocument)).all():
                        session.delete(document)
            return self.real.embed_passages(texts)

    real = embedder.replace(DeletingEmbedder(embedder.current()))
    try:
        made = api.post(f"{_base(org['id'])}/notes", {"title": "Efímera", "content": "Esto se borra mientras se procesa."},
                        token=token)
    finally:
        embedder.replace(real)
    assert made.status_code == 201
    assert _index_rows() == (0, 0, 0)
    assert api.get(_base(org["id"]), token=token).json["data"] == []


def test_processing_cut_short_by_a_crash_resumes_then_gives_up(api, owner):
    org, token = owner["org"], owner["token"]
    note = api.post(f"{_base(org['id'])}/notes", {"title": "Horario", "content": "Abrimos a las nueve."}, token=token).json["data"]
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:  # as a crash leaves it: PROCESSING, its run lost
        document = session.get(KnowledgeDocument, note["id"])
        document.status, document.processing_token, document.processing_attempts = "PROCESSING", "lost", 1
        session.add(document)
    assert tasks.resume_interrupted(database, older_than=None) == 1
    resumed = api.get(f"{_base(org['id'])}/{note['id']}", token=token).json["data"]
    assert resumed["status"] == "READY" and resumed["chunkCount"] == 1
    with database.unit_of_work(write=True) as session:
        document = session.get(KnowledgeDocument, note["id"])
        document.status, document.processing_token, document.processing_attempts = "PROCESSING", "lost", processing.MAX_ATTEMPTS
        session.add(document)
    tasks.resume_interrupted(database, older_than=None)
    failed = api.get(f"{_base(org['id'])}/{note['id']}", token=token).json["data"]
    assert failed["status"] == "FAILED" and "interrupted" in failed["error"]
    assert search(api, org, token, "nueve")  # the passages of the last good run stay searchable
    again = api.post(f"{_base(org['id'])}/{note['id']}/reprocess", token=token)
    assert again.status_code == 201 and api.get(f"{_base(org['id'])}/{note['id']}", token=token).json["data"]["status"] == "READY"


def test_another_organization_sees_nothing(api, owner):
    org, token = owner["org"], owner["token"]
    doc = upload(api, org, PRICE_LIST, "precios.pdf", token).json["data"]
    stranger = factories.person(api, email="eve@example.com")["tokens"]["accessToken"]
    theirs = factories.organization(api, stranger, name="Evil", slug="evil")
    for method, path in (("get", f"{_base(org['id'])}/{doc['id']}"), ("delete", f"{_base(org['id'])}/{doc['id']}")):
        assert_problem(getattr(api, method)(path, token=stranger), 403, "not_a_member")
    assert_problem(api.get(f"{_base(theirs['id'])}/{doc['id']}", token=stranger), 404, "knowledge_document_not_found")
    assert_problem(api.post(f"{_base(theirs['id'])}/{doc['id']}/reprocess", token=stranger), 404, "knowledge_document_not_found")
    assert search(api, theirs, stranger, "¿cuánto cuesta el envío?", minSimilarity=0) == []
    assert search(api, org, token, "¿cuánto cuesta el envío?")


def test_a_plan_without_the_knowledge_base_is_told_so(api, owner):
    org, token = owner["org"], owner["token"]
    with runtime.get().db.unit_of_work(write=True) as session:
        organization = session.get(Organization, org["id"])
        organization.plan_slug = "free"
        session.add(organization)
    for refused in (upload(api, org, b"Hola.", "a.txt", token),
                    api.post(f"{_base(org['id'])}/notes", {"title": "x", "content": "y"}, token=token),
                    api.post(f"{_base(org['id'])}/url", {"url": "https://example.com/"}, token=token)):
        assert_problem(refused, 400, "plan_capability_missing")
        assert refused.get_json()["capability"] == "bot.knowledge"
    assert api.get(_base(org["id"]), token=token).json["data"] == []


def test_documents_are_given_only_to_the_organizations_own_agents(api, owner):
    """Issue 44, item 13: `/agentes` (and a new document's `agentIds`) took any id, another
    organization's agents included."""
    org, token = owner["org"], owner["token"]
    ours = _agent(api, org, token)
    stranger = factories.person(api, email="eve@example.com")["tokens"]["accessToken"]
    theirs = factories.organization(api, stranger, name="Evil", slug="evil")
    foreign = _agent(api, theirs, stranger, "Suyo")
    note = api.post(f"{_base(org['id'])}/notes", {"title": "Horario", "content": "Abrimos a las 9."}, token=token).json["data"]
    for unknown in (foreign, str(uuid.uuid4())):
        given = api.patch(f"{_base(org['id'])}/{note['id']}/agentes", {"agentIds": [ours, unknown], "compartido": False},
                          token=token)
        assert_problem(given, 400, "unknown_ids", unknown)
        assert unknown in given.get_json()["errors"]["agentIds"][0]
        made = api.post(f"{_base(org['id'])}/notes", {"title": "x", "content": "y", "agentIds": [unknown]}, token=token)
        assert_problem(made, 400, "unknown_ids", unknown)
        assert_problem(upload(api, org, b"Texto.", "a.txt", token, agentIds=unknown), 400, "unknown_ids", unknown)
    kept = api.get(f"{_base(org['id'])}/{note['id']}", token=token).json["data"]
    assert kept["agentIds"] == [] and kept["compartido"] is True
    given = api.patch(f"{_base(org['id'])}/{note['id']}/agentes", {"agentIds": [ours], "compartido": False}, token=token)
    assert given.status_code == 200 and given.json["data"]["agentIds"] == [ours]
