from datetime import datetime

from sqlalchemy import JSON, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id

AUDIENCES = ("ALL", "HUMAN", "BOT")
# A survey's life: scheduled at the close, then sent (question 1 asked), answered (question 1
# answered; later questions and the comment may follow), expired (no answer in time); or unsent
# with the reason, or cancelled because the customer came back before it left.
STATUSES = ("scheduled", "sent", "answered", "expired", "unsent", "cancelled")
UNSENT_REASONS = ("window_closed", "cooldown", "audience", "opted_out", "disabled_number", "send_failed")


class SurveyConfig(SQLModel, table=True):
    """One per organization; absent until first saved (then the defaults, inactive, are shown)."""
    __tablename__ = "survey_configs"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    active: bool = False
    delay_minutes: int = 120
    audience: str = Field(default="ALL", max_length=5)
    cooldown_days: int = 0
    questions: list = Field(default_factory=list, sa_type=JSON)  # [{text, options: [str]}]
    ask_comment: bool = False
    comment_question: str | None = Field(default=None, max_length=1024)
    thanks_message: str | None = Field(default=None, max_length=1024)
    answer_timeout_hours: int = 24
    phone_number_pks: list = Field(default_factory=list, sa_type=JSON)  # empty: every number
    updated_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    updated_at: datetime = Field(sa_type=UTCDateTime)


class SurveyDelivery(SQLModel, table=True):
    """What one close did about a survey: the decision (scheduled or unsent and why), then the
    sending, the answers' progress and the comment. `closed_at` is the close it belongs to (one
    survey per close, whatever repeats the event) and the date results are counted by."""
    __tablename__ = "survey_deliveries"
    __table_args__ = (UniqueConstraint("conversation_id", "closed_at", name="uq_survey_deliveries_close"),
                      Index("ix_survey_deliveries_org_closed", "organization_id", "closed_at"),
                      Index("ix_survey_deliveries_comments", "organization_id", "closed_at",
                            **partial("comment IS NOT NULL")),
                      Index("ix_survey_deliveries_due", "status", "due_at"),
                      # Prompts waiting for an answer, by when they time out.
                      Index("ix_survey_deliveries_waiting", "expires_at", **partial("finished_at IS NULL")),
                      Index("ix_survey_deliveries_contact_sent", "contact_id", "sent_at"))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    conversation_id: str = Field(foreign_key="conversations.id", ondelete="CASCADE")
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE")
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE")
    agent_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    handled_by: str | None = Field(default=None, max_length=5)  # HUMAN | BOT | None (nobody answered)
    status: str = Field(max_length=10)
    unsent_reason: str | None = Field(default=None, max_length=40)
    closed_at: datetime = Field(sa_type=UTCDateTime)
    due_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    expires_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # the prompt in the air times out
    answered_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # question 1
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # nothing more will be asked
    # The survey as it was when sent (a later change of the settings does not change its buttons).
    questions: list = Field(default_factory=list, sa_type=JSON)
    ask_comment: bool = False
    comment_question: str | None = Field(default=None, max_length=1024)
    thanks_message: str | None = Field(default=None, max_length=1024)
    answer_timeout_hours: int = 24
    step: int = 0  # the question waiting for its answer; len(questions): the comment
    prompt_message_id: str | None = Field(default=None, max_length=36)  # the last thing asked
    score: int | None = None  # question 1's: n - i for option i of n
    comment: str | None = Field(default=None, max_length=4096)
    comment_message_id: str | None = Field(default=None, max_length=36)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class SurveyAnswer(SQLModel, table=True):
    """One tapped option, with the texts the customer saw."""
    __tablename__ = "survey_answers"
    __table_args__ = (UniqueConstraint("delivery_id", "question_index", name="uq_survey_answers_question"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    delivery_id: str = Field(foreign_key="survey_deliveries.id", ondelete="CASCADE")
    message_id: str | None = Field(default=None, max_length=36)  # the customer's tap
    question_index: int
    question: str = Field(max_length=1024)
    option_index: int
    option: str = Field(max_length=24)
    score: int
    answered_at: datetime = Field(sa_type=UTCDateTime)


class SurveyTally(SQLModel, table=True):
    """The results' counters per organization and day (its date, in its zone, of the close), kept by
    the writers (tallies.py): the results of a year read a few thousand of these rows instead of
    every survey. kind `status`: key the status (`unsent:<reason>`, `cancelled:<reason>`);
    `option`: key `<question>:<option>`, label the texts; `agent`: key the user id ('' for none),
    question 1's answers and their scores."""
    __tablename__ = "survey_tallies"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    day: str = Field(max_length=10, primary_key=True)  # YYYY-MM-DD
    kind: str = Field(max_length=10, primary_key=True)
    key: str = Field(max_length=60, primary_key=True)
    count: int = 0
    score_sum: int = 0
    label: str | None = Field(default=None, max_length=1100)  # option: "question\u241foption", the newest
