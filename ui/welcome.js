// First run: with no provider configured, look for a model server on this computer (Ollama,
// LM Studio) and offer it in one click; otherwise point to Settings.
import { $, el, banner } from "./dom.js";
import { call } from "./connection.js";
import { state, providerDef } from "./state.js";
import { renderBadge } from "./settings.js";

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

export async function maybeWelcome() {
  if (!state.settings) return;
  const show = isFirstRun();
  $("welcome").hidden = !show;
  if (!show || detecting) return;
  detecting = true;
  $("welcome-text").textContent = "Looking for a model running on this computer…";
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
    $("welcome-text").textContent = "No local model found (Ollama on port 11434, LM Studio on port 1234). Pick a provider and add its API key to start.";
    return;
  }
  $("welcome-text").textContent = "Found a model server on this computer. Nothing leaves your machine with it.";
  $("welcome-found").replaceChildren(...found.map((f) => {
    const sel = el("select", { "aria-label": `${f.name} model` }, ...f.models.map((m) => el("option", { value: m.id, textContent: m.name || m.id })));
    const use = el("button", { type: "button", className: "primary use-local", textContent: `Use ${f.name}` });
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
        banner(err.message);
      }
    });
    return el("div", { className: "found" }, el("span", { textContent: `${f.name}: ${f.models.length} model${f.models.length === 1 ? "" : "s"}` }), sel, use);
  }));
}
