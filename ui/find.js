// Find in the chat: Ctrl+F (⌘F) in the panel, or a chat opened from a History search, shows a
// bar above the messages that marks every match of what it holds (each of its words) in the
// chat on screen, case aside, and goes from one to the next (Enter, ↓) and back (Shift+Enter,
// ↑); Escape closes it. A side panel has no find bar of its own: Chrome's searches the tab. The
// matches are marked with the CSS Custom Highlight API, so the messages' nodes are never changed.
import { $ } from "./dom.js";
import { state } from "./state.js";
import { t } from "./i18n.js";

let ranges = []; // the matches, in the order of the chat
let at = -1; // the current one
let shownFor = null; // the chat the bar searches
const hasHighlights = typeof CSS !== "undefined" && "highlights" in CSS;

// openFind shows the bar with query (or what it held), marks the matches and goes to the first.
export function openFind(query) {
  $("find-bar").hidden = false;
  shownFor = state.active ? state.active.id : null;
  if (query !== undefined) $("find-input").value = query;
  search(true);
  $("find-input").focus();
  $("find-input").select();
}

export function closeFind() {
  if ($("find-bar").hidden) return;
  $("find-bar").hidden = true;
  clear();
}

// chatShown keeps the bar true to the chat on screen: another chat closes it, a redraw of this
// one (a reply that came, a language switch) finds again without moving the view.
export function chatShown() {
  if ($("find-bar").hidden) return;
  if (!state.active || state.active.id !== shownFor) closeFind();
  else search(false);
}

function clear() {
  ranges = [];
  at = -1;
  if (hasHighlights) {
    CSS.highlights.delete("skiff-find");
    CSS.highlights.delete("skiff-find-current");
  }
  $("find-count").textContent = "";
}

// search finds the query in the text the chat shows (not its buttons, nor what is folded away)
// and marks it; go moves the view to the first match.
function search(go) {
  const q = $("find-input").value.trim().toLocaleLowerCase();
  const before = at;
  clear();
  if (!q) return;
  const walker = document.createTreeWalker($("messages"), NodeFilter.SHOW_TEXT, {
    acceptNode(n) {
      const p = n.parentElement;
      if (!p || p.closest("button, .m-actions, .m-info, .typing, .sr") || !p.checkVisibility()) return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  // Several words are found each, as History's search finds the chats that hold them all.
  const words = [...new Set(q.split(/\s+/))];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.data.toLocaleLowerCase();
    // A lower-cased text of another length (a few letters of some scripts) cannot map back.
    if (text.length !== n.data.length) continue;
    const found = [];
    for (const w of words) {
      for (let i = text.indexOf(w); i >= 0; i = text.indexOf(w, i + w.length)) found.push([i, i + w.length]);
    }
    found.sort((a, b) => a[0] - b[0]);
    let end = 0;
    for (const [from, to] of found) {
      if (from < end) continue; // inside a match already marked
      const r = new Range();
      r.setStart(n, from);
      r.setEnd(n, to);
      ranges.push(r);
      end = to;
    }
  }
  if (hasHighlights && ranges.length) CSS.highlights.set("skiff-find", new Highlight(...ranges));
  move(go ? 0 : Math.min(Math.max(before, 0), ranges.length - 1), go);
}

// move makes match i the current one, and shows it when show says so.
function move(i, show) {
  if (!ranges.length) {
    at = -1;
    $("find-count").textContent = $("find-input").value.trim() ? t("findNone") : "";
    return;
  }
  at = (i + ranges.length) % ranges.length;
  if (hasHighlights) CSS.highlights.set("skiff-find-current", new Highlight(ranges[at]));
  $("find-count").textContent = t("findCount", at + 1, ranges.length);
  if (show) ranges[at].startContainer.parentElement.scrollIntoView({ block: "center" });
}

let timer = 0;
$("find-input").addEventListener("input", () => {
  clearTimeout(timer);
  timer = setTimeout(() => search(true), 80);
});
$("find-input").addEventListener("keydown", (e) => {
  if (e.isComposing) return;
  if (e.key === "Enter" || e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    clearTimeout(timer);
    if (!ranges.length) return search(true);
    move(at + (e.key === "ArrowUp" || (e.key === "Enter" && e.shiftKey) ? -1 : 1), true);
  } else if (e.key === "Escape") {
    e.preventDefault();
    e.stopPropagation(); // the chat view stays
    closeFind();
    $("input").focus();
  }
});
$("find-next").addEventListener("click", () => move(at + 1, true));
$("find-prev").addEventListener("click", () => move(at - 1, true));
$("find-close").addEventListener("click", () => {
  closeFind();
  $("input").focus();
});
