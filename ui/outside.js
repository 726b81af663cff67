// Outside agents: the link to skiffd (its status in Settings) and the calls MCP clients make
// that wait for the user's answer. Those belong to no chat, so they show above the composer,
// each with the same ask box as a chat's tool calls, naming the client that asks.
import { $, el, keyed, banner } from "./dom.js";
import { call, on } from "./connection.js";
import { askBox } from "./tools.js";
import { t, say, onLanguage, errorWords } from "./i18n.js";

// The statuses last shown, drawn again in a new language.
let lastLink = null;
let lastBridge = null;
onLanguage(() => {
  renderLink(lastLink);
  renderBridge(lastBridge);
});

const stateWords = (s) => (["off", "connecting", "connected", "waiting"].includes(s) ? t("link_" + s) : s);

export function renderLink(link) {
  const n = $("link-status");
  if (!n || !link) return;
  lastLink = link;
  n.dataset.state = link.state;
  let text = stateWords(link.state);
  if (link.message) text = t("linkWithMessage", text, say(link.messageText, link.message));
  if (link.clients && link.clients.length) text += " " + t("linkClients", link.clients.join(", "));
  if (link.state === "waiting" && link.retryAt) {
    const s = Math.max(0, Math.round((link.retryAt - Date.now()) / 1000));
    text += " " + t("linkRetry", s);
  }
  n.textContent = text;
  $("link-retry").hidden = link.state === "off" || link.state === "connected";
}

// renderBridge shows the MCP bridge's status in Settings.
export function renderBridge(b) {
  const n = $("bridge-status");
  if (!n || !b) return;
  lastBridge = b;
  n.dataset.state = b.state;
  let text = stateWords(b.state);
  if (b.message) text = t("linkWithMessage", text, say(b.messageText, b.message));
  n.textContent = text;
}

on("bridge.status", (m) => renderBridge(m.bridge));

// An agent's prompt (the bridge's inject_prompt) waits in the message box for the user to read
// and send; it never goes out in their name.
on("composer.inject", (m) => {
  const box = $("input");
  if (!box) return;
  box.value = box.value.trim() ? box.value.trimEnd() + "\n\n" + m.text : m.text;
  box.dispatchEvent(new Event("input"));
  banner(t("injected", m.from));
});

// renderAsks shows the waiting calls. An ask already shown keeps its node (keyed): a second
// client's ask arriving while the user reaches for the first one's button must not swap that
// button out from under the pointer (a press on one node and a release on its copy is no
// click) or take the keyboard focus away.
export function renderAsks(asks) {
  const box = $("outside-asks");
  keyed(box, asks || [], (a) => a.id, (a) => {
    const msg = { id: a.id, tool: { name: a.tool, what: a.what, args: a.args, url: a.url, origin: a.origin, risk: a.risk,
      asks: a.why, asksText: a.whyText, whatText: a.whatText, sensitive: a.sensitive, askedAt: a.askedAt, askWaitMs: a.timeoutMs, who: a.who } };
    const item = el("article", { className: "outside-ask", "aria-label": t("whoAsks", a.who) });
    item.dataset.id = a.id;
    item.dataset.tool = a.tool;
    item.dataset.who = a.who;
    item.append(askBox(msg, ""));
    return item;
  }, () => {});
  box.hidden = !box.children.length;
}

on("link.status", (m) => renderLink(m.link));
on("asks.changed", (m) => renderAsks(m.asks));

$("link-retry").addEventListener("click", async () => {
  try {
    renderLink(await call("link.retry"));
  } catch (e) {
    $("link-status").textContent = errorWords(e);
  }
});
