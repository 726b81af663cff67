package link

import "github.com/skiff-ai/skiff/internal/attach"

// Methods of ACP chats: the extension asks skiffd to host an agent's session and prompt it;
// skiffd sends the session's events and the agent's questions back.
var (
	// AgentList: extension → skiffd, the agents skiffd can host.
	AgentList = Method[struct{}, []AgentInfo]{"agent.list"}
	// AgentOpen: extension → skiffd, start the agent if it is not running and open a session
	// for a Skiff chat (nothing if it has one), resuming the agent's session from before when
	// the chat had one and the agent can.
	AgentOpen = Method[AgentOpenParams, AgentOpened]{"agent.open"}
	// AgentSessions: extension → skiffd, the agent's own sessions in the shared folder
	// (session/list), started if it is not running.
	AgentSessions = Method[AgentName, AgentSessionList]{"agent.sessions"}
	// AgentContinue: extension → skiffd, open one of the agent's own sessions as a chat new to
	// Skiff, with the history the agent replays when it can.
	AgentContinue = Method[AgentContinueParams, AgentContinued]{"agent.continue"}
	// AgentPrompt: extension → skiffd, a user's message; answers when the turn ends.
	AgentPrompt = Method[AgentPromptParams, AgentPromptResult]{"agent.prompt"}
	// AgentCancel: extension → skiffd, stop the chat's turn.
	AgentCancel = Method[AgentSession, struct{}]{"agent.cancel"}
	// AgentOption: extension → skiffd, set one of a chat's config options (the model is the
	// one of category "model"; acphost.ModeOption, of category "mode", the legacy session modes); the options as they are now.
	AgentOption = Method[AgentOptionParams, []ConfigOption]{"agent.option"}
	// AgentLog: extension → skiffd, the end of an agent's stderr, then, after a line that is
	// NotesHeading, skiffd's notes on the connection.
	AgentLog = Method[AgentName, string]{"agent.log"}
	// AgentFiles and AgentFile: extension → skiffd, the shared folder's listing and a file.
	AgentFiles = Method[FilePath, []FileEntry]{"agent.files"}
	AgentFile  = Method[FilePath, string]{"agent.file"}
	// AgentEvents: skiffd → extension (notification), what a session did.
	AgentEvents = Method[AgentEvent, struct{}]{"agent.event"}
	// AgentAsk: skiffd → extension, a question for the user in the agent's chat; the answer
	// is an answer kind (allow_once, allow_always, reject_once, reject_always).
	AgentAsk = Method[AgentQuestion, string]{"agent.ask"}
	// SavedPrompts (skiffd → extension) are the user's saved prompts, which skiffd's web
	// client offers after a "/" as the panel does.
	SavedPrompts = Method[struct{}, PromptList]{"prompts.list"}
)

// AgentInfo is an agent skiffd can host.
type AgentInfo struct {
	Name      string `json:"name"`
	Title     string `json:"title"`
	Installed bool   `json:"installed"`
	Command   string `json:"command"`
	Running   bool   `json:"running,omitempty"`
}

// AgentName names an agent.
type AgentName struct {
	Agent string `json:"agent"`
}

// AgentSession names a Skiff chat hosted by an agent.
type AgentSession struct {
	Session string `json:"session"`
}

// AgentOpenParams opens Session (a Skiff chat id) with Agent. Resume is the agent's own
// session id the chat had before (skiffd or the agent restarted since), when it had one.
type AgentOpenParams struct {
	Agent   string `json:"agent"`
	Session string `json:"session"`
	Resume  string `json:"resume,omitempty"`
}

// AgentOpened is the chat's session with the agent: the agent's own id for it (kept with the
// chat, to resume it later) and how it opened: "new", "resumed", "loaded", or "" when the chat
// had its session open already.
type AgentOpened struct {
	AgentSession string `json:"agentSession,omitempty"`
	How          string `json:"how,omitempty"`
	// Images: the agent takes images in a prompt (its promptCapabilities).
	Images bool `json:"images,omitempty"`
}

// AgentSessionList is an agent's own sessions; Listed is false when the agent does not list
// them (it offers no session/list).
type AgentSessionList struct {
	Listed   bool               `json:"listed"`
	Sessions []AgentSessionInfo `json:"sessions"`
}

// AgentSessionInfo is one of an agent's sessions, as session/list gives it.
type AgentSessionInfo struct {
	ID        string `json:"id"`
	Title     string `json:"title,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"` // ISO 8601, as the agent gave it
	// Open is the chat skiffd has it open for ("" when none).
	Open string `json:"open,omitempty"`
}

// AgentContinueParams opens the agent's session AgentSession as the chat Session (a Skiff chat
// id that has no session with the agent yet).
type AgentContinueParams struct {
	Agent        string `json:"agent"`
	Session      string `json:"session"`
	AgentSession string `json:"agentSession"`
}

// AgentContinued is a continued session: the history the agent replayed (none when it could
// only resume it), in order, as the chat's events.
type AgentContinued struct {
	History []AgentEvent `json:"history,omitempty"`
	Images  bool         `json:"images,omitempty"`
}

// AgentOptionParams sets Option to Value in Session.
type AgentOptionParams struct {
	Session string `json:"session"`
	Option  string `json:"option"`
	Value   string `json:"value"`
}

// AgentPromptParams is a user's message to the chat's agent.
type AgentPromptParams struct {
	Session string    `json:"session"`
	Text    string    `json:"text"`
	Images  []Image64 `json:"images,omitempty"`
	// Attached are pictures and files as a client sends them (the web client), which skiffd
	// checks: a file goes in the prompt as its text; a picture goes only to an agent that
	// takes pictures. The panel's core sends Images and its files' text, checked already.
	Attached []attach.Item `json:"attached,omitempty"`
}

// AgentPromptResult is how the turn ended: end_turn, max_tokens, max_turn_requests, refusal
// or cancelled; with what it cost and the model it ran on, when the agent says.
type AgentPromptResult struct {
	StopReason string `json:"stopReason"`
	// Usage is the tokens the turn's model calls counted (nil when the agent says nothing).
	Usage *TurnUsage `json:"usage,omitempty"`
	// Model is the model that did most of the turn, as the agent names it.
	Model string `json:"model,omitempty"`
}

// TurnUsage is the tokens a turn counted.
type TurnUsage struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	Thought    int `json:"thought,omitempty"`
	CacheRead  int `json:"cacheRead,omitempty"`
	CacheWrite int `json:"cacheWrite,omitempty"`
	Total      int `json:"total,omitempty"`
}

// Image64 is an image as base64 text.
type Image64 struct {
	Mime string `json:"mime"`
	Data string `json:"data"`
}

// FilePath is a path in the shared folder ("" its top).
type FilePath struct {
	Path string `json:"path"`
}

// FileEntry is one item of a folder listing.
type FileEntry struct {
	Name string `json:"name"`
	Dir  bool   `json:"dir,omitempty"`
	Size int64  `json:"size,omitempty"`
}

// AgentEvent is one thing an agent's session did, typed for the panel and the web client: Kind
// says which field is set.
//
//	text, thought, user   Text (a chunk: append it)
//	tool                  Tool (a card keyed by Tool.ID; Update: merge into the card)
//	plan                  Plan (the whole plan: replace it)
//	commands              Commands (the slash commands the composer offers)
//	mode, info            Text (the current mode, the session's title)
//	config                Config (options such as the model)
//	usage                 Usage
//	wrote                 Diff (a file the agent wrote in the shared folder)
type AgentEvent struct {
	Session  string         `json:"session"`
	Kind     string         `json:"kind"`
	Text     string         `json:"text,omitempty"`
	Tool     *ToolCard      `json:"tool,omitempty"`
	Plan     []PlanItem     `json:"plan,omitempty"`
	Commands []Command      `json:"commands,omitempty"`
	Config   []ConfigOption `json:"config,omitempty"`
	Usage    *Usage         `json:"usage,omitempty"`
	Diff     *Diff          `json:"diff,omitempty"`
}

// ToolCard is a tool call as the panel's step card shows it.
type ToolCard struct {
	ID        string   `json:"id"`
	Update    bool     `json:"update,omitempty"` // only the fields set change
	Title     string   `json:"title,omitempty"`
	Kind      string   `json:"kind,omitempty"`   // read, edit, delete, move, search, execute, think, fetch, other
	Status    string   `json:"status,omitempty"` // pending, in_progress, completed, failed
	Locations []string `json:"locations,omitempty"`
	Preview   string   `json:"preview,omitempty"` // the start of its text output
	Diffs     []Diff   `json:"diffs,omitempty"`
}

// PlanItem is one entry of the agent's plan.
type PlanItem struct {
	Content  string `json:"content"`
	Status   string `json:"status"` // pending, in_progress, completed
	Priority string `json:"priority,omitempty"`
}

// Command is a slash command the agent offers.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// ConfigOption is one of a session's options (category "model" is the model picker).
type ConfigOption struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Category string   `json:"category,omitempty"`
	Current  string   `json:"current,omitempty"`
	Values   []string `json:"values,omitempty"`
	// Labels are the values' names as the agent gives them, in the same order ("" where it
	// gives none).
	Labels []string `json:"labels,omitempty"`
}

// Usage is the context window's use, and what the agent's session has cost so far when it
// says (Claude's agent does, in US dollars).
type Usage struct {
	Used int   `json:"used"`
	Size int   `json:"size"`
	Cost *Cost `json:"cost,omitempty"`
}

// Cost is an amount of money in an ISO 4217 currency.
type Cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// Diff is a change to one file as a unified diff, with its counts.
type Diff struct {
	Path    string `json:"path"`
	Unified string `json:"unified"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	New     bool   `json:"new,omitempty"`
}

// AgentQuestion is what the user is asked for an agent: a tool call of the agent's own (with the
// answers it offers) or a file write in the shared folder.
type AgentQuestion struct {
	Session string   `json:"session"` // Skiff's session id
	Agent   string   `json:"agent"`   // the agent's title: "Gemini CLI"
	Title   string   `json:"title"`   // what it wants to do, in words
	Kind    string   `json:"kind"`    // the tool kind: edit, delete, execute, fetch, read, …; "write" for a file write
	Risk    string   `json:"risk"`    // read, act or destructive
	Answers []string `json:"answers"` // the answer kinds offered
	Diff    *Diff    `json:"diff,omitempty"`
}

// PromptList is the user's saved prompts; Saved is false when they never saved any (the
// client then offers the panel's own, in its language).
type PromptList struct {
	Saved   bool     `json:"saved"`
	Prompts []Prompt `json:"prompts"`
}

// Prompt is a saved prompt: a one-word name and the text it puts in the message box.
type Prompt struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// NotesHeading is the line of an agent's log (AgentLog) between its own words and skiffd's
// notes on the connection: the panel shows a heading of its catalogs in its place.
const NotesHeading = "--- Skiff's notes on the connection ---"
