// The user's language: English or French, one catalog per locale in Chrome's
// _locales/<l>/messages.json shape (the manifest, the menus and the commands use the same files
// through Chrome, in the browser's language). Pages take the language chosen in Settings
// ("auto" follows the browser), switched at once without a reload: Chrome's own
// chrome.i18n cannot switch at run time, so the catalog is read here and its placeholders
// resolved here. Plurals through Intl.PluralRules (key_one, key_other…).
const languages = ["en", "fr"];

let lang = "en";
let catalog = {};
let english = {};
let plural = new Intl.PluralRules("en");

// catalogURL is where a locale's catalog is: the extension's _locales, or, in skiffd's web
// client (no extension APIs), the copy skiffd serves beside this module.
function catalogURL(l) {
  const path = `_locales/${l}/messages.json`;
  return globalThis.chrome?.runtime?.getURL ? chrome.runtime.getURL(path) : new URL(path, import.meta.url).href;
}

// Each catalog is read once per page (a reconnection or a switch back does not read it again).
const loaded = new Map();
function load(l) {
  if (!loaded.has(l)) {
    // A catalog that cannot be read leaves the keys' English fallbacks (t gives the key, say
    // the core's English) rather than a panel that never starts; the next switch tries again.
    const p = fetch(catalogURL(l))
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
      .catch(() => {
        loaded.delete(l);
        return {};
      });
    loaded.set(l, p);
  }
  return loaded.get(l);
}

// resolve is the language a setting means.
function resolve(pref) {
  if (languages.includes(pref)) return pref;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return languages.includes(nav) ? nav : "en";
}

// setLanguage loads the catalog for pref (and English, for any key a catalog lacks) and
// translates the page.
export async function setLanguage(pref) {
  const l = resolve(pref);
  [english, catalog] = await Promise.all([load("en"), load(l)]);
  lang = l;
  plural = new Intl.PluralRules(l);
  document.documentElement.lang = l;
  translate(document);
  for (const fn of listeners) fn(l);
}

const listeners = [];
// onLanguage runs fn after every switch (views that draw text from JS draw again).
export function onLanguage(fn) {
  listeners.push(fn);
}

function entry(key) {
  return catalog[key] || english[key];
}

// errorWords is an error as the user reads it. The core's failures and refusals (and skiffd's) are
// sentences already, in their language: the connection marks them said. Anything else is a
// fault of the page's own code (a TypeError's "Cannot read properties of null") or a browser
// API's English: the user reads a sentence of ours, the console keeps the details.
export function errorWords(err) {
  if (err && err.said) return err.message;
  console.error(err);
  return t("panelFault");
}

// t is the message key in the user's language with its arguments; a number first picks the
// plural form (key_one, key_other) when the catalog has them.
export function t(key, ...args) {
  let e = null;
  if (typeof args[0] === "number") e = entry(`${key}_${plural.select(args[0])}`) || entry(`${key}_other`);
  e = e || entry(key);
  if (!e) return key;
  let s = e.message;
  const ph = e.placeholders || {};
  s = s.replace(/\$([a-z0-9_@]+)\$/gi, (m, name) => (ph[name.toLowerCase()] ? ph[name.toLowerCase()].content : m));
  s = s.replace(/\$([1-9])/g, (_, i) => {
    const v = args[i - 1];
    return typeof v === "number" ? v.toLocaleString(lang) : String(v ?? "");
  });
  return s.replaceAll("$$", "$");
}

// say renders a text the core built (a catalog key and its arguments, as internal/i18n.Text)
// in the user's language, or gives fallback (the core's English) when there is no text or no
// catalog holds its key (a page without catalogs, a key newer than the catalog).
// chatTitle is a chat's title as shown: the names the core gives a chat it has no words to
// name after (one started with a picture alone, an imported one without a title) are its own
// English, so they are said in the user's language.
const coreTitles = { "New chat": "newChatName", "Imported chat": "importedChatName" };
export function chatTitle(title) {
  return coreTitles[title] ? t(coreTitles[title]) : title;
}

export function say(text, fallback = "") {
  if (!text || !text.key) return fallback;
  const args = (text.args || []).map(arg);
  const known = entry(text.key) || (typeof args[0] === "number" && entry(`${text.key}_other`));
  return known ? t(text.key, ...args) : fallback;
}

// arg is an argument of a text as it reads: a text inside it rendered in turn (with its own
// English when no catalog has its key), a list of them joined.
function arg(a) {
  if (Array.isArray(a)) return a.map(arg).join("; ");
  if (a && typeof a === "object" && a.key) return say(a, a.en || "");
  return a;
}

// translate writes the catalog's text into the elements that name a key: data-i18n (text),
// data-i18n-title, data-i18n-placeholder, data-i18n-label (aria-label).
export function translate(root) {
  for (const n of root.querySelectorAll("[data-i18n]")) n.textContent = t(n.dataset.i18n);
  for (const n of root.querySelectorAll("[data-i18n-title]")) n.title = t(n.dataset.i18nTitle);
  for (const n of root.querySelectorAll("[data-i18n-placeholder]")) n.placeholder = t(n.dataset.i18nPlaceholder);
  for (const n of root.querySelectorAll("[data-i18n-label]")) n.setAttribute("aria-label", t(n.dataset.i18nLabel));
}

// ago says how long ago a unix-ms time was, in the user's language ("3 hours ago", "now").
export function ago(ms) {
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const s = Math.round((ms - Date.now()) / 1000);
  const units = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [u, n] of units) if (Math.abs(s) >= n) return rtf.format(Math.round(s / n), u);
  return rtf.format(0, "second");
}

// when is a moment (unix ms) as the user's language writes it: "Tue 1 Dec, 08:00".
export function when(ms) {
  return new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(ms));
}
