"""Bot configurations: one per phone number, with the defaults where none was saved."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.bots.config import DEFAULTS, needed_capabilities
from appliance.bots.models import BotConfig
from appliance.core import clock, events
from appliance.core.actor import OrgActor
from appliance.core.rows import read_row
from appliance.organizations import plans
from appliance.phone_numbers import service as phone_numbers_service
from appliance.phone_numbers.models import PhoneNumber


def _record(number: PhoneNumber, row: BotConfig | None) -> dict:
    """The configuration as the API shows it: every field, saved or default."""
    return {**DEFAULTS, **(row.settings if row else {}), "enabled": row.enabled if row else False,
            "mode": row.mode if row else "OFF", "phone_number_pk": number.id, "saved": row is not None,
            "created_at": row.created_at if row else None, "updated_at": row.updated_at if row else None}


def _row(session: Session, number: PhoneNumber) -> BotConfig | None:
    return session.exec(select(BotConfig).where(BotConfig.phone_number_pk == number.id)).first()


def _number(session: Session, actor: OrgActor, phone_number_pk: str) -> PhoneNumber:
    """One of the actor's numbers: 404 outside the organization and outside the actor's scope (a
    key's numbers, a member's business accounts), as for any record of another number."""
    return phone_numbers_service.access_phone_number(session, actor=actor, phone_number_pk=phone_number_pk)


def config_of(session: Session, phone_number_pk: str) -> dict | None:
    """The engine's read: the number's configuration (saved or defaults), None once the number is
    gone or disconnected. Read-only rows through the driver: every turn and AI reply reads it."""
    number = read_row(session, PhoneNumber.__table__, id=phone_number_pk, remember=False)
    if number is None or number.disconnected_at is not None:
        return None
    return _record(number, read_row(session, BotConfig.__table__, phone_number_pk=number.id, remember=False))


def list_configs(session: Session, *, actor: OrgActor) -> list[dict]:
    """One record per active number the actor may see (defaults where none is saved)."""
    numbers = phone_numbers_service.list_phone_numbers(session, actor=actor)
    rows = {row.phone_number_pk: row for row in session.exec(select(BotConfig).where(
        BotConfig.organization_id == actor.organization_id)).all()}
    return [_record(number, rows.get(number.id)) for number in numbers]


def get_config(session: Session, *, actor: OrgActor, phone_number_pk: str) -> dict:
    number = _number(session, actor, phone_number_pk)
    return _record(number, _row(session, number))


def _save(session: Session, actor: OrgActor, number: PhoneNumber, row: BotConfig | None, changes: dict) -> dict:
    merged = {**_record(number, row), **changes}
    for capability in needed_capabilities(merged):
        plans.check_capability(session, actor.organization_id, capability)
    now = clock.now()
    if row is None:
        row = BotConfig(organization_id=actor.organization_id, phone_number_pk=number.id, created_at=now, updated_at=now)
    row.enabled, row.mode = merged["enabled"], merged["mode"]
    row.settings = {name: merged[name] for name in DEFAULTS}
    row.updated_at = now
    session.add(row)
    session.flush()
    events.emit(session, events.BOT_CONFIG_UPDATED, organization_id=actor.organization_id,
                phoneNumberId=number.id, enabled=row.enabled, mode=row.mode, fields=sorted(changes))
    return _record(number, row)


def check_put(session: Session, *, actor: OrgActor, phone_number_pk: str, **fields) -> dict:
    """Create or update: the fields given change, the others keep their value (or default).
    `cooldown_seconds` is obsolete: accepted and dropped."""
    fields.pop("cooldown_seconds", None)
    number = _number(session, actor, phone_number_pk)
    return _save(session, actor, number, _row(session, number), fields)


def check_toggle(session: Session, *, actor: OrgActor, phone_number_pk: str, enabled: bool | None = None) -> dict:
    """Set `enabled` (left out: flip it); creates the defaults when nothing was saved."""
    number = _number(session, actor, phone_number_pk)
    row = _row(session, number)
    current = row.enabled if row else False
    return _save(session, actor, number, row, {"enabled": (not current) if enabled is None else enabled})
