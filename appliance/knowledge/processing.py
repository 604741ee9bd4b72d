"""Processing a document in the background: its text, its passages, their vectors and words.

`start` marks a document PROCESSING with a fresh token; tasks.py queues `run` after the commit.
`run` reads the source and computes everything outside any transaction, then, in one transaction,
replaces the document's passages, but only if the document still exists and still carries that
token: a delete or a newer reprocess meanwhile makes the run's work land nowhere, and a crash
leaves either the old passages or the new ones, never a mixture. The reading has bounds
(extraction.Budget: 50 MB of text, 2,000 pages, 5 minutes) checked between pages, parts and
batches of passages, where the run also stops as soon as its document is deleted or read again by
a newer run. What fails to read, or passes a bound, leaves the document FAILED with the reason in
words.

A run cut short by a crash leaves its document PROCESSING: tasks.py's `resume_interrupted` queues
it again at start-up and, as a backstop, when its run began 10 minutes ago (twice the reading's
bound); after 3 attempts it is FAILED. A document still waiting its turn in the queue's slow lane
has no `processing_since` yet: its task is safe in queue.db, and an organization's long line of
documents must not be mistaken for runs a crash lost. Web pages are re-read every `syncEveryHours`
(tasks.py's `sync_due_pages`); a page that did not change (ETag, or the same text) is not
embedded again.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, delete, select

from appliance.core import clock, runtime
from appliance.core.db import Database
from appliance.core.ids import new_id
from appliance.knowledge import chunking, embedder, extraction, files, web_pages, word_index
from appliance.knowledge.models import FAILED, FILE, NOTE, PROCESSING, READY, URL, KnowledgeChunk, KnowledgeDocument

log = logging.getLogger(__name__)
STALE_AFTER = timedelta(minutes=10)
MAX_ATTEMPTS = 3
_UNEXPECTED = "Processing failed unexpectedly. Try “Re-read now”; if it fails again, the log says why."


def start(session: Session, document: KnowledgeDocument, *, force: bool = True, resumed: bool = False) -> tuple:
    """Mark the document PROCESSING with a fresh token; answers the arguments of its run, which the
    caller queues once the transaction commits (tasks.py). `force`: embed again even if the text
    did not change (a page re-read on schedule passes False)."""
    document.status, document.error = PROCESSING, None
    document.processing_token = new_id()
    document.processing_since = None  # set when its run begins: waiting its turn in the lane is not being stuck
    document.processing_attempts = document.processing_attempts + 1 if resumed else 1
    document.updated_at = clock.now()
    session.add(document)
    session.flush()
    return document.organization_id, document.id, document.processing_token, force


@dataclass(frozen=True)
class _Source:
    organization_id: str
    source_type: str
    title: str
    content: str | None
    mime_type: str | None
    url: str | None
    etag: str | None
    text_sha256: str | None


@dataclass(frozen=True)
class _Text:
    passages: list[str]
    sha256: str
    etag: str | None = None


EMBED_BATCH = 64  # passages embedded between two checks of the budget


def run(database: Database, document_id: str, token: str, force: bool) -> None:
    with database.unit_of_work(write=True) as session:
        document = session.get(KnowledgeDocument, document_id)
        if document is None or document.processing_token != token:
            return  # deleted, or a newer run owns it
        document.processing_since = clock.now()
        session.add(document)
        source = _Source(document.organization_id, document.source_type, document.title, document.content,
                         document.mime_type, document.url, None if force else document.etag,
                         None if force else document.text_sha256)
    budget = extraction.Budget(still_wanted=lambda: _still_wanted(database, document_id, token))
    try:
        text = _read(document_id, source, budget)
        if text is not None:
            vectors = _embed(text.passages, budget)
    except extraction.Stopped:
        log.info("knowledge document %s: its processing stopped (deleted, or read again)", document_id)
        return
    except (extraction.Unreadable, web_pages.FetchFailed) as exc:
        _finish(database, document_id, token, error=str(exc))
        return
    except Exception:
        log.exception("knowledge document %s could not be processed", document_id)
        _finish(database, document_id, token, error=_UNEXPECTED)
        return
    _finish(database, document_id, token, text=text, vectors=vectors if text is not None else None)


def _still_wanted(database: Database, document_id: str, token: str) -> bool:
    """The document still exists and still carries this run's token (a delete or a newer run
    since would make this run's work land nowhere: it stops instead)."""
    with database.unit_of_work(write=False) as session:
        return session.exec(select(KnowledgeDocument.processing_token)
                            .where(KnowledgeDocument.id == document_id)).first() == token


def _embed(passages: list[str], budget: extraction.Budget):
    # numpy (and vector_index below) on the first document read, not at start, where the server
    # imports this module to resume what a stop cut short (issue 46, footprint).
    import numpy as np

    batches = []
    for start in range(0, len(passages), EMBED_BATCH):
        budget.check()
        batches.append(embedder.current().embed_passages(passages[start:start + EMBED_BATCH]))
    return np.concatenate(batches) if batches else np.zeros((0, embedder.current().dimensions), dtype=np.float32)


def _read(document_id: str, source: _Source, budget: extraction.Budget) -> _Text | None:
    """The source's passages, or None when a re-read page has not changed."""
    etag = None
    if source.source_type == NOTE:
        extracted = extraction.Extracted(f"# {source.title}\n\n{source.content or ''}")
    elif source.source_type == FILE:
        extracted = extraction.extract(files.stored(source.organization_id, document_id),
                                       source.mime_type or extraction.TXT, budget)
    else:
        page = web_pages.fetch(source.url or "", etag=source.etag,
                               allow_private=runtime.get().settings.knowledge_allow_private_urls)
        if page.body is None:
            return None
        etag = page.etag
        if page.content_type in ("text/plain", "text/markdown"):
            extracted = extraction.Extracted(extraction.decode(page.body) or "")
        else:
            extracted = extraction.Extracted(extraction.page_text(page.body, page.url))
    if extracted.empty:
        raise extraction.Unreadable("The source has no text to read.")
    digest = hashlib.sha256((extracted.text if extracted.table is None else
                             "\n".join([extracted.table.header, *extracted.table.rows])).encode()).hexdigest()
    if source.text_sha256 == digest:
        return None
    budget.check()
    passages = chunking.chunk_table(extracted.table) if extracted.table else chunking.chunk_text(extracted.text)
    if not passages:
        raise extraction.Unreadable("The source has no text to read.")
    return _Text(passages, digest, etag)


def _finish(database: Database, document_id: str, token: str, *, text: _Text | None = None, vectors=None,
            error: str | None = None) -> None:
    with database.unit_of_work(write=True) as session:
        document = session.get(KnowledgeDocument, document_id)
        if document is None or document.processing_token != token:
            return
        now = clock.now()
        if error is None and text is not None:
            _replace_passages(session, document, text.passages, vectors)
            document.text_sha256, document.chunk_count = text.sha256, len(text.passages)
            document.embedded_with = embedder.current().name
            if document.source_type == URL:
                document.etag = text.etag
        document.status, document.error = (FAILED, error) if error else (READY, None)
        if document.source_type == URL:
            document.last_synced_at = now
            document.next_sync_at = now + timedelta(hours=document.sync_every_hours) if document.sync_every_hours else None
        document.processing_token = document.processing_since = None
        document.updated_at = now
        session.add(document)


def _replace_passages(session: Session, document: KnowledgeDocument, passages: list[str], vectors) -> None:
    session.exec(delete(KnowledgeChunk).where(KnowledgeChunk.document_id == document.id))  # triggers clear the indexes
    chunks = [KnowledgeChunk(document_id=document.id, organization_id=document.organization_id, ordinal=i, text=text)
              for i, text in enumerate(passages)]
    session.add_all(chunks)
    session.flush()
    from appliance.knowledge import vector_index  # numpy: on first use (see _embed)

    vector_index.add(session, [(chunk.id, document.organization_id, document.id, vector)
                               for chunk, vector in zip(chunks, vectors)])
    word_index.add(session, [(chunk.id, document.organization_id, chunk.text) for chunk in chunks])
