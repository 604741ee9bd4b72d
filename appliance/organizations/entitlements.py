"""What an organization may grow to: seats (members and pending invitations), WhatsApp business
accounts, storage blocks (media and knowledge files) and, for a billing group's parent, the
organizations it pays for. Each is the plan's included quantity plus the add-ons contracted
(organization_addons); growing past it answers 402 `entitlement_exceeded` naming the entitlement.

With APPLIANCE_BILLING off (one business on its own machine) nothing is limited: the operator is
the business. The module that grows a quantity counts what is in use and asks here (this module
knows no members or accounts: the house's arrows point from them to organizations)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, text
from sqlmodel import Session, select

from appliance.core import clock, runtime
from appliance.core.db import UTCDateTime
from appliance.core.errors import PaymentRequired
from appliance.organizations import plans
from appliance.organizations.models import Organization, OrganizationAddon

SEAT, WABA, STORAGE_BLOCK, ORGANIZATION = plans.ADDON_TYPES

_NAMES = {SEAT: "seats", WABA: "WhatsApp business accounts", STORAGE_BLOCK: "storage",
          ORGANIZATION: "organizations in the billing group"}


def billing_on() -> bool:
    return runtime.get().settings.billing == "on"


@dataclass(frozen=True)
class Entitlement:
    kind: str
    included: int  # by the plan
    contracted: int  # add-ons paid for, in effect now

    @property
    def limit(self) -> int:
        return self.included + self.contracted


def contracted(session: Session, organization_id: str, moment: datetime | None = None) -> dict[str, int]:
    """Add-on units in effect at `moment` (now), per type (0 for those never bought)."""
    moment = moment or clock.now()
    found = {kind: 0 for kind in plans.ADDON_TYPES}
    for addon in session.exec(select(OrganizationAddon).where(OrganizationAddon.organization_id == organization_id)):
        found[addon.addon_type] = addon.quantity_at(moment)
    return found


def entitlements(session: Session, organization_id: str) -> dict[str, Entitlement]:
    organization = session.get(Organization, organization_id)
    plan = plans.plans().get(organization.plan_slug) or plans.plans()[plans.FREE]
    bought = contracted(session, organization_id)
    return {kind: Entitlement(kind, plan.included[kind], bought[kind]) for kind in plans.ADDON_TYPES}


def check_room(session: Session, organization_id: str, kind: str, *, in_use: int, adding: int = 1) -> None:
    """402 entitlement_exceeded when `in_use + adding` units of `kind` pass what the organization
    pays for (billing on only)."""
    if not billing_on() or adding <= 0:
        return
    limit = entitlements(session, organization_id)[kind].limit
    if in_use + adding > limit:
        raise PaymentRequired(
            f"The plan and add-ons cover {limit} {_NAMES[kind]} and {in_use} are in use; buy more on the "
            f"Billing page (add-on {kind}).", code="entitlement_exceeded", entitlement=kind, limit=limit,
            inUse=in_use)


# What each entitlement counts, as statements over the tables that hold it (by name: the modules
# that own those tables import this one, not the other way round).
_IN_USE = {
    SEAT: text("SELECT (SELECT count(*) FROM memberships WHERE organization_id = :org) + (SELECT count(*) "
               "FROM invitations WHERE organization_id = :org AND accepted_at IS NULL AND revoked_at IS NULL "
               "AND expires_at > :now)").bindparams(bindparam("now", type_=UTCDateTime())),
    WABA: text("SELECT count(*) FROM wabas WHERE organization_id = :org AND disconnected_at IS NULL"),
    ORGANIZATION: text("SELECT count(*) FROM organizations WHERE billing_parent_id = :org"),
}
_STORAGE_BYTES = text("SELECT (SELECT coalesce(sum(size), 0) FROM uploaded_media WHERE organization_id = :org) "
                      "+ (SELECT coalesce(sum(size_bytes), 0) FROM knowledge_documents WHERE organization_id = :org) "
                      "+ (SELECT coalesce(sum(size_bytes), 0) FROM bot_images WHERE organization_id = :org) "
                      "+ (SELECT coalesce(sum(size_bytes), 0) FROM stickers WHERE organization_id = :org)")


def storage_bytes(session: Session, organization_id: str) -> int:
    """Bytes of the organization's files: media uploaded to send, knowledge files, bot images, stickers."""
    return int(session.exec(_STORAGE_BYTES, params={"org": organization_id}).one()[0])


def usage(session: Session, organization_id: str) -> dict[str, int]:
    """Units in use per entitlement (storage in blocks, rounded up), for the Billing page."""
    found = {kind: int(session.exec(statement, params={"org": organization_id, "now": clock.now()}).one()[0])
             for kind, statement in _IN_USE.items()}
    found[STORAGE_BLOCK] = -(-storage_bytes(session, organization_id) // plans.storage_block_bytes())
    return {kind: found[kind] for kind in plans.ADDON_TYPES}


def check_storage_room(session: Session, organization_id: str, *, adding_bytes: int) -> None:
    """402 entitlement_exceeded (STORAGE_BLOCK) when a file of `adding_bytes` would take the
    organization's files past its storage blocks."""
    if not billing_on() or adding_bytes <= 0:
        return
    used_bytes = storage_bytes(session, organization_id)
    block = plans.storage_block_bytes()
    limit = entitlements(session, organization_id)[STORAGE_BLOCK].limit
    if used_bytes + adding_bytes > limit * block:
        raise PaymentRequired(
            f"The plan and add-ons cover {limit} storage blocks of {block // 2**20} MB, and this file does not fit "
            "in what is left; delete files or buy storage blocks on the Billing page.",
            code="entitlement_exceeded", entitlement=STORAGE_BLOCK, limit=limit,
            inUse=-(-used_bytes // block))
