// Saved prompts: texts the user keeps under a one-word name, put in the message box by typing
// "/" and the name (slash.js lists them). They live in the settings (store.Settings.Prompts,
// checked by the core). A user who never saved any gets the panel's own, in their language;
// once saved, the list is theirs, edited in Settings (settings.js). No DOM here: the overlay's
// message box offers them too.
import { t } from "./i18n.js";

// The panel's own prompts, by their catalog keys.
const builtIn = ["Summarize", "Explain", "Translate"];

// promptsOf is the prompts settings s offer: the user's, or the panel's own in the language of
// the moment if they never saved theirs.
export function promptsOf(s) {
  if (s && Array.isArray(s.prompts)) return s.prompts;
  return builtIn.map((k) => ({ name: t("prompt" + k + "Name"), text: t("prompt" + k + "Text") }));
}

// asCommands is the prompts as slash.js lists them: the name, the start of the text, and the
// text the box takes when one is chosen.
export function asCommands(prompts) {
  return prompts.map((p) => ({ name: p.name, description: p.text.length > 80 ? p.text.slice(0, 79) + "…" : p.text, text: p.text }));
}
