"""The library: what people and API clients do with knowledge documents. Text is read and embedded
in the background (processing.py); these calls only check, store and queue."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.core import clock, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.db import after_commit
from appliance.core.errors import Invalid, TooLarge
from appliance.knowledge import extraction, files, processing, web_pages
from appliance.knowledge.models import FILE, NOTE, URL, KnowledgeDocument
from appliance.organizations import plans

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
    now = clock.now()
    return KnowledgeDocument(organization_id=actor.organization_id, source_type=source_type, title=title,
                             tags=list(tags), agent_ids=list(agent_ids),
                             compartido=(not agent_ids) if compartido is None else compartido,
                             created_at=now, updated_at=now, **fields)


def do_upload(session: Session, *, actor: OrgActor, content: bytes, file_name: str | None, title: str | None = None,
              tags: list[str] = (), agent_ids: list[str] = (), compartido: bool | None = None) -> KnowledgeDocument:
    """Stores nothing unless the file is one we read and has text: 400 unsupported_file_type,
    no_text_found, file_encrypted or file_corrupt; 413 over 25 MB."""
    if not content:
        raise Invalid("The file is empty.", code="no_text_found", errors={"file": ["Empty."]})
    if len(content) > MAX_FILE_BYTES:
        raise TooLarge(f"Files may be at most 25 MB; this one is {len(content) // (1024 * 1024)} MB.",
                       code="file_too_large", limitBytes=MAX_FILE_BYTES)
    mime_type = extraction.sniff(content, file_name)
    if mime_type is None:
        raise Invalid(f"Upload a {extraction.ACCEPTED} file.", code="unsupported_file_type",
                      errors={"file": [f"Not a {extraction.ACCEPTED} file."]})
    try:
        extraction.check(content, mime_type)
    except extraction.Unreadable as exc:
        raise Invalid(str(exc), code=exc.code, errors={"file": [str(exc)]}) from None
    name = (file_name or "").replace("\\", "/").rsplit("/", 1)[-1][:255] or None
    document = _new(session, actor, source_type=FILE, title=title or _title_from(name), tags=tags, agent_ids=agent_ids,
                    compartido=compartido, file_name=name, mime_type=mime_type, size_bytes=len(content))
    files.write(actor.organization_id, document.id, content)
    session.add(document)
    processing.start(session, document)
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
    processing.start(session, document)
    return document


def do_update_note(session: Session, *, actor: OrgActor, document_id: str, **changes) -> KnowledgeDocument:
    """A note's title is part of its text: changing either reprocesses it."""
    document = access_document(session, actor=actor, document_id=document_id)
    if document.source_type != NOTE:
        raise Invalid("Only notes are edited here; files and pages are changed at their source and re-read.",
                      code="not_a_note")
    text_changed = any(name in changes and changes[name] != getattr(document, name) for name in ("title", "content"))
    _apply(document, changes)
    if "content" in changes:
        document.size_bytes = len(document.content.encode())
    session.add(document)
    if text_changed:
        processing.start(session, document)
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
    processing.start(session, document)
    return document


def _apply(document: KnowledgeDocument, changes: dict) -> None:
    for name in ("title", "content", "tags", "agent_ids", "compartido", "resolves_question_key"):
        if name in changes:
            setattr(document, name, list(changes[name]) if name in ("tags", "agent_ids") else changes[name])
    if "agent_ids" in changes and "compartido" not in changes and changes["agent_ids"] == []:
        document.compartido = True
    document.updated_at = clock.now()


def do_change(session: Session, *, actor: OrgActor, document_id: str, **changes) -> KnowledgeDocument:
    """Title, tags, agents and sharing: what describes a document without changing its passages."""
    document = access_document(session, actor=actor, document_id=document_id)
    if document.source_type == NOTE and "title" in changes:
        return do_update_note(session, actor=actor, document_id=document_id, **changes)
    _apply(document, changes)
    session.add(document)
    return document


def do_reprocess(session: Session, *, actor: OrgActor, document_id: str) -> KnowledgeDocument:
    document = access_document(session, actor=actor, document_id=document_id)
    processing.start(session, document)
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
