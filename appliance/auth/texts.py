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
