"""Outbound webhooks as people and integrations manage them: create (the format found from the
URL when not given), list, change, delete, reveal the secret, send a test, read the delivery log
and send one delivery again. Fanning events out is fanout.py's; delivering them, sender.py's.

A key limited to some numbers manages only webhooks scoped to those numbers: it cannot create one
that hears every number (its numbers are the scope when it names none)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from urllib.parse import urlsplit

from sqlmodel import Session, select

from appliance.core import clock, pagination, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Forbidden, Invalid, NotFound
from appliance.core.ids import new_id
from appliance.installation import addresses
from appliance.outbound_webhooks import deliveries, envelopes, tasks
from appliance.outbound_webhooks.models import (DELIVERED, FAILED, PENDING, RETRYING, OutboundWebhook,
                                                WebhookAttempt, WebhookDelivery)

AGENT_STATUSES = ("ONLINE", "LUNCH", "BREAK", "MEETING", "TRAINING", "OFFLINE")  # OFFLINE: the shift ended
THRESHOLD_RANGE, DEFAULT_THRESHOLD = (1, 1440), 2
MAX_WEBHOOKS = 50  # an organization's; each event is written once per matching webhook
DELIVERY_FILTERS = (PENDING, RETRYING, DELIVERED, FAILED)


def _invalid(field: str, message: str, code: str = "validation_failed") -> Invalid:
    return Invalid(message, code=code, errors={field: [message]})


def _check_url(url: str) -> str:
    """An address the appliance may post to (400 url_not_allowed otherwise: the installation's rule
    on addresses, installation/addresses.py). Called before the unit's first statement: the name is
    looked up, and no write lock waits for that."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        parts.port  # a bracketed host that is no address, or a port out of range, raises here too
    except ValueError:
        raise _invalid("url", "Give an http:// or https:// address with a host.", "invalid_url") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _invalid("url", "Give an http:// or https:// address with a host.", "invalid_url")
    if len(url) > 2000:
        raise _invalid("url", "The address is longer than 2,000 characters.", "invalid_url")
    return addresses.check_url(url, field="url")


def _check_events(names: list[str]) -> list[str]:
    unknown = [name for name in names if name not in envelopes.SUBSCRIBABLE]
    if unknown:
        raise _invalid("events", f"Unknown events: {', '.join(unknown)}. Known: {', '.join(envelopes.SUBSCRIBABLE)}.",
                       "unknown_event")
    if not names:
        raise _invalid("events", "Choose at least one event.")
    return list(dict.fromkeys(names))


def _check_rules(webhook: OutboundWebhook, given: dict) -> None:
    """The reference's rules between fields, on the webhook as it will be."""
    if given.get("unanswered_threshold_minutes") is not None:
        low, high = THRESHOLD_RANGE
        if envelopes.events.CONVERSATION_UNANSWERED not in webhook.events:
            raise _invalid("unansweredThresholdMinutes", "It applies only when events include conversation.unanswered.")
        if not low <= given["unanswered_threshold_minutes"] <= high:
            raise _invalid("unansweredThresholdMinutes", f"Between {low} and {high} minutes.")
    if webhook.agent_statuses and envelopes.events.AGENT_STATUS_CHANGED not in webhook.events:
        raise _invalid("agentStatuses", "It applies only when events include agent.status_changed.")


def _scope(session: Session, actor: OrgActor, phone_number_ids: list[str] | None) -> list[str]:
    ids = tenancy.check_ids_in_org(session, "phone_numbers", list(phone_number_ids or []), actor,
                                   field="phoneNumberIds")
    if actor.phone_number_pks:
        if not ids:
            return sorted(actor.phone_number_pks)  # the key hears its own numbers, not every one
        outside = [number for number in ids if number not in actor.phone_number_pks]
        if outside:
            raise Forbidden("This key may not use that phone number.", code="phone_number_not_allowed",
                            phoneNumberId=outside[0])
    return ids


def _visible(actor: OrgActor, webhook: OutboundWebhook) -> bool:
    return not actor.phone_number_pks or (
        bool(webhook.phone_number_ids) and set(webhook.phone_number_ids) <= set(actor.phone_number_pks))


def access_webhook(session: Session, *, actor: OrgActor, webhook_id: str) -> OutboundWebhook:
    return tenancy.access_in_org(session, OutboundWebhook, webhook_id, actor, what="webhook", code="webhook_not_found",
                                 usable=lambda w: _visible(actor, w))


def list_webhooks(session: Session, *, actor: OrgActor) -> list[OutboundWebhook]:
    rows = session.exec(select(OutboundWebhook).where(OutboundWebhook.organization_id == actor.organization_id)
                        .order_by(OutboundWebhook.created_at, OutboundWebhook.id)).all()
    return [w for w in rows if _visible(actor, w)]


def do_create(session: Session, *, actor: OrgActor, url: str, events: list[str], format: str | None = None,
              unanswered_threshold_minutes: int | None = None, phone_number_ids: list[str] | None = None,
              agent_statuses: list[str] | None = None) -> OutboundWebhook:
    url = _check_url(url)
    count = len(session.exec(select(OutboundWebhook.id).where(
        OutboundWebhook.organization_id == actor.organization_id)).all())
    if count >= MAX_WEBHOOKS:
        raise Conflict(f"An organization has at most {MAX_WEBHOOKS} webhooks.", code="webhook_limit_reached")
    now = clock.now()
    webhook = OutboundWebhook(
        organization_id=actor.organization_id, url=url, events=_check_events(events),
        format=format or envelopes.detect_format(url),
        unanswered_threshold_minutes=unanswered_threshold_minutes or DEFAULT_THRESHOLD,
        phone_number_ids=_scope(session, actor, phone_number_ids), agent_statuses=list(dict.fromkeys(agent_statuses or [])),
        secret_sealed=runtime.get().keyring.seal(envelopes.new_secret()), created_by_user_id=actor.user_id,
        created_at=now, updated_at=now)
    _check_rules(webhook, {"unanswered_threshold_minutes": unanswered_threshold_minutes})
    session.add(webhook)
    session.flush()
    return webhook


def do_update(session: Session, *, actor: OrgActor, webhook_id: str, **changes) -> OutboundWebhook:
    url = _check_url(changes["url"]) if "url" in changes else None
    webhook = access_webhook(session, actor=actor, webhook_id=webhook_id)
    if url is not None:
        webhook.url = url
    if "events" in changes:
        webhook.events = _check_events(changes["events"])
    if changes.get("format"):
        webhook.format = changes["format"]
    if changes.get("unanswered_threshold_minutes") is not None:
        webhook.unanswered_threshold_minutes = changes["unanswered_threshold_minutes"]
    if "phone_number_ids" in changes:
        webhook.phone_number_ids = _scope(session, actor, changes["phone_number_ids"])
    if "agent_statuses" in changes:
        webhook.agent_statuses = list(dict.fromkeys(changes["agent_statuses"] or []))
    if "active" in changes and changes["active"] != webhook.active:
        webhook.active = changes["active"]
        if webhook.active:  # turned on again by a person: a fresh start
            webhook.disabled_reason, webhook.failure_count, webhook.failing_since = None, 0, None
            webhook.owner_notified_at = None
            tasks.wake_after_commit(session)
    _check_rules(webhook, changes)
    webhook.updated_at = clock.now()
    session.add(webhook)
    session.flush()
    return webhook


def do_delete(session: Session, *, actor: OrgActor, webhook_id: str) -> None:
    session.delete(access_webhook(session, actor=actor, webhook_id=webhook_id))


def reveal_secret(session: Session, *, actor: OrgActor, webhook_id: str) -> dict:
    webhook = access_webhook(session, actor=actor, webhook_id=webhook_id)
    return {"secret": runtime.get().keyring.unseal(webhook.secret_sealed)}


def secret_of(webhook: OutboundWebhook) -> str:
    return runtime.get().keyring.unseal(webhook.secret_sealed)


def do_send_test(session: Session, *, actor: OrgActor, webhook_id: str) -> WebhookDelivery:
    """A webhook.test delivery to this webhook alone, now (also while it is off: it is how a person
    checks the receiver before turning it on)."""
    webhook = access_webhook(session, actor=actor, webhook_id=webhook_id)
    now, event_id = clock.now(), new_id()
    data = {"webhookId": webhook.id, "message": "This is a test event. Verify its signature with the webhook's secret."}
    delivery = WebhookDelivery(
        webhook_id=webhook.id, organization_id=webhook.organization_id, event_id=event_id,
        event_type=envelopes.WEBHOOK_TEST, status=PENDING, next_attempt_at=now, created_at=now,
        request_body=envelopes.body(webhook.format, event_id=event_id, event_type=envelopes.WEBHOOK_TEST,
                                    created_at=now, organization_id=webhook.organization_id, data=data,
                                    locale=deliveries.organization_locale(session, webhook.organization_id)))
    session.add(delivery)
    session.flush()
    tasks.wake_after_commit(session)
    return delivery


# The delivery log -----------------------------------------------------------------------------------

def list_deliveries(session: Session, *, actor: OrgActor, webhook_id: str, take: int, cursor: str | None,
                    status: str | None = None, event_type: str | None = None) -> pagination.Page:
    """Newest first."""
    webhook = access_webhook(session, actor=actor, webhook_id=webhook_id)
    query = select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook.id)
    if status:
        query = query.where(WebhookDelivery.status == status)
    if event_type:
        query = query.where(WebhookDelivery.event_type == event_type)
    return pagination.paginate(session, query, key=[WebhookDelivery.id], take=take, cursor=cursor)


def access_delivery(session: Session, *, actor: OrgActor, webhook_id: str, delivery_id: str) -> WebhookDelivery:
    webhook = access_webhook(session, actor=actor, webhook_id=webhook_id)
    delivery = session.get(WebhookDelivery, delivery_id)
    if delivery is None or delivery.webhook_id != webhook.id:
        raise NotFound("No delivery with this id for this webhook.", code="delivery_not_found")
    return delivery


def get_delivery(session: Session, *, actor: OrgActor, webhook_id: str, delivery_id: str) -> SimpleNamespace:
    """The delivery with its attempts (`attempts`, oldest first)."""
    delivery = access_delivery(session, actor=actor, webhook_id=webhook_id, delivery_id=delivery_id)
    return with_attempts(session, [delivery])[0]


def with_attempts(session: Session, deliveries: list[WebhookDelivery]) -> list[SimpleNamespace]:
    """The deliveries, each with its attempts (`attempts`, oldest first), read in one query."""
    attempts: dict[str, list[WebhookAttempt]] = {d.id: [] for d in deliveries}
    if attempts:
        for attempt in session.exec(select(WebhookAttempt).where(WebhookAttempt.delivery_id.in_(list(attempts)))
                                    .order_by(WebhookAttempt.number, WebhookAttempt.id)).all():
            attempts[attempt.delivery_id].append(attempt)
    return [SimpleNamespace(**d.model_dump(), attempts=attempts[d.id]) for d in deliveries]


def do_retry_delivery(session: Session, *, actor: OrgActor, webhook_id: str, delivery_id: str) -> WebhookDelivery:
    """Send this delivery again now: one that failed, or one delivered that the receiver lost (it
    comes with the same webhook-id, so a receiver that keeps ids drops a duplicate)."""
    delivery = access_delivery(session, actor=actor, webhook_id=webhook_id, delivery_id=delivery_id)
    if delivery.in_flight_since is not None:
        raise Conflict("An attempt of this delivery is in progress.", code="delivery_in_progress")
    delivery.status, delivery.next_attempt_at = RETRYING, clock.now()
    session.add(delivery)
    session.flush()
    tasks.wake_after_commit(session)
    return delivery


def health(webhook: OutboundWebhook, now: datetime | None = None) -> str:
    """ok | failing (no success for a day) | disabled (turned off: by a person, or by a 410)."""
    if not webhook.active:
        return "disabled"
    since = webhook.failing_since
    if since is not None and ((now or clock.now()) - since).total_seconds() >= 86400:
        return "failing"
    return "ok"
