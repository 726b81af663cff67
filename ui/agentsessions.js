// The sessions agents keep: an agent skiffd hosts may keep sessions of its own in the shared
// folder (started in Skiff, or elsewhere: in a terminal, by another client). When it lists them
// (ACP session/list), History offers them, and "Go on here" opens one as a chat with what the
// agent replays of it; a session a chat already has opens that chat.
import { $, el } from "./dom.js";
import { call } from "./connection.js";
import { showSession } from "./chat.js";
import { state, agentDef } from "./state.js";
import { renderBadge } from "./settings.js";
import { t, ago, errorWords } from "./i18n.js";

let goToChat = () => {};

export function init(toChat) {
  goToChat = toChat;
}

// draw shows a button per installed agent (none, and the section hidden, when skiffd is not
// linked); the lists load on demand, since listing starts the agent.
export async function draw() {
  const section = $("agent-sessions");
  let agents = [];
  try {
    const all = (await call("agents.list")) || [];
    state.agents = all.map(agentDef); // their names, for the badge once one is the backend
    agents = all.filter((a) => a.installed);
  } catch {
    /* the port dropped; the next open draws again */
  }
  section.hidden = !agents.length;
  $("agent-sessions-status").textContent = "";
  $("agent-session-list").replaceChildren();
  $("agent-sessions-agents").replaceChildren(...agents.map((a) => {
    const b = el("button", { type: "button", className: "show-sessions", textContent: t("asShow", a.title) });
    b.dataset.agent = a.name;
    b.dataset.title = a.title;
    return b;
  }));
}

async function show(agent, title) {
  const status = $("agent-sessions-status");
  const list = $("agent-session-list");
  list.replaceChildren();
  list.dataset.agent = agent;
  status.textContent = t("asLoading", title);
  try {
    const r = await call("agents.sessions", { agent });
    if (list.dataset.agent !== agent) return; // another agent's list was asked for since
    if (!r.listed) {
      status.textContent = t("asNotListed", title);
      return;
    }
    status.textContent = r.sessions.length ? "" : t("asNone", title);
    list.replaceChildren(...r.sessions.map((s) => {
      const when = Date.parse(s.updatedAt || "");
      const li = el("li", { className: "agent-session" },
        el("span", { className: "s-title", textContent: s.title || t("asUntitled") }),
        el("span", { className: "s-meta", textContent: isNaN(when) ? "" : ago(when) }),
        el("button", { type: "button", className: s.chat ? "open-chat" : "continue", textContent: t(s.chat ? "asOpen" : "asContinue") }));
      li.dataset.id = s.id;
      li.dataset.title = s.title || "";
      if (s.chat) li.dataset.chat = s.chat;
      return li;
    }));
  } catch (err) {
    status.textContent = errorWords(err);
  }
}

$("agent-sessions-agents").addEventListener("click", (e) => {
  const b = e.target.closest("button.show-sessions");
  if (b) show(b.dataset.agent, b.dataset.title);
});

$("agent-session-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  const li = e.target.closest(".agent-session");
  if (!b || !li) return;
  const status = $("agent-sessions-status");
  try {
    if (li.dataset.chat) {
      showSession(await call("session.open", { sessionId: li.dataset.chat }));
    } else {
      b.disabled = true;
      status.textContent = t("asOpening");
      const r = await call("agents.continue", { agent: $("agent-session-list").dataset.agent, agentSession: li.dataset.id, title: li.dataset.title });
      state.settings = r.settings; // the agent is the backend now: the chat goes on with it
      renderBadge();
      showSession(r.session);
      status.textContent = "";
    }
    goToChat();
  } catch (err) {
    b.disabled = false;
    status.textContent = errorWords(err);
  }
});
