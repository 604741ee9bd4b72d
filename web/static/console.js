// The console's small enhancements; every form works without them.
// - data-copy="#id": copy that element's text (secrets shown once, the webhook URL).
// - data-confirm="question" on a form: ask before a destructive action.
// - data-autosubmit on a select: submit its form on change (the button stays for no-JS).
// - data-zone-from-country: a time zone field left empty follows the country chosen in its form (each
//   option's data-zone: the country's main zone) until the person types a zone of their own.
// All in a scope of its own: an upload's answer page is written into this same window
// (document.write, below), which runs this script again there; names declared at the top level
// would then be declared twice, an error that stops the whole script.
(() => {
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.querySelector(button.dataset.copy);
  try {
    await navigator.clipboard.writeText(source.textContent.trim());
    const label = button.textContent;
    button.textContent = button.dataset.copied || "Copied";
    setTimeout(() => { button.textContent = label; }, 1500);
  } catch (_) {
    const range = document.createRange();
    range.selectNodeContents(source);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  }
});
document.addEventListener("submit", (event) => {
  const question = event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener("change", (event) => {
  if (event.target.matches("select[data-autosubmit]")) event.target.form.requestSubmit();
});
document.addEventListener("DOMContentLoaded", () => {
  document.documentElement.classList.add("js");
  for (const field of document.querySelectorAll("[data-zone-from-country]")) {
    const country = field.form && field.form.querySelector("select[name=country]");
    if (!country) continue;
    let filled = field.value === "" ? "" : null;  // null: a zone of the person's own, left alone
    const follow = () => {
      if (filled === null || field.value !== filled) { filled = null; return; }
      const option = country.selectedOptions[0];
      filled = field.value = (option && option.dataset.zone) || "";
    };
    country.addEventListener("change", follow);
    follow();
  }
});

// - data-upload-progress on a file form: upload with a progress bar, then show the answer page.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.matches("[data-upload-progress]") || event.defaultPrevented) return;
  event.preventDefault();
  const bar = form.querySelector("progress");
  const button = form.querySelector("button[type=submit]");
  bar.hidden = false;
  button.disabled = true;
  const request = new XMLHttpRequest();
  request.open(form.method, form.action || location.href);
  request.upload.onprogress = (e) => { if (e.lengthComputable) { bar.max = e.total; bar.value = e.loaded; } };
  request.upload.onload = () => { bar.removeAttribute("value"); button.textContent = form.dataset.uploading; };
  request.onload = () => {  // the answer page, at its own address (a redirect was followed)
    if (request.responseURL) history.replaceState(null, "", request.responseURL);
    document.open(); document.write(request.responseText); document.close();
  };
  request.onerror = () => { button.disabled = false; bar.hidden = true; form.submit(); };
  request.send(new FormData(form));
});
// - data-busy="Working…" on a form: a long step (an import) shows it is under way.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.dataset.busy || event.defaultPrevented) return;
  const bar = form.querySelector("progress");
  if (bar) bar.hidden = false;
  const button = form.querySelector("button[type=submit]");
  setTimeout(() => { button.disabled = true; button.textContent = form.dataset.busy; });
});
// - data-template-editor: redraw the WhatsApp preview while the template is written.
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
function fillPlaceholders(text, values) {
  let index = 0;
  return text.replace(PLACEHOLDER, (whole, name) => {
    const value = /^\d+$/.test(name) ? values[Number(name) - 1] : values[index];
    index += 1;
    return value || whole;
  });
}
function redrawPreview(form) {
  const preview = document.querySelector("[data-wa-preview]");
  if (!preview) return;
  const lines = (name) => form.elements[name].value.split("\n").map((s) => s.trim()).filter(Boolean);
  const part = (name) => preview.querySelector(`[data-part="${name}"]`);
  const header = fillPlaceholders(form.elements.header_text.value.trim(), lines("header_example"));
  part("header").textContent = header;
  part("header").hidden = !header;
  part("body").textContent = fillPlaceholders(form.elements.body_text.value.trim(), lines("body_examples"));
  const footer = form.elements.footer_text.value.trim();
  part("footer").textContent = footer;
  part("footer").hidden = !footer;
  const buttons = part("buttons");
  buttons.replaceChildren();
  for (const input of form.querySelectorAll("[data-button-source]")) {
    const text = input.value.trim();
    if (!text) continue;
    const span = document.createElement("span");
    span.className = "wa-button";
    span.textContent = (input.dataset.buttonSource === "url" ? "↗ " : "") + text;
    buttons.append(span);
  }
}
document.addEventListener("input", (event) => {
  const form = event.target.closest("form[data-template-editor]");
  if (form) redrawPreview(form);
});
// - data-flow-step: a step's WhatsApp preview follows its text and choices while they are typed
//   (saving redraws it on the server, so without JavaScript it is right after each save).
document.addEventListener("input", (event) => {
  const step = event.target.closest("[data-flow-step]");
  const preview = step && step.querySelector("[data-flow-preview]");
  if (!preview) return;
  const body = preview.querySelector('[data-part="body"]');
  const text = step.querySelector("[data-step-text]");
  if (body && text) body.textContent = text.value.trim();
  const buttons = preview.querySelector('[data-part="buttons"]');
  if (!buttons) return;
  const titles = [...step.querySelectorAll("[data-option-title]")].map((input) => input.value.trim()).filter(Boolean);
  const list = preview.querySelector(".wa-list");
  buttons.replaceChildren();
  const shown = titles.length <= 3 ? titles : [`☰ ${buttons.dataset.listLabel}`];
  for (const title of shown) {
    const span = document.createElement("span");
    span.className = "wa-button";
    span.textContent = title;
    buttons.append(span);
  }
  if (list) {
    list.replaceChildren(...(titles.length > 3 ? titles : []).map((title) => Object.assign(document.createElement("li"), {textContent: title})));
  }
});
// A step shows the fields of its kind: choosing another kind shows that kind's (without JavaScript
// the page shows them after saving, with what is missing marked).
function showStepParts(step) {
  const kind = step.querySelector('select[name$="-type"]').value;
  for (const part of step.querySelectorAll("[data-for]")) part.hidden = !part.dataset.for.split(" ").includes(kind);
}
document.addEventListener("change", (event) => {
  const step = event.target.matches('select[name$="-type"]') && event.target.closest("[data-flow-step]");
  if (step) showStepParts(step);
});
document.querySelectorAll("[data-flow-step]").forEach(showStepParts);
// - data-dropzone: a file dropped on the zone becomes the form's file (the input still works alone).
for (const zone of document.querySelectorAll("[data-dropzone]")) {
  const input = zone.querySelector("input[type=file]");
  const label = zone.querySelector("span");
  const show = () => { if (input.files.length) label.textContent = input.files[0].name; };
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    if (event.dataTransfer.files.length) { input.files = event.dataTransfer.files; show(); }
  });
  input.addEventListener("change", show);
}
// - data-card-form: the card goes from the browser to the payment processor (its public key), which
//   answers a token; only the token is posted here. The card's inputs have no name: never sent to us.
for (const form of document.querySelectorAll("[data-card-form]")) {
  const error = form.querySelector("[data-card-error]");
  form.addEventListener("submit", async (event) => {
    if (form.elements.token.value) return;
    event.preventDefault();
    const card = {};
    for (const input of form.querySelectorAll("[data-card]")) card[input.dataset.card] = input.value.replace(/\s+/g, input.dataset.card === "card_holder" ? " " : "").trim();
    error.hidden = true;
    try {
      const answer = await fetch(form.dataset.wompiUrl + "/tokens/cards", {method: "POST", body: JSON.stringify(card),
        headers: {"Content-Type": "application/json", "Authorization": "Bearer " + form.dataset.wompiKey}});
      const body = await answer.json();
      if (!answer.ok || !body.data || !body.data.id) throw new Error((body.error && (body.error.reason || JSON.stringify(body.error.messages))) || answer.status);
      form.elements.token.value = body.data.id;
      form.submit();
    } catch (problem) {
      error.textContent = String(problem.message || problem);
      error.hidden = false;
    }
  });
}
})();
