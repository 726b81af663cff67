// Tool cards: each tool call of an agent run is a card in the conversation (the tool, the call
// in words, its status and duration, a preview of the result, a screenshot thumbnail), folded
// by default. A call that waits for the user carries the ask (askBox).
import { el } from "./dom.js";
import { call } from "./connection.js";
import { state } from "./state.js";
import { t as tr, say, errorWords } from "./i18n.js";
import { diffView, fileChips } from "./cards.js";

// A call's status and risk in words (catalog keys toolStatus_*, risk_*, riskCalls_*).
const statuses = ["pending", "asking", "running", "", "error", "denied", "stopped", "interrupted"];
const statusWords = (s) => (statuses.includes(s) ? tr("toolStatus_" + (s || "done")) : undefined);
const risks = ["read", "act", "navigate", "destructive", "script"];
const riskWords = (r) => (risks.includes(r) ? tr("risk_" + r) : "");

function duration(ms) {
  if (!ms && ms !== 0) return "";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

// toolHooks.ask draws a call that waits for the user: the ask box in the side panel; the
// overlay, which never answers, says where to answer instead.
export const toolHooks = { ask: (msg, sessionId) => askBox(msg, sessionId) };

// renderTool draws a tool message.
export function renderTool(msg) {
  const t = msg.tool || { name: "tool", args: {} };
  const status = msg.status || "";
  const n = el("article", { className: "msg tool", "aria-label": tr("toolNamed", t.name.replaceAll("_", " ")) });
  n.dataset.role = "tool";
  n.dataset.id = msg.id;
  n.dataset.status = status || "done";
  n.dataset.tool = t.name;
  n.dataset.risk = t.risk || "";
  n.dataset.ran = t.startedAt ? "1" : "";
  n.dataset.decision = t.decision || "";
  const card = el("details", { className: "tool-card" });
  // A call that asks is shown open, but for a plan: its editor above says it all, in words.
  if (status === "asking" && t.name !== "propose_plan") card.open = true;
  const label = statusWords(status) !== undefined ? statusWords(status) : status;
  const time = status === "" || status === "error" ? duration(t.durationMs) : "";
  card.append(
    el("summary", {},
      el("span", { className: "t-name", textContent: t.name.replaceAll("_", " ") }),
      el("span", { className: "t-what", textContent: say(t.whatText, t.what || "") }),
      el("span", { className: "t-status", textContent: [label, time].filter(Boolean).join(" · ") })),
  );
  const body = el("div", { className: "t-body" });
  if (t.args && Object.keys(t.args).length) body.append(el("div", { className: "t-args" }, el("span", { className: "t-label", textContent: tr("toolArguments") }), el("pre", { textContent: JSON.stringify(t.args, null, 1) })));
  if (t.url) body.append(el("div", { className: "t-url", textContent: tr("toolPage", t.url) }));
  if (t.decision) body.append(el("div", { className: "t-decision", textContent: tr("toolPermission", say(t.decisionText, t.decision)) }));
  if (msg.content) {
    const text = msg.content.length > 3000 ? msg.content.slice(0, 3000) + "\n…" : msg.content;
    body.append(el("div", { className: "t-result" }, el("span", { className: "t-label", textContent: tr(t.isError ? "toolError" : "toolResult") }), el("pre", { textContent: text })));
  }
  card.append(body);
  if (t.name === "propose_plan") n.append(status === "asking" ? planEditor(t.args || {}) : planView(t.args || {}));
  n.append(card);
  if (t.locations && t.locations.length) n.append(fileChips(t.locations));
  for (const d of t.diffs || []) n.append(diffView(d));
  if (t.summary && status !== "asking") n.append(el("div", { className: "t-summary", textContent: say(t.summaryText, t.summary) }));
  if (t.flags && t.flags.length) n.append(flagNote(t.flags, tr("flagToolResult")));
  if (t.image) n.append(thumbnail(t.image));
  if (status === "asking") n.append(toolHooks.ask(msg, state.active && state.active.id));
  return n;
}

// planView is a proposed plan as the user weighs it: its steps, its sites, and what it may do
// there without asking.
function planView(p) {
  const kinds = (p.kinds || []).map((k) => tr("planKind_" + k)).join(", ");
  return el("section", { className: "plan-card", "aria-label": tr("planHead") },
    el("strong", { textContent: tr("planHead") }),
    el("ol", { className: "plan-steps" }, ...(p.steps || []).map((s) => el("li", { textContent: s }))),
    el("p", { className: "note plan-sites", textContent: tr("planSites", (p.sites || []).join(", ")) }),
    el("p", { className: "note plan-kinds", textContent: tr("planKinds", kinds) }),
    el("p", { className: "note", textContent: tr("planStill") }));
}

// planEditor is a plan waiting for the user: its steps to edit (one a line), and its sites and
// kinds of action to keep or take away (Approve sends what is left; nothing can be added).
function planEditor(p) {
  const box = el("section", { className: "plan-card plan-edit", "aria-label": tr("planHead") },
    el("strong", { textContent: tr("planHead") }),
    el("textarea", { className: "plan-edit-steps", rows: Math.min(8, (p.steps || []).length + 1), value: (p.steps || []).join("\n"), "aria-label": tr("planHead") }));
  const boxes = (list, attr, words) => el("div", { className: "row wrap" }, ...(list || []).map((v) => {
    const c = el("input", { type: "checkbox", checked: true });
    c.dataset[attr] = v;
    return el("label", { className: "check" }, c, el("span", { textContent: words(v) }));
  }));
  box.append(el("p", { className: "note", textContent: tr("planSites", "") }), boxes(p.sites, "site", (v) => v),
    el("p", { className: "note", textContent: tr("planKinds", "") }), boxes(p.kinds, "kind", (k) => tr("planKind_" + k)),
    el("p", { className: "note", textContent: tr("planStill") }));
  return box;
}

// planEdit reads a plan editor as the user left it.
export function planEdit(card) {
  if (!card) return undefined;
  return {
    steps: card.querySelector(".plan-edit-steps").value.split("\n").map((s) => s.trim()).filter(Boolean),
    sites: [...card.querySelectorAll("input[data-site]:checked")].map((c) => c.dataset.site),
    kinds: [...card.querySelectorAll("input[data-kind]:checked")].map((c) => c.dataset.kind),
  };
}

function thumbnail(imageId) {
  const img = el("img", { className: "t-shot", alt: tr("shotAlt") });
  const link = el("a", { className: "t-shot-link", target: "_blank", title: tr("shotOpen") }, img);
  storedImage(imageId)
    .then((url) => {
      img.src = url;
      link.href = url;
    })
    .catch(() => link.replaceWith(el("span", { className: "note", textContent: tr("shotGone") })));
  return link;
}

// storedImage reads an image the core stores (a screenshot, a picture the user attached) by its
// id, as a blob URL: the only kind the panel's policy loads.
export async function storedImage(imageId) {
  const r = await call("tool.image", { imageId });
  const bytes = Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: r.mime }));
}

// storedAttachment is what the user attached to a message, by its id: a picture ({url}) or a
// file ({file: true, name, pages, size}: its text is the model's, not shown here).
export async function storedAttachment(imageId) {
  const r = await call("tool.image", { imageId });
  if (r.mime.startsWith("image/")) {
    const bytes = Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0));
    return { url: URL.createObjectURL(new Blob([bytes], { type: r.mime })) };
  }
  return { file: true, name: r.name || "file", pages: r.pages || 0, size: Math.round((r.data.length * 3) / 4), cut: !!r.cut };
}

// flagNote tells the user that page text reads like instructions to the model, and what.
export function flagNote(flags, subject) {
  const n = el("div", { className: "flag-note", role: "note" },
    el("strong", { textContent: tr("flagHead", subject) }),
    document.createTextNode(tr("flagBody", flags.map((f) => say(f.said, f.what)).join("; "))));
  n.title = flags.map((f) => f.excerpt).join("\n");
  return n;
}

// The four answers to a call that asks, as the core names them.
const answers = [
  { decision: "allow_once", className: "primary allow-once" },
  { decision: "allow_always", className: "allow-always" },
  { decision: "deny_once", className: "deny-once" },
  { decision: "deny_always", className: "danger deny-always" },
];

// askWho names who makes a call no one else is named for: a workflow's replay step is the
// workflow's (until the model was handed the rest of it), the rest the model's.
function askWho(msg) {
  const run = state.active && state.active.workflow;
  if (run) {
    const ms = state.active.messages;
    const at = ms.findIndex((m) => m.id === msg.id);
    const handed = run.repairMsg ? ms.findIndex((m) => m.id === run.repairMsg) : -1;
    if (at >= 0 && (handed < 0 || at < handed)) return tr("askWhoWorkflow", run.name);
  }
  return tr("askWhoModel");
}

// askBox is the question a call puts to the user, written for a person: what it will do (the
// element in words, the text it will type), where (the site and the page), who asks, why it
// asks, and the four answers.
export function askBox(msg, sessionId) {
  const t = msg.tool;
  const box = el("div", { className: "ask", role: "group", "aria-label": tr("askName") });
  box.append(el("p", { className: "ask-q" },
    el("strong", { textContent: tr("askAllow", t.who || askWho(msg)) }),
    el("span", { className: "ask-what", textContent: say(t.whatText, t.what || t.name.replaceAll("_", " ")) }),
    el("strong", { textContent: tr("askEnd") })));
  const plan = t.risk === "plan";
  // A change an outside agent makes to what Skiff keeps (a memory, a workflow) is on no site,
  // and is answered each time: no standing answer covers it.
  const keep = t.risk === "keep";
  const facts = el("dl", { className: "ask-facts" });
  const fact = (k, v, cls) => v && facts.append(el("dt", { textContent: k }), el("dd", { className: cls || "", textContent: v }));
  const args = t.args || {};
  if (!t.sensitive && typeof args.text === "string" && /^(type|fill_form)$/.test(t.name)) fact(tr("factText"), args.text, "ask-text");
  if (!t.sensitive && t.name === "fill_form" && Array.isArray(args.fields)) fact(tr("factValues"), args.fields.map((f) => String(f.value)).join(" · "), "ask-text");
  if (t.name === "run_script" && typeof args.code === "string") fact(tr("factCode"), args.code.length > 400 ? args.code.slice(0, 400) + "…" : args.code, "ask-code");
  if (t.name.startsWith("agent_")) fact(tr("factFiles"), (t.locations || []).join(", "), "ask-files");
  else if (!plan && !keep) fact(tr("factSite"), t.origin || (t.url ? t.url : tr("noPage")), "ask-origin");
  if (t.leadsTo) fact(tr("factGoesTo"), t.leadsTo, "ask-origin");
  if (t.url && t.url !== t.origin && t.url !== t.origin + "/") fact(tr("factPage"), t.url, "ask-url");
  if (!plan) fact(tr("factRisk"), keep ? tr("risk_keep") : riskWords(t.risk) || t.risk);
  const why = say(t.asksText, t.asks || "");
  fact(tr("factWhy"), why ? why[0].toUpperCase() + why.slice(1) + "." : "");
  if (t.irreversible) fact(tr("factNote"), tr("irreversible", t.irreversible));
  box.append(facts);
  if (t.sensitive) box.append(el("p", { className: "ask-warn", textContent: tr("askSensitive") }));
  const status = el("span", { className: "ask-status", role: "status" });
  // A plan is approved or rejected for this run, a change to what Skiff keeps allowed or
  // denied this once: no standing answer.
  const buttons = answers.filter((a) => !(plan || keep) || a.decision.endsWith("once")).map((a) => {
    const label = plan ? tr(a.decision === "allow_once" ? "planApprove" : "planReject")
      : keep && a.decision === "allow_once" ? tr("keepAllow")
      : tr("answer_" + a.decision + (a.decision.endsWith("always") && !t.origin ? "_anywhere" : ""));
    const b = el("button", { type: "button", className: a.className, textContent: label });
    b.dataset.decision = a.decision;
    const site = t.origin || tr("anySite");
    b.title = {
      allow_once: tr("titleAllowOnce"),
      allow_always: tr("titleAllowAlways", risks.includes(t.risk) ? tr("riskCalls_" + t.risk) : tr("thisTool"), site),
      deny_once: tr("titleDenyOnce"),
      deny_always: tr("titleDenyAlways", t.risk === "read" ? tr("reads") : tr("thisCall"), site),
    }[a.decision];
    b.addEventListener("click", async () => {
      for (const x of buttons) x.disabled = true;
      status.textContent = "";
      try {
        const params = { sessionId, messageId: msg.id, decision: a.decision };
        if (plan && a.decision === "allow_once") params.plan = planEdit(box.closest(".msg.tool") && box.closest(".msg.tool").querySelector(".plan-edit"));
        await call("tool.decide", params);
      } catch (e) {
        status.textContent = errorWords(e);
      }
    });
    return b;
  });
  box.append(el("div", { className: "row wrap ask-answers" }, ...buttons), status);
  if (t.askedAt && state.settings) {
    // How long it waits: its own (an outside or scheduled call's), else the settings'.
    const left = Math.round((t.askedAt + (t.askWaitMs || (state.settings.askSeconds || 120) * 1000) - Date.now()) / 1000);
    const text = left >= 120 ? tr("askTimeoutMinutes", Math.round(left / 60)) : left > 1 ? tr("askTimeoutSeconds", left) : tr("askTimeoutMoment");
    box.append(el("p", { className: "ask-where ask-timeout", textContent: text }));
  }
  return box;
}
