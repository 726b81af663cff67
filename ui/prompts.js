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

// A placeholder in a prompt's text: {{name}}, a word or a few (letters of any script, digits,
// "_" or "-"). A few the panel knows are filled in when the prompt is chosen (known); the others
// are left in the box, the first one selected, for the user to type over (Tab goes to the next).
const placeholder = /\{\{\s*([\p{L}\p{N}_-]+(?: [\p{L}\p{N}_-]+)*)\s*\}\}/gu;

// known lists the placeholders filled in from what is true when the prompt is chosen.
export const known = ["date", "time", "url", "title", "language"];

// valuesNow is what the known placeholders stand for now, in language lang (the page's, which
// the caller gives: the panel's is the tab in front, the web client has none).
export function valuesNow(lang, page, now = new Date()) {
  const v = {
    date: now.toLocaleDateString(lang, { dateStyle: "long" }),
    time: now.toLocaleTimeString(lang, { timeStyle: "short" }),
  };
  try {
    v.language = new Intl.DisplayNames([lang], { type: "language" }).of(lang);
  } catch {
    /* an engine without DisplayNames: left for the user */
  }
  if (page && page.url) {
    v.url = page.url;
    v.title = page.title || page.url;
  }
  return v;
}

// fill puts values in text's placeholders (by name, case aside); one without a value stays.
// A value is put in as it is, in one pass: a title holding "{{x}}" is not filled again.
export function fill(text, values) {
  return text.replace(placeholder, (all, name) => {
    const v = values[name.toLowerCase()];
    return typeof v === "string" && v !== "" ? v : all;
  });
}

// placeholderAt is [start, end] of the placeholder in text that starts at or after from, or with
// back the last one that ends at or before from; it wraps around, and is null when text has none.
export function placeholderAt(text, from, back = false) {
  const all = [...text.matchAll(placeholder)].map((m) => [m.index, m.index + m[0].length]);
  if (!all.length) return null;
  if (back) return all.findLast(([, e]) => e <= from) || all.at(-1);
  return all.find(([s]) => s >= from) || all[0];
}
