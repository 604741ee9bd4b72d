from datetime import datetime

from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime


class Backup(SQLModel, table=True):
    """One archive of the installation in the backup folder, or the attempt to make one."""
    __tablename__ = "backups"

    id: str = Field(primary_key=True, max_length=36)
    kind: str = Field(max_length=12)  # MANUAL | SCHEDULED | PRE_UPGRADE
    status: str = Field(max_length=8)  # RUNNING | READY | FAILED
    reason: str | None = Field(default=None, max_length=1000)  # why it failed, in a sentence
    file_name: str = Field(max_length=200)
    progress: int = 0  # percent of the bytes to archive written so far
    size_bytes: int | None = None
    sha256: str | None = Field(default=None, max_length=64)  # of the archive file
    app_version: str = Field(max_length=40)
    schema_revision: str | None = Field(default=None, max_length=40)
    key_id: str | None = Field(default=None, max_length=16)  # which backup key seals its secret key
    created_by_user_id: str | None = Field(default=None, max_length=36)
    created_at: datetime = Field(sa_type=UTCDateTime, index=True)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
