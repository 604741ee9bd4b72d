"""`broadcast.updated`: a campaign's status changed (`change: status`) or a reply was counted
(`replied`). The campaign's page follows it live (console/live.py); webhooks do not carry it.
(Its own module: the runner, the service and the listeners all say it.)"""

from __future__ import annotations

from sqlmodel import Session

from appliance.broadcasts.models import Broadcast
from appliance.core import events


def announce(session: Session, *, organization_id: str, broadcast_id: str, phone_number_pk: str, change: str,
             status: str | None = None) -> None:
    events.emit(session, events.BROADCAST_UPDATED, organization_id=organization_id, broadcastId=broadcast_id,
                phoneNumberId=phone_number_pk, change=change, **({"status": status} if status else {}))


def status_changed(session: Session, broadcast: Broadcast) -> None:
    announce(session, organization_id=broadcast.organization_id, broadcast_id=broadcast.id,
             phone_number_pk=broadcast.phone_number_pk, change="status", status=broadcast.status)
