"""What the console's AI pages say: the agents and their figures, the providers, an agent's editor,
the probador and the configurador."""

from appliance.core.i18n import Words, _l, _ln

AI_TEXTS = Words("console_bot_ai", {
    "back_to_bot": _l("Bot"), "ai_title": _l("AI agents"), "ai_link": _l("AI agents"),
    "ai_intro": _l("An AI agent answers customers with a model of your choice, from your knowledge base and your "
                   "business's facts. Each number's default agent answers when no rule does (modes “Rules, then an "
                   "AI agent” and “An AI agent” in the number's bot settings)."),
    "providers_link": _l("AI providers"), "new_agent": _l("New agent"), "days": _l("Last {n} days"),
    "no_agents": _l("No agents yet. Set up a provider first (a key, or the address of your own server), then create "
                    "an agent and try it in its test chat before customers meet it."),
    "no_provider": _l("No provider is set up yet:"), "set_up_provider": _l("set one up"), "default": _l("default"),
    "disabled": _l("off"), "all_numbers": _l("all numbers"), "numbers_count": _ln("{n} number", "{n} numbers"),
    "replies": _l("replies"), "conversations": _l("conversations"), "handoffs": _l("hand-offs"),
    "failures": _l("failed"), "tokens": _l("tokens"), "cost": _l("cost"),
    "settings_agent": _l("Own AI settings of a number"), "spend_title": _l("AI spending"), "today": _l("Today"),
    "this_month": _l("This month"), "no_cap": _l("no limit"), "cap_of": _l("of {cap} USD"),
    "cap_reached": _l("Limit reached: the bot sends the fallback message instead of AI answers until the period ends "
                      "or the billing group raises the limit."),
    "spend_hint": _l("Estimated from the tokens each call used and the model's list prices (LOCAL costs nothing). "
                     "Limits are set by the organization that pays, in its billing group."),
    "providers_title": _l("AI providers"),
    "providers_intro": _l("Where the agents' models run. Keys are kept sealed on this machine and are never shown "
                          "again; paste a new one to replace it."),
    "configured": _l("set up"), "not_configured": _l("not set up"), "api_key": _l("API key"),
    "api_key_optional": _l("API key (if your server asks for one)"),
    "api_key_kept": _l("API key (leave empty to keep the one saved)"), "base_url": _l("Address"),
    "base_url_hint": _l("Empty: the vendor's own."),
    "base_url_local": _l("Address of your OpenAI-compatible server (an Ollama on this machine: "
                         "http://127.0.0.1:11434; a server that is not public needs the installation's administrator "
                         "to allow it)"),
    "save": _l("Save"), "test": _l("Test connection"), "forget": _l("Forget"),
    "confirm_forget": _l("Forget this provider's key and address? Agents that use it will answer with the fallback "
                         "message."),
    "last_error": _l("Last problem"),
    "checked_ok": _ln("Connected: {n} model offered.", "Connected: {n} models offered."),
    "checked_failed": _l("Not connected:"),
    "provider_help": {
        "OPENAI": "platform.openai.com → API keys", "ANTHROPIC": "console.anthropic.com → API keys",
        "GEMINI": "aistudio.google.com → Get API key", "GROQ": "console.groq.com → API keys",
        "MISTRAL": "console.mistral.ai → API keys",
        "LOCAL": _l("Any OpenAI-compatible server: Ollama, llama.cpp, vLLM, LM Studio."),
    },
    "agent_title": _l("Agent"), "new_agent_title": _l("New agent"), "back_to_agents": _l("AI agents"),
    "name": _l("Name"), "provider": _l("Provider"), "model": _l("Model"),
    "model_hint": _l("Pick one from the list or type the name your LOCAL server uses."),
    "provider_not_set": _l("This provider is not set up yet:"), "system_prompt": _l("Instructions (system prompt)"),
    "system_prompt_hint": _l("What the model reads before every conversation (AI vendors call it the “system "
                             "prompt”): who the agent is, how it speaks, what it must never do. The business's name, "
                             "hours and, if allowed, its services are added by themselves."),
    "temperature": _l("Creativity (0–2)"), "max_tokens": _l("Longest answer (tokens)"),
    "tokens_hint": _l("Tokens are the pieces of text a model reads and writes, and what AI vendors charge by: a "
                      "token is about three quarters of a word (100 tokens ≈ 75 words)."),
    "sandbox_ai": _l("Sandbox AI (simulated answers)"),
    "sandbox_ai_help": _l("The sandbox's stand-in for a model: it answers with the sentence of what the agent read "
                          "that best matches the question. It costs nothing and needs no key; set up a real provider "
                          "to see real answers."),
    "capabilities": _l("What it may do"), "numbers": _l("Numbers it answers"),
    "numbers_hint": _l("None ticked: all numbers."), "knowledge": _l("What it knows"),
    "documents_hint": _l("None ticked: the whole knowledge base."),
    "knowledge_tags": _l("Only documents with these tags (comma separated)"),
    "no_documents": _l("The knowledge base is empty: add documents so the agent can answer from them."),
    "knowledge_link": _l("Knowledge base"),
    "route_tags": _l("Route conversations with these tags to it (comma separated)"),
    "route_tags_hint": _l("Used when the number's intent classifier is on; each tag leads to one agent only."),
    "is_default": _l("Default agent of its numbers"), "enabled": _l("Answers customers"), "create": _l("Create agent"),
    "delete": _l("Delete agent"),
    "confirm_delete": _l("Delete this agent? Conversations pinned to it go back to the router."),
    "probe_title": _l("Test chat"),
    "probe_intro": _l("Write as a customer would. Nothing is sent to anyone; the cost of each answer still counts."),
    "probe_empty": _l("Ask something your customers ask, like “how much is delivery?”."),
    "probe_placeholder": _l("Write a message…"), "send": _l("Send"), "restart": _l("Start over"), "you": _l("Customer"),
    "agent": _l("Agent"), "parts_note": _l("Sent as {n} messages"), "read": _l("What it read"),
    "no_read": _l("No passage fitted."), "usage": _l("{tokens_in} tokens in · {tokens_out} out · {ms} ms · {cost} USD"),
    "actions": _l("What it would do"),
    "action_names": {
        "handoff": _l("Hand the conversation to a person"), "create_task": _l("Leave the team a task"),
        "send_image": _l("Send an image"),
    },
    "save_first": _l("Save the agent to try it here."), "configurador_title": _l("Write the instructions for me"),
    "goal": _l("What should this agent achieve?"),
    "goal_placeholder": _l("Answer questions about prices and delivery, and take orders kindly"),
    "propose": _l("Propose instructions"), "use_prompt": _l("Use these instructions"), "why": _l("Why"),
    "done": {
        "provider_saved": _l("Provider saved."), "provider_deleted": _l("Provider forgotten."),
        "agent_created": _l("Agent created. Try it in the test chat."), "agent_saved": _l("Agent saved."),
        "agent_deleted": _l("Agent deleted."), "prompt_used": _l("Instructions saved."),
    },
    "errors": {},
})
