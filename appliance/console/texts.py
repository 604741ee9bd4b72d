"""What the console says (core/i18n.py: Words, in English; the catalogs hold every language)."""

from babel.dates import get_day_names

from appliance.core.i18n import ByLanguage, Words, _l, _lp

# The days of a schedule's form, by their keys (console/forms.WEEKDAYS): CLDR's names through Babel.
WEEKDAY_NAMES = ByLanguage(lambda lang: {key: get_day_names("wide", locale=lang)[day].capitalize()
                                         for day, key in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))})

TEXTS = Words("console", {
    # navigation
    "nav_inbox": _l("Inbox"), "nav_organization": _l("Organization"), "nav_team": _l("Team"),
    "nav_api_keys": _l("API keys"), "nav_whatsapp": "WhatsApp", "nav_templates": _l("Templates"),
    "nav_contacts": _l("Contacts"), "nav_broadcasts": _l("Campaigns"), "nav_webhooks": _l("Webhooks"),
    "nav_notifications": _l("Notifications"),
    "notifications_hint": _l("Choose what you are told on your browsers and phones."), "nav_bot": _l("Bot"),
    "nav_links": _l("Links"), "nav_orders": _l("Orders"), "nav_billing": _l("Billing"),
    "billing_notice_unpaid": _l("An invoice of this organization could not be paid."),
    "billing_notice_suspended": _l("This organization is suspended for an unpaid invoice: nothing is sent until it "
                                   "is paid."),
    "billing_notice_open": _l("Open Billing"),
    "nav_payment_reviews": _l("Payment reports"), "nav_surveys": _l("Surveys"), "nav_agenda": _l("Agenda"),
    "nav_attendance": _l("Attendance"), "nav_tasks": _l("Tasks"), "nav_quick_replies": _l("Quick replies"), "nav_stickers": _l("Stickers"),
    "nav_account": _l("My account"), "console": _l("Console"), "menu": _l("Menu"), "nav_home": _l("Home"),
    "nav_group_customers": _l("Customers"), "nav_group_automation": _l("Automation"), "nav_group_team": _l("Team"),
    "nav_group_business": _l("Business"), "nav_group_settings": _l("Settings"), "nav_group_hosting": _l("Hosting"),
    "nav_hosted": _l("Organizations"), "nav_plans": _l("Plans"), "nav_products": _l("Catalog"), "nav_webchat": _l("Web chat"),
    "nav_einvoicing": _l("E-invoicing"),
    # first run, sign-up, password reset, new organization
    "setup_title": _l("Set up your appliance"),
    "setup_intro": _l("Two minutes: you, your business, then WhatsApp. You become the owner; you can invite your "
                      "team afterwards."),
    "you": _l("You, the owner"), "name": _l("Your name"), "email": _l("Email"), "password": _l("Password"),
    "password_hint": _l("At least 8 characters."), "business": _l("Your business"), "org_name": _l("Business name"),
    "country": _l("Country"), "country_hint": _l("Its main time zone is used unless you choose another below."),
    "currency": _l("Currency"), "currency_hint": _l("What your prices and orders are in."),
    "country_none": _l("Choose a country…"), "currency_none": _l("Choose a currency…"),
    "code_unknown": _l("{code} (not a code in use: choose one)"), "timezone": _l("Time zone"),
    "timezone_hint": _l("Business hours, reports and reminders use it."), "hours": _l("Business hours"),
    "hours_hint": _l("When people answer. Outside these hours the automation can say so."),
    "open": _lp("console.open", "Open"), "from": _l("From"), "to": _l("To"), "setup_button": _l("Create my business"),
    "signup_title": _l("Create your account"), "signup_button": _l("Create account"),
    "have_account": _l("Already have an account?"), "sign_in": _lp("console.sign_in", "Sign in"),
    "forgot_title": _l("Reset your password"), "forgot_intro": _l("We will mail a link to choose a new password."),
    "forgot_button": _l("Send me a link"),
    "forgot_sent": _l("If an account uses this address, a link is on its way. It works for one hour."),
    "back_to_sign_in": _l("Back to sign in"), "new_org_title": _l("Create an organization"),
    "new_org_first": _l("You are not in any organization yet. Create your business, or ask a colleague for an "
                        "invitation."),
    "quota": _l("You can create {remaining} more."), "create": _l("Create"),
    # account
    "account_title": _l("My account"), "profile": _l("Profile"), "language": _l("Language"), "save": _l("Save"),
    "change_password": _l("Password"), "current_password": _l("Current password"), "new_password": _l("New password"),
    "password_note": _l("Your other sessions are closed when the password changes."),
    "two_factor": _l("Two-step sign-in"),
    "two_factor_off": _l("Off. A code from an authenticator app protects the account even if the password leaks."),
    "two_factor_on": _l("On. You sign in with a code from your app."), "set_up": _l("Set up"),
    "scan": _l("Scan this code with an authenticator app (or type the key), then enter the 6-digit code it shows."),
    "key": _l("Key"), "code": _l("Code"), "turn_on": _l("Turn on"), "turn_off": _lp("console.turn_off", "Turn off"),
    "code_or_recovery": _l("Code or recovery code"), "new_recovery_codes": _l("New recovery codes"),
    "recovery_title": _l("Your recovery codes"),
    "recovery_note": _l("Each works once if you lose your phone. Keep them somewhere safe: they are not shown again."),
    "copy": _l("Copy"), "copied": _l("Copied"), "sessions": _lp("console.sessions", "Sessions"),
    "sessions_intro": _l("Browsers and apps signed in to your account."), "device": _l("Device"), "ip": _l("Address"),
    "last_used": _l("Last used"), "this_one": _l("this one"), "close": _l("Close"),
    "close_others": _l("Close all others"), "mails_title": _l("Mail waiting for you"),
    "mails_intro": _l("No mail server is set yet, so the appliance keeps its mails here instead of sending them."),
    "done": {
        "profile": _l("Profile saved."), "password": _l("Password changed; your other sessions were closed."),
        "session_closed": _l("Session closed."), "sessions_closed": _l("Every other session was closed."),
        "2fa_off": _l("Two-step sign-in is off."), "saved": _l("Saved."), "invited": _l("Invitation sent."),
        "resent": _l("Invitation sent again with a new link."),
        "invited_kept": _l("Invitation created. Mail is not set up, so it was not sent: copy its link and give it to "
                           "them."),
        "resent_kept": _l("A new link was made (the old one no longer works). Mail is not set up, so it was not "
                          "sent: copy it and give it to them."),
        "revoked": _l("Revoked."), "member_role": _l("Role changed."), "member_scope": _l("Business accounts changed."),
        "member_suspend": _l("Member suspended."), "member_unsuspend": _l("Member can work again."),
        "member_remove": _l("Member removed."), "role_created": _l("Role created."),
        "role_deleted": _l("Role deleted."), "connected": _l("Business account connected."),
        "disconnected": _l("Business account disconnected."), "resubscribed": _l("Webhooks subscribed again."),
        "token_rotated": _l("New verify token made: paste it into Meta."),
        "test_sent": _l("Test message sent: it should reach your phone within seconds."),
        "mail_server_saved": _l("The test mail was delivered; the mail server is saved."),
        "sandbox_connected": _l("Your sandbox number is ready: open the inbox and play a customer."),
    },
    "mail_title": _l("Mail server"), "nav_mail": _l("Mail"), "nav_private_servers": _l("Private servers"),
    "nav_go_live": _l("Go live"), "nav_status": _l("Status"), "nav_backups": _lp("console.nav_backups", "Backups"),
    # beside a link nobody outside can open (console/_address.html)
    "address_warning_title": _l("Customers cannot open {what} yet"),
    "address_problems": {
        "loopback": _l("Links start with {address}, an address only this computer opens: customers, Meta and your "
                       "team's phones cannot."),
        "private_address": _l("Links start with {address}, which only devices on this network reach: customers and "
                              "Meta cannot."),
        "not_https": _l("{address} is not https: Meta sends WhatsApp messages only to https addresses, and browsers "
                        "keep notifications and passkeys to secure ones."),
    },
    "address_fix_admin": _l("Set the public address on the Go live page."),
    "address_fix_other": _l("Ask the installation's administrator to set its public address (the Go live page)."),
    "mail_intro": _l("The appliance mails invitations, password resets and notices through this server (SMTP). It "
                     "belongs to the whole installation: only its administrator sets it."),
    "mail_not_set": _l("Not set yet: mail is kept here instead of sent, and each person finds their links on My "
                       "account; inviters find invitation links on the team page."),
    "mail_set": _l("Mail goes through {host} (test mail delivered {date})."),
    "mail_from_environment": _l("Mail goes through {host}, set by APPLIANCE_SMTP_URL when the server started. Change "
                                "it there."),
    "mail_server": _l("Server"), "mail_host": _l("Host"), "mail_port": _l("Port"), "mail_security": _l("Connection"),
    "mail_security_names": {
        "starttls": _l("STARTTLS (usually port 587)"), "ssl": _l("TLS from the start (usually port 465)"),
        "none": _l("Unencrypted (only on a trusted network)"),
    },
    "mail_username": _l("User name (optional)"), "mail_password": _l("Password (optional)"),
    "mail_password_kept": _l("unchanged if left empty"), "mail_sender": _l("Sender address"),
    "mail_sender_hint": _l("What people see in From; the server must allow it."),
    "mail_test_note": _l("Saving sends a test mail to you first; nothing is saved unless it is delivered."),
    "mail_save": _l("Send a test mail and save"), "mail_testing": _l("Sending a test mail…"),
    "invitation_link": _l("Mail is not set up: give this link to them"),
    # organization
    "organization_title": _l("Organization"),
    "billing_email": _l("Billing email"), "plan": _l("Plan"), "billing_group": _l("Billing group"),
    "billing_parent": _l("Billed with its parent organization."), "billing_own": _l("Billed on its own."),
    "opt_out": _l("Opt-out"), "opt_out_enabled": _l("Customers can stop marketing messages by writing a keyword"),
    "keywords": _l("Keywords"), "keywords_hint": _l("Separated by commas."),
    "suspended_title": _l("This organization is suspended"),
    "suspended_note": _l("Its data is kept; most actions are refused until it is lifted."),
    "read_only": _l("You can see these settings; changing them needs the organization:write permission."),
    # team
    "team_title": _l("Team"), "members": _l("Members"),
    "member": _l("Member"), "role": _l("Role"), "scope": _l("Business accounts"),
    "all_accounts": _lp("console_catalog.all", "All"), "status": _l("Status"),
    "active": _lp("console_bot_library.activo", "Active"), "suspended": _l("Suspended"), "you_tag": _l("you"),
    "change": _l("Change"), "suspend": _l("Suspend"), "unsuspend": _l("Let work"),
    "remove": _lp("console.remove", "Remove"), "confirm_remove": _l("Remove this member from the organization?"),
    "invitations": _l("Invitations"), "invite": _l("Invite someone"), "send_invitation": _l("Send invitation"),
    "expires": _l("Expires"), "resend": _l("Send again"), "revoke": _l("Revoke"),
    "confirm_revoke": _l("Revoke this invitation? The link stops working."),
    "no_invitations": _l("No invitation waiting. Invite a colleague with their email and a role."),
    "roles": _l("Roles"), "system_role": _l("built-in"), "permissions": _l("Permissions"), "new_role": _l("New role"),
    "role_names": {"owner": _l("Owner"), "admin": _l("Admin"), "supervisor": _l("Supervisor"), "agent": _l("Agent")},
    "role_descriptions": {
        "owner": _l("Everything, including billing and ownership."), "admin": _l("Everything except billing changes."),
        "supervisor": _l("Runs the team: sees everything, works conversations, manages attendance."),
        "agent": _l("Works conversations and contacts."),
    },
    "role_name": _l("Name"), "role_description": _l("Description"), "create_role": _l("Create role"),
    "delete": _l("Delete"), "confirm_delete_role": _l("Delete this role?"),
    # API keys
    "api_keys_title": _l("API keys"),
    "api_keys_intro": _l("Keys let your local systems (a shop, an ERP) use the REST API. Give each system its own "
                         "key with only what it needs."),
    "key_name": _l("Name"), "scopes": _l("Scopes"),
    "scopes_hint": _l("None checked: full access to the organization's permissions."), "numbers": _l("Phone numbers"),
    "numbers_hint": _l("None checked: every number."), "create_key": _l("Create key"),
    "created_title": _l("Your new key"), "created_note": _l("Copy it now: it is shown only this once."),
    "prefix": _l("Prefix"), "used": _l("Last used"), "never": _l("never"),
    "no_keys": _l("No keys yet. Create one for each system that talks to the appliance."),
    "confirm_revoke_key": _l("Revoke this key? Systems using it stop working at once."),
    "full_access": _l("full access"), "all_numbers": _l("all numbers"), "docs_link": _l("API documentation"),
    # WhatsApp
    "whatsapp_title": "WhatsApp",
    "welcome_title": _l("Your business is ready. Now, WhatsApp"), "welcome_connect": _l("Connect WhatsApp"),
    "welcome_connect_note": _l("Use your Meta business account and a system-user token. Customers write to your real "
                               "number."),
    "welcome_sandbox": _l("Try the sandbox"),
    "welcome_sandbox_note": _l("A simulated network with a test number: play the customer and answer in the inbox. "
                               "No real messages are sent."),
    "sandbox_ready": _l("Your sandbox number is ready."), "sandbox_preparing": _l("Preparing your sandbox number…"),
    "sandbox_open": _l("Open the inbox and simulate a customer"), "accounts": _l("Business accounts"),
    "no_accounts": _l("No business account connected yet. Connect one below: its numbers appear here with their "
                      "quality and throughput."),
    "number": _l("Number"), "verified_name": _l("Display name"), "quality": _l("Quality"),
    "throughput": _l("Messages per second"),
    "quality_names": {"GREEN": _l("High"), "YELLOW": _l("Medium"), "RED": _l("Low")},
    "connected_on": _lp("console.connected_on", "Connected"), "needs_reauth": _l("Needs a new token"),
    "disconnect": _l("Disconnect"),
    "confirm_disconnect": _l("Disconnect this business account? Its numbers stop sending and receiving."),
    "resubscribe": _l("Subscribe webhooks again"), "connect_title": _l("Connect a business account"),
    "step_webhook": _l("1. In Meta's app dashboard, WhatsApp → Configuration, set the callback URL and verify token:"),
    "webhook_url": _l("Callback URL"), "verify_token": _l("Verify token"), "step_verified": _l("Meta verified it"),
    "step_waiting_verification": _l("Waiting for Meta to verify it: press “Verify and save” in Meta's dashboard. "
                                    "This page notices by itself."),
    "rotate_token": _l("New verify token"),
    "confirm_rotate": _l("Make a new verify token? Meta must be given the new one before it verifies again; "
                         "deliveries go on."),
    "step_delivery": _l("3. Meta's deliveries"), "delivery_last": _l("Last message delivered"),
    "delivery_none": _l("None yet: once connected, write to your number from your own phone."),
    "delivery_rejected": _l("A delivery was refused (its signature did not match the app secret)"),
    "the_callback_url": _l("the callback URL"),
    "step_test": _l("4. Send yourself a test message (Meta's hello_world template): it proves the number sends."),
    "test_from": _l("From"), "test_to": _l("Your phone, with its country code"),
    "test_send": _l("Send the test message"),
    "step_credentials": _l("2. Paste the account's id, a system-user token and the app secret. We check that the "
                           "account answers before saving."),
    "waba_id": _l("WhatsApp Business Account id"), "access_token": _l("Access token"), "app_secret": _l("App secret"),
    "display_name": _l("Name in the appliance (optional)"),
    "pin": _l("Two-step verification PIN (only for a number not registered yet)"),
    "pin_hint": _l("Six digits. A number never registered for the Cloud API is registered with it; if it never had a "
                   "PIN, this one becomes it."),
    "connect": _l("Connect"), "sandbox_tag": _l("sandbox"), "unknown": _lp("console.unknown", "unknown"),
    "weekdays": WEEKDAY_NAMES,
    "errors": {
        "email_taken": _l("An account already uses this email. Sign in, or reset the password."),
        "invalid_credentials": _l("The current password is not right."),
        "invalid_two_factor_code": _l("That code is not valid (or was already used). Try the next one."),
        "permission_escalation": _l("You cannot grant permissions you do not hold yourself."),
        "url_not_allowed": _l("That address is not public (private, loopback, link-local, reserved or this "
                              "appliance's own): only public servers are reached, unless the installation's "
                              "administrator allows that private server."),
    },
})
