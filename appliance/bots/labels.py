"""How people read the bot's decisions (the activity log's kinds and reasons), in each language the
appliance speaks: the console's activity page and the inbox's thread say them the same way."""

KINDS_EN = {
    "REPLIED": "Replied", "RULE_MATCHED": "A rule answered", "WELCOME_SENT": "Welcome sent",
    "OUT_OF_HOURS_SENT": "Out-of-hours notice sent", "FALLBACK_SENT": "Fallback sent", "SKIPPED": "Stayed silent",
    "SUPERSEDED": "Reply dropped", "HANDOFF": "Handed to a person", "HANDOFF_DEFERRED": "Hand-off at the opening",
    "OUTSIDE_WINDOW": "Outside the 24-hour window", "REPLY_CAP_REACHED": "Reply cap reached",
    "FLOW_STARTED": "Flow started", "FLOW_COMPLETED": "Flow finished", "FOLLOWUP_SENT": "Follow-up sent",
    "FOLLOWUP_SKIPPED": "Follow-up skipped", "FOLLOWUP_CLOSED": "Closed after no answer", "AI_REPLY": "AI answered",
    "AI_ERROR": "AI failed", "TASK_CREATED": "Task for the team", "PROTECTED_VALUE_BLOCKED": "Protected value hidden", "FAILED": "Failed",
}
KINDS_ES = {
    "REPLIED": "Respondió", "RULE_MATCHED": "Respondió una regla", "WELCOME_SENT": "Saludo enviado",
    "OUT_OF_HOURS_SENT": "Aviso de fuera de horario", "FALLBACK_SENT": "Respuesta por defecto", "SKIPPED": "Se quedó callado",
    "SUPERSEDED": "Respuesta descartada", "HANDOFF": "Pasó a una persona", "HANDOFF_DEFERRED": "Pasará a una persona al abrir",
    "OUTSIDE_WINDOW": "Fuera de la ventana de 24 horas", "REPLY_CAP_REACHED": "Límite de respuestas",
    "FLOW_STARTED": "Flujo iniciado", "FLOW_COMPLETED": "Flujo terminado", "FOLLOWUP_SENT": "Seguimiento enviado",
    "FOLLOWUP_SKIPPED": "Seguimiento omitido", "FOLLOWUP_CLOSED": "Cerrada sin respuesta", "AI_REPLY": "Respondió la IA",
    "AI_ERROR": "Falló la IA", "TASK_CREATED": "Tarea para el equipo", "PROTECTED_VALUE_BLOCKED": "Dato protegido oculto", "FAILED": "Falló",
}

REASONS_EN = {
    "bot_off": "the bot is off", "opted_out": "the customer opted out", "bot_excluded": "the contact is excluded from the bot",
    "handoff_pending": "waiting for a person", "assigned": "a person has the conversation",
    "outside_window": "the 24-hour window is closed", "no_match": "no rule matched and there is no fallback",
    "ai_unavailable": "no AI agent could answer", "person_replied": "a person replied",
    "keyword": "the customer asked for a person", "rule": "a rule hands off", "flow": "the flow hands off",
    "reply_cap": "too many bot replies in a row", "out_of_hours_opening": "the team opened",
    "post_flow_grace": "a flow just ended", "flow_unavailable": "the flow is off or gone",
    "flow_changed": "the flow was changed", "flow_loop": "the flow looped", "tag_unavailable": "the tag is gone", "image_unavailable": "the image is gone",
    "network_refused": "WhatsApp refused the message", "internal_error": "an internal error (logged)",
    "conversation_gone": "the conversation is gone", "no_message": "no message is set",
    "follow_up_off": "follow-ups are off", "window_closed": "the 24-hour window is closed",
    "contact_unreachable": "the contact has no WhatsApp number",
    "no_agent": "no AI agent serves this number", "plan_capability_missing": "the plan has no AI agents",
    "provider_not_configured": "the AI provider is not set up", "ai": "the AI agent hands off",
    "auth": "the AI provider refused the key", "rate_limited": "the AI provider is limiting requests",
    "unavailable": "the AI provider is down or unreachable", "timeout": "the AI provider took too long",
    "bad_request": "the AI provider refused the request", "not_found": "the AI provider does not know the model",
    "bad_answer": "the AI provider answered nonsense",
    "ai_spend_cap_reached": "the billing group's AI spending limit is reached",
    "agent_unavailable": "the flow's AI agent is gone, off or not on this number",
    "customer_replied": "the customer answered first",
    "newer_question": "the customer wrote again: one answer covers both",
}
REASONS_ES = {
    "bot_off": "el bot está apagado", "opted_out": "el cliente pidió no recibir mensajes",
    "bot_excluded": "el contacto está excluido del bot", "handoff_pending": "espera a una persona",
    "assigned": "una persona atiende la conversación", "outside_window": "la ventana de 24 horas está cerrada",
    "no_match": "ninguna regla coincidió y no hay respuesta por defecto", "ai_unavailable": "ningún agente de IA pudo responder",
    "person_replied": "respondió una persona", "keyword": "el cliente pidió una persona",
    "rule": "una regla pasa a una persona", "flow": "el flujo pasa a una persona",
    "reply_cap": "demasiadas respuestas seguidas del bot", "out_of_hours_opening": "el equipo abrió",
    "post_flow_grace": "acaba de terminar un flujo", "flow_unavailable": "el flujo está apagado o no existe",
    "flow_changed": "el flujo cambió", "flow_loop": "el flujo dio una vuelta", "tag_unavailable": "la etiqueta no existe", "image_unavailable": "la imagen ya no existe",
    "network_refused": "WhatsApp rechazó el mensaje", "internal_error": "un error interno (registrado)",
    "conversation_gone": "la conversación ya no existe", "no_message": "no hay mensaje configurado",
    "follow_up_off": "los seguimientos están apagados", "window_closed": "la ventana de 24 horas está cerrada",
    "contact_unreachable": "el contacto no tiene número de WhatsApp",
    "no_agent": "ningún agente de IA atiende este número", "plan_capability_missing": "el plan no incluye agentes de IA",
    "provider_not_configured": "el proveedor de IA no está configurado", "ai": "el agente de IA pasa a una persona",
    "auth": "el proveedor de IA rechazó la clave", "rate_limited": "el proveedor de IA está limitando las peticiones",
    "unavailable": "el proveedor de IA no responde", "timeout": "el proveedor de IA tardó demasiado",
    "bad_request": "el proveedor de IA rechazó la petición", "not_found": "el proveedor de IA no conoce el modelo",
    "bad_answer": "el proveedor de IA respondió algo sin sentido",
    "ai_spend_cap_reached": "se alcanzó el límite de gasto en IA del grupo de facturación",
    "agent_unavailable": "el agente de IA del flujo no existe, está apagado o no atiende este número",
    "customer_replied": "el cliente respondió antes",
    "newer_question": "el cliente volvió a escribir: una sola respuesta para todo",
}
KINDS = {"en": KINDS_EN, "es": KINDS_ES}
REASONS = {"en": REASONS_EN, "es": REASONS_ES}
