// Campaigns: the wizard's choices reload it (a GET, as its "Continue" buttons do without
// JavaScript) and the preview follows the values as they are typed. (A campaign's page follows
// its counts with live.js.)
// (In a scope of its own, as console.js is: names at the top level would clash with another script's.)
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
})();
