// What the panel knows, as the core last told it. Nothing here outlives the panel: the core
// and its storage hold everything that matters.
export const state = {
  providers: [],
  settings: null, // without keys: hasKey says which providers have one
  sessions: [],
  active: null, // the session on screen, with its messages
  streaming: new Set(), // ids of sessions with a reply in flight
  starting: false, // a message was sent with no chat on screen; the chat it starts is not shown yet
};

// Agents skiffd hosts are providers too ("acp:NAME"): the grid lists those skiffd reports.
state.agents = [];

export const providerDef = (id) =>
  state.providers.find((p) => p.id === id) || state.agents.find((p) => p.id === id) ||
  (id && id.startsWith("acp:") ? agentDef({ name: id.slice(4), title: id.slice(4), installed: true }) : undefined);

export function agentDef(a) {
  return { id: "acp:" + a.name, name: `${a.title} (via skiffd)`, models: [], needsKey: false, local: true, agent: true, installed: a.installed, command: a.command };
}

export function busy() {
  return !!(state.active && state.streaming.has(state.active.id));
}

// takeStarted says whether a chat the core reports as starting is the one this page's own
// message started (nothing on screen, a message just sent), and if so it is taken.
export function takeStarted() {
  if (!state.starting || (state.active && state.active.id)) return false;
  state.starting = false;
  return true;
}
