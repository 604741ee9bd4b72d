"""What the console's pages of the bot at work say: flows, tasks, quick replies, the activity log
(read over console/texts.py's and the bot's own)."""

from appliance.bots.labels import KINDS_EN, KINDS_ES, REASONS_EN, REASONS_ES
from appliance.http.pages import Texts

BOT_WORK_TEXTS = Texts(
    "console_bot_work",
    en={
        "back_to_bot": "Bot", "on": "on", "off": "off", "save": "Save", "delete": "Delete", "create": "Create",
        "numbers_title": "Numbers", "all_numbers": "every number if none is ticked",
        "flows_title": "Flows", "flows_intro": "A flow is a short guided conversation: messages, questions whose "
        "answers are saved on the contact, buttons to choose from, and a hand-off to a person at the end. It starts "
        "when a customer writes one of its words, or from a rule.",
        "no_flows": "No flows yet. Start from an example below and adapt it: it takes a minute.",
        "new_flow": "New flow", "flow_name": "Name", "trigger_keywords": "Words that start it",
        "trigger_hint": "Separated by commas: cita, agendar. Empty: only a rule starts it.",
        "first_message": "Its first message", "from_example": "Or start from an example",
        "no_example": "— a blank flow —", "flow_enabled": "Active (it answers customers)",
        "steps_title": "Steps", "steps_hint": "The flow starts at the first step. Each step says what comes next; "
        "buttons lead each to their own step. The preview shows what the customer sees.",
        "step": "Step", "step_id": "Id", "step_type": "Kind",
        "step_types": {"message": "Message", "question": "Question (saves the answer)", "buttons": "Buttons / list",
                       "set_tag": "Add a tag", "handoff": "Hand off to a person", "transfer_to_ai": "Pass to the AI agent",
                       "end": "End"},
        "text": "Text", "next": "Then", "end_of_flow": "— the flow ends —", "save_as": "Save the answer as",
        "save_as_hint": "A contact attribute: nombre, correo.", "answer_check": "Check the answer",
        "answer_checks": {"TEXT": "Any text", "NUMBER": "A number", "EMAIL": "An email", "PHONE": "A phone number",
                          "DATE": "A date"},
        "error_text": "If the answer does not pass", "tag": "Tag", "options": "Choices",
        "options_hint": "Up to 3 show as buttons; 4 to 10 as a list. 20 characters each.",
        "option_title": "Choice", "option_next": "leads to", "remove_step": "Remove this step",
        "add_step": "Add a step", "add_step_hint": "Choose its kind and fill it in, then save.",
        "no_add": "—", "preview": "On the customer's phone", "list_button": "See options",
        "waits_answer": "Waits for the answer → {name}", "hands_off": "Then a person takes over",
        "ends": "The flow ends", "sets_tag": "Adds the tag", "to_ai": "The AI agent continues", "ai_agent": "AI agent",
        "ai_router": "The number's default (or the one its tags lead to)",
        "confirm_delete_flow": "Delete this flow?", "back_to_flows": "All flows", "steps_count": "steps",
        "tasks_title": "Tasks", "tasks_intro": "Things the team must do: call a customer back, send a quote. The bot "
        "writes one when a customer asks for a person while you are closed.",
        "no_tasks": "Nothing to do. Tasks appear here when the bot or a teammate writes one.",
        "open_tasks": "To do", "done_tasks": "Done", "new_task": "New task", "task_title": "What to do",
        "task_detail": "Details", "due": "By", "mark_done": "Done", "reopen": "Reopen",
        "origins": {"USER": "a person", "BOT": "the bot", "API": "an integration"}, "by": "by",
        "open_conversation": "Open the conversation",
        "quick_title": "Quick replies", "quick_intro": "Answers the team writes often. In the inbox, type / and the "
        "shortcut to put one in the message.", "no_quick": "No quick replies yet. Add your address, hours or bank "
        "details.", "new_quick": "New quick reply", "shortcut": "Shortcut", "shortcut_hint": "A slash and one word: /horario",
        "quick_text": "Text",
        "activity_title": "What the bot did", "activity_intro": "Every decision of the bot, newest first: what it "
        "answered, when it stayed silent and why, when it handed a conversation to a person.",
        "no_activity": "Nothing yet. Turn the bot on for a number and the decisions appear here.",
        "kind": "Kind", "all_kinds": "all", "filter": "Show", "when": "When", "conversation": "Conversation",
        "older": "Older", "kinds": KINDS_EN, "reasons": REASONS_EN, "reasons_title": "Why",
        "done": {"flow_created": "Flow created. Review its steps and turn it on.", "flow_saved": "Flow saved.",
                 "flow_deleted": "Flow deleted.", "task_created": "Task created.", "task_saved": "Task updated.",
                 "task_deleted": "Task deleted.", "quick_created": "Quick reply created.",
                 "quick_saved": "Quick reply saved.", "quick_deleted": "Quick reply deleted."},
        "errors": {},
    },
    es={
        "back_to_bot": "Bot", "on": "activo", "off": "apagado", "save": "Guardar", "delete": "Eliminar",
        "create": "Crear", "numbers_title": "Números", "all_numbers": "todos los números si no marcas ninguno",
        "flows_title": "Flujos", "flows_intro": "Un flujo es una conversación guiada corta: mensajes, preguntas cuyas "
        "respuestas se guardan en el contacto, botones para elegir y el paso a una persona al final. Empieza cuando "
        "un cliente escribe una de sus palabras, o desde una regla.",
        "no_flows": "Aún no hay flujos. Empieza con un ejemplo de abajo y adáptalo: es un minuto.",
        "new_flow": "Nuevo flujo", "flow_name": "Nombre", "trigger_keywords": "Palabras que lo inician",
        "trigger_hint": "Separadas por comas: cita, agendar. Vacío: solo lo inicia una regla.",
        "first_message": "Su primer mensaje", "from_example": "O empieza con un ejemplo",
        "no_example": "— un flujo en blanco —", "flow_enabled": "Activo (responde a los clientes)",
        "steps_title": "Pasos", "steps_hint": "El flujo empieza en el primer paso. Cada paso dice qué sigue; cada "
        "botón lleva a su propio paso. La vista previa muestra lo que verá el cliente.",
        "step": "Paso", "step_id": "Id", "step_type": "Tipo",
        "step_types": {"message": "Mensaje", "question": "Pregunta (guarda la respuesta)", "buttons": "Botones / lista",
                       "set_tag": "Poner una etiqueta", "handoff": "Pasar a una persona",
                       "transfer_to_ai": "Pasar al agente de IA", "end": "Fin"},
        "text": "Texto", "next": "Después", "end_of_flow": "— termina el flujo —", "save_as": "Guardar la respuesta como",
        "save_as_hint": "Un atributo del contacto: nombre, correo.", "answer_check": "Revisar la respuesta",
        "answer_checks": {"TEXT": "Cualquier texto", "NUMBER": "Un número", "EMAIL": "Un correo",
                          "PHONE": "Un teléfono", "DATE": "Una fecha"},
        "error_text": "Si la respuesta no sirve", "tag": "Etiqueta", "options": "Opciones",
        "options_hint": "Hasta 3 se ven como botones; de 4 a 10, como lista. 20 caracteres cada una.",
        "option_title": "Opción", "option_next": "lleva a", "remove_step": "Quitar este paso",
        "add_step": "Añadir un paso", "add_step_hint": "Elige su tipo, complétalo y guarda.",
        "no_add": "—", "preview": "En el teléfono del cliente", "list_button": "Ver opciones",
        "waits_answer": "Espera la respuesta → {name}", "hands_off": "Luego atiende una persona",
        "ends": "Termina el flujo", "sets_tag": "Pone la etiqueta", "to_ai": "Sigue el agente de IA", "ai_agent": "Agente de IA",
        "ai_router": "El del número por defecto (o al que lleven sus etiquetas)",
        "confirm_delete_flow": "¿Eliminar este flujo?", "back_to_flows": "Todos los flujos", "steps_count": "pasos",
        "tasks_title": "Tareas", "tasks_intro": "Lo que el equipo tiene que hacer: llamar a un cliente, enviar una "
        "cotización. El bot escribe una cuando un cliente pide una persona mientras están cerrados.",
        "no_tasks": "Nada pendiente. Las tareas aparecen aquí cuando el bot o un compañero escribe una.",
        "open_tasks": "Pendientes", "done_tasks": "Hechas", "new_task": "Nueva tarea", "task_title": "Qué hacer",
        "task_detail": "Detalles", "due": "Para", "mark_done": "Hecha", "reopen": "Reabrir",
        "origins": {"USER": "una persona", "BOT": "el bot", "API": "una integración"}, "by": "por",
        "open_conversation": "Abrir la conversación",
        "quick_title": "Respuestas rápidas", "quick_intro": "Respuestas que el equipo escribe a menudo. En la bandeja, "
        "escribe / y el atajo para ponerla en el mensaje.", "no_quick": "Aún no hay respuestas rápidas. Añade tu "
        "dirección, tu horario o tus datos bancarios.", "new_quick": "Nueva respuesta rápida", "shortcut": "Atajo",
        "shortcut_hint": "Una barra y una palabra: /horario", "quick_text": "Texto",
        "activity_title": "Qué hizo el bot", "activity_intro": "Cada decisión del bot, la más reciente primero: qué "
        "respondió, cuándo se quedó callado y por qué, cuándo pasó una conversación a una persona.",
        "no_activity": "Aún nada. Activa el bot en un número y aquí aparecerán sus decisiones.",
        "kind": "Tipo", "all_kinds": "todo", "filter": "Mostrar", "when": "Cuándo", "conversation": "Conversación",
        "older": "Anteriores", "kinds": KINDS_ES, "reasons": REASONS_ES, "reasons_title": "Por qué",
        "done": {"flow_created": "Flujo creado. Revisa sus pasos y actívalo.", "flow_saved": "Flujo guardado.",
                 "flow_deleted": "Flujo eliminado.", "task_created": "Tarea creada.", "task_saved": "Tarea actualizada.",
                 "task_deleted": "Tarea eliminada.", "quick_created": "Respuesta rápida creada.",
                 "quick_saved": "Respuesta rápida guardada.", "quick_deleted": "Respuesta rápida eliminada."},
        "errors": {},
    },
)
