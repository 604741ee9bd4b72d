"""Issue 19: web pages as sources (refused when private, read over HTTP with their limits, FAILED
with the reason and retried at the next sync, not embedded again when unchanged), and the insights
(unanswered questions grouped, answered by a note)."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest

from appliance.core import clock, runtime
from appliance.knowledge import tasks
from appliance.knowledge.models import KnowledgeDocument
from tests.bench.knowledge_eval_set import WORKSHOPS_HTML
from tests.fixtures.local_server import QuietHandler, serving
from tests.problems import assert_problem


class Site:
    """A loopback web server whose pages the test changes as it goes, answering while `served()`."""

    def __init__(self):
        self.pages: dict[str, tuple[int, bytes, str]] = {}
        self.requests: list[dict] = []
        self.url = ""  # where it answers, once served
        site = self

        class Handler(QuietHandler):
            def do_GET(self):
                site.requests.append(dict(self.headers))
                status, body, etag = site.pages.get(self.path, (404, b"not here", ""))
                if etag and self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.end_headers()
                    return
                self.send_response(status)
                if status in (301, 302):
                    self.send_header("Location", body.decode())
                    body = b""
                self.send_header("Content-Type", "text/html; charset=utf-8")
                if etag:
                    self.send_header("ETag", etag)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.handler = Handler

    @contextmanager
    def served(self) -> Iterator["Site"]:
        with serving(self.handler) as server:
            self.url = server.url
            yield self


@pytest.fixture
def site():
    with Site().served() as served:
        yield served


def _base(org):
    return f"/organizations/{org['id']}/bot/knowledge"


def _make_due(doc_id):
    """As if syncEveryHours had passed (moving the clock would also expire the owner's sign-in)."""
    with runtime.get().db.unit_of_work(write=True) as session:
        document = session.get(KnowledgeDocument, doc_id)
        document.next_sync_at = clock.now() - timedelta(seconds=1)
        session.add(document)


def _doc_row(doc_id):
    with runtime.get().db.unit_of_work(write=False) as session:
        return session.get(KnowledgeDocument, doc_id)


def _doc(api, owner, doc_id):
    return api.get(f"{_base(owner['org'])}/{doc_id}", token=owner["token"]).json["data"]


def test_private_and_loopback_pages_are_refused_by_default(api, owner, site):
    for url in (f"{site.url}/talleres", "http://localhost/x", "http://10.1.2.3/", "http://169.254.169.254/latest/meta-data",
                "http://[::1]/", "http://192.168.1.1/admin"):
        assert_problem(api.post(f"{_base(owner['org'])}/url", {"url": url}, token=owner["token"]), 400, "url_not_allowed")
    for bad in ({"url": "ftp://example.com/a"}, {"url": "file:///etc/passwd"}, {"url": "https://example.com", "syncEveryHours": 0},
                {"url": "https://example.com", "syncEveryHours": 721}, {}):
        assert_problem(api.post(f"{_base(owner['org'])}/url", bad, token=owner["token"]), 400, "validation_failed")
    assert site.requests == [] and api.get(_base(owner["org"]), token=owner["token"]).json["data"] == []


class TestWithPrivatePagesAllowed:
    @pytest.fixture
    def settings(self, settings):
        return settings.replace(knowledge_allow_private_urls=True)

    def test_a_page_is_read_without_its_menus_and_re_read_on_schedule(self, api, owner, site):
        site.pages["/talleres"] = (200, WORKSHOPS_HTML, '"v1"')
        made = api.post(f"{_base(owner['org'])}/url", {"url": f"{site.url}/talleres", "syncEveryHours": 24,
                                                      "tags": ["web"]}, token=owner["token"])
        assert made.status_code == 201, made.json
        doc = _doc(api, owner, made.json["data"]["id"])
        assert (doc["sourceType"], doc["status"], doc["syncEveryHours"]) == ("URL", "READY", 24) and doc["lastSyncedAt"]
        found = api.post(f"{_base(owner['org'])}/search", {"query": "¿cuánto cuesta el taller de masa madre?"},
                         token=owner["token"]).json["data"]["results"]
        assert "35 euros" in found[0]["text"] and "cookies" not in found[0]["text"] and "Inicio" not in found[0]["text"]

        # Not due yet: nothing is read. Due: read with its ETag; unchanged (304), nothing embedded again.
        assert tasks.sync_due_pages(runtime.get().db) == 0
        assert doc["lastSyncedAt"] < _doc_row(doc["id"]).next_sync_at.isoformat()
        _make_due(doc["id"])
        assert tasks.sync_due_pages(runtime.get().db) == 1
        assert site.requests[-1].get("If-None-Match") == '"v1"'
        assert _doc(api, owner, doc["id"])["status"] == "READY"

        # The page breaks: FAILED with the reason, old passages kept; the next sync reads it again.
        site.pages["/talleres"] = (500, b"oops", "")
        _make_due(doc["id"])
        tasks.sync_due_pages(runtime.get().db)
        failed = _doc(api, owner, doc["id"])
        assert failed["status"] == "FAILED" and "HTTP 500" in failed["error"]
        site.pages["/talleres"] = (200, WORKSHOPS_HTML.replace(b"35 euros", b"40 euros"), '"v2"')
        _make_due(doc["id"])
        tasks.sync_due_pages(runtime.get().db)
        assert _doc(api, owner, doc["id"])["status"] == "READY"
        found = api.post(f"{_base(owner['org'])}/search", {"query": "¿cuánto cuesta el taller de masa madre?"},
                         token=owner["token"]).json["data"]["results"]
        assert "40 euros" in found[0]["text"]

    def test_pages_that_cannot_be_read_fail_with_a_reason(self, api, owner, site):
        site.pages["/empty"] = (200, b"<html><body><div id=app></div><script>render()</script></body></html>", "")  # built by JavaScript
        site.pages["/moved"] = (302, b"/gone", "")
        site.pages["/loop"] = (302, b"/loop", "")
        site.pages["/big"] = (200, b"<p>" + b"a" * (5 * 1024 * 1024 + 10) + b"</p>", "")
        reasons = {"/empty": "no readable text", "/moved": "HTTP 404", "/loop": "redirects too many",
                   "/big": "larger than 5 MB"}
        for path, reason in reasons.items():
            made = api.post(f"{_base(owner['org'])}/url", {"url": f"{site.url}{path}"}, token=owner["token"]).json["data"]
            doc = _doc(api, owner, made["id"])
            assert doc["status"] == "FAILED" and reason in doc["error"], (path, doc["error"])
            assert doc["chunkCount"] == 0


def test_insights_group_unanswered_questions_until_a_note_answers_them(api, owner):
    org, token = owner["org"], owner["token"]
    note = api.post(f"{_base(org)}/notes", {"title": "Horario", "content": "Abrimos de lunes a sábado de 9 a 20."},
                    token=token).json["data"]
    agent = "5f0c3a6e-1111-4a4a-9c9c-000000000001"
    for query, options in (("¿A qué hora abren?", {"agentId": agent}), ("horario de apertura", {}),
                           ("¿Hacen envíos a Canarias?", {}), ("hacen envios a canarias", {"agentId": agent}),
                           ("¿Hacen envíos a Canarias?", {})):
        assert api.post(f"{_base(org)}/search", {"query": query, **options}, token=token).status_code == 201
    seen = api.get(f"{_base(org)}/insights?dias=7", token=token).json["data"]
    assert (seen["queries"], seen["answered"]) == (5, 2) and seen["responseRate"] == 0.4
    [group] = seen["unanswered"]
    assert group["count"] == 3 and group["question"] == "¿Hacen envíos a Canarias?" and group["lastAskedAt"]
    assert seen["byAgent"] == [{"agentId": agent, "queries": 2, "responseRate": 0.5}]
    assert seen["byDocument"] == [{"documentId": note["id"], "title": "Horario", "hits": 2}]
    answer = api.post(f"{_base(org)}/notes", {"title": "Envíos a Canarias", "content": "Sí, enviamos a Canarias por 12 euros.",
                                             "resolvesQuestionKey": group["questionKey"]}, token=token)
    assert answer.status_code == 201 and answer.json["data"]["resolvesQuestionKey"] == group["questionKey"]
    assert api.get(f"{_base(org)}/insights", token=token).json["data"]["unanswered"] == []
    for bad in ("dias=0", "dias=366", "dias=x"):
        assert_problem(api.get(f"{_base(org)}/insights?{bad}", token=token), 400, "validation_failed")
