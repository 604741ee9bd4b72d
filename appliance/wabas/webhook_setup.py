"""What Meta needs to deliver an organization's webhooks, made right the first time, and what Meta
last did with it (`webhook_setups`):

- one verify token per organization, made the first time anyone asks and stable until rotated, so
  the token pasted into Meta's app dashboard stays good whatever page is reloaded;
- `GET /webhooks/whatsapp` answers Meta's verification with it before any account is connected
  (an account connected with a verify token of its own is still answered for), and notes
  `verifiedAt`; any other token is 403 and counted (`refused_verifications`);
- `lastDeliveryAt` moves with each signed delivery accepted for the organization (in the delivery's
  own transaction), `lastRejectedAt` with each refused for its numbers (bad signature: written at
  most once a second per organization, so a flood of forged deliveries is not a flood of writes).

Deliveries are signed with the app secret, never the verify token: rotating the token changes only
what the next verification must carry.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from appliance.core import clock, crypto, runtime
from appliance.core.actor import OrgActor
from appliance.installation import public_address
from appliance.wabas.models import BusinessAccount, WebhookSetup

CALLBACK_PATH = "/webhooks/whatsapp"
REJECTION_WRITE_SECONDS = 1.0

_lock = threading.Lock()
_refused_verifications = 0
_rejections_written: dict[str, float] = {}  # organization id -> monotonic time of its last write


@dataclass(frozen=True)
class WebhookSetupView:
    callback_url: str
    verify_token: str
    verified_at: datetime | None
    last_delivery_at: datetime | None
    last_rejected_at: datetime | None


def _made(session: Session, organization_id: str) -> WebhookSetup:
    setup = session.get(WebhookSetup, organization_id)
    if setup is None:
        setup = WebhookSetup(organization_id=organization_id, created_at=clock.now(), verify_token_sealed="",
                             verify_token_hash="")
        _new_token(setup)
        session.add(setup)
        session.flush()
    return setup


def _new_token(setup: WebhookSetup) -> str:
    token = crypto.random_token(24)
    keyring = runtime.get().keyring
    setup.verify_token_sealed, setup.verify_token_hash = keyring.seal(token), keyring.token_hash(token)
    return token


def _view(setup: WebhookSetup) -> WebhookSetupView:
    return WebhookSetupView(callback_url=public_address.url(CALLBACK_PATH),
                            verify_token=runtime.get().keyring.unseal(setup.verify_token_sealed),
                            verified_at=setup.verified_at, last_delivery_at=setup.last_delivery_at,
                            last_rejected_at=setup.last_rejected_at)


def read_or_make(database, *, actor: OrgActor) -> WebhookSetupView:
    """The organization's setup for a reading request, in units of its own: read, or made (with its
    token) in a short write the first time, so a page or route that shows it stays a reader (no
    write lock for every view of it, and none while its request reads)."""
    with database.unit_of_work(write=False) as session:
        setup = session.get(WebhookSetup, actor.organization_id)
        if setup is not None:
            return _view(setup)
    try:
        with database.unit_of_work(write=True) as session:
            return _view(_made(session, actor.organization_id))
    except IntegrityError:  # another request made it a moment ago
        with database.unit_of_work(write=False) as session:
            return _view(session.get(WebhookSetup, actor.organization_id))


def do_read(session: Session, *, actor: OrgActor) -> WebhookSetupView:
    """The organization's setup, in a writing request's unit (made there the first time)."""
    return _view(_made(session, actor.organization_id))


def do_rotate(session: Session, *, actor: OrgActor) -> WebhookSetupView:
    """A new verify token; the old one stops verifying at once (Meta must be given the new one),
    and `verifiedAt` is cleared until Meta verifies with it."""
    setup = _made(session, actor.organization_id)
    _new_token(setup)
    setup.rotated_at, setup.verified_at = clock.now(), None
    session.flush()
    return _view(setup)


def organization_token(session: Session, organization_id: str) -> str:
    """The verify token an account connected without one of its own uses (the organization's)."""
    return runtime.get().keyring.unseal(_made(session, organization_id).verify_token_sealed)


def check_verification(database, *, mode: str | None, token: str, challenge: str) -> bool:
    """Meta's verification (`hub.mode=subscribe` with a `hub.challenge` to echo): True, and
    `verifiedAt` noted, when `token` is an organization's verify token or a connected account's
    own; else False, counted. Looked up in a reading unit first: a wrong token never waits for the
    write lock."""
    if mode != "subscribe" or not 0 < len(token) <= 200 or not 0 < len(challenge) <= 200:
        return _refused()
    token_hash = runtime.get().keyring.token_hash(token)
    with database.unit_of_work(write=False) as session:
        organization_id = session.exec(select(WebhookSetup.organization_id)
                                       .where(WebhookSetup.verify_token_hash == token_hash)).first()
        if organization_id is None:
            organization_id = session.exec(select(BusinessAccount.organization_id).where(
                BusinessAccount.verify_token_hash == token_hash, BusinessAccount.disconnected_at.is_(None))).first()
    if organization_id is None:
        return _refused()
    with database.unit_of_work(write=True) as session:
        _made(session, organization_id).verified_at = clock.now()
    return True


def _refused() -> bool:
    global _refused_verifications
    with _lock:
        _refused_verifications += 1
    return False


def refused_verifications() -> int:
    """Verifications refused since the process started (a wrong token, or no token at all)."""
    return _refused_verifications


def note_delivery(session: Session, organization_ids: set[str]) -> None:
    """A signed delivery was accepted for these organizations (in its own transaction)."""
    now = clock.now()
    updated = session.execute(update(WebhookSetup).where(WebhookSetup.organization_id.in_(organization_ids))
                              .values(last_delivery_at=now)).rowcount
    if updated < len(organization_ids):  # an organization that never asked for its setup
        for organization_id in organization_ids:
            _made(session, organization_id).last_delivery_at = now


def note_rejection(database, organization_ids: set[str]) -> None:
    """A delivery for these organizations' numbers was refused (its signature did not match)."""
    now = time.monotonic()
    with _lock:
        due = {org for org in organization_ids if now - _rejections_written.get(org, -1e9) >= REJECTION_WRITE_SECONDS}
        for org in due:
            _rejections_written[org] = now
        if len(_rejections_written) > 10_000:
            _rejections_written.clear()
    if not due:
        return
    with database.unit_of_work(write=True) as session:
        for organization_id in sorted(due):
            _made(session, organization_id).last_rejected_at = clock.now()


@dataclass(frozen=True)
class MetaActivity:
    """What Meta last did across the installation's organizations (the Go live page, the status)."""
    verified_at: datetime | None
    last_delivery_at: datetime | None
    last_rejected_at: datetime | None
    refused_verifications: int


def installation_activity(session: Session) -> MetaActivity:
    latest = session.exec(select(func.max(WebhookSetup.verified_at), func.max(WebhookSetup.last_delivery_at),
                                 func.max(WebhookSetup.last_rejected_at))).one()
    return MetaActivity(*latest, refused_verifications=_refused_verifications)
