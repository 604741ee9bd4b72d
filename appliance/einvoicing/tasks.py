"""E-invoices the provider did not answer, tried again each minute when their time has come."""

from huey import crontab

from appliance.core import runtime
from appliance.core.queue import huey
from appliance.einvoicing import service


@huey.periodic_task(crontab(minute="*"))
def einvoices_minute_check() -> None:
    service.retry_due(runtime.get().db)
