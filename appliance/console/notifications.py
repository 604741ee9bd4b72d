"""My notifications: what I am pushed (the decided triggers, each on or off), the browsers and
phones that receive them (remove one), and a test. The switch itself lives in the inbox, where the
service worker is."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, render
from appliance.console.texts_notifications import NOTIFICATION_TEXTS
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.unit_of_work import db_session
from appliance.push import service as push_service
from appliance.push.models import TRIGGERS
from appliance.users import service as users_service

_ACTIVE = "console_pages.account"


@console_pages.get("/console/account/notifications")
@signed_in_page
def notifications():
    actor = browser_actor()
    session = db_session()
    return render("console/notifications.html", None, _ACTIVE, texts=NOTIFICATION_TEXTS, all_triggers=TRIGGERS,
                  chosen=push_service.preferences(session, actor.user_id), mine=push_service.list_mine(session, actor=actor),
                  done=request.args.get("done"), sent=request.args.get("n"))


@console_pages.post("/console/account/notifications")
@signed_in_page
def notifications_save():
    push_service.do_set_preferences(db_session(), actor=browser_actor(),
                                    triggers=[t for t in forms.checked("triggers") if t in TRIGGERS])
    return back("console_pages.notifications", "saved")


@console_pages.post("/console/account/notifications/<uuid:item_id>/remove")
@signed_in_page
def notifications_remove(item_id):
    push_service.do_remove_by_id(db_session(), actor=browser_actor(), item_id=str(item_id))
    return back("console_pages.notifications", "removed")


@console_pages.post("/console/account/notifications/test")
@signed_in_page
def notifications_test():
    actor = browser_actor()
    me = users_service.access_me(db_session(), actor=actor)
    sent = push_service.do_send_test(db_session(), actor=actor, locale=me.locale)
    return back("console_pages.notifications", "test_sent", n=sent["subscriptions"] + sent["devices"])
