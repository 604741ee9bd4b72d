"""The knowledge base's queue tasks: a document's run on the slow lane, queued after the commit
that marked it (`process_after_commit`), again after a crash (`resume_interrupted`), and the web
pages whose re-read came due (`sync_due_pages`, each minute)."""

from __future__ import annotations

from datetime import timedelta

from huey import crontab
from sqlmodel import Session, select

from appliance.core import clock, runtime
from appliance.core.db import Database
from appliance.core.queue import enqueue_after_commit, huey, slow
from appliance.knowledge import processing
from appliance.knowledge.models import FAILED, PROCESSING, URL, KnowledgeDocument


@slow.task()
def process_document(organization_id: str, document_id: str, token: str, force: bool) -> None:
    """On the slow lane (core/queue.py): reading a document may take minutes; `organization_id`
    is its place in the lane's turns."""
    processing.run(runtime.get().db, document_id, token, force)


def process_after_commit(session: Session, document: KnowledgeDocument, *, force: bool = True,
                         resumed: bool = False) -> None:
    """Mark the document for processing (processing.start) and queue its run once this
    transaction commits."""
    enqueue_after_commit(session, process_document, *processing.start(session, document, force=force, resumed=resumed))


@huey.periodic_task(crontab(minute="*"))
def knowledge_upkeep() -> None:
    """Pages due for a re-read, and documents whose processing a crash cut short."""
    database = runtime.get().db
    resume_interrupted(database, older_than=processing.STALE_AFTER)
    sync_due_pages(database)


def resume_interrupted(database: Database, *, older_than: timedelta | None) -> int:
    """Queue again what a crash left PROCESSING (all of it at start-up, when nothing else can be
    processing; only what has taken longer than `older_than` otherwise). Answers how many."""
    with database.unit_of_work(write=True) as session:
        query = select(KnowledgeDocument).where(KnowledgeDocument.status == PROCESSING)
        if older_than is not None:
            query = query.where(KnowledgeDocument.processing_since < clock.now() - older_than)
        stuck = list(session.exec(query).all())
        for document in stuck:
            if document.processing_attempts >= processing.MAX_ATTEMPTS:
                document.status, document.processing_token = FAILED, None
                document.error = f"Processing was interrupted {processing.MAX_ATTEMPTS} times. Try “Re-read now”."
                session.add(document)
            else:
                process_after_commit(session, document, resumed=True)
    return len(stuck)


def sync_due_pages(database: Database) -> int:
    """Queue the re-reading of web pages whose time has come. Answers how many."""
    with database.unit_of_work(write=True) as session:
        due = list(session.exec(select(KnowledgeDocument).where(
            KnowledgeDocument.source_type == URL, KnowledgeDocument.next_sync_at.is_not(None),
            KnowledgeDocument.next_sync_at <= clock.now(), KnowledgeDocument.status != PROCESSING)).all())
        for document in due:
            process_after_commit(session, document, force=False)
    return len(due)
