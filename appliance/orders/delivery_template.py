"""The template that carries a sale's license keys once the customer's 24-hour window has closed
(only templates go then). The organization picks one of its approved templates whose body takes
the keys: one variable (the keys), or two (the product's name, then the keys), and nothing else to
fill (no header or button variables). Template variables are one line each, so the keys are joined
with " · ", and as many messages go as the keys need."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid
from appliance.orders.models import SalesSettings
from appliance.templates.components import expected_variables
from appliance.templates.models import Template

PARAMETER_MAX = 1000  # what one variable of a template carries, with room to spare


@dataclass(frozen=True)
class DeliveryTemplate:
    name: str | None
    language: str | None
    updated_at: datetime | None


def _fits(template: Template) -> bool:
    expected = expected_variables(template.components or [])
    return (template.status == "APPROVED" and template.parameter_format == "POSITIONAL" and expected["header"] is None
            and not expected["buttons"] and len(expected["body"]) in (1, 2))


def candidates(session: Session, *, actor: OrgActor) -> list[Template]:
    """The organization's templates that can carry keys, by name."""
    return [t for t in session.exec(select(Template).where(Template.organization_id == actor.organization_id)
                                    .order_by(Template.name, Template.language)) if _fits(t)]


def get(session: Session, *, organization_id: str) -> DeliveryTemplate:
    row = session.get(SalesSettings, organization_id)
    return DeliveryTemplate(row.delivery_template_name, row.delivery_template_language, row.updated_at) if row \
        else DeliveryTemplate(None, None, None)


def do_put(session: Session, *, actor: OrgActor, name: str | None, language: str | None) -> DeliveryTemplate:
    if name is not None and not any(t.name == name and t.language == language for t in candidates(session, actor=actor)):
        raise Invalid("Choose an approved template of this organization whose body takes the keys (one variable, "
                      "or the product's name and the keys) and nothing else.",
                      errors={"deliveryTemplate": ["Not an approved template that can carry keys."]})
    row = session.get(SalesSettings, actor.organization_id) or SalesSettings(organization_id=actor.organization_id,
                                                                             updated_at=clock.now())
    row.delivery_template_name, row.delivery_template_language = name, language if name else None
    row.updated_at = clock.now()
    session.add(row)
    session.flush()
    return get(session, organization_id=actor.organization_id)


def bodies(template: Template, product_name: str, keys: list[str]) -> list[list[str]]:
    """The body variables of each message that carries these keys (one line each, bounded)."""
    chunks, current = [], []
    for key in keys:
        if current and len(" · ".join(current + [key])) > PARAMETER_MAX:
            chunks.append(current)
            current = []
        current.append(key)
    chunks.append(current)
    two = len(expected_variables(template.components or [])["body"]) == 2
    return [[product_name[:200], " · ".join(chunk)] if two else [" · ".join(chunk)] for chunk in chunks]


def template_of(session: Session, organization_id: str, waba_pk: str) -> Template | None:
    """The chosen template as the number's business account has it (approved, still fitting)."""
    chosen = get(session, organization_id=organization_id)
    if not chosen.name:
        return None
    found = session.exec(select(Template).where(Template.waba_pk == waba_pk, Template.name == chosen.name,
                                                Template.language == chosen.language)).first()
    return found if found is not None and _fits(found) else None
