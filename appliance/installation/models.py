from datetime import datetime

from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime


class AllowedPrivateServer(SQLModel, table=True):
    """One of the private servers the installation's administrator lets organizations reach."""
    __tablename__ = "allowed_private_servers"

    origin: str = Field(primary_key=True, max_length=300)  # scheme://host[:port]
    added_by_user_id: str | None = Field(default=None, max_length=36)
    added_at: datetime = Field(sa_type=UTCDateTime)
