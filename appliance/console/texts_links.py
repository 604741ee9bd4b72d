"""What the console's chat-link pages say."""

from appliance.core.i18n import Words, _l

LINK_TEXTS = Words("console_links", {
    "links_title": _l("Chat links"),
    "links_intro": _l("Short addresses and QR codes that open a WhatsApp chat with your number, with a message "
                      "already written. Put them on posters, ads, your website or Instagram, and see who clicks."),
    "no_links": _l("No links yet. Make one below: pick a number, give it a name and the message customers will send."),
    "no_archived": _l("No archived links."), "show_archived": _l("Archived links"), "show_active": _l("Active links"),
    "new_link": _l("New link"), "number": _l("Number"), "name": _l("Name"),
    "name_hint": _l("For you (“Poster, downtown store”)."), "campaign_tag": _l("Campaign tag"),
    "prefilled_message": _l("Message the customer sends"),
    "prefilled_hint": _l("Already written in their WhatsApp; they only press send."), "create": _l("Make link"),
    "clicks": _l("Clicks"), "unique_clicks": _l("People"), "conversations": _l("Conversations started"),
    "conversations_hint": _l("New conversations in the last 7 days whose first message is this link's message."),
    "this_qr_code": _l("this QR code and link"), "copy_link": _l("Copy"), "copied_link": _l("Copied"),
    "download_png": _l("Download QR (PNG, for print)"), "qr_alt": _l("QR code of {url}"),
    "per_day": _l("Clicks per day (last 30 days)"), "referrers": _l("Where clicks came from"),
    "direct": _l("(direct or an app)"), "no_clicks": _l("No clicks yet. Share the address or print the QR code."),
    "settings": _l("Settings"), "save": _l("Save"), "archive": _l("Archive (the address stops working)"),
    "restore": _l("Bring back"), "archived": _l("Archived"),
    "previews_note": _l("Link previews (WhatsApp, Facebook, Telegram...) and search engines are not counted as "
                        "clicks."),
    "back": _l("All links"), "tab_links": _l("Chat links"), "tab_pages": _l("Link pages"),
    "pages_intro": _l("One public page with all your links (the “link in bio”): your chat links, your menu, your "
                      "shop."),
    "no_pages": _l("No link pages yet. Pick an address (its handle) and a title below."),
    "new_page": _l("New link page"), "handle": _l("Handle"),
    "handle_hint": _l("Its address: 3 to 40 lowercase letters, digits or hyphens."), "title": _l("Title"),
    "description": _l("Description"), "published": _l("Published (anyone with the address sees it)"),
    "draft": _l("Draft"), "views": _l("Views"), "buttons": _l("Buttons"),
    "buttons_hint": _l("Each button opens an address or one of your chat links. Leave a row empty to remove it."),
    "label": _l("Text"), "target": _l("Opens"), "open_page": _l("Open the public page"), "preview": _l("Preview"),
    "delete_page": _l("Delete page"), "chat_link_option": _l("Chat link: {name}"),
    "done": {
        "page_created": _l("Link page made. Add its buttons and publish it."), "page_deleted": _l("Link page deleted."),
        "created": _l("Link made. Share its address or QR code."), "saved": _l("Saved."),
        "archived": _l("Archived: its address now answers “not found”."), "restored": _l("The link works again."),
    },
})
