"""What the console's knowledge base pages say: the library, a document, the search tester and the insights."""

from appliance.core.i18n import Words, _l, _ln

KNOWLEDGE_TEXTS = Words("console_bot_knowledge", {
    "back_to_bot": _l("Bot"), "knowledge_title": _l("Knowledge base"),
    "knowledge_intro": _l("What the bot's AI answers from: your price lists, policies, FAQs and web pages. "
                          "Everything is read and indexed on this machine; nothing leaves it."),
    "search_link": _l("Try a search"), "insights_link": _l("Insights"), "library": _l("Library"),
    "empty": _l("The library is empty. Upload your price list or your FAQ, or write a note with what customers ask "
                "most: the bot answers from it."),
    "kinds": {"FILE": _l("File"), "NOTE": _l("Note"), "URL": _l("Web page")},
    "statuses": {"PROCESSING": _l("Reading…"), "READY": _l("Ready"), "FAILED": _l("Failed")},
    "passage_count": _ln("{n} passage", "{n} passages"), "shared": _l("all agents"), "agents": _l("agents"),
    "synced": _l("read"), "every_hours": _l("every {n} h"), "reread": _l("Re-read now"), "delete": _l("Delete"),
    "open": _l("Open"), "save": _l("Save"), "confirm_delete": _l("Delete this document and everything read from it?"),
    "upload_title": _l("Upload a file"), "drop_here": _l("Drop a file here, or choose one"),
    "file_help": _l("PDF, Word (DOCX), text, Markdown or CSV, up to 25 MB. Scanned PDFs need their text."),
    "title": _l("Title"), "title_optional": _l("Title (optional)"), "tags": _l("Tags (comma separated)"),
    "upload": _l("Upload"), "uploading": _l("Uploading…"), "note_title": _l("Write a note"), "content": _l("Text"),
    "add_note": _l("Add note"), "url_title": _l("Add a web page"), "url": _l("Address (http or https)"),
    "sync": _l("Read again"), "sync_never": _l("only when I ask"), "sync_hours": _l("every {n} hours"),
    "add_page": _l("Add page"), "processing_note": _l("Reading documents… this page refreshes by itself."),
    "document_title": _l("Document"), "status": _l("Status"), "source": _l("Source"), "size": _l("Size"),
    "error": _l("Why it failed"), "content_help": _l("A note's title and text are what the bot reads."),
    "search_title": _l("Try a search"),
    "search_intro": _l("Ask as a customer would. Each passage shows how close its meaning is, and whether it holds "
                       "your words exactly. These searches are not counted in the insights."),
    "query": _l("Question"), "min_similarity": _l("Minimum similarity"), "top_k": _l("Results"), "search": _l("Search"),
    "no_results": _l("Nothing close enough. Lower the minimum similarity, or add a note that answers this."),
    "similarity": _l("similarity"), "by_words": _l("matched by words"), "score": _l("rank score"),
    "score_hint": _l("Similarity: how close a passage's meaning is to the question (1 is the same). Rank score: the "
                     "order the passages are given to the agent in, from their similarity and their exact words "
                     "together; only the order matters, the highest first."),
    "insights_title": _l("Insights"),
    "insights_intro": _l("What customers and agents searched for, and what the library could not answer."),
    "days": _l("Last {n} days"), "queries": _l("Searches"), "answered": _l("Answered"),
    "response_rate": _l("Response rate"), "unanswered": _l("Unanswered questions"),
    "no_unanswered": _l("Every question found an answer. 🎉"), "asked": _l("asked {n}×"), "last_asked": _l("last"),
    "answer_with_note": _l("Answer with a note"), "answer_placeholder": _l("The answer, as you would tell a customer"),
    "by_document": _l("Most used documents"), "by_agent": _l("By agent"), "agent_gone": _l("A deleted agent"),
    "hits": _l("uses"), "hit": _l("use"), "no_usage": _l("No searches yet."),
    "done": {
        "uploaded": _l("File uploaded; it is being read."), "note_added": _l("Note added."),
        "page_added": _l("Web page added; it is being read."), "saved": _l("Saved."),
        "rereading": _l("Reading it again."), "deleted": _l("Document deleted."),
        "answered": _l("Answered: the question left the list."),
    },
    "errors": {},
})
