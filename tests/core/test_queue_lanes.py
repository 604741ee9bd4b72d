"""Issue 44, item 7: all tenants shared the queue's two workers, and one organization's 12 slow
knowledge pages delayed another's inbound media by 84 s. Slow work now runs in a lane of its own,
where an organization runs one task at a time while others take their turn, and the short lane's
workers (inbound media, mail) never wait behind it.

Run with the consumers the server starts (core/queue.py), on queue.db, as in production: one
organization's pages are held by a web server that answers them slowly, while another's customer
sends a picture and its owner adds a page of its own."""

import base64
import threading
import time

import pytest
from sqlmodel import select

from appliance.core import queue, runtime
from appliance.knowledge.models import KnowledgeDocument
from appliance.messages.models import Message
from tests import factories
from tests.fixtures.local_server import QuietHandler, serving
from tests.waiting import eventually

SLOW_PAGES = 12


class SlowSite:
    """Pages under /slow/ answer once `release` is set (at most 10 s: the reader gives up at 15);
    others at once. Counts the slow pages in flight at the same time."""

    def __init__(self):
        self.release = threading.Event()
        self.in_flight = self.most_in_flight = 0
        self.lock = threading.Lock()
        self.url = ""  # where it answers, once the site fixture serves it
        site = self

        class Handler(QuietHandler):
            def do_GET(self):
                slow = self.path.startswith("/slow/")
                if slow:
                    with site.lock:
                        site.in_flight += 1
                        site.most_in_flight = max(site.most_in_flight, site.in_flight)
                    site.release.wait(10)
                    with site.lock:
                        site.in_flight -= 1
                body = f"<html><body><h1>Página {self.path}</h1><p>Abrimos de lunes a sábado de nueve a ocho, " \
                       f"y los domingos por la mañana.</p></body></html>".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.handler = Handler


@pytest.fixture
def settings(settings):
    return settings.replace(knowledge_allow_private_urls=True)  # the pages are on loopback


@pytest.fixture
def site():
    served = SlowSite()
    with serving(served.handler) as server:
        served.url = server.url
        yield served
        served.release.set()


@pytest.fixture
def consumers(start_workers):
    """The queue on queue.db and the server's consumers, from the registry serve() starts them from."""
    return start_workers("queue", "slow lane")


def _documents(organization_id: str) -> list[KnowledgeDocument]:
    with runtime.get().db.unit_of_work(write=False) as session:
        return list(session.exec(select(KnowledgeDocument).where(KnowledgeDocument.organization_id == organization_id)))


def _message(message_id_of_network: str) -> Message | None:
    with runtime.get().db.unit_of_work(write=False) as session:
        return session.exec(select(Message).where(Message.wamid == message_id_of_network)).first()


def test_one_organizations_slow_pages_delay_neither_anothers_media_nor_its_pages(line, api, site, consumers):
    busy = factories.person(api, email="eva@example.com")["tokens"]["accessToken"]
    busy_org = factories.organization(api, busy, name="Biblioteca", slug="biblioteca")
    for number in range(SLOW_PAGES):
        added = api.post(f"/organizations/{busy_org['id']}/bot/knowledge/url",
                         {"url": f"{site.url}/slow/{number}"}, token=busy)
        assert added.status_code == 201, added.json
    eventually(lambda: site.in_flight, lambda n: n >= 1)  # the busy organization's pages are being read

    # Meanwhile another organization's customer sends a picture: fetched at once, not after the pages.
    picture = b"\x89PNG\r\n\x1a\n" + b"7" * 500
    started = time.monotonic()
    wamid = line.customer_writes({"type": "image", "image": {"caption": "¿Este modelo?"}},
                                 media={"contentBase64": base64.b64encode(picture).decode(), "mimeType": "image/png"})
    assert [answer.status_code for answer in line.deliver()] == [200]
    stored = eventually(lambda: _message(wamid), lambda m: m is not None and m.media_status == "stored", seconds=8)
    assert stored.media_size == len(picture)
    # ...and its owner's own page is read while the busy organization's still wait their turn.
    own = api.post(f"/organizations/{line.org_id}/bot/knowledge/url", {"url": f"{site.url}/horario"},
                   token=line.owner["token"]).json["data"]
    eventually(lambda: _documents(line.org_id), lambda docs: docs[0].status == "READY", seconds=8)
    assert _documents(line.org_id)[0].id == own["id"]
    assert time.monotonic() - started < 9 and not site.release.is_set()
    waiting = [doc for doc in _documents(busy_org["id"]) if doc.status == "PROCESSING"]
    assert len(waiting) == SLOW_PAGES  # nothing of the busy organization's finished meanwhile
    assert site.most_in_flight == 1  # it read one page at a time: the lane's other worker stayed free

    site.release.set()
    eventually(lambda: _documents(busy_org["id"]), lambda docs: all(doc.status == "READY" for doc in docs),
               seconds=60)
    assert site.most_in_flight == 1


def test_a_task_queued_before_it_moved_still_runs():
    """queue.db keeps a queued task's module and name: one an older version queued under the name
    it had before it moved to its folder's tasks.py (core/queue.py, MOVED_TASKS) is read as the
    task it now is."""
    import appliance.handler_registry  # noqa: F401  (every task known)
    from huey.registry import Message

    for old, new in queue.MOVED_TASKS.items():
        lane = next(lane for lane in queue.LANES if new in lane._registry._registry)
        stored = lane.serializer.serialize(Message("id-1", old, None, 0, 0, None, ("x",), {}))
        assert lane._registry.task_to_string(type(lane.deserialize_task(stored))) == new
