// Memories: facts the user wants Skiff to know. Add, edit in place, delete; a badge says who
// wrote each one.
import { $, el } from "./dom.js";
import { call } from "./connection.js";
import { state } from "./state.js";
import { t, errorWords } from "./i18n.js";

export async function openMemories() {
  const s = state.settings;
  $("memories-note").textContent = s.memories
    ? t("mOn", s.memoryCount)
    : t("mOff");
  await loadMemories();
  $("memory-input").focus();
}

async function loadMemories() {
  try {
    renderMemories((await call("memory.list")) || []);
  } catch (err) {
    $("memories-note").textContent = errorWords(err);
  }
}

function renderMemories(ms) {
  const list = $("memory-list");
  if (!ms.length) {
    list.replaceChildren(el("li", { className: "note", textContent: t("mNone") }));
    return;
  }
  list.replaceChildren(...ms.map((m) => {
    const li = el("li", { className: "memory" });
    li.dataset.id = m.id;
    li.append(
      el("span", { className: "m-text", textContent: m.content }),
      el("span", { className: "badge", textContent: m.source, title: { user: t("mByYou"), auto: t("mAuto"), agent: t("mByAgent") }[m.source] || "" }),
      el("button", { type: "button", className: "m-edit", textContent: t("edit"), "aria-label": t("mEdit") }),
      el("button", { type: "button", className: "m-delete danger", textContent: t("hDelete"), "aria-label": t("mDelete") }));
    li.querySelector(".badge").dataset.source = m.source;
    return li;
  }));
}

$("memory-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = document.querySelector('.field-error[data-for="memory"]');
  err.textContent = "";
  try {
    await call("memory.add", { content: $("memory-input").value });
    $("memory-input").value = "";
    await loadMemories();
  } catch (x) {
    err.textContent = errorWords(x);
  }
});

$("memory-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  const li = e.target.closest(".memory");
  if (!b || !li) return;
  if (b.classList.contains("m-delete")) {
    try {
      await call("memory.delete", { memoryId: li.dataset.id });
      await loadMemories();
      $("memory-input").focus();
    } catch (x) {
      document.querySelector('.field-error[data-for="memory"]').textContent = errorWords(x);
    }
  } else if (b.classList.contains("m-edit")) {
    const text = li.querySelector(".m-text");
    const ta = el("textarea", { className: "editing", value: text.textContent, rows: 2, "aria-label": t("mEdit") });
    text.replaceWith(ta);
    b.textContent = t("save");
    b.classList.replace("m-edit", "m-save");
    ta.focus();
    ta.addEventListener("keydown", (k) => {
      if (k.key === "Enter" && !k.shiftKey) {
        k.preventDefault();
        b.click();
      } else if (k.key === "Escape") {
        k.preventDefault();
        loadMemories();
      }
    });
  } else if (b.classList.contains("m-save")) {
    try {
      await call("memory.update", { memoryId: li.dataset.id, content: li.querySelector("textarea").value });
      await loadMemories();
    } catch (x) {
      document.querySelector('.field-error[data-for="memory"]').textContent = errorWords(x);
    }
  }
});
