"""Issue 44, item 4: a knowledge upload is answered without reading its text (a 164 KB DOCX that
unpacked to 56 MB took 293 s and 1.4 GB inside the request; a 50,000-page PDF 34 s), and the
reading, on the queue, keeps to the decided bounds (50 MB of text once unpacked, 2,000 pages, 5
minutes: beyond, FAILED with the reason) and stops as soon as its document is deleted or read again.

The queue is not run inline here: the upload's request is measured alone, then the queued run."""

import contextlib
import io
import tracemalloc

import pytest
from pypdf import PageObject, PdfReader

from appliance.core import clock, queue, runtime
from appliance.knowledge import extraction, processing, tasks
from appliance.knowledge.models import KnowledgeDocument
from tests.knowledge.samples import many_pages_pdf, zip_bomb_docx

MB = 1024 * 1024


@pytest.fixture
def queued(settings):
    """The queue in queue.db, as in the server: tasks wait until the test runs them."""
    queue.configure(settings.queue_path, immediate=False)
    yield
    queue.configure(None, immediate=True)


def _run_slow_lane() -> int:
    """Run what waits on the slow lane, as its workers would; answers how many tasks ran."""
    ran = 0
    while (task := queue.slow.dequeue()) is not None:
        queue.slow.execute(task)
        ran += 1
    return ran


def _upload(api, owner, content: bytes, name: str):
    return api.client.post(f"/organizations/{owner['org']['id']}/bot/knowledge",
                           data={"file": (io.BytesIO(content), name)}, content_type="multipart/form-data",
                           headers={"Authorization": f"Bearer {owner['token']}"})


def _document(document_id: str) -> KnowledgeDocument:
    with runtime.get().db.unit_of_work(write=False) as session:
        return session.get(KnowledgeDocument, document_id)


@contextlib.contextmanager
def _peak_memory():
    """The peak of Python's allocations inside the block, in MB (`measured[0]` afterwards)."""
    measured = []
    tracemalloc.start()
    try:
        yield measured
    finally:
        measured.append(tracemalloc.get_traced_memory()[1] / MB)
        tracemalloc.stop()


@pytest.fixture
def pages_read(monkeypatch):
    """How many PDF pages had their text extracted, and how many times pypdf walked a whole page tree."""
    counts = {"pages": 0, "flattened": 0}
    extract_text, flatten = PageObject.extract_text, PdfReader._flatten

    def counting_extract(page, *args, **kwargs):
        counts["pages"] += 1
        return extract_text(page, *args, **kwargs)

    def counting_flatten(reader, *args, **kwargs):
        counts["flattened"] += 1
        return flatten(reader, *args, **kwargs)

    monkeypatch.setattr(PageObject, "extract_text", counting_extract)
    monkeypatch.setattr(PdfReader, "_flatten", counting_flatten)
    return counts


def test_a_zip_bomb_docx_is_answered_at_once_and_failed_on_the_queue(api, owner, queued):
    bomb = zip_bomb_docx(56)
    assert len(bomb) < 200 * 1024  # ~100 KB that unpack to 56 MB
    with _peak_memory() as request_peak:
        made = _upload(api, owner, bomb, "politica.docx")
    assert made.status_code == 201, made.json
    assert made.json["data"]["status"] == "PROCESSING"
    assert request_peak[0] < 10, f"the upload's request held {request_peak[0]:.0f} MB"

    with _peak_memory() as reading_peak:
        assert _run_slow_lane() == 1
    document = _document(made.json["data"]["id"])
    assert document.status == "FAILED" and "more than 50 MB of text" in document.error and document.chunk_count == 0
    assert reading_peak[0] < 10, f"refusing it held {reading_peak[0]:.0f} MB: it was unpacked"


def test_a_pdf_of_50000_pages_is_answered_at_once_and_failed_on_the_queue(api, owner, queued, pages_read):
    pdf = many_pages_pdf(50_000, text=None)  # a scan's pages: the door used to read every one
    made = _upload(api, owner, pdf, "catalogo.pdf")
    assert made.status_code == 201, made.json
    assert pages_read == {"pages": 0, "flattened": 0}  # the request opened its index, read no page

    assert _run_slow_lane() == 1
    document = _document(made.json["data"]["id"])
    assert document.status == "FAILED" and "more than 2,000 pages" in document.error
    assert pages_read == {"pages": 0, "flattened": 0}  # counted without walking the tree or reading a page


def test_a_pdf_of_2000_pages_is_read(api, owner, queued):
    made = _upload(api, owner, many_pages_pdf(2_000, text="Horario de lunes a viernes"), "horario.pdf")
    assert made.status_code == 201, made.json
    assert _run_slow_lane() == 1
    document = _document(made.json["data"]["id"])
    assert document.status == "READY" and document.chunk_count >= 1


def test_a_reading_stops_as_soon_as_its_document_is_deleted(api, owner, queued, monkeypatch, pages_read):
    made = _upload(api, owner, many_pages_pdf(300, text="Precios de temporada"), "precios.pdf").json["data"]
    extract_text = PageObject.extract_text

    def deleted_meanwhile(page, *args, **kwargs):
        if pages_read["pages"] == 5:  # its owner deletes it while the 6th page is read
            assert api.delete(f"/organizations/{owner['org']['id']}/bot/knowledge/{made['id']}",
                              token=owner["token"]).status_code == 200
        return extract_text(page, *args, **kwargs)

    monkeypatch.setattr(PageObject, "extract_text", deleted_meanwhile)
    assert _run_slow_lane() == 1
    assert pages_read["pages"] == 6  # stopped before the next page, not after 300
    assert _document(made["id"]) is None


def test_a_reading_stops_when_the_document_is_read_again_and_the_newer_run_finishes(api, owner, queued,
                                                                                     monkeypatch, pages_read):
    org = owner["org"]["id"]
    made = _upload(api, owner, many_pages_pdf(300, text="Precios de temporada"), "precios.pdf").json["data"]
    extract_text = PageObject.extract_text

    def read_again_meanwhile(page, *args, **kwargs):
        if pages_read["pages"] == 5:
            assert api.post(f"/organizations/{org}/bot/knowledge/{made['id']}/reprocess",
                            token=owner["token"]).status_code == 201
        return extract_text(page, *args, **kwargs)

    monkeypatch.setattr(PageObject, "extract_text", read_again_meanwhile)
    assert _run_slow_lane() == 2  # the first run, stopped after its 6th page, then the newer one, whole
    assert pages_read["pages"] == 6 + 300
    document = _document(made["id"])
    assert document.status == "READY" and document.chunk_count >= 1


def test_a_reading_past_five_minutes_fails_with_the_reason(api, owner, queued, monkeypatch, pages_read):
    made = _upload(api, owner, many_pages_pdf(50, text="Catálogo de productos"), "catalogo.pdf").json["data"]
    extract_text = PageObject.extract_text

    def slow_page(page, *args, **kwargs):
        if pages_read["pages"] == 3:
            clock.advance(extraction.MAX_SECONDS + 1)  # the 4th page took more than the whole budget
        return extract_text(page, *args, **kwargs)

    monkeypatch.setattr(PageObject, "extract_text", slow_page)
    assert _run_slow_lane() == 1
    assert pages_read["pages"] == 4
    document = _document(made["id"])
    assert document.status == "FAILED" and "more than 5 minutes" in document.error


def test_a_pdf_with_more_text_than_the_bound_fails_with_the_reason(api, owner, queued, monkeypatch):
    monkeypatch.setattr(extraction, "MAX_TEXT_BYTES", 2_000)  # 50 MB of text would be a slow test
    made = _upload(api, owner, many_pages_pdf(200, text="Precios de temporada"), "precios.pdf").json["data"]
    assert _run_slow_lane() == 1
    document = _document(made["id"])
    assert document.status == "FAILED" and "of text once unpacked" in document.error


def test_documents_waiting_their_turn_are_not_taken_for_runs_a_crash_lost(api, owner, queued):
    """The slow lane reads one document of an organization at a time: a long line waits. The
    10-minute sweep for lost runs must leave the waiting ones alone (it re-queued them, and after
    three rounds failed them as "interrupted")."""
    made = [_upload(api, owner, many_pages_pdf(3, text=f"Tarifa número {n}"), f"tarifa{n}.pdf").json["data"]
            for n in range(3)]
    clock.advance(11 * 60)
    assert tasks.resume_interrupted(runtime.get().db, older_than=processing.STALE_AFTER) == 0
    assert _run_slow_lane() == 3
    documents = [_document(doc["id"]) for doc in made]
    assert [(d.status, d.processing_attempts) for d in documents] == [("READY", 1)] * 3
