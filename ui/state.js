// What the panel knows, as the core last told it. Nothing here outlives the panel: the core
// and its storage hold everything that matters.
export const state = {
  providers: [],
  settings: null, // without keys: hasKey says which providers have one
  sessions: [],
  active: null, // the session on screen, with its messages
  streaming: new Set(), // ids of sessions with a reply in flight
};

export const providerDef = (id) => state.providers.find((p) => p.id === id);

export function busy() {
  return !!(state.active && state.streaming.has(state.active.id));
}
