from datetime import datetime

from sqlalchemy import JSON, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Template(SQLModel, table=True):
    """A message template of a connected business account, as the network last reported it
    (synced from `GET /{waba}/message_templates`, created through the API, moved by
    `message_template_status_update` webhooks). Sending checks variables against `components`."""

    __tablename__ = "templates"
    __table_args__ = (UniqueConstraint("waba_pk", "name", "language", name="uq_templates_waba_name_language"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    waba_pk: str = Field(foreign_key="wabas.id", ondelete="CASCADE", index=True)
    template_id: str | None = Field(default=None, max_length=40, index=True)  # the network's id
    name: str = Field(max_length=512)
    language: str = Field(max_length=15)
    category: str = Field(max_length=20)  # MARKETING | UTILITY | AUTHENTICATION
    status: str = Field(max_length=30)  # PENDING | APPROVED | REJECTED | PAUSED | DISABLED | ...
    parameter_format: str = Field(default="POSITIONAL", max_length=10)  # POSITIONAL | NAMED
    components: list = Field(default_factory=list, sa_type=JSON)
    rejected_reason: str | None = Field(default=None, max_length=200)
    synced_at: datetime = Field(sa_type=UTCDateTime)  # when the network last told us about it
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
