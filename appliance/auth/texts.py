"""What the sign-in pages say (core/i18n.py: Words, in English; the catalogs hold every language)."""

from appliance.core.i18n import Words, _l, _lp

TEXTS = Words("auth", {
    "verify_title": _l("Confirm your email"), "verify_intro": _l("Press the button to confirm this address."),
    "verify_button": _l("Confirm my email"), "verified": _l("Your email is confirmed. You can close this page."),
    "reset_title": _l("Choose a new password"),
    "reset_intro": _l("At least 8 characters. Every session of the account will be closed."),
    "password": _l("New password"), "confirm": _l("Repeat it"), "reset_button": _l("Change password"),
    "reset_done": _l("Your password has changed. Sign in with the new one."),
    "mismatch": _l("The two passwords are not the same."), "length": _l("Use between 8 and 128 characters."),
    "missing": _l("This link is incomplete: open the whole link from the mail."), "signin_title": _l("Sign in"),
    "email": _l("Email"), "signin_password": _l("Password"), "code": _l("Authenticator or recovery code"),
    "signin_button": _lp("auth.signin_button", "Sign in"), "forgot": _l("Forgot your password?"),
    "no_account": _l("New here?"), "sign_up": _l("Create an account"),
    "errors": {"invalid_token": _l("This link is invalid, used or expired. Ask for a new one.")},
})

# Passkeys, on the sign-in page and on My account (console/account.py reads them over the console's).
PASSKEY_TEXTS = Words("passkeys", {
    "passkey_sign_in": _l("Sign in with a passkey"), "passkey_or": _l("or"),
    "passkeys_title": _l("Passkeys"),
    "passkeys_intro": _l("Sign in with your phone's or computer's screen lock, or a security key, instead of your "
                         "password. A passkey that checks your fingerprint, face or PIN is also your second step."),
    "passkeys_none": _l("No passkeys yet. Add one on each device you sign in from."),
    "passkey_name": _l("Passkey name"), "passkey_name_hint": _l("For example: work laptop"),
    "passkey_add": _l("Add a passkey"), "passkey_added_on": _l("Added on"), "passkey_last_used": _l("Last used"),
    "passkey_never_used": _l("Not used yet"), "passkey_remove": _l("Remove"),
    "passkey_remove_confirm": _l("Remove this passkey? It will no longer sign you in."),
    "passkey_verifies": _l("Checks it is you"),
    "passkey_unsupported": _l("This browser cannot use passkeys."),
    "passkey_cancelled": _l("The passkey request was cancelled or timed out. Try again."),
    "passkey_exists": _l("This device already holds a passkey of your account."),
    "passkey_failed": _l("The passkey did not work. Reload the page and try again."),
    "passkey_code_intro": _l("Your passkey did not check that it is you (no fingerprint, face or PIN): enter the code "
                             "from your authenticator app or a recovery code."),
    "passkey_code_button": _l("Continue"),
    "unavailable": {
        "not_secure": _l("Passkeys need this appliance's HTTPS address (Go live) or localhost."),
        "ip_address": _l("Passkeys need a host name: this appliance's HTTPS address is an IP address (Go live)."),
        "other_origin": _l("Passkeys work only at this appliance's own address:"),
    },
    "done": {"passkey_added": _l("Passkey added."), "passkey_removed": _l("Passkey removed.")},
    "errors": {
        "passkey_rejected": _l("The passkey was not accepted: its request expired or was already used, or it came "
                               "from another address. Try again."),
        "passkeys_unavailable": _l("Passkeys need this appliance's HTTPS address (Go live) or localhost."),
        "passkey_already_registered": _l("This passkey is already on your account."),
        "passkey_limit_reached": _l("You have 20 passkeys, the most an account keeps: remove one first."),
        "two_factor_required": _l("Enter the code from your authenticator app or a recovery code."),
        "invalid_two_factor_code": _l("The two-factor code is not valid (or was already used)."),
    },
})
