// The inbox's service worker (served at /inbox/sw.js, scope /inbox/): shows the appliance's
// pushes, opens the conversation on a click, and renews the subscription when the browser
// replaces it (POST /push/rotate: no session here, the old endpoint is the proof).
"use strict";

self.addEventListener("push", (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch (e) { notice = {body: event.data ? event.data.text() : ""}; }
  event.waitUntil(self.registration.showNotification(notice.title || "WhatsApp", {
    body: notice.body || "", tag: notice.tag || undefined, renotify: Boolean(notice.tag),
    data: {url: notice.url || "/inbox"}, icon: "/static/favicon.svg", badge: "/static/favicon.svg",
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url || "/inbox", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({type: "window", includeUncontrolled: true});
    const same = open.find((c) => c.url === url) || open.find((c) => c.url.includes("/inbox"));
    if (same) { await same.focus(); if (same.url !== url && "navigate" in same) await same.navigate(url); return; }
    await self.clients.openWindow(url);
  })());
});

self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil((async () => {
    const old = event.oldSubscription;
    const renewed = event.newSubscription || await self.registration.pushManager.subscribe(
      old ? old.options : {userVisibleOnly: true});
    if (!old) return;
    const keys = renewed.toJSON().keys || {};
    await fetch("/push/rotate", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({oldEndpoint: old.endpoint, endpoint: renewed.endpoint, p256dh: keys.p256dh, auth: keys.auth})});
  })());
});
