from datetime import datetime

from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class OutgoingMail(SQLModel, table=True):
    __tablename__ = "outgoing_mails"

    id: str = Field(default_factory=new_id, primary_key=True)
    to_address: str = Field(max_length=254, index=True)
    subject: str = Field(max_length=300)
    # The text holds one-time links (reset, verification, invitation): kept sealed with the keyring,
    # read through mail.delivery.body_of. `body` is empty but in rows written before it was sealed.
    body: str = ""
    body_sealed: str | None = None
    # pending -> sent (SMTP accepted it) | logged (no SMTP configured) | failed (gave up)
    status: str = Field(default="pending", max_length=10, index=True)
    attempts: int = 0
    last_error: str | None = None
    created_at: datetime = Field(sa_type=UTCDateTime)
    delivered_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class MailServer(SQLModel, table=True):
    """The installation's outgoing mail server as its administrator set it in the console (one
    row; APPLIANCE_SMTP_URL, when given, wins over it). The password is sealed with the keyring."""

    __tablename__ = "mail_servers"

    id: str = Field(default="default", primary_key=True, max_length=20)
    host: str = Field(max_length=253)
    port: int
    security: str = Field(max_length=10)  # none | starttls | ssl
    username: str | None = Field(default=None, max_length=254)
    password_sealed: str | None = None
    sender: str = Field(max_length=254)
    tested_at: datetime = Field(sa_type=UTCDateTime)  # saved only after a test mail went through
    updated_by: str | None = Field(default=None, max_length=36)
    updated_at: datetime = Field(sa_type=UTCDateTime)
