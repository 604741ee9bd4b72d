"""The numbers' quality rating, kept current: the network's `phone_number_quality_update` webhook
says that something changed for a number of the account (FLAGGED, UNFLAGGED, a messaging-limit
UPGRADE or DOWNGRADE) without the rating itself, so a task reads the account's numbers from the
Graph API after the delivery is stored, writes each rating that changed, and announces it
(`quality.changed {phoneNumberId, from, to, event}`: webhooks, the console's number page)."""

from __future__ import annotations

import logging

from sqlmodel import select

from appliance.core import clock, events, runtime
from appliance.graph_api.client import GraphError
from appliance.phone_numbers.models import PhoneNumber
from appliance.wabas import service
from appliance.wabas.models import BusinessAccount
from appliance.wabas.network import graph_client

log = logging.getLogger(__name__)
QUALITY_RATINGS = ("GREEN", "YELLOW", "RED", "UNKNOWN")


def refresh(waba_pk: str, event: str | None = None) -> int:
    """Read the account's numbers from the network (no transaction open meanwhile) and store the
    ratings that changed; answers how many changed. Raises the network's refusal (the task,
    tasks.py, tries again)."""
    database = runtime.get().db
    with database.unit_of_work(write=False) as session:
        account = session.get(BusinessAccount, waba_pk)
        if account is None or account.disconnected_at is not None:
            return 0
        token, waba_id = service.credentials(account)[0], account.waba_id
    try:
        items = graph_client().list_phone_numbers(token, waba_id)
    except GraphError as error:
        log.warning("quality of account %s not read: %s", waba_pk, error)
        raise
    ratings = {str(item.get("id")): item.get("quality_rating") for item in items if item.get("quality_rating")}
    changed = 0
    with database.unit_of_work(write=True) as session:
        for number in session.exec(select(PhoneNumber).where(PhoneNumber.waba_pk == waba_pk,
                                                             PhoneNumber.disconnected_at.is_(None))).all():
            rating = ratings.get(number.phone_number_id)
            if rating is None or rating == number.quality_rating:
                continue
            previous, number.quality_rating, number.updated_at = number.quality_rating, rating, clock.now()
            session.add(number)
            events.emit(session, events.QUALITY_CHANGED, organization_id=number.organization_id,
                        phoneNumberId=number.id, **{"from": previous, "to": rating}, event=event)
            changed += 1
    return changed
