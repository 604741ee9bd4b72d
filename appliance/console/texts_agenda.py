"""What the console's agenda pages say."""

from appliance.core.i18n import Words, _l

AGENDA_TEXTS = Words("console_agenda", {
    "agenda_title": _l("Agenda"), "tab_agenda": _l("Agenda"), "tab_calendar": _l("Calendar and feed"),
    "agenda_intro": _l("Your business's appointments. Free times come from your business hours, minus what is booked "
                       "and what your connected calendar has busy."),
    "day": _l("Day"), "week": _l("Week"), "today": _l("Today"), "previous": _l("Previous"), "next": _l("Next"),
    "book": _l("Book an appointment"), "title": _l("What"), "date": _l("Date"), "time": _l("Time"),
    "duration": _l("Minutes"), "notes": _l("Notes (optional)"), "book_button": _l("Book"),
    "free_slots": _l("Free times"), "minutes": _l("{n} min"), "no_slots": _l("No free time this day."),
    "no_hours": _l("Set your business hours (Organization) to see free times."),
    "busy_unknown": _l("Your calendar could not be asked for busy times; free times may include them."),
    "no_appointments": _l("Nothing booked."),
    "no_appointments_week": _l("Nothing booked this week. Book one from a day's page."),
    "statuses": {"BOOKED": _l("Booked"), "CANCELLED": _l("Cancelled"), "DONE": _l("Done")}, "mark_done": _l("Done"),
    "cancel": _l("Cancel"), "delete": _l("Delete"), "conversation": _l("Conversation"),
    "booked_by_bot": _l("booked by the AI agent"),
    "sync": {
        "pending": _l("Not in your calendar yet"), "failed": _l("Your calendar refused it"),
        "delete": _l("Being removed"),
    },
    "connected_as": _l("Connected to Google Calendar as {account}"), "not_connected": _l("No calendar connected."),
    "connect_hint": _l("Connect Google Calendar so appointments appear there and its busy times are not offered."),
    "manage_hint": _l("An owner or admin (who manages integrations) connects the calendar and makes the feed's "
                      "address."),
    "calendar_title": "Google Calendar", "connect": _l("Connect Google Calendar"), "disconnect": _l("Disconnect"),
    "push_enabled": _l("Put appointments in the calendar"),
    "block_busy_enabled": _l("Do not offer times the calendar has busy"), "save": _l("Save"),
    "last_sync": _l("Last change sent: {at}"), "last_error": _l("Last problem: {error}"),
    "not_available": _l("Google Calendar is not set up on this appliance: its administrator sets "
                        "APPLIANCE_GOOGLE_CLIENT_ID and APPLIANCE_GOOGLE_CLIENT_SECRET."),
    "feed_title": _l("Calendar feed (ICS)"),
    "feed_intro": _l("Subscribe to this address in Google Calendar, Apple Calendar or Outlook to see the agenda "
                     "there (read-only)."),
    "feed_none": _l("No feed address yet."),
    "feed_exists": _l("A feed address exists (made {at}). It is shown only when made; make a new one to see it (the "
                      "old one stops working)."),
    "feed_make": _l("Make a feed address"), "feed_new": _l("Make a new address"),
    "feed_shown_once": _l("Copy it now: it is shown only once."), "copy": _l("Copy"), "copied": _l("Copied"),
    "done": {
        "booked": _l("Appointment booked."), "cancelled": _l("Appointment cancelled."),
        "deleted": _l("Appointment deleted."), "marked_done": _l("Marked done."), "saved": _l("Saved."),
        "disconnected": _l("Calendar disconnected."), "calendar_connected": _l("Google Calendar connected."),
        "calendar_refused": _l("The calendar was not connected (see the last problem)."),
        "calendar_state_invalid": _l("That connection link expired or was not yours: connect again."),
    },
})
