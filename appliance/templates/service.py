"""Templates: synced from the network, created through it, moved by its status webhooks.

The network is asked outside any write transaction: accounts are read in a reading unit, the
Graph API is called, and only then is the request's (writing) session used.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session, select

from appliance.graph_api.client import GraphError
from appliance.wabas.network import as_app_error, graph_client
from appliance.core import clock, events, pagination, runtime
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, NotFound
from appliance.phone_numbers import service as phone_numbers_service
from appliance.templates import components as template_components
from appliance.templates.models import Template
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount


@dataclass
class SyncSummary:
    business_accounts: int = 0
    added: int = 0
    changed: int = 0
    removed: int = 0
    templates: int = 0
    errors: list[dict] = field(default_factory=list)


def _visible(session: Session, query, actor: OrgActor):
    """The actor's templates: its organization's, of the business accounts it reaches (a key kept to
    some numbers, the accounts of those numbers)."""
    return phone_numbers_service.scope_of(session, actor).only_accounts(
        query.where(Template.organization_id == actor.organization_id), Template.waba_pk)


def list_templates(session: Session, *, actor: OrgActor, take: int, cursor: str | None,
                   business_account_id: str | None = None, status: str | None = None,
                   name: str | None = None) -> pagination.Page:
    """By name, then language (cursor-paginated)."""
    query = _visible(session, select(Template), actor)
    if business_account_id:
        query = query.where(Template.waba_pk == business_account_id)
    if status:
        query = query.where(Template.status == status)
    if name:
        query = query.where(Template.name == name)
    return pagination.paginate(session, query, key=[Template.name, Template.language, Template.id],
                               take=take, cursor=cursor, descending=False)


def access_template(session: Session, *, actor: OrgActor, template_pk: str) -> Template:
    template = session.exec(_visible(session, select(Template).where(Template.id == template_pk), actor)).first()
    if template is None:
        raise NotFound("No template with this id in this organization.", code="template_not_found")
    return template


def _accounts(actor: OrgActor, business_account_id: str | None) -> list[BusinessAccount]:
    """The accounts to sync (those the actor reaches, or the one named: 404 outside them)."""
    with runtime.get().db.unit_of_work(write=False) as reading:
        if business_account_id:
            return [wabas_service.access_waba(reading, actor=actor, waba_pk=business_account_id)]
        return wabas_service.list_wabas(reading, actor=actor)


def check_sync(session: Session, *, actor: OrgActor, business_account_id: str | None = None) -> SyncSummary:
    """Read every template of the actor's business accounts (or of one) from the network and make
    the local copies match. An account the network refuses is reported and left as it was; when
    asked for one account, its refusal is the answer."""
    summary = SyncSummary()
    fetched: list[tuple[BusinessAccount, list[dict]]] = []
    for account in _accounts(actor, business_account_id):
        try:
            fetched.append((account, graph_client().list_templates(wabas_service.credentials(account)[0], account.waba_id)))
        except GraphError as error:
            if business_account_id:
                raise as_app_error(error, what="when reading the business account's templates") from None
            summary.errors.append({"business_account_id": account.id, "graph_code": error.code,
                                   "detail": error.message})
    for account, items in fetched:
        do_store_synced(session, account=account, items=items, summary=summary)
    return summary


def do_store_synced(session: Session, *, account: BusinessAccount, items: list[dict], summary: SyncSummary) -> None:
    now = clock.now()
    summary.business_accounts += 1
    stored = {(t.name, t.language): t for t in session.exec(select(Template).where(Template.waba_pk == account.id)).all()}
    for item in items:
        key = (str(item.get("name", "")), str(item.get("language", "")))
        if not key[0] or not key[1]:
            continue
        summary.templates += 1
        template = stored.pop(key, None)
        if template is None:
            # First seen here: recorded as it is, without announcing a status change.
            template = Template(organization_id=account.organization_id, waba_pk=account.id, name=key[0][:512],
                                language=key[1][:15], category="", status=str(item.get("status") or "")[:30],
                                created_at=now, updated_at=now, synced_at=now)
            summary.added += 1
        previous = (template.status, template.category, template.components, template.template_id)
        template.template_id = str(item.get("id") or "")[:40] or None
        template.category = str(item.get("category") or "")[:20]
        template.parameter_format = str(item.get("parameter_format") or "POSITIONAL")[:10]
        template.components = item.get("components") if isinstance(item.get("components"), list) else []
        template.rejected_reason = (str(item["rejected_reason"])[:200]
                                    if item.get("rejected_reason") not in (None, "NONE") else None)
        template.synced_at = now
        _set_status(session, template, str(item.get("status") or "")[:30], now=now)
        if template.created_at != now and previous != (template.status, template.category, template.components,
                                                        template.template_id):
            summary.changed += 1
            template.updated_at = now
        session.add(template)
    for gone in stored.values():  # deleted on the network's side
        session.delete(gone)
        summary.removed += 1
    session.flush()


def _set_status(session: Session, template: Template, status: str, *, now, reason: str | None = None) -> None:
    if template.status == status:
        return
    template.status, template.updated_at = status, now
    session.add(template)
    events.emit(session, events.TEMPLATE_STATUS, organization_id=template.organization_id, wabaId=template.waba_pk,
                templateId=template.id, templateName=template.name, language=template.language, status=status,
                reason=reason or template.rejected_reason)


def check_create(session: Session, *, actor: OrgActor, business_account_id: str, name: str, language: str,
                 category: str, components: list[dict], parameter_format: str = "POSITIONAL",
                 allow_category_change: bool = False) -> Template:
    """Check the template here, send it to the network (which reviews it: status PENDING until a
    webhook says otherwise), then store it."""
    template_components.check_components(components, parameter_format)
    with runtime.get().db.unit_of_work(write=False) as reading:  # no write lock while the network answers
        account = wabas_service.account_for_new_records(reading, actor=actor, waba_pk=business_account_id)
        _check_free(reading, account, name, language)
    body = {"name": name, "language": language, "category": category, "components": components,
            "parameter_format": parameter_format, "allow_category_change": allow_category_change}
    try:
        answer = graph_client().create_template(wabas_service.credentials(account)[0], account.waba_id, body)
    except GraphError as error:
        raise as_app_error(error, what="when creating the template") from None
    _check_free(session, account, name, language)  # again, under the write lock
    now = clock.now()
    template = Template(organization_id=account.organization_id, waba_pk=account.id,
                        template_id=str(answer.get("id") or "")[:40] or None, name=name, language=language,
                        category=str(answer.get("category") or category)[:20], status="",
                        parameter_format=parameter_format, components=components, synced_at=now,
                        created_at=now, updated_at=now)
    _set_status(session, template, str(answer.get("status") or "PENDING")[:30], now=now)
    return template


def _check_free(session: Session, account: BusinessAccount, name: str, language: str) -> None:
    taken = session.exec(select(Template.id).where(Template.waba_pk == account.id, Template.name == name,
                                                   Template.language == language)).first()
    if taken is not None:
        raise Conflict("This business account already has a template with this name and language.",
                       code="template_exists", templateId=taken)


def do_apply_status_update(session: Session, *, account: BusinessAccount, value: dict) -> None:
    """A `message_template_status_update` webhook: the template moves (found by the network's id,
    else by name and language); a template we never saw is recorded so the event can name it."""
    template_id = str(value.get("message_template_id") or "")
    name, language = value.get("message_template_name"), value.get("message_template_language")
    status = str(value.get("event") or "")[:30]
    if not status:
        return
    query = select(Template).where(Template.waba_pk == account.id)
    template = session.exec(query.where(Template.template_id == template_id)).first() if template_id else None
    if template is None and isinstance(name, str) and isinstance(language, str):
        template = session.exec(query.where(Template.name == name, Template.language == language)).first()
    now = clock.now()
    if template is None:
        if not (isinstance(name, str) and name and isinstance(language, str) and language):
            return
        template = Template(organization_id=account.organization_id, waba_pk=account.id,
                            template_id=template_id[:40] or None, name=name[:512], language=language[:15],
                            category=str(value.get("message_template_category") or "")[:20], status="",
                            synced_at=now, created_at=now, updated_at=now)
    reason = value.get("reason") if isinstance(value.get("reason"), str) and value.get("reason") != "NONE" else None
    if status == "REJECTED":
        template.rejected_reason = (reason or "")[:200] or None
    template.synced_at = now
    _set_status(session, template, status, now=now, reason=reason)
