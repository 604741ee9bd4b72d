// Console pages that follow what changes without them (console/live.py). Their <main> says how:
// - data-live-stream (and data-live-events, data-live-about): the outbox's events on the same
//   stream as the inbox's; an event that concerns the page (its data matches `about`) redraws it;
// - data-live-every="5": a page whose changes are not events re-reads itself every 5 seconds.
// A redraw fetches the page again and swaps its [data-live-part] elements (by id), keeping which
// <details> were open; at most one read every 3 seconds however many events come. Once the fresh
// page no longer asks to be followed (nothing left in review, nothing unfinished), following stops.
// Without JavaScript the page is as it was served.
(() => {
  const main = document.querySelector("main[data-live-stream], main[data-live-every]");
  if (!main) return;
  const GAP_MS = 3000;  // at most one read every 3 s (a busy number sends many receipts a second)
  let stream = null, timer = null, reading = false, again = false, stopped = false;

  const about = JSON.parse(main.dataset.liveAbout || "{}");
  function concerns(event) {
    let data = {};
    try { data = JSON.parse(event.data).data || {}; } catch (_) { return false; }
    return Object.entries(about).every(([key, value]) => !(key in data) || data[key] === value);
  }

  async function swapParts() {
    const answer = await fetch(location.href, {cache: "no-store", credentials: "same-origin"});
    if (!answer.ok || answer.redirected) return;  // signed out, or gone: a reload says why
    const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
    for (const part of document.querySelectorAll("[data-live-part]")) {
      const next = fresh.getElementById(part.id);
      if (!next) continue;
      const open = new Set([...part.querySelectorAll("details[open][id]")].map((d) => d.id));
      for (const details of next.querySelectorAll("details[id]")) details.open = open.has(details.id);
      if (!next.isEqualNode(part)) part.replaceWith(document.adoptNode(next));  // unchanged: left alone
    }
    const freshMain = fresh.querySelector("main");
    if (freshMain && !freshMain.dataset.liveStream && !freshMain.dataset.liveEvery) stop();
  }

  async function redraw() {
    if (reading) { again = true; return; }
    reading = true;
    try { await swapParts(); } catch (_) { /* the appliance is away: the next event or tick tries again */ }
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    reading = false;
    if (again && !stopped) { again = false; redraw(); }
  }

  function listen() {
    stream = new EventSource(main.dataset.liveStream);
    for (const name of main.dataset.liveEvents.split(" ")) {
      stream.addEventListener(name, (event) => { if (concerns(event)) redraw(); });
    }
    stream.onerror = () => {  // refused (signed out, too many streams), not just cut: try again later
      if (stream.readyState !== EventSource.CLOSED || stopped) return;
      setTimeout(() => { if (!stopped) { redraw(); listen(); } }, 10000);
    };
  }

  function stop() {
    stopped = true;
    if (stream) stream.close();
    clearInterval(timer);
  }

  if (main.dataset.liveStream && window.EventSource) listen();
  else if (main.dataset.liveEvery) timer = setInterval(redraw, Number(main.dataset.liveEvery) * 1000);
})();
