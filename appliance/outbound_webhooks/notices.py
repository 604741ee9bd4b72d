"""Telling a person that their webhook has failed for a day: one mail to whoever created it (the
organization's owner when that person is gone), with the last answer and a link to the log."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from appliance.mail import service as mail_service
from appliance.organizations.models import Organization
from appliance.organizations.zones import zone_named
from appliance.outbound_webhooks.models import OutboundWebhook, WebhookDelivery
from appliance.users.models import User
from appliance.installation import public_address


def tell_failing(session: Session, webhook: OutboundWebhook, now: datetime) -> None:
    organization = session.get(Organization, webhook.organization_id)
    person = session.get(User, webhook.created_by_user_id) if webhook.created_by_user_id else None
    person = person or session.get(User, organization.created_by)
    last = session.exec(select(WebhookDelivery.response_status, WebhookDelivery.error)
                        .where(WebhookDelivery.webhook_id == webhook.id, WebhookDelivery.attempt > 0)
                        .order_by(WebhookDelivery.id.desc())).first()
    status, error = last or (None, None)
    said = f"HTTP {status}" if status else (error or "none")
    base_url = public_address.base_url()
    mail_service.do_queue_mail(session, to=person.email, kind="webhook_failing", locale=person.locale,
                               name=person.name, organization=organization.name, url=webhook.url,
                               since=_in_zone(webhook.failing_since, organization.timezone), last=said,
                               link=f"{base_url}/console/{organization.id}/webhooks/{webhook.id}")
    webhook.owner_notified_at = now
    session.add(webhook)


def _in_zone(moment: datetime, timezone: str | None) -> str:
    """The moment as the organization's people read times, with its zone named (a mail is compared
    with the console's log, which shows the organization's zone)."""
    zone = zone_named(timezone)
    return f"{moment.astimezone(zone).strftime('%Y-%m-%d %H:%M')} ({zone.key})"
