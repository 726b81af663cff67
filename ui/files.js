// Files: the folder ACP agents share, as skiffd serves it (only that folder; dot-files, .git
// and symlinks out of it are not shown). Browse folders, open a text file read-only. The
// agents' diffs show in their chats.
import { $, el } from "./dom.js";
import { call } from "./connection.js";
import { t, errorWords } from "./i18n.js";

let path = "";

export async function openFiles() {
  await show(path);
}

async function show(p) {
  $("file-view").hidden = true;
  try {
    const items = await call("files.list", { path: p });
    path = p;
    crumbs();
    const up = p ? [el("li", {}, el("button", { type: "button", className: "file-up", textContent: "..", "aria-label": t("fUp") }))] : [];
    $("file-list").replaceChildren(...up, ...items.map((it) => {
      const li = el("li", { className: "file" + (it.dir ? " dir" : "") });
      li.dataset.name = it.name;
      li.append(el("button", { type: "button", className: "file-open", textContent: it.dir ? it.name + "/" : it.name }),
        it.dir ? "" : el("span", { className: "note", textContent: size(it.size) }));
      return li;
    }));
    if (!items.length) $("file-list").append(el("li", { className: "note", textContent: t("fEmpty") }));
  } catch (err) {
    $("file-list").replaceChildren(el("li", { className: "note", textContent: errorWords(err) }));
  }
}

function crumbs() {
  const parts = path ? path.split("/") : [];
  $("files-path").replaceChildren(el("span", { textContent: t("fShared") }), ...parts.map((p) => el("span", { textContent: " / " + p })));
}

function size(n) {
  return n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KB` : `${(n / (1 << 20)).toFixed(1)} MB`;
}

$("file-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  if (!b) return;
  if (b.classList.contains("file-up")) return show(path.split("/").slice(0, -1).join("/"));
  const li = b.closest("li");
  const name = li.dataset.name;
  const full = path ? path + "/" + name : name;
  if (li.classList.contains("dir")) return show(full);
  try {
    $("file-view").textContent = await call("files.read", { path: full });
    $("file-view").hidden = false;
    $("file-view").dataset.path = full;
  } catch (err) {
    $("file-view").textContent = errorWords(err);
    $("file-view").hidden = false;
  }
});
