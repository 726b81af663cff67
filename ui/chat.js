// The conversation: messages as the core stores them, drawn once each; a streaming reply grows
// through a Markdown Stream; the finished reply is rendered once, whole.
import { $, el, announce, banner, copyText } from "./dom.js";
import { call } from "./connection.js";
import { state, busy, hostedChat } from "./state.js";
import { render, Stream } from "./markdown.js";
import { flagNote, storedAttachment } from "./tools.js";
import { fileLabel } from "./attach.js";
import { planCard } from "./cards.js";
import { runEnded } from "./page.js";
import { t, say, chatTitle, onLanguage, errorWords } from "./i18n.js";
import { details } from "./details.js";
import { canSpeak, speak, reader, speakingId, spokenText, stopSpeaking, replyLanguage, trouble } from "./speech.js";

const streams = new Map(); // message id -> Stream

// Other views hook in here: a welcome screen that depends on the conversation, renderers for
// message roles this module does not draw itself (tool results).
// branch, when set (the panel's, not a page's chat), goes on in a new chat from a reply, or from
// a message of the user's with their new words (an edit of an earlier message).
export const hooks = { afterShow: () => {}, renderers: {}, runParams: () => ({}), branch: null };

function scroller() {
  return $("chat");
}

// atEnd says whether the chat shows its end (within 120 px). Read before something is drawn,
// it says whether to follow it: read after, a card that opens with its ask is taller than that,
// and the ask's buttons would stay below the fold.
function atEnd() {
  const box = scroller();
  return box.scrollHeight - box.scrollTop - box.clientHeight < 120;
}

export function scrollToEnd(force) {
  if (force || atEnd()) scroller().scrollTop = scroller().scrollHeight;
}

// showSession draws ses. When ses is the conversation already on screen (a reply starting, a
// regenerate, an edit), the messages that did not change keep their nodes and only the rest is
// drawn: a reply's cost does not grow with the length of the chat.
export function showSession(ses) {
  const prev = state.active && ses && state.active.id === ses.id ? state.active.messages : null;
  const follow = atEnd();
  state.active = ses;
  if (ses) ses.messages = ses.messages || [];
  const box = $("messages");
  const msgs = ses ? ses.messages : [];
  const nodes = [...box.querySelectorAll(":scope > .msg")];
  let keep = 0;
  if (prev && nodes.length === prev.length) {
    while (keep < prev.length && keep < msgs.length && sameMessage(prev[keep], msgs[keep])) keep++;
  }
  if (!prev) {
    stopSpeaking(); // another chat: what was read aloud is not on screen now
    hearing.clear();
    heard.clear();
  }
  for (const n of nodes.slice(keep)) {
    dropStream(n.dataset.id);
    if (n.dataset.id === speakingId()) stopSpeaking(); // a regenerate replaces it
    n.remove();
  }
  if (keep === 0) box.replaceChildren();
  $("title").textContent = msgs.length ? chatTitle(ses.title) : "Skiff";
  if (msgs.length === 0) box.append(el("p", { className: "empty", textContent: t("chatEmpty") }));
  for (const msg of msgs.slice(keep)) box.append(renderMessage(msg));
  updateButtons();
  if (!prev) scrollToEnd(true);
  else if (keep < msgs.length) scrollToEnd(follow);
  hooks.afterShow();
}

// A switch of language draws the chat on screen again: its notices, errors and asks are
// stored as keys, rendered in the language of the moment (a chat still streaming is redrawn
// by its next update instead).
onLanguage(() => {
  const ses = state.active;
  const empty = $("messages").querySelector(":scope > .empty");
  if (empty) empty.textContent = t("chatEmpty"); // no chat yet, or an empty one
  announce(""); // what was announced is past, and in the language it was said in
  if (!ses || state.streaming.has(ses.id)) return;
  state.active = null;
  showSession(ses);
});

function sameMessage(a, b) {
  return a.id === b.id && a.status === b.status && a.content === b.content && a.reasoning === b.reasoning && a.notice === b.notice;
}

function dropStream(id) {
  if (streams.has(id)) streams.get(id).cancel();
  streams.delete(id);
}

// redrawMessage draws one message again from state (an edit is cancelled, a reply ends).
export function redrawMessage(msg) {
  const n = messageNode(msg.id);
  if (!n) return;
  dropStream(msg.id);
  n.replaceWith(renderMessage(msg));
  drawActions();
}

function lastIndex(msgs, role) {
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === role) return i;
  return -1;
}

function renderMessage(msg) {
  const custom = hooks.renderers[msg.role];
  if (custom) return custom(msg);
  const n = el("article", { className: "msg", "aria-label": msg.role === "user" ? t("you") : "Skiff" });
  n.dataset.role = msg.role;
  n.dataset.id = msg.id;
  n.dataset.status = msg.status || "done";
  if (msg.page) {
    const what = msg.page.text && msg.page.selection ? "attachedBoth" : msg.page.selection ? "attachedSelection" : "attachedPage";
    n.append(el("div", { className: "attached", textContent: t(what, msg.page.title || msg.page.url) }));
    if (msg.page.flags && msg.page.flags.length) n.append(flagNote(msg.page.flags, t("thisPage")));
  }
  if (msg.reasoning) n.append(reasoningBox(msg.reasoning));
  const content = el("div", { className: "content" });
  n.append(content);
  if (msg.contentText) {
    // Words Skiff wrote itself (a workflow's replay), in the user's language: plain text.
    content.textContent = shownContent(msg);
    if (msg.images && msg.images.length) n.insertBefore(userImages(msg.images), content);
  } else if (msg.role === "user") {
    content.textContent = msg.content;
    if (msg.images && msg.images.length) n.insertBefore(userImages(msg.images), content);
  } else if (msg.status === "streaming") {
    if (msg.content) streamInto(msg.id, content, msg.content);
    else content.append(typing());
  } else {
    content.append(render(msg.content || ""));
  }
  if (msg.role === "assistant" && !msg.content && !msg.reasoning && (msg.toolCalls || []).length && !msg.status) n.classList.add("calls-only");
  if (msg.plan && msg.plan.length) n.append(planCard(msg.plan));
  const note = notice(msg);
  if (note) n.append(note);
  return n;
}

// userImages are the pictures and files the user attached to a message, read from the core by
// their ids: a picture shown, a file as a chip with its name and its pages or size.
function userImages(ids) {
  const box = el("div", { className: "u-images" });
  for (const imageId of ids) {
    const img = el("img", { className: "u-image", alt: t("imageAlt") });
    box.append(img);
    storedAttachment(imageId)
      .then((a) => {
        if (!a.file) img.src = a.url;
        else img.replaceWith(el("span", { className: "u-file file-chip", title: a.cut ? t("fileCut", a.name) : a.name, textContent: fileLabel(a) }));
      })
      .catch(() => img.replaceWith(el("span", { className: "note", textContent: t("imageGone") })));
  }
  return box;
}

// drawActions puts the message buttons where they belong now: Copy and Read aloud (Stop reading,
// while it is read) on replies, the versions of a regenerated last reply, Continue on a last
// reply that was cut off, Regenerate on the
// last reply, Edit on the last user message (on each, in the panel: an earlier one is sent in a
// branch), Branch on finished replies (in the panel), Details where they are known, none while a
// reply streams. It touches only the buttons, never the messages' content.
function drawActions() {
  const msgs = state.active ? state.active.messages : [];
  const lastUser = lastIndex(msgs, "user");
  const lastReply = lastIndex(msgs, "assistant");
  const isBusy = busy();
  const hosted = hostedChat(state.active);
  // A workflow's replay began with its own words, not a message to a model: they are not
  // edited or answered again (the workflow runs again from Workflows; a stop offers the model).
  const replayStart = state.active && state.active.workflow ? msgs.findIndex((m) => m.role === "user") : -1;
  $("messages").querySelectorAll(":scope > .msg").forEach((n, i) => {
    n.querySelector(":scope > .m-actions")?.remove();
    n.querySelector(":scope > .m-info")?.remove();
    const msg = msgs[i];
    if (isBusy || !msg || msg.id !== n.dataset.id || n.querySelector(".edit-box")) return;
    const actions = el("div", { className: "m-actions" });
    if (msg.role === "assistant" && msg.content) actions.append(el("button", { type: "button", className: "copy-msg", textContent: t("copy"), "aria-label": t("copyReply") }));
    if (msg.role === "assistant" && msg.content && canSpeak()) {
      const reading = speakingId() === msg.id;
      actions.append(el("button", { type: "button", className: "speak-msg", textContent: t(reading ? "stopReading" : "readAloud"), "aria-label": t(reading ? "stopReading" : "readAloudReply"), "aria-pressed": String(reading) }));
    }
    if (i === msgs.length - 1 && msg.role === "assistant" && (msg.versions || []).length) actions.append(versionSwitch(msg));
    if (i === msgs.length - 1 && !hosted && cut(msg)) actions.append(el("button", { type: "button", className: "continue-msg", textContent: t("continueReply"), "aria-label": t("continueReplyOf") }));
    if (msg.role === "assistant" && i === lastReply && lastReply > lastUser && lastUser !== replayStart) actions.append(el("button", { type: "button", className: "regenerate", textContent: t("regenerate") }));
    if (msg.role === "user" && i !== replayStart && (i === lastUser || (hooks.branch && !hosted))) actions.append(el("button", { type: "button", className: "edit", textContent: t("edit"), "aria-label": t("editResend") }));
    if (hooks.branch && msg.role === "assistant" && msg.content && !(msg.toolCalls || []).length && !hosted) {
      actions.append(el("button", { type: "button", className: "branch-msg", textContent: t("branch"), title: t("branchFrom"), "aria-label": t("branchFrom") }));
    }
    const info = msg.role === "assistant" && msg.status !== "streaming" ? details(msg, runOf(msgs, i)) : "";
    if (info) {
      const open = detailsOpen.has(msg.id);
      actions.append(el("button", { type: "button", className: "info-msg", textContent: t("replyDetails"), "aria-label": t("replyDetailsOf"), "aria-expanded": String(open), "aria-controls": "info-" + msg.id }));
    }
    if (actions.childElementCount) n.append(actions);
    if (info && detailsOpen.has(msg.id)) n.append(el("div", { className: "m-info", id: "info-" + msg.id, textContent: info }));
  });
}

// versionSwitch goes from one version of a regenerated reply to another: ‹ 2 / 3 ›.
function versionSwitch(msg) {
  const n = msg.versions.length + 1;
  const at = Math.min(Math.max(msg.version || 0, 0), n - 1);
  const go = (k, label, text) => {
    const b = el("button", { type: "button", className: "version-go", textContent: text, "aria-label": label, disabled: k < 0 || k >= n });
    b.dataset.version = String(k);
    return b;
  };
  return el("span", { className: "versions", role: "group", "aria-label": t("versionOf", at + 1, n) },
    go(at - 1, t("versionEarlier"), "‹"), el("span", { className: "version-at", textContent: `${at + 1} / ${n}` }), go(at + 1, t("versionLater"), "›"));
}

// cut says whether a reply was cut off with words to go on from (the core's Continuable): stopped,
// failed or interrupted midway, or ended at the length limit.
function cut(msg) {
  if (msg.role !== "assistant" || !(msg.content || "").trim() || (msg.toolCalls || []).length || msg.contentText) return false;
  return ["stopped", "error", "interrupted"].includes(msg.status) || (!msg.status && msg.finish === "length");
}

// The replies whose details the user opened (this page's, not stored).
const detailsOpen = new Set();

// runOf is the model's replies of the run message i ends (since the user's message before it),
// when it made more than one: an agent run's turns, each with its own usage.
function runOf(msgs, i) {
  const turns = [];
  for (let j = i; j >= 0 && msgs[j].role !== "user"; j--) if (msgs[j].role === "assistant") turns.push(msgs[j]);
  return turns.length > 1 ? turns : [];
}

// shownContent is a message's text as the user reads it: a sentence Skiff wrote in their
// language, else the text as it came.
function shownContent(msg) {
  return say(msg.contentText, msg.content || "");
}

function typing() {
  return el("span", { className: "typing", role: "status", "aria-label": t("typing") }, el("i"), el("i"), el("i"));
}

function reasoningBox(text) {
  return el("details", {}, el("summary", { textContent: t("reasoning") }), el("div", { className: "reasoning", textContent: text }));
}

function notice(msg) {
  let text = {
    stopped: t("stopped"),
    interrupted: t("interrupted"),
    error: msg.error ? say(msg.error.text, msg.error.message) : t("replyFailed"),
  }[msg.status];
  if (msg.status === "error" && msg.error && msg.error.retryAfterMs) text += " " + t("retryIn", Math.ceil(msg.error.retryAfterMs / 1000));
  if (!text && msg.notice) text = say(msg.noticeText, msg.notice);
  return text ? el("div", { className: "notice", textContent: text }) : null;
}

export function messageNode(id) {
  return $("messages").querySelector(`.msg[data-id="${CSS.escape(id)}"]`);
}

function activeMessage(id) {
  return state.active ? state.active.messages.find((x) => x.id === id) : null;
}

// streamInto starts message id's Stream in its content node el, from text.
function streamInto(id, el, text) {
  const s = new Stream(el, "", null);
  s.heard = 0; // its finished parts read aloud as it came (or passed over)
  s.seen = 0; // the lines they held
  s.onFlush = () => {
    followEnd();
    hear(id, s);
  };
  streams.set(id, s);
  if (text) {
    s.text = text; // drawn at once, as a Stream made with it is
    s.flush();
  }
  return s;
}

// Read as it comes (Settings' Read aloud): a reply in the chat this panel last sent a message in
// is read while it streams, each paragraph once it is finished, and the rest when it ends. The
// Stop button, or Stop reading, ends it.
const hearing = new Map(); // message id -> {r: its reader, once it has words; lines: lines given to it}
const heard = new Set(); // the replies read so: a reply is not read by itself twice
const speechSettings = () => (state.settings && state.settings.speech) || {};
const readsAsItComes = () => !!(speechSettings().auto && canSpeak() && state.active && state.active.id === state.readHere);

// readerFor reads reply id as it comes, after the run's reply read before it, if it is still
// being read.
function readerFor(id) {
  return reader(id, (err) => {
    drawActions();
    if (err) banner(trouble(err));
  }, speechSettings(), replyLanguage, true);
}

// hear gives the reader the lines of stream s's parts finished since it last looked.
function hear(id, s) {
  let h = hearing.get(id);
  if (!h) {
    if (!readsAsItComes() || heard.has(id)) return;
    h = { r: null, lines: 0 };
    hearing.set(id, h);
    heard.add(id);
  }
  const parts = s.done.children;
  for (; s.heard < parts.length; s.heard++) {
    const lines = spokenLines(parts[s.heard]);
    const fresh = lines.slice(Math.max(0, h.lines - s.seen)); // a stream drawn again starts over
    s.seen += lines.length;
    if (!fresh.length) continue;
    if (!h.r) h.r = readerFor(id);
    if (!h.r.reading()) return; // stopped: the rest of this reply is not read
    h.r.add(fresh.join("\n"));
    h.lines += fresh.length;
  }
}

// stopHearing stops the reading of a reply read as it came (Stop pressed: the run and what it
// says end together, a reply finished before the Stop too), and what the run writes until it
// has stopped is not read either: a part finished after the press would start it again.
export function stopHearing() {
  state.readHere = null; // until the next message sent
  if (heard.has(speakingId())) stopSpeaking();
}

const spokenLines = (node) => spokenText(node).split("\n").filter(Boolean);

// heardAll reads what is left of finished reply msg (all of it when it did not stream), or
// stops it when the user stopped the reply.
function heardAll(msg) {
  let h = hearing.get(msg.id);
  hearing.delete(msg.id);
  if (msg.status === "stopped") {
    if (speakingId() === msg.id) stopSpeaking();
    return;
  }
  if (!h) {
    if (msg.role !== "assistant" || !msg.content || !readsAsItComes() || heard.has(msg.id)) return;
    h = { r: null, lines: 0 };
    heard.add(msg.id);
  }
  if (h.r && !h.r.reading()) return;
  const n = messageNode(msg.id);
  const rest = n ? spokenLines(n.querySelector(":scope > .content")).slice(h.lines) : [];
  if (!h.r) {
    if (!rest.length) return;
    h.r = readerFor(msg.id);
  }
  h.r.add(rest.join("\n"));
  h.r.finish();
}

// followEnd keeps the newest text in view unless the user scrolled up to read; it runs once per
// rendered frame, not per delta (reading scrollHeight forces a layout).
function followEnd() {
  scrollToEnd(false);
}

export function appendDelta(m) {
  const msg = activeMessage(m.messageId);
  if (msg) {
    if (m.text) msg.content = (msg.content || "") + m.text;
    if (m.reasoning) msg.reasoning = (msg.reasoning || "") + m.reasoning;
  }
  let s = streams.get(m.messageId);
  if (m.text && s) return s.append(m.text); // the common case: no DOM lookups per delta
  const n = messageNode(m.messageId);
  if (!n) return;
  if (m.text) streamInto(m.messageId, n.querySelector(".content"), "").append(m.text);
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

// upsertMessage puts a message the core pushed into the conversation on screen: replaced where
// it is, or added at the end.
export function upsertMessage(sessionId, msg) {
  if (!state.active || state.active.id !== sessionId) return;
  const msgs = state.active.messages;
  const i = msgs.findIndex((x) => x.id === msg.id);
  // Only the last message, grown or new, moves the end (a layout read, so only then).
  const follow = (i < 0 || i === msgs.length - 1) && atEnd();
  if (i >= 0) {
    msgs[i] = msg;
    redrawMessage(msg);
    if (follow) scrollToEnd(true); // a call now asking, its card open: still followed
    return;
  }
  msgs.push(msg);
  $("messages").querySelector(":scope > .empty")?.remove();
  $("messages").append(renderMessage(msg));
  drawActions();
  scrollToEnd(follow);
}

export function finishMessage(m) {
  if (state.active && state.active.id === m.sessionId) {
    const i = state.active.messages.findIndex((x) => x.id === m.messageId);
    if (i >= 0) state.active.messages[i] = m.message;
    redrawMessage(m.message); // the finished reply is rendered once, whole
    heardAll(m.message);
    drawActions();
  }
  const status = m.message.status;
  announce(status === "error" ? t("announceFailed", say(m.message.error.text, m.message.error.message)) : status === "stopped" ? t("announceStopped") : t("announceFinished"));
  updateButtons();
}

export function updateButtons() {
  const b = busy();
  $("send").hidden = b;
  $("stop").hidden = !b;
  drawActions();
  if (!b) runEnded();
}

$("messages").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  if (!b) return;
  const n = b.closest(".msg");
  if (b.classList.contains("copy-code")) {
    copyText(b.closest(".code").querySelector("pre").textContent, b);
  } else if (b.classList.contains("copy-msg")) {
    copyText(shownContent(activeMessage(n.dataset.id)), b);
  } else if (b.classList.contains("speak-msg")) {
    readAloud(n);
  } else if (b.classList.contains("info-msg")) {
    const id = n.dataset.id;
    if (!detailsOpen.delete(id)) detailsOpen.add(id);
    drawActions();
    n.querySelector(".info-msg")?.focus();
    n.querySelector(":scope > .m-info")?.scrollIntoView({ block: "nearest" }); // (under the last reply, below the fold)
  } else if (b.classList.contains("regenerate")) {
    try {
      state.readHere = state.active.id;
      await call("chat.regenerate", hooks.runParams());
    } catch (err) {
      banner(errorWords(err));
    }
  } else if (b.classList.contains("version-go")) {
    try {
      await call("chat.version", { sessionId: state.active.id, messageId: n.dataset.id, version: Number(b.dataset.version) });
      messageNode(n.dataset.id)?.querySelector(`.version-go[aria-label="${b.getAttribute("aria-label")}"]`)?.focus();
    } catch (err) {
      banner(errorWords(err));
    }
  } else if (b.classList.contains("continue-msg")) {
    try {
      state.readHere = state.active.id;
      await call("chat.continue", hooks.runParams());
    } catch (err) {
      banner(errorWords(err));
    }
  } else if (b.classList.contains("branch-msg")) {
    hooks.branch(n.dataset.id);
  } else if (b.classList.contains("edit")) {
    startEdit(n);
  }
});

// readAloud reads message node n's reply aloud, or stops it when it is the one being read.
async function readAloud(n) {
  const id = n.dataset.id;
  if (speakingId() === id) {
    stopSpeaking();
    return;
  }
  const text = spokenText(n.querySelector(":scope > .content"));
  const lang = await replyLanguage(text);
  speak(id, text, lang, (err) => {
    drawActions();
    if (!err) return;
    banner(trouble(err));
  }, (state.settings && state.settings.speech) || {});
  drawActions();
}

// startEdit opens message node n's text to edit: the last message of the user's is sent again
// in its place (what came after it is replaced); an earlier one is sent in a new chat branched
// there, so the chat and its later messages stay as they are.
function startEdit(n) {
  const msg = activeMessage(n.dataset.id);
  const msgs = state.active.messages;
  const earlier = msgs.indexOf(msg) !== lastIndex(msgs, "user");
  const content = n.querySelector(".content");
  const box = el("div", { className: "edit-box editing" });
  const ta = el("textarea", { value: msg.content, rows: 3, "aria-label": t("editMessage") });
  const send = el("button", { type: "button", className: "primary", textContent: t("send") });
  const cancel = el("button", { type: "button", textContent: t("cancel") });
  box.append(ta);
  if (earlier) box.append(el("p", { className: "note", textContent: t("editBranches") }));
  box.append(el("div", { className: "row" }, send, cancel));
  content.replaceWith(box);
  n.querySelector(".m-actions")?.remove();
  ta.focus();
  const done = () => redrawMessage(msg);
  const submit = async () => {
    if (!ta.value.trim()) return;
    if (earlier) {
      hooks.branch(msg.id, ta.value);
      return;
    }
    try {
      state.readHere = state.active.id;
      await call("chat.edit", { ...hooks.runParams(), text: ta.value });
    } catch (err) {
      banner(errorWords(err));
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
