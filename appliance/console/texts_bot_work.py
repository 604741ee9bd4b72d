"""What the console's pages of the bot at work say: flows, tasks, quick replies, the activity log
(read over console/texts.py's and the bot's own)."""

from appliance.bots.labels import KINDS, REASONS
from appliance.core.i18n import Words, _l, _lp, _ln

BOT_WORK_TEXTS = Words("console_bot_work", {
    "back_to_bot": _l("Bot"), "on": _l("on"), "off": _l("off"), "save": _l("Save"), "delete": _l("Delete"),
    "create": _l("Create"), "numbers_title": _l("Numbers"), "all_numbers": _l("every number if none is ticked"),
    "flows_title": _l("Flows"),
    "flows_intro": _l("A flow is a short guided conversation: messages, questions whose answers are saved on the "
                      "contact, buttons to choose from, and a hand-off to a person at the end. It starts when a "
                      "customer writes one of its words, or from a rule."),
    "no_flows": _l("No flows yet. Start from an example below and adapt it: it takes a minute."),
    "new_flow": _l("New flow"), "flow_name": _l("Name"), "trigger_keywords": _l("Words that start it"),
    "trigger_hint": _l("Separated by commas: cita, agendar. Empty: only a rule starts it."),
    "first_message": _l("Its first message"), "from_example": _l("Or start from an example"),
    "no_example": _l("— a blank flow —"), "flow_enabled": _l("Active (it answers customers)"),
    "steps_title": _l("Steps"),
    "steps_hint": _l("The flow starts at the first step. Each step says what comes next; buttons lead each to their "
                     "own step. The preview shows what the customer sees."),
    "step": _l("Step"), "step_id": _l("Id"), "step_type": _l("Kind"),
    "step_types": {
        "message": _l("Message"), "question": _l("Question (saves the answer)"), "buttons": _l("Buttons / list"),
        "set_tag": _l("Add a tag"), "handoff": _l("Hand off to a person"), "transfer_to_ai": _l("Pass to the AI agent"),
        "end": _l("End"),
    },
    "text": _l("Text"), "next": _l("Then"), "end_of_flow": _l("— the flow ends —"), "save_as": _l("Save the answer as"),
    "save_as_hint": _l("A contact attribute: nombre, correo."), "answer_check": _l("Check the answer"),
    "answer_checks": {
        "TEXT": _l("Any text"), "NUMBER": _l("A number"), "EMAIL": _l("An email"), "PHONE": _l("A phone number"),
        "DATE": _l("A date"),
    },
    "error_text": _l("If the answer does not pass"), "tag": _l("Tag"), "options": _l("Choices"),
    "options_hint": _l("Up to 3 show as buttons; 4 to 10 as a list. 20 characters each."), "option_title": _l("Choice"),
    "option_next": _l("leads to"), "remove_step": _l("Remove this step"), "add_step": _l("Add a step"),
    "add_step_hint": _l("Choose its kind and fill it in, then save."), "no_add": "—",
    "preview": _l("On the customer's phone"), "list_button": _l("See options"),
    "waits_answer": _l("Waits for the answer → {name}"), "hands_off": _l("Then a person takes over"),
    "ends": _l("The flow ends"), "sets_tag": _l("Adds the tag"), "to_ai": _l("The AI agent continues"),
    "ai_agent": _l("AI agent"), "ai_router": _l("The number's default (or the one its tags lead to)"),
    "confirm_delete_flow": _l("Delete this flow?"), "back_to_flows": _l("All flows"),
    "steps_count": _ln("{n} step", "{n} steps"),
    "tasks_title": _l("Tasks"),
    "tasks_intro": _l("Things the team must do: call a customer back, send a quote. The bot writes one when a "
                      "customer asks for a person while you are closed."),
    "no_tasks": _l("Nothing to do. Tasks appear here when the bot or a teammate writes one."),
    "open_tasks": _l("To do"), "done_tasks": _lp("console_bot_work.done_tasks", "Done"), "new_task": _l("New task"),
    "task_title": _l("What to do"), "task_detail": _l("Details"), "due": _l("By"), "mark_done": _l("Done"),
    "reopen": _l("Reopen"), "origins": {"USER": _l("a person"), "BOT": _l("the bot"), "API": _l("an integration")},
    "by": _l("by"), "open_conversation": _l("Open the conversation"), "quick_title": _l("Quick replies"),
    "quick_intro": _l("Answers the team writes often. In the inbox, type / and the shortcut to put one in the "
                      "message."),
    "no_quick": _l("No quick replies yet. Add your address, hours or bank details."),
    "new_quick": _l("New quick reply"), "shortcut": _l("Shortcut"),
    "shortcut_hint": _l("A slash and one word: /horario"), "quick_text": _l("Text"),
    "activity_title": _l("What the bot did"),
    "activity_intro": _l("Every decision of the bot, newest first: what it answered, when it stayed silent and why, "
                         "when it handed a conversation to a person."),
    "no_activity": _l("Nothing yet. Turn the bot on for a number and the decisions appear here."), "kind": _l("Kind"),
    "all_kinds": _l("all"), "filter": _lp("console_bot_work.filter", "Show"), "when": _l("When"),
    "conversation": _l("Conversation"), "older": _l("Older"),
    "kinds": KINDS, "reasons": REASONS,
    "reasons_title": _l("Why"),
    "done": {
        "flow_created": _l("Flow created. Review its steps and turn it on."), "flow_saved": _l("Flow saved."),
        "flow_deleted": _l("Flow deleted."), "task_created": _l("Task created."), "task_saved": _l("Task updated."),
        "task_deleted": _l("Task deleted."), "quick_created": _l("Quick reply created."),
        "quick_saved": _l("Quick reply saved."), "quick_deleted": _l("Quick reply deleted."),
    },
    "errors": {},
})
