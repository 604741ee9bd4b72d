"""Where Google sends the person back after its consent page (public: the signed `state` says for
which organization and person): the code becomes the stored connection, and the browser goes on to
the console's calendar page saying what happened. Not an API operation: a browser's redirect.

The browser that asked to connect (the console's form or the API's /connect) gets the state's
secret in a cookie of its own, sent back only to this address: the state works for it alone, and
once (agenda/provider.py)."""

from flask import Blueprint, after_this_request, redirect, request

from appliance.agenda import provider, tasks
from appliance.core import runtime
from appliance.core.errors import AppError
from appliance.http.api import public, writes_on_get
from appliance.http.unit_of_work import db_session

agenda_pages = Blueprint("agenda_pages", __name__)
STATE_COOKIE = "calendar_connect"


def _callback_path(organization_id: str) -> str:
    return f"/organizations/{organization_id}/agenda/calendar-provider/callback"


def begin_connect(actor) -> str:
    """Google's consent URL for this person, the state's secret left in this browser."""
    started = provider.start_connect(actor=actor)

    @after_this_request
    def keep_secret(response):
        response.set_cookie(STATE_COOKIE, started.browser_secret, max_age=provider.STATE_SECONDS,
                            path=_callback_path(actor.organization_id), secure=request.is_secure, httponly=True,
                            samesite="Lax")  # Lax: Google's redirect back is a top-level GET
        return response
    return started.url


@agenda_pages.get("/organizations/<uuid:org_id>/agenda/calendar-provider/callback")
@public
@writes_on_get  # the code becomes the stored connection
def calendar_callback(org_id):
    organization_id = str(org_id)
    code, error = request.args.get("code", "")[:2000], request.args.get("error", "")[:200]
    user_id = provider.use_state(runtime.get().db, organization_id, request.args.get("state", "")[:2000],
                                 request.cookies.get(STATE_COOKIE, "")[:200])
    if user_id is None:
        return _back(organization_id, "calendar_state_invalid", spent=False)  # another attempt's secret stays
    if error or not code:
        provider.do_record_refusal(db_session(), organization_id=organization_id, reason=f"Google: {error or 'no code'}")
        return _back(organization_id, "calendar_refused")
    try:
        tokens, account = provider.fetch_tokens(organization_id=organization_id, code=code)
    except AppError as refused:
        provider.do_record_refusal(db_session(), organization_id=organization_id, reason=str(refused))
        return _back(organization_id, "calendar_refused")
    provider.do_store_connection(db_session(), organization_id=organization_id, user_id=user_id, tokens=tokens,
                                 account=account)
    tasks.sync_after_commit(db_session())  # what is ahead goes to the new calendar now
    return _back(organization_id, "calendar_connected")


def _back(organization_id: str, done: str, *, spent: bool = True):
    """To the console's calendar page, saying what happened; a state used, its secret forgotten."""
    response = redirect(f"/console/{organization_id}/agenda/calendar?done={done}")
    if spent:
        response.delete_cookie(STATE_COOKIE, path=_callback_path(organization_id))
    return response
