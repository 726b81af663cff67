// Skiff side panel. It holds no state that matters: everything lives in the worker's core and
// storage; the panel renders what the core sends over a runtime Port and reconnects (which
// wakes the worker) whenever the port drops. Model output is only ever set as textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...kids) => {
  const n = document.createElement(tag);
  Object.assign(n, props);
  n.append(...kids);
  return n;
};

let port = null;
let nextId = 1;
const pending = new Map();
let state = null; // {providers, settings, sessions, active, streaming}
let streaming = new Set();

function connect() {
  port = chrome.runtime.connect({ name: "panel" });
  port.onMessage.addListener(onMessage);
  port.onDisconnect.addListener(() => {
    for (const { reject } of pending.values()) reject(new Error("Skiff's worker restarted; try again"));
    pending.clear();
    port = null;
    setTimeout(start, 100); // the worker was stopped: reconnecting wakes it
  });
}

function call(type, args = {}) {
  if (!port) connect();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    port.postMessage(JSON.stringify({ id, type, ...args }));
  });
}

function onMessage(raw) {
  const m = JSON.parse(raw);
  switch (m.type) {
    case "reply": {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(Object.assign(new Error(m.error.message), { field: m.error.field }));
      return;
    }
    case "session":
      streaming.add(m.sessionId);
      // Show the session this panel is on, or one it just started (its first exchange).
      if (!state.active || state.active.id === m.sessionId || (m.session.messages || []).length <= 2) showSession(m.session);
      refreshSessions();
      return;
    case "delta":
      appendDelta(m);
      return;
    case "done":
      streaming.delete(m.sessionId);
      finishMessage(m);
      refreshSessions();
      return;
    case "fatal":
      banner(m.error);
      return;
  }
}

async function start() {
  try {
    state = await call("hello");
  } catch (e) {
    banner(e.message);
    return;
  }
  streaming = new Set(state.streaming);
  renderProviders();
  renderSettings();
  renderSessions();
  showSession(state.active);
  banner("");
}

function banner(text) {
  $("banner").textContent = text;
  $("banner").hidden = !text;
}

// ---- conversation ----

function showSession(ses) {
  state.active = ses;
  const box = $("messages");
  box.replaceChildren();
  if (ses) ses.messages = ses.messages || [];
  if (!ses || ses.messages.length === 0) {
    box.append(el("p", { className: "empty", textContent: "Ask Skiff anything." }));
  } else {
    for (const msg of ses.messages) box.append(renderMessage(msg));
  }
  if (ses) $("sessions").value = ses.id;
  updateButtons();
  box.scrollTop = box.scrollHeight;
}

function renderMessage(msg) {
  const n = el("article", { className: "msg" });
  n.dataset.role = msg.role;
  n.dataset.id = msg.id;
  n.dataset.status = msg.status || "done";
  n.setAttribute("aria-label", msg.role === "user" ? "You" : "Skiff");
  if (msg.reasoning) n.append(reasoningBox(msg.reasoning));
  n.append(el("div", { className: "content", textContent: msg.content || "" }));
  const note = notice(msg);
  if (note) n.append(note);
  return n;
}

function reasoningBox(text) {
  return el("details", {}, el("summary", { textContent: "Reasoning" }), el("div", { className: "reasoning", textContent: text }));
}

function notice(msg) {
  const text = {
    stopped: "Stopped.",
    interrupted: "Interrupted: Skiff's worker stopped before the reply finished. The text above is what was saved.",
    error: msg.error ? msg.error.message : "The reply failed.",
  }[msg.status];
  return text ? el("div", { className: "notice", textContent: text }) : null;
}

function messageNode(id) {
  return $("messages").querySelector(`.msg[data-id="${CSS.escape(id)}"]`);
}

function appendDelta(m) {
  const n = messageNode(m.messageId);
  if (!n) return;
  if (m.text) {
    const c = n.querySelector(".content");
    // Appending to one text node keeps each delta O(delta): no re-render of what is there.
    if (!c.firstChild) c.append(document.createTextNode(""));
    c.firstChild.appendData(m.text);
  }
  if (m.reasoning) {
    let r = n.querySelector(".reasoning");
    if (!r) {
      n.prepend(reasoningBox(""));
      r = n.querySelector(".reasoning");
    }
    r.append(m.reasoning);
  }
  const box = $("messages");
  if (box.scrollHeight - box.scrollTop - box.clientHeight < 80) box.scrollTop = box.scrollHeight;
}

function finishMessage(m) {
  const n = messageNode(m.messageId);
  if (state.active && state.active.id === m.sessionId) {
    const i = state.active.messages.findIndex((x) => x.id === m.messageId);
    if (i >= 0) state.active.messages[i] = m.message;
  }
  if (n) n.replaceWith(renderMessage(m.message));
  updateButtons();
}

function updateButtons() {
  const busy = !!(state && state.active && streaming.has(state.active.id));
  $("send").hidden = busy;
  $("stop").hidden = !busy;
}

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("input").value;
  if (!text.trim()) return;
  $("input").value = "";
  try {
    await call("send", { sessionId: state.active ? state.active.id : "", text });
  } catch (err) {
    $("input").value = text; // nothing is lost
    banner(err.message);
  }
});

$("input").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    $("composer").requestSubmit();
  }
});

$("stop").addEventListener("click", () => state.active && call("stop", { sessionId: state.active.id }));

// ---- sessions ----

function renderSessions() {
  const sel = $("sessions");
  sel.replaceChildren(...(state.sessions || []).map((s) => el("option", { value: s.id, textContent: s.title })));
  if (state.active) sel.value = state.active.id;
}

async function refreshSessions() {
  try {
    state.sessions = await call("session.list");
    renderSessions();
  } catch (e) { /* the port dropped; start() will redraw */ }
}

$("sessions").addEventListener("change", async (e) => {
  try {
    showSession(await call("session.open", { sessionId: e.target.value }));
  } catch (err) {
    banner(err.message);
  }
});

$("new").addEventListener("click", async () => {
  showSession(await call("session.new"));
  await refreshSessions();
  $("input").focus();
});

// ---- settings ----

function renderProviders() {
  $("provider").replaceChildren(...state.providers.map((p) => el("option", { value: p.id, textContent: p.name })));
}

function providerDef(id) {
  return state.providers.find((p) => p.id === id);
}

function renderSettings() {
  const s = state.settings;
  const id = $("provider").value || s.provider;
  $("provider").value = id;
  const p = providerDef(id);
  const models = p.models || [];
  $("model").value = s.models[id] || (models[0] ? models[0].id : "");
  $("models").replaceChildren(...models.map((m) => el("option", { value: m.id, textContent: m.name || m.id })));
  $("models-note").textContent = "";
  $("key-row").hidden = !p.needsKey && p.id !== "custom";
  $("apiKey").value = "";
  $("key-note").textContent = s.hasKey[id] ? "A key is saved. Leave blank to keep it." : p.needsKey ? "No key saved." : "Optional.";
  $("baseURL").value = s.baseURLs[id] || "";
  $("baseURL").placeholder = p.baseURL || "required, e.g. http://localhost:8080/v1";
  $("systemPrompt").value = s.systemPrompt;
  $("temperature").value = s.temperature;
  $("maxTokens").value = s.maxTokens;
  for (const n of document.querySelectorAll(".field-error")) n.textContent = "";
}

$("settings-toggle").addEventListener("click", () => {
  const f = $("settings");
  f.hidden = !f.hidden;
  $("settings-toggle").setAttribute("aria-expanded", String(!f.hidden));
  if (!f.hidden) renderSettings();
});

$("provider").addEventListener("change", renderSettings);

$("load-models").addEventListener("click", async () => {
  $("models-note").textContent = "Loading…";
  try {
    const r = await call("models", { provider: $("provider").value });
    $("models").replaceChildren(...r.models.map((m) => el("option", { value: m.id, textContent: m.name || m.id })));
    $("models-note").textContent = r.live ? `${r.models.length} models from the provider.` : `Showing the built-in list: ${r.error}`;
  } catch (e) {
    $("models-note").textContent = e.message;
  }
});

$("settings").addEventListener("submit", async (e) => {
  e.preventDefault();
  const id = $("provider").value;
  const s = structuredClone(state.settings);
  delete s.hasKey;
  s.provider = id;
  s.models[id] = $("model").value.trim();
  s.baseURLs[id] = $("baseURL").value.trim();
  s.systemPrompt = $("systemPrompt").value;
  s.temperature = Number($("temperature").value);
  s.maxTokens = Number($("maxTokens").value);
  const keys = {};
  if ($("apiKey").value.trim()) keys[id] = $("apiKey").value.trim();
  for (const n of document.querySelectorAll(".field-error")) n.textContent = "";
  try {
    // A custom endpoint on a host the manifest does not list needs the user's permission.
    if (s.baseURLs[id]) await requestHost(s.baseURLs[id]);
    state.settings = await call("settings.save", { settings: s, keys });
    $("apiKey").value = "";
    $("settings-status").textContent = "Saved.";
    renderSettings();
  } catch (err) {
    const field = (err.field || "").replace(/\..*/, "");
    const slot = document.querySelector(`.field-error[data-for="${field}"]`);
    if (slot) slot.textContent = err.message;
    $("settings-status").textContent = slot ? "" : err.message;
  }
});

async function requestHost(url) {
  let origin;
  try {
    origin = new URL(url).origin + "/*";
  } catch {
    return; // the core reports the malformed URL next to the field
  }
  if (await chrome.permissions.contains({ origins: [origin] })) return;
  if (!(await chrome.permissions.request({ origins: [origin] }))) {
    throw Object.assign(new Error("Skiff needs permission to reach " + new URL(url).host), { field: "baseURL" });
  }
}

start();
