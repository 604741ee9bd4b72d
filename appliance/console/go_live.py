"""Go live (the installation's administrators): the public address every link starts from, what
keeps people from using it, the ways to a public https address with the state of the two the
appliance runs itself (its HTTPS certificate, the tunnel), and what Meta last did."""

from __future__ import annotations

from flask import request

from appliance.console.common import back, console_pages, render
from appliance.console.texts_go_live import GO_LIVE_TEXTS
from appliance.core.errors import AppError
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.unit_of_work import db_session
from appliance.core import runtime
from appliance.installation import https, public_address, tunnel
from appliance.installation import service as installation
from appliance.wabas import webhook_setup

_PAGE, _ACTIVE = "console/go_live.html", "console_pages.go_live"
TAKES_THE_INSTALLATION_LIVE = "takes the installation live"


def _page(error: AppError | None = None):
    session = db_session()
    installation.check_admin(session, browser_actor().user_id, what=TAKES_THE_INSTALLATION_LIVE)
    address = public_address.state(session)
    typed = request.form.get("base_url", "")[:300] if error is not None else address.base_url
    settings = runtime.get().settings
    return render(_PAGE, None, _ACTIVE, error=error, texts=GO_LIVE_TEXTS, address=address, typed=typed,
                  meta=webhook_setup.installation_activity(session), done=request.args.get("done"),
                  tls=https.state(settings), tunnel=tunnel.state(settings))


@console_pages.get("/console/go-live")
@signed_in_page
def go_live():
    return _page()


@console_pages.post("/console/go-live")
@signed_in_page
def go_live_save():
    public_address.look_up(request.form.get("base_url", "")[:300])  # before the first statement: lookups take time
    try:
        user_id = installation.check_admin(db_session(), browser_actor().user_id, what=TAKES_THE_INSTALLATION_LIVE).id
        public_address.check_save(db_session(), user_id=user_id, address=request.form.get("base_url", "")[:2000])
    except AppError as error:
        return _page(error)
    https.address_changed()
    return back(_ACTIVE, "public_address_saved")
