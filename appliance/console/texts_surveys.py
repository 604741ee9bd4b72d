"""What the console's survey pages say."""

from appliance.core.i18n import Words, _l, _lp

SURVEY_TEXTS = Words("console_surveys", {
    "surveys_title": _l("Surveys"), "results_tab": _l("Results"), "settings_tab": _l("Settings"),
    "surveys_intro": _l("After a conversation closes, customers are asked how it went: one tap on a button. Scores "
                        "count question 1: its first option is the best."),
    "off_note": _l("Surveys are off: nobody is asked yet."), "turn_on": _l("Turn them on in Settings"),
    "from": _l("From"), "to": _l("To"), "show": _l("Show"), "sent": _lp("console_surveys.sent", "Sent"),
    "answered": _l("Answered"), "response_rate": _l("Response rate"), "average_score": _l("Average score"),
    "out_of": _l("out of {n}"), "expired": _l("Expired (no answer in time)"), "scheduled": _l("Waiting for their time"),
    "first_question": _l("Question 1"), "other_questions": _l("Other questions"), "by_agent": _l("By agent"),
    "agent": _l("Agent"), "nobody": _l("Nobody assigned"), "comments": _l("Comments"), "score": _l("Score"),
    "conversation": _l("Conversation"), "unsent": _l("Not sent"),
    "cancelled": _lp("console_surveys.cancelled", "Cancelled"),
    "no_results": _l("No surveys in these dates yet. They appear here once conversations close with surveys on."),
    "no_comments": _l("No comments in these dates."),
    "reasons": {
        "window_closed": _l("More than 24 hours since the customer's last message"),
        "cooldown": _l("Surveyed recently (cooldown)"), "audience": _l("Not the chosen audience"),
        "opted_out": _l("The contact opted out"), "disabled_number": _l("A number not surveyed"),
        "send_failed": _l("Sending failed"), "reopened": _l("The customer wrote again first"),
        "inactive": _l("Surveys were turned off"),
    },
    "settings_intro": _l("What customers are asked after a close, and when. The preview shows the messages as their "
                         "WhatsApp does."),
    "active": _l("Send surveys"), "delay_minutes": _l("Minutes after the close"),
    "delay_hint": _l("0 sends at once; at most 10,080 (a week)."), "audience": _l("Who is asked"),
    "audiences": {
        "ALL": _l("Every closed conversation"), "HUMAN": _l("Only when a person answered"),
        "BOT": _l("Only when the bot alone answered"),
    },
    "cooldown_days": _l("Not again to the same customer within (days)"),
    "answer_timeout_hours": _l("Wait for an answer (hours)"), "numbers": _l("Numbers"),
    "numbers_hint": _l("None ticked: every number."), "question": _l("Question {n}"), "question_text": _l("Text"),
    "options": _l("Options, one per line"),
    "options_hint_first": _l("Up to 3 (they are buttons), at most 20 characters each; the best first."),
    "options_hint_other": _l("Up to 10 (a list), at most 20 characters each; the best first. Leave the question "
                             "empty to skip it."),
    "ask_comment": _l("Then ask for a comment"), "comment_question": _l("Comment question"),
    "thanks_message": _l("Thanks message"), "save": _l("Save"), "preview": _l("Preview"),
    "customer_writes": _l("The customer writes a comment…"), "done": {"saved": _l("Survey settings saved.")},
})
