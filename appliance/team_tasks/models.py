from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class TeamTask(SQLModel, table=True):
    __tablename__ = "team_tasks"
    __table_args__ = (Index("ix_team_tasks_org_status_created", "organization_id", "status", "created_at", "id"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    title: str = Field(max_length=200)
    detail: str = ""
    conversation_id: str | None = Field(default=None, foreign_key="conversations.id", ondelete="SET NULL")
    contact_id: str | None = Field(default=None, foreign_key="contacts.id", ondelete="SET NULL")
    assignee_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    due_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    status: str = Field(default="OPEN", max_length=10)  # OPEN | DONE
    origin: str = Field(default="USER", max_length=10)  # USER | BOT | API: who made it
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    done_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
