"""/organizations/{orgId}/bot/knowledge: the bot's knowledge base."""

from flask.views import MethodView

from appliance.http.api import Blueprint, takes_upload, uploaded_file, uploaded_form
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.knowledge import extraction, insights, schemas, search, service

blp = Blueprint("bot_knowledge", __name__, url_prefix="/organizations/<uuid:org_id>/bot/knowledge",
                description="The knowledge base: documents, notes and web pages the bot's AI answers from",
                shown_with="bot_config")


@blp.route("")
class Documents(MethodView):
    @blp.requires("bot:read")
    @blp.response(200, schemas.KnowledgeDocumentSchema(many=True))
    def get(self, org_id):
        """Every document, newest first, with its processing status"""
        return service.list_documents(db_session(), actor=current_org_actor())

    @blp.requires("bot:write")
    @blp.response(201, schemas.KnowledgeDocumentSchema)
    @takes_upload(max_bytes=service.MAX_FILE_BYTES,
                  content_types=(extraction.PDF, extraction.DOCX, extraction.TXT, extraction.MARKDOWN, extraction.CSV),
                  description="A PDF, DOCX, TXT, MD or CSV file of at most 25 MB (recognized by its content)",
                  form=schemas.KnowledgeUploadFormSchema())
    def post(self, org_id):
        """Upload a file (multipart: file, title, tags, agentIds, compartido); it is read in the background.
        400 unsupported_file_type, no_text_found, file_encrypted or file_corrupt; 413 over 25 MB"""
        fields = uploaded_form()
        return service.do_upload(db_session(), actor=current_org_actor(), upload=uploaded_file(), **fields)


@blp.route("/search")
class Search(MethodView):
    @blp.requires("bot:read")
    @blp.arguments(schemas.KnowledgeSearchSchema)
    @blp.response(201, schemas.KnowledgeSearchResultsSchema)
    def post(self, body, org_id):
        """Search by meaning and by exact words; a passage below minSimilarity is kept when it holds the
        query's words (porTexto). Recorded for the insights"""
        return {"results": search.do_search(db_session(), actor=current_org_actor(), **body)}


@blp.route("/insights")
class Insights(MethodView):
    @blp.requires("bot:read")
    @blp.arguments(schemas.KnowledgeInsightsArgsSchema, location="query")
    @blp.response(200, schemas.KnowledgeInsightsSchema)
    def get(self, args, org_id):
        """Searches, response rate, unanswered questions grouped, usage per agent and per document"""
        return insights.get_insights(db_session(), actor=current_org_actor(), days=args["dias"])


@blp.route("/notes")
class Notes(MethodView):
    @blp.requires("bot:write")
    @blp.arguments(schemas.KnowledgeNoteCreateSchema)
    @blp.response(201, schemas.KnowledgeDocumentDetailSchema)
    def post(self, body, org_id):
        """Write a note (resolvesQuestionKey: the unanswered question of the insights it answers)"""
        return service.do_create_note(db_session(), actor=current_org_actor(), **body)


@blp.route("/notes/<uuid:document_id>")
class NoteById(MethodView):
    @blp.requires("bot:write")
    @blp.arguments(schemas.KnowledgeNoteUpdateSchema)
    @blp.response(200, schemas.KnowledgeDocumentDetailSchema)
    def patch(self, body, org_id, document_id):
        """Change a note; a new title or text is processed again"""
        return service.do_update_note(db_session(), actor=current_org_actor(), document_id=str(document_id), **body)


@blp.route("/url")
class UrlSources(MethodView):
    @blp.requires("bot:write")
    @blp.arguments(schemas.KnowledgeUrlSourceSchema)
    @blp.response(201, schemas.KnowledgeDocumentSchema)
    def post(self, body, org_id):
        """Add a public web page, read now and every syncEveryHours; 400 url_not_allowed for private addresses"""
        return service.do_add_url(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:document_id>")
class DocumentById(MethodView):
    @blp.requires("bot:read")
    @blp.response(200, schemas.KnowledgeDocumentDetailSchema)
    def get(self, org_id, document_id):
        """One document (a note with its text)"""
        return service.access_document(db_session(), actor=current_org_actor(), document_id=str(document_id))

    @blp.requires("bot:write")
    @blp.response(200, schemas.KnowledgeDocumentSchema)
    def delete(self, org_id, document_id):
        """Remove a document, its passages and its stored file; answers it as it was"""
        return service.do_delete(db_session(), actor=current_org_actor(), document_id=str(document_id))


def _change(schema, summary: str):
    """PATCH /{id}/title, /tags and /agentes: one field set each, the same call."""
    @blp.requires("bot:write")
    @blp.arguments(schema)
    @blp.response(200, schemas.KnowledgeDocumentSchema)
    def patch(self, body, org_id, document_id):
        return service.do_change(db_session(), actor=current_org_actor(), document_id=str(document_id), **body)
    patch.__doc__ = summary
    return type(f"{schema.__name__}View", (MethodView,), {"patch": patch})


blp.route("/<uuid:document_id>/title")(_change(schemas.KnowledgeTitleSchema, "Rename a document (a note is processed again)"))
blp.route("/<uuid:document_id>/tags")(_change(schemas.KnowledgeTagsSchema, "Replace a document's tags"))
blp.route("/<uuid:document_id>/agentes")(_change(schemas.KnowledgeAgentsSchema, "Give a document to some agents, or share it with all"))


@blp.route("/<uuid:document_id>/reprocess")
class Reprocess(MethodView):
    @blp.requires("bot:write")
    @blp.response(201, schemas.KnowledgeDocumentSchema)
    def post(self, org_id, document_id):
        """Read the source again and compute its passages anew"""
        return service.do_reprocess(db_session(), actor=current_org_actor(), document_id=str(document_id))
