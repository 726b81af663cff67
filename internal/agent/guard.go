package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/safety"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// The one guarded path. Every tool call, whoever makes it, goes through guard: its arguments
// are checked against the tool's schema, what it will act on is resolved in the page (the
// element, the control it sets off, the frame it is in, where it leads), its risk rises when
// that control says it cannot be undone, the gate rules on it for the site of the frame that
// holds the element, and only then does it run, on exactly the element that was judged. An
// alias (seed 001's tab_action) runs as its steps, each through the same path: a batch runs
// only the steps the gate allowed, and is never less guarded than the same steps sent alone.

// watch is how a caller follows a call through the path; each hook may be nil. A panel run
// stores and shows every state; an outside client's call needs none.
type watch struct {
	// resolved: the call (or step k of n) is described and about to go to the gate.
	resolved func(f *tool.Effect, c permission.Call, k, n int)
	// asking: the gate asks the user, for why.
	asking func(why i18n.Text)
	// running: the gate allowed it; it runs now.
	running func()
}

// outcome is what came of a call.
type outcome struct {
	Status  string // "" (done), store.StatusDenied, store.StatusStopped or store.StatusError
	Text    string // for the model
	IsError bool
	Quotes  bool // Text may quote the page (an error that names what a page says)
	Result  *tool.Result
	Ruling  permission.Ruling
	Ran     bool // a tool started (what it returns is page data)
	Done    int  // steps that ran, for an alias
}

// guarded is a call on its way: the tool and its arguments, the id the gate knows it by, and
// for a call that asked before a worker restart, when it asked and the step it was at.
type guarded struct {
	ID      string
	Name    string
	Args    json.RawMessage
	AskedAt time.Time
	From    int // the first step to run (a resumed batch starts where it stopped)
	// Secrets are values the call's run keeps secret (a workflow's password parameters): a
	// call that carries one asks as typing into a password field does, and what it returns
	// or records shows each one masked.
	Secrets []string
	// Replay: a workflow's replay makes the call, on a target it found itself (none of its
	// calls is recorded again: Task.place reads nothing for it).
	Replay bool
}

// carries reports whether args hold one of secrets (as JSON writes it).
func carries(args json.RawMessage, secrets []string) bool {
	for _, s := range secrets {
		b, _ := json.Marshal(s)
		if len(b) > 2 && bytes.Contains(args, b[1:len(b)-1]) {
			return true
		}
	}
	return false
}

// maskedJSON is args with each of secrets, as JSON writes it, replaced by workflow.Masked.
func maskedJSON(args json.RawMessage, secrets []string) json.RawMessage {
	out := args
	for _, s := range secrets {
		if b, _ := json.Marshal(s); len(b) > 2 {
			out = bytes.ReplaceAll(out, b[1:len(b)-1], []byte(workflow.Masked))
		}
	}
	return out
}

// masked is text with each of secrets replaced by workflow.Masked.
func masked(text string, secrets []string) string {
	for _, s := range secrets {
		if s != "" {
			text = strings.ReplaceAll(text, s, workflow.Masked)
		}
	}
	return text
}

// ResolveTimeout bounds resolving what a call acts on (a short read of the page).
var ResolveTimeout = 8 * time.Second

func (e *Engine) gate() Gate {
	if e.Gate == nil {
		return readOnly{}
	}
	return e.Gate
}

// guard takes one call through the path (see above) for task. A fault of Skiff's own in it (a
// panic: a bug in a tool's code) fails the call, not the worker that runs every chat.
func (e *Engine) guard(ctx context.Context, task *Task, g guarded, w watch) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			Fault("the call "+g.ID+" ("+g.Name+")", p)
			o = outcome{Status: store.StatusError, IsError: true, Ran: true,
				Text: fmt.Sprintf("Skiff ran into a fault of its own in this call (%v); it may have done part of its work. Check the page before going on.", p)}
		}
	}()
	t, ok := tool.Lookup(g.Name)
	if !ok {
		if meant := tool.Meant(g.Name); meant != "" {
			return outcome{Status: store.StatusError, IsError: true, Text: fmt.Sprintf("There is no tool %q: the tool for that is %q. Call it by that name.", g.Name, meant)}
		}
		return outcome{Status: store.StatusError, IsError: true, Text: fmt.Sprintf("There is no tool %q. Use one of the tools you were given.", g.Name)}
	}
	steps, within, err := tool.Expand(t, g.Args)
	if err != nil {
		return checkFailure(err)
	}
	if within > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, within)
		defer cancel()
	}
	batch := t.Name != steps[0].Name || len(steps) > 1
	var lines []string
	var last outcome
	untrusted := false
	if g.From > 0 {
		lines = append(lines, fmt.Sprintf("Steps 1–%d ran before Skiff's worker restarted.", g.From))
	}
	for k := g.From; k < len(steps); k++ {
		st := steps[k]
		o := e.step(ctx, task, g, st, k, len(steps), batch, w)
		g.AskedAt = time.Time{} // only the step that was asking had asked
		o.Done = k
		if o.Status != "" {
			if batch {
				o.Text = batchFailure(k, len(steps), lines, o.Text)
			}
			return o
		}
		o.Done = k + 1
		last = o
		if !batch {
			return o
		}
		untrusted = untrusted || o.Result.Untrusted
		lines = append(lines, fmt.Sprintf("%d. %s", k+1, o.Result.Text))
		if st.WaitMs > 0 && k < len(steps)-1 {
			select {
			case <-ctx.Done():
				o := e.failure(ctx.Err(), true)
				o.Text = batchFailure(k+1, len(steps), lines, "the batch ran out of time")
				return o
			case <-time.After(time.Duration(st.WaitMs) * time.Millisecond):
			}
		}
	}
	res := *last.Result
	res.Text = strings.Join(lines, "\n")
	res.Summed(tool.SumSteps.With(len(steps)))
	res.Untrusted = untrusted
	last.Result, last.Text = &res, res.Text
	return last
}

// batchFailure is what the model reads when step k of n did not run or failed.
func batchFailure(k, n int, lines []string, why string) string {
	s := fmt.Sprintf("Step %d of %d: %s", k+1, n, why)
	if len(lines) > 0 {
		s += "\nThe steps before it ran:\n" + strings.Join(lines, "\n")
	} else {
		s += "\nNo step ran."
	}
	if k+1 < n {
		s += fmt.Sprintf("\nSteps %d–%d did not run.", k+2, n)
	}
	return s
}

// step takes one call (one step of a batch) through the path.
func (e *Engine) step(ctx context.Context, task *Task, g guarded, st tool.Step, k, n int, batch bool, w watch) outcome {
	t, ok := tool.Lookup(st.Name)
	if !ok {
		return outcome{Status: store.StatusError, IsError: true, Text: fmt.Sprintf("There is no tool %q.", st.Name)}
	}
	call, err := tool.Check(t, st.Args)
	if err != nil {
		return checkFailure(err)
	}
	rctx, cancel := context.WithTimeout(ctx, ResolveTimeout)
	err = call.Resolve(rctx, task.Env)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return outcome{Status: store.StatusStopped, IsError: true, Text: "The call was stopped before it ran."}
		}
		return e.failure(err, false)
	}
	f := call.Effect
	if !g.Replay {
		task.place(ctx, t.Name, call.Args, f)
	}
	args := call.Args // as the tool reads them: a list Claude sent as its JSON in a string is a list here
	f.Secret = carries(args, g.Secrets)
	risk, perm := t.Risk, t.Permission
	if f.Irreversible() != "" && risk == tool.Act {
		// The control says "Delete", "Pay", "Send"…: setting it off counts as destructive, and
		// an "always" for acting does not cover it.
		_, action, _ := strings.Cut(perm, ":")
		risk, perm = tool.Destructive, string(tool.Destructive)+":"+action
	}
	origin := f.Origin()
	if lt := weburl.Origin(f.LeadsTo); lt != "" {
		origin = lt // a link or a form to another site moves the task there
	}
	key := ""
	if risk == tool.Act {
		key = elementKey(f)
	}
	req := permission.Request{Tool: t.Name, Risk: string(risk), Permission: perm, Origin: origin, Sensitive: f.Sensitive(),
		Files: f.Uploads(), App: clipApp(f.OpensApp()), Passive: f.Action == "scroll" || f.Action == "hover", OwnTabs: f.OwnTabs, TakenUp: f.TakenUp}
	task.weigh(&req, key)
	if task.Outside != nil && task.Outside(ctx, t, args) {
		req.Outside = task.Caller.Name
	}
	if f.ErrorPage != nil && req.Outside == "" {
		// The tab shows Chrome's error page: there is nothing there to read or act on, and
		// nothing to ask the user about (a tab outside the caller's is asked about first, as
		// any: what it shows is not the caller's to learn unasked).
		return e.failure(f.ErrorPage, false)
	}
	what := f.Says()
	if batch && n > 1 {
		what = tool.StepSays(k+1, n, what)
	}
	pc := permission.Call{ID: g.ID, Caller: task.Caller, Request: req, What: what.English(), WhatText: &what, URL: f.URL, Args: args}
	if f.Secret {
		pc.Args = maskedJSON(args, g.Secrets) // a question waiting is stored: never with the secret
	}
	if w.resolved != nil {
		w.resolved(f, pc, k, n)
	}
	gate := e.gate()
	r, err := gate.Decide(ctx, pc, g.AskedAt, w.asking)
	if err != nil || !r.Allow {
		if ctx.Err() != nil {
			gate.Record(context.WithoutCancel(ctx), pc, r, permission.ResultStopped.With(), false)
			return outcome{Status: store.StatusStopped, IsError: true, Ruling: r, Text: "The call was stopped before it ran."}
		}
		gate.Record(ctx, pc, r, permission.ResultNotRun.With(), false)
		return outcome{Status: store.StatusDenied, IsError: true, Ruling: r, Text: denied(r)}
	}
	task.allowed(origin, risk)
	if r.ByUser && key != "" {
		task.grant(key)
	}
	if w.running != nil {
		w.running()
	}
	tctx, tcancel := context.WithTimeout(ctx, e.ToolTimeout)
	res, err := call.Run(tctx, task.Env)
	tcancel()
	var o outcome
	switch {
	case ctx.Err() != nil:
		o = outcome{Status: store.StatusStopped, IsError: true, Ran: true, Text: "The call was stopped while it ran; it may have done part of its work."}
	case err != nil:
		o = e.failure(err, true)
	default:
		o = outcome{Result: res, Text: res.Text, Ran: true}
	}
	if len(g.Secrets) > 0 {
		o.Text = masked(o.Text, g.Secrets)
		if o.Result != nil {
			cp := *o.Result
			cp.Text, cp.Summary = masked(cp.Text, g.Secrets), masked(cp.Summary, g.Secrets)
			if cp.Summary != o.Result.Summary {
				cp.SummaryText = nil // a secret was in it: only the masked words go on
			}
			o.Result = &cp
		}
	}
	if t.Name == "snapshot" && !o.IsError {
		task.saw(o.Result.Text) // (masked)
	}
	o.Ruling = r
	result := i18n.Verbatim(clipText(o.Text, 160))               // a tool's own words
	if o.Result != nil && o.Result.Summary != "" && !o.IsError { // masked, when it held a secret
		result = i18n.Verbatim(o.Result.Summary)
		if o.Result.SummaryText != nil {
			result = *o.Result.SummaryText
		}
	}
	if o.IsError {
		result = permission.ResultFailed.With(result)
	}
	gate.Record(context.WithoutCancel(ctx), pc, r, result, !o.IsError)
	return o
}

// checkFailure is arguments the tool's schema refused, in Skiff's words (nothing from a page).
func checkFailure(err error) outcome {
	return outcome{Status: store.StatusError, IsError: true, Text: capital(err.Error()) + "."}
}

// failure is a call's error in words for the model; ran says a tool had started.
func (e *Engine) failure(err error, ran bool) outcome {
	text, quotes := e.failed(err)
	return outcome{Status: store.StatusError, IsError: true, Text: text, Quotes: quotes, Ran: ran}
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
func denied(r permission.Ruling) string {
	why := r.Why
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

// clipApp is a link to another app as the ask card shows it: its start (an address, a number),
// not a long query.
func clipApp(link string) string {
	if r := []rune(link); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return link
}
