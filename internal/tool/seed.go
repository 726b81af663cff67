package tool

import (
	"encoding/json"
	"strings"
	"time"
)

// Seed 001's tab_read and tab_action, for agents written against them: each mode or action is
// expanded into the tool of this registry that does the same, and each of those is checked,
// judged by the gate and run as if it had been sent alone. A batch of actions is never less
// guarded than the same steps sent one by one.

func args(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func step(name string, in any, waitMs int) Step {
	return Step{Name: name, Args: args(in), WaitMs: waitMs}
}

func expandRead(arg any) ([]Step, time.Duration, error) {
	in := arg.(*TabReadInput)
	switch in.Mode {
	case "info":
		return []Step{step("tabs_list", TabsListInput{CurrentWindow: true}, 0)}, 0, nil
	case "dom":
		return []Step{step("read_text", ReadTextInput{TabID: in.TabID}, 0)}, 0, nil
	case "screenshot":
		f := in.Format
		if f == "" {
			f = "png"
		}
		return []Step{step("screenshot", ScreenshotInput{TabID: in.TabID, Format: f}, 0)}, 0, nil
	case "elements":
		return []Step{step("snapshot", SnapshotInput{TabID: in.TabID, Interactive: true}, 0)}, 0, nil
	}
	return nil, 0, failf("mode must be info, dom, screenshot or elements")
}

func expandAction(arg any) ([]Step, time.Duration, error) {
	in := arg.(*TabActionInput)
	steps := in.Actions
	if len(steps) == 0 {
		steps = []TabActionStep{in.TabActionStep}
	}
	if len(steps) > 50 {
		return nil, 0, failf("a batch takes at most 50 actions, not %d", len(steps))
	}
	timeout := time.Duration(in.TimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	var out []Step
	for i, s := range steps {
		target := Target{Ref: s.Ref, Selector: s.Selector}
		switch s.Action {
		case "click":
			c := ClickInput{Target: target, TabID: in.TabID}
			if s.Ref == "" && strings.TrimSpace(s.Selector) == "" {
				x, y := s.X, s.Y
				c.X, c.Y = &x, &y
			}
			out = append(out, step("click", c, s.WaitMs))
		case "type":
			out = append(out, step("type", TypeInput{Target: target, Text: s.Text, TabID: in.TabID}, s.WaitMs))
		case "scroll":
			out = append(out, step("scroll", ScrollInput{Direction: s.Direction, Amount: s.Amount, Ref: s.Ref, Selector: s.Selector, TabID: in.TabID}, s.WaitMs))
		case "wait":
			w := WaitInput{Selector: s.Selector, Text: s.Text, TabID: in.TabID}
			if s.Selector == "" && s.Text == "" {
				w.Seconds = float64(max(s.WaitMs, 1)) / 1000
			}
			out = append(out, step("wait_for", w, 0))
		default:
			return nil, 0, failf("action %d must be scroll, click, type or wait", i+1)
		}
	}
	return out, timeout, nil
}
