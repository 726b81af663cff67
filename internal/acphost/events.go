package acphost

import (
	"github.com/skiff-ai/skiff/internal/link"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// The events and questions are the link's types: the extension reads them as they are.
type (
	Event        = link.AgentEvent
	ToolCard     = link.ToolCard
	PlanItem     = link.PlanItem
	Command      = link.Command
	ConfigOption = link.ConfigOption
	Usage        = link.Usage
	Turn         = link.AgentPromptResult
	TurnUsage    = link.TurnUsage
	Cost         = link.Cost
	Diff         = link.Diff
	Question     = link.AgentQuestion
	Image        = link.Image64
	SessionInfo  = link.AgentSessionInfo
)

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
