from datetime import datetime

from sqlalchemy import JSON, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class BotConfig(SQLModel, table=True):
    """One number's bot as its owner saved it. `enabled` and `mode` are columns (the engine looks
    for enabled bots); every other field is in `settings`, over the defaults of bots/config.py, so
    a field added later needs no migration and a stored row never lacks one."""

    __tablename__ = "bot_configs"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE", unique=True)
    enabled: bool = False
    mode: str = Field(default="OFF", max_length=30)
    settings: dict = Field(default_factory=dict, sa_type=JSON)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class BotRule(SQLModel, table=True):
    """A keyword rule: when a customer's words match, the bot replies and/or acts. Lower
    `priority` is tried first; the first match wins."""

    __tablename__ = "bot_rules"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    name: str = Field(max_length=100)
    phone_number_pks: list = Field(default_factory=list, sa_type=JSON)  # empty: every number
    keywords: list = Field(default_factory=list, sa_type=JSON)
    match_type: str = Field(default="CONTAINS", max_length=20)
    reply: str = ""
    action: str = Field(default="NONE", max_length=20)
    flow_id: str | None = Field(default=None, max_length=36)
    tag_id: str | None = Field(default=None, foreign_key="tags.id", ondelete="SET NULL")
    image_id: str | None = Field(default=None, foreign_key="bot_images.id", ondelete="SET NULL")  # sent with the reply
    priority: int = 100
    enabled: bool = True
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class BotFlow(SQLModel, table=True):
    """A scripted conversation (not Meta's WhatsApp Flows): steps of messages, questions and
    buttons, started by its trigger words or a rule, checked whole when saved (bots/flows.py)."""

    __tablename__ = "bot_flows"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    name: str = Field(max_length=100)
    phone_number_pks: list = Field(default_factory=list, sa_type=JSON)  # empty: every number
    trigger_keywords: list = Field(default_factory=list, sa_type=JSON)
    enabled: bool = True
    steps: list = Field(default_factory=list, sa_type=JSON)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class BotActivity(SQLModel, table=True):
    """What a bot decided, one row per decision (replied, handed off, skipped and why, failed):
    nothing the automation does is silent."""

    __tablename__ = "bot_activity"
    __table_args__ = (Index("ix_bot_activity_org_created", "organization_id", "created_at", "id"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    kind: str = Field(max_length=40)
    phone_number_pk: str | None = Field(default=None, foreign_key="phone_numbers.id", ondelete="SET NULL")
    conversation_id: str | None = Field(default=None, foreign_key="conversations.id", ondelete="SET NULL", index=True)
    detail: dict = Field(default_factory=dict, sa_type=JSON)
    created_at: datetime = Field(sa_type=UTCDateTime)



class BotConversation(SQLModel, table=True):
    """The bot's side of one conversation, and its queue entry: `due_at` is the next moment the
    engine must look at it (a burst's debounce ending, a paced part of a reply, a follow-up, a
    hand-off deferred to the opening), so a crash loses nothing and a restart resumes.

    `answered_through` is the newest customer message the bot has decided on, written in the
    transaction that stores its reply: no message is answered twice, none is forgotten."""

    __tablename__ = "bot_conversations"
    __table_args__ = (Index("ix_bot_conversations_due", "due_at", **partial("due_at IS NOT NULL")),)

    conversation_id: str = Field(foreign_key="conversations.id", ondelete="CASCADE", primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE")
    due_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    turn_due_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # the burst's debounce ends
    last_inbound_id: str | None = Field(default=None, max_length=36)
    answered_through: str | None = Field(default=None, max_length=36)
    plan: list = Field(default_factory=list, sa_type=JSON)  # paced parts still to send: [{text, at}]
    flow_id: str | None = Field(default=None, max_length=36)
    flow_step: str | None = Field(default=None, max_length=60)
    flow_answers: dict = Field(default_factory=dict, sa_type=JSON)
    flow_ended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    welcomed: bool = False  # this open period's welcome went out (reset when the conversation closes)
    # When the conversation last closed: what the business said before belongs to the period before
    # (a customer writing after it is welcomed again).
    last_closed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    disclosed: bool = False
    out_of_hours_notice_for: str | None = Field(default=None, max_length=40)  # the closed period (its opening)
    handoff_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # a hand-off deferred to the opening
    follow_up_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    follow_up_stage: int = 0  # 0 none due, 1 the nudge is due, 2 the closing is due
    last_skip: str | None = Field(default=None, max_length=40)  # the last reason to stay silent (logged once)
    ai_job: dict | None = Field(default=None, sa_type=JSON)  # an AI answer being thought: {token, agentId, askedAt}
    updated_at: datetime = Field(sa_type=UTCDateTime)


def next_due(state) -> datetime | None:
    """The next moment the engine must look at a conversation: the earliest of its turn, the next
    part of a paced reply, a deferred hand-off and a follow-up (`state`: a row or its snapshot)."""
    moments = [state.turn_due_at, state.handoff_at, state.follow_up_at]
    if state.plan:
        moments.append(datetime.fromisoformat(state.plan[0]["at"]))
    return min((m for m in moments if m is not None), default=None)


class BotImage(SQLModel, table=True):
    """An image the bot may send. The file is under the data directory (bot_images/store.py) and
    stays when the record goes: messages already sent show it."""

    __tablename__ = "bot_images"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    label: str = Field(max_length=100)
    caption: str = Field(default="", max_length=1024)
    mime_type: str = Field(max_length=40)
    size_bytes: int
    sha256: str = Field(max_length=64)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
