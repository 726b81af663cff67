// Skiff's web client: the chats skiffd hosts with ACP agents, from any browser tab or a phone
// on this computer. It shares the panel's markdown renderer (model output is untrusted HTML:
// marked, then DOMPurify, then a DOM fragment) and speaks skiffd's typed link over a WebSocket
// that the server checks (exact origin, the cookie pairing gave). The first credential is the
// one-time code in the URL fragment (never sent in a URL), exchanged once for that cookie.
import { $, el } from "./dom.js";
import { render, safeBreak } from "./markdown.js";
import * as slash from "./slash.js";
import { promptsOf, asCommands, fill, valuesNow } from "./prompts.js";
import { t, say, setLanguage, errorWords } from "./i18n.js";
import { diffView, fileChips, planCard } from "./cards.js";
import { Attachments, fileLabel } from "./attach.js";
import { details } from "./details.js";
import { canSpeak, speak, reader, speakingId, spokenText, stopSpeaking, trouble } from "./speech.js";

let ws = null;
let next = 1;
const pending = new Map();
let chat = null; // the chat on screen
const chats = new Map(); // id → { agent, messages: [], images (its agent takes pictures), agentSession (the agent's id for it) }
const titles = new Map(); // agent name → its title

function status(text, state) {
  $("status").textContent = text;
  document.body.dataset.state = state;
}

async function pair() {
  const m = /(?:^|&)code=([^&]+)/.exec(location.hash.slice(1));
  if (!m) return;
  history.replaceState(null, "", location.pathname); // the code leaves the address bar at once
  const r = await fetch("pair", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code: decodeURIComponent(m[1]) }) });
  if (!r.ok) status(await r.text(), "refused");
}

function call(method, params) {
  const id = next++;
  ws.send(JSON.stringify({ id, method, params }));
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

function reply(id, result, error) {
  ws.send(JSON.stringify(error ? { id, error } : { id, result }));
}

// A link that drops (a phone's Wi-Fi, a laptop that slept, skiffd restarted) is tried again,
// sooner first, as long as skiffd still knows this client's pairing (skiffd keeps it on disk)
// or does not answer at all; once it says it does not (`skiffd unpair`, a pairing that
// expired), the page says to pair again.
let retry = 0;
let opened = false;

function connect() {
  opened = false;
  ws = new WebSocket(location.origin.replace(/^http/, "ws") + "/app/ws");
  ws.onopen = async () => {
    opened = true;
    retry = 0;
    status(t("webConnected"), "connected");
    const agents = await call("agent.list", {});
    for (const a of agents) titles.set(a.name, a.title);
    $("agent").replaceChildren(...agents.map((a) => el("option", { value: a.name, textContent: a.installed ? a.title : t("webNotInstalled", a.title) })));
    await refreshChats();
    await refreshPrompts();
    await showFiles("");
  };
  ws.onmessage = (e) => {
    const f = JSON.parse(e.data);
    if (f.method === "agent.event") return onEvent(f.params);
    if (f.method === "agent.ask") return onAsk(f.id, f.params);
    const p = pending.get(f.id);
    if (!p) return;
    pending.delete(f.id);
    // skiffd's sentences in the user's language, with their key for the code that acts on one
    f.error ? p.reject(Object.assign(new Error(say(f.text, f.error)), { key: f.text && f.text.key, said: true })) : p.resolve(f.result);
  };
  ws.onclose = async () => {
    for (const p of pending.values()) p.reject(Object.assign(new Error(t("webClosed")), { said: true }));
    pending.clear();
    if (document.body.dataset.state === "refused") return;
    // Whether skiffd still knows this client: "no" (unpaired), "yes", or "down" (no answer:
    // skiffd stopped, or the way to it is; tried for as long as it takes).
    const known = await fetch("paired", { cache: "no-store" }).then((r) => (r.status === 401 ? "no" : "yes"), () => "down");
    if (known === "no" || (known === "yes" && !opened && retry >= 8)) return status(t("webNotConnected"), "closed");
    status(t(known === "down" ? "webSkiffdDown" : "webReconnecting"), "reconnecting");
    setTimeout(connect, Math.min(15000, 500 * 2 ** retry++));
  };
}

async function refreshChats() {
  const list = await call("chats.list", {});
  $("chats").replaceChildren(...list.map((c) => {
    const li = el("li", { className: "chat" }, el("button", { type: "button", textContent: `${c.title || c.id} · ${c.agent}` }));
    li.dataset.id = c.id;
    li.querySelector("button").addEventListener("click", () => show(c.id, c.agent, c.images));
    return li;
  }));
}

function show(id, agent, images) {
  if (!chats.has(id)) chats.set(id, { agent, messages: [] });
  if (images !== undefined) chats.get(id).images = images;
  if (chat !== id) stopSpeaking(); // what was read is not on screen now
  chat = id;
  draw();
}

function cur() {
  return chats.get(chat);
}

function draw() {
  const c = cur();
  $("messages").replaceChildren(...(c ? c.messages.map(node) : []));
  drawModel(c);
}

// The chat's model and mode, when its agent offers a choice (its config options of category
// "model" and "mode"), as the panel picks them.
function drawModel(c) {
  for (const [category, sel] of [["model", $("agent-model")], ["mode", $("agent-mode")]]) {
    const opt = c && (c.options || []).find((o) => o.category === category);
    sel.hidden = !opt;
    if (!opt) continue;
    sel.dataset.option = opt.id;
    if (sel.dataset.chat === chat && sel.value === opt.current && sel.options.length === opt.values.length) continue; // as it is: keep the list open
    sel.dataset.chat = chat;
    sel.replaceChildren(...opt.values.map((v, i) => el("option", { value: v, textContent: (opt.labels && opt.labels[i]) || v, selected: v === opt.current })));
  }
}
for (const sel of [$("agent-model"), $("agent-mode")]) {
  sel.addEventListener("change", async (e) => {
    const sel = e.target;
    const c = cur();
    try {
      const options = await call("agent.option", { session: chat, option: sel.dataset.option, value: sel.value });
      if (c && options) c.options = options;
    } catch (err) {
      notice(errorWords(err));
    }
    draw();
  });
}

// An ACP tool call's status, in the panel's words.
const toolStatus = { pending: "toolStatus_pending", in_progress: "toolStatus_running", completed: "toolStatus_done", failed: "toolStatus_error" };

// The replies whose Details are open (this page's).
const detailsOpen = new Set();

// node draws one message with the panel's cards: a tool call with its kind, status, files, a
// preview and its diffs; the plan; a file the agent wrote as a diff; thoughts folded. A reply
// has Read aloud and its Details.
function node(m) {
  const n = el("div", { className: "msg" });
  n.dataset.role = m.role;
  if (m.role === "user") {
    if (m.attached && m.attached.length) n.append(el("div", { className: "u-attached" }, ...m.attached.map((a) => (a.file
      ? el("span", { className: "file-chip", title: a.name, textContent: fileLabel(a) })
      : el("img", { src: a.url, alt: a.name, title: a.name })))));
    n.append(m.text);
  }
  else if (m.role === "agent") {
    n.append(el("div", { className: "content" }, render(m.text)));
    n.dataset.id = m.id;
    const actions = el("div", { className: "m-actions" });
    if (canSpeak()) {
      // Read aloud, as in the panel: the browser's voice, nothing sent anywhere.
      const reading = speakingId() === m.id;
      actions.append(el("button", { type: "button", className: "speak-msg", textContent: t(reading ? "stopReading" : "readAloud"), "aria-label": t(reading ? "stopReading" : "readAloudReply"), "aria-pressed": String(reading) }));
    }
    const info = m.over ? details(m) : "";
    const open = info && detailsOpen.has(m.id);
    if (info) actions.append(el("button", { type: "button", className: "info-msg", textContent: t("replyDetails"), "aria-label": t("replyDetailsOf"), "aria-expanded": String(open), "aria-controls": "info-" + m.id }));
    if (actions.childElementCount) n.append(actions);
    if (open) n.append(el("div", { className: "m-info", id: "info-" + m.id, textContent: info }));
  }
  else if (m.role === "thought") n.append(el("details", { className: "card thought" }, el("summary", { textContent: t("reasoning") }), el("div", { textContent: m.text })));
  else if (m.role === "tool") {
    n.dataset.status = m.status || "pending";
    const card = el("details", { className: "card tool" },
      el("summary", {},
        el("span", { className: "t-name", textContent: m.kind || "tool" }),
        el("span", { className: "t-what", textContent: m.title || "" }),
        el("span", { className: "t-status", textContent: t(toolStatus[m.status] || "toolStatus_pending") })));
    if (m.preview) card.append(el("pre", { className: "t-preview", textContent: m.preview }));
    n.append(card);
    if (m.locations && m.locations.length) n.append(fileChips(m.locations));
    for (const d of m.diffs || []) n.append(diffView(d));
  } else if (m.role === "plan") n.append(planCard(m.plan));
  else if (m.role === "wrote") n.append(diffView(m.diff));
  else if (m.role === "ask") n.append(m.box);
  else if (m.role === "note") n.append(el("div", { className: "card note", textContent: m.text }));
  return n;
}

$("messages").addEventListener("click", (e) => {
  const d = e.target.closest(".info-msg");
  if (d) {
    const id = d.closest(".msg").dataset.id;
    if (!detailsOpen.delete(id)) detailsOpen.add(id);
    draw();
    const n = $("messages").querySelector(`.msg[data-id="${CSS.escape(id)}"]`);
    n?.querySelector(".info-msg")?.focus();
    n?.querySelector(".m-info")?.scrollIntoView({ block: "nearest" }); // (under the last reply, below the fold)
    return;
  }
  const b = e.target.closest(".speak-msg");
  if (!b) return;
  const n = b.closest(".msg");
  if (speakingId() === n.dataset.id) {
    stopSpeaking();
    return;
  }
  speak(n.dataset.id, spokenText(n.querySelector(".content")), document.documentElement.lang, (err) => {
    draw();
    if (err) notice(trouble(err));
  });
  draw();
});

// Read replies aloud as they come (the box under the chats, kept in this browser): the
// replies to what is sent here are read while they stream, each paragraph once it is finished,
// the rest when the turn ends, one reply after the other; Stop ends it with the turn.
const readKey = "skiff-read-as-they-come";
$("read-row").hidden = !canSpeak();
$("read-as-they-come").checked = localStorage.getItem(readKey) === "1";
$("read-as-they-come").addEventListener("change", (e) => localStorage.setItem(readKey, e.target.checked ? "1" : "0"));
let readHere = ""; // the chat a message was last sent in
const hearing = new Map(); // reply id -> {cut: how much of its text was read, r: its reader, over}

// hear reads what agent reply m finished since it last looked: its paragraphs before the last
// blank line, or (last) all it has left.
function hear(m, last) {
  let h = hearing.get(m.id);
  if (!h) {
    if (!canSpeak() || !$("read-as-they-come").checked) return;
    h = { cut: 0, r: null, over: false };
    hearing.set(m.id, h);
  }
  if (h.over) return;
  const cut = last ? m.text.length : h.cut + safeBreak(m.text.slice(h.cut));
  if (cut > h.cut) {
    const box = el("div");
    box.append(render(m.text.slice(h.cut, cut)));
    h.cut = cut;
    const text = spokenText(box);
    if (h.r && !h.r.reading()) h.over = true; // stopped: the rest is not read
    else if (text) {
      if (!h.r) h.r = reader(m.id, (err) => {
        draw();
        if (err) notice(trouble(err));
      }, {}, async () => document.documentElement.lang, true);
      h.r.add(text);
    }
  }
  if (last && !h.over) {
    h.over = true;
    if (h.r) h.r.finish();
  }
}

let replies = 0; // the agent's replies so far, which name them (Read aloud follows one)
function onEvent(ev) {
  if (!chats.has(ev.session)) chats.set(ev.session, { agent: "", messages: [] });
  const ms = chats.get(ev.session).messages;
  const last = ms[ms.length - 1];
  if (ev.kind === "user") { // only a continued session's history carries the user's words
    if (last && last.role === "user" && last.replayed) last.text += ev.text;
    else ms.push({ role: "user", text: ev.text, replayed: true });
  } else if (ev.kind === "thought") {
    if (last && last.role === "thought") last.text += ev.text;
    else ms.push({ role: "thought", text: ev.text });
  } else if (ev.kind === "text") {
    if (last && last.role === "agent") last.text += ev.text;
    else {
      for (const m of ms) if (hearing.has(m.id)) hear(m, true); // the one before is whole
      ms.push({ role: "agent", text: ev.text, id: "r" + ++replies });
    }
    if (ev.session === readHere) hear(ms[ms.length - 1], false);
  } else if (ev.kind === "tool") {
    const t = ev.tool;
    const old = ms.find((m) => m.role === "tool" && m.id === t.id);
    if (old) Object.assign(old, Object.fromEntries(Object.entries(t).filter(([, v]) => v !== "" && v != null)));
    else ms.push({ role: "tool", ...t });
  } else if (ev.kind === "plan") {
    const old = ms.find((m) => m.role === "plan");
    if (old) old.plan = ev.plan;
    else ms.push({ role: "plan", plan: ev.plan });
  } else if (ev.kind === "wrote") {
    ms.push({ role: "wrote", diff: ev.diff });
  } else if (ev.kind === "info") {
    refreshChats();
  } else if (ev.kind === "commands") {
    chats.get(ev.session).commands = ev.commands || [];
  } else if (ev.kind === "config") {
    chats.get(ev.session).options = ev.config || [];
  }
  const turn = turns.get(ev.session);
  if (turn && (ev.kind === "text" || ev.kind === "thought" || ev.kind === "tool")) turn.first ||= performance.now();
  // The chat's context window and its cost so far, told with the turn's last reply.
  if (turn && ev.kind === "usage" && ev.usage) turn.use = { ...ev.usage, cost: ev.usage.cost || (turn.use && turn.use.cost) };
  if (ev.session === chat) draw();
}

function onAsk(id, q) {
  if (!chats.has(q.session)) chats.set(q.session, { agent: "", messages: [] });
  const box = el("div", { className: "card ask" }, el("p", { textContent: t("webAllow", q.agent, q.title) }));
  if (q.diff) box.append(diffView(q.diff));
  for (const [kind, label] of [["allow_once", t("answer_allow_once")], ["allow_always", t("answer_allow_always_anywhere")], ["reject_once", t("answer_deny_once")], ["reject_always", t("answer_deny_always")]]) {
    if (q.answers && q.answers.length && !q.answers.includes(kind) && !q.answers.includes(kind.replace("always", "once"))) continue;
    const b = el("button", { type: "button", textContent: label });
    b.dataset.answer = kind;
    b.addEventListener("click", () => {
      for (const x of box.querySelectorAll("button")) x.disabled = true;
      reply(id, kind);
    });
    box.append(b);
  }
  chats.get(q.session).messages.push({ role: "ask", box });
  if (q.session === chat) draw();
}

async function showFiles(path) {
  try {
    const items = await call("agent.files", { path });
    const up = path ? [el("li", {}, el("button", { type: "button", textContent: "..", onclick: () => showFiles(path.split("/").slice(0, -1).join("/")) }))] : [];
    $("files").replaceChildren(...up, ...items.map((it) => {
      const full = path ? path + "/" + it.name : it.name;
      const b = el("button", { type: "button", textContent: it.dir ? it.name + "/" : it.name });
      b.addEventListener("click", async () => {
        if (it.dir) return showFiles(full);
        $("file").textContent = await call("agent.file", { path: full }).catch((e) => errorWords(e));
        $("file").hidden = false;
      });
      const li = el("li", { className: "file" }, b);
      li.dataset.name = it.name;
      return li;
    }));
  } catch (e) {
    $("files").replaceChildren(el("li", { textContent: errorWords(e) }));
  }
}

$("new").addEventListener("click", async () => {
  const id = "w" + crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  const agent = $("agent").value;
  show(id, agent);
  try {
    const o = await call("agent.open", { agent, session: id });
    Object.assign(cur(), { images: !!o.images, agentSession: o.agentSession || "" });
    await refreshChats();
  } catch (e) {
    cur().messages.push({ role: "note", text: e.message });
    draw();
  }
  $("input").focus();
});

// The sessions the agent keeps in the shared folder (ACP session/list): one goes on here as a
// chat, with the history the agent replays.
$("kept").addEventListener("click", async () => {
  const agent = $("agent").value;
  const list = $("kept-list");
  list.replaceChildren(el("li", { className: "note", textContent: t("webKeptLoading") }));
  try {
    const r = await call("agent.sessions", { agent });
    if (!r.listed) return list.replaceChildren(el("li", { className: "note", textContent: t("webKeptNotListed") }));
    if (!r.sessions.length) return list.replaceChildren(el("li", { className: "note", textContent: t("webKeptNone") }));
    list.replaceChildren(...r.sessions.map((s) => {
      const b = el("button", { type: "button", textContent: s.title || s.id });
      b.addEventListener("click", () => (s.open ? show(s.open, agent) : goOn(agent, s)));
      const li = el("li", { className: "kept" }, b);
      li.dataset.id = s.id;
      if (s.open) li.dataset.open = s.open;
      return li;
    }));
  } catch (e) {
    list.replaceChildren(el("li", { className: "note", textContent: errorWords(e) }));
  }
});

async function goOn(agent, s) {
  const id = "w" + crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  chats.set(id, { agent, messages: [] });
  try {
    const r = await call("agent.continue", { agent, session: id, agentSession: s.id });
    Object.assign(chats.get(id), { images: !!r.images, agentSession: s.id });
    for (const ev of r.history || []) onEvent({ ...ev, session: id });
    if (!chats.get(id).messages.length) chats.get(id).messages.push({ role: "note", text: t("noticeAgentKeeps") });
    $("kept-list").replaceChildren();
    show(id, agent);
    await refreshChats();
  } catch (e) {
    $("kept-list").replaceChildren(el("li", { className: "note", textContent: errorWords(e) }));
  }
}

// After a "/": the commands of the chat's agent, then the user's saved prompts (the panel's,
// from the browser skiffd is linked with; the panel's own in this language when they saved none
// or it is not linked), whose text takes the box with {{date}}, {{time}} and {{language}}
// filled in (a web client has no page in front: {{url}} and {{title}} stay to be typed over).
let prompts = null; // as settings give them: {prompts} once the user saved theirs
async function refreshPrompts() {
  try {
    const r = await call("prompts.list", {});
    prompts = r.saved ? { prompts: r.prompts } : null;
  } catch {
    prompts = null; // an older skiffd: the panel's own
  }
}
const agentCommands = () => (cur() && cur().commands) || [];
slash.attach($("input"), {
  commands: () => [...agentCommands(), ...asCommands(promptsOf(prompts))],
  label: () => t(!agentCommands().length ? "slashPrompts" : promptsOf(prompts).length ? "slashBoth" : "slashCommands"),
  fill: async (text) => fill(text, valuesNow(document.documentElement.lang || "en", null)),
});
// Prompts saved in the panel meanwhile are offered from the next time the box is used.
$("input").addEventListener("focus", () => {
  if (opened) refreshPrompts();
});

// A sentence for the user about what they attach or send (it goes at their next action).
function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

// Pictures, PDFs and text files go with a message (skiffd checks them again); pictures only
// to an agent that takes them.
const attached = new Attachments({ box: $("attachments"), input: $("input"), zone: $("composer"), button: $("attach"), picker: $("attach-file"), say: notice,
  pictures: (name) => (cur() && cur().images === false ? t("errSkiffdAgentNoPictures", titles.get(cur().agent) || cur().agent, name) : "") });

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("input").value.trim();
  const sending = attached.items;
  if ((!text && !sending.length) || !chat) return;
  if (attached.reading) return notice(t("fileStillReading"));
  notice("");
  const c = cur();
  const files = attached.sendable();
  $("input").value = "";
  slash.close();
  c.messages.push({ role: "user", text, attached: sending.map(({ name, url, file, pages, size }) => ({ name, url, file, pages, size })) });
  attached.take(sending, false); // the message shows its pictures: their previews stay
  draw();
  $("stop").hidden = false;
  document.body.dataset.turn = "running";
  readHere = chat;
  const from = c.messages.length;
  const timed = { start: performance.now(), first: 0, use: null };
  const sid = chat; // (the user may open another chat meanwhile)
  turns.set(sid, timed);
  let cancelled = false;
  try {
    const r = await prompt(c, files.length ? { session: chat, text, attached: files } : { session: chat, text });
    cancelled = r.stopReason === "cancelled";
    counted(c.messages.slice(from).findLast((m) => m.role === "agent"), r, timed, c);
    if (cancelled) c.messages.push({ role: "note", text: t("stopped") });
  } catch (err) {
    c.messages.push({ role: "note", text: err.message });
    if (!$("input").value) $("input").value = text; // nothing is lost: the words go back in the box,
    attached.restore(sending); // and what went with them
  }
  // The turn's replies, read as they came: the rest of each is read, or nothing more after Stop.
  const turn = c.messages.slice(from);
  if (cancelled && turn.some((m) => hearing.has(m.id))) stopSpeaking();
  if (!cancelled) for (const m of turn) if (m.role === "agent") hear(m, true);
  for (const m of turn) if (hearing.has(m.id)) hearing.get(m.id).over = true;
  for (const m of turn) if (m.role === "agent") m.over = true; // its Details can show
  if (turns.get(sid) === timed) turns.delete(sid);
  $("stop").hidden = true;
  document.body.dataset.turn = "done";
  draw();
});
// The turns under way, by chat: when each was sent and when its first text, thought or card
// came (performance.now()), and the context window and cost the agent last told of, for its
// last reply's Details.
const turns = new Map();

// counted gives reply m, a turn's last in chat c, what the agent said the turn used (its tokens
// and model, in r, the prompt's result; else the model c's picker is on) and the turn's timing,
// as the panel's core does.
function counted(m, r, timed, c) {
  if (!m) return;
  const u = r.usage;
  if (u) m.usage = { input: u.input, output: u.output, reasoning: u.thought, cacheRead: u.cacheRead, total: u.total };
  const picker = (c.options || []).find((o) => o.category === "model" && o.current);
  const i = picker ? (picker.values || []).indexOf(picker.current) : -1;
  m.model = r.model || (picker ? (picker.labels && picker.labels[i]) || picker.current : "");
  m.provider = "acp:";
  if (timed.use) m.agentUse = timed.use;
  const now = performance.now();
  if (timed.first) m.firstMs = Math.max(1, Math.round(timed.first - timed.start));
  m.doneMs = Math.max(1, Math.round(now - timed.start));
}

// prompt sends a message; a chat skiffd no longer holds (it restarted, or the agent stopped)
// is opened again first, on the agent's session from before when the agent can take it up,
// and the message goes then (once: a second failure is the user's to read).
const gone = new Set(["errSkiffdAgentNotRunning", "errSkiffdAgentStopped"]);
async function prompt(c, params) {
  try {
    return await call("agent.prompt", params);
  } catch (err) {
    if (!gone.has(err.key) || !c.agent) throw err;
    const o = await call("agent.open", { agent: c.agent, session: params.session, resume: c.agentSession || "" });
    if (c.agentSession && o.how === "new") c.messages.push({ role: "note", text: t("noticeAgentForgot") });
    Object.assign(c, { images: !!o.images, agentSession: o.agentSession || c.agentSession });
    draw();
    await refreshChats();
    return call("agent.prompt", params);
  }
}
$("input").addEventListener("keydown", (e) => {
  if (slash.key(e)) return;
  if (e.key === "Enter" && !e.shiftKey) {
    e.preventDefault();
    $("composer").requestSubmit();
  }
});
$("stop").addEventListener("click", () => {
  // The reading stops with the press, not when the agent has stopped (which can take it a
  // while), and what the turn writes until then is not read.
  if (readHere === chat) readHere = "";
  if (hearing.has(speakingId())) stopSpeaking();
  call("agent.cancel", { session: chat });
});

// The browser's language (the web client has no settings of its own), before anything is drawn.
await setLanguage("auto");
await pair();
connect();
