// Skiff's service worker: a thin shim. Every chrome.* listener that must wake the worker is
// registered synchronously at top level (Chrome only wakes a worker for listeners registered on
// its first run), events are queued until core.wasm is ready, then forwarded. There is no
// application logic here: the core (wasm/) decides everything, including whether a port's or a
// message's sender is trusted.
importScripts("wasm_exec.js", "core-build.js"); // core-build.js: globalThis.skiffCoreBuild, core.wasm's hash (build.sh)

const ready = new Promise((resolve, reject) => {
  globalThis.__skiffReady = (core, err) => (core ? resolve(core) : reject(new Error(err)));
});

// core.wasm is compiled from a copy in the Cache API, not from the extension's file: Chrome
// hands a cached response to the compiler faster than it reads an extension resource, and a
// worker wakes often. The copy is keyed by the build's hash, so a rebuilt or updated core is
// never run from an old copy (the miss fetches the file and replaces every other copy), and
// anything wrong with the copy or the Cache API (a damaged entry, a full disk) falls back to
// the file: the cache can make a wake faster, never make it fail.
const coreKey = "https://skiff.invalid/core.wasm?" + globalThis.skiffCoreBuild;
async function cachedCore() {
  const cache = await caches.open("skiff-core");
  const hit = await cache.match(coreKey);
  if (hit) return hit;
  const res = await fetch("core.wasm");
  if (!res.ok) return res;
  const copy = res.clone();
  (async () => {
    for (const req of await cache.keys()) await cache.delete(req);
    await cache.put(coreKey, copy);
  })().catch((e) => console.warn("core.wasm not cached:", e));
  return res;
}
// The core starts when something needs it (a panel, a page's chat, a dialog report, an alarm,
// the browser starting), not whenever the worker wakes: Chrome also wakes the worker for every
// page load of every tab (the tab listeners below), and those events only concern a core that
// is already running.
let started = false;
function core() {
  if (started) return ready;
  started = true;
  heardNetErrors();
  const go = new Go();
  // The copy is compiled as it streams out of the Cache API: V8 decodes and validates it on
  // background threads while it arrives, and, while a panel keeps the core compiled
  // (ui/connection.js holdCore), finds the code it already has once the last byte is in.
  // Measured in this worker (traced wakes, 15 a run, alternating with reading the copy whole
  // and compiling it synchronously): from the panel, 57.7 ms to the core's answer against
  // 70.8 (the whole read alone took 15 ms and the synchronous compile 26, one after the
  // other); with nothing holding the code, 99.6 against 101.1. (An earlier probe, timed
  // against streaming in another order, had the whole read win: timed side by side, it does not.)
  cachedCore()
    .then((res) => WebAssembly.compileStreaming(res))
    .then((module) => ({ instance: new WebAssembly.Instance(module, go.importObject) }))
    .catch((err) => {
      console.warn("core.wasm from the cache failed, loading the file:", err);
      caches.delete("skiff-core").catch(() => {});
      return WebAssembly.instantiateStreaming(fetch("core.wasm"), go.importObject);
    })
    .then(({ instance }) => go.run(instance))
    .catch((err) => {
      console.error("core.wasm stopped:", err); // a crash after start is visible in the worker's console
      globalThis.__skiffReady(null, "core.wasm failed to load: " + err);
    });
  return ready;
}

// The function the core hands to chrome.scripting.executeScript: Chrome serializes it and runs
// it in a page's isolated world, where it calls the page-side API of ext/page/skiff.js, or
// says that API is missing so the core injects it first. origin, when given, is the site the
// call was approved for: a tab that has moved on to another site since refuses it here, in
// the page, so nothing of the new site is read or run.
globalThis.skiffPageCall = (name, args, origin) => {
  if (origin) {
    const up = location.ancestorOrigins;
    const top = up && up.length ? up[up.length - 1] : location.origin;
    let want = origin;
    try {
      want = new URL(origin).origin;
    } catch {}
    if (top !== want) return { movedTo: top }; // the core says it in words
  }
  return globalThis.skiffPage ? globalThis.skiffPage.call(name, args) : "__skiff_missing__";
};

// The action button opens the side panel (the setting persists; set again on every start so an
// update cannot lose it).
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((e) => console.error(e));

chrome.runtime.onConnect.addListener((port) => {
  const inbox = [];
  let deliver = (m) => inbox.push(m);
  port.onMessage.addListener((m) => deliver(m));
  core().then(
    (core) => {
      const handle = core.connect(port);
      if (!handle) return; // untrusted sender: the core disconnected it
      deliver = handle;
      for (const m of inbox.splice(0)) handle(m);
    },
    (err) => {
      port.postMessage(JSON.stringify({ type: "fatal", error: String(err.message || err) }));
    },
  );
});

// Browser events the core follows: a page's dialogs (reported by ext/page/dialog.js), the
// debugger's events and detaches, closed tabs. Forwarded as (kind, JSON, sender) once ready.
function forward(kind, data, sender) {
  core().then((core) => core.event(kind, JSON.stringify(data), sender || null), () => {});
}
chrome.runtime.onMessage.addListener((msg, sender) => {
  forward("message", msg, { id: sender.id, url: sender.url, tabId: sender.tab ? sender.tab.id : -1, frameId: sender.frameId, documentId: sender.documentId || "" });
});
// Of the network events (followed while an action runs), the core needs only which request,
// what kind, where to and how (network_requests says it), and how it ended: not the headers
// and script stacks each carries, at every request of a page.
const netOnly = (p) => ({
  requestId: p.requestId,
  type: p.type,
  request: p.request && { url: p.request.url, method: p.request.method },
  response: p.response && { status: p.response.status },
  errorText: p.errorText,
  canceled: p.canceled,
  blockedReason: p.blockedReason,
});
chrome.debugger.onEvent.addListener((source, method, params) =>
  forward("debugger.event", { tabId: source.tabId, method, params: method.startsWith("Network.") && params ? netOnly(params) : params }),
);
chrome.debugger.onDetach.addListener((source, reason) => forward("debugger.detach", { tabId: source.tabId, reason }));
// The link to skiffd: wake the core when the browser starts and on its keepalive alarm (set by
// the core only while a link is wanted), so a worker Chrome stopped comes back to reconnect.
chrome.runtime.onStartup.addListener(() => core().then((core) => core.wake(), () => {}));
chrome.alarms.onAlarm.addListener((a) => {
  if (a.name === "skiff-link") core().then((core) => core.wake(), () => {});
  // A scheduled run's time (the core sets this alarm at the earliest one).
  if (a.name === "skiff-schedule") core().then((core) => core.due(), () => {});
});
// A tab that navigates or closes drops what the running core holds of it (a page read, a
// dialog). Chrome wakes the worker for these at every page load of every tab the user browses,
// so they are forwarded only to a core already running: a core not running holds nothing.
chrome.tabs.onRemoved.addListener((tabId) => (started ? forward("tab.removed", { tabId }) : keepNetError(tabId, null)));
// A download an action set off is said in its result (internal/tool, downloaded).
chrome.downloads.onCreated.addListener((d) => started && forward("download.created", { id: d.id, url: d.finalUrl || d.url, referrer: d.referrer || "" }));
// A page setting out for another document (before it commits, which a slow server delays): an
// action says it went, rather than taking the tab's "loading" (every frame counts) for it.
chrome.webNavigation.onBeforeNavigate.addListener((d) => started && d.frameId === 0 && forward("tab.navigating", { tabId: d.tabId }));
// The tab a page opened, and which tab's page opened it: Chrome's openerTabId names the window's
// active tab when that page is in a background tab (an outside agent's, or one the user left).
chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => started && forward("tab.opened", { tabId: d.tabId, sourceTabId: d.sourceTabId }));
chrome.webNavigation.onCommitted.addListener((d) => {
  if (started) forward("tab.committed", { tabId: d.tabId, frameId: d.frameId, url: d.url, documentId: d.documentId || "" });
  else if (d.frameId === 0) keepNetError(d.tabId, null);
});
// Why a tab's page did not load (net::ERR_NAME_NOT_RESOLVED…), which its error page does not
// let an extension read. Chrome says it once, as the load fails, most often to a worker whose
// core is not running (a tab the user browses): it is kept in session storage, one a tab,
// until the tab loads a page or closes, and the core hears it when it starts (a panel opened
// over that error page, an outside agent's snapshot of it).
chrome.webNavigation.onErrorOccurred.addListener((d) => {
  if (d.frameId !== 0) return;
  const e = { tabId: d.tabId, url: d.url, error: d.error };
  if (started) forward("tab.neterror", e);
  else if (d.error !== "net::ERR_ABORTED") keepNetError(d.tabId, e);
});
const NET_ERRORS = "netErrors";
let netErrors = Promise.resolve(); // the writes to them, one after the other
let kept = null; // this worker's copy of them, read once: a page load of a tab with none writes nothing
const keptErrors = () =>
  (kept ??= chrome.storage.session.get(NET_ERRORS).then(
    (v) => v[NET_ERRORS] || {},
    (err) => {
      kept = null; // read again next time
      throw err;
    },
  ));
// keepNetError keeps e as why tab's page did not load, or forgets the tab's (e null).
function keepNetError(tab, e) {
  netErrors = netErrors
    .then(async () => {
      const all = await keptErrors();
      if (!e && !all[tab]) return;
      if (e) all[tab] = e;
      else delete all[tab];
      await chrome.storage.session.set({ [NET_ERRORS]: all });
    })
    .catch(() => {});
}
// heardNetErrors hands the core what was kept while it was not running.
function heardNetErrors() {
  netErrors = netErrors
    .then(async () => {
      const all = await keptErrors();
      kept = Promise.resolve({}); // the core has them now
      if (!Object.keys(all).length) return;
      await chrome.storage.session.remove(NET_ERRORS);
      for (const e of Object.values(all)) forward("tab.neterror", e);
    })
    .catch(() => {});
}

// Chats started in an incognito window are kept in memory only (session storage, keys
// "private/…"), and only while an incognito window is open: when the last one closes, a
// running core stops their runs and drops them, and whatever is left goes (a worker that was
// not running holds nothing of them, and is not started for it).
chrome.windows.onRemoved.addListener(() => {
  (async () => {
    if ((await chrome.windows.getAll()).some((w) => w.incognito)) return;
    const left = async () => Object.keys(await chrome.storage.session.get(null)).filter((k) => k.startsWith("private/"));
    if (!(await left()).length) return;
    if (started) await (await ready).forgetPrivate();
    const keys = await left();
    if (keys.length) await chrome.storage.session.remove(keys);
  })().catch((e) => console.warn("incognito chats not dropped:", e));
});

// "Ask Skiff about the selection" (menus are named in the browser's language, from ext/_locales).
// sidePanel.open needs the user's gesture, so it is the first
// call in the click handler; the selection waits in session storage (memory only, cleared when
// the browser closes) for the panel to take it.
chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.create(
    { id: "ask-selection", title: chrome.i18n.getMessage("menuAskSelection"), contexts: ["selection"] },
    () => void chrome.runtime.lastError, // already there after an update
  );
  chrome.contextMenus.create(
    { id: "overlay", title: chrome.i18n.getMessage("menuOverlay"), contexts: ["page", "action"] },
    () => void chrome.runtime.lastError,
  );
});
function askAboutSelection(info, tab) {
  if (info.menuItemId === "overlay") return toggleOverlay(tab);
  if (info.menuItemId !== "ask-selection" || !tab) return;
  chrome.sidePanel.open({ windowId: tab.windowId }).catch((e) => console.error(e));
  chrome.storage.session.set({
    ask: { text: String(info.selectionText || "").slice(0, 8192), url: info.pageUrl || tab.url || "", title: tab.title || "", at: Date.now() },
  });
}
chrome.contextMenus.onClicked.addListener(askAboutSelection);

// A call waiting for the user's OK while no panel is open shows a notification (the core's
// chrome.Notifier, whose id names the window). Clicking it opens the panel there: the click is
// the user gesture sidePanel.open needs, so open is the first call.
chrome.notifications.onClicked.addListener((id) => {
  if (id.startsWith("skiff-run:")) {
    // A scheduled run's outcome: open the panel on the chat it left.
    chrome.sidePanel.open({ windowId: chrome.windows.WINDOW_ID_CURRENT }).catch((e) => console.error(e));
    chrome.storage.session.set({ handoff: { sessionId: id.slice("skiff-run:".length), draft: "", at: Date.now() } });
    chrome.notifications.clear(id);
    return;
  }
  if (!id.startsWith("skiff-ask:") && !id.startsWith("skiff-noverlay:")) return;
  const windowId = Number(id.slice(id.indexOf(":") + 1));
  chrome.sidePanel.open(windowId >= 0 ? { windowId } : { windowId: chrome.windows.WINDOW_ID_CURRENT }).catch((e) => console.error(e));
  chrome.notifications.clear(id);
});

// The chat on the page (ext/page/overlay.js, injected only when asked for, so pages that never
// open it pay nothing): the shortcut (rebindable at chrome://extensions/shortcuts), the page's
// and the toolbar button's context menu. A page Chrome will not let extensions script gets the
// side panel instead, opened first while the gesture lasts.
//
// Which pages those are is decided here, synchronously: sidePanel.open only works while the
// gesture lasts, so waiting for executeScript to fail first would lose it. Chrome's own pages,
// the Web Store (no extension may script it) and file: pages when the user has not allowed
// Skiff file access (read once at start) go straight to the side panel.
let fileAccess = false;
try {
  // (a throw here, at the top level, would stop the whole worker)
  Promise.resolve(chrome.extension.isAllowedFileSchemeAccess()).then((v) => (fileAccess = !!v), () => {});
} catch {}
function overlayAllowed(url) {
  if (/^https:\/\/(chromewebstore\.google\.com|chrome\.google\.com\/webstore)([/?#]|$)/.test(url)) return false;
  return /^https?:/.test(url) || (fileAccess && url.startsWith("file:"));
}
function toggleOverlay(tab) {
  if (!tab || tab.id === undefined) return;
  if (!overlayAllowed(tab.url || "")) {
    chrome.sidePanel.open({ tabId: tab.id }).catch((e) => console.error(e));
    return;
  }
  chrome.scripting.executeScript({ target: { tabId: tab.id }, files: ["page/overlay.js"] }).catch(() => {
    // Chrome would not let Skiff on this page after all (an error page, a host a policy
    // blocks, a viewer). The gesture is gone by now, so the panel may not open: then a
    // notification says so, and clicking it (a gesture of its own) opens the panel.
    chrome.sidePanel.open({ tabId: tab.id }).catch(() => {
      chrome.notifications.create("skiff-noverlay:" + tab.windowId, {
        type: "basic", iconUrl: "icons/skiff-128.png",
        title: chrome.i18n.getMessage("overlayUnavailableTitle"), message: chrome.i18n.getMessage("overlayUnavailable"),
      });
    });
  });
}
globalThis.skiffToggleOverlay = toggleOverlay; // the path tests take: commands cannot be pressed from DevTools
chrome.commands.onCommand.addListener((command, tab) => {
  if (command === "toggle-overlay") toggleOverlay(tab);
});
