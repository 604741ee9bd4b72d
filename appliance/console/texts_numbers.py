"""What a WhatsApp number's page says (read over console/texts.py's)."""

from appliance.core.i18n import Words, _l, _lp

NUMBER_TEXTS = Words("console_numbers", {
    "back_to_whatsapp": "WhatsApp", "number_state": _l("On the network"),
    "coexistence": _l("Shared with the WhatsApp Business app"),
    "coexistence_sync": _l("Bring the Business app's contacts"),
    "coexistence_sync_note": _l("They arrive over the next minutes and become contacts."),
    "coexistence_requested": _l("Requested on {date}."), "profile_title": _l("Business profile"),
    "profile_intro": _l("What customers see when they open your business in WhatsApp. It is stored by WhatsApp, not "
                        "here."),
    "profile_unreachable": _l("The WhatsApp network did not give this number's profile, so it cannot be edited now:"),
    "about": _l("About"), "about_hint": _l("A line under the name, up to 139 characters."),
    "description": _l("Description"), "address": _l("Address"), "profile_email": _l("Email"),
    "vertical": _l("Industry"), "websites": _l("Websites"), "websites_hint": _l("Up to two, starting with https://."),
    "website_n": _l("Website {n}"), "save_profile": _l("Save profile"), "picture": _l("Profile picture"),
    "no_picture": _l("No picture yet."),
    "picture_hint": _l("JPG or PNG, square, at least 192×192 pixels, at most {megabytes} MB."),
    "choose_picture": _l("Picture"), "upload_picture": _l("Upload picture"), "uploading": _l("Uploading…"),
    "manage": _l("Profile"),
    "verticals": {
        "AUTOMOTIVE": _l("Automotive"), "BEAUTY": _l("Beauty, spa and salon"), "APPAREL": _l("Clothing"),
        "EDU": _l("Education"), "ENTERTAIN": _l("Entertainment"), "EVENT_PLAN": _l("Event planning"),
        "FINANCE": _l("Finance and banking"), "GROCERY": _l("Food and grocery"), "GOVT": _l("Public service"),
        "HOTEL": _l("Hotel and lodging"), "HEALTH": _l("Medical and health"), "NONPROFIT": _l("Non-profit"),
        "PROF_SERVICES": _l("Professional services"), "RETAIL": _l("Shopping and retail"),
        "TRAVEL": _l("Travel and transportation"), "RESTAURANT": _l("Restaurant"),
        "OTHER": _lp("console_numbers.verticals.OTHER", "Other"),
    },
    "done": {
        "profile_saved": _l("Profile saved on WhatsApp."), "picture_saved": _l("Picture saved on WhatsApp."),
        "coexistence_sync_requested": _l("Asked WhatsApp for the Business app's contacts."),
    },
    "errors": {
        "unsupported_picture_type": _l("The picture must be a JPG or PNG image."),
        "picture_too_large": _l("The picture is larger than 5 MB."),
    },
})
