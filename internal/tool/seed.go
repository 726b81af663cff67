package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Seed 001's tab_read and tab_action, for agents written against them: each mode or action
// runs the tool of this registry that does the same, so both pass the same checks.

func tabRead(ctx context.Context, e *Env, raw json.RawMessage) (*Result, error) {
	var in TabReadInput
	if err := decode(raw, &in); err != nil {
		return nil, err
	}
	args := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	switch in.Mode {
	case "info":
		t, err := e.tab(ctx, in.TabID)
		if err != nil {
			return nil, err
		}
		return &Result{Text: fmt.Sprintf("Tab %d: %q at %s (%s).", t.ID, oneLine(t.Title), t.URL, t.Status), Untrusted: true, URL: t.URL}, nil
	case "dom":
		return readText(ctx, e, args(ReadTextInput{TabID: in.TabID}))
	case "screenshot":
		f := in.Format
		if f == "" {
			f = "png"
		}
		return screenshot(ctx, e, args(ScreenshotInput{TabID: in.TabID, Format: f}))
	case "elements":
		return snapshotTool(ctx, e, args(SnapshotInput{TabID: in.TabID, Interactive: true}))
	}
	return nil, failf("mode must be info, dom, screenshot or elements")
}

func tabAction(ctx context.Context, e *Env, raw json.RawMessage) (*Result, error) {
	var in TabActionInput
	if err := decode(raw, &in); err != nil {
		return nil, err
	}
	steps := in.Actions
	if len(steps) == 0 {
		steps = []TabActionStep{in.TabActionStep}
	}
	timeout := time.Duration(in.TimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out []string
	for i, s := range steps {
		res, err := tabStep(ctx, e, in.TabID, s)
		if err != nil {
			done := ""
			if len(out) > 0 {
				done = " Done before it:\n" + strings.Join(out, "\n")
			}
			return nil, failf("step %d (%s): %v.%s", i+1, s.Action, err, done)
		}
		out = append(out, fmt.Sprintf("%d. %s", i+1, res.Text))
		if s.WaitMs > 0 && s.Action != "wait" {
			select {
			case <-ctx.Done():
				return nil, failf("timed out after step %d of %d:\n%s", i+1, len(steps), strings.Join(out, "\n"))
			case <-time.After(time.Duration(s.WaitMs) * time.Millisecond):
			}
		}
	}
	return &Result{Text: strings.Join(out, "\n"), Summary: plural(len(steps), "step")}, nil
}

func tabStep(ctx context.Context, e *Env, tabID int, s TabActionStep) (*Result, error) {
	args := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	target := Target{Ref: s.Ref, Selector: s.Selector}
	switch s.Action {
	case "click":
		in := ClickInput{Target: target, TabID: tabID}
		if s.Ref == "" && s.Selector == "" {
			in.X, in.Y = &s.X, &s.Y
		}
		return click(ctx, e, args(in))
	case "type":
		return typeTool(ctx, e, args(TypeInput{Target: target, Text: s.Text, TabID: tabID}))
	case "scroll":
		return scrollTool(ctx, e, args(ScrollInput{Direction: s.Direction, Amount: s.Amount, Ref: s.Ref, Selector: s.Selector, TabID: tabID}))
	case "wait":
		w := WaitInput{Selector: s.Selector, Text: s.Text, TabID: tabID}
		if s.Selector == "" && s.Text == "" {
			w.Seconds = float64(max(s.WaitMs, 1)) / 1000
		}
		return waitFor(ctx, e, args(w))
	}
	return nil, failf("action must be scroll, click, type or wait")
}
