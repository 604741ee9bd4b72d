from datetime import datetime

from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Invitation(SQLModel, table=True):
    __tablename__ = "invitations"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    email: str = Field(max_length=254, index=True)
    role_id: str = Field(foreign_key="roles.id", ondelete="CASCADE")
    token_hash: str = Field(unique=True, max_length=64)
    invited_by: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    accepted_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    accepted_by: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
