"""POST /messages end to end: stored, queued, sent once to the simulator, statuses forward."""

from tests.messages.conftest import CUSTOMER


def test_a_text_goes_out_once_and_its_statuses_move_to_read(outbox):
    created = outbox.text()
    assert created["status"] == "pending" and created["to"] == CUSTOMER and created["direction"] == "out"
    sent = outbox.get(created["id"])
    assert sent["status"] == "sent" and sent["wamid"].startswith("wamid.")
    [got] = outbox.network_got()
    assert got["text"] == {"body": "Sí, recién salido del horno", "preview_url": False}
    assert got["biz_opaque_callback_data"] == created["id"] and got["to"] == CUSTOMER
    outbox.line.deliver()
    assert outbox.get(created["id"])["status"] == "delivered"
