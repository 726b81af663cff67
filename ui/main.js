// Skiff side panel. It holds no state that matters: everything lives in the worker's core and
// storage; the panel renders what the core sends over a runtime Port (connection.js) and
// redraws from the core's state whenever it (re)connects. One module per feature; this one
// wires them together, owns the views and the keyboard, and exposes the one test hook.
import { $, banner, announce } from "./dom.js";
import * as connection from "./connection.js";
import { state, shows, setProviders } from "./state.js";
import * as chat from "./chat.js";
import * as history from "./history.js";
import * as memories from "./memories.js";
import * as workflows from "./workflows.js";
import * as settings from "./settings.js";
import * as permissions from "./permissions.js";
import * as files from "./files.js";
import * as welcome from "./welcome.js";
import * as outside from "./outside.js";
import * as page from "./page.js";
import { newChat, showMode, toggleAgent, runParams, composerHooks } from "./composer.js";
import { renderTool } from "./tools.js";
import * as markdown from "./markdown.js";
import * as queue from "./queue.js";
import * as elsewhere from "./elsewhere.js";
import { initModelMenu } from "./modelmenu.js";
import { openFind, chatShown } from "./find.js";
import { t, setLanguage, chatTitle, errorWords } from "./i18n.js";

// ---- views: chat, history, memories, workflows, files, permissions, settings ----

const toggles = { history: "history-toggle", memories: "memories-toggle", workflows: "workflows-toggle", files: "files-toggle", permissions: "permissions-toggle", settings: "settings-toggle" };

// views counts the user's view changes: work that finishes late (a new chat the worker made)
// does not pull the user back from a view they opened meanwhile.
let views = 0;

function setView(view) {
  views++;
  const from = document.body.dataset.view;
  if (from === view) view = "chat";
  document.body.dataset.view = view;
  for (const v of Object.keys(toggles)) {
    $(v).hidden = v !== view;
    $(toggles[v]).setAttribute("aria-expanded", String(v === view));
  }
  if (view === "history") history.openHistory();
  if (view === "memories") memories.openMemories();
  if (view === "workflows") workflows.openWorkflows();
  if (view === "settings") settings.openSettings();
  if (view === "permissions") permissions.openPermissions();
  if (view === "files") files.openFiles();
  if (view === "chat") {
    (toggles[from] ? $(toggles[from]) : $("input")).focus();
    chat.scrollToEnd(true);
  }
}

function toChat() {
  if (document.body.dataset.view !== "chat") setView("chat");
}

async function startNewChat() {
  toChat();
  const asked = views;
  await newChat();
  if (views !== asked) return; // the user went to another view while it was made
  $("input").focus();
}

for (const [view, id] of Object.entries(toggles)) $(id).addEventListener("click", () => setView(view));
initModelMenu(() => setView("settings"), () => {
  settings.renderBadge();
  // Settings open behind the menu show the choice (a Save there would undo it otherwise).
  if (document.body.dataset.view === "settings") settings.openSettings();
});
$("new").addEventListener("click", startNewChat);

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && document.body.dataset.view !== "chat" && !e.target.closest(".editing")) {
    e.preventDefault();
    setView("chat");
  } else if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "n" || e.key === "N")) {
    e.preventDefault();
    startNewChat();
  } else if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "h" || e.key === "H")) {
    e.preventDefault();
    setView("history");
  } else if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "a" || e.key === "A")) {
    e.preventDefault();
    toggleAgent();
  } else if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === "f" || e.key === "F") && state.active && state.active.messages.length) {
    // Find in this chat (the side panel has no find bar; Chrome's would search the tab).
    e.preventDefault();
    toChat();
    openFind();
  }
});

history.init(toChat);
welcome.init(() => setView("settings"));
const pageReady = page.init(() => {
  toChat();
  $("input").focus();
});
chat.hooks.afterShow = () => {
  chatShown();
  drawBranchOf();
  welcome.maybeWelcome();
  elsewhere.draw();
  workflows.drawFinish();
  showMode(state.active);
  queue.loadQueue();
};
chat.hooks.renderers.tool = renderTool;
composerHooks.afterNew = history.refreshSessions;
chat.hooks.runParams = runParams;
// A branch says, above its messages, which chat it came from, with a way back to it.
function drawBranchOf() {
  const b = state.active && state.active.branchOf;
  $("branch-of").hidden = !b;
  if (b) $("branch-of-text").textContent = t("branchOf", chatTitle(b.title));
}
$("branch-of-open").addEventListener("click", async () => {
  try {
    chat.showSession(await connection.call("session.open", { sessionId: state.active.branchOf.id }));
  } catch (err) {
    banner(errorWords(err));
  }
});

// Branch under a reply: the new chat is shown, ready for the message that goes another way. An
// earlier message edited (text): the new chat ends with it, and is answered at once.
chat.hooks.branch = async (messageId, text) => {
  try {
    chat.showSession(await connection.call("session.branch", { sessionId: state.active.id, messageId, text }));
    announce(t("branched"));
    $("input").focus();
    if (text) {
      state.readHere = state.active.id;
      await connection.call("chat.regenerate", runParams());
    }
  } catch (err) {
    banner(errorWords(err));
  }
};
settings.hooks.saved = async () => {
  welcome.maybeWelcome();
  page.refreshPage();
  await setLanguage(state.settings.language); // at once, without a reload
};

// ---- what the core pushes ----

connection.on("chat.session", (m) => {
  state.streaming.add(m.sessionId);
  elsewhere.session(m.session);
  // Show the session this panel is on, or the one its first message started. A chat started
  // elsewhere (the chat on a page, another window's panel) does not take the panel over: a
  // call that asks there shows above the message box (elsewhere.js).
  if (shows(m.sessionId)) chat.showSession(m.session);
  announce(t("announceReplying"));
  history.refreshSessions();
  queue.draw();
});
connection.on("chat.delta", chat.appendDelta);
connection.on("sessions.changed", () => history.refreshSessions()); // another window renamed, deleted or imported chats
connection.on("chat.message", (m) => {
  chat.upsertMessage(m.sessionId, m.message);
  elsewhere.message(m.sessionId, m.message);
});
connection.on("chat.done", (m) => {
  state.streaming.delete(m.sessionId);
  chat.finishMessage(m);
  workflows.drawFinish(); // a replay that stopped may be handed to the model now
  elsewhere.ended(m.sessionId);
  history.refreshSessions();
  queue.draw();
});
connection.on("chat.queue", (m) => {
  if (state.active && state.active.id === m.sessionId) queue.drawQueue(m.sessionId, m.queue);
});
connection.on("fatal", (m) => banner(m.error));

// ---- start, and again after every reconnection ----

connection.onConnect(async () => {
  let st;
  try {
    st = await connection.call("core.hello", { private: page.privateWindow() });
  } catch (e) {
    banner(errorWords(e));
    return;
  }
  setProviders(st.providers);
  state.settings = st.settings;
  await setLanguage(st.settings.language);
  state.sessions = st.sessions || [];
  state.streaming = new Set(st.streaming);
  queue.drawQueue("", []); // read again for the chat shown next: the worker may have restarted
  settings.renderBadge();
  outside.renderLink(st.link);
  outside.renderBridge(st.bridge);
  outside.renderAsks(st.asks);
  chat.showSession(st.active);
  $("incognito-note").hidden = !page.privateWindow();
  elsewhere.reset(st.chatAsks);
  if (document.body.dataset.view === "history") history.renderSessionList(state.sessions);
  banner("");
  page.refreshPage();
  page.takeAsk();
  await takeHandoff();
  if (!document.body.dataset.ready) performance.mark("skiff-ready");
  document.body.dataset.ready = "1";
  // How many times the panel drew the core's state: tests that restart the worker wait for it.
  document.body.dataset.connections = String(+(document.body.dataset.connections || 0) + 1);
});

// "Open in the side panel" from the chat on a page: the overlay left its chat and draft in
// session storage; the panel that opens shows them.
async function takeHandoff() {
  const { handoff } = await chrome.storage.session.get("handoff");
  if (!handoff || Date.now() - handoff.at > 5 * 60 * 1000) return;
  await chrome.storage.session.remove("handoff");
  toChat();
  if (handoff.sessionId) {
    try {
      chat.showSession(await connection.call("session.open", { sessionId: handoff.sessionId }));
    } catch (e) {
      banner(errorWords(e));
    }
  }
  if (handoff.draft) $("input").value = handoff.draft;
  $("input").focus();
}
chrome.storage.session.onChanged.addListener((changes) => {
  if (changes.handoff && changes.handoff.newValue && document.body.dataset.ready) takeHandoff();
});

// The one test hook: what end-to-end tests and benchmarks may reach, and nothing else.
globalThis.skiffTest = { call: connection.call, disconnect: connection.disconnect, heldCore: connection.heldCore, state, markdown };

pageReady.then(() => connection.start());
