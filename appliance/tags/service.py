"""Tags: labels the team puts on conversations, named uniquely per organization (case aside)."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict
from appliance.tags.models import Tag


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def list_tags(session: Session, *, actor: OrgActor) -> list[Tag]:
    return list(session.exec(select(Tag).where(Tag.organization_id == actor.organization_id).order_by(Tag.name_key)))


def access_tag(session: Session, *, actor: OrgActor, tag_id: str) -> Tag:
    return tenancy.access_in_org(session, Tag, tag_id, actor, what="tag", code="tag_not_found")


def tags_by_id(session: Session, *, organization_id: str, tag_ids: list[str]) -> dict[str, Tag]:
    if not tag_ids:
        return {}
    return {tag.id: tag for tag in session.exec(select(Tag).where(
        Tag.organization_id == organization_id, Tag.id.in_(tag_ids)))}


def _save(session: Session, tag: Tag) -> Tag:
    session.add(tag)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:
        raise Conflict("A tag with this name exists already.", code="tag_name_taken",
                       errors={"name": ["Already in use."]}) from None
    return tag


def do_create(session: Session, *, actor: OrgActor, name: str, color: str | None = None) -> Tag:
    now = clock.now()
    name = " ".join(name.split())
    return _save(session, Tag(organization_id=actor.organization_id, name=name, name_key=_key(name),
                              color=color or Tag.model_fields["color"].default, created_at=now, updated_at=now))


def do_update(session: Session, *, actor: OrgActor, tag_id: str, name: str | None = None,
              color: str | None = None) -> Tag:
    tag = access_tag(session, actor=actor, tag_id=tag_id)
    if name is not None:
        tag.name = " ".join(name.split())
        tag.name_key = _key(name)
    if color is not None:
        tag.color = color
    tag.updated_at = clock.now()
    return _save(session, tag)


def do_delete(session: Session, *, actor: OrgActor, tag_id: str) -> None:
    """The tag leaves every conversation that had it."""
    session.delete(access_tag(session, actor=actor, tag_id=tag_id))


def find_or_create(session: Session, *, actor: OrgActor, name: str) -> Tag:
    """The organization's tag called `name` (case and spacing ignored), created if there is none."""
    existing = session.exec(select(Tag).where(Tag.organization_id == actor.organization_id,
                                              Tag.name_key == _key(name))).first()
    return existing or do_create(session, actor=actor, name=name)
