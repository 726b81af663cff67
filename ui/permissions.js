// Permissions: the standing decisions ("always" and "never" answers, and any the user adds
// here), each revocable, a reset, and the audit log of every call the gate decided (newest
// first), exportable as JSON.
import { $, el, download } from "./dom.js";
import { call } from "./connection.js";
import { t, say, ago, errorWords } from "./i18n.js";
import { privateWindow } from "./page.js";

// An incognito window's panel sees, sets and clears the decisions and calls of its private
// chats beside the kept ones; any other panel sees only the kept ones (the core keeps them
// apart, as Chrome keeps incognito site settings to incognito windows).
const seen = () => ({ private: privateWindow() });

// Decisions, scopes and actions in words (catalog keys decision_*, scope_*, action_*).
const decisionWords = (d) => (d === "allow_always" || d === "deny_always" ? t("decision_" + d) : d);
const scopes = { "*": "all", "read:*": "read", "act:*": "act", "navigate:*": "navigate", "destructive:*": "destructive", "script:*": "script" };
const actions = ["click", "type", "fill", "select", "key", "hover", "scroll", "switch", "group", "ungroup", "dialog", "open", "go", "back", "forward",
  "reload", "close", "history", "run", "tabs", "snapshot", "text", "content"];

// scope says a tool pattern in words: "clicking", "clicking what cannot be undone", "reading pages".
function scope(tool) {
  if (scopes[tool]) return t("scope_" + scopes[tool]);
  const [cls, action] = tool.split(":");
  if (!action) return tool.replaceAll("_", " ");
  const what = actions.includes(action) ? t("action_" + action) : action.replaceAll("_", " ");
  return cls === "destructive" && !["close", "history"].includes(action) ? t("destructiveOf", what) : what;
}

function site(origin) {
  if (origin === "*") return t("anySite");
  if (origin === "https://*") return t("anyHttpsSite");
  return origin;
}

export async function openPermissions() {
  $("permissions-status").textContent = "";
  await load();
  $("policy-origin").focus();
}

async function load(r) {
  try {
    render(r || (await call("permission.list", seen())));
  } catch (e) {
    $("permissions-status").textContent = errorWords(e);
  }
}

function render({ policies, audit }) {
  const list = $("policy-list");
  list.replaceChildren(...(policies.length ? policies.map((p) => {
    const li = el("li", { className: "policy" });
    li.dataset.tool = p.tool;
    li.dataset.origin = p.origin;
    li.dataset.decision = p.decision;
    if (p.private) li.dataset.private = "1";
    li.append(
      el("span", { className: "badge", textContent: decisionWords(p.decision) }),
      el("span", { className: "p-text", textContent: t("scopeOn", scope(p.tool), site(p.origin)) }),
      el("span", { className: "note", textContent: p.private ? t("policyIncognito", ago(p.updatedAt)) : ago(p.updatedAt) }),
      el("button", { type: "button", className: "p-revoke", textContent: t("revoke"), "aria-label": t("revokeName", decisionWords(p.decision), t("scopeOn", scope(p.tool), site(p.origin))) }));
    li.querySelector(".badge").dataset.decision = p.decision;
    return li;
  }) : [el("li", { className: "note", textContent: t("noPolicies") })]));
  $("policy-reset").disabled = !policies.length;

  const log = $("audit-list");
  const rows = (audit || []).slice().reverse();
  log.replaceChildren(...(rows.length ? rows.slice(0, 200).map((a) => {
    const li = el("li", { className: "audit" + (a.ok ? "" : " not-ok") });
    li.append(
      el("div", { className: "a-head" },
        el("span", { className: "a-tool", textContent: a.tool.replaceAll("_", " ") }),
        el("span", { className: "note", textContent: `${ago(a.at)} · ${say(a.whoText, a.who)}` })),
      el("div", { className: "a-what", textContent: say(a.whatText, a.what || "") }),
      el("div", { className: "note", textContent: [a.origin, say(a.decisionText, a.decision), say(a.resultText, a.result)].filter(Boolean).join(" · ") }));
    return li;
  }) : [el("li", { className: "note", textContent: t("nothingRan") })]));
  $("audit-count").textContent = rows.length ? t(rows.length > 200 ? "auditCountMore" : "auditCount", rows.length) : "";
}

$("policy-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button.p-revoke");
  const li = e.target.closest(".policy");
  if (!b || !li) return;
  try {
    await load(await call("permission.revoke", { tool: li.dataset.tool, origin: li.dataset.origin, private: li.dataset.private === "1" }));
    $("permissions-status").textContent = t("revoked");
  } catch (x) {
    $("permissions-status").textContent = errorWords(x);
  }
});

$("policy-reset").addEventListener("click", async () => {
  const b = $("policy-reset");
  if (!b.dataset.confirm) {
    b.dataset.confirm = "1";
    b.textContent = t("resetConfirm");
    setTimeout(() => {
      delete b.dataset.confirm;
      b.textContent = t("resetAll");
    }, 4000);
    return;
  }
  delete b.dataset.confirm;
  b.textContent = t("resetAll");
  try {
    await load(await call("permission.reset", seen()));
    $("permissions-status").textContent = t("resetDone");
  } catch (x) {
    $("permissions-status").textContent = errorWords(x);
  }
});

$("policy-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = document.querySelector('.field-error[data-for="policy"]');
  err.textContent = "";
  try {
    await load(await call("permission.set", { tool: $("policy-tool").value, origin: $("policy-origin").value, decision: $("policy-decision").value, ...seen() }));
    $("policy-origin").value = "";
  } catch (x) {
    err.textContent = errorWords(x);
    $("policy-origin").focus();
  }
});

$("audit-export").addEventListener("click", async () => {
  try {
    download(await call("audit.export", seen()));
  } catch (x) {
    $("permissions-status").textContent = errorWords(x);
  }
});
