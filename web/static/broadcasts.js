// Campaigns: the wizard's choices reload it (a GET, as its "Continue" buttons do without
// JavaScript), the preview follows the values as they are typed, and a running campaign's page
// follows its counts (the page's live address, every 3 seconds).
// (In a scope of its own: console.js, loaded beside it, has names of its own at the top.)
(() => {
  const CONTACT_FIELD = /\{\{\s*contact\.([A-Za-z0-9_.\- ]+?)\s*(?:\|([^}]*))?\}\}/g;

  document.addEventListener("change", (event) => {
    const field = event.target.closest("[data-wizard-reload]");
    if (!field) return;
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(field.form)) if (key !== "csrf") params.append(key, value);
    location.assign(`${location.pathname}?${params}`);
  });

  function personal(text, contact) {
    return text.replace(CONTACT_FIELD, (whole, field, fallback) => {
      let value = field === "name" ? contact.name : field === "phone" ? contact.phone
        : field.startsWith("attributes.") ? (contact.attributes || {})[field.slice(11)] : undefined;
      value = value == null ? "" : String(value).trim();
      return value || (fallback || "").trim() || whole;
    });
  }

  function redrawCampaignPreview(box) {
    const contact = JSON.parse(box.dataset.contact);
    const values = {};
    let header = null;
    for (const input of document.querySelectorAll("[data-var]")) {
      const value = personal(input.value, contact) || "…";
      if (input.dataset.var === "header") header = value; else values[input.dataset.var] = value;
    }
    const body = box.dataset.body.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, name) => values[name] || whole);
    box.querySelector("[data-part=body]").textContent = body;
    const headerPart = box.querySelector("[data-part=header]");
    if (header !== null && headerPart) { headerPart.textContent = header; headerPart.hidden = false; }
  }

  document.addEventListener("input", (event) => {
    if (!event.target.matches("[data-var]")) return;
    const box = document.querySelector("[data-live-preview]");
    if (box) redrawCampaignPreview(box);
  });

  async function follow(panel) {
    let response;
    try {
      response = await fetch(panel.dataset.liveBroadcast, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    } catch (_) { return; }
    if (!response.ok) return;
    const data = await response.json();
    const counts = data.counts;
    const finished = counts.sent + counts.failed + counts.skipped;
    const number = (n) => n.toLocaleString();
    panel.querySelector("[data-live-progress]").max = counts.total || 1;
    panel.querySelector("[data-live-progress]").value = finished;
    for (const element of panel.querySelectorAll("[data-live-count]")) {
      const key = element.dataset.liveCount;
      element.textContent = number(key === "finished" ? finished : counts[key]);
    }
    for (const bar of panel.querySelectorAll("[data-live-bar]")) {
      const share = counts.total ? (100 * counts[bar.dataset.liveBar]) / counts.total : 0;
      bar.style.setProperty("--share", `${share.toFixed(1)}%`);
    }
    if (!["RUNNING", "SCHEDULED"].includes(data.status)) location.reload();  // its actions and note change
  }

  document.addEventListener("DOMContentLoaded", () => {
    const panel = document.querySelector("[data-live-broadcast][data-live=on]");
    if (panel) setInterval(() => follow(panel), 3000);
  });
})();
