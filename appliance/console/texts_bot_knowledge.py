"""What the console's knowledge base pages say: the library, a document, the search tester and the insights."""

from appliance.http.pages import Texts

KNOWLEDGE_TEXTS = Texts(
    "console_bot_knowledge",
    en={
        "back_to_bot": "Bot", "knowledge_title": "Knowledge base",
        "knowledge_intro": "What the bot's AI answers from: your price lists, policies, FAQs and web pages. "
        "Everything is read and indexed on this machine; nothing leaves it.",
        "search_link": "Try a search", "insights_link": "Insights",
        "library": "Library", "empty": "The library is empty. Upload your price list or your FAQ, or write a note "
        "with what customers ask most: the bot answers from it.",
        "kinds": {"FILE": "File", "NOTE": "Note", "URL": "Web page"},
        "statuses": {"PROCESSING": "Reading…", "READY": "Ready", "FAILED": "Failed"},
        "passages": "passages", "passage": "passage", "shared": "all agents", "agents": "agents", "synced": "read", "every_hours": "every {n} h",
        "reread": "Re-read now", "delete": "Delete", "open": "Open", "save": "Save",
        "confirm_delete": "Delete this document and everything read from it?",
        "upload_title": "Upload a file", "drop_here": "Drop a file here, or choose one",
        "file_help": "PDF, Word (DOCX), text, Markdown or CSV, up to 25 MB. Scanned PDFs need their text.",
        "title": "Title", "title_optional": "Title (optional)", "tags": "Tags (comma separated)", "upload": "Upload",
        "uploading": "Uploading…", "note_title": "Write a note", "content": "Text", "add_note": "Add note",
        "url_title": "Add a web page", "url": "Address (http or https)", "sync": "Read again",
        "sync_never": "only when I ask", "sync_hours": "every {n} hours", "add_page": "Add page",
        "processing_note": "Reading documents… this page refreshes by itself.",
        "document_title": "Document", "status": "Status", "source": "Source", "size": "Size", "error": "Why it failed",
        "content_help": "A note's title and text are what the bot reads.",
        "search_title": "Try a search", "search_intro": "Ask as a customer would. Each passage shows how close its "
        "meaning is, and whether it holds your words exactly. These searches are not counted in the insights.",
        "query": "Question", "min_similarity": "Minimum similarity", "top_k": "Results", "search": "Search",
        "no_results": "Nothing close enough. Lower the minimum similarity, or add a note that answers this.",
        "similarity": "similarity", "by_words": "matched by words", "score": "rank score",
        "score_hint": "Similarity: how close a passage's meaning is to the question (1 is the same). Rank score: "
        "the order the passages are given to the agent in, from their similarity and their exact words together; "
        "only the order matters, the highest first.",
        "insights_title": "Insights", "insights_intro": "What customers and agents searched for, and what the "
        "library could not answer.", "days": "Last {n} days", "queries": "Searches", "answered": "Answered",
        "response_rate": "Response rate", "unanswered": "Unanswered questions",
        "no_unanswered": "Every question found an answer. 🎉", "asked": "asked {n}×", "last_asked": "last",
        "answer_with_note": "Answer with a note", "answer_placeholder": "The answer, as you would tell a customer",
        "by_document": "Most used documents", "by_agent": "By agent", "agent_gone": "A deleted agent", "hits": "uses", "hit": "use", "no_usage": "No searches yet.",
        "done": {"uploaded": "File uploaded; it is being read.", "note_added": "Note added.",
                 "page_added": "Web page added; it is being read.", "saved": "Saved.", "rereading": "Reading it again.",
                 "deleted": "Document deleted.", "answered": "Answered: the question left the list."},
        "errors": {},
    },
    es={
        "back_to_bot": "Bot", "knowledge_title": "Base de conocimiento",
        "knowledge_intro": "De donde responde la IA del bot: tus listas de precios, políticas, preguntas frecuentes "
        "y páginas web. Todo se lee e indexa en esta máquina; nada sale de ella.",
        "search_link": "Probar una búsqueda", "insights_link": "Estadísticas",
        "library": "Biblioteca", "empty": "La biblioteca está vacía. Sube tu lista de precios o tus preguntas "
        "frecuentes, o escribe una nota con lo que más preguntan los clientes: el bot responde a partir de ella.",
        "kinds": {"FILE": "Archivo", "NOTE": "Nota", "URL": "Página web"},
        "statuses": {"PROCESSING": "Leyendo…", "READY": "Lista", "FAILED": "Falló"},
        "passages": "fragmentos", "passage": "fragmento", "shared": "todos los agentes", "agents": "agentes", "synced": "leída",
        "every_hours": "cada {n} h", "reread": "Volver a leer", "delete": "Eliminar", "open": "Abrir", "save": "Guardar",
        "confirm_delete": "¿Eliminar este documento y todo lo leído de él?",
        "upload_title": "Subir un archivo", "drop_here": "Suelta un archivo aquí, o elige uno",
        "file_help": "PDF, Word (DOCX), texto, Markdown o CSV, hasta 25 MB. Los PDF escaneados necesitan su texto.",
        "title": "Título", "title_optional": "Título (opcional)", "tags": "Etiquetas (separadas por comas)",
        "upload": "Subir", "uploading": "Subiendo…", "note_title": "Escribir una nota", "content": "Texto",
        "add_note": "Añadir nota", "url_title": "Añadir una página web", "url": "Dirección (http o https)",
        "sync": "Volver a leer", "sync_never": "solo cuando lo pida", "sync_hours": "cada {n} horas",
        "add_page": "Añadir página", "processing_note": "Leyendo documentos… esta página se actualiza sola.",
        "document_title": "Documento", "status": "Estado", "source": "Origen", "size": "Tamaño", "error": "Por qué falló",
        "content_help": "El título y el texto de una nota son lo que lee el bot.",
        "search_title": "Probar una búsqueda", "search_intro": "Pregunta como lo haría un cliente. Cada fragmento "
        "muestra cuánto se parece su significado y si contiene tus palabras exactas. Estas búsquedas no cuentan "
        "en las estadísticas.",
        "query": "Pregunta", "min_similarity": "Similitud mínima", "top_k": "Resultados", "search": "Buscar",
        "no_results": "Nada lo bastante cercano. Baja la similitud mínima o añade una nota que lo responda.",
        "similarity": "similitud", "by_words": "por palabras", "score": "puntuación",
        "score_hint": "Similitud: cuánto se parece el significado de un fragmento a la pregunta (1 es igual). "
        "Puntuación: el orden en que los fragmentos llegan al agente, según su similitud y sus palabras exactas a la "
        "vez; solo importa el orden, la más alta primero.",
        "insights_title": "Estadísticas", "insights_intro": "Qué buscaron los clientes y los agentes, y qué no "
        "pudo responder la biblioteca.", "days": "Últimos {n} días", "queries": "Búsquedas", "answered": "Respondidas",
        "response_rate": "Tasa de respuesta", "unanswered": "Preguntas sin respuesta",
        "no_unanswered": "Todas las preguntas encontraron respuesta. 🎉", "asked": "preguntada {n}×",
        "last_asked": "última", "answer_with_note": "Responder con una nota",
        "answer_placeholder": "La respuesta, como se la darías a un cliente",
        "by_document": "Documentos más usados", "by_agent": "Por agente", "agent_gone": "Un agente eliminado", "hits": "usos", "hit": "uso", "no_usage": "Aún no hay búsquedas.",
        "done": {"uploaded": "Archivo subido; se está leyendo.", "note_added": "Nota añadida.",
                 "page_added": "Página añadida; se está leyendo.", "saved": "Guardado.", "rereading": "Leyéndolo de nuevo.",
                 "deleted": "Documento eliminado.", "answered": "Respondida: la pregunta salió de la lista."},
        "errors": {},
    },
)
