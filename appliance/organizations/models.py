from datetime import datetime

from sqlalchemy import JSON
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Organization(SQLModel, table=True):
    __tablename__ = "organizations"

    id: str = Field(default_factory=new_id, primary_key=True)
    name: str = Field(max_length=100)
    slug: str = Field(unique=True, max_length=48)
    billing_email: str = Field(max_length=254)
    country: str | None = Field(default=None, max_length=2)
    currency: str | None = Field(default=None, max_length=3)
    timezone: str = Field(default="UTC", max_length=64)
    plan_slug: str = Field(default="free", max_length=40)
    billing_interval: str = Field(default="MONTHLY", max_length=10)
    billing_parent_id: str | None = Field(default=None, foreign_key="organizations.id", ondelete="SET NULL")
    business_hours_schedule: dict = Field(default_factory=dict, sa_type=JSON)
    opt_out_enabled: bool = True
    opt_out_keywords: list = Field(default_factory=list, sa_type=JSON)
    # Caps on AI spend set by the billing parent's owner for this (child) organization; None: no cap.
    ai_daily_usd_cap: float | None = None
    ai_monthly_usd_cap: float | None = None
    suspended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    suspension_reason: str | None = Field(default=None, max_length=300)
    created_by: str = Field(foreign_key="users.id", ondelete="RESTRICT")
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class OrganizationAddon(SQLModel, table=True):
    """Units of an add-on an organization pays for beyond its plan's included ones. A decrease
    waits for the end of the period already paid: `next_quantity` from `next_from` on."""
    __tablename__ = "organization_addons"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    addon_type: str = Field(primary_key=True, max_length=20)
    quantity: int = 0
    next_quantity: int | None = None
    next_from: datetime | None = Field(default=None, sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)

    def quantity_at(self, moment: datetime) -> int:
        if self.next_from is not None and moment >= self.next_from:
            return self.next_quantity or 0
        return self.quantity
