"""The installation's status page (its administrators): GET /installation/status in words, with a
bar for the disk, read again every 15 seconds while open."""

from __future__ import annotations

from appliance.console.common import console_pages, render
from appliance.console.texts_go_live import GO_LIVE_TEXTS
from appliance.core import clock
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.unit_of_work import db_session
from appliance.installation import service as installation
from appliance.operations import service as operations_service

_PAGE, _ACTIVE = "console/installation_status.html", "console_pages.installation_status"


@console_pages.get("/console/status")
@signed_in_page
def installation_status():
    session = db_session()
    installation.check_admin(session, browser_actor().user_id, what="reads the installation's status")
    found = operations_service.read(session)
    disk = found["disk"]
    used_share = 1 - disk["free_bytes"] / disk["total_bytes"] if disk["total_bytes"] else 0
    return render(_PAGE, None, _ACTIVE, texts=GO_LIVE_TEXTS, state=found, used_share=used_share,
                  uptime_seconds=int((clock.now() - found["started_at"]).total_seconds()))
