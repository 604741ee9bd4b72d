"""The sandbox from the console, on any server: an organization asks for its simulated account
("Try the sandbox"), and plays its customer from the inbox. Sandbox mode's open control API is not
needed (and is closed on a real server): these routes are signed in and scoped to the organization."""

from __future__ import annotations

from flask import redirect, request, url_for

from appliance import sandbox
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor
from appliance.conversations import api as conversations_api
from appliance.core import runtime
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.unit_of_work import db_session
from appliance.sandbox import service as sandbox_service
from appliance.wabas import api as wabas_api


@console_pages.post("/console/<uuid:org_id>/sandbox")
@performs(wabas_api.BusinessAccounts.post)  # it connects the sandbox's simulated business account
@signed_in_page
def sandbox_try(org_id):
    actor = org_actor(org_id)
    sandbox_service.do_try_sandbox(db_session(), sandbox.new_account, actor=actor,
                                   webhook_url=sandbox.webhook_url(runtime.get().settings))
    return back("console_pages.whatsapp", "sandbox_connected", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/sandbox/customer")
@performs(conversations_api.Conversations.get)  # who reads the inbox may play its sandbox customer
@signed_in_page
def sandbox_customer_writes(org_id):
    """From the inbox's empty state: with JavaScript a 204 (the message arrives by the live
    stream); without, back to the inbox."""
    actor = org_actor(org_id)
    sandbox_service.check_customer_writes(db_session(), sandbox.simulator(), actor=actor,
                                          phone_number_pk=forms.text("phone_number_pk", 40),
                                          text=request.form.get("text", "")[:5000])
    return _played(actor)


@console_pages.post("/console/<uuid:org_id>/sandbox/customer/sticker")
@performs(conversations_api.Conversations.get)  # who reads the inbox may play its sandbox customer
@signed_in_page
def sandbox_customer_stickers(org_id):
    """From a sandbox conversation: the simulated customer sends a sample sticker (still or animated)."""
    actor = org_actor(org_id)
    sandbox_service.check_customer_sends_sticker(db_session(), sandbox.simulator(), actor=actor,
                                                 phone_number_pk=forms.text("phone_number_pk", 40),
                                                 sample=forms.text("sample", 20))
    return _played(actor)


@console_pages.post("/console/<uuid:org_id>/sandbox/customer/tap")
@performs(conversations_api.Conversations.get)  # who reads the inbox may play its sandbox customer
@signed_in_page
def sandbox_customer_taps(org_id):
    """From a sandbox conversation: the simulated customer taps one of the buttons or list rows
    they were sent (a bot's flow, a survey)."""
    actor = org_actor(org_id)
    sandbox_service.check_customer_taps(db_session(), sandbox.simulator(), actor=actor,
                                        phone_number_pk=forms.text("phone_number_pk", 40), kind=forms.text("kind", 20),
                                        reply_id=forms.text("reply_id", 300), title=forms.text("title", 40))
    return _played(actor)


@console_pages.post("/console/<uuid:org_id>/sandbox/customer/order")
@performs(conversations_api.Conversations.get)  # who reads the inbox may play its sandbox customer
@signed_in_page
def sandbox_customer_orders(org_id):
    """From a sandbox conversation: the simulated customer orders products they were sent."""
    actor = org_actor(org_id)
    quantities = {}
    for retailer_id in request.form.getlist("product")[:30]:
        count = forms.whole_number(forms.text(f"quantity-{retailer_id}", 3))
        quantities[retailer_id[:100]] = count if isinstance(count, int) else 1
    sandbox_service.check_customer_orders(db_session(), sandbox.simulator(), actor=actor,
                                          phone_number_pk=forms.text("phone_number_pk", 40), quantities=quantities)
    return _played(actor)


def _played(actor):
    """With JavaScript a 204 (what the customer did arrives by the live stream); without, back to
    the conversation it was played in (or the inbox)."""
    if request.headers.get("X-Requested-With") == "fetch":
        return "", 204
    conversation_id = forms.optional("conversation_id", 40)
    if conversation_id:
        return redirect(url_for("inbox_pages.conversation_page", org_id=actor.organization_id,
                                conversation_id=conversation_id))
    return redirect(url_for("inbox_pages.page", org_id=actor.organization_id))
