package agent

import (
	"context"
	"encoding/json"

	"github.com/skiff-ai/skiff/internal/tool"
)

// Call is a tool call waiting for the gate: which tool, with what, where, asked by whom.
type Call struct {
	SessionID string // "" for a call from outside the panel (an MCP client)
	MessageID string // the tool message that records it
	Tool      tool.Tool
	Args      json.RawMessage
	What      string // the call in words ("click button “Book” [e5]")
	URL       string // the page it acts on, when known
	Origin    string
	Who       string // who asks: "the model in the panel", an MCP client's name
	// Sensitive: it types into a password or payment field.
	Sensitive bool
	// NewOrigin: the task has not worked on Origin yet (it moved there).
	NewOrigin bool
	// Consented: the user let this task read Origin (they attached the page, or allowed a read).
	Consented bool
	// Outside names the outside client whose call reaches a tab outside its own tab group.
	Outside string
}

// Decision is the gate's answer.
type Decision struct {
	Allow bool
	How   string // how it was decided, for the record: "allowed: reading", "you allowed once"…
	Why   string // for a denial, what the model is told
}

// Gate decides whether a tool call may run. Decide may ask the user and wait; it calls asking
// (with why it asks, in words) just before it does, so the call can be shown (and stored) as
// waiting for an answer, and it
// must return when ctx is done. Record is told what came of every decided call (for the audit
// log): its result in a few words, and whether it ran and succeeded.
type Gate interface {
	Decide(ctx context.Context, c Call, asking func(why string)) (Decision, error)
	Record(ctx context.Context, c Call, d Decision, result string, ok bool)
}

// readOnly is the gate of an engine that was given none: reads run, nothing else does.
type readOnly struct{}

func (readOnly) Decide(_ context.Context, c Call, _ func(string)) (Decision, error) {
	if c.Tool.Risk == tool.Read {
		return Decision{Allow: true, How: "allowed: reading"}, nil
	}
	return Decision{How: "denied: no one can be asked", Why: "Skiff has no way to ask the user about this call, so it was not run."}, nil
}

func (readOnly) Record(context.Context, Call, Decision, string, bool) {}
