"""The installation's mail server, set in the console: only by its administrator (the first
person), saved only after a test mail reached the local SMTP server, then used for every mail;
until then, the links that mails would carry are shown in the console."""

import re

import pytest
from sqlmodel import select

from appliance.core import runtime
from appliance.mail.models import MailServer
from tests.browser_forms import PASSWORD, csrf_of, sign_in


@pytest.fixture
def settings(settings):
    return settings.replace(smtp_url="")  # no APPLIANCE_SMTP_URL: the console decides


def _post_from(client, page_path, action, data=None):
    return client.post(action, data={"csrf": csrf_of(client.get(page_path)), **(data or {})})


def test_the_administrator_sets_the_mail_server_after_a_test_mail(client, api, owner, mailbox, smtp):
    sign_in(client, email="owner@example.com")
    org_id = owner["org"]["id"]
    team = f"/console/{org_id}/team"
    agent_role = re.search(r'<option value="([0-9a-f-]+)" selected>Agent</option>', client.get(team).text).group(1)
    assert _post_from(client, team, f"{team}/invitations", {"email": "beto@example.com", "role_id": agent_role}).status_code == 302
    assert re.search(r"Mail is not set up: give this link to them.*?/invitations/accept\?token=", client.get(team).text, re.S)
    assert mailbox.to("beto@example.com") == []  # kept, not sent

    page = client.get("/console/mail")
    assert page.status_code == 200 and "Not set yet" in page.text and 'href="/console/mail"' in page.text
    form = {"host": "127.0.0.1", "port": "1", "security": "none", "username": "", "password": "",
            "sender": "hola@sol.test"}
    refused = _post_from(client, "/console/mail", "/console/mail", form)
    assert refused.status_code == 400 and "nothing listens" in refused.text and 'value="127.0.0.1"' in refused.text
    bad = _post_from(client, "/console/mail", "/console/mail", {**form, "host": "not a host", "port": "99999"})
    assert bad.status_code == 400 and 'id="error-host"' in bad.text and 'id="error-port"' in bad.text
    with runtime.get().db.unit_of_work(write=False) as session:
        assert session.exec(select(MailServer)).all() == []  # nothing saved by a failed test

    saved = _post_from(client, "/console/mail", "/console/mail", {**form, "port": str(smtp[1])})
    assert saved.status_code == 302, saved.text
    assert "Test mail" in mailbox.last_to("owner@example.com")["Subject"]
    assert "Mail goes through 127.0.0.1" in client.get("/console/mail").text

    # From now on mail goes out through it, and the console stops showing links.
    resent = re.search(rf"/console/{org_id}/team/invitations/([0-9a-f-]+)/resend", client.get(team).text).group(1)
    _post_from(client, team, f"{team}/invitations/{resent}/resend")
    assert "/invitations/accept?token=" in mailbox.last_to("beto@example.com").get_content()
    assert "give this link" not in client.get(team).text


def test_an_invitation_is_said_to_be_sent_only_when_mail_is_set(client, api, owner, mailbox, smtp):
    """Issue 43, item 15a: without a mail server the team page said "Invitation sent." above "Mail is
    not set up"; now it says the invitation was created and gives its link to copy right there.
    Once mail is set, it is sent, and the page says so."""
    sign_in(client, email="owner@example.com")
    team = f"/console/{owner['org']['id']}/team"
    agent_role = re.search(r'<option value="([0-9a-f-]+)" selected>Agent</option>', client.get(team).text).group(1)
    invited = _post_from(client, team, f"{team}/invitations", {"email": "beto@example.com", "role_id": agent_role})
    page = client.get(invited.headers["Location"]).text
    assert "Invitation sent" not in page
    note = re.search(r'id="done".*?</div>', page, re.S).group(0)
    assert "Invitation created. Mail is not set up, so it was not sent" in note
    assert re.search(r'<code id="invite-new"[^>]*>http://appliance\.test/invitations/accept\?token=[\w-]+</code>', note)
    assert 'data-copy="#invite-new"' in note

    form = {"host": "127.0.0.1", "port": str(smtp[1]), "security": "none", "username": "", "password": "",
            "sender": "hola@sol.test"}
    assert _post_from(client, "/console/mail", "/console/mail", form).status_code == 302
    invitation = re.search(rf"{team}/invitations/([0-9a-f-]+)/resend", client.get(team).text).group(1)
    resent = _post_from(client, team, f"{team}/invitations/{invitation}/resend")
    page = client.get(resent.headers["Location"]).text
    assert "Invitation sent again with a new link." in page and "Mail is not set up" not in page
    assert "/invitations/accept?token=" in mailbox.last_to("beto@example.com").get_content()


def test_only_the_installation_administrator_may_open_it(client, api, owner):
    api.signup(email="other@example.com", password=PASSWORD, name="Other")
    sign_in(client, email="other@example.com")
    assert client.get("/console/mail").status_code == 403
    assert _post_from(client, "/console/account", "/console/mail", {"host": "evil.test", "port": "25",
                                                                    "security": "none", "sender": "x@evil.test"}).status_code == 403
    assert 'href="/console/mail"' not in client.get("/console/account").text
    assert "Confirm your email address" in client.get("/console/account").text  # their own mail, shown to them
