"""What a bot configuration holds: its fields with their defaults (docs: "Bot configuration"), and
the capability of the plan each setting needs."""

from __future__ import annotations

MODES = ("OFF", "RULES_ONLY", "RULES_PLUS_AI_FALLBACK", "AI_AGENT")
PACES = ("INSTANTANEO", "NATURAL", "PAUSADO")
AI_PROVIDERS = ("OPENAI", "ANTHROPIC", "GEMINI", "GROQ", "MISTRAL", "LOCAL")
FOLLOW_UP_MODES = ("TEXT", "AI")
# What the activity log records (bots/activity.py); public names: never rename one.
ACTIVITY_KINDS = ("REPLIED", "RULE_MATCHED", "WELCOME_SENT", "OUT_OF_HOURS_SENT", "FALLBACK_SENT", "SKIPPED", "SUPERSEDED",
                  "HANDOFF", "HANDOFF_DEFERRED", "OUTSIDE_WINDOW", "REPLY_CAP_REACHED", "FLOW_STARTED", "FLOW_COMPLETED",
                  "FOLLOWUP_SENT", "FOLLOWUP_SKIPPED", "FOLLOWUP_CLOSED", "AI_REPLY", "AI_ERROR", "TASK_CREATED",
                  "PROTECTED_VALUE_BLOCKED", "FAILED", "FALLBACK_SKIPPED", "RETURNED_TO_BOT")

# Every field but `enabled` and `mode` (columns of bot_configs), as the wire names them in Python.
DEFAULTS: dict = {
    "debounce_seconds": 3, "ritmo_de_respuesta": "INSTANTANEO", "velocidad_tecleo_cps": 14,
    "max_replies_per_window": 0, "reply_window_minutes": 60, "post_flow_grace_min": 0,
    "disclosure_message": "", "human_handoff_keywords": [], "handoff_message": "",
    "ai_provider": None, "ai_model": None, "ai_system_prompt": None, "ai_temperature": 0.3, "ai_max_tokens": 600,
    "intent_classifier_enabled": False, "knowledge_top_k": 5, "knowledge_min_similarity": 0.3, "knowledge_tags": [],
    "welcome_enabled": False, "welcome_message": "", "out_of_hours_enabled": False, "out_of_hours_message": "",
    "out_of_hours_schedule": None, "out_of_hours_task_enabled": False, "out_of_hours_task_message": "",
    "out_of_hours_task_grace_min": 15, "fallback_enabled": False, "fallback_message": "",
    "follow_up_enabled": False, "follow_up_after_min": 60, "follow_up_close_after_min": 1440,
    "follow_up_mode": "TEXT", "follow_up_message": "", "follow_up_close_message": "", "protected_values": [],
}


def needed_capabilities(fields: dict) -> list[str]:
    """The plan's capabilities the configuration `fields` turn on (data/plans.json)."""
    needed = []
    if fields.get("mode") in ("RULES_PLUS_AI_FALLBACK", "AI_AGENT") or fields.get("intent_classifier_enabled") \
            or (fields.get("follow_up_enabled") and fields.get("follow_up_mode") == "AI"):
        needed.append("bot.ai")
    if fields.get("enabled") and fields.get("mode") != "OFF":
        needed.append("bot.rules")
    return needed


