// What the panel knows, as the core last told it. Nothing here outlives the panel: the core
// and its storage hold everything that matters.
export const state = {
  providers: [],
  settings: null, // without keys: hasKey says which providers have one
  sessions: [],
  active: null, // the session on screen, with its messages
  streaming: new Set(), // ids of sessions with a reply in flight
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
