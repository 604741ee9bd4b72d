"""Attendance's tables. Instants are epoch milliseconds (`*_ms`, the reference's `endedAt`); dates
are `YYYY-MM-DD` strings in the organization's time zone."""

from datetime import datetime

from sqlalchemy import JSON, BigInteger, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id

STATUSES = ("ONLINE", "LUNCH", "BREAK", "MEETING", "TRAINING")
OFFLINE = "OFFLINE"  # what agent.status_changed says before a start and after an end
WORK_MODES = ("FIXED", "HOURLY")
LEAVE_TYPES = ("VACATION", "SICK", "PERMISSION", "UNPAID", "OTHER")
END_REASONS = ("USER", "INACTIVITY", "SHIFT_END")


class AttendanceSettings(SQLModel, table=True):
    """The organization's rules (absent: the decided defaults, attendance off)."""

    __tablename__ = "attendance_settings"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    enabled: bool = False
    auto_close_enabled: bool = True
    close_at_shift_end: bool = False
    require_jornada_for_inbox: bool = False
    allow_overtime: bool = True
    require_active_to_attend: bool = False
    include_open_sessions: bool = True
    inactivity_minutes: int = 30
    late_grace_min: int = 10
    early_leave_grace_min: int = 10
    absence_min_worked_min: int = 60
    worked_counting: str = Field(default="wall-clock", max_length=20)  # wall-clock | within-shift
    day_attribution: str = Field(default="start-day", max_length=20)  # start-day | split-by-day
    payroll_period: str = Field(default="semimonthly", max_length=20)  # semimonthly | rolling-15 | monthly
    celebrations: dict | list | None = Field(default=None, sa_type=JSON)
    # When `enabled` last went from off to on: no day before it is expected of anyone (days.py);
    # None: never turned on.
    enabled_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    updated_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class AttendanceSession(SQLModel, table=True):
    """One work session: from a start to an end. `timeline` is every status spell; `worked_spans`
    the merged spells that count as work (all but LUNCH), which the views cut into days and
    shifts; `totals` minutes per status. At most one in progress per person and organization."""

    __tablename__ = "attendance_sessions"
    __table_args__ = (
        Index("ix_attendance_sessions_org_started", "organization_id", "started_ms"),
        Index("ix_attendance_sessions_org_user_started", "organization_id", "user_id", "started_ms"),
        Index("uq_attendance_sessions_in_progress", "organization_id", "user_id", unique=True,
              **partial("ended_ms IS NULL")),
    )

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE")
    status: str = Field(default="ONLINE", max_length=10)
    started_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    ended_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    last_activity_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    end_reason: str | None = Field(default=None, max_length=12)  # USER | INACTIVITY | SHIFT_END
    note: str | None = Field(default=None, max_length=2000)
    timeline: list = Field(default_factory=list, sa_type=JSON)  # [{status, from, to}] ms; to null while current
    worked_spans: list = Field(default_factory=list, sa_type=JSON)  # [[from, to], ...] ms, ended sessions
    totals: dict = Field(default_factory=dict, sa_type=JSON)
    report: dict | None = Field(default=None, sa_type=JSON)  # the day as it stood at the end (frozen)
    edited_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    updated_at: datetime = Field(sa_type=UTCDateTime)


class WorkMode(SQLModel, table=True):
    """An agent's mode (absent: FIXED on the organization's business hours)."""

    __tablename__ = "attendance_work_modes"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    work_mode: str = Field(default="FIXED", max_length=10)
    schedule: dict | None = Field(default=None, sa_type=JSON)  # businessHoursSchedule's shape; None: the organization's
    updated_at: datetime = Field(sa_type=UTCDateTime)


class OvertimeGrant(SQLModel, table=True):
    """Overtime allowed to an agent on one day: time beyond the shift counts, and the shift's end
    does not close the session."""

    __tablename__ = "attendance_overtime"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    date: str = Field(max_length=10, primary_key=True)
    granted_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)


class Holiday(SQLModel, table=True):
    __tablename__ = "attendance_holidays"
    __table_args__ = (UniqueConstraint("organization_id", "date", name="uq_attendance_holidays_org_date"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    date: str = Field(max_length=10)
    name: str = Field(max_length=120)
    recurring: bool = False  # every year on this month and day
    created_at: datetime = Field(sa_type=UTCDateTime)


class Leave(SQLModel, table=True):
    __tablename__ = "attendance_leaves"
    __table_args__ = (Index("ix_attendance_leaves_org_user_start", "organization_id", "user_id", "start_date"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE")
    type: str = Field(max_length=12)
    start_date: str = Field(max_length=10)
    end_date: str = Field(max_length=10)  # inclusive
    note: str | None = Field(default=None, max_length=500)
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
