from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class PhoneNumber(SQLModel, table=True):
    """A business phone number of a connected WABA, imported from the network. Inbound webhooks
    are routed by `phone_number_id`."""

    __tablename__ = "phone_numbers"
    __table_args__ = (Index("uq_phone_numbers_connected_id", "phone_number_id", unique=True,
                            **partial("disconnected_at IS NULL")),)  # 0056

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    waba_pk: str = Field(foreign_key="wabas.id", ondelete="CASCADE", index=True)
    phone_number_id: str = Field(max_length=40, index=True)  # the network's id
    display_phone_number: str = Field(max_length=40)
    verified_name: str = Field(max_length=200)
    quality_rating: str | None = Field(default=None, max_length=20)
    messages_per_second: int = Field(default=80)  # the number's tier: 80 by default, up to 1,000
    coexistence: bool = Field(default=False)  # also used in the WhatsApp Business app (Graph's is_on_biz_app)
    coexistence_sync_requested_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    disconnected_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # with its business account
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
