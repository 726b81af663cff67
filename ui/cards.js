// Cards an agent's chat shows, shared by the side panel and skiffd's web client: the files a
// call touched, a change to a file as a unified diff with its counts, and the agent's plan.
// They draw from plain values (no state, no connection), so any page that has the catalogs can
// use them.
import { el } from "./dom.js";
import { t } from "./i18n.js";

// fileChips shows the files a call touched.
export function fileChips(paths) {
  return el("div", { className: "t-files" }, ...paths.map((p) => el("span", { className: "file-chip", textContent: p })));
}

// diffView shows a change to a file as a unified diff with its counts, folded when long.
export function diffView(d) {
  const lines = (d.unified || "").split("\n").filter((l) => l && !l.startsWith("---") && !l.startsWith("+++"));
  const pre = el("pre", { className: "diff" }, ...lines.map((l) =>
    el("span", { className: l[0] === "+" ? "add" : l[0] === "-" ? "del" : l.startsWith("@@") ? "hunk" : "", textContent: l })));
  const box = el("details", { className: "diff-card" },
    el("summary", {},
      el("span", { className: "file-chip", textContent: d.path }),
      el("span", { className: "diff-count add", textContent: `+${d.added}` }),
      el("span", { className: "diff-count del", textContent: `−${d.removed}` }),
      d.new ? el("span", { className: "note", textContent: t("newFile") }) : ""),
    pre);
  box.open = lines.length <= 30;
  return box;
}

// planCard is the agent's plan, replaced whole at each update: each entry with its status.
export function planCard(plan) {
  const mark = { completed: "✓", in_progress: "▸", pending: "○" };
  return el("div", { className: "plan-card", role: "group", "aria-label": t("planName") },
    el("strong", { textContent: t("plan") }),
    el("ol", {}, ...plan.map((p) => {
      const li = el("li", { textContent: `${mark[p.status] || "○"} ${p.content}` });
      li.dataset.status = p.status;
      return li;
    })));
}
