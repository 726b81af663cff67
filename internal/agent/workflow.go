package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// recordedCalls are a chat's tool calls as internal/workflow records them: the ones that ran
// and succeeded, each with the last snapshot the model had read before it (and an address it
// went to, with the name the last links it read gave it).
func recordedCalls(ms []store.Message) []workflow.Call {
	var out []workflow.Call
	seen, links := "", ""
	for _, m := range ms {
		// A call the page refused (a form the browser stopped, a field marked not valid) did
		// not do its part: the run did it again once the model had mended what was wrong.
		if m.Role != "tool" || m.Tool == nil || m.Status != "" || m.Tool.IsError || m.Tool.Refused != "" {
			continue
		}
		switch m.Tool.Name {
		case "snapshot":
			seen = workflow.Saw(seen, m.Content)
			continue
		case "links":
			links = m.Content
			continue
		}
		at := m.Tool.At
		if at == "" {
			at = m.Tool.URL
		}
		c := workflow.Call{Tool: m.Tool.Name, Args: asRan(m.Tool.Name, m.Tool.Args), Elements: m.Tool.Elements, URL: at,
			Sensitive: m.Tool.Sensitive, Checked: m.Tool.Checked, Path: m.Tool.Path, Seen: seen, Tab: m.Tool.In, Opened: m.Tool.Opened}
		c.ReadLinks(links)
		out = append(out, c)
	}
	return out
}

// asked is what the user asked in a chat: their messages, one a line.
func asked(ms []store.Message) string {
	var lines []string
	for _, m := range ms {
		if m.Role == "user" {
			lines = append(lines, m.Content)
		}
	}
	return strings.Join(lines, "\n")
}

// asRan is a call's arguments as it ran: a list Claude sent as its JSON in a string is a list.
func asRan(name string, args json.RawMessage) json.RawMessage {
	if t, ok := tool.Lookup(name); ok {
		if c, err := tool.Check(t, args); err == nil {
			return c.Args
		}
	}
	return args
}

// SaveWorkflow makes a workflow named name of chat sessionID's run and saves it.
func (e *Engine) SaveWorkflow(ctx context.Context, sessionID, name string) (*workflow.Workflow, error) {
	if e.Running(sessionID) {
		return nil, ErrBusy
	}
	ses, err := e.Store.Session(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	if wf := ses.Workflow; wf != nil {
		return e.saveRepaired(ctx, ses, name)
	}
	w, err := workflow.Record(name, asked(ses.Messages), recordedCalls(ses.Messages))
	if err != nil {
		return nil, store.FieldSays("workflow", sayNotAWorkflow.With(err))
	}
	w.ID, w.From = NewID(), sessionID
	w.CreatedAt, w.UpdatedAt = e.now(), e.now()
	if err := e.Store.SaveWorkflow(ctx, w); err != nil {
		return nil, err
	}
	return w, nil
}

// WorkflowInput is a request to replay a saved workflow: which, with which values, and where
// in the browser it starts.
type WorkflowInput struct {
	ID     string
	Values map[string]string
	// WindowID and TabID are where it works first (0: the active tab of the last focused
	// window).
	WindowID, TabID int
	// Task, when set, is the task the replay works in and whose caller the gate names: an
	// outside client's workspace (its tab group, its asks). Its tabs stay the task's.
	Task *Task
	// Repair: the user allows the model to finish a replay that stops because the page
	// changed (an element not found, another site, a step that failed).
	Repair bool
	// Private: the replay runs in an incognito window; its chat is kept in memory only.
	Private bool
}

// WorkflowValues are the values a run of w takes: the ones given, and the recorded default of
// each one left out. A value for no parameter, or none for one without a default (a secret),
// is an error in words.
func WorkflowValues(w *workflow.Workflow, given map[string]string) (map[string]string, error) {
	values, err := w.WithDefaults(given)
	if err != nil {
		return nil, store.FieldSays("values", sayValuesBad.With(err))
	}
	if miss := w.Missing(values); len(miss) > 0 {
		return nil, store.FieldSays(miss[0], sayNeedsValue.With(w.Name, miss[0]))
	}
	// A date counted from one that is none, a part of a date written from a value that is none.
	dated, err := workflow.Dated(w, values, time.Now())
	for _, s := range w.Steps {
		if err == nil {
			_, err = workflow.Fill(s.Args, dated)
		}
	}
	if err != nil {
		return nil, store.FieldSays("values", sayValuesBad.With(err))
	}
	return values, nil
}

// RunWorkflow replays a workflow in a new chat, with no model: each step is a call on the one
// guarded path, stored and shown as a model's call is (its card, its ask), with secret values
// masked in what is stored. It stops at the first step it cannot place or that does not run,
// and says why in the chat. It returns the chat when the replay is over (its Workflow says how
// it ended).
func (e *Engine) RunWorkflow(ctx context.Context, in WorkflowInput, emit func(Update)) (*store.Session, error) {
	if e.Browser == nil {
		return nil, ErrNoBrowser
	}
	w, err := e.Store.Workflow(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	values, err := WorkflowValues(w, in.Values)
	if err != nil {
		return nil, err
	}
	values, err = workflow.Dated(w, values, e.Now()) // {{today+1}}: the day after this run's
	if err != nil {
		return nil, store.FieldSays("values", sayValuesBad.With(err))
	}
	in.Values = values
	secrets, kept := split(w, values)
	ses, err := e.NewSession(ctx, in.Private)
	if err != nil {
		return nil, err
	}
	ses.Title, ses.Agent = "▶ "+w.Name, true
	ses.Workflow = &store.WorkflowRun{ID: w.ID, Name: w.Name, Version: w.Version, Values: kept}
	var lines []string
	for _, p := range w.Params {
		v := in.Values[p.Name]
		if p.Secret {
			v = workflow.Masked
		}
		lines = append(lines, fmt.Sprintf("%s: %s", or(p.Label, p.Name), v))
	}
	given := ""
	if len(lines) > 0 {
		given = "\n" + strings.Join(lines, "\n")
	}
	ask := sayRunWorkflow.With(len(w.Steps), w.Name, given)
	ses.Messages = append(ses.Messages, store.Message{ID: NewID(), Role: "user", Content: ask.English(), ContentText: &ask, CreatedAt: e.now()})
	ctx, finish, err := e.take(ctx, ses.ID)
	if err != nil {
		return nil, err
	}
	defer finish()
	emit = e.marking(ses.ID, emit) // its end said, a save of the chat waits for it to let go
	if err := e.Store.SaveSession(ctx, ses); err != nil {
		return nil, err
	}
	emit(Update{Type: UpdateSession, SessionID: ses.ID, Session: ses})

	r := &runner{e: e, ses: ses, emit: emit, secrets: secrets, replaying: true}
	if in.Task != nil {
		r.task = in.Task
		defer r.ownTabs(ctx, r.task.Env, false)()
	} else {
		r.begin(ctx, WorkflowCaller(w.Name, ses.ID), in.TabID, in.WindowID)
		defer r.release(ctx)
	}
	// The page is read again for a step only when it changed since the last reading: a step
	// that typed into a field leaves the form's elements as they were, and finding the next
	// field in it then costs one small call, not a walk of the page.
	var seen *tool.Snap
	seenTab := 0
	var skipped []any // the optional steps it went on without, by number
	// tabOf is the tab a read is of: tabID, or (0) the one the run works in now.
	tabOf := func(ctx context.Context, tabID int) (tool.Tab, error) {
		if tabID > 0 {
			return r.task.Env.Browser.Tab(ctx, tabID)
		}
		return r.task.Env.Current(ctx)
	}
	run := &workflow.Runner{Workflow: w, Values: in.Values,
		Skipped: func(k int, why i18n.Text) {
			ses.Messages = append(ses.Messages, e.saying(saySkipped.With(k+1, workflow.Says(w.Steps[k]), why)))
			ses.Workflow.Next = k + 1
			skipped = append(skipped, k+1)
			r.message(len(ses.Messages) - 1) // stored with what follows (see runner.replaying)
		},
		Read: func(ctx context.Context, tabID int) (*tool.Snap, error) {
			t, err := tabOf(ctx, tabID)
			if err != nil {
				return nil, err
			}
			if seen != nil && t.ID == seenTab && t.URL == seen.URL && r.task.Env.Unchanged(ctx, t.ID, seen) {
				return seen, nil
			}
			s, err := r.task.Env.Snapshot(ctx, t.ID, "", false)
			seen, seenTab = s, t.ID
			return s, err
		},
		// A result's own address for the run's value, among the page's links.
		Links: func(ctx context.Context, tabID int, filter string) ([]tool.Link, error) {
			t, err := tabOf(ctx, tabID)
			if err != nil {
				return nil, err
			}
			l, err := r.task.Env.Links(ctx, t.ID, filter)
			if err != nil {
				return nil, err
			}
			return l.Links, nil
		},
		Call: func(ctx context.Context, k int, args, shown json.RawMessage) workflow.Outcome {
			return r.replayCall(ctx, w.Steps[k].Tool, args, shown, func() { ses.Workflow.Next = k + 1 })
		},
		// A click that turns a calendar on the way to step k: a card of its own, through the
		// gate as any, that does not do the step (a restart does the step still).
		Aside: func(ctx context.Context, _ int, name string, args json.RawMessage) workflow.Outcome {
			return r.replayCall(ctx, name, args, args, func() {})
		}}
	stop := run.Run(ctx, 0)
	var end store.Message
	if stop == nil {
		ses.Workflow.Done = true
		said := sayRanAll.With(len(w.Steps), w.Name)
		if len(skipped) > 0 {
			said = sayRanSkipping.With(len(w.Steps), w.Name, i18n.List(skipped))
		}
		end = e.saying(said)
	} else {
		why := stop.Says
		if why.IsZero() { // words as they came (a tool's): the sentence gives them their full stop
			why = i18n.Verbatim(strings.TrimSuffix(stop.Reason, "."))
		}
		said := sayStoppedAt.With(stop.Step+1, len(w.Steps), workflow.Says(w.Steps[stop.Step]), why)
		ses.Workflow.StopKind, ses.Workflow.Reason = stop.Kind, stop.Reason
		ses.Workflow.Stop = said.English()
		end = e.saying(said)
		if stop.Kind == workflow.StopStopped {
			end.Status = store.StatusStopped
		}
	}
	ses.Messages = append(ses.Messages, end)
	r.replaying = false // the end, and a repair's model after it, are stored as they come
	if err := r.save(ctx); err != nil {
		return nil, err
	}
	r.message(len(ses.Messages) - 1)
	if stop != nil && in.Repair && ctx.Err() == nil && repairable(stop.Kind) {
		return ses, e.repair(ctx, ses, w, in, stop, r, secrets, emit)
	}
	if stop != nil {
		emit(Update{Type: UpdateSession, SessionID: ses.ID, Session: ses}) // how it stopped, for the panel's offer to finish
	}
	r.release(ctx)
	emit(Update{Type: UpdateDone, SessionID: ses.ID, MessageID: end.ID, Message: &end})
	return ses, nil
}

// saying is a message of the replay's own words (not a model's): said, in the user's language.
func (e *Engine) saying(said i18n.Text) store.Message {
	return store.Message{ID: NewID(), Role: "assistant", Content: said.English(), ContentText: &said, CreatedAt: e.now()}
}

// cutReplay is the last word of a replay a worker restart cut off during step wf.Next: where
// it stopped (the step's words, when its workflow is still the version that ran) and why.
func (e *Engine) cutReplay(ctx context.Context, wf *store.WorkflowRun) i18n.Text {
	if w, err := e.Store.Workflow(ctx, wf.ID); err == nil && w.Version == wf.Version && wf.Next < len(w.Steps) {
		return sayStoppedAt.With(wf.Next+1, len(w.Steps), workflow.Says(w.Steps[wf.Next]), sayCutHere.With())
	}
	return sayCutAt.With(wf.Next + 1)
}

// split sorts a run's values: the secrets' (for the guarded path, which masks them and asks
// for each call that holds one) and the others (what the run may keep).
func split(w *workflow.Workflow, values map[string]string) (secrets []string, kept map[string]string) {
	kept = map[string]string{}
	for _, p := range w.Params {
		if p.Secret {
			secrets = append(secrets, values[p.Name])
		} else {
			kept[p.Name] = values[p.Name]
		}
	}
	return secrets, kept
}

// repairable says whether a replay that stopped so may be handed to the model: the page
// changed (an element not found, another site, a step that failed), not the user's no.
func repairable(kind string) bool {
	return kind == workflow.StopMissing || kind == workflow.StopMoved || kind == workflow.StopFailed
}

// FinishInput is a stopped replay the user hands to the model afterwards: its chat, and the
// values of its secrets (kept nowhere, so asked for again).
type FinishInput struct {
	SessionID string
	Secrets   map[string]string
	WindowID  int
}

// FinishReplay hands a replay that stopped because the page changed to the model, in its
// chat, as a replay run with Repair does at once: the steps that ran stay done, and the model
// finishes from the one that stopped, with the run's values as placeholders.
func (e *Engine) FinishReplay(ctx context.Context, in FinishInput, emit func(Update)) error {
	if e.Browser == nil {
		return ErrNoBrowser
	}
	ses, err := e.Session(ctx, in.SessionID)
	if err != nil {
		return err
	}
	wf := ses.Workflow
	refuse := func(s i18n.Sentence, args ...any) error { return store.FieldSays("workflow", s.With(args...)) }
	switch {
	case wf == nil:
		return refuse(sayNotAReplay)
	case wf.Done:
		return refuse(sayReplayDone)
	case wf.RepairMsg != "":
		return refuse(sayReplayTaken)
	case wf.Stop == "":
		return refuse(sayReplayGoing)
	case wf.StopKind == "":
		return refuse(sayReplayCut)
	case !repairable(wf.StopKind):
		return refuse(sayReplayAnswered)
	}
	w, err := e.Store.Workflow(ctx, wf.ID)
	if err != nil {
		return err
	}
	if w.Version != wf.Version {
		return refuse(sayWorkflowChanged, w.Name, w.Version)
	}
	given := map[string]string{}
	for k, v := range wf.Values {
		given[k] = v
	}
	for k, v := range in.Secrets {
		given[k] = v
	}
	values, err := WorkflowValues(w, given)
	if err != nil {
		return err
	}
	secrets, _ := split(w, values)
	ctx, finish, err := e.take(ctx, ses.ID)
	if err != nil {
		return err
	}
	defer finish()
	r := &runner{e: e, ses: ses, emit: emit, secrets: secrets}
	r.begin(ctx, WorkflowCaller(w.Name, ses.ID), 0, in.WindowID)
	defer r.release(ctx)
	stop := &workflow.Stop{Step: wf.Next, Kind: wf.StopKind, Reason: wf.Reason}
	return e.repair(ctx, ses, w, WorkflowInput{ID: w.ID, Values: values, WindowID: in.WindowID, Repair: true}, stop, r, secrets, emit)
}

// repair hands a stopped replay to the model, in the same chat, with the workflow as the plan:
// the steps that ran, the one that stopped and why, the ones left, and the run's values as
// placeholders it types (filled in on the way to the page: a secret never reaches the model).
func (e *Engine) repair(ctx context.Context, ses *store.Session, w *workflow.Workflow, in WorkflowInput, stop *workflow.Stop, r *runner, secrets []string, emit func(Update)) error {
	var b strings.Builder
	fmt.Fprintf(&b, "The workflow “%s” stopped at step %d of %d: %s.\n", w.Name, stop.Step+1, len(w.Steps), strings.TrimSuffix(stop.Reason, "."))
	fmt.Fprintf(&b, "Finish the task it does, on the page as it is now (snapshot first). ")
	if stop.Step > 0 {
		fmt.Fprintf(&b, "Steps 1 to %d ran; do not do them again. ", stop.Step)
	}
	b.WriteString("The steps left, as they were recorded (the page may call things otherwise now):\n")
	for k := stop.Step; k < len(w.Steps); k++ {
		fmt.Fprintf(&b, "%d. %s\n", k+1, w.Steps[k].What)
	}
	if len(w.Params) > 0 {
		b.WriteString("To type a value of this run, type its placeholder exactly as written; Skiff puts the value in:\n")
		for _, p := range w.Params {
			v := "“" + in.Values[p.Name] + "”"
			if p.Secret {
				v = "a secret, not shown to you"
			}
			fmt.Fprintf(&b, "- {{%s}} (%s): %s\n", p.Name, or(p.Label, p.Name), v)
		}
	}
	b.WriteString("When it is done, say so in one sentence.")
	ask := store.Message{ID: NewID(), Role: "user", Content: b.String(), CreatedAt: e.now()}
	ses.Messages = append(ses.Messages, ask)
	ses.Workflow.RepairMsg, ses.Workflow.RepairFrom = ask.ID, stop.Step
	if err := r.save(ctx); err != nil {
		return err
	}
	r.message(len(ses.Messages) - 1)
	on := true
	run := Input{SessionID: ses.ID, Agent: &on, Task: in.Task, Values: in.Values, Secrets: secrets}
	if in.Task == nil {
		if t, err := r.task.Env.Current(ctx); err == nil {
			run.TabID = t.ID
		}
	}
	_, err := e.runOne(ctx, ses, run, nil, emit)
	return err
}

// saveRepaired saves a replay the model finished as the workflow's next version: the steps that
// ran as recorded, then the model's.
func (e *Engine) saveRepaired(ctx context.Context, ses *store.Session, name string) (*workflow.Workflow, error) {
	wf := ses.Workflow
	if wf.RepairMsg == "" {
		return nil, store.FieldSays("workflow", sayNothingNew.With(wf.Name))
	}
	base, err := e.Store.Workflow(ctx, wf.ID)
	if err != nil {
		return nil, err
	}
	at := slices.IndexFunc(ses.Messages, func(m store.Message) bool { return m.ID == wf.RepairMsg })
	if at < 0 {
		return nil, store.FieldSays("workflow", sayModelPartGone.With())
	}
	w, err := workflow.Extend(base, wf.RepairFrom, wf.Values, recordedCalls(ses.Messages[:at]), recordedCalls(ses.Messages[at:]))
	if err != nil {
		return nil, store.FieldSays("workflow", sayRepairNotAWorkflow.With(err))
	}
	if n := strings.TrimSpace(name); n != "" {
		w.Name = n
	}
	w.UpdatedAt = e.now()
	if err := e.Store.SaveWorkflow(ctx, w); err != nil {
		return nil, err
	}
	return w, nil
}

// What a workflow's replay says to the user, and why one cannot be saved or finished (their
// French is in ui/_locales).
var (
	sayRunWorkflow        = i18n.Sentence{Key: "wfRunMsg", English: "Run the workflow “$2” ($1 steps).$3", One: "Run the workflow “$2” (1 step).$3"}
	sayRanAll             = i18n.Sentence{Key: "wfRanAll", English: "The workflow “$2” ran all $1 steps.", One: "The workflow “$2” ran its step."}
	sayStoppedAt          = i18n.Sentence{Key: "wfStoppedAt", English: "Stopped at step $1 of $2 ($3): $4."}
	saySkipped            = i18n.Sentence{Key: "wfSkipped", English: "Went on without step $1 ($2), which only closes what a page shows as it loads: $3."}
	sayRanSkipping        = i18n.Sentence{Key: "wfRanSkipping", English: "The workflow “$2” ran to its end ($1 steps, without $3: the page did not show what they close)."}
	sayCutHere            = i18n.Sentence{Key: "wfStopRestarted", English: "Skiff's worker restarted during this step, so the replay stopped there (the step may not have run); check the page, then run the workflow again"}
	sayCutAt              = i18n.Sentence{Key: "wfStoppedRestarted", English: "Stopped at step $1: Skiff's worker restarted during it, so the replay stopped there (the step may not have run). Check the page, then run the workflow again."}
	sayPageRefused        = i18n.Sentence{Key: "wfStopRefused", English: "the page did not take it: $1"}
	sayNotAWorkflow       = i18n.Sentence{Key: "wfErrNotAWorkflow", English: "This chat cannot be saved as a workflow: $1."}
	sayRepairNotAWorkflow = i18n.Sentence{Key: "wfErrRepairNotAWorkflow", English: "The repaired run cannot be saved as a workflow: $1."}
	sayValuesBad          = i18n.Sentence{Key: "wfErrValues", English: "These values do not fit: $1."}
	sayNeedsValue         = i18n.Sentence{Key: "wfErrNeedsValue", English: "The workflow “$1” needs a value for “$2”."}
	sayNotAReplay         = i18n.Sentence{Key: "wfErrNotAReplay", English: "This chat is not a workflow's replay."}
	sayReplayDone         = i18n.Sentence{Key: "wfErrReplayDone", English: "The replay ran to its end: nothing is left to finish."}
	sayReplayTaken        = i18n.Sentence{Key: "wfErrReplayTaken", English: "The model has already taken this replay over."}
	sayReplayGoing        = i18n.Sentence{Key: "wfErrReplayGoing", English: "The replay is still going."}
	sayReplayCut          = i18n.Sentence{Key: "wfErrReplayCut", English: "The replay was cut when Skiff's worker stopped, and a step may have run: run the workflow again."}
	sayReplayAnswered     = i18n.Sentence{Key: "wfErrReplayAnswered", English: "The replay stopped because of an answer or a stop, not because the page changed: run the workflow again."}
	sayWorkflowChanged    = i18n.Sentence{Key: "wfErrChanged", English: "The workflow “$1” changed since this replay (it is at version $2): run it again."}
	sayNothingNew         = i18n.Sentence{Key: "wfErrNothingNew", English: "This chat replays the workflow “$1”: there is nothing new in it to save."}
	sayModelPartGone      = i18n.Sentence{Key: "wfErrModelPartGone", English: "This chat no longer holds the model's part of the run."}
)

// replayCall makes a replay's call of tool name on the guarded path, as a model's is (its card,
// its ask, the audit): the chat keeps shown, and args (with the secrets) live only for this
// call. done is called when it ran and succeeded.
func (r *runner) replayCall(ctx context.Context, name string, args, shown json.RawMessage, done func()) workflow.Outcome {
	r.callWith(ctx, provider.ToolCall{ID: NewID(), Name: name, Args: shown}, args)
	m := r.ses.Messages[len(r.ses.Messages)-1]
	switch {
	case m.Status == "" && !m.Tool.IsError && m.Tool.Refused != "":
		says := sayPageRefused.With(strings.TrimSuffix(m.Tool.Refused, "."))
		return workflow.Outcome{Kind: workflow.StopFailed, Text: says.English(), Says: says}
	case m.Status == "" && !m.Tool.IsError:
		done()
		return workflow.Outcome{OK: true, Tab: m.Tool.In, Opened: m.Tool.Opened}
	case m.Status == store.StatusDenied:
		o := workflow.Outcome{Kind: workflow.StopDenied, Text: m.Content}
		if m.Tool.DecisionText != nil {
			o.Says = *m.Tool.DecisionText // how the gate decided, in the user's words
		}
		return o
	case m.Status == store.StatusStopped:
		return workflow.Outcome{Kind: workflow.StopStopped, Text: m.Content}
	}
	return workflow.Outcome{Kind: workflow.StopFailed, Text: m.Content}
}
