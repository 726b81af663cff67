// Permissions: the standing decisions ("always" and "never" answers, and any the user adds
// here), each revocable, a reset, and the audit log of every call the gate decided (newest
// first), exportable as JSON.
import { $, el, ago, download } from "./dom.js";
import { call } from "./connection.js";

const decisionText = { allow_always: "Always allow", deny_always: "Never" };
const scopeText = {
  "*": "everything",
  "read:*": "reading pages",
  "act:*": "acting on pages",
  "navigate:*": "opening pages",
  "destructive:*": "what cannot be undone",
  "script:*": "running code in pages",
};

const actionText = {
  click: "clicking", type: "typing", fill: "filling forms", select: "choosing options", key: "pressing keys",
  hover: "hovering", scroll: "scrolling", switch: "switching tabs", group: "grouping tabs", ungroup: "ungrouping tabs",
  dialog: "answering dialogs", open: "opening tabs", go: "opening pages", back: "going back", forward: "going forward",
  reload: "reloading", close: "closing tabs", history: "deleting history", run: "running code",
  tabs: "listing tabs", snapshot: "reading pages", text: "reading pages", content: "reading pages",
};

// scope says a tool pattern in words: "clicking", "clicking what cannot be undone", "reading pages".
function scope(tool) {
  if (scopeText[tool]) return scopeText[tool];
  const [cls, action] = tool.split(":");
  if (!action) return tool.replaceAll("_", " ");
  const what = actionText[action] || action.replaceAll("_", " ");
  return cls === "destructive" && !["close", "history"].includes(action) ? `${what} what cannot be undone` : what;
}

function site(origin) {
  if (origin === "*") return "any site";
  if (origin === "https://*") return "any https site";
  return origin;
}

export async function openPermissions() {
  $("permissions-status").textContent = "";
  await load();
  $("policy-origin").focus();
}

async function load(r) {
  try {
    render(r || (await call("permission.list")));
  } catch (e) {
    $("permissions-status").textContent = e.message;
  }
}

function render({ policies, audit }) {
  const list = $("policy-list");
  list.replaceChildren(...(policies.length ? policies.map((p) => {
    const li = el("li", { className: "policy" });
    li.dataset.tool = p.tool;
    li.dataset.origin = p.origin;
    li.dataset.decision = p.decision;
    li.append(
      el("span", { className: "badge", textContent: decisionText[p.decision] || p.decision }),
      el("span", { className: "p-text", textContent: `${scope(p.tool)} on ${site(p.origin)}` }),
      el("span", { className: "note", textContent: ago(p.updatedAt) }),
      el("button", { type: "button", className: "p-revoke", textContent: "Revoke", "aria-label": `Revoke: ${decisionText[p.decision]} ${scope(p.tool)} on ${site(p.origin)}` }));
    li.querySelector(".badge").dataset.decision = p.decision;
    return li;
  }) : [el("li", { className: "note", textContent: "No standing permissions: every call follows the defaults above." })]));
  $("policy-reset").disabled = !policies.length;

  const log = $("audit-list");
  const rows = (audit || []).slice().reverse();
  log.replaceChildren(...(rows.length ? rows.slice(0, 200).map((a) => {
    const li = el("li", { className: "audit" + (a.ok ? "" : " not-ok") });
    li.append(
      el("div", { className: "a-head" },
        el("span", { className: "a-tool", textContent: a.tool.replaceAll("_", " ") }),
        el("span", { className: "note", textContent: `${ago(a.at)} · ${a.who}` })),
      el("div", { className: "a-what", textContent: a.what || "" }),
      el("div", { className: "note", textContent: [a.origin, a.decision, a.result].filter(Boolean).join(" · ") }));
    return li;
  }) : [el("li", { className: "note", textContent: "Nothing has run yet." })]));
  $("audit-count").textContent = rows.length ? `${rows.length} calls${rows.length > 200 ? " (the newest 200 shown; Export has them all)" : ""}` : "";
}

$("policy-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button.p-revoke");
  const li = e.target.closest(".policy");
  if (!b || !li) return;
  try {
    await load(await call("permission.revoke", { tool: li.dataset.tool, origin: li.dataset.origin }));
    $("permissions-status").textContent = "Revoked: Skiff asks again.";
  } catch (x) {
    $("permissions-status").textContent = x.message;
  }
});

$("policy-reset").addEventListener("click", async () => {
  const b = $("policy-reset");
  if (!b.dataset.confirm) {
    b.dataset.confirm = "1";
    b.textContent = "Really remove all?";
    setTimeout(() => {
      delete b.dataset.confirm;
      b.textContent = "Reset all";
    }, 4000);
    return;
  }
  delete b.dataset.confirm;
  b.textContent = "Reset all";
  try {
    await load(await call("permission.reset"));
    $("permissions-status").textContent = "All standing permissions removed: every call follows the defaults.";
  } catch (x) {
    $("permissions-status").textContent = x.message;
  }
});

$("policy-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = document.querySelector('.field-error[data-for="policy"]');
  err.textContent = "";
  try {
    await load(await call("permission.set", { tool: $("policy-tool").value, origin: $("policy-origin").value, decision: $("policy-decision").value }));
    $("policy-origin").value = "";
  } catch (x) {
    err.textContent = x.message;
    $("policy-origin").focus();
  }
});

$("audit-export").addEventListener("click", async () => {
  try {
    download(await call("audit.export"));
  } catch (x) {
    $("permissions-status").textContent = x.message;
  }
});
