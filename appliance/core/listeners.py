"""The outbox's dispatcher hears every commit that emitted events."""

from appliance.core import events, tasks

events.after_emitting_commit(tasks.wake_dispatcher)
