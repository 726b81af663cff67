// History: every chat with its provider and age, search over titles and messages, pin (a pinned
// chat comes first), rename in place, delete (asks twice), export one as Markdown or all as
// JSON, import a backup.
import { $, el, download, keyed } from "./dom.js";
import { call } from "./connection.js";
import { state, providerDef } from "./state.js";
import { showSession } from "./chat.js";
import { t, ago, chatTitle, errorWords } from "./i18n.js";
import * as agentSessions from "./agentsessions.js";
import { privateWindow } from "./page.js";
import { openFind } from "./find.js";

let goToChat = () => {};

// init is given the function that brings the chat view back.
export function init(toChat) {
  goToChat = toChat;
  agentSessions.init(toChat);
}

export async function refreshSessions() {
  try {
    state.sessions = (await call("session.list", { private: privateWindow() })) || [];
    if (state.active) {
      const meta = state.sessions.find((s) => s.id === state.active.id);
      if (meta && state.active.messages.length) $("title").textContent = chatTitle(meta.title);
    }
    if (document.body.dataset.view === "history" && !$("search").value.trim()) renderSessionList(state.sessions);
  } catch {
    /* the port dropped; the reconnection redraws */
  }
}

export function openHistory() {
  $("history-status").textContent = "";
  $("search").value = "";
  renderSessionList(state.sessions);
  agentSessions.draw();
  $("search").focus();
}

export function renderSessionList(items) {
  const list = $("session-list");
  if (!items.length) {
    list.replaceChildren(el("li", { className: "note", textContent: t($("search").value.trim() ? "hNoMatch" : "hNone") }));
    return;
  }
  keyed(list, items, (s) => s.id, sessionItem, fillSessionItem);
}

// sessionItem is a chat's row, empty: fillSessionItem writes the chat into it, when it is made
// and on every redraw after.
function sessionItem(s) {
  const li = el("li", { className: "session" });
  li.dataset.id = s.id;
  li.append(
    el("button", { type: "button", className: "open" }, el("span", { className: "s-title" }), el("span", { className: "s-meta" })),
    el("div", { className: "actions" },
      el("button", { type: "button", className: "pin" }),
      el("button", { type: "button", className: "rename", textContent: t("hRename") }),
      el("button", { type: "button", className: "export-md", textContent: t("hExport") }),
      el("button", { type: "button", className: "delete danger", textContent: t("hDelete") })));
  return li;
}

// fillSessionItem writes a chat into its row; a row being renamed keeps its input.
function fillSessionItem(li, s) {
  if (state.active && state.active.id === s.id) li.setAttribute("aria-current", "true");
  else li.removeAttribute("aria-current");
  if (li.dataset.renaming) return;
  const p = providerDef(s.provider);
  const title = chatTitle(s.title);
  li.querySelector(".s-title").textContent = title;
  li.querySelector(".s-meta").textContent = `${s.pinned ? t("hPinned") + " · " : ""}${p ? p.name : s.provider} · ${ago(s.updatedAt)} · ${t("hMessageCount", s.count)}`;
  li.classList.toggle("pinned", !!s.pinned);
  const pin = li.querySelector(".pin");
  pin.textContent = t(s.pinned ? "hUnpin" : "hPin");
  pin.setAttribute("aria-pressed", String(!!s.pinned));
  pin.setAttribute("aria-label", t("hPinName", title));
  const snip = li.querySelector(".s-snippet");
  if (snip && !s.snippet) snip.remove();
  else if (snip) snip.textContent = s.snippet;
  else if (s.snippet) li.querySelector(".open").append(el("span", { className: "s-snippet", textContent: s.snippet }));
  li.querySelector(".rename").setAttribute("aria-label", t("hRenameName", title));
  li.querySelector(".export-md").setAttribute("aria-label", t("hExportName", title));
  li.querySelector(".delete").setAttribute("aria-label", t("hDeleteName", title));
}

$("session-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  const li = e.target.closest(".session");
  if (!b || !li) return;
  const id = li.dataset.id;
  try {
    if (b.classList.contains("open")) {
      const q = $("search").value.trim();
      showSession(await call("session.open", { sessionId: id }));
      goToChat();
      // Opened from a search: the chat shows where it matched.
      if (q) openFind(q);
    } else if (b.classList.contains("pin")) {
      await call("session.pin", { sessionId: id, pinned: b.getAttribute("aria-pressed") !== "true" });
      await redrawList();
      $("session-list").querySelector(`.session[data-id="${CSS.escape(id)}"] .pin`)?.focus();
    } else if (b.classList.contains("rename")) {
      startRename(li);
    } else if (b.classList.contains("export-md")) {
      download(await call("session.export", { sessionId: id, format: "markdown" }));
    } else if (b.classList.contains("delete")) {
      if (!b.classList.contains("confirm")) {
        b.classList.add("confirm");
        b.textContent = t("hConfirmDelete");
        setTimeout(() => {
          b.classList.remove("confirm");
          b.textContent = t("hDelete");
        }, 4000);
        return;
      }
      await call("session.delete", { sessionId: id });
      if (state.active && state.active.id === id) showSession(null);
      li.remove();
      state.sessions = state.sessions.filter((s) => s.id !== id);
      $("history-status").textContent = t("hDeleted");
      refreshSessions();
    }
  } catch (err) {
    $("history-status").textContent = errorWords(err);
  }
});

function startRename(li) {
  const s = state.sessions.find((x) => x.id === li.dataset.id) || { title: li.querySelector(".s-title").textContent };
  const input = el("input", { className: "rename editing", value: s.title, "aria-label": t("hNewTitle") });
  const open = li.querySelector(".open");
  li.dataset.renaming = "1";
  open.replaceWith(input);
  input.focus();
  input.select();
  let finished = false;
  const finish = async (save) => {
    if (finished) return;
    finished = true;
    if (save && input.value.trim() && input.value !== s.title) {
      try {
        await call("session.rename", { sessionId: li.dataset.id, title: input.value });
        if (state.active && state.active.id === li.dataset.id) state.active.title = input.value.trim();
      } catch (err) {
        $("history-status").textContent = errorWords(err);
      }
    }
    delete li.dataset.renaming;
    input.replaceWith(open);
    await refreshSessions();
    renderSessionList(state.sessions);
    const again = $("session-list").querySelector(`.session[data-id="${CSS.escape(li.dataset.id)}"] .rename`);
    if (again) again.focus();
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      finish(true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      finish(false);
    }
  });
  input.addEventListener("blur", () => finish(true));
}

let searchTimer = 0;
let searchSeq = 0;
$("search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(redrawList, 120);
});

// redrawList lists the chats again, or what the search finds.
async function redrawList() {
  const q = $("search").value.trim();
  const seq = ++searchSeq;
  if (!q) {
    await refreshSessions();
    if (seq === searchSeq) renderSessionList(state.sessions);
    return;
  }
  try {
    const hits = await call("session.search", { query: q, private: privateWindow() });
    if (seq === searchSeq) renderSessionList(hits);
  } catch (err) {
    $("history-status").textContent = errorWords(err);
  }
}

$("export-json").addEventListener("click", async () => {
  try {
    const f = await call("session.export", { format: "json" });
    download(f);
    $("history-status").textContent = t("hSavedFile", f.name);
  } catch (err) {
    $("history-status").textContent = errorWords(err);
  }
});

$("import").addEventListener("click", () => $("import-file").click());
$("import-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  const status = $("history-status");
  status.textContent = t("hImporting");
  try {
    const r = await call("session.import", { data: await file.text() });
    if (r.settings) state.settings = r.settings; // its saved prompts, offered at once
    const parts = r.sessions || (!r.memories && !r.prompts) ? [t("hImportedChats", r.sessions)] : [];
    if (r.memories) parts.push(t("hImportedMemories", r.memories));
    if (r.prompts) parts.push(t("hImportedPrompts", r.prompts));
    const what = parts.length > 1 ? t("hImportedAnd", parts.slice(0, -1).join(", "), parts.at(-1)) : parts[0];
    status.textContent = r.skipped ? t("hImportedSkipped", r.skipped, what) : t("hImported", what);
    await refreshSessions();
    renderSessionList(state.sessions);
  } catch (err) {
    status.textContent = t("hImportFailed", errorWords(err));
  }
});
