// Skiff's chat on top of a page: this page runs in the frame ext/page/overlay.js puts in the
// page, with the side panel's own modules (chat, composer, queue, page chip) and the
// extension's CSP. The core gives it the "overlay" role: it chats about the page it is on and
// nothing more. It never answers a permission ask (a page can lure clicks into what it embeds):
// asks wait in the side panel, and the overlay says so. Its chat is kept per tab, so closing
// and opening it again goes on with the same conversation; "Open in the side panel" moves the
// chat there, with the draft.
import { $, el, banner, announce } from "./dom.js";
import * as connection from "./connection.js";
import { state, providerDef, shows, modelOf, setProviders } from "./state.js";
import * as chat from "./chat.js";
import * as page from "./page.js";
import * as queue from "./queue.js";
import { renderTool, toolHooks } from "./tools.js";
import { newChat, showMode, toggleAgent, runParams, composerHooks } from "./composer.js";
import { t, setLanguage, errorWords } from "./i18n.js";

composerHooks.placeholder = "placeholderOverlay";

let tab = 0; // the tab this overlay is on (the core says which)
const chatKey = () => "overlay-chat:" + tab;

function closeOverlay() {
  parent.postMessage({ skiff: "close" }, "*"); // the host trusts only this frame's messages
}

// Asks are answered in the side panel; opening it is the user's click here, so it is the
// first call of the handler (Chrome wants the gesture).
function openPanel() {
  if (tab) chrome.sidePanel.open({ tabId: tab }).catch((e) => {
    console.error(e); // Chrome's reason, in its English
    banner(t("overlayPanelFailed"));
  });
}

toolHooks.ask = () => {
  const b = el("button", { type: "button", className: "link", textContent: t("overlayOpenPanel") });
  b.addEventListener("click", () => {
    openPanel();
    chrome.storage.session.set({ handoff: { sessionId: state.active ? state.active.id : "", draft: "", at: Date.now() } });
  });
  return el("div", { className: "ask ask-elsewhere", role: "status" },
    el("p", { textContent: t("overlayAsk") }), b);
};

$("to-panel").addEventListener("click", () => {
  openPanel();
  chrome.storage.session.set({ handoff: { sessionId: state.active ? state.active.id : "", draft: $("input").value, at: Date.now() } });
  $("input").value = "";
  closeOverlay();
});
$("new").addEventListener("click", async () => {
  await newChat();
  remember();
  $("input").focus();
});

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !e.target.closest(".editing")) {
    e.preventDefault();
    closeOverlay();
  } else if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "n" || e.key === "N")) {
    e.preventDefault();
    $("new").click();
  } else if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "a" || e.key === "A")) {
    e.preventDefault();
    toggleAgent();
  }
});
// The host asks for the focus when it shows the overlay again.
addEventListener("message", (e) => {
  if (e.source === parent && e.data && e.data.skiff === "focus") $("input").focus();
});

function remember() {
  if (tab && state.active && state.active.id) chrome.storage.session.set({ [chatKey()]: state.active.id });
}

function renderBadge() {
  const s = state.settings;
  const p = s && providerDef(s.provider);
  if (!p) return;
  $("model-badge").textContent = p.agent ? p.name : modelOf(s); // the model alone: the frame is narrow
}

chat.hooks.afterShow = () => {
  showMode(state.active);
  queue.loadQueue();
};
chat.hooks.renderers.tool = renderTool;
chat.hooks.runParams = runParams;

// What the core pushes. Every chat's updates reach every page: this one draws its own chat
// only (or the one its first message starts).
connection.on("chat.session", (m) => {
  if (!shows(m.sessionId)) return;
  state.streaming.add(m.sessionId);
  chat.showSession(m.session);
  remember();
  announce(t("announceReplying"));
  queue.draw();
});
connection.on("chat.delta", chat.appendDelta);
connection.on("chat.message", (m) => chat.upsertMessage(m.sessionId, m.message));
connection.on("chat.done", (m) => {
  state.streaming.delete(m.sessionId);
  if (!state.active || state.active.id !== m.sessionId) return;
  chat.finishMessage(m);
  queue.draw();
});
connection.on("chat.queue", (m) => {
  if (state.active && state.active.id === m.sessionId) queue.drawQueue(m.sessionId, m.queue);
});
connection.on("fatal", (m) => banner(m.error));

connection.onConnect(async () => {
  let st;
  try {
    st = await connection.call("core.hello");
  } catch (e) {
    banner(errorWords(e));
    return;
  }
  setProviders(st.providers);
  state.settings = st.settings;
  await setLanguage(st.settings.language);
  tab = st.tab || 0;
  page.pin(tab);
  renderBadge();
  // This tab's chat, if it has one and it still exists.
  let ses = null;
  const id = tab ? (await chrome.storage.session.get(chatKey()))[chatKey()] : "";
  if (id) {
    try {
      ses = await connection.call("session.open", { sessionId: id });
    } catch {
      ses = null; // deleted meanwhile: a new chat starts with the next message
    }
  }
  state.streaming = new Set(ses && st.streaming.includes(ses.id) ? [ses.id] : []);
  queue.drawQueue("", []);
  chat.showSession(ses);
  if (!ses || !ses.messages.length) {
    $("messages").replaceChildren(el("p", { className: "empty", textContent: t("overlayEmpty") }));
  }
  banner("");
  const chip = page.refreshPage();
  if (!document.body.dataset.ready) performance.mark("skiff-ready");
  document.body.dataset.ready = "1";
  $("input").focus();
  // Once the page chip is drawn too, the overlay is still until the user or a chat moves it: it
  // says so to its host. The page hears it as well (any message to its window reaches it), and
  // learns nothing it could not see already: the overlay is there. Tests wait on it before they
  // look inside the frame.
  chip.finally(() => parent.postMessage({ skiff: "settled" }, "*"));
});

globalThis.skiffTest = { call: connection.call, heldCore: connection.heldCore, state };

// The chip's window does not matter here (the core reads this overlay's own tab): connect at once.
page.init(() => $("input").focus());
connection.start();
