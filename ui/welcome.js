// First run: with no provider configured, look for a model server on this computer (Ollama,
// LM Studio) and offer it in one click; otherwise point to Settings.
import { $, el, banner } from "./dom.js";
import { call } from "./connection.js";
import { state, providerDef } from "./state.js";
import { renderBadge } from "./settings.js";
import { t, onLanguage, errorWords } from "./i18n.js";

let openSettings = () => {};

export function init(toSettings) {
  openSettings = toSettings;
  $("welcome-settings").addEventListener("click", () => openSettings());
}

let detecting = false;
function isFirstRun() {
  const s = state.settings;
  const p = providerDef(s.provider);
  return !p.local && !Object.values(s.hasKey).some(Boolean) && !s.baseURLs[s.provider] && state.sessions.length === 0 && !(state.active && state.active.messages.length);
}

// say shows the welcome screen's line, and keeps its key so a switch of language redraws it.
let line = "";
function say(key) {
  line = key;
  $("welcome-text").textContent = t(key);
}
onLanguage(() => line && say(line));

export async function maybeWelcome() {
  if (!state.settings) return;
  const show = isFirstRun();
  $("welcome").hidden = !show;
  if (!show || detecting) return;
  detecting = true;
  say("wLooking");
  $("welcome-found").replaceChildren();
  let found = [];
  try {
    found = (await call("provider.detect")) || [];
  } catch {
    found = [];
  }
  detecting = false;
  if (!isFirstRun()) return;
  if (!found.length) {
    say("wNone");
    return;
  }
  say("wFound");
  $("welcome-found").replaceChildren(...found.map((f) => {
    const sel = el("select", { "aria-label": t("wModelOf", f.name) }, ...f.models.map((m) => el("option", { value: m.id, textContent: m.name || m.id })));
    const use = el("button", { type: "button", className: "primary use-local", textContent: t("wUse", f.name) });
    use.dataset.provider = f.provider;
    use.addEventListener("click", async () => {
      const s = structuredClone(state.settings);
      delete s.hasKey;
      s.provider = f.provider;
      s.models[f.provider] = sel.value;
      try {
        state.settings = await call("settings.save", { settings: s, keys: {} });
        renderBadge();
        $("welcome").hidden = true;
        $("input").focus();
      } catch (err) {
        banner(errorWords(err));
      }
    });
    return el("div", { className: "found" }, el("span", { textContent: `${f.name}: ${f.models.length} model${f.models.length === 1 ? "" : "s"}` }), sel, use);
  }));
}
