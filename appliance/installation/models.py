from datetime import datetime

from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime


class AllowedPrivateServer(SQLModel, table=True):
    """One of the private servers the installation's administrator lets organizations reach."""
    __tablename__ = "allowed_private_servers"

    origin: str = Field(primary_key=True, max_length=300)  # scheme://host[:port]
    added_by_user_id: str | None = Field(default=None, max_length=36)
    added_at: datetime = Field(sa_type=UTCDateTime)


class InstallationSetting(SQLModel, table=True):
    """A setting of the whole installation its administrator keeps in the console or the API (the
    public address); a setting of the environment with the same meaning wins over it."""
    __tablename__ = "installation_settings"

    name: str = Field(primary_key=True, max_length=60)
    value: str = Field(max_length=2000)
    updated_by_user_id: str | None = Field(default=None, max_length=36)
    updated_at: datetime = Field(sa_type=UTCDateTime)
