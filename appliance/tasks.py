"""Imports every module that defines tasks or listeners, so the consumer and the dispatcher know them."""

from appliance.core import events  # noqa: F401  (outbox dispatch tasks)
from appliance.auth import listeners, tasks as auth_tasks  # noqa: F401
from appliance.broadcasts import listeners as broadcasts_listeners, runner as broadcasts_runner  # noqa: F401
from appliance.bots import listeners as bots_listeners, runner as bots_runner  # noqa: F401
from appliance.conversations import tasks as conversations_tasks  # noqa: F401
from appliance.knowledge import tasks as knowledge_tasks  # noqa: F401
from appliance.mail import tasks as mail_tasks  # noqa: F401
from appliance.messages import listeners as messages_listeners, tasks as messages_tasks  # noqa: F401
from appliance.sandbox import listeners as sandbox_listeners  # noqa: F401
from appliance.outbound_webhooks import fanout, sender as webhooks_sender, unanswered  # noqa: F401
from appliance.push import delivery as push_delivery, listeners as push_listeners  # noqa: F401
from appliance.attendance import tasks as attendance_tasks  # noqa: F401
from appliance.shift_reminders import tasks as shift_reminders_tasks  # noqa: F401
from appliance.orders import listeners as orders_listeners  # noqa: F401
from appliance.surveys import answers as surveys_answers, closing as surveys_closing  # noqa: F401
from appliance.agenda import sync as agenda_sync  # noqa: F401
from appliance.backups import tasks as backups_tasks  # noqa: F401
