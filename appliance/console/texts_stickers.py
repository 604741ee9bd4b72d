"""What the console's sticker library page says (what normalization did, and why an upload was
refused, are the library's own sentences: appliance/stickers/sentences.py)."""

from appliance.core.i18n import Words, _l

STICKER_TEXTS = Words("console_stickers", {
    "stickers_title": _l("Stickers"),
    "stickers_intro": _l("Your business's stickers. Your team sends them from the inbox (Stickers, under the reply "
                         "box); they arrive as stickers, not as pictures."),
    "library": _l("Library"),
    "no_stickers": _l("No stickers yet. Add a WEBP or PNG below: it is made the 512×512 sticker WhatsApp wants, and "
                      "your team can send it from the inbox at once."),
    "no_stickers_reader": _l("No stickers yet. An owner or an administrator can add them here."),
    "new_sticker": _l("Add a sticker"),
    "rules": _l("WEBP or PNG, still or animated, up to 5 MB. It is fitted inside 512×512 on a transparent background "
                "and re-encoded until it weighs at most 100 KB (500 KB animated), as WhatsApp requires; what was done "
                "is said under it."),
    "file": _l("Picture (WEBP or PNG)"), "name": _l("Name (for your team; the file's name if empty)"),
    "add": _l("Add the sticker"), "uploading": _l("Uploading…"), "delete": _l("Delete"),
    "delete_confirm": _l("Delete the sticker “{name}”? Messages already sent keep showing it."),
    "added": _l("Sticker “{name}” added."),
    "done": {"deleted": _l("Sticker deleted.")},
})
