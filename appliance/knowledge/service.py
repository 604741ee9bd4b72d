"""The library: what people and API clients do with knowledge documents. Text is read and embedded
in the background (processing.py); these calls only check, store and queue."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, select

from appliance.core import clock, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.db import after_commit
from appliance.core.errors import Invalid, TooLarge
from appliance.core.files import Upload
from appliance.knowledge import extraction, files, tasks, web_pages
from appliance.knowledge.models import FILE, NOTE, URL, KnowledgeDocument
from appliance.organizations import plans
from appliance.phone_numbers import service as phone_numbers_service
from appliance.organizations import entitlements

MAX_FILE_BYTES = 25 * 1024 * 1024


def list_documents(session: Session, *, actor: OrgActor) -> list[KnowledgeDocument]:
    return list(session.exec(select(KnowledgeDocument).where(KnowledgeDocument.organization_id == actor.organization_id)
                             .order_by(KnowledgeDocument.created_at.desc(), KnowledgeDocument.id)).all())


def access_document(session: Session, *, actor: OrgActor, document_id: str) -> KnowledgeDocument:
    return tenancy.access_in_org(session, KnowledgeDocument, document_id, actor, what="knowledge document",
                                 code="knowledge_document_not_found")


def _new(session: Session, actor: OrgActor, *, source_type: str, title: str, tags: list[str], agent_ids: list[str],
         compartido: bool | None, **fields) -> KnowledgeDocument:
    """`compartido` unset: shared unless the document is given to some agents (a document nobody can
    read would be a surprise). 400 plan_capability_missing on a plan without the knowledge base."""
    plans.check_capability(session, actor.organization_id, "bot.knowledge")
    _check_agents(session, actor, agent_ids)
    shared = (not agent_ids) if compartido is None else compartido
    _check_assignment(session, actor, (set(), False), (set(agent_ids), shared))
    now = clock.now()
    return KnowledgeDocument(organization_id=actor.organization_id, source_type=source_type, title=title,
                             tags=list(tags), agent_ids=list(agent_ids), compartido=shared,
                             created_at=now, updated_at=now, **fields)


def do_upload(session: Session, *, actor: OrgActor, upload: Upload | None, title: str | None = None,
              tags: list[str] = (), agent_ids: list[str] = (), compartido: bool | None = None) -> KnowledgeDocument:
    """Stores nothing unless the file is one we read: 400 unsupported_file_type, no_text_found (empty),
    file_encrypted or file_corrupt; 413 over 25 MB. Only the file's structure is looked at here (its
    first bytes, a PDF's or zip's index); its text is read on the queue (processing.py), where a file
    without text, or past the bounds, leaves the document FAILED with the reason."""
    if upload is None or not upload.size:
        raise Invalid("The file is empty.", code="no_text_found", errors={"file": ["Empty."]})
    if upload.size > MAX_FILE_BYTES:
        raise TooLarge(f"Files may be at most 25 MB; this one is {upload.size // (1024 * 1024)} MB.",
                       code="file_too_large", limitBytes=MAX_FILE_BYTES)
    entitlements.check_storage_room(session, actor.organization_id, adding_bytes=upload.size)
    mime_type = extraction.sniff(upload.opened(), upload.filename)
    if mime_type is None:
        raise Invalid(f"Upload a {extraction.ACCEPTED} file.", code="unsupported_file_type",
                      errors={"file": [f"Not a {extraction.ACCEPTED} file."]})
    try:
        extraction.check_at_door(upload.opened(), mime_type)
    except extraction.Unreadable as exc:
        raise Invalid(str(exc), code=exc.code, errors={"file": [str(exc)]}) from None
    name = (upload.filename or "").replace("\\", "/").rsplit("/", 1)[-1][:255] or None
    document = _new(session, actor, source_type=FILE, title=title or _title_from(name), tags=tags, agent_ids=agent_ids,
                    compartido=compartido, file_name=name, mime_type=mime_type, size_bytes=upload.size)
    files.write(actor.organization_id, document.id, upload)
    session.add(document)
    tasks.process_after_commit(session, document)
    return document


def _title_from(file_name: str | None) -> str:
    stem = (file_name or "").rsplit(".", 1)[0].replace("_", " ").replace("-", " ").strip()
    return (stem or "Document")[:200]


def do_create_note(session: Session, *, actor: OrgActor, title: str, content: str, tags: list[str] = (),
                   agent_ids: list[str] = (), compartido: bool | None = None,
                   resolves_question_key: str | None = None) -> KnowledgeDocument:
    document = _new(session, actor, source_type=NOTE, title=title, tags=tags, agent_ids=agent_ids, compartido=compartido,
                    content=content, mime_type=extraction.MARKDOWN, size_bytes=len(content.encode()),
                    resolves_question_key=resolves_question_key or None)
    session.add(document)
    tasks.process_after_commit(session, document)
    return document


def do_update_note(session: Session, *, actor: OrgActor, document_id: str, **changes) -> KnowledgeDocument:
    """A note's title is part of its text: changing either reprocesses it."""
    document = access_document(session, actor=actor, document_id=document_id)
    if document.source_type != NOTE:
        raise Invalid("Only notes are edited here; files and pages are changed at their source and re-read.",
                      code="not_a_note")
    text_changed = any(name in changes and changes[name] != getattr(document, name) for name in ("title", "content"))
    _apply(session, actor, document, changes)
    if "content" in changes:
        document.size_bytes = len(document.content.encode())
    session.add(document)
    if text_changed:
        tasks.process_after_commit(session, document)
    return document


def do_add_url(session: Session, *, actor: OrgActor, url: str, title: str | None = None, tags: list[str] = (),
               sync_every_hours: int | None = None, agent_ids: list[str] = (),
               compartido: bool | None = None) -> KnowledgeDocument:
    """400 url_not_allowed for a non-public address (unless the setting allows); the page is read in
    the background, and a page that cannot be read leaves the document FAILED with the reason."""
    try:
        web_pages.check_url(url, allow_private=runtime.get().settings.knowledge_allow_private_urls)
    except web_pages.NotAllowed as exc:
        raise Invalid(str(exc), code="url_not_allowed", errors={"url": [str(exc)]}) from None
    except web_pages.FetchFailed:
        pass  # a name that does not resolve now may later: the document shows the failure and retries
    document = _new(session, actor, source_type=URL, title=title or url[:200], tags=tags, agent_ids=agent_ids,
                    compartido=compartido, url=url, sync_every_hours=sync_every_hours)
    session.add(document)
    tasks.process_after_commit(session, document)
    return document


def _check_agents(session: Session, actor: OrgActor, agent_ids) -> None:
    """A document is given to the organization's own agents (400 `unknown_ids` otherwise): the list
    is JSON, which no foreign key guards."""
    tenancy.check_ids_in_org(session, "bot_agents", list(agent_ids or ()), actor, field="agentIds")


def _check_assignment(session: Session, actor: OrgActor, before: tuple[set, bool], after: tuple[set, bool]) -> None:
    """Which agents read a document is part of what they answer, so of their numbers': a key or member
    kept to some numbers gives a document to (or takes it from) only agents of its numbers alone, and
    neither shares one with every agent nor stops sharing it (403 `phone_number_not_allowed`).
    `before` and `after` are (agent ids, shared)."""
    scope = phone_numbers_service.scope_of(session, actor)
    if not scope.restricted:
        return
    (agents_before, shared_before), (agents_after, shared_after) = before, after
    if shared_before != shared_after:
        scope.check_covers([])  # every agent's: every number's
    changed = sorted(agents_before ^ agents_after)
    if changed:
        # The agents' table by name: the agents' domain builds on this one, not the other way round.
        agents = sa.table("bot_agents", sa.column("id"), sa.column("phone_number_pks", sa.JSON))
        for numbers in session.execute(sa.select(agents.c.phone_number_pks).where(agents.c.id.in_(changed))).scalars():
            scope.check_covers(numbers or [])


def _apply(session: Session, actor: OrgActor, document: KnowledgeDocument, changes: dict) -> None:
    if "agent_ids" in changes:
        _check_agents(session, actor, changes["agent_ids"])
    before = (set(document.agent_ids or ()), bool(document.compartido))
    for name in ("title", "content", "tags", "agent_ids", "compartido", "resolves_question_key"):
        if name in changes:
            setattr(document, name, list(changes[name]) if name in ("tags", "agent_ids") else changes[name])
    if "agent_ids" in changes and "compartido" not in changes and changes["agent_ids"] == []:
        document.compartido = True
    _check_assignment(session, actor, before, (set(document.agent_ids or ()), bool(document.compartido)))
    document.updated_at = clock.now()


def do_change(session: Session, *, actor: OrgActor, document_id: str, **changes) -> KnowledgeDocument:
    """Title, tags, agents and sharing: what describes a document without changing its passages."""
    document = access_document(session, actor=actor, document_id=document_id)
    if document.source_type == NOTE and "title" in changes:
        return do_update_note(session, actor=actor, document_id=document_id, **changes)
    _apply(session, actor, document, changes)
    session.add(document)
    return document


def do_reprocess(session: Session, *, actor: OrgActor, document_id: str) -> KnowledgeDocument:
    document = access_document(session, actor=actor, document_id=document_id)
    tasks.process_after_commit(session, document)
    return document


def do_delete(session: Session, *, actor: OrgActor, document_id: str) -> KnowledgeDocument:
    """Its passages, vectors and words go in this transaction (by cascade and trigger), the stored
    file once it commits; a run processing it meanwhile finds it gone and writes nothing."""
    document = access_document(session, actor=actor, document_id=document_id)
    session.delete(document)
    if document.source_type == FILE:
        organization_id, doc_id = document.organization_id, document.id
        after_commit(session, lambda: files.remove(organization_id, doc_id))
    return document
