from datetime import datetime

from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class OutgoingMail(SQLModel, table=True):
    __tablename__ = "outgoing_mails"

    id: str = Field(default_factory=new_id, primary_key=True)
    to_address: str = Field(max_length=254, index=True)
    subject: str = Field(max_length=300)
    body: str
    # pending -> sent (SMTP accepted it) | logged (no SMTP configured) | failed (gave up)
    status: str = Field(default="pending", max_length=10, index=True)
    attempts: int = 0
    last_error: str | None = None
    created_at: datetime = Field(sa_type=UTCDateTime)
    delivered_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
