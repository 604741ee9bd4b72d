"""Link pages as the organization manages them and as visitors see them. Handles are global (the
public address has no organization in it); items are an address (http or https) or one of the
organization's chat links (its short address, so the chat link's own clicks count too). A page
shows only once published; views and clicks are counters."""

from __future__ import annotations

from urllib.parse import urlsplit

from sqlalchemy import update
from sqlmodel import Session, select

from appliance.chat_links import service as chat_links_service
from appliance.chat_links.models import ChatLink
from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid, NotFound
from appliance.link_pages.models import LinkPage, LinkPageItem
from appliance.installation import public_address

MAX_ITEMS = 30
RESERVED = frozenset({"admin", "api", "console", "inbox", "login", "new", "www"})


def public_url(page: LinkPage) -> str:
    """Where visitors open the page: from the appliance's base address, as every link it writes
    (not from the address a request to the console or the API happened to come in on)."""
    return public_address.url(f"/link-pages/p/{page.handle}")


def list_pages(session: Session, *, actor: OrgActor) -> list[LinkPage]:
    return list(session.exec(select(LinkPage).where(LinkPage.organization_id == actor.organization_id)
                             .order_by(LinkPage.created_at)))


def access_page(session: Session, *, actor: OrgActor, page_id: str) -> LinkPage:
    return tenancy.access_in_org(session, LinkPage, page_id, actor, what="link page", code="link_page_not_found")


def items_of(session: Session, page_ids: list[str]) -> dict[str, list[LinkPageItem]]:
    found: dict[str, list[LinkPageItem]] = {page_id: [] for page_id in page_ids}
    for item in session.exec(select(LinkPageItem).where(LinkPageItem.page_id.in_(page_ids))
                             .order_by(LinkPageItem.position)):
        found[item.page_id].append(item)
    return found


def _check_handle(session: Session, handle: str, page_id: str | None) -> None:
    if handle in RESERVED:
        raise Invalid("This handle is reserved.", code="handle_reserved", errors={"handle": ["Reserved."]})
    taken = session.exec(select(LinkPage.id).where(LinkPage.handle == handle)).first()
    if taken is not None and taken != page_id:
        raise Conflict("This handle is taken: choose another.", code="handle_taken")


def _items(session: Session, actor: OrgActor, page: LinkPage, items: list[dict]) -> None:
    """Replace the page's items (ids kept for items sent back with theirs, so click counts stay)."""
    if len(items) > MAX_ITEMS:
        raise Invalid(f"At most {MAX_ITEMS} items.", code="validation_failed", errors={"items": ["Too many."]})
    old = {item.id: item for item in session.exec(select(LinkPageItem).where(LinkPageItem.page_id == page.id))}
    kept = set()
    for position, given in enumerate(items):
        url, chat_link_id = given.get("url"), given.get("chat_link_id")
        if bool(url) == bool(chat_link_id):
            raise Invalid("Each item has a url or a chatLinkId, not both.", code="validation_failed",
                          errors={f"items.{position}": ["Give url or chatLinkId."]})
        if url and urlsplit(url).scheme not in ("http", "https"):
            raise Invalid("Addresses start with http:// or https://.", code="invalid_url",
                          errors={f"items.{position}.url": ["Use http:// or https://."]})
        if chat_link_id and session.exec(select(ChatLink.id).where(
                ChatLink.id == chat_link_id, ChatLink.organization_id == actor.organization_id)).first() is None:
            raise Invalid("No chat link with this id in this organization.", code="chat_link_not_found",
                          errors={f"items.{position}.chatLinkId": ["Unknown chat link."]})
        item = old.get(given.get("id") or "") or LinkPageItem(page_id=page.id, position=position, label="")
        item.position, item.label, item.url, item.chat_link_id = position, given["label"], url, chat_link_id
        session.add(item)
        kept.add(item.id)
    for item_id, item in old.items():
        if item_id not in kept:
            session.delete(item)


def do_create(session: Session, *, actor: OrgActor, handle: str, title: str, description: str | None = None,
              items: list[dict] | None = None, published: bool = False) -> LinkPage:
    _check_handle(session, handle, None)
    now = clock.now()
    page = LinkPage(organization_id=actor.organization_id, handle=handle, title=title, description=description,
                    published=published, created_at=now, updated_at=now)
    session.add(page)
    session.flush()
    _items(session, actor, page, items or [])
    session.flush()
    return page


def do_update(session: Session, *, actor: OrgActor, page_id: str, **changes) -> LinkPage:
    page = access_page(session, actor=actor, page_id=page_id)
    if "handle" in changes:
        _check_handle(session, changes["handle"], page.id)
    for name in ("handle", "title", "description", "published"):
        if name in changes:
            setattr(page, name, changes[name])
    if "items" in changes:
        _items(session, actor, page, changes["items"] or [])
    page.updated_at = clock.now()
    session.add(page)
    session.flush()
    return page


def do_delete(session: Session, *, actor: OrgActor, page_id: str) -> LinkPage:
    page = access_page(session, actor=actor, page_id=page_id)
    session.delete(page)
    return page


# What visitors see -----------------------------------------------------------------------------------

def public_page(session: Session, handle: str) -> tuple[LinkPage, list[LinkPageItem]]:
    """A published page by its handle, its view counted (an unknown or unpublished handle: 404)."""
    page = session.exec(select(LinkPage).where(LinkPage.handle == handle, LinkPage.published.is_(True))).first()
    if page is None:
        raise NotFound("No page here.", code="link_page_not_found")
    session.execute(update(LinkPage).where(LinkPage.id == page.id).values(views=LinkPage.views + 1))
    return page, items_of(session, [page.id])[page.id]


def follow(session: Session, item_id: str) -> str:
    """Where an item of a published page leads, its click counted."""
    item = session.get(LinkPageItem, item_id)
    page = session.get(LinkPage, item.page_id) if item else None
    if item is None or page is None or not page.published:
        raise NotFound("No link here.", code="link_page_item_not_found")
    target = item.url
    if item.chat_link_id:
        link = session.get(ChatLink, item.chat_link_id)
        if link is None or link.archived:
            raise NotFound("No link here.", code="link_page_item_not_found")
        target = chat_links_service.url_of(link)  # through the short address: the chat link counts it too
    session.execute(update(LinkPageItem).where(LinkPageItem.id == item.id).values(clicks=LinkPageItem.clicks + 1))
    return target
