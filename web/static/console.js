// The console's small enhancements; every form works without them.
// - data-copy="#id": copy that element's text (secrets shown once, the webhook URL).
// - data-confirm="question" on a form: ask before a destructive action.
// - data-autosubmit on a select: submit its form on change (the button stays for no-JS).
// - data-detect-timezone: fill an empty time zone field with the browser's own.
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
  for (const field of document.querySelectorAll("[data-detect-timezone]")) {
    if (!field.value) field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  }
});
