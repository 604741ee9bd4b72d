"""What the OAuth pages (sign-in, consent, errors, the integrations list) say, in every language."""

from appliance.core.i18n import Words, _l

TEXTS = Words("oauth", {
    "title": _l("Authorize an application"), "wants": _l("asks to act for you in one of your organizations with:"),
    "email": _l("Email"), "password": _l("Password"), "code": _l("Authenticator or recovery code"),
    "signin": _l("Sign in to continue"), "pick": _l("Organization"), "approve": _l("Approve"), "deny": _l("Deny"),
    "error_title": _l("This authorization link cannot be used"),
    "error_hint": _l("Tell the application's developer; nothing was shared."),
    "unknown_client": _l("The application is unknown or suspended."),
    "unknown_redirect": _l("The application asked to return to an address it did not register."),
    "no_organizations": _l("You belong to no organization yet, so there is nothing to authorize."),
    "expired": _l("This form expired. Sign in again."), "integrations": _l("Integrations"),
    "integrations_intro": _l("Applications you allowed to act for you. Revoking one stops it at once: its tokens "
                             "stop working and it must ask again."),
    "none": _l("You have not authorized any application."), "in_org": _l("in"), "since": _l("Authorized"),
    "last_used": _l("last used"), "never_used": _l("not used yet"), "revoke": _l("Revoke access"),
    "revoked": _l("Access revoked. The application can no longer act for you."), "home": _l("Home"),
    "sign_out": _l("Sign out"), "signed_in_as": _l("Signed in as"),
})
