"""What the console's bot pages say (read over console/texts.py's)."""

from appliance.core.i18n import Words, _l

BOT_TEXTS = Words("console_bot", {
    "bot_title": _l("Bot"),
    "bot_intro": _l("The bot answers customers when people can't: a welcome, your rules, messages out of hours, and "
                    "a hand-off to a person when asked. Every decision it makes is logged."),
    "numbers_title": _l("Numbers"),
    "no_numbers": _l("Connect a WhatsApp number first (or try the sandbox): each number has its own bot."),
    "on": _l("on"), "off": _l("off"), "settings": _l("Settings"), "healthy": _l("ready"),
    "problems_title": _l("What keeps it from working"), "turn_on": _l("Turn on"), "turn_off": _l("Turn off"),
    "settings_title": _l("Bot of {number}"), "back_to_bot": _l("Bot"), "enabled": _l("The bot answers on this number"),
    "mode": _l("What it does"),
    "modes": {
        "OFF": _l("Nothing"), "RULES_ONLY": _l("Rules and messages"),
        "RULES_PLUS_AI_FALLBACK": _l("Rules, then an AI agent"), "AI_AGENT": _l("An AI agent"),
    },
    "mode_hint": _l("The AI modes answer with the number's default AI agent (Bot → AI agents)."),
    "ai_title": _l("AI"),
    "intent_classifier": _l("Sort conversations by topic (intent classifier)"),
    "intent_classifier_hint": _l("The default agent's model reads the customer's first words and gives the "
                                 "conversation to the agent whose route tags name its topic; the topic becomes the "
                                 "conversation's tag."),
    "knowledge_top_k": _l("Passages the AI reads per question"),
    "knowledge_min_similarity": _l("Least similarity (0–1)"), "protected_values": _l("Never say these (one per line)"),
    "protected_values_hint": _l("Account numbers, keys, private phones: the bot cuts them out of anything it would "
                                "send."),
    "follow_up_title": _l("Follow-ups"), "follow_up_enabled": _l("Nudge customers who stop answering the bot"),
    "follow_up_after": _l("Nudge after (minutes)"), "follow_up_close_after": _l("Close after another (minutes)"),
    "follow_up_mode": _l("Who writes the nudge"),
    "follow_up_modes": {"TEXT": _l("This message"), "AI": _l("The AI agent")}, "follow_up_message": _l("Nudge message"),
    "follow_up_message_hint": _l("With the AI agent writing, this is sent if the AI fails."),
    "follow_up_close_message": _l("Farewell when closing (empty: close without one)"), "timing": _l("Timing"),
    "debounce": _l("Wait before answering (seconds)"),
    "debounce_hint": _l("Customers often write in several short messages: the bot answers them together."),
    "pace": _l("Pace"),
    "paces": {"INSTANTANEO": _l("At once"), "NATURAL": _l("Like a person typing"), "PAUSADO": _l("Calmly")},
    "messages": _l("Messages"), "welcome": _l("Welcome a new conversation"),
    "out_of_hours": _l("Say when you are closed"),
    "out_of_hours_hint": _l("Sent once per closed period, by the organization's business hours."),
    "fallback": _l("When no rule matches"), "disclosure": _l("Disclosure (sent once, before the bot's first reply)"),
    "disclosure_hint": _l("For example: “You are talking with Sol's assistant.” Empty: none."),
    "handoff_title": _l("Hand-off to a person"), "handoff_keywords": _l("Words that ask for a person"),
    "handoff_keywords_hint": _l("Separated by commas: asesor, humano, persona."),
    "handoff_message": _l("Message when handing off (empty: none)"),
    "reply_cap": _l("Bot replies per contact before handing off (0: no cap)"), "reply_window": _l("…within (minutes)"),
    "save": _l("Save"), "rules_title": _l("Rules"),
    "rules_intro": _l("When a customer's message has these words, the bot replies and/or acts. Case and accents do "
                      "not matter; whole words only. The first rule in the list wins."),
    "no_rules": _l("No rules yet. Start with your opening hours, prices or address."), "new_rule": _l("New rule"),
    "rule_name": _l("Name"), "keywords": _l("Words"),
    "keywords_hint": _l("Separated by commas: horario, abren, cierran."), "match_type": _l("Match"),
    "match_types": {
        "CONTAINS": _l("The message contains them"), "EXACT": _l("The whole message"),
        "STARTS_WITH": _l("The message starts with them"),
    },
    "reply": _l("Reply"), "action": _l("And then"),
    "actions": {
        "NONE": _l("Nothing more"), "HANDOFF": _l("Hand off to a person"), "START_FLOW": _l("Start a flow"),
        "ADD_TAG": _l("Add a tag"), "CLOSE": _l("Close the conversation"),
    },
    "tag": _l("Tag"), "no_tag": "—", "priority": _l("Order (lower first)"), "rule_enabled": _l("Active"),
    "all_numbers": _l("every number"), "edit": _l("Edit"), "delete": _l("Delete"),
    "confirm_delete_rule": _l("Delete this rule?"), "back_to_rules": _l("All rules"), "rule_title": _l("Rule"),
    "activity_link": _l("What the bot did"), "flows_title": _l("Flows"), "flow": _l("Flow (for Start a flow)"),
    "images_title": _l("Images"), "services_title": _l("Services and prices"), "knowledge_title": _l("Knowledge base"),
    "ai_agents_title": _l("AI agents"), "image": _l("Image sent with the reply"), "no_image": "—",
    "done": {
        "bot_saved": _l("Saved. The bot works with these settings from the next message."),
        "bot_on": _l("The bot is on for this number."), "bot_off": _l("The bot is off for this number."),
        "rule_created": _l("Rule created."), "rule_saved": _l("Rule saved."), "rule_deleted": _l("Rule deleted."),
    },
    "errors": {"plan_capability_missing": _l("Your plan does not include this function.")},
})
