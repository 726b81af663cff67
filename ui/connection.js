// The panel's link to the core in the service worker: one runtime Port, requests with ids and
// their replies, and pushes the core sends on its own (chat.*, tool.*). When the port drops
// (the worker was stopped), pending requests fail with a sentence and the panel reconnects,
// which wakes the worker; onConnect handlers then redraw from the core's state.

import { say, t } from "./i18n.js";

let port = null;
let nextId = 1;
const pending = new Map();
const pushHandlers = new Map();
const connectHandlers = [];

// on registers fn for pushes of a type ("chat.delta", "tool.ask"…).
export function on(type, fn) {
  pushHandlers.set(type, fn);
}

// onConnect registers fn to run after every (re)connection.
export function onConnect(fn) {
  connectHandlers.push(fn);
}

function connect() {
  port = chrome.runtime.connect({ name: "panel" });
  port.onMessage.addListener(receive);
  port.onDisconnect.addListener(() => {
    for (const { reject } of pending.values()) reject(Object.assign(new Error(t("workerRestarted")), { said: true }));
    pending.clear();
    port = null;
    setTimeout(reconnect, 100); // the worker was stopped: reconnecting wakes it
  });
}

function reconnect() {
  if (!port) connect();
  for (const fn of connectHandlers) fn();
}

// start connects and runs the onConnect handlers.
export function start() {
  reconnect();
}

// call sends a request and resolves with its result, or rejects with an Error whose message
// is the core's sentence in the user's language (and .field, for a settings field).
export function call(type, params = {}) {
  if (!port) connect();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    port.postMessage(JSON.stringify({ id, type, params }));
  });
}

function receive(raw) {
  const m = JSON.parse(raw);
  if (m.type === "reply") {
    holdCore(); // the core has answered: the page keeps its code
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(Object.assign(new Error(say(m.error.text, m.error.message)), { field: m.error.field, said: true }));
    return;
  }
  const fn = pushHandlers.get(m.type);
  if (fn) fn(m);
}

// holdCore compiles core.wasm in the panel and keeps the result while the panel is open; the
// panel never runs it. V8 keeps one compiled copy of a module per process and gives it to
// every context that compiles the same bytes, and the worker runs in the panel's process: a
// worker Chrome stopped (after 30 s idle; the panel's port wakes the next one at once) then
// starts on core.wasm's code ready-made, with each function the workers before it compiled
// and optimized, instead of compiling every function again on its first call (make bench:
// BenchmarkWake). It runs once, after the core's first answer (receive), when the running
// worker's copy makes this compile a lookup, and in a task of its own, after the answer's.
// Every page that talks to the core through this module holds it (the panel, and the chat on a
// page). While a worker runs, the copy is shared; while none does, it costs the extension's
// process the module's bytes and code.
let held = null;
function holdCore() {
  held ||= new Promise((next) => setTimeout(next, 0))
    .then(() => fetch("../core.wasm"))
    .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(r.statusText))))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((e) => {
      console.warn("core.wasm is not kept compiled in the panel:", e);
      return null;
    });
}

// heldCore is the panel's compiled core (a Promise of a WebAssembly.Module), or null before
// holdCore ran.
export function heldCore() {
  return held;
}

// disconnect drops the port without reconnecting (benchmarks measure a worker with no panel).
export function disconnect() {
  if (!port) return;
  port.onMessage.removeListener(receive);
  const p = port;
  port = null;
  p.disconnect();
}
