"""The organization's inbox settings: messaging (read receipts, typing indicator, the inbox's
tabs), workload thresholds (SLA for a first answer, staleness) and e-mail notifications of
customers left waiting. Stored per group as given; what is absent takes the default here."""

from __future__ import annotations

from sqlmodel import Session

from appliance.conversations.models import InboxSettings
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.rows import read_row

INBOX_TABS = ("mine", "unassigned", "all", "handoff", "snoozed", "closed")
DEFAULTS = {
    "messaging": {"read_receipts": True, "typing_indicator": False, "inbox_tabs": ["mine", "unassigned", "all", "snoozed", "closed"]},
    "workload": {"sla_minutes": 15, "stale_minutes": 240},
    "notifications": {"delay_email_enabled": False, "delay_minutes": 30, "recipients": "assignee"},
}


def read_settings(session: Session, organization_id: str, group: str) -> dict:
    """One group of settings with the defaults filled in."""
    row = read_row(session, InboxSettings.__table__, organization_id=organization_id)
    return {**DEFAULTS[group], **((getattr(row, group) or {}) if row is not None else {})}


def do_update(session: Session, *, actor: OrgActor, group: str, changes: dict) -> dict:
    settings = session.get(InboxSettings, actor.organization_id)
    if settings is None:
        settings = InboxSettings(organization_id=actor.organization_id, messaging={}, workload={}, notifications={},
                                 updated_at=clock.now())
    setattr(settings, group, {**getattr(settings, group), **changes})
    settings.updated_at = clock.now()
    session.add(settings)
    return {**DEFAULTS[group], **getattr(settings, group)}
