"""The installation's allowed private servers: the servers on this machine or the office network
that organizations' AI providers, webhooks, knowledge pages and push services may reach. Kept by
its administrator (as the mail server is); APPLIANCE_ALLOWED_PRIVATE_URLS, when set, wins and the
page shows it read-only."""

from __future__ import annotations

from flask import request

from appliance.console.common import back, console_pages, render
from appliance.console.texts_private_servers import PRIVATE_SERVER_TEXTS
from appliance.core.errors import AppError
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.unit_of_work import db_session
from appliance.installation import addresses
from appliance.installation import service as installation

_PAGE, _ACTIVE = "console/private_servers.html", "console_pages.private_servers"
MAX_TEXT = 10_000


def _page(error: AppError | None = None):
    session = db_session()
    installation.check_admin(session, browser_actor().user_id, what=installation.CHOOSES_PRIVATE_SERVERS)
    from_environment = addresses.from_environment()
    listed = (sorted(addresses.origin_text(o) for o in addresses.allowed_origins()) if from_environment
              else addresses.stored(session))
    text = request.form.get("origins", "")[:MAX_TEXT] if error is not None else "\n".join(listed)
    return render(_PAGE, None, _ACTIVE, error=error, texts=PRIVATE_SERVER_TEXTS, from_environment=from_environment,
                  listed=listed, text=text, done=request.args.get("done"))


@console_pages.get("/console/private-servers")
@signed_in_page
def private_servers():
    return _page()


@console_pages.post("/console/private-servers")
@signed_in_page
def private_servers_save():
    try:
        installation.check_save_private_servers(db_session(), user_id=browser_actor().user_id,
                                                 text=request.form.get("origins", "")[:MAX_TEXT])
    except AppError as error:
        return _page(error)
    return back(_ACTIVE, "private_servers_saved")
