from datetime import datetime

from sqlalchemy import JSON, Column, ForeignKey, Index, Integer
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id

FILE, NOTE, URL = "FILE", "NOTE", "URL"
PROCESSING, READY, FAILED = "PROCESSING", "READY", "FAILED"


class KnowledgeDocument(SQLModel, table=True):
    """One source of the library. Its passages are `KnowledgeChunk` rows; their vectors and words live
    in the indexes of vector_index.py and word_index.py, which follow the chunks' deletes by trigger
    (migration 0028), so a document deleted at any moment leaves nothing behind.

    `processing_token` names the one queued run that may write the document's passages: a newer
    reprocess or a delete makes an older run's work land nowhere."""

    __tablename__ = "knowledge_documents"
    __table_args__ = (Index("ix_knowledge_documents_org", "organization_id", "created_at"),
                      Index("ix_knowledge_documents_status", "status"))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    title: str = Field(max_length=200)
    tags: list = Field(default_factory=list, sa_type=JSON)
    agent_ids: list = Field(default_factory=list, sa_type=JSON)
    compartido: bool = True
    source_type: str = Field(max_length=8)
    file_name: str | None = Field(default=None, max_length=255)
    mime_type: str | None = Field(default=None, max_length=100)
    size_bytes: int | None = None
    url: str | None = Field(default=None, max_length=2000)
    sync_every_hours: int | None = None
    next_sync_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    etag: str | None = Field(default=None, max_length=500)
    content: str | None = None  # a note's text, as its author wrote it
    text_sha256: str | None = Field(default=None, max_length=64)  # of the text last cut into passages
    status: str = Field(default=PROCESSING, max_length=12)
    error: str | None = None
    chunk_count: int = 0
    embedded_with: str | None = Field(default=None, max_length=100)
    last_synced_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    resolves_question_key: str | None = Field(default=None, max_length=300)
    processing_token: str | None = Field(default=None, max_length=36)
    processing_since: datetime | None = Field(default=None, sa_type=UTCDateTime)
    processing_attempts: int = 0
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class KnowledgeChunk(SQLModel, table=True):
    """A passage of about 700 tokens. Its integer id is the row id of its vector and of its words."""

    __tablename__ = "knowledge_chunks"
    __table_args__ = (Index("ix_knowledge_chunks_document", "document_id", "ordinal"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    document_id: str = Field(sa_column=Column(ForeignKey("knowledge_documents.id", ondelete="CASCADE",
                                                         name="fk_knowledge_chunks_document_id"), nullable=False))
    organization_id: str = Field(max_length=36)
    ordinal: int
    text: str


class KnowledgeQuery(SQLModel, table=True):
    """One search, kept for the insights: what was asked, by which agent, and whether anything answered."""

    __tablename__ = "knowledge_queries"
    __table_args__ = (Index("ix_knowledge_queries_org_time", "organization_id", "created_at"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    agent_id: str | None = Field(default=None, max_length=36)
    query: str
    question_key: str = Field(max_length=300)
    best_similarity: float | None = None
    answered: bool
    created_at: datetime = Field(sa_type=UTCDateTime)


class KnowledgeQueryHit(SQLModel, table=True):
    """A document a search's results came from (once per search): the insights' usage per document."""

    __tablename__ = "knowledge_query_hits"
    __table_args__ = (Index("ix_knowledge_query_hits_org_time", "organization_id", "created_at"),)

    query_id: str = Field(sa_column=Column(ForeignKey("knowledge_queries.id", ondelete="CASCADE",
                                                      name="fk_knowledge_query_hits_query_id"), primary_key=True))
    document_id: str = Field(sa_column=Column(ForeignKey("knowledge_documents.id", ondelete="CASCADE",
                                                         name="fk_knowledge_query_hits_document_id"), primary_key=True))
    organization_id: str = Field(max_length=36)
    created_at: datetime = Field(sa_type=UTCDateTime)
