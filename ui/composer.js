// The message box: Enter sends (with the page, when attached), Shift+Enter is a new line, Stop
// stops the reply. A message sent while a reply is being written is queued by the core
// (queue.js shows it). A message that cannot be sent stays in the box.
import { $, el, banner } from "./dom.js";
import { call } from "./connection.js";
import { state, hostedChat, NEW_CHAT } from "./state.js";
import { showSession, stopHearing } from "./chat.js";
import { attachForSend, afterSend, currentWindow, hasAsk, privateWindow, pageInFront } from "./page.js";
import { t, onLanguage, errorWords } from "./i18n.js";
import * as slash from "./slash.js";
import { Attachments } from "./attach.js";
import { promptsOf, asCommands, fill, valuesNow } from "./prompts.js";

// After a "/": the commands of the agent the chat is with (a hosted agent's), then the saved
// prompts, whose text takes the box: {{date}}, {{time}} and {{language}} filled in, and the
// page in front's {{url}} and {{title}}.
const agentCommands = () => (state.active && state.active.commands) || [];
slash.attach($("input"), {
  commands: () => [...agentCommands(), ...asCommands(promptsOf(state.settings))],
  label: () => t(!agentCommands().length ? "slashPrompts" : promptsOf(state.settings).length ? "slashBoth" : "slashCommands"),
  fill: async (text) => fill(text, valuesNow(document.documentElement.lang || "en", await pageInFront())),
});

// The chat's mode: in agent mode the model may use the browser tools. Each chat keeps its own;
// a new chat starts as a plain chat (acting on the browser is something to turn on, not to
// find on).
let agentMode = false;
// Plan first (agent mode only): each run reads and proposes a plan, and acts once it is approved.
let planMode = false;

export function showMode(ses) {
  agentMode = !!(ses && ses.agent);
  planMode = !!(ses && ses.planFirst);
  drawMode();
  drawAgentModel(ses);
}

// The agent's pickers, by the category of option each shows.
const pickers = () => [["model", $("agent-model")], ["mode", $("agent-mode")]];

// A chat with an agent skiffd hosts picks the agent's model and mode (its config options of
// category "model" and "mode") instead of agent mode, which such an agent always has.
function drawAgentModel(ses) {
  const hosted = hostedChat(ses);
  $("agent-toggle").hidden = hosted;
  $("plan-toggle").hidden = hosted || !agentMode;
  for (const [category, sel] of pickers()) {
    const opt = hosted && (ses.agentOptions || []).find((o) => o.category === category);
    sel.hidden = !opt;
    if (!opt) continue;
    sel.dataset.option = opt.id;
    sel.replaceChildren(...opt.values.map((v, i) => el("option", { value: v, textContent: (opt.labels && opt.labels[i]) || v, selected: v === opt.current })));
  }
}
for (const [, sel] of pickers()) {
  sel.addEventListener("change", async (e) => {
    const sel = e.target;
    try {
      await call("agent.option", { sessionId: state.active.id, option: sel.dataset.option, value: sel.value });
    } catch (err) {
      banner(errorWords(err));
    }
  });
}

function drawMode() {
  $("agent-toggle").setAttribute("aria-pressed", String(agentMode));
  $("plan-toggle").setAttribute("aria-pressed", String(planMode));
  $("plan-toggle").hidden = !agentMode || $("agent-toggle").hidden;
  if (!hasAsk()) $("input").placeholder = t(agentMode ? "placeholderAgent" : composerHooks.placeholder);
}
onLanguage(drawMode);

export function toggleAgent() {
  agentMode = !agentMode;
  drawMode();
}
$("agent-toggle").addEventListener("click", toggleAgent);
$("plan-toggle").addEventListener("click", () => {
  planMode = !planMode;
  drawMode();
});

// runParams are what every run takes besides its text: the mode and the window the tools start in.
export function runParams() {
  return { sessionId: state.active ? state.active.id : "", agent: agentMode, plan: agentMode && planMode, windowId: currentWindow() };
}

// What waits to go with the next message (attach.js).
const attached = new Attachments({ box: $("attachments"), input: $("input"), zone: $("composer"), button: $("attach"), picker: $("attach-file"), say: banner, originals: true });

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("input").value;
  const sending = attached.items;
  if (!text.trim() && !sending.length) return;
  if (attached.reading) {
    banner(t("fileStillReading"));
    return;
  }
  $("input").value = "";
  slash.close();
  try {
    const params = { ...runParams(), text, attach: attachForSend() };
    if (sending.length) params.images = attached.sendable();
    // The chat this starts is this page's to show: its first chat.session (which may come
    // before or after the answer) is taken while starting holds.
    if (!params.sessionId) state.starting = true;
    state.readHere = params.sessionId || NEW_CHAT; // its replies are read as they come, if asked
    let r;
    try {
      r = await call("chat.send", params);
    } catch (err) {
      state.starting = false;
      throw err;
    }
    if (r && r.sessionId) state.readHere = r.sessionId;
    attached.take(sending); // sent (or queued) with the message
    if (r && r.queued) return; // it waits above the box (queue.js); the page stays for the next message
    afterSend();
    drawMode();
  } catch (err) {
    $("input").value = text; // nothing is lost
    banner(errorWords(err));
  }
});

$("input").addEventListener("keydown", (e) => {
  if (slash.key(e)) return;
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    $("composer").requestSubmit();
  }
});

$("stop").addEventListener("click", () => {
  if (!state.active) return;
  stopHearing();
  call("chat.stop", { sessionId: state.active.id });
});

// What the page holding the composer does after a new chat is made (the panel lists it).
// placeholder: the message box's key in chat mode.
export const composerHooks = { afterNew: async () => {}, placeholder: "placeholderChat" };

export async function newChat() {
  try {
    showSession(await call("session.new", { private: privateWindow() }));
    await composerHooks.afterNew();
  } catch (err) {
    banner(errorWords(err));
  }
}
