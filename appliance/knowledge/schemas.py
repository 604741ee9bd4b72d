from marshmallow import ValidationError, fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, Text, UuidString, WebAddress

SOURCE_TYPES = ("FILE", "NOTE", "URL")
STATUSES = ("PROCESSING", "READY", "FAILED")
MAX_TAGS, MAX_AGENTS = 20, 50


def _tags(**kwargs):
    return fields.List(Text(min_length=1, max_length=50), validate=validate.Length(max=MAX_TAGS), **kwargs)


def _agents(**kwargs):
    return fields.List(UuidString(), validate=validate.Length(max=MAX_AGENTS), **kwargs)


class CommaSeparated(fields.String):
    """A form field holding a list as `a, b, c` (multipart forms have no lists): each item checked by
    `item`, blanks dropped, duplicates once."""

    def __init__(self, item: fields.Field, *, max_items: int, **kwargs):
        super().__init__(**kwargs)
        self.item, self.max_items = item, max_items

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        parts = [part.strip() for part in text.split(",") if part.strip()]
        if len(parts) > self.max_items:
            raise ValidationError(f"At most {self.max_items}.")
        return list(dict.fromkeys(self.item.deserialize(part) for part in parts))


class KnowledgeDocumentSchema(ApiSchema):
    id = fields.String()
    title = fields.String()
    tags = fields.List(fields.String())
    agent_ids = fields.List(fields.String())
    compartido = fields.Boolean()
    source_type = fields.String(metadata={"enum": list(SOURCE_TYPES)})
    file_name = fields.String(allow_none=True)
    mime_type = fields.String(allow_none=True)
    size_bytes = fields.Integer(allow_none=True)
    url = fields.String(allow_none=True)
    sync_every_hours = fields.Integer(allow_none=True)
    status = fields.String(metadata={"enum": list(STATUSES)})
    error = fields.String(allow_none=True, metadata={"description": "Why the document is FAILED"})
    chunk_count = fields.Integer()
    last_synced_at = IsoDateTime(allow_none=True)
    resolves_question_key = fields.String(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class KnowledgeDocumentDetailSchema(KnowledgeDocumentSchema):
    content = fields.String(allow_none=True, metadata={"description": "A note's text (null for files and pages)"})


class KnowledgeUploadFormSchema(ApiSchema):
    """The form's fields beside `file` (PDF, DOCX, TXT, MD or CSV, by content, at most 25 MB)."""
    title = Text(max_length=200, load_default=None)
    tags = CommaSeparated(Text(min_length=1, max_length=50), max_items=MAX_TAGS, load_default=[],
                          metadata={"description": "Comma separated"})
    agent_ids = CommaSeparated(UuidString(), max_items=MAX_AGENTS, load_default=[],
                               metadata={"description": "Comma separated agent ids"})
    compartido = fields.Boolean(load_default=None, truthy={"true", "1", "on"}, falsy={"false", "0", "off", ""},
                                metadata={"description": "'true': every agent may read it (default when no agents are named)"})


class KnowledgeNoteUpdateSchema(ApiSchema):
    min_fields = 1
    title = Text(min_length=1, max_length=200)
    content = Text(min_length=1, max_length=100_000, multiline=True)
    tags = _tags()
    resolves_question_key = Text(max_length=300, allow_none=True,
                                 metadata={"description": "The insights group this note answers (takes it off the list)"})
    agent_ids = _agents()
    compartido = fields.Boolean()


class KnowledgeNoteCreateSchema(KnowledgeNoteUpdateSchema):
    min_fields = 0
    title = Text(required=True, min_length=1, max_length=200)
    content = Text(required=True, min_length=1, max_length=100_000, multiline=True)


class KnowledgeUrlSourceSchema(ApiSchema):
    url = WebAddress(required=True)
    title = Text(min_length=1, max_length=200)
    tags = _tags()
    sync_every_hours = fields.Integer(allow_none=True, validate=validate.Range(1, 720),
                                      metadata={"description": "Re-read every so many hours; null: only when asked"})
    agent_ids = _agents()
    compartido = fields.Boolean()


class KnowledgeTitleSchema(ApiSchema):
    title = Text(required=True, min_length=1, max_length=200)


class KnowledgeTagsSchema(ApiSchema):
    tags = _tags(required=True)


class KnowledgeAgentsSchema(ApiSchema):
    agent_ids = _agents(required=True)
    compartido = fields.Boolean(required=True)


class KnowledgeSearchSchema(ApiSchema):
    query = Text(required=True, min_length=1, max_length=1000)
    top_k = fields.Integer(load_default=5, validate=validate.Range(1, 20))
    tags = fields.List(Text(min_length=1, max_length=50), validate=validate.Length(max=MAX_TAGS), load_default=None)
    min_similarity = fields.Float(load_default=0.3, allow_nan=False, validate=validate.Range(0, 1))
    agent_id = UuidString(load_default=None, metadata={"description": "Search as this agent: its documents and the shared ones"})


class KnowledgeSearchResultSchema(ApiSchema):
    chunk_id = fields.Integer()
    document_id = fields.String()
    title = fields.String()
    text = fields.String()
    similarity = fields.Float(metadata={"description": "Cosine similarity to the query, 0 to 1"})
    por_texto = fields.Boolean(data_key="porTexto", metadata={"description": "Holds every word of the query that matters"})
    score = fields.Float(metadata={"description": "Reciprocal rank fusion of the two rankings"})


class KnowledgeSearchResultsSchema(ApiSchema):
    results = fields.List(fields.Nested(KnowledgeSearchResultSchema))


class KnowledgeInsightsArgsSchema(ApiSchema):
    dias = fields.Integer(load_default=30, validate=validate.Range(1, 365), metadata={"description": "Days back"})


class KnowledgeUnansweredSchema(ApiSchema):
    question_key = fields.String()
    question = fields.String()
    count = fields.Integer()
    last_asked_at = IsoDateTime()


class KnowledgeAgentUsageSchema(ApiSchema):
    agent_id = fields.String()
    queries = fields.Integer()
    response_rate = fields.Float()


class KnowledgeDocumentUsageSchema(ApiSchema):
    document_id = fields.String()
    title = fields.String()
    hits = fields.Integer()


class KnowledgeInsightsSchema(ApiSchema):
    queries = fields.Integer()
    answered = fields.Integer()
    response_rate = fields.Float()
    unanswered = fields.List(fields.Nested(KnowledgeUnansweredSchema))
    by_agent = fields.List(fields.Nested(KnowledgeAgentUsageSchema))
    by_document = fields.List(fields.Nested(KnowledgeDocumentUsageSchema))
