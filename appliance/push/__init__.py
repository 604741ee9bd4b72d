"""Push notifications to people: Web Push to browsers (the inbox's service worker) and native
device tokens of the mobile app (FCM when configured)."""
