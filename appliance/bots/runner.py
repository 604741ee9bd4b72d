"""Running the bots: the conversations whose `due_at` came are looked at in batches, each batch
one write transaction (a turn's replies, its log and `answered_through` commit together).

In the server a thread (`bot_runner`) sleeps until the earliest `due_at` (at most a second, for
other processes and clock changes) and is woken by the commits that make a turn due, so a reply
leaves when the debounce ends, not at the next tick of a scheduler. Without it (tests, the CLI) a
commit enqueues the queue task `run_due_turns` for that moment, and a minute sweep catches up
(tasks.py)."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from sqlmodel import Session, func, select

from appliance.bots import activity, states, turns
from appliance.bots.models import BotConversation
from appliance.contacts.models import Contact
from appliance.conversations.models import Conversation
from appliance.organizations.models import Organization
from appliance.core import clock
from appliance.core.background import WakeableThread

log = logging.getLogger("appliance.bots")
# Conversations per write transaction: enough to share a commit, few enough that webhooks and
# requests waiting on the write lock are not held up (a turn takes about a millisecond).
BATCH = 20


def run_due(database, now: datetime | None = None) -> int:
    """Look at every conversation that is due; answers how many were."""
    total = 0
    while True:
        moment = now or clock.now()
        if not _anything_due(database, moment):
            return total  # a wake-up with nothing due never takes the write lock
        with database.unit_of_work(write=True) as session:
            due = session.exec(select(BotConversation.conversation_id).where(BotConversation.due_at <= moment)
                               .order_by(BotConversation.due_at).limit(BATCH)).all()
            _load(session, due)
            for conversation_id in due:
                try:
                    with session.begin_nested():
                        turns.look_at(session, conversation_id, moment)
                except Exception as error:
                    log.exception("the bot failed on conversation %s", conversation_id)
                    _set_aside(session, conversation_id, error)
        total += len(due)
        if len(due) < BATCH:
            return total


def _load(session: Session, conversation_ids: list[str]) -> None:
    """The batch's conversations, contacts and organizations, one query each: the turns then find
    them in the session instead of reading them one by one."""
    if not conversation_ids:
        return
    conversations = session.exec(select(Conversation).where(Conversation.id.in_(conversation_ids))).all()
    contacts = session.exec(select(Contact).where(Contact.id.in_({c.contact_id for c in conversations}))).all()
    organizations = session.exec(select(Organization).where(
        Organization.id.in_({c.organization_id for c in conversations}))).all()
    # The session's identity map holds rows weakly: the batch keeps them until its commit.
    session.info["bot_batch"] = (conversations, contacts, organizations)


def _set_aside(session: Session, conversation_id: str, error: Exception) -> None:
    """A bug must neither loop nor stay hidden: what was due is dropped and logged as FAILED."""
    state = states.read(session, conversation_id)
    if state is None:
        return
    activity.record(session, organization_id=state.organization_id, kind="FAILED",
                    phone_number_pk=state.phone_number_pk, conversation_id=conversation_id,
                    reason="internal_error", error=repr(error)[:500])
    state.answered_through = max(state.answered_through or "", state.last_inbound_id or "") or None
    state.turn_due_at = state.handoff_at = state.follow_up_at = None
    state.plan, state.follow_up_stage = [], 0
    states.write(session, state)


def _anything_due(database, moment: datetime) -> bool:
    with database.unit_of_work(write=False) as session:
        return session.exec(select(BotConversation.conversation_id).where(BotConversation.due_at <= moment)
                            .limit(1)).first() is not None


def earliest_due(database) -> datetime | None:
    with database.unit_of_work(write=False) as session:
        return session.exec(select(func.min(BotConversation.due_at))).one()


class _Runner(WakeableThread):
    """The server's bot thread."""

    NAME = "bot-runner"
    MAX_SLEEP = 1.0
    # Passes at most this often: turns falling due meanwhile share one (its transaction, its reads
    # of rules and settings), at a cost of at most this much on a reply's way out.
    PASS_INTERVAL = 0.1

    def __init__(self):
        super().__init__()
        self._next_look: datetime | None = None  # when the thread will look next, if not woken

    def wake(self, due_at: datetime | None = None) -> None:
        """Look again now, unless the thread already means to look by `due_at` (a debounce pushes
        each new turn seconds ahead: most commits need no wake-up)."""
        planned = self._next_look
        if due_at is None or planned is None or due_at < planned:
            self._woken.set()

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._begin_pass()
            began = self._pass_began
            started = time.monotonic()
            try:
                run_due(self._database)
                earliest = earliest_due(self._database)
            except Exception:
                log.exception("running the bots failed; trying again")
                earliest = None
            wait = self.MAX_SLEEP if earliest is None else min((earliest - began).total_seconds(), self.MAX_SLEEP)
            if wait > 0:
                self._next_look = began + timedelta(seconds=wait)
                self._sleep(wait)
            self._next_look = None
            gap = self.PASS_INTERVAL - (time.monotonic() - started)
            if gap > 0:
                self._stopping.wait(gap)


bot_runner = _Runner()
