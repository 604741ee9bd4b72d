"""Visitors' messages, written in batches: each visitor's message waits on its request's thread
while one thread writes whatever has come in since its last transaction, in one transaction, and
answers each only once it is committed (an acknowledged message survives a crash). At a few
messages a second a batch is one message and nothing waits longer; at two hundred visitors writing
it is several, and the writers' lock, the commit and the outbox's round are paid once for them, as a
WhatsApp delivery of many messages pays them once. One message's refusal (its savepoint rolled
back) is its own; the others of its batch are written."""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass, field

from sqlalchemy.exc import IntegrityError

from appliance.core import runtime
from appliance.core.errors import AppError, Unavailable
from appliance.core.rows import read_row
from appliance.messages.models import Message
from appliance.webchat import visitors

log = logging.getLogger("appliance.webchat")
BATCH = 100
WAIT_SECONDS = 30.0  # a message not written by then is answered as not sent (the visitor may resend it)
IDLE_SECONDS = 5.0  # the writing thread ends after this long without messages (the next one starts it)


@dataclass
class _Message:
    widget: object
    visitor: object
    client_id: str
    text: str | None
    reply: dict | None
    done: threading.Event = field(default_factory=threading.Event)
    result: tuple[str, str] | None = None
    error: AppError | None = None


class Intake:
    def __init__(self):
        self._waiting: queue.Queue[_Message] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def write(self, widget, visitor, *, client_id: str, text: str | None, reply: dict | None) -> tuple[str, str]:
        """The message's id and its conversation's, once committed; its refusal raised."""
        message = _Message(widget, visitor, client_id, text, reply)
        self._waiting.put(message)
        self._ensure_running()
        if not message.done.wait(WAIT_SECONDS):
            raise Unavailable("The message could not be written in time; send it again.", code="not_written")
        if message.error is not None:
            raise message.error
        return message.result

    def _ensure_running(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="webchat-intake", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                first = self._waiting.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    if self._waiting.empty():
                        self._thread = None
                        return
                continue
            batch = [first]
            while len(batch) < BATCH:
                try:
                    batch.append(self._waiting.get_nowait())
                except queue.Empty:
                    break
            self._write(batch)

    @staticmethod
    def _write(batch: list[_Message]) -> None:
        try:
            with runtime.get().db.unit_of_work(write=True) as session:
                for message in batch:
                    try:
                        with session.begin_nested():
                            message.result = visitors.do_receive(
                                session, message.widget, message.visitor, client_id=message.client_id,
                                text=message.text, reply=message.reply)
                    except AppError as error:
                        message.error = error
                    except IntegrityError:  # the same message sent again while the first was in this batch
                        first = read_row(session, Message.__table__, organization_id=message.widget.organization_id,
                                         client_id=visitors.stored_client_id(message.visitor.id, message.client_id),
                                         remember=False)
                        message.result = (first.id, first.conversation_id) if first else None
                        if first is None:
                            message.error = Unavailable("The message could not be written; send it again.",
                                                        code="not_written")
        except Exception:  # the batch's transaction failed: none of it was written
            log.exception("web chat messages not written")
            for message in batch:
                message.result, message.error = None, Unavailable("The message could not be written; send it again.",
                                                                  code="not_written")
        finally:
            for message in batch:
                message.done.set()
