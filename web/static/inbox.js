// The inbox's live parts: the event stream that refreshes the list and the open conversation, the
// messages shown when the appliance cannot be reached, keyboard shortcuts, the sandbox's customer.
(function () {
  "use strict";
  const body = document.body;
  const org = body.dataset.org;
  let stream = null, wasOffline = false, listTimer = null, partTimer = null;

  function openConversationId() {
    const el = document.getElementById("conversation");
    return el ? el.dataset.conversationId : null;
  }

  function say(kind, text, ms) {
    const el = document.getElementById(kind === "toast" ? "toast" : "live-status");
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("ok", kind === "ok");
    el.hidden = false;
    clearTimeout(el._timer);
    if (ms) el._timer = setTimeout(() => { el.hidden = true; }, ms);
  }

  function refresh(selector) {
    const el = document.querySelector(selector);
    if (el && window.htmx) htmx.trigger(el, "refresh");
  }

  // After the sandbox's customer writes from the empty inbox, their conversation opens as it arrives.
  let openSimulated = false;

  function onEvent(event) {
    let data = {};
    try { data = JSON.parse(event.data).data || {}; } catch (e) { return; }
    if (openSimulated && data.conversationId && !openConversationId()) {
      openSimulated = false;
      window.location.assign(`/inbox/${org}/c/${data.conversationId}`);
      return;
    }
    clearTimeout(listTimer);
    listTimer = setTimeout(() => refresh("#list"), 150);  // bursts of events: one refresh
    if (data.conversationId && data.conversationId === openConversationId()) {
      clearTimeout(partTimer);
      partTimer = setTimeout(() => { refresh("#thread"); refreshPanel(); }, 100);  // the thread brings the header
    }
  }

  // The side panel has fields (a tag, a category): while someone types in one it is left alone, and
  // brought up to date when they leave it.
  let panelStale = false;
  function refreshPanel() {
    const panel = document.getElementById("panel");
    if (panel && panel.contains(document.activeElement) && document.activeElement.matches("input, textarea")) {
      panelStale = true;
      return;
    }
    panelStale = false;
    refresh("#panel");
  }
  document.addEventListener("focusout", (e) => {
    if (panelStale && e.target.closest && e.target.closest("#panel")) setTimeout(refreshPanel, 0);
  });

  function connect() {
    if (!org || !window.EventSource) return;
    stream = new EventSource(`/inbox/${org}/events`);
    stream.onopen = () => {
      if (wasOffline) { say("ok", body.dataset.online, 2500); refresh("#list"); refresh("#thread"); refreshPanel(); }
      wasOffline = false;
    };
    stream.onerror = () => {
      wasOffline = true;
      say("status", body.dataset.offline);
      if (stream.readyState === EventSource.CLOSED) {  // refused, not just cut: find out why, gently
        stream = null;
        setTimeout(async () => {
          // Signed out (the session ended elsewhere): the list redirects to sign-in; so does a reload.
          const page = await fetch(`/inbox/${org}/list`, {redirect: "manual", cache: "no-store"}).catch(() => null);
          if (page && page.type === "opaqueredirect") { window.location.reload(); return; }
          connect();  // the appliance is away, or every stream slot is taken: try again
        }, 5000);
      }
    };
    // the server's catalog of live events (core/events.py LIVE), handed over by the page
    body.dataset.liveEvents.split(" ").forEach((name) => stream.addEventListener(name, onEvent));
  }

  function problemText(xhr) {
    try { const problem = JSON.parse(xhr.responseText); return problem.detail || problem.title; } catch (e) { return null; }
  }

  document.addEventListener("htmx:sendError", () => say("toast", body.dataset.unreachable, 6000));
  document.addEventListener("htmx:responseError", (e) => say("toast", problemText(e.detail.xhr) || body.dataset.error, 6000));
  document.addEventListener("htmx:afterSettle", (e) => {
    if (e.detail.target && (e.detail.target.id === "thread" || e.detail.target.id === "conversation")) scrollThread();
  });
  document.addEventListener("htmx:afterSwap", () => scrollThread(true));

  // Times arrive in UTC; everyone reads them on the organization's clock (its zone, which the page
  // hands over; the server's `org_time` filter shows the same), whatever the browser's own zone:
  // today's as 14:05, older ones with the date, the whole moment and the zone's name on hover.
  const lang = document.documentElement.lang, timeZone = body.dataset.zone || "UTC";
  const hourFormat = new Intl.DateTimeFormat(lang, {timeZone, hour: "2-digit", minute: "2-digit"});
  const dateFormat = new Intl.DateTimeFormat(lang, {timeZone, day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"});
  const dayFormat = new Intl.DateTimeFormat("en-CA", {timeZone, year: "numeric", month: "2-digit", day: "2-digit"});
  const fullFormat = new Intl.DateTimeFormat(lang, {timeZone, dateStyle: "full", timeStyle: "short"});
  function localTimes(root) {
    const today = dayFormat.format(new Date());
    (root || document).querySelectorAll("time[datetime]").forEach((el) => {
      const when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      el.textContent = (dayFormat.format(when) === today ? hourFormat : dateFormat).format(when);
      el.title = `${fullFormat.format(when)} (${timeZone})`;
    });
  }
  document.addEventListener("htmx:afterSettle", (e) => localTimes(e.detail.elt && e.detail.elt.parentNode || document));
  document.addEventListener("htmx:load", (e) => localTimes(e.detail.elt));

  function scrollThread(onlyIfNear) {
    const thread = document.getElementById("thread");
    if (!thread) return;
    const near = thread.scrollHeight - thread.scrollTop - thread.clientHeight < 200;
    if (!onlyIfNear || near) thread.scrollTop = thread.scrollHeight;
  }

  // Keyboard: j/k move through the list, r replies, a assigns to me, e closes, / searches, Esc goes back.
  document.addEventListener("keydown", (e) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) || e.target.isContentEditable;
    if (e.key === "Escape") {
      if (typing) { e.target.blur(); return; }
      if (location.hash === "#panel") { location.hash = "conversation"; return; }  // the contact sheet first
      const back = document.querySelector(".conversation-head .back");
      if (back) back.click();
      return;
    }
    if (typing || e.metaKey || e.ctrlKey || e.altKey) return;
    const rows = Array.from(document.querySelectorAll(".conversations a.row"));
    const at = rows.findIndex((r) => r.classList.contains("selected"));
    if (e.key === "j" || e.key === "k") {
      const next = rows[Math.min(rows.length - 1, Math.max(0, at + (e.key === "j" ? 1 : -1)))];
      if (next) { e.preventDefault(); next.click(); }
    } else if (e.key === "r") {
      const reply = document.querySelector("[data-reply]");
      if (reply) { e.preventDefault(); reply.focus(); }
    } else if (e.key === "a") {
      const me = document.querySelector('form[action$="/do/assign_me"] button');
      if (me) { e.preventDefault(); me.click(); }
    } else if (e.key === "e") {
      const close = document.querySelector("[data-close]");
      if (close) { e.preventDefault(); close.click(); }
    } else if (e.key === "/") {
      const search = document.querySelector("[data-search]");
      if (search) { e.preventDefault(); search.focus(); }
    } else if (e.key === "?") {
      document.getElementById("help").showModal();
    }
  });

  // Writing a reply: the customer may see "typing…" (at most every 20 s; the server checks the setting).
  let typingSent = 0;
  document.addEventListener("input", (e) => {
    if (!e.target.matches("[data-reply]") || Date.now() - typingSent < 20000) return;
    const id = openConversationId();
    const csrf = e.target.form.querySelector("input[name=csrf]");
    if (!id || !csrf) return;
    typingSent = Date.now();
    fetch(`/inbox/${org}/c/${id}/typing`, {method: "POST", body: new URLSearchParams({csrf: csrf.value})}).catch(() => {});
  });

  // Quick replies: typing "/word" offers those whose shortcut starts so; a click, Enter or Tab
  // puts the text in place of "/word", Escape closes the list. (Without JavaScript, a message that
  // is only a shortcut is expanded by the server.)
  const slashWord = (area) => {
    const before = area.value.slice(0, area.selectionStart);
    const match = before.match(/(^|\s)(\/[\w-]*)$/u);
    return match ? {word: match[2], start: before.length - match[2].length} : null;
  };
  const suggestions = (area) => area.form.querySelector("[data-quick-suggest]");
  const shown = (list) => [...list.children].filter((item) => !item.hidden);
  function offerQuickReplies(area) {
    const list = suggestions(area);
    if (!list) return;
    const typed = slashWord(area);
    let first = true;
    for (const item of list.children) {
      item.hidden = !typed || !item.dataset.shortcut.toLowerCase().startsWith(typed.word.toLowerCase());
      item.setAttribute("aria-selected", String(!item.hidden && first));
      if (!item.hidden) first = false;
    }
    list.hidden = !typed || first;
  }
  function useQuickReply(area, item) {
    const typed = slashWord(area);
    if (!typed) return;
    const end = area.selectionStart;
    area.value = area.value.slice(0, typed.start) + item.dataset.text + area.value.slice(end);
    area.selectionStart = area.selectionEnd = typed.start + item.dataset.text.length;
    suggestions(area).hidden = true;
    area.focus();
  }
  document.addEventListener("input", (e) => { if (e.target.matches("[data-reply]")) offerQuickReplies(e.target); });
  document.addEventListener("keydown", (e) => {
    if (!e.target.matches("[data-reply]")) return;
    const list = suggestions(e.target);
    if (!list || list.hidden) return;
    const items = shown(list);
    const at = items.findIndex((item) => item.getAttribute("aria-selected") === "true");
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = items[(at + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length];
      items.forEach((item) => item.setAttribute("aria-selected", String(item === next)));
      e.target.setAttribute("aria-activedescendant", next.id);
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      e.stopImmediatePropagation();  // Enter picks the reply here; it does not send
      useQuickReply(e.target, items[Math.max(at, 0)]);
    } else if (e.key === "Escape") {
      list.hidden = true;
    }
  });
  document.addEventListener("mousedown", (e) => {
    const item = e.target.closest("[data-quick-suggest] li");
    if (!item) return;
    e.preventDefault();  // keep the caret in the reply
    useQuickReply(item.closest("form").querySelector("[data-reply]"), item);
  });

  // Enter sends, Shift+Enter breaks the line.
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("[data-reply]") && e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      e.target.form.requestSubmit();
    }
  });

  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-help]")) document.getElementById("help").showModal();
  });

  document.addEventListener("change", (e) => {
    if (e.target.matches("[data-switch-org]")) window.location = `/inbox/${e.target.value}`;
    if (e.target.matches("[data-file]") && e.target.files.length) {
      const reply = e.target.form.querySelector("[data-reply]");
      if (reply && !reply.value) reply.placeholder = e.target.files[0].name;
    }
  });

  // The sandbox's simulated customer writes (a signed-in console route; without JavaScript the
  // form posts there and comes back to the inbox). The message arrives by the live stream.
  document.addEventListener("submit", async (e) => {
    const form = e.target.closest("[data-simulate]");
    if (!form) return;
    e.preventDefault();
    const answer = await fetch(form.action, {
      method: "POST", headers: {"X-Requested-With": "fetch"}, body: new URLSearchParams(new FormData(form)),
    }).catch(() => null);
    if (!answer || !answer.ok) { say("toast", body.dataset.error, 5000); return; }
    openSimulated = true;
  });

  // Notifications: the header's switch subscribes this browser to Web Push (the service worker at
  // /inbox/sw.js shows them). Only on a secure page (HTTPS or localhost): elsewhere it says why.
  async function pushSwitch() {
    const form = document.getElementById("push-switch");
    if (!form) return;
    const button = form.querySelector("[data-push]");
    const show = (on, title) => {
      button.textContent = on ? "🔔" : "🔕";
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.title = title || (on ? form.dataset.on : form.dataset.off);
      button.setAttribute("aria-label", button.title);
      form.hidden = false;
    };
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
      button.disabled = true;
      show(false, form.dataset.insecure);
      return;
    }
    const registration = await navigator.serviceWorker.register(form.dataset.worker);
    let current = await registration.pushManager.getSubscription();
    show(Boolean(current) && Notification.permission === "granted");
    const post = (url, fields) => fetch(url, {method: "POST", body: new URLSearchParams({
      csrf: form.querySelector("input[name=csrf]").value, ...fields})});
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        if (current) {
          await post(form.dataset.unsubscribe, {endpoint: current.endpoint});
          await current.unsubscribe();
          current = null;
          show(false);
          return;
        }
        if (await Notification.requestPermission() !== "granted") { show(false, form.dataset.denied); return; }
        const key = Uint8Array.from(atob(form.dataset.vapid.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
        current = await registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key});
        const keys = current.toJSON().keys;
        const answer = await post(form.action, {endpoint: current.endpoint, p256dh: keys.p256dh, auth: keys.auth});
        show(answer.ok);
      } catch (error) {
        show(false, String(error && error.message || error));
      } finally {
        button.disabled = false;
      }
    });
  }

  connect();
  localTimes();
  scrollThread();
  pushSwitch().catch(() => {});
})();
