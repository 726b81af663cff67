package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// user answers the gate's questions the way the test says, and remembers what it was asked.
type user struct {
	gate   *permission.Gate
	mu     sync.Mutex
	asked  []permission.Question
	answer func(q permission.Question) permission.Decision
}

func (u *user) Questions(_ context.Context, qs []permission.Question) {
	for _, q := range qs {
		u.mu.Lock()
		seen := false
		for _, a := range u.asked {
			seen = seen || a.ID == q.ID && a.What == q.What
		}
		if !seen {
			u.asked = append(u.asked, q)
		}
		u.mu.Unlock()
		if !seen {
			go u.gate.Answer(q.ID, u.answer(q))
		}
	}
}

func (u *user) questions() []permission.Question {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]permission.Question(nil), u.asked...)
}

// harness is an engine with a real gate over a fake page, for a task of an outside caller (its
// questions go to the fake user).
type harness struct {
	t    *testing.T
	e    *Engine
	page *testkit.Page
	user *user
	task *Task
	st   *store.Store
}

func newHarness(t *testing.T, page *testkit.Page, policies []permission.Policy, answer func(permission.Question) permission.Decision) *harness {
	ctx := context.Background()
	st, err := store.Open(ctx, store.NewMemKV())
	require.NoError(t, err)
	for _, p := range policies {
		require.NoError(t, st.SetPolicy(ctx, p))
	}
	e := New(st, testkit.Doer{})
	e.Browser = testkit.Browser(page)
	g := &permission.Gate{Policies: st, Timeout: func(context.Context) time.Duration { return 5 * time.Second }}
	u := &user{gate: g, answer: answer}
	g.Asker = u
	e.Gate = g
	task := NewTask(permission.Caller{Kind: permission.KindClient, ID: "c1", Name: "test-client"}, tool.NewEnv(e.Browser, 1, 0))
	task.allowed(origin(page.URL), tool.Read) // the task works on the page's site already
	return &harness{t: t, e: e, page: page, user: u, task: task, st: st}
}

func (h *harness) call(name string, args any) Outcome {
	b, err := json.Marshal(args)
	require.NoError(h.t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return h.e.Invoke(ctx, h.task, Invocation{ID: NewID(), Name: name, Args: b})
}

func deny(permission.Question) permission.Decision  { return permission.DenyOnce }
func allow(permission.Question) permission.Decision { return permission.AllowOnce }

// actingAllowed is a user who said "always" to acting on the site.
func actingAllowed(site string) []permission.Policy {
	return []permission.Policy{{Tool: "act:*", Origin: site, Decision: permission.AllowAlways, UpdatedAt: 1}}
}

const site = "https://bank.example"

// accountPage is a settings page: a text field in a form whose default button deletes the
// account, a harmless button, a link, and a newsletter checkbox whose label says "Send".
func accountPage() *testkit.Page {
	return &testkit.Page{URL: site + "/settings", Title: "Settings", TabOrder: []string{"e1", "e2", "e3", "e4"},
		Elements: map[string]*testkit.Element{
			"e1": {Ref: "e1", Role: "textbox", Name: "Nickname", Tag: "input", Type: "text", Form: site + "/delete", Enter: "e3", Implicit: true},
			"e2": {Ref: "e2", Role: "button", Name: "Save", Tag: "button"},
			"e3": {Ref: "e3", Role: "button", Name: "Delete my account", Tag: "button", Form: site + "/delete"},
			"e4": {Ref: "e4", Role: "checkbox", Name: "Send me offers", Tag: "input", Type: "checkbox"},
			"e5": {Ref: "e5", Role: "generic", Name: "Delete my account", Tag: "span", In: "e3"},
		}}
}

// Every route to the "Delete my account" button asks as a destructive act, even with acting
// on the site allowed always; denied, none of them reaches the page.
func TestEveryRouteToADestructiveButtonAsks(t *testing.T) {
	routes := []struct {
		name  string
		focus string
		tool  string
		args  any
	}{
		{"click by ref", "", "click", map[string]any{"ref": "e3"}},
		{"click by selector", "", "click", map[string]any{"selector": "#e3"}},
		{"click on the text inside it", "", "click", map[string]any{"ref": "e5"}},
		{"click by coordinates", "", "click", map[string]any{"x": 40, "y": 60}},
		{"Enter on the focused button", "e3", "press_key", map[string]any{"key": "Enter"}},
		{"Space on the focused button", "e3", "press_key", map[string]any{"key": " "}},
		{"Return (Enter by another name) on the focused button", "e3", "press_key", map[string]any{"key": "Return"}},
		{"Shift+Return on the focused button", "e3", "press_key", map[string]any{"key": "shift+return"}},
		{"Spacebar on the focused button", "e3", "press_key", map[string]any{"key": "spacebar"}},
		{"Enter in the form's text field", "e1", "press_key", map[string]any{"key": "Enter"}},
		{"Enter after focusing the button", "", "press_key", map[string]any{"key": "Enter", "ref": "e3"}},
		{"type and submit in the form", "", "type", map[string]any{"ref": "e1", "text": "x", "submit": true}},
		{"fill and submit the form", "", "fill_form", map[string]any{"fields": []any{map[string]any{"ref": "e1", "value": "x"}}, "submit": true}},
		{"seed 001 tab_action", "", "tab_action", map[string]any{"action": "click", "ref": "e3"}},
		{"seed 001 tab_action batch", "", "tab_action", map[string]any{"actions": []any{map[string]any{"action": "scroll"}, map[string]any{"action": "click", "selector": "#e3"}}}},
		{"seed 001 tab_action at a point", "", "tab_action", map[string]any{"action": "click", "x": 40, "y": 60}},
	}
	for _, r := range routes {
		t.Run(r.name, func(t *testing.T) {
			page := accountPage()
			page.Focus = r.focus
			page.At(40, 60, "e3")
			h := newHarness(t, page, actingAllowed(site), deny)
			out := h.call(r.tool, r.args)
			assert.True(t, out.IsError, out.Text)
			qs := h.user.questions()
			require.NotEmpty(t, qs, "nothing asked: %s", out.Text)
			last := qs[len(qs)-1]
			assert.Equal(t, "destructive", last.Risk, "asked %+v", last)
			assert.Contains(t, last.What, "Delete my account")
			for _, in := range page.Inputs() {
				assert.NotContains(t, in, "e3", "the destructive control was reached: %v", page.Inputs())
				assert.NotEqual(t, "key Enter e1", in)
			}
		})
	}
}

// Tab presses that move the focus onto the button, then Enter: the Tabs only move the focus
// and run (acting is allowed), the Enter asks as pressing "Delete my account".
func TestTabsThenEnterAsksAsTheFocusedButton(t *testing.T) {
	page := accountPage()
	h := newHarness(t, page, actingAllowed(site), deny)
	for i := 0; i < 3; i++ {
		out := h.call("press_key", map[string]any{"key": "Tab"})
		require.False(t, out.IsError, out.Text)
	}
	require.Equal(t, "e3", page.Focus)
	assert.Empty(t, h.user.questions())
	out := h.call("press_key", map[string]any{"key": "Enter"})
	assert.True(t, out.IsError)
	qs := h.user.questions()
	require.Len(t, qs, 1)
	assert.Equal(t, "destructive", qs[0].Risk)
	assert.Contains(t, qs[0].What, `press Enter in button “Delete my account” [e3]`)
	assert.Equal(t, []string{"key Tab ", "key Tab e1", "key Tab e2"}, page.Inputs())
}

// A batch runs only the steps the gate allowed: the harmless step runs, the destructive one
// asks and, denied, does not run, and the steps after it do not run either.
func TestBatchRunsOnlyAllowedSteps(t *testing.T) {
	page := accountPage()
	h := newHarness(t, page, actingAllowed(site), deny)
	out := h.call("tab_action", map[string]any{"actions": []any{
		map[string]any{"action": "click", "ref": "e2"},
		map[string]any{"action": "click", "ref": "e3"},
		map[string]any{"action": "click", "ref": "e2"},
	}})
	assert.True(t, out.IsError)
	assert.Contains(t, out.Text, "Step 2 of 3")
	assert.Contains(t, out.Text, "Steps 3–3 did not run")
	assert.Equal(t, []string{"click e2"}, page.Inputs())
	qs := h.user.questions()
	require.Len(t, qs, 1)
	assert.Contains(t, qs[0].What, "step 2 of 3")
}

// A checkbox labelled "Send me offers" is not a "Send": acting allowed, it just runs.
func TestIrreversibleWordsOnlyForActionControls(t *testing.T) {
	page := accountPage()
	h := newHarness(t, page, actingAllowed(site), deny)
	out := h.call("click", map[string]any{"ref": "e4"})
	assert.False(t, out.IsError, out.Text)
	assert.Empty(t, h.user.questions())
	assert.Equal(t, []string{"click e4"}, page.Inputs())
	// A native button a page gives a value role is still a button.
	page.Elements["e6"] = &testkit.Element{Ref: "e6", Role: "checkbox", Name: "Delete my account", Tag: "button"}
	out = h.call("click", map[string]any{"ref": "e6"})
	assert.True(t, out.IsError)
	require.Len(t, h.user.questions(), 1)
	assert.Equal(t, "destructive", h.user.questions()[0].Risk)
}

// The site the gate judges is the frame's: "always" on the page's site does not cover a
// button in a frame from another site.
func TestFramesAreJudgedByTheirOwnOrigin(t *testing.T) {
	page := accountPage()
	page.Elements["f2e1"] = &testkit.Element{Ref: "f2e1", Frame: 2, Origin: "https://ads.example", Role: "button", Name: "Claim", Tag: "button"}
	page.At(300, 400, "f2e1")
	for _, args := range []map[string]any{{"ref": "f2e1"}, {"x": 300, "y": 400}} {
		h := newHarness(t, page, actingAllowed(site), deny)
		out := h.call("click", args)
		assert.True(t, out.IsError, out.Text)
		qs := h.user.questions()
		require.Len(t, qs, 1, "%v", args)
		assert.Equal(t, "https://ads.example", qs[0].Origin)
	}
	assert.Empty(t, page.Inputs())
}

// Arguments are checked against the schema before anything asks or runs.
func TestInvalidArgumentsNeverAsk(t *testing.T) {
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"wait_for", map[string]any{"seconds": 100}, `Argument "seconds" must be at most 30, not 100`},
		{"screenshot", map[string]any{"format": "gif"}, `Argument "format" must be one of "jpeg", "png", not "gif"`},
		{"dialog", map[string]any{}, `Argument "accept" is required`},
		{"click", map[string]any{"ref": []any{"e1"}}, `Argument "ref" should be a string, not a list`},
		{"scroll", map[string]any{"amount": "a lot"}, `Argument "amount" should be a number, not a string`},
		{"type", map[string]any{"ref": "e1"}, `Argument "text" is required`},
		{"fill_form", map[string]any{"fields": []any{map[string]any{"ref": "e1"}}}, `Argument "fields[0].value" is required`},
		{"tab_action", map[string]any{"actions": []any{map[string]any{"action": "delete"}}}, `Argument "actions[0].action" must be one of`},
		{"scroll", map[string]any{"amount": 0}, `Argument "amount" must be at least 1`},
	} {
		page := accountPage()
		h := newHarness(t, page, nil, allow)
		out := h.call(c.tool, c.args)
		assert.True(t, out.IsError, c.tool)
		assert.Contains(t, out.Text, c.want, c.tool)
		assert.Empty(t, h.user.questions(), c.tool)
		assert.Empty(t, page.Calls(), "%s reached the page", c.tool)
	}
}

// One intent, one ask: after the user allows typing into a field once, more keys in that same
// field do not ask; Enter there, which presses the form's button, still does.
func TestAnAllowedFieldDoesNotAskPerKey(t *testing.T) {
	page := accountPage()
	asks := 0
	h := newHarness(t, page, nil, func(q permission.Question) permission.Decision {
		asks++
		if strings.Contains(q.What, "Delete") {
			return permission.DenyOnce
		}
		return permission.AllowOnce
	})
	require.False(t, h.call("type", map[string]any{"ref": "e1", "text": "2026-"}).IsError)
	for _, k := range []string{"ArrowUp", "ArrowUp", "Backspace", "1", "2"} {
		out := h.call("press_key", map[string]any{"key": k, "ref": "e1"})
		require.False(t, out.IsError, out.Text)
	}
	assert.Equal(t, 1, asks, "%v", h.user.questions())
	out := h.call("press_key", map[string]any{"key": "Enter", "ref": "e1"})
	assert.True(t, out.IsError)
	assert.Equal(t, 2, asks)
}

// A value the run keeps secret (a workflow's password, typed by a model that repairs the run)
// never shows and never goes unasked, whatever field it is typed into: even with acting on the
// site allowed always, typing it into a plain text field asks as a password field does, and
// neither the question (which is stored while it waits), the call's words nor its result holds
// it.
func TestASecretValueAsksAndNeverShows(t *testing.T) {
	h := newHarness(t, accountPage(), actingAllowed(site), allow)
	args, _ := json.Marshal(map[string]any{"ref": "e1", "text": "hunter2"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var what string
	o := h.e.guard(ctx, h.task, guarded{ID: NewID(), Name: "type", Args: args, Secrets: []string{"hunter2"}},
		watch{resolved: func(_ *tool.Effect, c permission.Call, _, _ int) { what = c.What }})
	require.False(t, o.IsError, o.Text)
	qs := h.user.questions()
	require.Len(t, qs, 1, "typing a secret did not ask")
	assert.True(t, qs[0].Sensitive)
	b, _ := json.Marshal(qs[0])
	assert.NotContains(t, string(b), "hunter2")
	assert.NotContains(t, what, "hunter2")
	assert.Contains(t, what, "7 characters")
	assert.NotContains(t, o.Text, "hunter2")

	// Without the secret, the same call runs unasked under the user's "always".
	h2 := newHarness(t, accountPage(), actingAllowed(site), allow)
	o = h2.e.guard(ctx, h2.task, guarded{ID: NewID(), Name: "type", Args: args}, watch{})
	require.False(t, o.IsError, o.Text)
	assert.Empty(t, h2.user.questions())
}

// A run that waits longer for answers (a scheduled one) says so in its context; the settings'
// timeout stands for every other call, and a shorter wait never cuts it.
func TestAskWaitOnlyLengthens(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.NewMemKV())
	require.NoError(t, err)
	e := New(st, nil)
	s, err := st.Settings(ctx)
	require.NoError(t, err)
	s.AskSeconds = 30
	require.NoError(t, st.SaveSettings(ctx, s))
	assert.Equal(t, 30*time.Second, e.AskTimeout(ctx))
	assert.Equal(t, time.Hour, e.AskTimeout(WithAskWait(ctx, time.Hour)))
	assert.Equal(t, 30*time.Second, e.AskTimeout(WithAskWait(ctx, time.Second)))
}

// Only a replay that stopped because the page changed may be handed to the model later, once,
// at the version it ran; each refusal says why in a sentence.
func TestFinishReplayRefusesWhatItCannotFinish(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, &testkit.Page{}, nil, nil)
	w := &workflow.Workflow{ID: "wf1", Name: "Book", Version: 1, Steps: []workflow.Step{{Tool: "navigate", What: "go to the page", Args: json.RawMessage(`{"url":"http://127.0.0.1:9/"}`)}}}
	require.NoError(t, h.st.SaveWorkflow(ctx, w))
	w, err := h.st.Workflow(ctx, "wf1")
	require.NoError(t, err)
	for _, c := range []struct {
		run  *store.WorkflowRun
		want string
	}{
		{nil, "not a workflow's replay"},
		{&store.WorkflowRun{ID: w.ID, Version: w.Version, Done: true}, "ran to its end"},
		{&store.WorkflowRun{ID: w.ID, Version: w.Version, Stop: "Stopped.", StopKind: workflow.StopMissing, RepairMsg: "m1"}, "already taken"},
		{&store.WorkflowRun{ID: w.ID, Version: w.Version}, "cut when Skiff's worker stopped"}, // not running here: a restart cut it
		{&store.WorkflowRun{ID: w.ID, Version: w.Version, Stop: "Stopped.", StopKind: workflow.StopDenied}, "run the workflow again"},
		{&store.WorkflowRun{ID: w.ID, Version: w.Version + 1, Stop: "Stopped.", StopKind: workflow.StopMissing}, "changed since this replay"},
	} {
		ses, err := h.e.NewSession(ctx, false)
		require.NoError(t, err)
		ses.Workflow = c.run
		require.NoError(t, h.st.SaveSession(ctx, ses))
		err = h.e.FinishReplay(ctx, FinishInput{SessionID: ses.ID}, func(Update) {})
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// A call by a name the model brought from elsewhere is not run, and says the name to use.
func TestACallByAnotherToolsNameSaysTheName(t *testing.T) {
	h := newHarness(t, accountPage(), actingAllowed(site), allow)
	o := h.call("browser_click", map[string]any{"ref": "e2"})
	assert.True(t, o.IsError)
	assert.Equal(t, `There is no tool "browser_click": the tool for that is "click". Call it by that name.`, o.Text)
	o = h.call("fly", map[string]any{})
	assert.Equal(t, `There is no tool "fly". Use one of the tools you were given.`, o.Text)
	assert.Empty(t, h.page.Calls(), "nothing reached the page")
}

// A press that sends the page elsewhere as it lands (a link followed on mousedown, a reload) is
// asked about in a new document, which armed nothing: the press went out, and the click did
// what it did; it is not "did not reach" (which tells the model its click did nothing).
func TestAPressThatTakesThePageElsewhereWentOut(t *testing.T) {
	page := accountPage()
	page.Leaves = true
	h := newHarness(t, page, actingAllowed(site), nil)
	out := h.call("click", map[string]any{"ref": "e2"})
	assert.False(t, out.IsError, out.Text)
	assert.Contains(t, out.Text, "Clicked button “Save” [e2]")
	assert.NotContains(t, out.Text, "did not reach")
}

// keptRead is a StepKeeper that keeps what a task read, as the store does.
type keptRead map[string]string

func (k keptRead) Keep(workflow.Call, int) {}
func (k keptRead) Saw(tool, text string)   { k[tool] = text }
func (k keptRead) Forget()                 {}

// An outside client's navigate to an address the links it read listed keeps that link's name,
// as a chat's does (recordedCalls): a result's address made of an id follows the value its
// name held, after a worker restart too.
func TestAClientsStepKeepsTheNameOfTheLinkItFollowed(t *testing.T) {
	links := "- [e3] \"Luigi's Trattoria\" https://food.test/r/8812\n"
	nav := func(u string) workflow.Call {
		return workflow.Call{Tool: "navigate", Args: json.RawMessage(`{"url":"` + u + `"}`)}
	}
	task := &Task{}
	task.noteStep(workflow.Call{Tool: "links"}, links)
	task.noteStep(nav("https://food.test/r/8812"), "")
	task.noteStep(nav("https://food.test/about"), "")
	steps := task.Steps()
	require.Len(t, steps, 2, "the read is no step")
	assert.Equal(t, "Luigi's Trattoria", steps[0].Link)
	assert.Empty(t, steps[1].Link)

	// Its worker restarted between the links it read and the address it went to.
	kept := keptRead{}
	task = &Task{Keeper: kept}
	task.noteStep(workflow.Call{Tool: "links"}, links)
	again := &Task{}
	again.RestoreSteps(nil, store.Read{Links: kept["links"]})
	again.noteStep(nav("https://food.test/r/8812"), "")
	assert.Equal(t, "Luigi's Trattoria", again.Steps()[0].Link, "the links read before the restart name the address")

	chat := []store.Message{
		{Role: "tool", Content: links, Tool: &store.ToolRun{Name: "links"}},
		{Role: "tool", Tool: &store.ToolRun{Name: "navigate", Args: json.RawMessage(`{"url":"https://food.test/r/8812"}`)}},
	}
	calls := recordedCalls(chat)
	require.Len(t, calls, 1)
	assert.Equal(t, "Luigi's Trattoria", calls[0].Link)
}
