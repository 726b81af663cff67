// Skiff's service worker: a thin shim. Every chrome.* listener is registered synchronously at
// top level (Chrome only wakes a worker for listeners registered on its first run), events are
// queued until core.wasm is ready, then forwarded. There is no application logic here: the core
// (wasm/) decides everything, including whether a port's sender is trusted.
importScripts("wasm_exec.js");

const ready = new Promise((resolve, reject) => {
  globalThis.__skiffReady = (core, err) => (core ? resolve(core) : reject(new Error(err)));
});

const go = new Go();
WebAssembly.instantiateStreaming(fetch("core.wasm"), go.importObject)
  .then(({ instance }) => go.run(instance))
  .catch((err) => globalThis.__skiffReady(null, "core.wasm failed to load: " + err));

// The action button opens the side panel (the setting persists; set again on every start so an
// update cannot lose it).
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((e) => console.error(e));

chrome.runtime.onConnect.addListener((port) => {
  const inbox = [];
  let deliver = (m) => inbox.push(m);
  port.onMessage.addListener((m) => deliver(m));
  ready.then(
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
