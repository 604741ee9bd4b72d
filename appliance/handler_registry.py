"""Imports every tasks.py and listeners.py, so the queue's consumer knows every task and the outbox's
dispatcher every listener (as model_registry.py does the tables; tests/core/test_layers.py checks
that none is left out)."""

from appliance.core import listeners as core_listeners, tasks as core_tasks  # noqa: F401
from appliance.live import listeners as live_listeners  # noqa: F401
from appliance.sandbox import listeners as sandbox_listeners  # noqa: F401
from appliance.agenda import tasks as agenda_tasks  # noqa: F401
from appliance.attendance import tasks as attendance_tasks  # noqa: F401
from appliance.auth import listeners as auth_listeners, tasks as auth_tasks  # noqa: F401
from appliance.backups import tasks as backups_tasks  # noqa: F401
from appliance.billing import tasks as billing_tasks  # noqa: F401
from appliance.einvoicing import tasks as einvoicing_tasks  # noqa: F401
from appliance.bots import listeners as bots_listeners, tasks as bots_tasks  # noqa: F401
from appliance.broadcasts import listeners as broadcasts_listeners, tasks as broadcasts_tasks  # noqa: F401
from appliance.conversations import tasks as conversations_tasks  # noqa: F401
from appliance.knowledge import tasks as knowledge_tasks  # noqa: F401
from appliance.mail import tasks as mail_tasks  # noqa: F401
from appliance.messages import listeners as messages_listeners, tasks as messages_tasks  # noqa: F401
from appliance.orders import listeners as orders_listeners  # noqa: F401
from appliance.outbound_webhooks import listeners as webhooks_listeners, tasks as webhooks_tasks  # noqa: F401
from appliance.push import listeners as push_listeners, tasks as push_tasks  # noqa: F401
from appliance.shift_reminders import tasks as shift_reminders_tasks  # noqa: F401
from appliance.surveys import listeners as surveys_listeners, tasks as surveys_tasks  # noqa: F401
from appliance.wabas import tasks as wabas_tasks  # noqa: F401
