"""Delivering: the retry schedule, order behind an unavailable receiver, what a 410 does, receivers
that time out, reset, redirect or answer garbage, the day-long failure mail, an attempt a crash
cut short, and a person's retry. The clock is moved instead of waiting for the schedule. The
schedule is also run on the server's sender thread with the clock held (tests/fixtures/workers.py)."""

import json
import re
from datetime import datetime
from urllib.parse import urlsplit

import pytest
from sqlmodel import select

from appliance.core import clock, runtime
from appliance.outbound_webhooks import sender
from appliance.outbound_webhooks import tasks as webhook_tasks
from appliance.outbound_webhooks.models import WebhookDelivery
from tests.waiting import eventually


def _due():
    sender.deliver_due(runtime.get().db)


def _test(webhooks, webhook_id):
    return webhooks.post(f"/{webhook_id}/test")


def _after(background, seconds):
    """`seconds` later, whoever sends: inline the minute check runs, as the queue's scheduler would
    run it; the server's sender thread wakes by itself."""
    background.advance(seconds, webhook_tasks.webhooks_minute_check)


def _statuses(webhooks, webhook_id) -> list[str]:
    return [d["status"] for d in webhooks.deliveries(webhook_id)]


def test_failures_retry_on_the_schedule_and_nothing_newer_overtakes_an_unavailable_receiver(webhooks, hook, background):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [503, 200]
    first = _test(webhooks, created["id"])
    eventually(lambda: _statuses(webhooks, created["id"]), lambda statuses: statuses == ["RETRYING"])
    second = _test(webhooks, created["id"])
    _after(background, 0)
    assert len(hook.requests) == 1  # the second waits behind the first
    [newest, oldest] = webhooks.deliveries(created["id"])
    assert oldest["status"] == "RETRYING" and oldest["responseStatus"] == 503 and oldest["attempt"] == 1
    assert newest["status"] == "PENDING" and newest["attempt"] == 0
    _after(background, 3)
    assert len(hook.requests) == 1  # 5 s after the first attempt, not before
    _after(background, 3)
    eventually(lambda: _statuses(webhooks, created["id"]), lambda statuses: statuses == ["DELIVERED", "DELIVERED"])
    sent = [json.loads(r["body"])["id"] for r in hook.requests]
    # Once the receiver is back, the retry goes first and the event behind it after; events of no
    # conversation (a test) are not ordered among themselves, so they may arrive either way round.
    assert sent[0] == first["eventId"] and sorted(sent[1:]) == sorted([first["eventId"], second["eventId"]])
    detail = webhooks.get(f"/{created['id']}/deliveries/{first['id']}")
    assert [(a["number"], a["outcome"], a["responseStatus"]) for a in detail["attempts"]] == [
        (1, "failed", 503), (2, "delivered", 200)]
    assert webhooks.get(f"/{created['id']}")["failureCount"] == 0


@pytest.mark.parametrize("failure", [503, 422], ids=["unavailable", "refused"])
def test_the_servers_sender_makes_a_retry_when_it_falls_due(webhooks, hook, running_workers, failure):
    """On the server's threads, the clock held: the retry due 5 s after a failed attempt goes out
    when the clock reaches 5 s, not a moment before, and not when the thread would next look with
    nothing to do (30 s): the sender sleeps until the earliest next attempt, the one it has just
    written included. (It once slept the 30 s, and inline tests could not see it.)"""
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [failure, 200]
    delivery = _test(webhooks, created["id"])

    def logged():
        return webhooks.get(f"/{created['id']}/deliveries/{delivery['id']}")
    eventually(logged, lambda d: d["status"] == "RETRYING")
    running_workers.advance(sender.RETRY_AFTER[0] - 0.1)
    assert len(hook.requests) == 1  # not before its time
    running_workers.advance(0.1)
    done = eventually(logged, lambda d: d["status"] == "DELIVERED")
    assert [(a["number"], a["outcome"]) for a in done["attempts"]] == [(1, "failed"), (2, "delivered")]
    first, second = (datetime.fromisoformat(a["startedAt"]) for a in done["attempts"])
    assert (second - first).total_seconds() == sender.RETRY_AFTER[0]
    assert len(hook.requests) == 2


def test_an_event_the_receiver_refuses_does_not_hold_up_the_others(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [422, 200]
    _test(webhooks, created["id"])
    _test(webhooks, created["id"])
    assert [d["status"] for d in webhooks.deliveries(created["id"])] == ["DELIVERED", "RETRYING"]


def test_after_eight_attempts_a_delivery_is_given_up(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [500]
    delivery = _test(webhooks, created["id"])
    for wait in sender.RETRY_AFTER:
        clock.advance(wait + 1)
        _due()
    [logged] = webhooks.deliveries(created["id"])
    assert logged["status"] == "FAILED" and logged["attempt"] == 8 and len(hook.requests) == 8
    assert logged["nextAttemptAt"] is None
    assert len(webhooks.get(f"/{created['id']}/deliveries/{delivery['id']}")["attempts"]) == 8


def test_a_410_turns_the_webhook_off_and_a_person_turns_it_on_and_retries(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [410, 200]
    delivery = _test(webhooks, created["id"])
    turned_off = webhooks.get(f"/{created['id']}")
    assert turned_off["active"] is False and turned_off["health"] == "disabled" and turned_off["disabledReason"] == "gone"
    assert webhooks.deliveries(created["id"])[0]["status"] == "FAILED"
    on = webhooks.patch(created["id"], active=True)
    assert on["active"] is True and on["disabledReason"] is None and on["failureCount"] == 0
    again = webhooks.post(f"/{created['id']}/deliveries/{delivery['id']}/retry")
    assert again["id"] == delivery["id"]
    [logged] = webhooks.deliveries(created["id"])
    assert logged["status"] == "DELIVERED" and logged["attempt"] == 2
    assert [json.loads(r["body"])["id"] for r in hook.requests] == [delivery["eventId"]] * 2


def test_receivers_that_misbehave_are_logged_attempts_in_words(webhooks, hook, monkeypatch):
    monkeypatch.setattr(sender, "TIMEOUT_SECONDS", 0.5)
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    said = {}
    for answer in (("sleep", 2), ("reset",), ("garbage",), ("redirect", "http://elsewhere.example/x")):
        hook.plan = [answer]
        delivery = _test(webhooks, created["id"])
        detail = webhooks.get(f"/{created['id']}/deliveries/{delivery['id']}")
        assert detail["status"] == "RETRYING" and detail["attempts"][0]["outcome"] == "failed", detail
        said[answer[0]] = (detail["responseStatus"], detail["error"])
        webhooks.delete(created["id"])
        created = webhooks.create(url=hook.url, events=["conversation.updated"])  # a fresh queue: no waiting behind
    assert said["sleep"] == (None, "No answer within 0.5 s.")
    assert said["reset"][0] is None and ("reset" in said["reset"][1] or "closed" in said["reset"][1]), said
    assert said["garbage"] == (None, "The receiver answered something that is not HTTP."), said
    assert said["redirect"][0] == 302 and "elsewhere.example" in said["redirect"][1]


def test_a_webhook_failing_for_a_day_shows_it_and_its_creator_gets_one_mail(webhooks, hook, mailbox):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [500]
    _test(webhooks, created["id"])
    assert webhooks.get(f"/{created['id']}")["health"] == "ok" and mailbox.to("owner@example.com") == []
    for wait in sender.RETRY_AFTER[:5]:  # 5 s, 5 min, 30 min, 2 h, 5 h: not a day yet
        clock.advance(wait + 1)
        _due()
    assert mailbox.to("owner@example.com") == []
    clock.advance(sender.RETRY_AFTER[5] + 1)  # 10 h more
    _due()
    clock.advance(sender.RETRY_AFTER[6] + 1)  # 10 h more: a day has gone by
    _due()
    shown = webhooks.get(f"/{created['id']}")
    assert shown["health"] == "failing" and shown["failureCount"] == 8 and shown["active"] is True
    [mail] = mailbox.to("owner@example.com")
    assert "failed for a day" in mail["Subject"] and hook.url in mail.get_payload(decode=True).decode()
    # Since when, in the organization's zone and named (the console's log shows that zone).
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d \([A-Za-z_]+(/[A-Za-z_]+)*\)", mail.get_payload(decode=True).decode())
    webhooks.post(f"/{created['id']}/test")
    assert len(mailbox.to("owner@example.com")) == 1  # once


def test_an_attempt_cut_short_by_a_crash_is_logged_as_interrupted_and_made_again(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [500, 200]
    delivery = _test(webhooks, created["id"])
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:  # as a stop during the second attempt leaves it
        row = session.get(WebhookDelivery, delivery["id"])
        row.in_flight_since, row.attempt = clock.now(), 2
        session.add(row)
    assert sender.recover_interrupted(database) == 1
    _due()
    detail = webhooks.get(f"/{created['id']}/deliveries/{delivery['id']}")
    assert [(a["number"], a["outcome"]) for a in detail["attempts"]] == [(1, "failed"), (2, "interrupted"), (3, "delivered")]
    assert "stopped while this attempt was in the air" in detail["attempts"][1]["error"]
    assert detail["status"] == "DELIVERED" and len(hook.requests) == 2


def test_a_delivery_in_the_air_cannot_be_retried_and_unknown_ones_are_404(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    delivery = _test(webhooks, created["id"])
    with runtime.get().db.unit_of_work(write=True) as session:
        row = session.get(WebhookDelivery, delivery["id"])
        row.in_flight_since = clock.now()
        session.add(row)
    answer = webhooks.post(f"/{created['id']}/deliveries/{delivery['id']}/retry", status=409)
    assert answer["code"] == "delivery_in_progress"
    missing = webhooks.post(f"/{created['id']}/deliveries/0192f0a0-0000-7000-8000-000000000000/retry", status=404)
    assert missing["code"] == "delivery_not_found"


def test_a_conversations_events_go_one_at_a_time_and_other_conversations_side_by_side(webhooks, hook):
    from appliance.outbound_webhooks import deliveries, fanout
    from appliance.outbound_webhooks.models import OutboundWebhook
    made = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [("sleep", 0.3)]
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:  # four events at once: two conversations, two each
        webhook = session.get(OutboundWebhook, made["id"])
        now = clock.now()
        rows = []
        for n, conversation in enumerate(("c-ana", "c-beto", "c-ana", "c-beto")):
            rows += deliveries.delivery_rows([webhook], event_id=f"e{n}", event_type="conversation.updated",
                                             created_at=now, data={"conversationId": conversation, "n": n},
                                             locale="en", now=now)
        fanout.write_deliveries(session, rows)
    arrivals = {}
    for request in hook.requests:
        data = json.loads(request["body"])["data"]
        arrivals.setdefault(data["conversationId"], []).append((data["n"], request["at"]))
    assert sorted(arrivals) == ["c-ana", "c-beto"]
    for events in arrivals.values():
        (first, first_at), (second, second_at) = events
        assert first < second and second_at - first_at >= 0.29  # the second waited for the first's answer
    assert abs(arrivals["c-ana"][0][1] - arrivals["c-beto"][0][1]) < 0.25  # the conversations went side by side


def test_a_conversations_chain_stops_at_an_unavailable_receiver_and_gives_the_rest_back_unsent(webhooks, hook):
    from appliance.outbound_webhooks import deliveries, fanout
    from appliance.outbound_webhooks.models import OutboundWebhook
    made = webhooks.create(url=hook.url, events=["conversation.updated"])
    hook.plan = [503, 200]
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:  # one conversation's three events: one chain
        webhook = session.get(OutboundWebhook, made["id"])
        now = clock.now()
        rows = []
        for n in range(3):
            rows += deliveries.delivery_rows([webhook], event_id=f"e{n}", event_type="conversation.updated",
                                             created_at=now, data={"conversationId": "c-ana", "n": n}, locale="en", now=now)
        fanout.write_deliveries(session, rows)
    assert len(hook.requests) == 1  # the first found the receiver unavailable: the chain stopped there
    first, *rest = sorted(webhooks.deliveries(made["id"]), key=lambda d: d["eventId"])
    assert (first["status"], first["attempt"]) == ("RETRYING", 1)
    assert [(d["status"], d["attempt"]) for d in rest] == [("PENDING", 0), ("PENDING", 0)]
    for delivery in rest:  # given back: no attempt logged, nothing left marked in the air
        assert webhooks.get(f"/{made['id']}/deliveries/{delivery['id']}")["attempts"] == []
    with database.unit_of_work(write=False) as session:
        assert all(row.in_flight_since is None for row in session.exec(select(WebhookDelivery)))
    clock.advance(6)
    _due()
    assert [json.loads(r["body"])["data"]["n"] for r in hook.requests] == [0, 0, 1, 2]
    assert {d["status"] for d in webhooks.deliveries(made["id"])} == {"DELIVERED"}


def test_an_address_with_international_characters_is_sent_as_a_browser_sends_it(webhooks, hook):
    """libcurl takes ASCII only: the path is percent-encoded (and a host would be spelled in IDNA),
    instead of the attempt failing on our side."""
    created = webhooks.create(url=f"{hook.url}/gancho/año", events=["conversation.updated"])
    _test(webhooks, created["id"])
    assert [r["path"] for r in hook.requests] == [f"{urlsplit(hook.url).path}/gancho/a%C3%B1o"]
    assert [d["status"] for d in webhooks.deliveries(created["id"])] == ["DELIVERED"]


def test_a_receiver_whose_certificate_nobody_vouches_for_is_not_sent_the_event(webhooks, tls_hook):
    """Certificates are checked (certifi's store and the system's): a self-signed one fails the
    attempt, in words, before the event leaves."""
    created = webhooks.create(url=tls_hook.url, events=["conversation.updated"])
    delivery = _test(webhooks, created["id"])
    detail = webhooks.get(f"/{created['id']}/deliveries/{delivery['id']}")
    assert detail["status"] == "RETRYING" and detail["responseStatus"] is None
    assert detail["error"].startswith("The secure connection failed") and tls_hook.requests == []
