from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Sticker(SQLModel, table=True):
    """A sticker of the organization's library: a 512×512 WEBP as WhatsApp takes it (static ≤ 100 KB,
    animated ≤ 500 KB), its file under the data directory (service.path_of). The file stays when the
    record goes: messages already sent show it. What the upload was (`source_*`) and how it was
    re-encoded (`encoding`, `quality`) say in a sentence what normalization did."""

    __tablename__ = "stickers"
    # One copy of a picture per organization: the normalized file's hash.
    __table_args__ = (UniqueConstraint("organization_id", "sha256", name="uq_stickers_org_sha256"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    name: str = Field(max_length=60)
    sha256: str = Field(max_length=64)
    size_bytes: int
    animated: bool = Field(default=False)
    frames: int = Field(default=1)
    source_format: str = Field(max_length=10)  # PNG | WEBP, by the bytes
    source_width: int
    source_height: int
    source_bytes: int
    encoding: str = Field(max_length=10)  # kept (the upload as it was) | lossless | lossy
    quality: int | None = Field(default=None)  # the WEBP quality of a lossy encoding
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
