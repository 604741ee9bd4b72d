"""Every background worker of the server, once, in the order they start (they stop in reverse:
core/workers.py). server.py starts them all after the app is built and stops them once requests
have drained; tests start the same ones (tests/fixtures/workers.py).

The rule of the order: a worker starts before those that hand it work, so at a stop it outlives
them and what they handed over is done. The ways in (the listening sockets, HTTPS, the tunnel) are
not here: they stop before requests drain, these after."""

from __future__ import annotations

from appliance.bots import ai_step
from appliance.bots.ai_step import workers as ai_workers
from appliance.bots.runner import bot_runner
from appliance.broadcasts.runner import broadcast_runner
from appliance.chat_links import clicks as link_clicks
from appliance.core import queue
from appliance.core.commit_listener import CommitListener
from appliance.core.sqlite_engine import Checkpointer
from appliance.core.dispatcher import dispatcher as outbox_dispatcher
from appliance.core.runtime import Runtime
from appliance.core.workers import Worker
from appliance.knowledge import tasks as knowledge_tasks
from appliance.live import feed as live_feed
from appliance.messages.sending.lanes import sender
from appliance.outbound_webhooks.sender import sender_thread as webhook_sender


def _stop(started) -> None:
    started.stop()


def _on_the_database(name: str, thread) -> Worker:
    """A worker that is its module's one object, started with the database (`start(db)`, `stop()`)."""
    def start(runtime: Runtime):
        thread.start(runtime.db)
        return thread
    return Worker(name, start, _stop)


def _start_checkpointer(runtime: Runtime) -> Checkpointer | None:
    if not runtime.db.is_sqlite:
        return None  # PostgreSQL checkpoints itself
    checkpointer = Checkpointer(runtime.settings.database_path)
    checkpointer.start()
    return checkpointer


def _stop_checkpointer(checkpointer: Checkpointer | None) -> None:
    if checkpointer is not None:
        checkpointer.stop()


def _heard_a_commit() -> None:
    """A commit that emitted events, in any process: this process's live streams look, and so does
    its outbox dispatcher where it runs (the lease holder): web processes wake it this way, not
    through the queue (core/tasks.py)."""
    live_feed.signal.notify()
    if outbox_dispatcher.running:
        outbox_dispatcher.wake()


def _start_commit_listener(runtime: Runtime) -> CommitListener | None:
    if runtime.db.is_sqlite:
        return None  # one process: its commits wake its streams directly (live/listeners.py)
    listener = CommitListener(runtime.db.url, _heard_a_commit)
    listener.start()
    return listener


def _stop_commit_listener(listener: CommitListener | None) -> None:
    if listener is not None:
        listener.stop()


def _start_queue(runtime: Runtime) -> queue.InProcessConsumer:
    consumer = queue.make_consumer(runtime.settings.queue_workers)
    consumer.start()
    return consumer


def _start_slow_lane(runtime: Runtime) -> queue.InProcessConsumer:
    settings = runtime.settings
    consumer = queue.make_slow_consumer(settings.slow_lane_workers, per_organization=settings.slow_lane_per_organization)
    consumer.start()
    # Nothing processes knowledge documents before the consumer runs: any left PROCESSING were cut short.
    knowledge_tasks.resume_interrupted(runtime.db, older_than=None)
    return consumer


def _stop_consumer(consumer: queue.InProcessConsumer) -> None:
    consumer.stop(graceful=True)  # the task in hand finishes


def _start_ai_workers(runtime: Runtime):
    ai_workers.start(runtime.db, runtime.settings.ai_workers)
    ai_step.resume(runtime.db, older_than=None)  # answers a stop cut short
    return ai_workers


def _start_link_clicks(_runtime: Runtime):
    link_clicks.recorder.start()
    return link_clicks.recorder


WORKERS: tuple[Worker, ...] = (
    # First to start, last to stop: it moves committed pages from the WAL into the database file
    # while anything else writes.
    Worker("checkpointer", _start_checkpointer, _stop_checkpointer, every_process=True),
    # PostgreSQL: the live streams of this process wake when another process commits events.
    Worker("commit listener", _start_commit_listener, _stop_commit_listener, every_process=True),
    # Before the dispatcher, whose fan-out hands it deliveries: its first pass logs and resends the
    # attempts a stop cut short before any other delivery starts, and at a stop the deliveries made
    # until the end are its (attempts in the air finish: their 15 s timeout at most).
    _on_the_database("webhooks", webhook_sender),
    # Before everything that emits events: their last events are handed over before it stops.
    _on_the_database("outbox dispatcher", outbox_dispatcher),
    # The sender before the queue consumer: it fails what was in the air at the last stop (-3)
    # before anything claims again, and once it runs, queue tasks leave sending to it. (Started
    # after the consumer, a periodic sweep could claim and send in the gap, and recovery then fail
    # a message it sent.) Stopping after everything that queues messages, it sends them; the calls
    # in the air finish and what was not started stays queued.
    _on_the_database("sender", sender),
    Worker("queue", _start_queue, _stop_consumer),
    # A document being read finishes at a stop (its 5 minutes at most) or resumes at the start.
    Worker("slow lane", _start_slow_lane, _stop_consumer),
    # Before the bots, which hand it their AI answers: at a stop the answers in progress finish (a
    # provider's timeout at most); the rest resume at the start.
    Worker("ai workers", _start_ai_workers, _stop),
    _on_the_database("bot runner", bot_runner),
    # After the sender: what it queues is sent once.
    _on_the_database("broadcast runner", broadcast_runner),
    # Short links' clicks, written in batches; its stop, after the requests drained, writes every
    # click noted.
    Worker("link clicks", _start_link_clicks, _stop, every_process=True),
)
