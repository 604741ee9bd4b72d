from datetime import datetime

from sqlalchemy import JSON
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
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
