"""Plans and capabilities (data/plans.json, read once): what an organization may turn on.

The rule everywhere a capability is turned on (a bot mode that needs AI, flows, broadcasts...):
an organization whose plan lacks it gets 400 `plan_capability_missing` naming the capability, so a
client can say which function the plan is missing. Nothing already on is turned off by a plan
change: it stops where the capability is checked next (documented in docs/api.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

from sqlmodel import Session

from appliance.core.errors import Invalid
from appliance.organizations.models import Organization
from appliance.paths import SHIPPED_DATA_DIR

FREE, BUSINESS = "free", "business"
INTERVALS = ("MONTHLY", "YEARLY")
ADDON_TYPES = ("SEAT", "WABA", "STORAGE_BLOCK", "ORGANIZATION")  # what an organization may buy more of


@dataclass(frozen=True)
class Plan:
    slug: str
    name: dict[str, str]
    capabilities: frozenset[str]
    max_phone_numbers: int | None
    currency: str
    prices: dict[str, Decimal]  # per interval
    included: dict[str, int]  # per add-on type: what the plan's price already covers


@dataclass(frozen=True)
class Addon:
    addon_type: str
    name: dict[str, str]
    prices: dict[str, Decimal]  # one unit, per interval


@cache
def _catalog() -> dict:
    return json.loads((SHIPPED_DATA_DIR / "plans.json").read_text(encoding="utf-8"))


@cache
def plans() -> dict[str, Plan]:
    return {p["slug"]: Plan(p["slug"], p["name"], frozenset(p["capabilities"]), p["maxPhoneNumbers"], p["currency"],
                            _prices(p["prices"]), {kind: int(p["included"][kind]) for kind in ADDON_TYPES})
            for p in _catalog()["plans"]}


@cache
def addons() -> dict[str, Addon]:
    """The add-ons' catalog, in ADDON_TYPES' order."""
    shipped = _catalog()["addons"]
    return {kind: Addon(kind, shipped[kind]["name"], _prices(shipped[kind]["prices"])) for kind in ADDON_TYPES}


def storage_block_bytes() -> int:
    """What one STORAGE_BLOCK holds (media and knowledge files)."""
    return int(_catalog()["storageBlockBytes"])


def _prices(prices: dict[str, str]) -> dict[str, Decimal]:
    # Decimal strings in the file: a price is exact, never a float.
    return {interval: Decimal(prices[interval]) for interval in INTERVALS}


def capabilities() -> dict[str, dict[str, str]]:
    """Every capability with its name in each language."""
    return _catalog()["capabilities"]


def check_plan_slug(slug: str, *, field: str = "planSlug") -> str:
    if slug not in plans():
        raise Invalid(f"Unknown plan; use one of {', '.join(sorted(plans()))}.", code="unknown_plan",
                      errors={field: [f"One of {', '.join(sorted(plans()))}."]})
    return slug


def plan_of(session: Session, organization_id: str) -> Plan:
    organization = session.get(Organization, organization_id)
    return plans().get(organization.plan_slug) or plans()[FREE]


def has_capability(session: Session, organization_id: str, capability: str) -> bool:
    return capability in plan_of(session, organization_id).capabilities


def check_capability(session: Session, organization_id: str, capability: str) -> None:
    """400 plan_capability_missing when the organization's plan does not include `capability`."""
    if capability not in capabilities():
        raise ValueError(f"unknown capability {capability!r}")  # a programming error, not input
    plan = plan_of(session, organization_id)
    if capability not in plan.capabilities:
        raise Invalid(f"The {plan.name['en']} plan does not include {capabilities()[capability]['en']} "
                      f"({capability}).", code="plan_capability_missing", capability=capability,
                      plan=plan.slug)
