"""What the console's web-chat pages say."""

from appliance.core.i18n import Words, _l

WEBCHAT_TEXTS = Words("console_webchat", {
    "title": _l("Web chat"),
    "intro": _l("A chat box for your website. Visitors write from your pages and their conversations arrive in the "
                "inbox of the number you choose, where your team, the bot and the AI agents answer as on WhatsApp."),
    "none": _l("No chat box yet. Create one below, then paste its snippet into your website."),
    "add_title": _l("Create a chat box"), "add": _l("Create the chat box"), "save": _l("Save"),
    "name": _l("Name"), "origins": _l("Websites that may show it (one per line, like https://shop.example)"),
    "number": _l("Inbox (number) its conversations join"), "greeting": _l("Greeting shown when the chat opens"),
    "pre_chat": _l("Asked before the first message"), "field_name": _l("Name"), "field_email": _l("Email"),
    "field_phone": _l("Phone"), "ask_no": _l("Not asked"), "ask_optional": _l("Optional"), "ask_required": _l("Required"),
    "enforce": _l("Only visitors your website signed in (identity checked with the secret)"),
    "offline_email": _l("While closed, mail visitors' messages to (empty: owners and administrators)"),
    "snippet_title": _l("Snippet for your website"),
    "snippet_intro": _l("Paste it before </body> on every page that should show the chat. It draws one button; the "
                        "chat loads only when a visitor clicks it."),
    "secret_title": _l("Identity secret"),
    "secret_once": _l("Copy it now: it is not shown again. Your website's server signs each signed-in user's "
                      "identifier with it (hex HMAC-SHA256) and passes both to the chat, so nobody can chat as "
                      "someone else."),
    "secret_intro": _l("Lost it, or it leaked? Make a new one: the old one stops working at once."),
    "rotate": _l("Make a new secret"), "rotate_confirm": _l("Make a new secret? Your website must sign with the new one."),
    "delete": _l("Delete the chat box"), "delete_confirm": _l("Delete this chat box? Its conversations stay in the inbox."),
    "preview_title": _l("Live preview"),
    "preview_intro": _l("The button at the bottom right of this page is the real chat box: write to it and the "
                        "conversation appears in the inbox."),
    "origins_none": _l("Only this appliance's own pages (the preview) until you add a website."),
    "back": _l("All chat boxes"), "identity_on": _l("Identity checked"), "conversations": _l("Open the inbox"),
    "done": {"saved": _l("Chat box saved."), "deleted": _l("Chat box deleted.")},
})
