"""What the console's AI pages say: the agents and their figures, the providers, an agent's editor,
the probador and the configurador."""

from appliance.http.pages import Texts

AI_TEXTS = Texts(
    "console_bot_ai",
    en={
        "back_to_bot": "Bot", "ai_title": "AI agents", "ai_link": "AI agents",
        "ai_intro": "An AI agent answers customers with a model of your choice, from your knowledge base and your "
        "business's facts. Each number's default agent answers when no rule does (modes “Rules, then an AI agent” "
        "and “An AI agent” in the number's bot settings).",
        "providers_link": "AI providers", "new_agent": "New agent", "days": "Last {n} days",
        "no_agents": "No agents yet. Set up a provider first (a key, or the address of your own server), then create "
        "an agent and try it in its test chat before customers meet it.",
        "no_provider": "No provider is set up yet:", "set_up_provider": "set one up",
        "default": "default", "disabled": "off", "all_numbers": "all numbers", "numbers_count": "{n} numbers",
        "replies": "replies", "conversations": "conversations", "handoffs": "hand-offs", "failures": "failed",
        "tokens": "tokens", "cost": "cost", "settings_agent": "Own AI settings of a number",
        "spend_title": "AI spending", "today": "Today", "this_month": "This month", "no_cap": "no limit",
        "cap_of": "of {cap} USD", "cap_reached": "Limit reached: the bot sends the fallback message instead of AI "
        "answers until the period ends or the billing group raises the limit.",
        "spend_hint": "Estimated from the tokens each call used and the model's list prices (LOCAL costs nothing). "
        "Limits are set by the organization that pays, in its billing group.",
        "providers_title": "AI providers", "providers_intro": "Where the agents' models run. Keys are kept sealed "
        "on this machine and are never shown again; paste a new one to replace it.",
        "configured": "set up", "not_configured": "not set up", "api_key": "API key",
        "api_key_optional": "API key (if your server asks for one)", "api_key_kept": "API key "
        "(leave empty to keep the one saved)", "base_url": "Address", "base_url_hint": "Empty: the vendor's own.",
        "base_url_local": "Address of your OpenAI-compatible server (an Ollama on this machine: http://127.0.0.1:11434; a server that is not public needs the installation's administrator to allow it)",
        "save": "Save", "test": "Test connection", "forget": "Forget", "confirm_forget": "Forget this provider's key "
        "and address? Agents that use it will answer with the fallback message.",
        "last_error": "Last problem", "checked_ok": "Connected: {n} models offered.", "checked_failed": "Not connected:",
        "provider_help": {"OPENAI": "platform.openai.com → API keys", "ANTHROPIC": "console.anthropic.com → API keys",
                          "GEMINI": "aistudio.google.com → Get API key", "GROQ": "console.groq.com → API keys",
                          "MISTRAL": "console.mistral.ai → API keys",
                          "LOCAL": "Any OpenAI-compatible server: Ollama, llama.cpp, vLLM, LM Studio."},
        "agent_title": "Agent", "new_agent_title": "New agent", "back_to_agents": "AI agents",
        "name": "Name", "provider": "Provider", "model": "Model", "model_hint": "Pick one from the list or type the "
        "name your LOCAL server uses.", "provider_not_set": "This provider is not set up yet:",
        "system_prompt": "Instructions (system prompt)", "system_prompt_hint": "What the model reads before every "
        "conversation (AI vendors call it the “system prompt”): who the agent is, how it speaks, what it must never "
        "do. The business's name, hours and, if allowed, its services are added by themselves.",
        "temperature": "Creativity (0–2)", "max_tokens": "Longest answer (tokens)",
        "tokens_hint": "Tokens are the pieces of text a model reads and writes, and what AI vendors charge by: a "
        "token is about three quarters of a word (100 tokens ≈ 75 words).",
        "sandbox_ai": "Sandbox AI (simulated answers)",
        "sandbox_ai_help": "The sandbox's stand-in for a model: it answers with the sentence of what the agent read "
        "that best matches the question. It costs nothing and needs no key; set up a real provider to see real "
        "answers.",
        "capabilities": "What it may do", "numbers": "Numbers it answers", "numbers_hint": "None ticked: all numbers.",
        "knowledge": "What it knows", "documents_hint": "None ticked: the whole knowledge base.",
        "knowledge_tags": "Only documents with these tags (comma separated)", "no_documents": "The knowledge base is "
        "empty: add documents so the agent can answer from them.", "knowledge_link": "Knowledge base",
        "route_tags": "Route conversations with these tags to it (comma separated)",
        "route_tags_hint": "Used when the number's intent classifier is on; each tag leads to one agent only.",
        "is_default": "Default agent of its numbers", "enabled": "Answers customers",
        "create": "Create agent", "delete": "Delete agent", "confirm_delete": "Delete this agent? Conversations pinned "
        "to it go back to the router.",
        "probe_title": "Test chat", "probe_intro": "Write as a customer would. Nothing is sent to anyone; the cost of "
        "each answer still counts.", "probe_empty": "Ask something your customers ask, like “how much is delivery?”.",
        "probe_placeholder": "Write a message…", "send": "Send", "restart": "Start over", "you": "Customer",
        "agent": "Agent", "parts_note": "Sent as {n} messages", "read": "What it read", "no_read": "No passage fitted.",
        "usage": "{tokens_in} tokens in · {tokens_out} out · {ms} ms · {cost} USD",
        "actions": "What it would do", "action_names": {"handoff": "Hand the conversation to a person",
                                                         "create_task": "Leave the team a task",
                                                         "send_image": "Send an image"},
        "save_first": "Save the agent to try it here.",
        "configurador_title": "Write the instructions for me", "goal": "What should this agent achieve?",
        "goal_placeholder": "Answer questions about prices and delivery, and take orders kindly",
        "propose": "Propose instructions", "use_prompt": "Use these instructions", "why": "Why",
        "done": {"provider_saved": "Provider saved.", "provider_deleted": "Provider forgotten.",
                 "agent_created": "Agent created. Try it in the test chat.", "agent_saved": "Agent saved.",
                 "agent_deleted": "Agent deleted.", "prompt_used": "Instructions saved."},
        "errors": {},
    },
    es={
        "back_to_bot": "Bot", "ai_title": "Agentes de IA", "ai_link": "Agentes de IA",
        "ai_intro": "Un agente de IA responde a los clientes con el modelo que elijas, a partir de tu base de "
        "conocimiento y los datos de tu negocio. El agente por defecto de cada número responde cuando ninguna regla lo "
        "hace (modos «Reglas y luego un agente de IA» y «Un agente de IA» en los ajustes del bot del número).",
        "providers_link": "Proveedores de IA", "new_agent": "Nuevo agente", "days": "Últimos {n} días",
        "no_agents": "Aún no hay agentes. Configura primero un proveedor (una clave, o la dirección de tu propio "
        "servidor), luego crea un agente y pruébalo en su chat de prueba antes de que lo vean los clientes.",
        "no_provider": "Aún no hay ningún proveedor configurado:", "set_up_provider": "configura uno",
        "default": "por defecto", "disabled": "apagado", "all_numbers": "todos los números", "numbers_count": "{n} números",
        "replies": "respuestas", "conversations": "conversaciones", "handoffs": "pases a persona", "failures": "fallidas",
        "tokens": "tokens", "cost": "coste", "settings_agent": "Ajustes de IA propios de un número",
        "spend_title": "Gasto en IA", "today": "Hoy", "this_month": "Este mes", "no_cap": "sin límite",
        "cap_of": "de {cap} USD", "cap_reached": "Límite alcanzado: el bot envía la respuesta por defecto en lugar "
        "de respuestas de IA hasta que acabe el periodo o el grupo de facturación suba el límite.",
        "spend_hint": "Estimado a partir de los tokens de cada llamada y los precios de lista del modelo (LOCAL no "
        "cuesta nada). Los límites los pone la organización que paga, en su grupo de facturación.",
        "providers_title": "Proveedores de IA", "providers_intro": "Dónde se ejecutan los modelos de los agentes. "
        "Las claves se guardan selladas en esta máquina y no se vuelven a mostrar; pega una nueva para cambiarla.",
        "configured": "configurado", "not_configured": "sin configurar", "api_key": "Clave de API",
        "api_key_optional": "Clave de API (si tu servidor la pide)",
        "api_key_kept": "Clave de API (vacía para conservar la guardada)", "base_url": "Dirección",
        "base_url_hint": "Vacía: la del proveedor.",
        "base_url_local": "Dirección de tu servidor compatible con OpenAI (un Ollama en este equipo: http://127.0.0.1:11434; un servidor que no es público necesita que el administrador de la instalación lo permita)",
        "save": "Guardar", "test": "Probar conexión", "forget": "Olvidar", "confirm_forget": "¿Olvidar la clave y la "
        "dirección de este proveedor? Los agentes que lo usan responderán con el mensaje por defecto.",
        "last_error": "Último problema", "checked_ok": "Conectado: ofrece {n} modelos.", "checked_failed": "Sin conexión:",
        "provider_help": {"OPENAI": "platform.openai.com → API keys", "ANTHROPIC": "console.anthropic.com → API keys",
                          "GEMINI": "aistudio.google.com → Get API key", "GROQ": "console.groq.com → API keys",
                          "MISTRAL": "console.mistral.ai → API keys",
                          "LOCAL": "Cualquier servidor compatible con OpenAI: Ollama, llama.cpp, vLLM, LM Studio."},
        "agent_title": "Agente", "new_agent_title": "Nuevo agente", "back_to_agents": "Agentes de IA",
        "name": "Nombre", "provider": "Proveedor", "model": "Modelo", "model_hint": "Elige uno de la lista o escribe "
        "el nombre que usa tu servidor LOCAL.", "provider_not_set": "Este proveedor aún no está configurado:",
        "system_prompt": "Instrucciones (prompt de sistema)", "system_prompt_hint": "Lo que el modelo lee antes de "
        "cada conversación (los proveedores de IA lo llaman «prompt de sistema»): quién es el agente, cómo habla, qué "
        "no debe hacer nunca. El nombre del negocio, su horario y, si se permite, sus servicios se añaden solos.",
        "temperature": "Creatividad (0–2)", "max_tokens": "Respuesta más larga (tokens)",
        "tokens_hint": "Los tokens son los trozos de texto que un modelo lee y escribe, y por los que cobran los "
        "proveedores de IA: un token es unas tres cuartas partes de una palabra (100 tokens ≈ 75 palabras).",
        "sandbox_ai": "IA del sandbox (respuestas simuladas)",
        "sandbox_ai_help": "El sustituto de un modelo en el sandbox: responde con la frase de lo que leyó el agente "
        "que mejor encaja con la pregunta. No cuesta nada ni necesita clave; configura un proveedor real para ver "
        "respuestas reales.",
        "capabilities": "Qué puede hacer", "numbers": "Números que atiende", "numbers_hint": "Ninguno marcado: todos.",
        "knowledge": "Qué sabe", "documents_hint": "Ninguno marcado: toda la base de conocimiento.",
        "knowledge_tags": "Solo documentos con estas etiquetas (separadas por comas)", "no_documents": "La base de "
        "conocimiento está vacía: añade documentos para que el agente responda a partir de ellos.",
        "knowledge_link": "Base de conocimiento",
        "route_tags": "Enviarle las conversaciones con estas etiquetas (separadas por comas)",
        "route_tags_hint": "Se usa cuando el clasificador de intención del número está activo; cada etiqueta lleva a un solo agente.",
        "is_default": "Agente por defecto de sus números", "enabled": "Responde a los clientes",
        "create": "Crear agente", "delete": "Eliminar agente", "confirm_delete": "¿Eliminar este agente? Las "
        "conversaciones asignadas a él vuelven al enrutador.",
        "probe_title": "Chat de prueba", "probe_intro": "Escribe como lo haría un cliente. No se envía nada a nadie; "
        "el coste de cada respuesta sí cuenta.", "probe_empty": "Pregunta algo que pregunten tus clientes, como "
        "«¿cuánto cuesta el envío?».",
        "probe_placeholder": "Escribe un mensaje…", "send": "Enviar", "restart": "Empezar de nuevo", "you": "Cliente",
        "agent": "Agente", "parts_note": "Se enviaría en {n} mensajes", "read": "Qué leyó",
        "no_read": "Ningún fragmento encajaba.",
        "usage": "{tokens_in} tokens de entrada · {tokens_out} de salida · {ms} ms · {cost} USD",
        "actions": "Qué haría", "action_names": {"handoff": "Pasar la conversación a una persona",
                                                  "create_task": "Dejar una tarea al equipo",
                                                  "send_image": "Enviar una imagen"},
        "save_first": "Guarda el agente para probarlo aquí.",
        "configurador_title": "Escríbeme las instrucciones", "goal": "¿Qué debe conseguir este agente?",
        "goal_placeholder": "Responder dudas de precios y envíos, y tomar pedidos con amabilidad",
        "propose": "Proponer instrucciones", "use_prompt": "Usar estas instrucciones", "why": "Por qué",
        "done": {"provider_saved": "Proveedor guardado.", "provider_deleted": "Proveedor olvidado.",
                 "agent_created": "Agente creado. Pruébalo en el chat de prueba.", "agent_saved": "Agente guardado.",
                 "agent_deleted": "Agente eliminado.", "prompt_used": "Instrucciones guardadas."},
        "errors": {},
    },
)
