// Tool cards: each tool call of an agent run is a card in the conversation (the tool, the call
// in words, its status and duration, a preview of the result, a screenshot thumbnail), folded
// by default. A call that waits for the user carries the ask: Allow or Deny.
import { el } from "./dom.js";
import { call } from "./connection.js";

const statusText = {
  pending: "waiting",
  asking: "needs your OK",
  running: "running…",
  "": "done",
  error: "failed",
  denied: "not allowed",
  stopped: "stopped",
  interrupted: "interrupted",
};

const riskText = {
  read: "reads",
  act: "acts on the page",
  navigate: "opens pages",
  destructive: "cannot be undone",
  script: "runs code in the page",
};

function duration(ms) {
  if (!ms && ms !== 0) return "";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

// renderTool draws a tool message.
export function renderTool(msg) {
  const t = msg.tool || { name: "tool", args: {} };
  const status = msg.status || "";
  const n = el("article", { className: "msg tool", "aria-label": `Tool ${t.name}` });
  n.dataset.role = "tool";
  n.dataset.id = msg.id;
  n.dataset.status = status || "done";
  n.dataset.tool = t.name;
  const card = el("details", { className: "tool-card" });
  if (status === "asking") card.open = true;
  const label = statusText[status] !== undefined ? statusText[status] : status;
  const time = status === "" || status === "error" ? duration(t.durationMs) : "";
  card.append(
    el("summary", {},
      el("span", { className: "t-name", textContent: t.name.replaceAll("_", " ") }),
      el("span", { className: "t-what", textContent: t.what || "" }),
      el("span", { className: "t-status", textContent: [label, time].filter(Boolean).join(" · ") })),
  );
  const body = el("div", { className: "t-body" });
  body.append(el("div", { className: "t-args" }, el("span", { className: "t-label", textContent: "Arguments" }), el("pre", { textContent: JSON.stringify(t.args, null, 1) })));
  if (t.url) body.append(el("div", { className: "t-url", textContent: "Page: " + t.url }));
  if (t.decision) body.append(el("div", { className: "t-decision", textContent: "Permission: " + t.decision }));
  if (msg.content) {
    const text = msg.content.length > 3000 ? msg.content.slice(0, 3000) + "\n…" : msg.content;
    body.append(el("div", { className: "t-result" }, el("span", { className: "t-label", textContent: t.isError ? "Error" : "Result" }), el("pre", { textContent: text })));
  }
  card.append(body);
  n.append(card);
  if (t.summary && status !== "asking") n.append(el("div", { className: "t-summary", textContent: t.summary }));
  if (t.image) n.append(thumbnail(t.image));
  if (status === "asking") n.append(askBox(msg));
  return n;
}

function thumbnail(imageId) {
  const img = el("img", { className: "t-shot", alt: "Screenshot the tool took" });
  const link = el("a", { className: "t-shot-link", target: "_blank", title: "Open the screenshot" }, img);
  call("tool.image", { imageId })
    .then((r) => {
      const bytes = Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: r.mime }));
      img.src = url;
      link.href = url;
    })
    .catch(() => link.replaceWith(el("span", { className: "note", textContent: "(screenshot no longer stored)" })));
  return link;
}

function askBox(msg) {
  const t = msg.tool;
  const box = el("div", { className: "ask", role: "group", "aria-label": "Skiff asks for your permission" });
  box.append(
    el("p", { className: "ask-q" },
      el("strong", { textContent: "Allow Skiff to " }),
      el("span", { className: "ask-what", textContent: t.what || t.name }),
      el("strong", { textContent: "?" })),
    el("p", { className: "ask-where", textContent: `${t.origin || t.url || "this browser"} · ${riskText[t.risk] || t.risk}` }),
  );
  const allow = el("button", { type: "button", className: "primary allow", textContent: "Allow" });
  const deny = el("button", { type: "button", className: "deny", textContent: "Deny" });
  const status = el("span", { className: "ask-status", role: "status" });
  const answer = async (ok) => {
    allow.disabled = deny.disabled = true;
    try {
      await call("tool.decide", { messageId: msg.id, allow: ok });
    } catch (e) {
      status.textContent = e.message;
    }
  };
  allow.addEventListener("click", () => answer(true));
  deny.addEventListener("click", () => answer(false));
  box.append(el("div", { className: "row" }, allow, deny, status));
  return box;
}
