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

from sqlmodel import Session, select

from appliance.core import clock, runtime
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


def check_storage_room(session: Session, organization_id: str, *, used_bytes: int, adding_bytes: int) -> None:
    """402 entitlement_exceeded (STORAGE_BLOCK) when a file of `adding_bytes` would take the
    organization's media and knowledge files past its storage blocks."""
    if not billing_on() or adding_bytes <= 0:
        return
    block = plans.storage_block_bytes()
    limit = entitlements(session, organization_id)[STORAGE_BLOCK].limit
    if used_bytes + adding_bytes > limit * block:
        raise PaymentRequired(
            f"The plan and add-ons cover {limit} storage blocks of {block // 2**20} MB, and this file does not fit "
            "in what is left; delete files or buy storage blocks on the Billing page.",
            code="entitlement_exceeded", entitlement=STORAGE_BLOCK, limit=limit,
            inUse=-(-used_bytes // block))
