package workflow

import (
	"encoding/json"
	"strings"

	"github.com/skiff-ai/skiff/internal/tool"
)

// Kept is c as it may be kept until it is recorded, outside the memory of the run that made it
// (an outside client's calls, kept across a worker restart): the snapshot read before it is cut
// to the lines Record reads for its refs (their own, the headings, the elements written as they
// are), and a value it typed into a password or payment field is left out, as Record leaves
// it out of every workflow. Record makes the same workflow of kept calls as of the calls.
func Kept(c Call) Call {
	c.Seen = cutSeen(c.Seen, c.Elements)
	c.Args = withoutSecrets(c)
	return c
}

// cutSeen is the lines of snapshot Record reads for elements: where each one's ref is, the
// headings (the nearest above an element names its place), and the elements the snapshot
// writes as it writes one of them (its place among its namesakes).
func cutSeen(snapshot string, elements []tool.Element) string {
	if snapshot == "" || len(elements) == 0 {
		return ""
	}
	var marks []string
	var days []string // refs of days of a calendar named by their numbers (dateOfDay)
	for _, e := range elements {
		if e.Ref == "" {
			continue
		}
		if _, ok := dayNumber(e.Name); ok {
			days = append(days, " ["+e.Ref+"]")
		}
		t := Target{Role: e.Role, Name: strings.Join(strings.Fields(e.Name), " ")}
		if t.Role == "" {
			t.Role = "generic"
		}
		marks = append(marks, " ["+e.Ref+"]", snapLabel(t)+" [")
	}
	if len(marks) == 0 {
		return ""
	}
	// For a day of a calendar, the lines above it up to where its calendar writes its month
	// (at most as far as calendarMonth looks), with the grid between.
	lines := strings.SplitAfter(snapshot, "\n")
	window := map[int]bool{}
	for i, line := range lines {
		for _, d := range days {
			if strings.Contains(line, d) {
				for k := max(0, i-400); k <= i; k++ {
					window[k] = true
				}
			}
		}
	}
	var b strings.Builder
	for i, line := range lines {
		keep := window[i]
		if _, ok := heading(strings.TrimSuffix(line, "\n")); ok {
			keep = true
		}
		for _, m := range marks {
			if keep || strings.Contains(line, m) {
				keep = true
				break
			}
		}
		if keep {
			b.WriteString(line)
		}
	}
	return b.String()
}

// withoutSecrets is c's arguments without the values Record never keeps (secretValue).
func withoutSecrets(c Call) json.RawMessage {
	byRef := map[string]tool.Element{}
	for _, e := range c.Elements {
		if e.Ref != "" {
			byRef[e.Ref] = e
		}
	}
	var args map[string]any
	if json.Unmarshal(c.Args, &args) != nil || args == nil {
		return c.Args
	}
	changed := false
	switch c.Tool {
	case "type":
		ref, _ := args["ref"].(string)
		if _, ok := args["text"].(string); ok && secretValue(c, byRef[ref].Field) {
			args["text"], changed = "", true
		}
	case "fill_form":
		fs, _ := args["fields"].([]any)
		for _, f := range fs {
			m, ok := f.(map[string]any)
			if !ok {
				continue
			}
			ref, _ := m["ref"].(string)
			if _, ok := m["value"].(string); ok && ref != "" && secretValue(Call{}, byRef[ref].Field) {
				m["value"], changed = "", true
			}
		}
	}
	if !changed {
		return c.Args
	}
	b, err := json.Marshal(args)
	if err != nil {
		return c.Args
	}
	return b
}
