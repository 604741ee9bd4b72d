"""Registers the reminders' minute check with the queue."""

from appliance.shift_reminders import reminders  # noqa: F401
