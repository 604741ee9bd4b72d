"""Where Google sends the person back after its consent page (public: the signed `state` says for
which organization and person): the code becomes the stored connection, and the browser goes on to
the console's calendar page saying what happened. Not an API operation: a browser's redirect."""

from flask import Blueprint, redirect, request

from appliance.agenda import provider, sync
from appliance.core.errors import AppError
from appliance.http.api import public, writes_on_get
from appliance.http.unit_of_work import db_session

agenda_pages = Blueprint("agenda_pages", __name__)


@agenda_pages.get("/organizations/<uuid:org_id>/agenda/calendar-provider/callback")
@public
@writes_on_get  # the code becomes the stored connection
def calendar_callback(org_id):
    organization_id = str(org_id)
    page = f"/console/{organization_id}/agenda/calendar"
    code, error = request.args.get("code", "")[:2000], request.args.get("error", "")[:200]
    user_id = provider.state_user(organization_id, request.args.get("state", "")[:2000])
    if user_id is None:
        return redirect(f"{page}?done=calendar_state_invalid")
    if error or not code:
        provider.do_record_refusal(db_session(), organization_id=organization_id, reason=f"Google: {error or 'no code'}")
        return redirect(f"{page}?done=calendar_refused")
    try:
        tokens, account = provider.fetch_tokens(organization_id=organization_id, code=code)
    except AppError as refused:
        provider.do_record_refusal(db_session(), organization_id=organization_id, reason=str(refused))
        return redirect(f"{page}?done=calendar_refused")
    provider.do_store_connection(db_session(), organization_id=organization_id, user_id=user_id, tokens=tokens,
                                 account=account)
    sync.sync_after_commit(db_session())  # what is ahead goes to the new calendar now
    return redirect(f"{page}?done=calendar_connected")
