from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class WhatsAppFlow(SQLModel, table=True):
    """A WhatsApp Flow (Meta's in-chat forms) of a business account, registered here by the
    network's flow id so messages can offer it: `/messages/flow` refers to it by our id."""

    __tablename__ = "whatsapp_flows"
    __table_args__ = (UniqueConstraint("waba_pk", "flow_id", name="uq_whatsapp_flows_waba_flow"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    waba_pk: str = Field(foreign_key="wabas.id", ondelete="CASCADE")
    flow_id: str = Field(max_length=40)  # the network's
    name: str = Field(max_length=200)
    created_at: datetime = Field(sa_type=UTCDateTime)
