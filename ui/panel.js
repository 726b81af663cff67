// Skiff side panel. It holds no state that matters: everything lives in the worker's core and
// storage; the panel renders what the core sends over a runtime Port and reconnects (which
// wakes the worker) whenever the port drops. Model output goes through Markdown (marked, then
// DOMPurify) and never reaches innerHTML as a string; everything else is set as textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...kids) => {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(n.dataset, v);
    else if (k.startsWith("aria-") || k === "role") n.setAttribute(k, v);
    else n[k] = v;
  }
  n.append(...kids.filter((k) => k !== null && k !== undefined && k !== false));
  return n;
};

// ---- connection to the core ----

let port = null;
let nextId = 1;
const pending = new Map();
let state = null; // {providers, settings, sessions, active, streaming}
let streaming = new Set();
const streams = new Map(); // message id -> Markdown.Stream

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
      announce("Skiff is replying…");
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
  state.sessions = state.sessions || [];
  streaming = new Set(state.streaming);
  renderBadge();
  showSession(state.active);
  if (document.body.dataset.view === "history") renderSessionList(state.sessions);
  banner("");
  refreshPage();
  takeAsk();
  if (!document.body.dataset.ready) performance.mark("skiff-ready");
  document.body.dataset.ready = "1";
}

function banner(text) {
  $("banner").textContent = text;
  $("banner").hidden = !text;
}

function announce(text) {
  $("announce").textContent = text;
}

// ---- views: chat, history, memories, settings ----

const toggles = { history: "history-toggle", memories: "memories-toggle", settings: "settings-toggle" };

function setView(view) {
  const from = document.body.dataset.view;
  if (from === view) view = "chat";
  document.body.dataset.view = view;
  for (const v of ["history", "memories", "settings"]) {
    $(v).hidden = v !== view;
    $(toggles[v]).setAttribute("aria-expanded", String(v === view));
  }
  if (view === "history") openHistory();
  if (view === "memories") openMemories();
  if (view === "settings") openSettings();
  if (view === "chat") {
    (toggles[from] ? $(toggles[from]) : $("input")).focus();
    scrollToEnd(true);
  }
}

for (const [view, id] of Object.entries(toggles)) $(id).addEventListener("click", () => setView(view));
$("model-badge").addEventListener("click", () => setView("settings"));

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && document.body.dataset.view !== "chat" && !e.target.closest(".editing")) {
    e.preventDefault();
    setView("chat");
  } else if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "n" || e.key === "N")) {
    e.preventDefault();
    newChat();
  } else if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "h" || e.key === "H")) {
    e.preventDefault();
    setView("history");
  }
});

function providerDef(id) {
  return state.providers.find((p) => p.id === id);
}

function renderBadge() {
  const s = state.settings;
  const p = providerDef(s.provider);
  const model = s.models[s.provider] || (p.models[0] ? p.models[0].id : "no model");
  $("model-badge").textContent = `${p.name} · ${model}`;
}

// ---- conversation ----

function scroller() {
  return $("chat");
}

function scrollToEnd(force) {
  const box = scroller();
  if (force || box.scrollHeight - box.scrollTop - box.clientHeight < 120) box.scrollTop = box.scrollHeight;
}

// showSession draws ses. When ses is the conversation already on screen (a reply starting, a
// regenerate, an edit), the messages that did not change keep their nodes and only the rest is
// drawn: a reply's cost does not grow with the length of the chat.
function showSession(ses) {
  const prev = state.active && ses && state.active.id === ses.id ? state.active.messages : null;
  state.active = ses;
  if (ses) ses.messages = ses.messages || [];
  const box = $("messages");
  const msgs = ses ? ses.messages : [];
  const nodes = [...box.querySelectorAll(":scope > .msg")];
  let keep = 0;
  if (prev && nodes.length === prev.length) {
    while (keep < prev.length && keep < msgs.length && sameMessage(prev[keep], msgs[keep])) keep++;
  }
  for (const n of nodes.slice(keep)) {
    if (streams.has(n.dataset.id)) streams.get(n.dataset.id).cancel();
    streams.delete(n.dataset.id);
    n.remove();
  }
  if (keep === 0) box.replaceChildren();
  $("title").textContent = msgs.length ? ses.title : "Skiff";
  if (msgs.length === 0) box.append(el("p", { className: "empty", textContent: "Ask anything, or ask about the page you are on." }));
  for (const msg of msgs.slice(keep)) box.append(renderMessage(msg));
  updateButtons();
  if (!prev) scrollToEnd(true);
  else if (keep < msgs.length) scrollToEnd(false);
  maybeWelcome();
}

function sameMessage(a, b) {
  return a.id === b.id && a.status === b.status && a.content === b.content && a.reasoning === b.reasoning;
}

// redrawMessage draws one message again from state (after an edit is cancelled, a reply ends).
function redrawMessage(msg) {
  const n = messageNode(msg.id);
  if (!n) return;
  if (streams.has(msg.id)) streams.get(msg.id).cancel();
  streams.delete(msg.id);
  n.replaceWith(renderMessage(msg));
  drawActions();
}

function lastIndex(msgs, role) {
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === role) return i;
  return -1;
}

function renderMessage(msg) {
  const n = el("article", { className: "msg", "aria-label": msg.role === "user" ? "You" : "Skiff" });
  n.dataset.role = msg.role;
  n.dataset.id = msg.id;
  n.dataset.status = msg.status || "done";
  if (msg.page) {
    const what = [msg.page.text ? "page" : "", msg.page.selection ? "selection" : ""].filter(Boolean).join(" + ") || "page";
    n.append(el("div", { className: "attached", textContent: `Attached ${what}: ${msg.page.title || msg.page.url}` }));
  }
  if (msg.reasoning) n.append(reasoningBox(msg.reasoning));
  const content = el("div", { className: "content" });
  n.append(content);
  if (msg.role === "user") {
    content.textContent = msg.content;
  } else if (msg.status === "streaming") {
    if (msg.content) streams.set(msg.id, new Markdown.Stream(content, msg.content, followEnd));
    else content.append(typing());
  } else {
    content.append(Markdown.render(msg.content || ""));
  }
  const note = notice(msg);
  if (note) n.append(note);
  return n;
}

// drawActions puts the message buttons where they belong now: Copy on replies, Regenerate on the
// last reply, Edit on the last user message, none while a reply streams. It touches only the
// buttons, never the messages' content.
function drawActions() {
  const msgs = state.active ? state.active.messages : [];
  const busy = !!(state.active && streaming.has(state.active.id));
  const lastUser = lastIndex(msgs, "user");
  const nodes = $("messages").querySelectorAll(":scope > .msg");
  nodes.forEach((n, i) => {
    n.querySelector(":scope > .m-actions")?.remove();
    const msg = msgs[i];
    if (busy || !msg || msg.id !== n.dataset.id || n.querySelector(".edit-box")) return;
    const actions = el("div", { className: "m-actions" });
    if (msg.role === "assistant" && msg.content) actions.append(el("button", { type: "button", className: "copy-msg", textContent: "Copy", "aria-label": "Copy reply" }));
    if (msg.role === "assistant" && i === msgs.length - 1) actions.append(el("button", { type: "button", className: "regenerate", textContent: "Regenerate" }));
    if (msg.role === "user" && i === lastUser) actions.append(el("button", { type: "button", className: "edit", textContent: "Edit", "aria-label": "Edit and resend" }));
    if (actions.childElementCount) n.append(actions);
  });
}

function typing() {
  return el("span", { className: "typing", role: "status", "aria-label": "Skiff is typing" }, el("i"), el("i"), el("i"));
}

function reasoningBox(text) {
  return el("details", {}, el("summary", { textContent: "Reasoning" }), el("div", { className: "reasoning", textContent: text }));
}

function notice(msg) {
  let text = {
    stopped: "Stopped.",
    interrupted: "Interrupted: Skiff's worker stopped before the reply finished. The text above is what was saved.",
    error: msg.error ? msg.error.message : "The reply failed.",
  }[msg.status];
  if (msg.status === "error" && msg.error && msg.error.retryAfterMs) text += ` Try again in ${Math.ceil(msg.error.retryAfterMs / 1000)} s.`;
  return text ? el("div", { className: "notice", textContent: text }) : null;
}

function messageNode(id) {
  return $("messages").querySelector(`.msg[data-id="${CSS.escape(id)}"]`);
}

function activeMessage(id) {
  return state.active ? state.active.messages.find((x) => x.id === id) : null;
}

// followEnd keeps the newest text in view unless the user scrolled up to read; it runs once per
// rendered frame, not per delta (reading scrollHeight forces a layout).
function followEnd() {
  scrollToEnd(false);
}

function appendDelta(m) {
  const msg = activeMessage(m.messageId);
  if (msg) {
    if (m.text) msg.content = (msg.content || "") + m.text;
    if (m.reasoning) msg.reasoning = (msg.reasoning || "") + m.reasoning;
  }
  let s = streams.get(m.messageId);
  if (m.text && s) return s.append(m.text); // the common case: no DOM lookups per delta
  const n = messageNode(m.messageId);
  if (!n) return;
  if (m.text) {
    s = new Markdown.Stream(n.querySelector(".content"), "", followEnd);
    streams.set(m.messageId, s);
    s.append(m.text);
  }
  if (m.reasoning) {
    let r = n.querySelector(".reasoning");
    if (!r) {
      n.querySelector(".attached") ? n.querySelector(".attached").after(reasoningBox("")) : n.prepend(reasoningBox(""));
      r = n.querySelector(".reasoning");
    }
    r.append(m.reasoning);
    scrollToEnd(false);
  }
}

function finishMessage(m) {
  if (state.active && state.active.id === m.sessionId) {
    const i = state.active.messages.findIndex((x) => x.id === m.messageId);
    if (i >= 0) state.active.messages[i] = m.message;
    updateButtons();
    redrawMessage(m.message); // the finished reply is rendered once, whole
  }
  const status = m.message.status;
  announce(status === "error" ? "Reply failed: " + m.message.error.message : status === "stopped" ? "Reply stopped." : "Reply finished.");
  updateButtons();
}

function updateButtons() {
  const busy = !!(state && state.active && streaming.has(state.active.id));
  $("send").hidden = busy;
  $("stop").hidden = !busy;
  drawActions();
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = el("textarea", { value: text });
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  const was = button.textContent;
  button.textContent = "Copied";
  setTimeout(() => (button.textContent = was), 1500);
}

$("messages").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  if (!b) return;
  const n = b.closest(".msg");
  if (b.classList.contains("copy-code")) {
    copyText(b.closest(".code").querySelector("pre").textContent, b);
  } else if (b.classList.contains("copy-msg")) {
    copyText(activeMessage(n.dataset.id).content, b);
  } else if (b.classList.contains("regenerate")) {
    try {
      await call("regenerate", { sessionId: state.active.id });
    } catch (err) {
      banner(err.message);
    }
  } else if (b.classList.contains("edit")) {
    startEdit(n);
  }
});

function startEdit(n) {
  const msg = activeMessage(n.dataset.id);
  const content = n.querySelector(".content");
  const box = el("div", { className: "edit-box editing" });
  const ta = el("textarea", { value: msg.content, rows: 3, "aria-label": "Edit message" });
  const send = el("button", { type: "button", className: "primary", textContent: "Send" });
  const cancel = el("button", { type: "button", textContent: "Cancel" });
  box.append(ta, el("div", { className: "row" }, send, cancel));
  content.replaceWith(box);
  n.querySelector(".m-actions")?.remove();
  ta.focus();
  const done = () => redrawMessage(msg);
  const submit = async () => {
    if (!ta.value.trim()) return;
    try {
      await call("edit", { sessionId: state.active.id, text: ta.value });
    } catch (err) {
      banner(err.message);
    }
  };
  send.addEventListener("click", submit);
  cancel.addEventListener("click", done);
  ta.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === "Escape") {
      e.preventDefault();
      done();
    }
  });
}

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("input").value;
  if (!text.trim()) return;
  $("input").value = "";
  try {
    const page = await pageForSend();
    await call("send", { sessionId: state.active ? state.active.id : "", text, page });
    afterSend();
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

async function newChat() {
  try {
    showSession(await call("session.new"));
    await refreshSessions();
  } catch (err) {
    banner(err.message);
  }
  if (document.body.dataset.view !== "chat") setView("chat");
  $("input").focus();
}
$("new").addEventListener("click", newChat);

// ---- history ----

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
function ago(ms) {
  const s = Math.round((ms - Date.now()) / 1000);
  const units = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [u, n] of units) if (Math.abs(s) >= n) return rtf.format(Math.round(s / n), u);
  return "just now";
}

async function refreshSessions() {
  try {
    state.sessions = (await call("session.list")) || [];
    if (state.active) {
      const meta = state.sessions.find((s) => s.id === state.active.id);
      if (meta && state.active.messages.length) $("title").textContent = meta.title;
    }
    if (document.body.dataset.view === "history" && !$("search").value.trim()) renderSessionList(state.sessions);
  } catch (e) {
    /* the port dropped; start() will redraw */
  }
}

function openHistory() {
  $("history-status").textContent = "";
  $("search").value = "";
  renderSessionList(state.sessions);
  $("search").focus();
}

function renderSessionList(items) {
  const list = $("session-list");
  if (!items.length) {
    list.replaceChildren(el("li", { className: "note", textContent: $("search").value.trim() ? "No chat matches." : "No chats yet." }));
    return;
  }
  list.replaceChildren(...items.map(sessionItem));
}

function sessionItem(s) {
  const p = providerDef(s.provider);
  const li = el("li", { className: "session" });
  li.dataset.id = s.id;
  if (state.active && state.active.id === s.id) li.setAttribute("aria-current", "true");
  const open = el("button", { type: "button", className: "open" },
    el("span", { className: "s-title", textContent: s.title }),
    el("span", { className: "s-meta", textContent: `${p ? p.name : s.provider} · ${ago(s.updatedAt)} · ${s.count} message${s.count === 1 ? "" : "s"}` }),
    s.snippet ? el("span", { className: "s-snippet", textContent: s.snippet }) : null);
  const actions = el("div", { className: "actions" },
    el("button", { type: "button", className: "rename", textContent: "Rename", "aria-label": `Rename “${s.title}”` }),
    el("button", { type: "button", className: "export-md", textContent: "Export", "aria-label": `Export “${s.title}” as Markdown` }),
    el("button", { type: "button", className: "delete danger", textContent: "Delete", "aria-label": `Delete “${s.title}”` }));
  li.append(open, actions);
  return li;
}

$("session-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  const li = e.target.closest(".session");
  if (!b || !li) return;
  const id = li.dataset.id;
  try {
    if (b.classList.contains("open")) {
      showSession(await call("session.open", { sessionId: id }));
      setView("chat");
    } else if (b.classList.contains("rename")) {
      startRename(li);
    } else if (b.classList.contains("export-md")) {
      download(await call("session.export", { sessionId: id, format: "markdown" }));
    } else if (b.classList.contains("delete")) {
      if (!b.classList.contains("confirm")) {
        b.classList.add("confirm");
        b.textContent = "Confirm delete";
        setTimeout(() => {
          b.classList.remove("confirm");
          b.textContent = "Delete";
        }, 4000);
        return;
      }
      await call("session.delete", { sessionId: id });
      if (state.active && state.active.id === id) showSession(null);
      li.remove();
      state.sessions = state.sessions.filter((s) => s.id !== id);
      $("history-status").textContent = "Chat deleted.";
      refreshSessions();
    }
  } catch (err) {
    $("history-status").textContent = err.message;
  }
});

function startRename(li) {
  const s = state.sessions.find((x) => x.id === li.dataset.id) || { title: li.querySelector(".s-title").textContent };
  const input = el("input", { className: "rename editing", value: s.title, "aria-label": "New title" });
  const open = li.querySelector(".open");
  open.replaceWith(input);
  input.focus();
  input.select();
  let finished = false;
  const finish = async (save) => {
    if (finished) return;
    finished = true;
    if (save && input.value.trim() && input.value !== s.title) {
      try {
        await call("session.rename", { sessionId: li.dataset.id, title: input.value });
        if (state.active && state.active.id === li.dataset.id) state.active.title = input.value.trim();
      } catch (err) {
        $("history-status").textContent = err.message;
      }
    }
    await refreshSessions();
    renderSessionList(state.sessions);
    const again = $("session-list").querySelector(`.session[data-id="${CSS.escape(li.dataset.id)}"] .rename`);
    if (again) again.focus();
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      finish(true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      finish(false);
    }
  });
  input.addEventListener("blur", () => finish(true));
}

let searchTimer = 0;
let searchSeq = 0;
$("search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(async () => {
    const q = $("search").value.trim();
    const seq = ++searchSeq;
    if (!q) return renderSessionList(state.sessions);
    try {
      const hits = await call("session.search", { query: q });
      if (seq === searchSeq) renderSessionList(hits);
    } catch (err) {
      $("history-status").textContent = err.message;
    }
  }, 120);
});

function download(file) {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mime }));
  const a = el("a", { href: url, download: file.name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

$("export-json").addEventListener("click", async () => {
  try {
    const f = await call("session.export", { format: "json" });
    download(f);
    $("history-status").textContent = `Saved ${f.name}.`;
  } catch (err) {
    $("history-status").textContent = err.message;
  }
});

$("import").addEventListener("click", () => $("import-file").click());
$("import-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  const status = $("history-status");
  status.textContent = "Importing…";
  try {
    const r = await call("session.import", { data: await file.text() });
    const parts = [`Imported ${r.sessions} chat${r.sessions === 1 ? "" : "s"}`];
    if (r.memories) parts.push(`${r.memories} memor${r.memories === 1 ? "y" : "ies"}`);
    status.textContent = parts.join(" and ") + (r.skipped ? `; ${r.skipped} already here.` : ".");
    await refreshSessions();
    renderSessionList(state.sessions);
  } catch (err) {
    status.textContent = err.message + " Nothing was changed.";
  }
});

// ---- memories ----

async function openMemories() {
  const s = state.settings;
  $("memories-note").textContent = s.memories
    ? `Skiff puts the newest ${s.memoryCount} in every chat. Edit or delete any of them.`
    : "Memories are off: turn them on in Settings to use them in chats.";
  await loadMemories();
  $("memory-input").focus();
}

async function loadMemories() {
  try {
    renderMemories((await call("memory.list")) || []);
  } catch (err) {
    $("memories-note").textContent = err.message;
  }
}

function renderMemories(ms) {
  const list = $("memory-list");
  if (!ms.length) {
    list.replaceChildren(el("li", { className: "note", textContent: "No memories yet." }));
    return;
  }
  list.replaceChildren(...ms.map((m) => {
    const li = el("li", { className: "memory" });
    li.dataset.id = m.id;
    li.append(
      el("span", { className: "m-text", textContent: m.content }),
      el("span", { className: "badge", textContent: m.source, title: { user: "Added by you", auto: "Saved automatically", agent: "Saved by the agent" }[m.source] || "" }),
      el("button", { type: "button", className: "m-edit", textContent: "Edit", "aria-label": "Edit memory" }),
      el("button", { type: "button", className: "m-delete danger", textContent: "Delete", "aria-label": "Delete memory" }));
    li.querySelector(".badge").dataset.source = m.source;
    return li;
  }));
}

$("memory-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = document.querySelector('.field-error[data-for="memory"]');
  err.textContent = "";
  try {
    await call("memory.add", { content: $("memory-input").value });
    $("memory-input").value = "";
    await loadMemories();
  } catch (x) {
    err.textContent = x.message;
  }
});

$("memory-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  const li = e.target.closest(".memory");
  if (!b || !li) return;
  if (b.classList.contains("m-delete")) {
    try {
      await call("memory.delete", { memoryId: li.dataset.id });
      await loadMemories();
      $("memory-input").focus();
    } catch (x) {
      document.querySelector('.field-error[data-for="memory"]').textContent = x.message;
    }
  } else if (b.classList.contains("m-edit")) {
    const text = li.querySelector(".m-text");
    const ta = el("textarea", { className: "editing", value: text.textContent, rows: 2, "aria-label": "Edit memory" });
    text.replaceWith(ta);
    b.textContent = "Save";
    b.classList.replace("m-edit", "m-save");
    ta.focus();
    ta.addEventListener("keydown", (k) => {
      if (k.key === "Enter" && !k.shiftKey) {
        k.preventDefault();
        b.click();
      } else if (k.key === "Escape") {
        k.preventDefault();
        loadMemories();
      }
    });
  } else if (b.classList.contains("m-save")) {
    try {
      await call("memory.update", { memoryId: li.dataset.id, content: li.querySelector("textarea").value });
      await loadMemories();
    } catch (x) {
      document.querySelector('.field-error[data-for="memory"]').textContent = x.message;
    }
  }
});

// ---- settings ----

let formProvider = null; // the provider the settings form shows

function openSettings() {
  $("settings-status").textContent = "";
  renderSettings(state.settings.provider);
  const checked = document.querySelector('#provider-grid input:checked');
  (checked || $("model")).focus();
}

function renderProviderGrid(selected) {
  const s = state.settings;
  $("provider-grid").replaceChildren(...state.providers.map((p) => {
    const input = el("input", { type: "radio", name: "provider", value: p.id, checked: p.id === selected });
    const st = p.local ? "on this computer" : s.hasKey[p.id] ? "key saved" : p.needsKey ? "needs a key" : "no key needed";
    return el("label", { className: "provider" }, input,
      el("span", { className: "p-name", textContent: p.name }),
      el("span", { className: "p-state" + (s.hasKey[p.id] ? " has" : ""), textContent: st }));
  }));
}

function renderSettings(id) {
  const s = state.settings;
  formProvider = id;
  renderProviderGrid(id);
  const p = providerDef(id);
  $("model").value = s.models[id] || (p.models[0] ? p.models[0].id : "");
  setModelOptions(p.models);
  $("models-note").textContent = "";
  $("key-row").hidden = !p.needsKey && p.id !== "custom";
  $("apiKey").value = "";
  $("key-note").textContent = s.hasKey[id] ? "A key is saved. Leave blank to keep it." : p.needsKey ? "No key saved." + (p.keyURL ? ` Get one at ${p.keyURL}` : "") : "Optional.";
  $("test-status").textContent = "";
  $("baseURL").value = s.baseURLs[id] || "";
  $("baseURL").placeholder = p.baseURL ? p.baseURL + " (default)" : "required, e.g. http://localhost:8080/v1";
  $("systemPrompt").value = s.systemPrompt;
  $("temperature").value = s.temperature;
  $("maxTokens").value = s.maxTokens;
  $("streaming").checked = s.streaming;
  $("pageContext").checked = s.pageContext;
  $("useMemories").checked = s.memories;
  $("memoryCount").value = s.memoryCount;
  for (const n of document.querySelectorAll("#settings .field-error")) n.textContent = "";
  loadModels();
}

function setModelOptions(models) {
  $("models").replaceChildren(...models.map((m) => el("option", { value: m.id, textContent: m.name || m.id })));
}

async function loadModels() {
  const id = formProvider;
  $("models-note").textContent = "Loading the model list…";
  try {
    const r = await call("models", { provider: id });
    if (id !== formProvider) return;
    setModelOptions(r.models);
    $("models-note").textContent = r.live ? `${r.models.length} models from ${providerDef(id).name}.` : `Built-in list (${r.error}).`;
    $("models-note").title = $("models-note").textContent; // the line may be cut short
  } catch (e) {
    $("models-note").textContent = e.message;
  }
}

$("provider-grid").addEventListener("change", (e) => {
  if (e.target.name === "provider") {
    renderSettings(e.target.value);
    e.target.focus();
  }
});
$("load-models").addEventListener("click", loadModels);

$("test-connection").addEventListener("click", async () => {
  const st = $("test-status");
  st.className = "note";
  st.textContent = "Testing…";
  try {
    const r = await call("provider.test", { provider: formProvider, key: $("apiKey").value, baseURL: $("baseURL").value.trim() });
    st.textContent = r.message;
    st.className = "note " + (r.ok ? "ok" : "bad");
  } catch (err) {
    st.textContent = err.message;
    st.className = "note bad";
  }
});

$("settings").addEventListener("submit", async (e) => {
  e.preventDefault();
  const id = formProvider;
  const s = structuredClone(state.settings);
  delete s.hasKey;
  s.provider = id;
  s.models[id] = $("model").value.trim();
  s.baseURLs[id] = $("baseURL").value.trim();
  s.systemPrompt = $("systemPrompt").value;
  s.temperature = $("temperature").value === "" ? NaN : Number($("temperature").value);
  s.maxTokens = $("maxTokens").value === "" ? NaN : Number($("maxTokens").value);
  s.streaming = $("streaming").checked;
  s.pageContext = $("pageContext").checked;
  s.memories = $("useMemories").checked;
  s.memoryCount = $("memoryCount").value === "" ? NaN : Number($("memoryCount").value);
  for (const n of document.querySelectorAll("#settings .field-error")) n.textContent = "";
  // Numbers the form cannot send as JSON numbers get the same message the core would give.
  for (const [f, msg] of [["temperature", "enter a number between 0 and 2"], ["maxTokens", "enter a whole number between 1 and 200000"], ["memoryCount", "enter a whole number between 0 and 100"]]) {
    if (!Number.isFinite(s[f]) || (f !== "temperature" && !Number.isInteger(s[f]))) {
      document.querySelector(`.field-error[data-for="${f}"]`).textContent = msg;
      $(f).focus();
      return;
    }
  }
  const keys = {};
  if ($("apiKey").value.trim()) keys[id] = $("apiKey").value.trim();
  try {
    state.settings = await call("settings.save", { settings: s, keys });
    $("settings-status").textContent = "Saved.";
    renderBadge();
    renderSettings(id);
    maybeWelcome();
    refreshPage();
  } catch (err) {
    const field = (err.field || "").replace(/\..*/, "");
    const slot = document.querySelector(`#settings .field-error[data-for="${field}"]`);
    if (slot) {
      slot.textContent = err.message;
      if ($(field)) $(field).focus();
    }
    $("settings-status").textContent = slot ? "Not saved: see above." : err.message;
  }
});


// ---- first run ----

let detecting = false;
function isFirstRun() {
  const s = state.settings;
  const p = providerDef(s.provider);
  return !p.local && !Object.values(s.hasKey).some(Boolean) && !s.baseURLs[s.provider] && state.sessions.length === 0 && !(state.active && state.active.messages.length);
}

async function maybeWelcome() {
  if (!state) return;
  const show = isFirstRun();
  $("welcome").hidden = !show;
  if (!show || detecting) return;
  detecting = true;
  $("welcome-text").textContent = "Looking for a model running on this computer…";
  $("welcome-found").replaceChildren();
  let found = [];
  try {
    found = (await call("detect")) || [];
  } catch {
    found = [];
  }
  detecting = false;
  if (!isFirstRun()) return;
  if (!found.length) {
    $("welcome-text").textContent = "No local model found (Ollama on port 11434, LM Studio on port 1234). Pick a provider and add its API key to start.";
    return;
  }
  $("welcome-text").textContent = "Found a model server on this computer. Nothing leaves your machine with it.";
  $("welcome-found").replaceChildren(...found.map((f) => {
    const sel = el("select", { "aria-label": `${f.name} model` }, ...f.models.map((m) => el("option", { value: m.id, textContent: m.name || m.id })));
    const use = el("button", { type: "button", className: "primary use-local", textContent: `Use ${f.name}` });
    use.dataset.provider = f.provider;
    use.addEventListener("click", async () => {
      const s = structuredClone(state.settings);
      delete s.hasKey;
      s.provider = f.provider;
      s.models[f.provider] = sel.value;
      try {
        state.settings = await call("settings.save", { settings: s, keys: {} });
        renderBadge();
        $("welcome").hidden = true;
        $("input").focus();
      } catch (err) {
        banner(err.message);
      }
    });
    return el("div", { className: "found" }, el("span", { textContent: `${f.name}: ${f.models.length} model${f.models.length === 1 ? "" : "s"}` }), sel, use);
  }));
}

$("welcome-settings").addEventListener("click", () => setView("settings"));

// ---- page context ----

// page is what will be attached to the next message: the active tab (never one of Skiff's own
// pages), what was read from it, and whether the user removed it.
const page = { tab: null, info: null, error: "", removed: false, ask: null, seq: 0 };
const PAGE_FILES = ["page/vendor/readability.js", "page/vendor/turndown.js", "page/vendor/turndown-gfm.js", "page/extract.js"];

async function activeTab() {
  const ours = (t) => !t.url || !t.url.startsWith(location.origin);
  let tabs = (await chrome.tabs.query({ active: true, lastFocusedWindow: true })).filter(ours);
  if (!tabs.length) tabs = (await chrome.tabs.query({ active: true })).filter(ours);
  return tabs[0] || null;
}

function readable(tab) {
  return !!tab && !!tab.url && /^(https?|file):/.test(tab.url);
}

async function extract(tabId) {
  const [r] = await chrome.scripting.executeScript({ target: { tabId }, files: PAGE_FILES });
  if (!r || !r.result) throw new Error("the page returned nothing");
  return r.result;
}

async function refreshPage() {
  if (!state) return;
  const seq = ++page.seq;
  const tab = await activeTab().catch(() => null);
  if (seq !== page.seq) return;
  if (!page.tab || !tab || page.tab.id !== tab.id || page.tab.url !== tab.url) page.removed = false;
  page.tab = tab;
  page.info = null;
  page.error = "";
  if (!state.settings.pageContext && !page.ask) return drawChip();
  if (!readable(tab)) {
    page.error = tab && tab.url ? "Skiff can't read this kind of page" : "Skiff can't read this page (browser pages are off limits)";
    return drawChip();
  }
  drawChip("Reading the page…");
  try {
    const info = await extract(tab.id);
    if (seq !== page.seq) return;
    page.info = info;
  } catch (e) {
    if (seq !== page.seq) return;
    page.error = "Skiff can't read this page: " + (e.message || e);
  }
  drawChip();
}

function drawChip(loading) {
  const chip = $("page-chip");
  const on = state.settings.pageContext || page.ask;
  chip.hidden = !on || !page.tab && !page.ask;
  if (chip.hidden) return;
  $("page-chip-remove").hidden = false;
  $("page-chip-add").hidden = true;
  let text;
  if (loading) {
    chip.dataset.state = "loading";
    text = loading;
  } else if (page.removed) {
    chip.dataset.state = "removed";
    text = "Page not attached to the next message";
    $("page-chip-remove").hidden = true;
    $("page-chip-add").hidden = false;
  } else if (page.ask) {
    chip.dataset.state = "attached";
    text = `Selection (${page.ask.text.length} characters) from ${page.ask.title || page.ask.url}`;
  } else if (page.error) {
    chip.dataset.state = "unavailable";
    text = page.error;
    $("page-chip-remove").hidden = true;
  } else if (page.info) {
    chip.dataset.state = "attached";
    const words = page.info.text ? page.info.text.split(/\s+/).length : 0;
    text = `${page.info.title} · ${words.toLocaleString()} words` + (page.info.selection ? " + selection" : "");
  } else {
    chip.dataset.state = "loading";
    text = "Reading the page…";
  }
  $("page-chip-text").textContent = text;
  chip.title = chip.dataset.state === "attached" ? "Attached to your next message: " + (page.info ? page.info.url : page.ask.url) : "";
  chip.setAttribute("aria-label", "Page context: " + text);
}

$("page-chip-remove").addEventListener("click", () => {
  page.removed = true;
  page.ask = null;
  drawChip();
  $("page-chip-add").focus();
});
$("page-chip-add").addEventListener("click", () => {
  page.removed = false;
  drawChip();
  $("page-chip-remove").focus();
});

// pageForSend returns what to attach. The article was read when the chip was drawn (again on
// every load or navigation of the tab); only the selection, which changes without events, is
// read now, with a one-line script instead of a second Readability pass.
async function pageForSend() {
  if (page.removed) return null;
  if (page.ask) {
    return { url: page.ask.url, title: page.ask.title || "", selection: page.ask.text, text: page.info && page.info.url === page.ask.url ? page.info.text : "" };
  }
  if (!state.settings.pageContext || !readable(page.tab) || page.error) return null;
  if (!page.info) {
    // Sent before the chip finished reading the page: read it now.
    try {
      page.info = await extract(page.tab.id);
    } catch {
      return null;
    }
    return { url: page.info.url, title: page.info.title, selection: page.info.selection, text: page.info.text };
  }
  let selection = page.info.selection;
  try {
    const [r] = await chrome.scripting.executeScript({ target: { tabId: page.tab.id }, func: () => String(getSelection()).trim() });
    selection = r.result;
  } catch {
    /* the tab went away or cannot be scripted now: keep what was read with the chip */
  }
  return { url: page.info.url, title: page.info.title, selection, text: page.info.text };
}

function afterSend() {
  page.removed = false;
  page.ask = null;
  $("input").placeholder = "Ask anything (Enter to send, Shift+Enter for a new line)";
  drawChip();
}

let pageTimer = 0;
function pageChanged() {
  clearTimeout(pageTimer);
  pageTimer = setTimeout(refreshPage, 150);
}
chrome.tabs.onActivated.addListener(pageChanged);
chrome.tabs.onUpdated.addListener((tabId, info) => {
  // A load or a navigation; not title changes alone (unread counters), which would re-run
  // Readability for nothing.
  if (page.tab && tabId === page.tab.id && (info.status === "complete" || info.url)) pageChanged();
});
chrome.windows.onFocusChanged.addListener(pageChanged);

// "Ask Skiff about the selection" (context menu): the worker opens the panel and leaves the
// selection in session storage for whichever panel picks it up first.
async function takeAsk() {
  const { ask } = await chrome.storage.session.get("ask");
  if (!ask || Date.now() - ask.at > 5 * 60 * 1000) return;
  await chrome.storage.session.remove("ask");
  page.ask = ask;
  page.removed = false;
  if (document.body.dataset.view !== "chat") setView("chat");
  $("input").placeholder = "Ask about the selected text…";
  $("input").focus();
  drawChip();
}
chrome.storage.session.onChanged.addListener((changes) => {
  if (changes.ask && changes.ask.newValue && state) takeAsk();
});

start();
