"""The knowledge base in the console: the library (upload by drag and drop with a progress bar,
notes, web pages, each document's status, tags and sharing, re-read now), a search tester that
shows each passage's similarity and whether it matched by words, and the insights (unanswered
questions, each answered with a note in place). Checked by the API's schemas, saved by the same
services; the tester's searches are not counted in the insights."""

from __future__ import annotations

from flask import request

from appliance.ai_agents import service as ai_agents_service
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_bot_knowledge import KNOWLEDGE_TEXTS
from appliance.core.errors import AppError
from appliance.http.api import takes_upload, uploaded_file
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.knowledge import insights as insights_service, search as search_service, service
from appliance.knowledge import api as knowledge_api
from appliance.knowledge.schemas import (KnowledgeNoteCreateSchema, KnowledgeSearchSchema, KnowledgeUploadFormSchema,
                                         KnowledgeUrlSourceSchema)
from appliance.knowledge.models import PROCESSING

_ACTIVE = "console_pages.bot"
INSIGHT_DAYS = (7, 30, 90)


def _tags(name: str = "tags") -> list[str]:
    return [tag.strip() for tag in forms.text(name, 2000).split(",") if tag.strip()]


def _library(actor, error: AppError | None = None, form: str | None = None):
    documents = service.list_documents(db_session(), actor=actor)
    return render("console/bot_knowledge.html", actor, _ACTIVE, error=error, texts=KNOWLEDGE_TEXTS,
                  documents=documents, processing=any(d.status == PROCESSING for d in documents),
                  failed_form=form if error is not None else None, done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/knowledge")
@performs(knowledge_api.Documents.get)
@signed_in_page
def bot_knowledge(org_id):
    return _library(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/bot/knowledge")
@performs(knowledge_api.Documents.post)
@takes_upload(max_bytes=service.MAX_FILE_BYTES, content_types=())
@signed_in_page
def bot_knowledge_upload(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(KnowledgeUploadFormSchema(), {"title": forms.optional("title", 300),
                                                          "tags": forms.text("tags", 2000)})
        service.do_upload(db_session(), actor=actor, upload=uploaded_file(required=False),
                          **{k: v for k, v in fields.items() if v is not None})
    except AppError as error:
        return _library(actor, error, form="upload")
    return back("console_pages.bot_knowledge", "uploaded", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/bot/knowledge/notes")
@performs(knowledge_api.Notes.post)
@signed_in_page
def bot_knowledge_note(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(KnowledgeNoteCreateSchema(), {
            "title": forms.text("title", 300), "content": request.form.get("content", "")[:100_001],
            "tags": _tags(), **({"resolvesQuestionKey": forms.text("resolves", 300)} if forms.text("resolves", 300) else {})})
        service.do_create_note(db_session(), actor=actor, **fields)
    except AppError as error:
        if forms.text("resolves", 300):
            return _insights_page(actor, error)
        return _library(actor, error, form="note")
    if fields.get("resolves_question_key"):
        return back("console_pages.bot_knowledge_insights", "answered", org_id=actor.organization_id)
    return back("console_pages.bot_knowledge", "note_added", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/bot/knowledge/url")
@performs(knowledge_api.UrlSources.post)
@signed_in_page
def bot_knowledge_url(org_id):
    actor = org_actor(org_id)
    try:
        hours = forms.text("sync_every_hours", 10)
        fields = check_form(KnowledgeUrlSourceSchema(), {"url": forms.text("url", 2100), "tags": _tags(),
                                                         **({"title": forms.text("title", 300)} if forms.text("title", 300) else {}),
                                                         **({"syncEveryHours": hours} if hours else {})})
        service.do_add_url(db_session(), actor=actor, **fields)
    except AppError as error:
        return _library(actor, error, form="url")
    return back("console_pages.bot_knowledge", "page_added", org_id=actor.organization_id)


def _document_page(actor, document_id: str, error: AppError | None = None):
    document = service.access_document(db_session(), actor=actor, document_id=document_id)
    return render("console/bot_knowledge_document.html", actor, _ACTIVE, error=error, texts=KNOWLEDGE_TEXTS,
                  document=document, done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/knowledge/<uuid:document_id>")
@performs(knowledge_api.DocumentById.get)
@signed_in_page
def bot_knowledge_document(org_id, document_id):
    return _document_page(org_actor(org_id), str(document_id))


@console_pages.post("/console/<uuid:org_id>/bot/knowledge/<uuid:document_id>")
@performs(knowledge_api.NoteById.patch)  # a note's text, or any document's title and tags
@signed_in_page
def bot_knowledge_document_save(org_id, document_id):
    actor = org_actor(org_id)
    document = service.access_document(db_session(), actor=actor, document_id=str(document_id))
    try:
        values = {"title": forms.text("title", 300), "tags": _tags()}
        if document.source_type == "NOTE":
            values["content"] = request.form.get("content", "")[:100_001]
            service.do_update_note(db_session(), actor=actor, document_id=document.id,
                                   **check_form(KnowledgeNoteCreateSchema(), values))
        else:
            service.do_change(db_session(), actor=actor, document_id=document.id,
                              **check_form(KnowledgeNoteCreateSchema(only=("title", "tags")), values))
    except AppError as error:
        return _document_page(actor, document.id, error)
    return back("console_pages.bot_knowledge_document", "saved", org_id=actor.organization_id, document_id=document.id)


@console_pages.post("/console/<uuid:org_id>/bot/knowledge/<uuid:document_id>/reprocess")
@performs(knowledge_api.Reprocess.post)
@signed_in_page
def bot_knowledge_reprocess(org_id, document_id):
    actor = org_actor(org_id)
    service.do_reprocess(db_session(), actor=actor, document_id=str(document_id))
    return back("console_pages.bot_knowledge", "rereading", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/bot/knowledge/<uuid:document_id>/delete")
@performs(knowledge_api.DocumentById.delete)
@signed_in_page
def bot_knowledge_delete(org_id, document_id):
    actor = org_actor(org_id)
    service.do_delete(db_session(), actor=actor, document_id=str(document_id))
    return back("console_pages.bot_knowledge", "deleted", org_id=actor.organization_id)


@console_pages.get("/console/<uuid:org_id>/bot/knowledge/search")
@performs(knowledge_api.Search.post)
@signed_in_page
def bot_knowledge_search(org_id):
    """The tester: a GET form, so a search can be bookmarked and sent to a colleague."""
    actor = org_actor(org_id)
    query, results, error = request.args.get("q", "")[:1000].strip(), None, None
    min_similarity = request.args.get("min", "")[:10] or str(search_service.DEFAULT_MIN_SIMILARITY)
    if query:
        try:
            options = check_form(KnowledgeSearchSchema(), {"query": query, "minSimilarity": min_similarity,
                                                           "topK": request.args.get("k", "5")[:3]})
            results = search_service.do_search(db_session(), actor=actor, record=False, **options)
        except AppError as caught:
            error = caught
    return render("console/bot_knowledge_search.html", actor, _ACTIVE, error=error, texts=KNOWLEDGE_TEXTS,
                  query=query, min_similarity=min_similarity, top_k=request.args.get("k", "5")[:3], results=results)


def _insights_page(actor, error: AppError | None = None):
    days = request.args.get("dias", "30")
    days = int(days) if days.isdigit() and int(days) in INSIGHT_DAYS else 30
    found = insights_service.get_insights(db_session(), actor=actor, days=days)
    titles = {d.id: d.title for d in service.list_documents(db_session(), actor=actor)}
    agents = {a.id: a.name for a in ai_agents_service.list_agents(db_session(), actor=actor)}  # people read names
    return render("console/bot_knowledge_insights.html", actor, _ACTIVE, error=error, texts=KNOWLEDGE_TEXTS,
                  insights=found, days=days, choices=INSIGHT_DAYS, titles=titles, agents=agents,
                  top_hits=max((d["hits"] for d in found.by_document), default=0), done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/bot/knowledge/insights")
@performs(knowledge_api.Insights.get)
@signed_in_page
def bot_knowledge_insights(org_id):
    return _insights_page(org_actor(org_id))
