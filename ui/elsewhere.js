// Calls waiting for the user's answer in a chat the panel is not showing (the chat on a page,
// which never answers itself, or another chat still running): each shows above the message
// box with its ask box, naming its chat, so answering never depends on finding that chat
// first. The chat on screen shows its own asks in the conversation.
import { $, el, keyed } from "./dom.js";
import { state } from "./state.js";
import { askBox } from "./tools.js";
import { t } from "./i18n.js";
import { privateWindow } from "./page.js";

const waiting = new Map(); // message id -> { sessionId, msg }
const titles = new Map(); // session id -> title, as the core last said

// message follows a tool message the core pushed for any chat.
export function message(sessionId, msg) {
  // A chat of an incognito window (a private one) asks in the incognito windows' panels only.
  if (sessionId.startsWith("private-") !== privateWindow()) return;
  if (msg.role === "tool" && msg.status === "asking") waiting.set(msg.id, { sessionId, msg });
  else waiting.delete(msg.id);
  draw();
}

// reset replaces what waits with the core's list (core.hello's chatAsks), after every
// connection: a panel opened after a chat asked lists it, and what a restarted worker no
// longer waits on goes.
export function reset(asks) {
  waiting.clear();
  for (const a of asks || []) {
    waiting.set(a.message.id, { sessionId: a.sessionId, msg: a.message });
    titles.set(a.sessionId, a.title);
  }
  draw();
}

// session notes a chat's title; ended drops what waited in a chat whose run is over.
export function session(ses) {
  if (ses && ses.id) titles.set(ses.id, ses.title);
}
export function ended(sessionId) {
  for (const [id, w] of waiting) if (w.sessionId === sessionId) waiting.delete(id);
  draw();
}

export function draw() {
  const box = $("chat-asks");
  const here = state.active ? state.active.id : "";
  const items = [...waiting.values()].filter((w) => w.sessionId !== here);
  keyed(box, items, (w) => w.msg.id, (w) => {
    const title = titles.get(w.sessionId);
    const item = el("article", { className: "outside-ask chat-ask", "aria-label": t("anotherChatAsksName") },
      el("p", { className: "note", textContent: title && title !== "New chat" ? t("otherChatAsks", title) : t("anotherChatAsks") }),
      askBox(w.msg, w.sessionId));
    item.dataset.session = w.sessionId;
    item.dataset.tool = w.msg.tool.name;
    return item;
  }, () => {});
  box.hidden = !items.length;
}
