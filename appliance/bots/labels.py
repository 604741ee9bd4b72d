"""How people read the bot's decisions (the activity log's kinds and reasons): the console's activity
page and the inbox's thread say them the same way, in the reader's language (core/i18n.py)."""

from appliance.core.i18n import _l

KINDS = {
    "REPLIED": _l("Replied"), "RULE_MATCHED": _l("A rule answered"), "WELCOME_SENT": _l("Welcome sent"),
    "OUT_OF_HOURS_SENT": _l("Out-of-hours notice sent"), "FALLBACK_SENT": _l("Fallback sent"),
    "SKIPPED": _l("Stayed silent"), "SUPERSEDED": _l("Reply dropped"), "HANDOFF": _l("Handed to a person"),
    "HANDOFF_DEFERRED": _l("Hand-off at the opening"), "OUTSIDE_WINDOW": _l("Outside the 24-hour window"),
    "REPLY_CAP_REACHED": _l("Reply cap reached"), "FLOW_STARTED": _l("Flow started"),
    "FLOW_COMPLETED": _l("Flow finished"), "FOLLOWUP_SENT": _l("Follow-up sent"),
    "FOLLOWUP_SKIPPED": _l("Follow-up skipped"), "FOLLOWUP_CLOSED": _l("Closed after no answer"),
    "AI_REPLY": _l("AI answered"), "AI_ERROR": _l("AI failed"), "TASK_CREATED": _l("Task for the team"),
    "PROTECTED_VALUE_BLOCKED": _l("Protected value hidden"), "FAILED": _l("Failed"),
    "FALLBACK_SKIPPED": _l("No fallback"), "RETURNED_TO_BOT": _l("Returned to the bot"),
}
REASONS = {
    "bot_off": _l("the bot is off"), "opted_out": _l("the customer opted out"),
    "bot_excluded": _l("the contact is excluded from the bot"), "handoff_pending": _l("waiting for a person"),
    "assigned": _l("a person has the conversation"), "outside_window": _l("the 24-hour window is closed"),
    "no_match": _l("no rule matched and there is no fallback"), "ai_unavailable": _l("no AI agent could answer"),
    "person_replied": _l("a person replied"), "keyword": _l("the customer asked for a person"),
    "rule": _l("a rule hands off"), "flow": _l("the flow hands off"), "reply_cap": _l("too many bot replies in a row"),
    "out_of_hours_opening": _l("the team opened"), "post_flow_grace": _l("a flow just ended"),
    "flow_unavailable": _l("the flow is off or gone"), "flow_changed": _l("the flow was changed"),
    "flow_loop": _l("the flow looped"), "tag_unavailable": _l("the tag is gone"),
    "image_unavailable": _l("the image is gone"), "network_refused": _l("WhatsApp refused the message"),
    "internal_error": _l("an internal error (logged)"), "conversation_gone": _l("the conversation is gone"),
    "no_message": _l("no message is set"), "follow_up_off": _l("follow-ups are off"),
    "window_closed": _l("the 24-hour window is closed"),
    "contact_unreachable": _l("the contact has no WhatsApp number"), "no_agent": _l("no AI agent serves this number"),
    "plan_capability_missing": _l("the plan has no AI agents"),
    "provider_not_configured": _l("the AI provider is not set up"), "ai": _l("the AI agent hands off"),
    "auth": _l("the AI provider refused the key"), "rate_limited": _l("the AI provider is limiting requests"),
    "unavailable": _l("the AI provider is down or unreachable"), "timeout": _l("the AI provider took too long"),
    "bad_request": _l("the AI provider refused the request"),
    "not_found": _l("the AI provider does not know the model"), "bad_answer": _l("the AI provider answered nonsense"),
    "url_not_allowed": _l("the AI provider's address is not one the appliance may reach"),
    "ai_spend_cap_reached": _l("the billing group's AI spending limit is reached"),
    "agent_unavailable": _l("the flow's AI agent is gone, off or not on this number"),
    "customer_replied": _l("the customer answered first"),
    "newer_question": _l("the customer wrote again: one answer covers both"),
    "welcomed": _l("the welcome answered this first message"),
}
