package agent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/safety"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// Outcome is what an outside caller gets back from a call.
type Outcome struct {
	Text    string
	Image   *tool.Image
	IsError bool
}

// Invocation is an outside caller's call.
type Invocation struct {
	// ID names the call for the gate: an answer given to it, or the call sent again with the
	// same id after a worker restart, finds it.
	ID   string
	Name string
	Args json.RawMessage
	// AskedAt is when the call first asked, before a restart (zero: it did not).
	AskedAt time.Time
	// Started, when set, is told just before the call runs (the gate allowed it).
	Started func()
	// Asking, when set, is told when the gate asks the user about the call: the tool and the
	// site it acts on ("click on https://shop.example"), no word of the page's own.
	Asking func(what string)
}

// Invoke runs one call of an outside caller (an MCP client, an ACP agent) through the one
// guarded path, as task. A denial, a stop or a tool's failure is an Outcome with IsError and a
// sentence the caller's model can act on; what a page says is fenced as data.
func (e *Engine) Invoke(ctx context.Context, task *Task, in Invocation) Outcome {
	args, name := in.Args, in.Name
	if len(args) == 0 || !json.Valid(args) {
		args = json.RawMessage("{}")
	}
	w := watch{running: in.Started}
	// What the call did, as a workflow records it (Task.Steps): the elements its refs named,
	// the page and the tab it acted in, the tabs it opened.
	step := workflow.Call{Tool: name, Args: args}
	what := ""
	w.resolved = func(f *tool.Effect, c permission.Call, _, _ int) {
		what = c.Tool
		if c.Origin != "" {
			what += " on " + c.Origin
		}
		step.Elements = described(step.Elements, f)
		step.Sensitive = step.Sensitive || c.Sensitive
		if step.URL == "" {
			step.URL = f.URL
		}
		step.Tab = workedIn(f, task.Env)
	}
	if in.Asking != nil {
		w.asking = func(i18n.Text) { in.Asking(what) }
	}
	opened := collectOpened(task.Env)
	o := e.guard(ctx, task, guarded{ID: in.ID, Name: name, Args: args, AskedAt: in.AskedAt}, w)
	step.Opened = opened()
	switch {
	case o.Status == "":
		step.Checked, step.Path = o.Result.Checked, o.Result.Path
		if o.Result.Refused == "" {
			task.noteStep(step, o.Result.Text)
		}
		out := Outcome{Text: o.Result.Text, Image: o.Result.Image}
		if o.Result.Untrusted {
			out.Text = fenced(name, NewID()[:8], out.Text, safety.Flag(out.Text))
		}
		return out
	case o.Quotes:
		return Outcome{IsError: true, Text: fenced(name, NewID()[:8], o.Text, safety.Flag(o.Text))}
	}
	return Outcome{IsError: true, Text: o.Text}
}
