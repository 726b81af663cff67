// The model menu: the model badge (or Alt+M) opens a short list to change the model without
// going through Settings. It lists the chosen provider's models (the catalogue's at once, the
// provider's live list when it comes), then the other providers already set up (a key saved, a
// base URL, a local one used before) with the model each keeps (and, once the user types, each
// one's other models, its live list when it comes), the agents skiffd hosts, and a way to all
// of Settings. Typing filters it; the arrows move, Enter chooses, Escape closes.
// Choosing saves the settings as Settings does: the next message goes to that model.
import { $, el, announce } from "./dom.js";
import { call } from "./connection.js";
import { state, providerDef, agentDef } from "./state.js";
import { t, say, errorWords } from "./i18n.js";

let options = []; // what the list offers now: {provider, model, name}
let pick = 0; // the option the arrows are on
let moved = false; // the user moved or filtered since the menu opened
let openSettings = () => {};
let saved = () => {};
const live = new Map(); // provider id → its live model list, once fetched (this page's life)

// initModelMenu wires the badge and its menu. settings opens Settings; afterSave redraws what
// shows the model.
export function initModelMenu(settings, afterSave) {
  openSettings = settings;
  saved = afterSave;
  const badge = $("model-badge");
  const menu = $("model-menu");
  badge.addEventListener("click", () => (menu.hidden ? open() : close(true)));
  // Alt+M opens it from anywhere in the panel, as Alt+H opens History.
  document.addEventListener("keydown", (e) => {
    if (e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && (e.key === "m" || e.key === "M" || e.code === "KeyM")) {
      e.preventDefault();
      if (menu.hidden) open();
      else close(true);
    }
  });
  $("model-find").addEventListener("input", () => {
    pick = 0;
    moved = true;
    if ($("model-find").value.trim()) fetchOthers();
    draw();
  });
  $("model-find").addEventListener("keydown", key);
  $("model-options").addEventListener("mousedown", (e) => e.preventDefault()); // the box keeps the focus
  $("model-options").addEventListener("click", (e) => {
    const li = e.target.closest("li[role=option]");
    if (li) choose(Number(li.dataset.i));
  });
  $("model-settings").addEventListener("click", () => {
    close(false);
    openSettings();
  });
  // A press anywhere else, or the focus leaving the menu, closes it.
  document.addEventListener("mousedown", (e) => {
    if (!menu.hidden && !menu.contains(e.target) && !badge.contains(e.target)) close(false);
  });
  menu.addEventListener("focusout", (e) => {
    if (!menu.hidden && e.relatedTarget && !menu.contains(e.relatedTarget) && e.relatedTarget !== badge) close(false);
  });
}

function open() {
  if (!state.settings) return;
  $("model-menu").hidden = false;
  $("model-badge").setAttribute("aria-expanded", "true");
  $("model-find").value = "";
  $("model-note").textContent = $("model-note").title = "";
  pick = -1; // on the model in use, once drawn
  moved = false;
  draw();
  $("model-find").focus();
  // The agents skiffd hosts join the list once it says which (none when it is not linked).
  call("agents.list").then((list) => {
    state.agents = list.map(agentDef);
    if ($("model-menu").hidden) return;
    if (!moved) pick = -1;
    draw();
  }, () => {});
  asked = new Set();
  const id = state.settings.provider;
  if (!providerDef(id) || providerDef(id).agent || live.has(id)) return;
  asked.add(id);
  $("model-note").textContent = t("sLoadingModels");
  // The list may still change under the pointer while its live list comes: say so, as
  // aria-busy does for a screen reader (and a test waits on it before it clicks).
  const list = $("model-options");
  list.setAttribute("aria-busy", "true");
  const settled = () => list.removeAttribute("aria-busy");
  call("provider.models", { provider: id }).finally(settled).then((r) => {
    if (r.live) live.set(id, r.models);
    if ($("model-menu").hidden || state.settings.provider !== id) return;
    $("model-note").textContent = $("model-note").title = r.live ? "" : t("sModelsBuiltIn", say(r.errorText, r.error));
    if (!moved) pick = -1; // still on the model in use, wherever the live list puts it
    draw();
  }, (e) => {
    if (!$("model-menu").hidden) $("model-note").textContent = $("model-note").title = errorWords(e);
  });
}

// fetchOthers asks each other provider set up for its live list, once the user types (what
// they type may be a model of another provider's: "mini", "llama"). Each is asked once a
// page's life (live keeps the lists), and at most once each time the menu opens when it fails.
let asked = new Set();
function fetchOthers() {
  for (const p of others()) {
    if (live.has(p.id) || asked.has(p.id)) continue;
    asked.add(p.id);
    call("provider.models", { provider: p.id }).then((r) => {
      if (!r.live) return; // its catalogue's models are offered meanwhile
      live.set(p.id, r.models);
      if (!$("model-menu").hidden) draw();
    }, () => {});
  }
}

// others are the providers set up besides the one in use: a key saved, a base URL, or a local
// one whose model was chosen before.
function others() {
  const s = state.settings;
  return state.providers.filter((p) => p.id !== s.provider && !p.agent && (s.hasKey[p.id] || s.baseURLs[p.id] || (p.local && s.models[p.id])));
}

function close(toBadge) {
  if ($("model-menu").hidden) return;
  $("model-menu").hidden = true;
  $("model-badge").setAttribute("aria-expanded", "false");
  if (toBadge) $("model-badge").focus();
}

// offered is every choice, before the filter: the provider in use's models, then each other
// provider set up, with the model it keeps, and once the user types (all), its other models.
function offered(all) {
  const s = state.settings;
  const cur = providerDef(s.provider);
  const out = [];
  if (cur && !cur.agent) {
    const models = live.get(cur.id) || cur.models;
    const keep = s.models[cur.id];
    if (keep && !models.some((m) => m.id === keep)) out.push({ provider: cur.id, model: keep, name: keep, group: cur.name });
    for (const m of models) out.push({ provider: cur.id, model: m.id, name: m.name || m.id, group: cur.name });
  }
  for (const p of others()) {
    const models = live.get(p.id) || p.models;
    const keep = s.models[p.id] || (models[0] ? models[0].id : "");
    if (!keep) continue;
    out.push({ provider: p.id, model: keep, name: p.name + " · " + keep, group: t("mmOthers") });
    if (!all) continue;
    for (const m of models) if (m.id !== keep) out.push({ provider: p.id, model: m.id, name: p.name + " · " + (m.name || m.id), group: t("mmOthers") });
  }
  for (const a of state.agents) {
    if (a.installed || a.id === s.provider) out.push({ provider: a.id, model: "", name: a.name, group: t("mmAgents") });
  }
  return out;
}

function draw() {
  const s = state.settings;
  const q = $("model-find").value.trim().toLowerCase();
  options = offered(!!q).filter((o) => !q || o.name.toLowerCase().includes(q) || o.model.toLowerCase().includes(q));
  const inUse = (o) => o.provider === s.provider && (!o.model || o.model === s.models[s.provider]);
  if (pick < 0) pick = Math.max(0, options.findIndex(inUse));
  pick = Math.min(pick, options.length - 1);
  const items = [];
  let group = null;
  options.forEach((o, i) => {
    if (o.group !== group) {
      group = o.group;
      items.push(el("li", { role: "presentation", className: "mm-group", textContent: group }));
    }
    const li = el("li", { id: "mo-" + i, role: "option", "aria-selected": String(inUse(o)), className: i === pick ? "active" : "" },
      el("span", { textContent: o.name }));
    li.dataset.i = String(i);
    items.push(li);
  });
  if (!options.length) items.push(el("li", { role: "presentation", className: "mm-none", textContent: t("mmNone") }));
  $("model-options").replaceChildren(...items);
  const find = $("model-find");
  if (options.length) {
    find.setAttribute("aria-activedescendant", "mo-" + pick);
    $("mo-" + pick).scrollIntoView({ block: "nearest" });
  } else find.removeAttribute("aria-activedescendant");
}

function key(e) {
  if (e.isComposing) return;
  switch (e.key) {
    case "ArrowDown":
    case "ArrowUp":
      if (!options.length) return;
      moved = true;
      pick = (pick + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length;
      draw();
      break;
    case "Enter":
      if (options.length) choose(pick);
      break;
    case "Escape":
      close(true);
      break;
    default:
      return;
  }
  e.preventDefault();
  e.stopPropagation();
}

// choose saves option i as the provider and model in use.
async function choose(i) {
  const o = options[i];
  if (!o) return;
  const s = structuredClone(state.settings);
  delete s.hasKey;
  delete s.hasDaemonToken;
  delete s.hasBridgeToken;
  s.provider = o.provider;
  if (o.model) s.models[o.provider] = o.model; // an agent has its own
  try {
    state.settings = await call("settings.save", { settings: s, keys: {} });
  } catch (e) {
    $("model-note").textContent = $("model-note").title = errorWords(e);
    return;
  }
  close(false);
  saved();
  announce(o.model ? t("mmNowUsing", providerDef(o.provider).name, o.model) : t("mmNowUsingAgent", o.name));
  $("input").focus();
}
