// What the panel knows, as the core last told it. Nothing here outlives the panel: the core
// and its storage hold everything that matters.
import { say } from "./i18n.js";

export const state = {
  providers: [],
  settings: null, // without keys: hasKey says which providers have one
  sessions: [],
  active: null, // the session on screen, with its messages
  streaming: new Set(), // ids of sessions with a reply in flight
  starting: false, // a message was sent with no chat on screen; the chat it starts is not shown yet
  // The chat whose replies this page reads aloud as they come (Settings' Read aloud): the one it
  // last sent a message in (NEW_CHAT: the one its message is starting).
  readHere: "",
};
export const NEW_CHAT = "(new)";

// setProviders keeps the core's list of providers. One whose name the core gives as a sentence
// (the user's own server; a brand reads the same in every language) is named in the user's
// language, whichever it is when the name is read.
export function setProviders(list) {
  for (const p of list) {
    const [text, english] = [p.nameText, p.name];
    if (text) Object.defineProperty(p, "name", { get: () => say(text, english), enumerable: true });
  }
  state.providers = list;
}

// Agents skiffd hosts are providers too ("acp:NAME"): the grid lists those skiffd reports.
state.agents = [];

export const providerDef = (id) =>
  state.providers.find((p) => p.id === id) || state.agents.find((p) => p.id === id) ||
  (id && id.startsWith("acp:") ? agentDef({ name: id.slice(4), title: id.slice(4), installed: true }) : undefined);

// hostedChat says whether chat ses is with an agent skiffd hosts (which keeps its own history
// of it: it is not branched, continued or edited from Skiff).
export const hostedChat = (ses) => !!(ses && ses.provider && ses.provider.startsWith("acp:"));

export function agentDef(a) {
  return { id: "acp:" + a.name, name: `${a.title} (via skiffd)`, models: [], needsKey: false, local: true, agent: true, installed: a.installed, command: a.command };
}

// modelOf is the model the settings use with their provider ("" when it has no list).
export function modelOf(s) {
  const p = providerDef(s.provider);
  return s.models[s.provider] || (p && p.models[0] ? p.models[0].id : "");
}

export function busy() {
  return !!(state.active && state.streaming.has(state.active.id));
}

// shows says whether the chat the core reports a run of (chat.session) is this page's to
// draw: the one on screen, or the one this page's own message started (nothing on screen, a
// message just sent, a workflow run started here), which is then taken. A chat started elsewhere
// is not.
export function shows(id) {
  if (state.starting) {
    // A message sent with no chat on screen, or a workflow run started here: its new chat.
    state.starting = false;
    if (state.readHere === NEW_CHAT) state.readHere = id;
    return true;
  }
  return !!(state.active && state.active.id === id);
}
