"""The kinds of message, defined once: which carry media, how the inbox groups them, which take
a caption. (The simulator, netsim/, keeps its own list: it plays the network, not us.)"""

MEDIA_TYPES = frozenset({"image", "video", "audio", "document", "sticker"})
# The conversation's media tabs (GET /conversations/{id}/media?category=...): category -> kinds.
MEDIA_CATEGORIES = {"image": ("image", "sticker"), "video": ("video",), "audio": ("audio",), "doc": ("document",)}
CAPTIONED_TYPES = ("image", "video", "document")

assert {kind for kinds in MEDIA_CATEGORIES.values() for kind in kinds} == MEDIA_TYPES
