"""Issue 44, item 20: two fetches of one inbound media (the queued fetch and the stuck-media sweep,
or the inbox's media proxy) wrote through one temporary file name: the second truncated the first's
file and then found nothing to rename. Each writer now has a temporary file of its own, renamed
whole over the media's place."""

import base64
import os
import threading

import requests
from sqlmodel import select

from appliance.core import runtime
from appliance.messages import media_store
from appliance.messages.inbound import media as media_service
from appliance.messages.models import Message


def test_two_fetches_of_one_inbound_media_at_once_both_store_it_whole(line, netsim_url, monkeypatch):
    picture = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 400
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)  # the first fetch fails:
    line.customer_writes({"type": "image", "image": {"caption": "¿Este?"}},  # the media stays pending
                         media={"contentBase64": base64.b64encode(picture).decode(), "mimeType": "image/png"})
    assert [answer.status_code for answer in line.deliver()] == [200]
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 0.0}, timeout=5)
    with runtime.get().db.unit_of_work(write=False) as session:
        message = session.exec(select(Message)).one()
    assert message.media_status == "pending"

    # Both fetches have written the whole file and wait, before renaming it, until the other has too.
    both_written = threading.Barrier(2, timeout=10)
    fsync = os.fsync

    def fsync_then_wait(descriptor):
        fsync(descriptor)
        if threading.current_thread().name.startswith("fetch-"):
            both_written.wait()

    monkeypatch.setattr(os, "fsync", fsync_then_wait)
    outcomes, failures = [], []

    def fetch():
        try:
            outcomes.append(media_service.fetch(runtime.get().db, message.id))
        except Exception as exc:  # noqa: BLE001  (what the race did is the test's answer)
            failures.append(exc)

    fetches = [threading.Thread(target=fetch, name=f"fetch-{n}") for n in range(2)]
    for thread in fetches:
        thread.start()
    for thread in fetches:
        thread.join(20)
    assert failures == [] and sorted(outcome[0] for outcome in outcomes) == ["stored", "stored"]
    path = media_store.inbound_path(message.organization_id, message.id)
    assert path.read_bytes() == picture
    assert [entry.name for entry in path.parent.iterdir() if entry.name.endswith(".part")] == []
