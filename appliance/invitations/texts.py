"""What the invitation page says, in every language; `errors` words the failures a person meets there."""

from appliance.core.i18n import Words, _l

TEXTS = Words("invitations", {
    "title": _l("Join {organization}"), "intro": _l("You were invited as {role}, with {email}."),
    "role_names": {"owner": _l("Owner"), "admin": _l("Admin"), "supervisor": _l("Supervisor"), "agent": _l("Agent")},
    "have_account": _l("I have an account"), "new_account": _l("I am new here"), "name": _l("Your name"),
    "password": _l("Password"), "new_password": _l("Choose a password (8 or more characters)"),
    "code": _l("Two-factor code (if you use one)"), "join": _l("Join"), "create_join": _l("Create my account and join"),
    "joined": _l("Welcome! You are now a member of {organization}."), "open_inbox": _l("Open the inbox"),
    "open_console": _l("Your account and team"), "invalid": _l("This invitation is invalid, used, revoked or expired."),
    "errors": {
        "invalid_credentials": _l("The password is incorrect."),
        "two_factor_required": _l("Enter the code from your authenticator app."),
        "invalid_two_factor_code": _l("That code is not valid."),
        "too_many_requests": _l("Too many attempts. Wait a few minutes and try again."),
        "email_taken": _l("An account with this email exists: use “I have an account”."),
        "already_member": _l("You are already a member."),
    },
})
