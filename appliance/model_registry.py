"""Imports every table module once (the top of the house: core knows no domain), so that SQLModel's metadata is complete before use."""

from appliance.core import events, throttle  # noqa: F401
from appliance.http import idempotency  # noqa: F401
from appliance.users import models as users_models  # noqa: F401
from appliance.auth import models as auth_models  # noqa: F401
from appliance.mail import models as mail_models  # noqa: F401
from appliance.installation import models as installation_models  # noqa: F401
from appliance.backups import models as backups_models  # noqa: F401
from appliance.organizations import models as organizations_models  # noqa: F401
from appliance.roles import models as roles_models  # noqa: F401
from appliance.memberships import models as memberships_models  # noqa: F401
from appliance.api_keys import models as api_keys_models  # noqa: F401
from appliance.invitations import models as invitations_models  # noqa: F401
from appliance.oauth import models as oauth_models  # noqa: F401
from appliance.wabas import models as wabas_models  # noqa: F401
from appliance.phone_numbers import models as phone_numbers_models  # noqa: F401
from appliance.contacts import models as contacts_models  # noqa: F401
from appliance.tags import models as tags_models  # noqa: F401
from appliance.conversations import models as conversations_models  # noqa: F401
from appliance.messages import models as messages_models  # noqa: F401
from appliance.templates import models as templates_models  # noqa: F401
from appliance.whatsapp_flows import models as whatsapp_flows_models  # noqa: F401
from appliance.bots import models as bots_models  # noqa: F401
from appliance.team_tasks import models as team_tasks_models  # noqa: F401
from appliance.quick_replies import models as quick_replies_models  # noqa: F401
from appliance.services_catalog import models as services_catalog_models  # noqa: F401
from appliance.knowledge import models as knowledge_models  # noqa: F401
from appliance.ai_agents import models as ai_agents_models  # noqa: F401
from appliance.broadcasts import models as broadcasts_models  # noqa: F401
from appliance.outbound_webhooks import models as outbound_webhooks_models  # noqa: F401
from appliance.push import models as push_models  # noqa: F401
from appliance.attendance import models as attendance_models  # noqa: F401
from appliance.shift_reminders import models as shift_reminders_models  # noqa: F401
from appliance.chat_links import models as chat_links_models  # noqa: F401
from appliance.link_pages import models as link_pages_models  # noqa: F401
from appliance.orders import models as orders_models  # noqa: F401
from appliance.surveys import models as surveys_models  # noqa: F401
from appliance.agenda import models as agenda_models  # noqa: F401
