"""The daily backup: looked at every minute by the queue's scheduler; the backup itself runs in its
own thread (service._Maker), so no queue worker waits a minute on it."""

import logging

from huey import crontab

from appliance.backups import service
from appliance.core import clock, runtime
from appliance.core.errors import Conflict
from appliance.core.queue import huey

log = logging.getLogger(__name__)


@huey.periodic_task(crontab(minute="*"))
def take_daily_backup() -> None:
    rt = runtime.get()
    with rt.db.unit_of_work(write=True) as session:
        if not service.scheduled_due(session, rt.settings, clock.now()):
            return
        try:
            row, _key = service.start(session, kind=service.SCHEDULED, user_id=None)
        except Conflict:
            log.info("the daily backup waits: another backup is being made")
            return
        log.info("daily backup %s %s", row.id, row.status.lower())
