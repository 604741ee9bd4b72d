"""Push's queue task: a notice sent to people's browsers and devices, after the commit that
decided it (listeners.py, the test of service.py, shift reminders)."""

from appliance.core import runtime
from appliance.core.queue import huey
from appliance.push import delivery


@huey.task()
def push_to_users(user_ids: list[str], notice: dict) -> dict:
    return delivery.send(runtime.get().db, user_ids, notice)
