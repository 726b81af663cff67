package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/skiff-ai/skiff/internal/safety"
	"github.com/skiff-ai/skiff/internal/tool"
)

// Task is a series of tool calls from one outside client (an MCP session through skiffd): who
// it is, the tabs it works in, and the sites it has worked on (moving to a new one asks, as
// in a panel run).
type Task struct {
	Who string
	Env *tool.Env
	// Outside reports whether a call reaches a tab outside the task's own tabs; nil: never.
	Outside func(ctx context.Context, t tool.Tool, args json.RawMessage) bool

	sites sites
}

// Outcome is what an outside client gets back from a call.
type Outcome struct {
	Text    string
	Image   *tool.Image
	IsError bool
}

// Invoke runs one call of an outside client through the same gate, the same checks and the
// same fencing of page text as the panel's agent. A denial, a stop or a tool's failure is an
// Outcome with IsError and a sentence the client's model can act on.
func (e *Engine) Invoke(ctx context.Context, task *Task, name string, args json.RawMessage) Outcome {
	t, ok := tool.Lookup(name)
	if !ok {
		return Outcome{IsError: true, Text: fmt.Sprintf("There is no tool %q. Use one of the tools Skiff lists.", name)}
	}
	if len(args) == 0 || !json.Valid(args) {
		args = json.RawMessage("{}")
	}
	d := describe(ctx, task.Env, t, args)
	gt := raised(t, d.Risk)
	o := gateOrigin(d.Origin, d.LeadsTo)
	gc := Call{MessageID: "x" + NewID(), Tool: gt, Args: args, What: d.What, URL: d.URL, Origin: o, Who: task.Who, Sensitive: d.Sensitive}
	task.sites.weigh(&gc)
	if task.Outside != nil && task.Outside(ctx, t, args) {
		gc.Outside = task.Who
	}
	gate := e.Gate
	if gate == nil {
		gate = readOnly{}
	}
	dec, err := gate.Decide(ctx, gc, func(string) {})
	if err != nil || !dec.Allow {
		if ctx.Err() != nil {
			gate.Record(context.WithoutCancel(ctx), gc, dec, "stopped before it ran", false)
			return Outcome{IsError: true, Text: "The call was cancelled before it ran."}
		}
		gate.Record(ctx, gc, dec, "not run", false)
		return Outcome{IsError: true, Text: denied(dec)}
	}
	task.sites.allowed(o, t.Risk)
	tctx, cancel := context.WithTimeout(ctx, e.ToolTimeout)
	res, err := tool.Run(tctx, task.Env, name, args)
	cancel()
	var out Outcome
	result := ""
	switch {
	case ctx.Err() != nil:
		out = Outcome{IsError: true, Text: "The call was cancelled while it ran; it may have done part of its work."}
	case err != nil:
		text, quotes := e.failed(err)
		if quotes {
			text = fenced(name, NewID()[:8], text, safety.Flag(err.Error()))
		}
		out = Outcome{IsError: true, Text: text}
	default:
		out, result = Outcome{Text: res.Text, Image: res.Image}, res.Summary
		if res.Untrusted {
			out.Text = fenced(name, NewID()[:8], res.Text, safety.Flag(res.Text))
		}
	}
	if result == "" {
		result = clipText(out.Text, 160)
	}
	if out.IsError {
		result = "failed: " + result
	}
	gate.Record(context.WithoutCancel(ctx), gc, dec, result, !out.IsError)
	return out
}

// failed is a tool's error in words for the model; quotes says the words may quote the page
// (they are fenced as data).
func (e *Engine) failed(err error) (text string, quotes bool) {
	var te *tool.Error
	var de *tool.DialogError
	switch {
	case errors.As(err, &te), errors.As(err, &de):
		return capital(err.Error()) + ".", true
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("The call took longer than %s and was stopped.", e.ToolTimeout), false
	}
	return "Skiff failed to run this tool: " + err.Error(), false
}

// denied is what the model is told of a call the gate did not allow.
func denied(d Decision) string {
	why := d.Why
	if why == "" {
		why = "The user did not allow this call."
	}
	return why + " Do not try to get around this: ask the user, or do something else."
}

// fenced is page text as a model reads it: in a data block marked with mark that the page
// cannot close, with what reads like instructions pointed out after it.
func fenced(toolName, mark, text string, flags []safety.Finding) string {
	s := FenceUntrusted(toolName, mark, text)
	if n := safety.Notice(toolName+" result", flags); n != "" {
		s += "\n" + n
	}
	return s
}
