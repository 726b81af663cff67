// Page context: the chip above the message box says what will go with the next message (the
// active tab of this window, read by the core with ext/page/extract.js) and follows the active
// tab; ✕ leaves it out of the next message. The core reads the page again when the message is
// sent (it keeps what it read for the chip, and reads the selection then).
import { $ } from "./dom.js";
import { call } from "./connection.js";
import { state, busy } from "./state.js";
import { t, say, onLanguage, errorWords } from "./i18n.js";

let focusInput = () => {};
let windowId = 0;
let incognito = false;

export async function init(toInput) {
  focusInput = toInput;
  // In the side panel, the page that goes with a message is the active tab of the panel's
  // window. Opened as a tab of its own, the panel follows the last focused window instead.
  try {
    const win = (await chrome.tabs.getCurrent()) ? null : await chrome.windows.getCurrent();
    windowId = win ? win.id : 0;
    incognito = !!(win && win.incognito);
  } catch {
    windowId = 0;
  }
}

export const currentWindow = () => windowId;
// privateWindow: the panel is in an incognito window. Its chats are private ones, which Skiff
// keeps in memory only while an incognito window is open; it lists and opens those only.
export const privateWindow = () => incognito;

// pin keeps the chip on one tab (the overlay's, which is about the page it is on): the active
// tab and window changes are not followed.
let pinned = 0;
export function pin(tabId) {
  pinned = tabId || 0;
}

// hasAsk says whether a selection from the context menu waits for the next message.
export const hasAsk = () => !!page.ask;

// page is what will be attached to the next message: what the core said about the active tab,
// whether the user removed it, and a selection from the context menu.
const page = { peek: null, removed: false, ask: null, seq: 0, loading: false };
let deferred = null; // a read put off while a run acts (pageChanged): whether it is to be fresh

export async function refreshPage(fresh = false) {
  if (!state.settings) return;
  const seq = ++page.seq;
  if (!state.settings.pageContext && !page.ask) {
    page.peek = null;
    return drawChip();
  }
  page.loading = true;
  drawChip();
  let peek;
  try {
    peek = await call("page.peek", { windowId, fresh });
  } catch (e) {
    peek = { error: errorWords(e) };
  }
  if (seq !== page.seq) return;
  if (!page.peek || !peek || page.peek.tabId !== peek.tabId || page.peek.url !== peek.url) page.removed = false;
  page.peek = peek;
  page.loading = false;
  drawChip();
}

function drawChip() {
  const chip = $("page-chip");
  const on = (state.settings && state.settings.pageContext) || page.ask;
  chip.hidden = !on || (!page.peek && !page.ask && !page.loading);
  if (chip.hidden) return;
  $("page-chip-remove").hidden = false;
  $("page-chip-add").hidden = true;
  let text;
  const p = page.peek;
  if (page.removed) {
    chip.dataset.state = "removed";
    text = t("chipRemoved");
    $("page-chip-remove").hidden = true;
    $("page-chip-add").hidden = false;
  } else if (page.ask) {
    chip.dataset.state = "attached";
    text = t("chipSelection", page.ask.text.length, page.ask.title || page.ask.url);
  } else if (page.loading && !p) {
    chip.dataset.state = "loading";
    text = t("chipReading");
  } else if (p && p.error) {
    chip.dataset.state = "unavailable";
    text = say(p.errorText, p.error);
    text = text.charAt(0).toUpperCase() + text.slice(1);
    $("page-chip-remove").hidden = true;
  } else if (p && p.reading && deferred !== null) {
    chip.dataset.state = "later"; // read once the run ends
    text = t("chipTitleLater", p.title);
  } else if (p && p.reading) {
    chip.dataset.state = "loading";
    text = t("chipTitleReading", p.title);
  } else if (p) {
    chip.dataset.state = "attached";
    text = t(p.selection ? "chipWordsSelection" : "chipWords", p.words, p.title);
  } else {
    chip.dataset.state = "loading";
    text = t("chipReading");
  }
  $("page-chip-text").textContent = text;
  chip.title = chip.dataset.state === "attached" ? t("chipAttachedTo", page.ask ? page.ask.url : p.url) : "";
  chip.setAttribute("aria-label", t("chipName", text));
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

// attachForSend says what goes with the message being sent: the context menu's selection, or
// the page in front of the user, which the core finds when the message is sent (the active tab
// of this window and its current document, whatever the chip showed a moment before); removed
// says the user left out the page the chip shows.
export function attachForSend() {
  if (page.ask) {
    const tabId = page.peek && page.peek.url === page.ask.url ? page.peek.tabId : 0;
    return { tabId, url: page.ask.url, page: { url: page.ask.url, title: page.ask.title || "", selection: page.ask.text } };
  }
  if (!state.settings.pageContext) return null;
  const p = page.peek || {};
  return { tabId: p.tabId || 0, url: p.url || "", removed: page.removed };
}

// pageInFront is the address and title of the page in front of the user now (the tab the chip
// follows: the window's active tab, or the overlay's), for a prompt's {{url}} and {{title}}; null
// when there is none Skiff may name (Skiff's own page, a window without tabs).
export async function pageInFront() {
  let tab = null;
  try {
    if (pinned) tab = await chrome.tabs.get(pinned);
    else [tab] = await chrome.tabs.query(windowId ? { active: true, windowId } : { active: true, lastFocusedWindow: true });
  } catch {
    return null;
  }
  const url = tab && (tab.url || tab.pendingUrl);
  if (!url || url.startsWith(location.origin)) return null;
  return { url, title: tab.title || url };
}

export function afterSend() {
  page.removed = false;
  page.ask = null;
  drawChip();
}

// The chip follows the active tab and its navigations at once: what the tab says of itself
// (its title and address) is drawn in the same frame as the event, and the page is read
// (words, selection) a moment later.
let pageTimer = 0;
function pageChanged(fresh) {
  clearTimeout(pageTimer);
  // While the chat on screen runs, reading the page for the chip (the whole article, 30-100 ms
  // of the page's own thread) would slow the run's calls into that page at each navigation:
  // the chip shows what the tab says of itself, and the page is read once the run ends (a
  // message sent meanwhile reads it then in any case).
  if (busy()) {
    deferred = !!deferred || !!fresh;
    return drawChip();
  }
  pageTimer = setTimeout(() => refreshPage(fresh), 150);
}
// runEnded reads the page for the chip if a read was put off while the run acted.
export function runEnded() {
  if (deferred === null || busy()) return;
  const fresh = deferred;
  deferred = null;
  pageChanged(fresh);
}
function showTab(t) {
  if (!t || !state.settings || (!state.settings.pageContext && !page.ask)) return;
  if (t.url && t.url.startsWith(location.origin)) return; // Skiff's own page
  if (pinned && t.id !== pinned) return;
  const moved = !page.peek || page.peek.tabId !== t.id || page.peek.url !== (t.url || t.pendingUrl || "");
  if (!moved) return;
  page.seq++; // a read still under way is for another page now
  page.removed = false;
  page.peek = { tabId: t.id, url: t.url || t.pendingUrl || "", title: t.title || t.url || "", words: 0, reading: true };
  page.loading = true;
  drawChip();
}
async function showActive() {
  try {
    const q = windowId ? { active: true, windowId } : { active: true, lastFocusedWindow: true };
    const [t] = await chrome.tabs.query(q);
    showTab(t);
  } catch {
    /* the next event tries again */
  }
}
// What each tab last said of itself (title, address), so that a switch is drawn in the frame
// of its event, not after a round trip to the browser that a busy machine makes long.
const tabs = new Map();
function remember(t) {
  if (t && t.id !== undefined) tabs.set(t.id, { id: t.id, url: t.url, pendingUrl: t.pendingUrl, title: t.title, windowId: t.windowId });
}
chrome.tabs.query({}).then((all) => all.forEach((t) => tabs.has(t.id) || remember(t)), () => {});
chrome.tabs.onCreated.addListener(remember);
chrome.tabs.onRemoved.addListener((tabId) => tabs.delete(tabId));
chrome.tabs.onActivated.addListener((info) => {
  if (!windowId || info.windowId === windowId) {
    if (tabs.has(info.tabId)) showTab(tabs.get(info.tabId));
    chrome.tabs.get(info.tabId).then((t) => {
      remember(t);
      showTab(t);
    }, () => {});
  }
  pageChanged(false);
});
chrome.tabs.onUpdated.addListener((tabId, info, tab) => {
  remember(tab);
  // A navigation of the tab on the chip (not title changes alone: unread counters).
  if (page.peek && tabId === page.peek.tabId && (info.url || info.status === "loading")) showTab(tab);
  // Not read yet (loading, or put off while a run acts): the title the tab gives is the best name.
  else if (page.peek && tabId === page.peek.tabId && info.title && page.peek.reading) {
    page.peek.title = info.title;
    drawChip();
  }
  if (page.peek && tabId === page.peek.tabId && (info.status === "complete" || info.url)) pageChanged(info.status === "complete");
});
chrome.windows.onFocusChanged.addListener(() => {
  if (!windowId) showActive();
  pageChanged(false);
});

// "Ask Skiff about the selection" (context menu): the worker opens the panel and leaves the
// selection in session storage for whichever panel picks it up first.
export async function takeAsk() {
  const { ask } = await chrome.storage.session.get("ask");
  if (!ask || Date.now() - ask.at > 5 * 60 * 1000) return;
  await chrome.storage.session.remove("ask");
  page.ask = ask;
  page.removed = false;
  $("input").placeholder = t("placeholderSelection");
  focusInput();
  drawChip();
}
chrome.storage.session.onChanged.addListener((changes) => {
  if (changes.ask && changes.ask.newValue && state.settings) takeAsk();
});
onLanguage(() => drawChip());
