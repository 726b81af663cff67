// The same shim as Skiff's ext/sw.js, booting hello.wasm (bench/gohello) instead of core.wasm.
importScripts("wasm_exec.js");
const ready = new Promise((resolve, reject) => {
  globalThis.__skiffReady = (core, err) => (core ? resolve(core) : reject(new Error(err)));
});
const go = new Go();
WebAssembly.instantiateStreaming(fetch("hello.wasm"), go.importObject).then(({ instance }) => go.run(instance));
chrome.runtime.onConnect.addListener((port) => {
  const inbox = [];
  let deliver = (m) => inbox.push(m);
  port.onMessage.addListener((m) => deliver(m));
  ready.then((core) => {
    deliver = core.connect(port);
    for (const m of inbox.splice(0)) deliver(m);
  });
});
