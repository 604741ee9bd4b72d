"""The text of every mail we send, in English; the catalogs (core/i18n.py) have each language's, and a
mail is written in its reader's."""

from __future__ import annotations

from dataclasses import dataclass

from appliance.core.i18n import Lazy, _l, in_language


@dataclass(frozen=True)
class MailText:
    subject: str | Lazy
    body: str | Lazy


_TEXTS: dict[str, MailText] = {
    "conversation_waiting": MailText(_l("{contact} has waited {minutes} minutes for an answer"),
                                     _l("Hello {name},\n\n"
                                        "{contact} wrote to {organization} {minutes} minutes ago and nobody has "
                                        "answered yet.\n\n"
                                        "Open the conversation:\n{link}\n\n"
                                        "You get this mail because the organization's inbox notifies waits longer "
                                        "than {delay} minutes.\n")),
    "webchat_offline": MailText(_l("{visitor} wrote on {widget} while you were closed"),
                                _l("Hello {name},\n\n"
                                   "{visitor} ({email}) wrote to {organization} through the website's chat ({widget}) "
                                   "outside business hours:\n\n{words}\n\n"
                                   "Answer in the inbox (the visitor sees it when they come back) or by mail:\n{link}\n")),
    "mail_server_test": MailText(_l("Test mail from your appliance"),
                                 _l("Hello {name},\n\n"
                                    "This mail proves that {host} delivers the appliance's mail: invitations, "
                                    "password resets and notices will now reach people.\n")),
    "verify_email": MailText(_l("Confirm your email address"),
                             _l("Hello {name},\n\n"
                                "Confirm your email address by opening this link:\n{link}\n\n"
                                "Or send this token to POST /auth/verify-email: {token}\n\n"
                                "The link is valid for {hours} hours. If you did not sign up, ignore this mail.\n")),
    "reset_password": MailText(_l("Reset your password"),
                               _l("Hello {name},\n\n"
                                  "Someone asked to reset the password of this account. To choose a new one, "
                                  "open:\n{link}\n\n"
                                  "Or send this token to POST /auth/reset-password: {token}\n\n"
                                  "The link works once and for one hour. If it was not you, ignore this mail: your "
                                  "password stays as it is.\n")),
    "password_changed": MailText(_l("Your password was changed"),
                                 _l("Hello {name},\n\n"
                                    "The password of your account was changed and your other sessions were closed. "
                                    "If it was not you, reset your password now at {base_url}.\n")),
    "invitation": MailText(_l("{inviter} invited you to {organization}"),
                           _l("Hello,\n\n"
                              "{inviter} invited you to join {organization} as {role}.\n\n"
                              "Accept here (sign in with this email, or create an account with it):\n{link}\n\n"
                              "Or, signed in, POST /invitations/{token}/accept\n\n"
                              "The invitation is valid for {days} days.\n")),
    "two_factor_enabled": MailText(_l("Two-factor authentication is on"),
                                   _l("Hello {name},\n\n"
                                      "Two-factor authentication was turned on for your account. Keep your recovery "
                                      "codes somewhere safe.\n")),
    "two_factor_disabled": MailText(_l("Two-factor authentication is off"),
                                    _l("Hello {name},\n\n"
                                       "Two-factor authentication was turned off for your account. If it was not "
                                       "you, reset your password now at {base_url}.\n")),
    "passkey_added": MailText(_l("A passkey was added to your account"),
                              _l("Hello {name},\n\n"
                                 "A passkey was added to your account: it signs you in without your password. If it "
                                 "was not you, remove it on My account and reset your password now at {base_url}.\n")),
    "passkey_removed": MailText(_l("A passkey was removed from your account"),
                                _l("Hello {name},\n\n"
                                   "A passkey was removed from your account and no longer signs you in. If it was not "
                                   "you, reset your password now at {base_url}.\n")),
    "webhook_failing": MailText(_l("A webhook of {organization} has failed for a day"),
                                _l("Hello {name},\n\n"
                                   "The webhook to {url} has not accepted an event since {since} (UTC). Last "
                                   "answer: {last}.\n\n"
                                   "Events keep waiting for it and are retried on schedule; after eight attempts an "
                                   "event is given up. See its delivery log:\n{link}\n")),
    "payment_report_approved": MailText(_l("Your transfer of {amount} {currency} was credited"),
                                        _l("Hello {name},\n\n"
                                           "The transfer you reported ({bank}, reference {reference}) was approved "
                                           "and {amount} {currency} were added to the wallet of {organization}.\n\n"
                                           "See the wallet:\n{link}\n")),
    "payment_report_rejected": MailText(_l("Your transfer of {amount} {currency} was not credited"),
                                        _l("Hello {name},\n\n"
                                           "The transfer you reported ({bank}, reference {reference}) was not "
                                           "approved: {reason}\n\n"
                                           "Nothing was added to the wallet of {organization}. Report it again with "
                                           "the right details, or write to the installation's operator:\n{link}\n")),
    "invoice_payment_failed": MailText(_l("Invoice {number} of {organization} is not paid"),
                                       _l("Hello {name},\n\n"
                                          "Invoice {number} of {organization} for {amount} {currency} could not be "
                                          "paid: {reason}\n\n"
                                          "It is tried again in 1, 3 and 5 days. Unpaid on {suspend_on}, the "
                                          "organization is suspended: its inbox can still be read, but nothing is "
                                          "sent and the bot stops until it is paid.\n\n"
                                          "Add funds or fix the card:\n{link}\n")),
    "invoice_paid": MailText(_l("Invoice {number} of {organization}: paid"),
                             _l("Hello,\n\n"
                                "Invoice {number} of {organization}, for the period from {period_start} to "
                                "{period_end}, was paid on {paid_on}: {amount} {currency}.\n\n"
                                "This mail is your receipt. The invoice itself (PDF) is on the Billing page:\n"
                                "{link}\n")),
    "shift_reminder": MailText("{subject}",
                               _l("Hello {name},\n\n"
                                  "{text}\n\n"
                                  "Your shift in the inbox:\n{link}\n")),
}


def render(kind: str, locale: str, **values) -> MailText:
    """The mail `kind` in the language of `locale` (English for one the appliance does not speak)."""
    text = _TEXTS[kind]
    with in_language(locale):
        return MailText(str(text.subject).format(**values), str(text.body).format(**values))
