"""Push notifications to people: Web Push to browsers (the inbox's service worker) and native
device tokens of the mobile app (APNs and FCM, when configured)."""
