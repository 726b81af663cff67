// Small DOM helpers every view uses. Text goes in as textContent, never as HTML.
import { t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

// el builds an element: props are set as properties, except dataset, aria-* and role, which
// are attributes; null, undefined and false children are skipped.
export function el(tag, props = {}, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(n.dataset, v);
    else if (k.startsWith("aria-") || k === "role") n.setAttribute(k, v);
    else n[k] = v;
  }
  n.append(...kids.filter((k) => k !== null && k !== undefined && k !== false));
  return n;
}

// keyed shows items as parent's children, one element per key: the element already shown for a
// key is kept, the others are built (build(item) makes an empty one), and update(element, item)
// writes each item into its element. An element that stays is never detached, so a redraw that
// arrives mid-press (a list refreshed by the worker) cannot lose the click, the focus or a
// half-made edit inside it. A row built in another language (its buttons say what build wrote)
// is built again, unless the user is typing or pressing in it.
export function keyed(parent, items, keyOf, build, update) {
  const lang = document.documentElement.lang;
  const shown = new Map();
  for (const n of [...parent.children]) {
    if (n.dataset.key !== undefined) shown.set(n.dataset.key, n);
    else n.remove();
  }
  const keys = items.map((it) => String(keyOf(it)));
  const keep = new Set(keys);
  for (const [k, n] of shown) if (!keep.has(k)) n.remove();
  items.forEach((it, i) => {
    let n = shown.get(keys[i]);
    if (n && n.dataset.lang !== lang && !n.contains(document.activeElement)) {
      n.remove();
      n = null;
    }
    if (!n) {
      n = build(it);
      n.dataset.key = keys[i];
      n.dataset.lang = lang;
    }
    update(n, it);
    if (parent.children[i] !== n) parent.insertBefore(n, parent.children[i] || null);
  });
}

// banner shows a problem that concerns the whole panel ("" hides it).
export function banner(text) {
  $("banner").textContent = text;
  $("banner").hidden = !text;
}

// announce says text to screen readers.
export function announce(text) {
  $("announce").textContent = text;
}

export function download(file) {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mime }));
  const a = el("a", { href: url, download: file.name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = el("textarea", { value: text });
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  // The label says so for a moment. A second copy meanwhile starts the moment again: the label
  // it goes back to is the first one, not "Copied".
  if (!button.dataset.label) button.dataset.label = button.textContent;
  button.textContent = t("copied");
  clearTimeout(copiedTimers.get(button));
  copiedTimers.set(button, setTimeout(() => {
    button.textContent = button.dataset.label;
    delete button.dataset.label;
  }, 1500));
}
const copiedTimers = new WeakMap();
