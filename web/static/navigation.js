// The navigation's menus (layouts/_navigation.html) are <details>, so they open and close without
// this script; it only closes an open one when the person clicks elsewhere or presses Escape, as
// menus do everywhere.
(() => {
  const open = () => document.querySelectorAll("details[data-nav-group][open]");
  document.addEventListener("click", (event) => {
    open().forEach((menu) => { if (!menu.contains(event.target)) menu.open = false; });
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    open().forEach((menu) => {
      menu.open = false;
      menu.querySelector("summary").focus();
    });
  });
})();
