"""The console's blueprint with every section's pages registered: each module of the console adds its
routes to it (console/common.py makes it); blueprints.py adds it to PAGES."""

from appliance.console import (account, agenda, api_keys, attendance, attendance_setup, billing, einvoicing, hosting, products, bot, bot_ai, broadcasts, bot_flows, bot_knowledge, bot_library, bot_work,  # noqa: F401
                               contact_lists, contacts, link_pages, links, live, orders, surveys, mail_server, notifications, private_servers, numbers, organization, sandbox, setup, stickers, team,
                               templates, webchat, webhooks, whatsapp, go_live, installation_status, backups, home)
from appliance.console.common import console_pages

__all__ = ["console_pages"]
