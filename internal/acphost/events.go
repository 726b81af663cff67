package acphost

import (
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Event is one thing an agent's session did, typed for the panel and the web client: Kind
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
type Event struct {
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
}

// Usage is the context window's use.
type Usage struct {
	Used int `json:"used"`
	Size int `json:"size"`
}

// Diff is a change to one file as a unified diff, with its counts.
type Diff struct {
	Path    string `json:"path"`
	Unified string `json:"unified"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	New     bool   `json:"new,omitempty"`
}

// MakeDiff computes the unified diff from old to new text (ACP sends whole files).
func MakeDiff(path, old, new string, created bool) Diff {
	u, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: lines(old), B: lines(new),
		FromFile: "a/" + path, ToFile: "b/" + path, Context: 3,
	})
	d := Diff{Path: path, Unified: u, New: created}
	for _, l := range strings.Split(u, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			d.Added++
		case strings.HasPrefix(l, "-"):
			d.Removed++
		}
	}
	return d
}

// lines splits text after each newline (difflib's SplitLines adds an empty last line to text
// that ends with one, which counted a removal that is not there).
func lines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	} else {
		ls[len(ls)-1] += "\n"
	}
	return ls
}
