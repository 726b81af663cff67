package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// Gate rules on every tool call before it runs (permission.Gate is the one Skiff has). Decide
// may ask the user and wait; it calls asking just before it does, and it must return when ctx
// is done. askedAt, when not zero, is when the call first asked (before a worker restart).
// Record is told what came of every decided call (the audit log).
type Gate interface {
	Decide(ctx context.Context, c permission.Call, askedAt time.Time, asking func(why i18n.Text)) (permission.Ruling, error)
	Record(ctx context.Context, c permission.Call, r permission.Ruling, result i18n.Text, ok bool)
}

// readOnly is the gate of an engine that was given none: reads run, nothing else does.
type readOnly struct{}

func (readOnly) Decide(_ context.Context, c permission.Call, _ time.Time, _ func(i18n.Text)) (permission.Ruling, error) {
	return permission.ReadOnly(c.Risk), nil
}

func (readOnly) Record(context.Context, permission.Call, permission.Ruling, i18n.Text, bool) {}

// Task is a series of tool calls by one caller (a panel run, an outside client's session, a
// workflow, an ACP agent): who it is, the tabs it works in, the sites it worked on and may read,
// and the elements the user let it act on. Every call of every caller goes through one guarded
// path (Engine.guard) with its task.
type Task struct {
	Caller permission.Caller
	Env    *tool.Env
	// Outside reports whether a call reaches a tab outside the task's own tabs; nil: never.
	Outside func(ctx context.Context, t tool.Tool, args json.RawMessage) bool

	mu      sync.Mutex
	worked  map[string]bool // origins the task acted on (moving to a new one asks)
	canRead map[string]bool // origins the user let it read (reading asks once per origin)
	granted map[string]bool // elements the user allowed it to act on (elementKey)
	planned *store.Plan     // the plan the user approved for this run (follow)
	// steps are what an outside caller's calls did, as a workflow records them (Steps), and
	// seen the last snapshot it read: the last keptSteps, in memory and in Keeper.
	steps []workflow.Call
	seen  string
	links string // what the last links it read said, in memory and in Keeper
	// Keeper, when set, keeps the task's steps beyond the worker's memory: a worker Chrome
	// stops and starts again between an outside client's calls and its workflow_save forgets
	// none of them (RestoreSteps gives them back).
	Keeper StepKeeper
}

// StepKeeper keeps a task's steps (workflow.Kept) where a worker restart leaves them.
type StepKeeper interface {
	Keep(c workflow.Call, max int)
	// Saw keeps the last text read with tool: a snapshot (where the next calls' refs come
	// from) or the links (whose names say what an address is for).
	Saw(tool, text string)
	Forget()
}

// keptSteps bounds the calls a task keeps for workflow_save.
const keptSteps = 2 * workflow.MaxSteps

// Steps are the calls of the task's caller that ran and succeeded since it last saved them
// (ForgetSteps), or since it began, as a workflow records them: an outside client saves what
// it did as a workflow (workflow_save).
func (t *Task) Steps() []workflow.Call {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := slices.Clone(t.steps)
	for i := range out {
		out[i].Args = asRan(out[i].Tool, out[i].Args)
	}
	return out
}

// ForgetSteps starts the task's steps again from none (they were saved).
func (t *Task) ForgetSteps() {
	t.mu.Lock()
	t.steps = nil
	t.mu.Unlock()
	if t.Keeper != nil {
		t.Keeper.Forget()
	}
}

// RestoreSteps gives a task that starts again (its worker restarted) the steps its Keeper kept
// and what it read last.
func (t *Task) RestoreSteps(calls []workflow.Call, read store.Read) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seen == "" {
		t.seen = read.Snapshot
	}
	if t.links == "" {
		t.links = read.Links
	}
	t.steps = append(slices.Clone(calls), t.steps...)
	if len(t.steps) > keptSteps {
		t.steps = slices.Delete(t.steps, 0, len(t.steps)-keptSteps)
	}
}

// noteStep keeps a call that ran and succeeded for Steps: a snapshot as what later calls' refs
// came from, a call a workflow keeps as one of its steps (what of it a workflow reads).
func (t *Task) noteStep(c workflow.Call, text string) {
	t.mu.Lock()
	switch {
	case c.Tool == "snapshot" || c.Tool == "links":
		if c.Tool == "snapshot" {
			text = t.seen // (kept whole, as read: a continued one with what it continues; saw)
		} else {
			t.links = text
		}
		t.mu.Unlock()
		if t.Keeper != nil {
			t.Keeper.Saw(c.Tool, text)
		}
		return
	case workflow.Keeps(c.Tool) || c.Tool == "upload_file":
		c.Seen = t.seen
		c.ReadLinks(t.links)
		c = workflow.Kept(c)
		t.steps = append(t.steps, c)
		if len(t.steps) > keptSteps {
			t.steps = slices.Delete(t.steps, 0, len(t.steps)-keptSteps)
		}
	default:
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	if t.Keeper != nil {
		t.Keeper.Keep(c, keptSteps)
	}
}

// saw notes a snapshot the task's caller read: later calls' refs come from it.
func (t *Task) saw(text string) {
	t.mu.Lock()
	t.seen = workflow.Saw(t.seen, text)
	t.mu.Unlock()
}

// placeTimeout bounds the reading of where the elements a call names stand (place).
const placeTimeout = 3 * time.Second

// place notes, for a call a workflow keeps, where each element it names stands among its
// namesakes (tool.Element.Place), when the caller's last snapshot did not show it: a ref from
// find, from past a snapshot's cut, or from a page it read no snapshot of (each page counts its
// refs from e1: another's snapshot names others by them). A workflow saved from the run finds
// it there again, where one that knew only its name would take the first of its name ("Edit"
// of the first section for the fourth's). One reading of the page, before the call acts; none
// when the snapshot showed every element the call names.
func (t *Task) place(ctx context.Context, name string, args json.RawMessage, f *tool.Effect) {
	if !workflow.Keeps(name) {
		return
	}
	t.mu.Lock()
	seen := t.seen
	t.mu.Unlock()
	var unseen []*tool.Element
	for _, e := range f.Named() {
		// (An element the call named by its ref: one at a point, or the focused one a key
		// goes to, is no target of a step.)
		if e != nil && e.Ref != "" && bytes.Contains(args, []byte(`"`+e.Ref+`"`)) && !workflow.Shows(seen, *e) {
			unseen = append(unseen, e)
		}
	}
	if len(unseen) == 0 || f.TabID == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, placeTimeout)
	defer cancel()
	// One with no namesake is the first of its name: the page says so without a reading of it
	// whole (which a page of thousands of links takes most of a second for).
	unsure := unseen[:0:0]
	for _, e := range unseen {
		if alike, near, ok := t.Env.Alike(ctx, f.TabID, e.Ref); ok && !alike {
			e.Place = &tool.Place{Near: near}
		} else {
			unsure = append(unsure, e)
		}
	}
	if unseen = unsure; len(unseen) == 0 {
		return
	}
	s, err := t.Env.Snapshot(ctx, f.TabID, "", false)
	if err != nil {
		return // (its first namesake, then, as before)
	}
	for _, e := range unseen {
		e.Place = workflow.Placed(s, *e)
	}
}

// NewTask starts a task for caller in env.
func NewTask(caller permission.Caller, env *tool.Env) *Task {
	return &Task{Caller: caller, Env: env}
}

func (t *Task) init() {
	if t.worked == nil {
		t.worked, t.canRead, t.granted = map[string]bool{}, map[string]bool{}, map[string]bool{}
	}
}

// weigh fills in how the gate sees a call in this task: on an origin new to the task, on one
// it may read (the browser itself, for reads of its tabs and history, counts as one), on an
// element the user already let it act on.
func (t *Task) weigh(r *permission.Request, element string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.init()
	r.NewOrigin = r.Origin != "" && !t.worked[r.Origin]
	r.Consented = t.canRead[r.Origin]
	r.Granted = element != "" && t.granted[element]
	if p := t.planned; p != nil && r.Origin != "" {
		r.Planned = slices.Contains(p.Sites, r.Origin) && slices.Contains(p.Kinds, kindOf(r.Tool))
	}
}

// allowed notes that a call was allowed on o (a read there is the user's consent to read it;
// o is "" for a read of the browser's tabs or history).
func (t *Task) allowed(o string, risk tool.Risk) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.init()
	if o != "" {
		t.worked[o] = true
	}
	if risk == tool.Read {
		t.canRead[o] = true
	}
}

// shared notes an origin the user shared themselves (the page they attached).
func (t *Task) shared(o string) {
	if o == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.init()
	t.canRead[o] = true
}

// grant notes that the user allowed acting on an element: more of the same intent on it (the
// next key in the same field, the same button again) does not ask again in this task.
func (t *Task) grant(element string) {
	if element == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.init()
	t.granted[element] = true
}

// elementKey names the element a call sets off or acts on, for grants: its document, its ref,
// and what it is called (a ref reused by another page names another element).
func elementKey(f *tool.Effect) string {
	el := f.Activates
	if el == nil {
		el = f.Element
	}
	if el == nil || el.Ref == "" || len(f.Fields) > 0 {
		return ""
	}
	return strings.Join([]string{el.FrameURL, el.Ref, el.Role, el.Name}, "\x00")
}
