"""The bot's state of each conversation (`bot_conversations`), read and written through the
driver: every customer message and every turn touch it, and a mapped object cost a flush per
change. A state is a plain namespace of the row's columns; `due_at` always follows the rest
(`models.next_due`)."""

from __future__ import annotations

from types import SimpleNamespace

from sqlmodel import Session

from appliance.bots.models import BotConversation, next_due
from appliance.core import clock
from appliance.core.rows import insert_many, read_row, update_by_id

TABLE = BotConversation.__table__


def read(session: Session, conversation_id: str) -> SimpleNamespace | None:
    """The state as the transaction sees it now."""
    return read_row(session, TABLE, conversation_id=conversation_id, remember=False)


def write(session: Session, state: SimpleNamespace, now=None) -> None:
    """The whole state back, `due_at` recomputed (code changes a state by setting its attributes)."""
    state.due_at = next_due(state)
    state.updated_at = now or clock.now()
    update_by_id(session, TABLE, state.conversation_id,
                 {name: value for name, value in vars(state).items() if name != "conversation_id"},
                 key="conversation_id")


class States:
    """The bot states of the conversations a batch of events touches: each read once, changed in
    memory in the events' order, written once at the end (`save`)."""

    def __init__(self, session: Session):
        self.session = session
        self.rows: dict[str, SimpleNamespace | None] = {}
        self.created: set[str] = set()
        self.changed: dict[str, dict] = {}

    def get(self, conversation_id: str) -> SimpleNamespace | None:
        if conversation_id not in self.rows:
            self.rows[conversation_id] = read(self.session, conversation_id)
        return self.rows[conversation_id]

    def create(self, **values) -> None:
        row = SimpleNamespace(**{column.name: None for column in TABLE.columns})
        vars(row).update(plan=[], flow_answers={}, welcomed=False, disclosed=False, follow_up_stage=0, **values)
        self.rows[row.conversation_id] = row
        self.created.add(row.conversation_id)
        self.change(row)

    def change(self, state: SimpleNamespace, **values) -> None:
        """Set `values`; `due_at` follows."""
        vars(state).update(values, updated_at=clock.now())
        state.due_at = next_due(state)
        self.changed.setdefault(state.conversation_id, {}).update(values, due_at=state.due_at,
                                                                   updated_at=state.updated_at)

    def save(self) -> None:
        new = [vars(self.rows[key]) for key in self.changed if key in self.created]
        if new:
            insert_many(self.session, TABLE, new)
        for key, values in self.changed.items():
            if key not in self.created:
                update_by_id(self.session, TABLE, key, values, key="conversation_id")
        self.created.clear()
        self.changed.clear()
