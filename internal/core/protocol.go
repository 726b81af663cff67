// The panel's protocol: every message the panel can send, in one table a reader can scan.
//
// A request is {"id": n, "type": "family.verb", "params": {...}}; it gets exactly one
// {"type": "reply", "id": n, "ok": true, "result": ...} or {"ok": false, "error": {"message",
// "field"?}}, where the message is a sentence for the user (see Sentence). A request without
// an id gets no reply. Progress the panel did not ask for is pushed to every connected panel
// as {"type": "chat.session" | "chat.delta" | "chat.done", ...} (agent.Update).

package core

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
)

// methodFor is the handler of a message type. A switch, not a table built at start: a
// worker that wakes answers its first message without first making a handler for each of the
// others (package init ran every handle[P, R] and stream[P], 5–7 ms of each wake in Chrome,
// measured with GODEBUG=inittrace=1).
func methodFor(name string) (method, bool) {
	switch name {
	case "core.ping":
		return handle(func(*Core, context.Context, struct{}) (string, error) { return "pong", nil }), true
	case "core.hello":
		return handle((*Core).hello), true
	case "chat.send":
		return stream((*Core).send), true
	case "chat.edit":
		return stream((*Core).edit), true
	case "chat.regenerate":
		return stream((*Core).regenerate), true
	case "chat.continue":
		return stream((*Core).continueReply), true
	case "chat.version":
		return handle((*Core).showVersion), true
	case "chat.stop":
		return handle((*Core).stop), true
	case "queue.list":
		return handle((*Core).queue), true
	case "queue.edit":
		return handle((*Core).editQueued), true
	case "queue.send":
		return stream((*Core).sendQueued), true
	case "session.new":
		return handle((*Core).newSession), true
	case "session.open":
		return handle((*Core).openSession), true
	case "session.list":
		return handle((*Core).listSessions), true
	case "session.search":
		return handle((*Core).search), true
	case "session.rename":
		return handle((*Core).rename), true
	case "session.pin":
		return handle((*Core).pin), true
	case "session.branch":
		return handle((*Core).branch), true
	case "session.delete":
		return handle((*Core).deleteSession), true
	case "session.export":
		return handle((*Core).export), true
	case "session.import":
		return handle((*Core).importFile), true
	case "memory.list":
		return handle((*Core).listMemories), true
	case "memory.add":
		return handle((*Core).addMemory), true
	case "memory.update":
		return handle((*Core).updateMemory), true
	case "memory.delete":
		return handle((*Core).deleteMemory), true
	case "workflow.list":
		return handle((*Core).listWorkflows), true
	case "workflow.save":
		return handle((*Core).saveWorkflow), true
	case "workflow.update":
		return handle((*Core).updateWorkflow), true
	case "workflow.delete":
		return handle((*Core).deleteWorkflow), true
	case "workflow.import":
		return handle((*Core).importWorkflows), true
	case "workflow.run":
		return stream((*Core).runWorkflow), true
	case "workflow.finish":
		return stream((*Core).finishWorkflow), true
	case "schedule.list":
		return handle((*Core).listSchedules), true
	case "schedule.save":
		return handle((*Core).saveSchedule), true
	case "schedule.delete":
		return handle((*Core).deleteSchedule), true
	case "schedule.run":
		return handle((*Core).runScheduleNow), true
	case "page.peek":
		return handle((*Core).peek), true
	case "tool.decide":
		return handle((*Core).decide), true
	case "tool.image":
		return handle((*Core).image), true
	case "permission.list":
		return handle((*Core).permissions), true
	case "permission.set":
		return handle((*Core).setPolicy), true
	case "permission.revoke":
		return handle((*Core).revoke), true
	case "permission.reset":
		return handle((*Core).resetPolicies), true
	case "audit.export":
		return handle((*Core).exportAudit), true
	case "settings.save":
		return handle((*Core).saveSettings), true
	case "link.status":
		return handle(func(c *Core, _ context.Context, _ struct{}) (LinkStatus, error) { return c.Link(), nil }), true
	case "link.retry":
		return handle(func(c *Core, ctx context.Context, _ struct{}) (LinkStatus, error) {
			c.RetryLink(ctx)
			return c.Link(), nil
		}), true
	case "asks.list":
		return handle(func(c *Core, _ context.Context, _ struct{}) ([]permission.Question, error) {
			return c.gate.Questions(), nil
		}), true
	case "provider.models":
		return handle((*Core).models), true
	case "agents.list":
		return handle((*Core).agents), true
	case "agents.log":
		return handle((*Core).agentLog), true
	case "agents.sessions":
		return handle((*Core).agentSessions), true
	case "agents.continue":
		return handle((*Core).continueSession), true
	case "files.list":
		return handle((*Core).listFiles), true
	case "agent.option":
		return handle((*Core).setAgentOption), true
	case "files.read":
		return handle((*Core).readFile), true
	case "provider.test":
		return handle((*Core).testProvider), true
	case "provider.detect":
		return handle((*Core).detect), true
	}
	return nil, false
}

// overlayMay is what the overlay may call: its own chat, the page it sits on, and the state it
// draws itself from. Everything else (answering asks, settings, permissions and the audit,
// history, memories, files, the link) belongs to the side panel alone.
var overlayMay = map[string]bool{
	"core.ping": true, "core.hello": true,
	"chat.send": true, "chat.edit": true, "chat.regenerate": true, "chat.continue": true, "chat.version": true, "chat.stop": true,
	"queue.list": true, "queue.edit": true, "queue.send": true,
	"session.new": true, "session.open": true,
	"page.peek": true, "tool.image": true, "agent.option": true,
}

type roleKey struct{}

// roleOf is the role of the connection a request came from ("" when there is none: a
// handler then gives out no more than to the least trusted page).
func roleOf(ctx context.Context) Role {
	r, _ := ctx.Value(roleKey{}).(Role)
	return r
}

type placeKey struct{}

// place is the tab (and its window) of a placed connection.
type place struct{ tab, window int }

// placedIn is the tab of the connection a request came from, 0 for the side panel; for the
// overlay it also makes *windowID that tab's window, so its runs start there.
func placedIn(ctx context.Context, windowID *int) int {
	pl, ok := ctx.Value(placeKey{}).(place)
	if !ok || pl.tab <= 0 {
		return 0
	}
	*windowID = pl.window
	return pl.tab
}

// allowed reports whether a connection of role r may call the method name.
func allowed(r Role, name string) bool {
	switch r {
	case RolePanel:
		return true
	case RoleOverlay:
		return overlayMay[name]
	}
	return false
}

// SessionRef names a session.
type SessionRef struct {
	SessionID string `json:"sessionId"`
}

// SendParams is chat.send (text as a user message in a session, "" starting a new one, with
// the page the user attached), chat.edit (text replacing the last user message),
// chat.regenerate and chat.continue (no text). Agent switches the chat between chat and agent mode; WindowID is
// the panel's window, where the tools start.
type SendParams struct {
	SessionID string        `json:"sessionId"`
	Text      string        `json:"text"`
	Attach    *AttachParams `json:"attach,omitempty"`
	// Images are the images the user attached (chat.send only).
	Images   []agent.Attached `json:"images,omitempty"`
	Agent    *bool            `json:"agent,omitempty"`
	Plan     *bool            `json:"plan,omitempty"`
	WindowID int              `json:"windowId"`
}

// Started answers chat.send, chat.edit, chat.regenerate and chat.continue once the user's message is stored;
// the reply follows as chat.* pushes.
type Started struct {
	SessionID string `json:"sessionId"`
	// Queued: a run was going, so chat.send's message waits in the chat's queue (chat.queue).
	Queued bool `json:"queued,omitempty"`
}

// QueueEdit is queue.edit: the waiting message ID of a session gets Text ("" removes it).
type QueueEdit struct {
	SessionID string `json:"sessionId"`
	ID        string `json:"id"`
	Text      string `json:"text"`
}

// SearchParams is session.search.
type SearchParams struct {
	Query string `json:"query"`
	// Private: the panel's window is incognito (it finds private chats only).
	Private bool `json:"private"`
}

// RenameParams is session.rename.
type RenameParams struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
}

// PinParams is session.pin: a chat pinned (first in History) or not.
type PinParams struct {
	SessionID string `json:"sessionId"`
	Pinned    bool   `json:"pinned"`
}

// VersionParams is chat.version: which version of a chat's last reply to show (0: the oldest).
type VersionParams struct {
	SessionID string `json:"sessionId"`
	MessageID string `json:"messageId"`
	Version   int    `json:"version"`
}

// BranchParams is session.branch: a new chat from a chat as it was at one of its replies, or
// at a message of the user's that Text replaces (an edit of an earlier message).
type BranchParams struct {
	SessionID string `json:"sessionId"`
	MessageID string `json:"messageId"`
	Text      string `json:"text,omitempty"`
}

// ExportParams is session.export: "json" (everything, as a backup) or "markdown" (one chat).
type ExportParams struct {
	SessionID string `json:"sessionId"`
	Format    string `json:"format"`
}

// ImportParams is session.import: the text of a backup file.
type ImportParams struct {
	Data string `json:"data"`
}

// MemoryParams is memory.add, memory.update (with an id) and memory.delete (id only).
type MemoryParams struct {
	MemoryID string `json:"memoryId"`
	Content  string `json:"content"`
}

// SaveSettingsParams is settings.save. Keys holds API keys to change: a string sets one, ""
// removes it; absent keys are kept (the panel never holds keys).
type SaveSettingsParams struct {
	Settings *store.Settings   `json:"settings"`
	Keys     map[string]string `json:"keys"`
	// DaemonToken, when present, sets skiffd's pairing token ("" removes it); absent, the
	// stored one is kept (the panel never holds it either).
	DaemonToken *string `json:"daemonToken,omitempty"`
	// BridgeToken, likewise, the token of the agent the MCP bridge connects to.
	BridgeToken *string `json:"bridgeToken,omitempty"`
}

// ProviderParams is provider.models and provider.test: a provider ("" for the chosen one),
// with the key and base URL typed in the form but not saved yet (provider.test only).
type ProviderParams struct {
	Provider string `json:"provider"`
	Key      string `json:"key"`
	BaseURL  string `json:"baseURL"`
}

// None is the result of a message that only succeeds or fails.
type None = *struct{}

// method handles one request. reply is called exactly once.
type method func(c *Core, ctx context.Context, params json.RawMessage, reply func(any, error))

// handle adapts a plain handler: decode P, run, reply with R.
func handle[P, R any](f func(*Core, context.Context, P) (R, error)) method {
	return func(c *Core, ctx context.Context, raw json.RawMessage, reply func(any, error)) {
		var p P
		if err := decodeParams(raw, &p); err != nil {
			reply(nil, err)
			return
		}
		r, err := f(c, ctx, p)
		reply(r, err)
	}
}

// stream adapts a handler that keeps working after its answer: it runs in its own goroutine
// and calls started when the request is accepted (the user's message stored); an error before
// that is the reply.
func stream[P any](f func(c *Core, ctx context.Context, p P, emit func(agent.Update)) error) method {
	return func(c *Core, ctx context.Context, raw json.RawMessage, reply func(any, error)) {
		var p P
		if err := decodeParams(raw, &p); err != nil {
			reply(nil, err)
			return
		}
		go c.streaming(func(emit func(agent.Update)) error { return f(c, ctx, p, emit) }, reply)
	}
}

// streaming runs a stream method's work (not generic: one copy for every method): started is
// the request accepted (the user's message stored, or queued), and an error or a fault of
// Skiff's own (a panic) before that is the reply; after it, the updates say the rest.
func (c *Core) streaming(work func(emit func(agent.Update)) error, reply func(any, error)) {
	started := false
	defer func() {
		if p := recover(); p != nil { // a fault of Skiff's own fails the request, not the worker
			agent.Fault("a request", p)
			if !started {
				reply(nil, problemf(sayCoreFault, fmt.Sprint(p)))
			}
		}
	}()
	emit := func(u agent.Update) {
		if (u.Type == agent.UpdateSession || u.Type == agent.UpdateQueue) && !started {
			started = true
			reply(Started{SessionID: u.SessionID, Queued: u.Type == agent.UpdateQueue}, nil)
		}
		c.broadcast(u)
	}
	if err := work(emit); err != nil && !started {
		reply(nil, err)
	}
}

func decodeParams(raw json.RawMessage, p any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return problemf(sayBadRequest, err)
	}
	return nil
}

type envelope struct {
	ID     json.RawMessage `json:"id"`
	Type   string          `json:"type"`
	Params json.RawMessage `json:"params"`
}

type replyMsg struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id"`
	OK     bool            `json:"ok"`
	Result any             `json:"result,omitempty"`
	Error  *replyError     `json:"error,omitempty"`
}

type replyError struct {
	Message string     `json:"message"` // in English
	Text    *i18n.Text `json:"text,omitempty"`
	Field   string     `json:"field,omitempty"`
}

// Handle processes one message from conn. It returns once the message is dispatched; chat.*
// messages keep streaming in their own goroutine.
func (c *Core) Handle(ctx context.Context, conn Conn, msg []byte) {
	var env envelope
	if err := json.Unmarshal(msg, &env); err != nil {
		c.answer(conn, nil, nil, problemf(sayBadMessage, err))
		return
	}
	m, ok := methodFor(env.Type)
	if !ok {
		c.answer(conn, env.ID, nil, problemf(sayUnknownMethod, env.Type))
		return
	}
	if !allowed(conn.Role(), env.Type) {
		c.answer(conn, env.ID, nil, problemf(sayPanelOnly))
		return
	}
	ctx = context.WithValue(ctx, roleKey{}, conn.Role())
	if pl, ok := conn.(Placed); ok && conn.Role() == RoleOverlay {
		tab, win := pl.Tab()
		ctx = context.WithValue(ctx, placeKey{}, place{tab, win})
	}
	var replied atomic.Bool
	defer func() {
		// A fault of Skiff's own (a panic: a bug) fails this request, not the worker.
		if p := recover(); p != nil {
			agent.Fault(env.Type, p)
			if !replied.Load() {
				c.answer(conn, env.ID, nil, problemf(sayCoreFault, fmt.Sprint(p)))
			}
		}
	}()
	m(c, ctx, env.Params, func(res any, err error) {
		replied.Store(true)
		c.answer(conn, env.ID, res, err)
	})
}

func (c *Core) answer(conn Conn, id json.RawMessage, res any, err error) {
	if id == nil {
		return
	}
	r := replyMsg{Type: "reply", ID: id, OK: err == nil, Result: res}
	if err != nil {
		text, field := Say(err)
		r.Error = &replyError{Message: text.English(), Text: &text, Field: field}
	}
	b, merr := json.Marshal(r)
	if merr != nil {
		b, _ = json.Marshal(replyMsg{Type: "reply", ID: id, Error: &replyError{Message: fmt.Sprintf("Skiff could not encode its answer (%v).", merr)}})
	}
	conn.Send(b)
	if r := conn.Role(); r == RolePanel || r == RoleOverlay {
		// A chat answered for the first time in this worker: warm the streaming path while
		// the user writes (once its first answer is out, so it never delays one).
		c.warm.Do(func() { go agent.Safe("the warm-up", func() { c.warmUp(context.Background()) }) })
	}
}
