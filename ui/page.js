// Page context: the chip above the message box says what will go with the next message (the
// active tab, read in the page by ext/page/extract.js) and follows the active tab; ✕ leaves it
// out of the next message.
import { $ } from "./dom.js";
import { state } from "./state.js";

let focusInput = () => {};

export function init(toInput) {
  focusInput = toInput;
}

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

export async function extract(tabId) {
  const [r] = await chrome.scripting.executeScript({ target: { tabId }, files: PAGE_FILES });
  if (!r || !r.result) throw new Error("the page returned nothing");
  return r.result;
}

export async function refreshPage() {
  if (!state.settings) return;
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
export async function pageForSend() {
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

export function afterSend() {
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
export async function takeAsk() {
  const { ask } = await chrome.storage.session.get("ask");
  if (!ask || Date.now() - ask.at > 5 * 60 * 1000) return;
  await chrome.storage.session.remove("ask");
  page.ask = ask;
  page.removed = false;
  $("input").placeholder = "Ask about the selected text…";
  focusInput();
  drawChip();
}
chrome.storage.session.onChanged.addListener((changes) => {
  if (changes.ask && changes.ask.newValue && state.settings) takeAsk();
});
