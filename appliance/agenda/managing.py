"""Who manages the agenda's organization-wide integrations: the Google Calendar connection (connect,
switches, disconnect) and the ICS feed's address. People holding `integrations:write` (owners and
admins), never a plain agent: `calendar:write` books appointments, nothing more (an agent once made
the feed's address, kept reading it after being removed, and reconnected the calendar to an account
of their choosing).

What a person made lasts only while they may still make it: the feed's address answers 404 once its
maker was removed from the organization, suspended, or lost the permission; a connection they began
completes only for them. Both are a person's (an API key is nobody whose standing can be asked
later: 400 `person_required`, as attendance answers)."""

from __future__ import annotations

from sqlmodel import Session

from appliance.core.actor import Actor, OrgActor
from appliance.core.errors import Forbidden, Invalid
from appliance.memberships import service as memberships_service

MANAGE = "integrations:write"


def check_person(actor: OrgActor) -> None:
    if not actor.user_id:
        raise Invalid("The calendar's connection and feed are a person's: sign in to make them.",
                      code="person_required")


def still_manages(session: Session, organization_id: str, user_id: str | None) -> bool:
    """Whether this person is still a member of the organization, not suspended, with `MANAGE`."""
    if not user_id:
        return False
    try:
        memberships_service.access_organization(session, actor=Actor(user_id=user_id),
                                                organization_id=organization_id, permission=MANAGE)
    except Forbidden:
        return False
    return True
