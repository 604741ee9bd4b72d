/* The website's chat box (docs/webchat.md). Pasted on a website as
     <script src="https://APPLIANCE/static/webchat/widget.js" data-website-token="..." data-server="https://APPLIANCE" async></script>
   it draws one round button; the chat itself (the Socket.IO client, the connection) loads when the
   visitor clicks it. No framework; its look is inside a shadow root, so the website's styles and
   the chat's never mix. A website that signs its users in may say who the visitor is before the
   click: window.applianceChat = {identifier: "user-42", identifierHash: "<hex HMAC-SHA256 made by
   its server>", name: "Ana", email: "ana@example.com"}. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.__applianceChatLoaded) return;
  window.__applianceChatLoaded = true;
  var token = script.getAttribute("data-website-token");
  var server = (script.getAttribute("data-server") || new URL(script.src).origin).replace(/\/$/, "");
  var spanish = /^es\b/i.test(navigator.language || "");
  var T = spanish ? {
    open: "Chatea con nosotros", close: "Cerrar", send: "Enviar", placeholder: "Escribe tu mensaje…",
    start: "Empezar", name: "Nombre", email: "Correo", phone: "Teléfono", away: "Ahora no estamos; déjanos tu mensaje y te responderemos.",
    online: "En línea", connecting: "Conectando…", failed: "No se pudo enviar.", required: "(obligatorio)"
  } : {
    open: "Chat with us", close: "Close", send: "Send", placeholder: "Write your message…",
    start: "Start", name: "Name", email: "Email", phone: "Phone", away: "We are away now; leave your message and we will answer.",
    online: "Online", connecting: "Connecting…", failed: "Could not be sent.", required: "(required)"
  };
  var CSS = [
    ":host{all:initial}",
    ".bubble{position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;background:#128c7e;color:#fff;font-size:26px;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);z-index:2147483000}",
    ".panel{position:fixed;right:20px;bottom:88px;width:360px;max-width:calc(100vw - 40px);height:520px;max-height:calc(100vh - 120px);display:none;flex-direction:column;background:#fff;border-radius:14px;box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden;font:15px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2933;z-index:2147483000}",
    ".panel.open{display:flex}",
    "header{background:#128c7e;color:#fff;padding:12px 14px;display:flex;align-items:center;gap:8px}",
    "header strong{flex:1;font-size:16px}header small{display:block;font-weight:400;opacity:.9;font-size:12px}",
    "header button{background:none;border:0;color:#fff;font-size:22px;cursor:pointer;min-width:44px;min-height:44px}",
    ".log{flex:1;overflow-y:auto;padding:12px;background:#efeae2;display:flex;flex-direction:column;gap:6px}",
    ".msg{max-width:80%;padding:7px 10px;border-radius:10px;white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere}",
    ".in{align-self:flex-end;background:#d9fdd3}.out{align-self:flex-start;background:#fff}",
    ".note{align-self:center;font-size:13px;color:#52606d;text-align:center;padding:4px 8px}",
    ".error{color:#b42318;font-size:12px}",
    ".choices{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}.choices button{border:1px solid #128c7e;background:#fff;color:#0b6b60;border-radius:16px;padding:6px 12px;cursor:pointer;font:inherit;min-height:36px}",
    "form{display:flex;gap:6px;padding:8px;border-top:1px solid #e4e7eb;background:#fff}",
    "form.prechat{flex-direction:column;padding:14px;border:0;overflow-y:auto}",
    "label{font-size:13px;color:#3e4c59}",
    "input,textarea{font:inherit;padding:8px 10px;border:1px solid #cbd2d9;border-radius:8px;width:100%;box-sizing:border-box}",
    "textarea{resize:none;height:42px;flex:1}",
    "form button[type=submit]{background:#128c7e;color:#fff;border:0;border-radius:8px;padding:0 14px;font:inherit;cursor:pointer;min-height:42px}",
    ".bubble svg{width:28px;height:28px;fill:currentColor;vertical-align:middle}",
    "@media (max-width:480px){.panel{right:0;bottom:0;width:100vw;max-width:100vw;height:100%;max-height:100%;border-radius:0}.panel.open+.bubble{display:none}}"
  ].join("");

  var host = document.createElement("div");
  host.setAttribute("data-appliance-chat", "");
  document.body.appendChild(host);
  var root = host.attachShadow({mode: "open"});
  var style = document.createElement("style");
  style.textContent = CSS;
  root.appendChild(style);
  var bubble = el("button", {"class": "bubble", "aria-label": T.open, title: T.open, type: "button"});
  // A drawn speech balloon, not an emoji: a website's visitors may have no emoji font.
  var icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  icon.setAttribute("viewBox", "0 0 24 24"); icon.setAttribute("aria-hidden", "true");
  var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2z");
  icon.appendChild(path); bubble.appendChild(icon);
  var panel = el("section", {"class": "panel", role: "dialog", "aria-label": T.open});
  var title = el("strong", {}, T.open);
  var status = el("small", {}, T.connecting);
  title.appendChild(status);
  var closer = el("button", {type: "button", "aria-label": T.close}, "×");
  var header = el("header", {}, null, [title, closer]);
  var log = el("div", {"class": "log", "aria-live": "polite"});
  var composer = el("form", {}, null);
  var input = el("textarea", {placeholder: T.placeholder, "aria-label": T.placeholder, maxlength: "4096"});
  composer.appendChild(input);
  composer.appendChild(el("button", {type: "submit"}, T.send));
  panel.appendChild(header); panel.appendChild(log); panel.appendChild(composer);
  root.appendChild(panel); root.appendChild(bubble);

  var socket = null, begun = false, shown = {}, pendingForm = null, fields = [];
  var settings = window.applianceChat || {};
  var storageKey = "applianceChat:" + token;

  function el(tag, attrs, text, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text != null) node.textContent = text;
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }
  function newId() { return Date.now().toString(36) + Math.random().toString(36).slice(2, 10); }
  function scrollDown() { log.scrollTop = log.scrollHeight; }
  function visible() { return panel.classList.contains("open") && document.visibilityState === "visible"; }
  function note(text) { log.appendChild(el("div", {"class": "note"}, text)); scrollDown(); }

  function draw(message) {
    if (message.id && shown[message.id]) return;
    var node = el("div", {"class": "msg " + (message.direction === "in" ? "in" : "out")}, message.text || "");
    if (message.id) { shown[message.id] = node; node.setAttribute("data-id", message.id); }
    if (message.choices && message.choices.length) {
      var row = el("div", {"class": "choices"});
      message.choices.forEach(function (choice) {
        var b = el("button", {type: "button"}, choice.title);
        b.addEventListener("click", function () { say(null, choice); });
        row.appendChild(b);
      });
      node.appendChild(row);
    }
    log.appendChild(node);
    scrollDown();
    return node;
  }
  function mark(messages) {
    var ids = messages.filter(function (m) { return m.direction === "out" && m.status !== "read"; }).map(function (m) { return m.id; });
    if (!ids.length || !socket) return;
    socket.emit("mark", {ids: ids, status: visible() ? "read" : "delivered"});
  }

  function say(text, choice) {
    var clientId = newId();
    var node = draw({direction: "in", text: choice ? choice.title : text});
    var body = choice ? {clientId: clientId, reply: choice} : {clientId: clientId, text: text};
    var send = function () {
      socket.emit("message", body, function (answer) {
        if (answer && answer.ok) { shown[answer.id] = node; node.setAttribute("data-id", answer.id); return; }
        node.appendChild(el("div", {"class": "error"}, (answer && answer.error && answer.error.message) || T.failed));
      });
    };
    if (begun) return send();
    begin({}, send);
  }

  function begin(answers, then) {
    var data = Object.assign({}, answers, {identifier: settings.identifier, identifierHash: settings.identifierHash});
    socket.emit("begin", data, function (answer) {
      if (!answer || !answer.ok) {
        note((answer && answer.error && answer.error.message) || T.failed);
        return;
      }
      begun = true;
      if (answer.visitorToken) { try { localStorage.setItem(storageKey, answer.visitorToken); } catch (e) { /* private mode: a new visitor next time */ } }
      if (pendingForm) { pendingForm.remove(); pendingForm = null; composer.style.display = ""; }
      if (then) then();
    });
  }

  function preChat() {
    var form = el("form", {"class": "prechat"});
    fields.forEach(function (f) {
      var id = "f-" + f.field;
      form.appendChild(el("label", {"for": id}, T[f.field] + (f.required ? " " + T.required : "")));
      var attrs = {id: id, name: f.field, type: f.field === "email" ? "email" : (f.field === "phone" ? "tel" : "text")};
      if (f.required) attrs.required = "";
      var value = f.field === "name" ? settings.name : (f.field === "email" ? settings.email : "");
      var input = el("input", attrs);
      if (value) input.value = value;
      form.appendChild(input);
    });
    form.appendChild(el("button", {type: "submit"}, T.start));
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var answers = {};
      fields.forEach(function (f) { answers[f.field] = form.querySelector("[name=" + f.field + "]").value; });
      begin(answers);
    });
    composer.style.display = "none";
    pendingForm = form;
    panel.insertBefore(form, composer);
  }

  function connect() {
    var visitorToken = null;
    try { visitorToken = localStorage.getItem(storageKey); } catch (e) { /* none */ }
    socket = window.io(server + "/wc", {path: "/socket.io/", transports: ["polling"], query: {websiteToken: token},
      auth: {websiteToken: token, visitorToken: visitorToken, identifier: settings.identifier, identifierHash: settings.identifierHash}});
    socket.on("connect", function () {
      socket.emit("hello", {}, function (ready) {
        if (!ready || !ready.ok) { status.textContent = (ready && ready.error && ready.error.message) || T.failed; return; }
        title.firstChild.textContent = ready.name || T.open;
        status.textContent = ready.open ? T.online : T.away;
        begun = ready.begun;
        fields = ready.preChatFields || [];
        log.textContent = ""; shown = {};
        if (ready.greeting) note(ready.greeting);
        (ready.history || []).forEach(draw);
        mark(ready.history || []);
        if (!begun && fields.length && !pendingForm) preChat();
      });
    });
    socket.on("message", function (message) { draw(message); mark([message]); });
    socket.on("connect_error", function (error) {
      status.textContent = (error && error.data && error.data.message) || error.message || T.failed;
    });
    socket.on("disconnect", function () { status.textContent = T.connecting; });
  }

  function load(then) {
    if (window.io) return then();
    var s = document.createElement("script");
    s.src = server + "/static/vendor/socket.io-4.8.4.min.js";
    s.onload = then;
    document.head.appendChild(s);
  }

  bubble.addEventListener("click", function () {
    var opening = !panel.classList.contains("open");
    panel.classList.toggle("open", opening);
    if (opening && !socket) load(connect);
    if (opening) { input.focus(); mark(Object.keys(shown).map(function (id) { return {id: id, direction: "out"}; })); }
  });
  closer.addEventListener("click", function () { panel.classList.remove("open"); });
  composer.addEventListener("submit", function (event) {
    event.preventDefault();
    var text = input.value.trim();
    if (!text || !socket) return;
    input.value = "";
    say(text);
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); composer.requestSubmit(); }
  });
  document.addEventListener("visibilitychange", function () {
    if (visible()) mark(Object.keys(shown).map(function (id) { return {id: id, direction: "out"}; }));
  });
})();
