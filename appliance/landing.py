"""The landing page at / for whoever opens the appliance's address in a browser, and the language
switch every layout links to."""

from flask import Blueprint, redirect, request, url_for

from appliance.http.api import public
from appliance.http.browser import safe_next
from appliance.core.i18n import Words, _l
from appliance.http.pages import choose_language, render_page
from appliance.http.unit_of_work import db_session
from appliance.users import service as users_service

home = Blueprint("home", __name__)

TEXTS = Words("home", {
    "title": _l("It is running"), "intro": _l("Agents answer customers in the inbox; local systems use the REST API."),
    "inbox": _l("Inbox"), "integrations": _l("Integrations"), "sign_in": _l("Sign in"), "sign_out": _l("Sign out"),
    "docs": _l("API documentation (Swagger UI, offline)"), "health": _l("Health"),
})


@home.get("/")
@public
def landing():
    """The first run leads to /setup (until somebody has an account); later, signed-in people go
    to the console, and visitors see what is here."""
    if not users_service.anyone_exists(db_session()):
        return redirect(url_for("console_pages.setup"))
    return render_page("home.html", TEXTS)


@home.get("/language/<lang>")
@public  # a preference kept in the browser's session, for signed-in people and visitors alike
def language(lang):
    choose_language(lang)
    return redirect(safe_next(request.args.get("next"), default="/"))
