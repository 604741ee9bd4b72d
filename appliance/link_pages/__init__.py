"""Link pages: one public page per handle (a business's "link in bio") listing its links and chat
links, with views and each item's clicks counted."""
