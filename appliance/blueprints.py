"""The one list of blueprints: API blueprints (in the order /docs shows them) and HTML pages."""

from appliance.api_keys.api import blp as api_keys
from appliance.attendance.api import blp as attendance
from appliance.auth.api import blp as auth, password_blp as password
from appliance.auth.pages import auth_pages
from appliance.bots.api import (activity_blp as bot_activity, blp as bot_config, flows_blp as bot_flows,
                                images_blp as bot_images, rules_blp as bot_rules)
from appliance.business_profiles.api import blp as business_profiles
from appliance.chat_links.api import blp as chat_links
from appliance.link_pages.api import blp as link_pages
from appliance.orders.api import blp as orders
from appliance.surveys.api import blp as surveys
from appliance.agenda.api import blp as agenda, feed_blp as agenda_feed
from appliance.link_pages.pages import link_pages_public
from appliance.agenda.pages import agenda_pages
from appliance.channels.whatsapp.api import blp as whatsapp_webhook
from appliance.contact_lists.api import blp as contact_lists
from appliance.contacts.api import blp as contacts
from appliance.conversations.api import blp as conversations
from appliance.health.api import blp as health
from appliance.invitations.api import accept_blp as invitation, blp as invitations
from appliance.inbox.pages import inbox_pages
from appliance.installation.api import blp as installation
from appliance.backups.api import blp as installation_backups
from appliance.billing.api import (blp as billing, by_body_blp as billing_by_body, hosted_blp as hosted_organizations,
                                  review_blp as payment_reviews)
from appliance.installation.pages import acme_pages
from appliance.catalog.api import blp as catalog
from appliance.einvoicing.api import blp as einvoicing
from appliance.operations.api import blp as installation_status
from appliance.operations.pages import metrics_pages
from appliance.invitations.pages import invitation_pages
from appliance.live.api import blp as live
from appliance.messages.api import blp as messages, thread_blp as conversation_messages
from appliance.memberships.api import blp as memberships, member_blp as membership
from appliance.oauth.api import blp as oauth, me_blp as oauth_authorizations
from appliance.oauth.pages import oauth_pages
from appliance.organizations.api import blp as organizations
from appliance.landing import home
from appliance.permissions.api import blp as permissions
from appliance.phone_numbers.api import blp as phone_numbers
from appliance.quick_replies.api import blp as quick_replies
from appliance.stickers.api import blp as stickers
from appliance.webchat.api import blp as webchat
from appliance.services_catalog.api import blp as bot_services
from appliance.knowledge.api import blp as bot_knowledge
from appliance.ai_agents.api import agents_blp as bot_agents, pin_blp as conversation_agent, providers_blp as bot_providers
from appliance.roles.api import blp as roles
from appliance.console.blueprint import console_pages
from appliance.tags.api import blp as tags
from appliance.team_tasks.api import blp as team_tasks
from appliance.broadcasts.api import blp as broadcasts
from appliance.outbound_webhooks.api import blp as webhooks_outbound
from appliance.push.api import blp as push
from appliance.shift_reminders.api import blp as shift_reminders
from appliance.templates.api import blp as templates
from appliance.users.api import blp as users
from appliance.wabas.api import blp as wabas, waba_blp as waba
from appliance.whatsapp_flows.api import blp as whatsapp_flows

BLUEPRINTS = (health, auth, users, password, organizations, memberships, membership, roles, invitations, invitation,
              permissions, api_keys, oauth, oauth_authorizations, wabas, waba, phone_numbers, business_profiles,
              templates, contacts, contact_lists, conversations, conversation_messages, tags, messages, live,
              whatsapp_flows, bot_config, bot_rules, bot_flows, bot_activity, bot_images, team_tasks, quick_replies,
              stickers, bot_services, bot_knowledge, bot_providers, bot_agents, conversation_agent, broadcasts, webhooks_outbound,
              push, attendance, shift_reminders, chat_links, link_pages, orders, surveys, agenda, agenda_feed,
              whatsapp_webhook, installation, installation_status, installation_backups, billing, billing_by_body,
              payment_reviews, hosted_organizations, catalog, einvoicing, webchat)
PAGES = (acme_pages, metrics_pages, home, auth_pages, invitation_pages, oauth_pages, inbox_pages, console_pages, link_pages_public, agenda_pages)
