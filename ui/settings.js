// Settings: the provider grid, model (live list with the catalogue as fallback), key with Test
// connection, base URL, prompt, sampling, toggles. The key never comes back to the panel: the
// core only says whether a provider has one.
import { $, el, keyed } from "./dom.js";
import { call } from "./connection.js";
import { state, providerDef, agentDef, modelOf } from "./state.js";
import { t, say, onLanguage, errorWords } from "./i18n.js";
import { promptsOf } from "./prompts.js";
import { canSpeak, voices } from "./speech.js";

// hooks: what to redraw elsewhere after a save.
export const hooks = { saved: () => {} };

export function renderBadge() {
  const s = state.settings;
  const p = providerDef(s.provider);
  if (p.agent) {
    $("model-badge").textContent = p.name;
    return;
  }
  $("model-badge").textContent = `${p.name} · ${modelOf(s) || t("sNoModel")}`;
}

let formProvider = null; // the provider the settings form shows

// A switch of language names the provider without a brand, and says each one's state, anew.
onLanguage(() => {
  if (state.settings) renderBadge();
  if (formProvider !== null && document.body.dataset.view === "settings") renderProviderGrid(formProvider);
});

export function openSettings() {
  $("settings-status").textContent = "";
  edited = false; // what was left unsaved when Settings closed is gone
  renderSettings(state.settings.provider);
  const checked = document.querySelector('#provider-grid input:checked');
  (checked || $("model")).focus();
  // The agents skiffd hosts join the grid once skiffd says which (none when it is not linked).
  call("agents.list").then((list) => {
    state.agents = list.map(agentDef);
    if (document.body.dataset.view === "settings") renderProviderGrid(formProvider);
  }).catch(() => {});
}

// renderProviderGrid keeps each provider's label the same node through redraws (the agents'
// list arriving, another provider picked), so a press under way is never lost.
function renderProviderGrid(selected) {
  const s = state.settings;
  const note = (p) => t(p.agent ? (p.installed ? "pAgent" : "pNotInstalled") : p.local ? "pLocal" : s.hasKey[p.id] ? "pKeySaved" : p.needsKey ? "pNeedsKey" : "pNoKey");
  keyed($("provider-grid"), state.providers.concat(state.agents), (p) => p.id,
    (p) => el("label", { className: "provider" }, el("input", { type: "radio", name: "provider", value: p.id }), el("span", { className: "p-name" }), el("span")),
    (label, p) => {
      const [input, name, st] = label.children;
      input.checked = p.id === selected;
      name.textContent = p.name;
      st.textContent = note(p);
      st.className = "p-state" + (s.hasKey[p.id] ? " has" : "");
    });
}

function renderSettings(id) {
  const s = state.settings;
  formProvider = id;
  renderProviderGrid(id);
  const p = providerDef(id);
  // An agent skiffd hosts: its own output, for when it misbehaves or stopped.
  $("agent-log-row").hidden = !p.agent;
  $("agent-log-text").hidden = true;
  $("model").value = s.models[id] || (p.models[0] ? p.models[0].id : "");
  setModelOptions(p.models);
  $("models-note").textContent = "";
  $("key-row").hidden = !p.needsKey && p.id !== "custom";
  $("apiKey").value = "";
  $("key-note").textContent = s.hasKey[id] ? t("sKeySaved") : p.needsKey ? (p.keyURL ? t("sNoKeyGet", p.keyURL) : t("sNoKey")) : t("sOptional");
  $("test-status").textContent = "";
  $("baseURL").value = s.baseURLs[id] || "";
  $("baseURL").placeholder = p.baseURL ? t("sBaseDefault", p.baseURL) : t("sBaseRequired");
  $("language").value = s.language || "auto";
  $("systemPrompt").value = s.systemPrompt;
  $("temperature").value = s.temperature;
  $("maxTokens").value = s.maxTokens;
  $("streaming").checked = s.streaming;
  $("pageContext").checked = s.pageContext;
  $("useMemories").checked = s.memories;
  $("memoryCount").value = s.memoryCount;
  $("maxSteps").value = s.maxSteps;
  $("askSeconds").value = s.askSeconds || 120;
  drawPrompts(s);
  drawSpeech(s);
  const d = s.daemon || {};
  $("daemonEnabled").checked = !!d.enabled;
  $("daemonPort").value = d.port || "";
  $("daemonNative").checked = !!d.native;
  $("daemonToken").value = "";
  $("daemon-token-note").textContent = s.hasDaemonToken
    ? t("sTokenSaved")
    : t("sTokenNote");
  const b = s.bridge || {};
  $("bridgeEnabled").checked = !!b.enabled;
  $("bridgeURL").value = b.url || "";
  $("bridgeToken").value = "";
  $("bridge-token-note").textContent = s.hasBridgeToken ? t("sBridgeTokenSaved") : t("sBridgeTokenNote");
  for (const n of document.querySelectorAll("#settings .field-error")) n.textContent = "";
  if (p.agent) {
    $("models-note").textContent = t("sAgentRuns", p.command || p.id.slice(4)) + (p.installed ? "" : " " + t("sAgentMissing"));
    return;
  }
  loadModels();
}

function setModelOptions(models) {
  $("models").replaceChildren(...models.map((m) => el("option", { value: m.id, textContent: m.name || m.id })));
}

async function loadModels() {
  const id = formProvider;
  $("models-note").textContent = t("sLoadingModels");
  try {
    // The address and key in the form, saved or not, as Test connection uses them.
    const r = await call("provider.models", { provider: id, key: $("apiKey").value, baseURL: $("baseURL").value.trim() });
    if (id !== formProvider) return;
    setModelOptions(r.models);
    $("models-note").textContent = r.live ? t("sModelsLive", r.models.length, providerDef(id).name) : t("sModelsBuiltIn", say(r.errorText, r.error));
    $("models-note").title = $("models-note").textContent; // the line may be cut short
  } catch (e) {
    $("models-note").textContent = errorWords(e);
  }
}

$("provider-grid").addEventListener("change", (e) => {
  if (e.target.name === "provider") {
    renderSettings(e.target.value);
    e.target.focus();
  }
});
$("load-models").addEventListener("click", loadModels);

$("test-connection").addEventListener("click", async () => {
  const st = $("test-status");
  st.className = "note";
  st.textContent = t("sTesting");
  try {
    const r = await call("provider.test", { provider: formProvider, key: $("apiKey").value, baseURL: $("baseURL").value.trim() });
    st.textContent = say(r.messageText, r.message);
    st.className = "note " + (r.ok ? "ok" : "bad");
  } catch (err) {
    st.textContent = errorWords(err);
    st.className = "note bad";
  }
});

$("settings").addEventListener("submit", async (e) => {
  e.preventDefault();
  const id = formProvider;
  const s = structuredClone(state.settings);
  delete s.hasKey;
  s.provider = id;
  if (!providerDef(id).agent) {
    s.models[id] = $("model").value.trim();
    s.baseURLs[id] = $("baseURL").value.trim();
  }
  s.language = $("language").value;
  s.systemPrompt = $("systemPrompt").value;
  s.temperature = $("temperature").value === "" ? NaN : Number($("temperature").value);
  s.maxTokens = $("maxTokens").value === "" ? NaN : Number($("maxTokens").value);
  s.streaming = $("streaming").checked;
  s.pageContext = $("pageContext").checked;
  s.memories = $("useMemories").checked;
  s.memoryCount = $("memoryCount").value === "" ? NaN : Number($("memoryCount").value);
  s.maxSteps = $("maxSteps").value === "" ? NaN : Number($("maxSteps").value);
  s.askSeconds = $("askSeconds").value === "" ? NaN : Number($("askSeconds").value);
  const saved = readPrompts(state.settings);
  if (saved) s.prompts = saved;
  if (canSpeak()) s.speech = { voice: $("speechVoice").value, rate: Number($("speechRate").value), auto: $("speechAsItComes").checked }; // else as stored
  delete s.hasDaemonToken;
  delete s.hasBridgeToken;
  s.bridge = { enabled: $("bridgeEnabled").checked, url: $("bridgeURL").value.trim() };
  s.daemon = { enabled: $("daemonEnabled").checked, port: $("daemonPort").value === "" ? 0 : Number($("daemonPort").value), native: $("daemonNative").checked };
  for (const n of document.querySelectorAll("#settings .field-error")) n.textContent = "";
  // Numbers the form cannot send as JSON numbers get the same message the core would give.
  for (const [f, msg] of [["temperature", t("vTemperature")], ["maxTokens", t("vMaxTokens")], ["memoryCount", t("vMemoryCount")], ["maxSteps", t("vMaxSteps")], ["askSeconds", t("vAskSeconds")], ["daemonPort", t("vPort")]]) {
    const v = f === "daemonPort" ? s.daemon.port : s[f];
    if (!Number.isFinite(v) || (f !== "temperature" && !Number.isInteger(v))) {
      document.querySelector(`.field-error[data-for="${f}"]`).textContent = msg;
      $(f).focus();
      return;
    }
  }
  const keys = {};
  if ($("apiKey").value.trim()) keys[id] = $("apiKey").value.trim();
  const params = { settings: s, keys };
  if ($("daemonToken").value.trim()) params.daemonToken = $("daemonToken").value.trim();
  if ($("bridgeToken").value.trim()) params.bridgeToken = $("bridgeToken").value.trim();
  try {
    state.settings = await call("settings.save", params);
    edited = false; // saved: the list is drawn again as the core keeps it
    await hooks.saved(); // a new language first: what follows is drawn in it
    $("settings-status").textContent = t("sSaved");
    renderBadge();
    renderSettings(id);
  } catch (err) {
    const field = (err.field || "").replace(/\..*/, "");
    const slot = document.querySelector(`#settings .field-error[data-for="${field}"]`);
    if (slot) {
      slot.textContent = errorWords(err);
      if ($(field)) $(field).focus();
    }
    $("settings-status").textContent = slot ? t("sNotSaved") : errorWords(err);
  }
});


$("agent-log").addEventListener("click", async () => {
  const out = $("agent-log-text");
  try {
    const r = await call("agents.log", { agent: formProvider });
    const notes = (r.notes || "").trim();
    out.textContent = (r.log.trim() + (notes ? "\n" + t("sAgentLogNotes") + "\n" + notes : "")).trim() || t("sAgentLogEmpty");
  } catch (e) {
    out.textContent = errorWords(e);
  }
  out.hidden = false;
  out.scrollTop = out.scrollHeight; // the end is what happened last
});

// ---- saved prompts (prompts.js): one row each, a name, its text and Delete ----

// edited says whether the user changed the list in Settings since it was drawn: an untouched
// list of the panel's own is not saved (it keeps following the language).
let edited = false;

// drawPrompts draws the prompts of settings s in Settings, one row each, unless the user is
// editing them (the form is drawn again when another provider is picked).
function drawPrompts(s) {
  if (edited) return;
  $("prompt-list").replaceChildren(...promptsOf(s).map(promptRow));
}

function promptRow(p) {
  const name = el("input", { className: "prompt-name", value: p.name, maxLength: 32, spellcheck: false, autocomplete: "off", "aria-label": t("sPromptName") });
  const text = el("textarea", { className: "prompt-text", value: p.text, rows: 2, "aria-label": t("sPromptText") });
  const del = el("button", { type: "button", className: "prompt-delete", textContent: t("hDelete") });
  const label = () => del.setAttribute("aria-label", t("sPromptDelete", name.value));
  label();
  name.addEventListener("input", label);
  return el("div", { className: "prompt-row" }, name, text, del);
}

// readPrompts is the list as Settings shows it now, or undefined when it was not edited and the
// settings had none of the user's (the panel's own stay the panel's).
function readPrompts(s) {
  if (!edited && !(s && Array.isArray(s.prompts))) return undefined;
  return [...document.querySelectorAll("#prompt-list .prompt-row")].map((r) => ({
    name: r.querySelector(".prompt-name").value.trim().replace(/^\//, ""),
    text: r.querySelector(".prompt-text").value,
  }));
}

$("prompt-list").addEventListener("input", () => (edited = true));
$("prompt-list").addEventListener("click", (e) => {
  const b = e.target.closest(".prompt-delete");
  if (!b) return;
  edited = true;
  const r = b.closest(".prompt-row");
  (r.nextElementSibling || r.previousElementSibling)?.querySelector(".prompt-name").focus();
  r.remove();
  if (!$("prompt-list").childElementCount) $("add-prompt").focus();
});
$("add-prompt").addEventListener("click", () => {
  edited = true;
  const r = promptRow({ name: "", text: "" });
  $("prompt-list").append(r);
  r.querySelector(".prompt-name").focus();
});

// The speeds Read aloud offers, as times the voice's own (0: its own).
const rates = [0.75, 0, 1.25, 1.5, 1.75, 2];

// drawSpeech fills Read aloud's lists: Automatic and the system's voices (by language, then
// name), the voice saved even when this computer lacks it (said below), and the speeds.
function drawSpeech(s) {
  $("speech").hidden = !canSpeak();
  if (!canSpeak()) return;
  const sp = s.speech || {};
  const lang = document.documentElement.lang || "en";
  const list = [...voices()].sort((a, b) => a.lang.localeCompare(b.lang) || a.name.localeCompare(b.name));
  const opts = [el("option", { value: "", textContent: t("sSpeechAuto") })];
  for (const v of list) opts.push(el("option", { value: v.voiceURI, textContent: `${v.name} (${v.lang})` }));
  const gone = sp.voice && !list.some((v) => v.voiceURI === sp.voice);
  if (gone) opts.push(el("option", { value: sp.voice, textContent: sp.voice }));
  $("speechVoice").replaceChildren(...opts);
  $("speechVoice").value = sp.voice || "";
  $("speech-note").textContent = gone ? t("sSpeechGone", sp.voice) : list.length ? "" : t("sSpeechNoVoices");
  const num = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  $("speechRate").replaceChildren(...rates.map((r) => el("option", { value: String(r), textContent: r ? num.format(r) + "×" : t("sSpeechNormal") })));
  $("speechRate").value = String(rates.includes(sp.rate || 0) ? sp.rate || 0 : 0);
  $("speechAsItComes").checked = !!sp.auto;
}

// Chrome lists its voices a moment after a page asks (and again when they change).
if (canSpeak()) {
  speechSynthesis.addEventListener("voiceschanged", () => {
    if (document.body.dataset.view === "settings" && state.settings) {
      const keep = { voice: $("speechVoice").value, rate: Number($("speechRate").value), auto: $("speechAsItComes").checked };
      drawSpeech({ speech: keep });
    }
  });
}
