"""When the network refuses or does not answer: retried if that helps, failed with the network's code
and guidance otherwise, never sent twice; 190 (and only 190) asks for re-authorization."""

from sqlmodel import select

from appliance.core import clock, runtime
from appliance.core.events import OutboxEvent
from appliance.graph_api.errors import explain
from appliance.messages.sending import lanes, queue
from appliance.messages.models import Message
from appliance.wabas import network
from tests.waiting import eventually


def _send_due(outbox):
    lanes.send_queued(runtime.get().db, outbox.line.number["id"])


def test_a_refusal_fails_the_message_with_an_explanation(outbox):
    outbox.faults(failNext=[131026])
    created = outbox.text()
    failed = outbox.get(created["id"])
    assert failed["status"] == "failed" and failed["errorCode"] == 131026 and failed["wamid"] is None
    assert failed["errorTitle"] == explain(131026).title
    assert failed["errorGuidance"] == explain(131026).guidance and failed["errorGuidance"]["es"]
    assert failed["sendAttempts"] == 1
    with runtime.get().db.unit_of_work(write=False) as session:
        updates = [e.data for e in session.exec(select(OutboxEvent).where(OutboxEvent.name == "message.updated")).all()]
    assert {"messageId": created["id"], "status": "failed", "errorCode": 131026} in [
        {k: u.get(k) for k in ("messageId", "status", "errorCode")} for u in updates]
    assert outbox.line.get(f"/wabas/{outbox.line.waba['id']}")["needsReauth"] is False


def test_throttling_is_retried_with_back_off_then_sent_once(outbox):
    outbox.faults(failNext=[130429, 131000])
    created = outbox.text()
    waiting = outbox.get(created["id"])
    assert waiting["status"] == "pending" and waiting["errorCode"] == 130429 and waiting["sendAttempts"] == 1
    _send_due(outbox)
    assert outbox.get(created["id"])["sendAttempts"] == 1  # not due yet: nothing was tried
    clock.advance(1.5)
    _send_due(outbox)
    assert outbox.get(created["id"])["errorCode"] == 131000  # the second try met an outage
    clock.advance(60)
    _send_due(outbox)
    done = outbox.get(created["id"])
    assert done["status"] == "sent" and done["errorCode"] is None and done["sendAttempts"] == 3
    assert len(outbox.network_got()) == 1


def test_retries_end_after_the_last_attempt(outbox):
    outbox.faults(failNext=[131000] * queue.MAX_ATTEMPTS)
    created = outbox.text()
    for _ in range(queue.MAX_ATTEMPTS):
        clock.advance(3600)
        _send_due(outbox)
    failed = outbox.get(created["id"])
    assert failed["status"] == "failed" and failed["errorCode"] == 131000
    assert failed["sendAttempts"] == queue.MAX_ATTEMPTS and outbox.network_got() == []


def test_an_expired_token_marks_the_account_for_reauthorization(outbox):
    outbox.faults(failNext=[190])
    created = outbox.text()
    failed = outbox.get(created["id"])
    assert failed["status"] == "failed" and failed["errorCode"] == 190
    assert outbox.line.get(f"/wabas/{outbox.line.waba['id']}")["needsReauth"] is True
    with runtime.get().db.unit_of_work(write=False) as session:
        assert len(session.exec(select(OutboxEvent).where(OutboxEvent.name == "waba.needs_reauth")).all()) == 1


def test_no_answer_is_not_repeated_and_the_networks_status_settles_it(outbox):
    """The network took the message but answered after our timeout: failed (-2) at first, never sent
    again; its status webhook, carrying our id, then links the wamid and moves it on."""
    outbox.faults(slowSeconds=2.5)  # the tests' Graph timeout is 2 s
    created = outbox.text()
    unknown = outbox.get(created["id"])
    assert unknown["status"] == "failed" and unknown["errorCode"] == -2 and unknown["errorGuidance"]["en"]
    outbox.faults(slowSeconds=0)
    eventually(outbox.network_got, seconds=5)  # the slow answer is still on its way
    clock.advance(3600)
    _send_due(outbox)
    [got] = outbox.network_got()
    outbox.line.deliver()
    settled = outbox.get(created["id"])
    assert settled["status"] == "delivered" and settled["wamid"] == got["wamid"] and settled["errorCode"] is None


def test_a_network_that_cannot_be_reached_is_retried(outbox, settings):
    network._client.cache_clear()
    runtime.get().settings = settings.replace(graph_api_url="http://127.0.0.1:9")  # nothing listens there
    try:
        created = outbox.text()
        waiting = outbox.get(created["id"])
        assert waiting["status"] == "pending" and waiting["errorCode"] == -1
    finally:
        runtime.get().settings = settings
    clock.advance(5)
    _send_due(outbox)
    assert outbox.get(created["id"])["status"] == "sent" and len(outbox.network_got()) == 1


def test_a_restart_fails_what_was_in_the_air_and_leaves_the_queue(outbox):
    first, second = outbox.text("uno"), outbox.text("dos")
    with runtime.get().db.unit_of_work(write=True) as session:
        for message_id, state in ((first["id"], "inflight"), (second["id"], "queued")):
            message = session.get(Message, message_id)
            message.send_state, message.status, message.wamid = state, "pending", None
            session.add(message)
    assert queue.recover_interrupted(runtime.get().db) == 1
    interrupted = outbox.get(first["id"])
    assert interrupted["status"] == "failed" and interrupted["errorCode"] == -3
    with runtime.get().db.unit_of_work(write=False) as session:
        assert session.get(Message, second["id"]).send_state == "queued"


def test_a_send_answered_after_the_restart_failed_it_is_sent_after_all(outbox):
    """A send in the air at a restart is failed (-3); if its answer is recorded afterwards (the
    network took it), the message is sent, not a failure with a wamid."""
    created = outbox.text("uno")
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:
        message = session.get(Message, created["id"])
        message.send_state, message.status, message.wamid = "inflight", "pending", None
        session.add(message)
        job = queue.Job(message.id, message.conversation_id, message.customer_wa_id, "text", {"body": "uno"}, None, 1)
        line = queue.read_line(session, outbox.line.number["id"])
    assert queue.recover_interrupted(database) == 1
    with database.unit_of_work(write=True) as session:
        queue.record(session, line, [queue.Answer(job, "sent", wamid="wamid.late")])
    sent = outbox.get(created["id"])
    assert (sent["status"], sent["wamid"], sent["errorCode"]) == ("sent", "wamid.late", None)


def test_a_lane_whose_transaction_fails_records_its_answers_on_the_next_turn(outbox, monkeypatch, start_workers):
    """A busy database while answers are written must not strand messages in flight."""
    failures = []
    real_record = lanes.record

    def record_failing_once(session, line, answers):
        if answers and not failures:
            failures.append(len(answers))
            raise RuntimeError("database is locked")
        real_record(session, line, answers)

    monkeypatch.setattr(lanes, "record", record_failing_once)
    start_workers("sender")
    created = outbox.text("uno")
    eventually(lambda: outbox.get(created["id"])["status"], lambda status: status == "sent", seconds=10)
    assert failures == [1] and len(outbox.network_got()) == 1
    with runtime.get().db.unit_of_work(write=False) as session:
        assert session.get(Message, created["id"]).send_state is None


def test_messages_queued_when_their_number_is_disconnected_fail_with_a_reason(outbox):
    outbox.faults(failNext=[130429])
    created = outbox.text()
    assert outbox.get(created["id"])["status"] == "pending"
    line = outbox.line
    assert line.api.delete(f"/organizations/{line.org_id}/wabas/{line.waba['id']}", token=line.owner["token"]).status_code in (200, 204)
    clock.advance(5)
    _send_due(outbox)
    failed = outbox.get(created["id"])
    assert failed["status"] == "failed" and failed["errorCode"] == -4 and failed["errorGuidance"]["es"]
    assert outbox.network_got() == []
