package acphost

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/testkit/acpagent"
)

// recorder collects a host's events and answers its asks from a script.
type recorder struct {
	mu      sync.Mutex
	events  []Event
	asked   []Question
	answer  func(Question) (string, error)
	changed chan struct{}
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{}, 1000)} }

func (r *recorder) emit(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	r.changed <- struct{}{}
}

func (r *recorder) Ask(ctx context.Context, q Question) (string, error) {
	r.mu.Lock()
	r.asked = append(r.asked, q)
	a := r.answer
	r.mu.Unlock()
	r.changed <- struct{}{}
	if a == nil {
		<-ctx.Done()
		return "", ctx.Err()
	}
	return a(q)
}

func (r *recorder) take() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

func (r *recorder) text(kind string, es []Event) string {
	var b strings.Builder
	for _, e := range es {
		if e.Kind == kind {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func start(t *testing.T, folder string) (*Agent, *recorder) {
	t.Helper()
	rec := newRecorder()
	h := &Host{Ask: rec, Emit: rec.emit}
	if folder != "" {
		f, err := OpenFiles(folder, false)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		h.Files = f
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := h.Start(ctx, Spec{Name: "test", Title: "Test Agent", Command: []string{acpagent.Build(t)}})
	require.NoError(t, err)
	t.Cleanup(a.Close)
	require.NoError(t, a.NewSession(ctx, "chat-1"))
	return a, rec
}

// Every update kind arrives typed and in order; the update sent before session/new answered
// is kept; a kind nobody knows is skipped and the session lives on.
func TestEveryUpdateKindArrives(t *testing.T) {
	a, rec := start(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	turn, err := a.Prompt(ctx, "chat-1", "hello", []Image{{Mime: "image/png", Data: "iVBORw0KGgo="}})
	require.NoError(t, err)
	// The usage wins over _meta.quota's count; the model is the one that counted most.
	assert.Equal(t, Turn{StopReason: "end_turn", Model: "claude-test-model",
		Usage: &TurnUsage{Input: 1150, Output: 42, CacheRead: 800, Total: 1992}}, turn)
	es := rec.take()
	var kinds []string
	for _, e := range es {
		assert.Equal(t, "chat-1", e.Session)
		kinds = append(kinds, e.Kind)
	}
	assert.Equal(t, []string{"commands", "config", "thought", "plan", "tool", "tool", "usage", "info", "text", "text"}, kinds)
	assert.Equal(t, "Hello from the test agent (1 images).", rec.text("text", es))
	assert.Equal(t, []PlanItem{{Content: "Read the notes", Status: "completed", Priority: "high"}, {Content: "Answer", Status: "in_progress", Priority: "medium"}}, es[3].Plan)
	assert.Equal(t, &ToolCard{ID: "t1", Title: "Reading notes.md", Kind: "read", Status: "pending", Locations: []string{"notes.md"}}, es[4].Tool)
	assert.Equal(t, &ToolCard{ID: "t1", Update: true, Status: "completed", Preview: "one\ntwo"}, es[5].Tool)
	assert.Equal(t, &Usage{Used: 1200, Size: 200000, Cost: &Cost{Amount: 0.0123, Currency: "USD"}}, es[6].Usage)
	assert.Equal(t, "Greetings", es[7].Text)

	// The session lives on after the unknown kind. A turn that says nothing of its tokens has
	// none; one with _meta.quota alone (Gemini CLI's) has those.
	turn, err = a.Prompt(ctx, "chat-1", "ping", nil)
	require.NoError(t, err)
	assert.Equal(t, Turn{StopReason: "end_turn"}, turn)
	assert.Equal(t, "echo: ping", rec.text("text", rec.take()))
	turn, err = a.Prompt(ctx, "chat-1", "counted", nil)
	require.NoError(t, err)
	assert.Equal(t, Turn{StopReason: "end_turn", Model: "gemini-test-model", Usage: &TurnUsage{Input: 300, Output: 20, Total: 320}}, turn)
	rec.take()
}

// The agent's permission requests get Skiff's four answers mapped onto its options ("always"
// where it offers it, else "once"); Cancel answers an open ask "cancelled" before the agent
// hears of it.
func TestPermissionRequests(t *testing.T) {
	a, rec := start(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for answer, want := range map[string]string{AllowOnce: "chose yes", AllowAlways: "chose always", RejectOnce: "chose no", RejectAlways: "chose no"} {
		rec.answer = func(Question) (string, error) { return answer, nil }
		_, err := a.Prompt(ctx, "chat-1", "ask edit", nil)
		require.NoError(t, err)
		assert.Equal(t, want, rec.text("text", rec.take()), answer)
	}
	q := rec.asked[0]
	assert.Equal(t, Question{Session: "chat-1", Agent: "Test Agent", Title: "Do a edit", Kind: "edit", Risk: "act",
		Answers: []string{AllowOnce, AllowAlways, RejectOnce}}, q)
	rec.answer = func(Question) (string, error) { return AllowOnce, nil }
	_, err := a.Prompt(ctx, "chat-1", "ask delete", nil)
	require.NoError(t, err)
	assert.Equal(t, "destructive", rec.asked[len(rec.asked)-1].Risk)
	rec.take()

	// Cancel mid-permission.
	rec.mu.Lock()
	rec.answer, rec.asked = nil, nil
	rec.mu.Unlock()
	done := make(chan string, 1)
	go func() {
		turn, err := a.Prompt(ctx, "chat-1", "ask execute", nil)
		assert.NoError(t, err)
		done <- turn.StopReason
	}()
	for {
		<-rec.changed
		rec.mu.Lock()
		n := len(rec.asked)
		rec.mu.Unlock()
		if n > 0 {
			break
		}
	}
	require.NoError(t, a.Cancel(ctx, "chat-1"))
	assert.Equal(t, "cancelled", <-done)
	assert.Equal(t, "cancelled", rec.text("text", rec.take()))
}

// Cancel mid-prompt ends the turn as cancelled and the session goes on.
func TestCancelMidPrompt(t *testing.T) {
	a, rec := start(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan string, 1)
	go func() {
		turn, _ := a.Prompt(ctx, "chat-1", "slow", nil)
		done <- turn.StopReason
	}()
	for rec.text("text", snapshot(rec)) != "Working" {
		<-rec.changed
	}
	require.NoError(t, a.Cancel(ctx, "chat-1"))
	assert.Equal(t, "cancelled", <-done)
	rec.take()
	_, err := a.Prompt(ctx, "chat-1", "again", nil)
	require.NoError(t, err)
	assert.Equal(t, "echo: again", rec.text("text", rec.take()))
}

func snapshot(r *recorder) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// Reads and writes stay in the shared folder; a write asks first with its diff, is refused
// when the user says no, and lands when allowed (as an event with the diff, and in the audit).
func TestFilesThroughTheAgent(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.md"), []byte("one\ntwo\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret"), 0o644))
	a, rec := start(t, dir)
	var audit []string
	a.host.Audit = func(agent, action, path string, ok bool) {
		audit = append(audit, agent+" "+action+" "+path+map[bool]string{true: " allowed", false: " refused"}[ok])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	prompt := func(text string) string {
		_, err := a.Prompt(ctx, "chat-1", text, nil)
		require.NoError(t, err)
		return rec.text("text", rec.take())
	}
	assert.Equal(t, "read: one\ntwo\n", prompt("read "+filepath.Join(dir, "notes.md")))
	assert.Contains(t, prompt("read "+filepath.Join(outside, "secret")), "outside the folder")
	assert.Contains(t, prompt("read "+dir+"/../"+filepath.Base(outside)+"/secret"), "outside the folder")

	rec.answer = func(Question) (string, error) { return RejectOnce, nil }
	assert.Contains(t, prompt("write "+filepath.Join(dir, "notes.md")+" one\nTWO"), "did not allow")
	b, _ := os.ReadFile(filepath.Join(dir, "notes.md"))
	assert.Equal(t, "one\ntwo\n", string(b))
	q := rec.asked[len(rec.asked)-1]
	assert.Equal(t, "destructive", q.Risk)
	assert.Equal(t, "change notes.md (+1 −1)", q.Title)

	rec.answer = func(Question) (string, error) { return AllowOnce, nil }
	_, err := a.Prompt(ctx, "chat-1", "write "+filepath.Join(dir, "notes.md")+" one\nTWO", nil)
	require.NoError(t, err)
	es := rec.take()
	b, _ = os.ReadFile(filepath.Join(dir, "notes.md"))
	assert.Equal(t, "one\nTWO", string(b))
	var wrote *Diff
	var card *ToolCard
	for _, e := range es {
		if e.Kind == "wrote" {
			wrote = e.Diff
		}
		if e.Kind == "tool" && card == nil {
			card = e.Tool
		}
	}
	require.NotNil(t, wrote)
	assert.Equal(t, 1, wrote.Added)
	assert.Equal(t, 1, wrote.Removed)
	assert.Contains(t, wrote.Unified, "-two\n+TWO")
	require.NotNil(t, card)
	assert.Equal(t, "edit", card.Kind)
	require.Len(t, card.Diffs, 1, "the tool card carries the diff the agent proposed")
	assert.True(t, card.Diffs[0].New, "the agent sent no old text")

	assert.Contains(t, prompt("write "+filepath.Join(outside, "secret")+" gotcha"), "outside the folder")
	b, _ = os.ReadFile(filepath.Join(outside, "secret"))
	assert.Equal(t, "s3cret", string(b))
	assert.Equal(t, []string{"Test Agent write notes.md refused", "Test Agent write notes.md allowed", "Test Agent write " + filepath.Join(outside, "secret") + " refused"}, audit)
}

// An agent that crashes mid-turn is a clear message naming it, its exit and its log, never
// a hang; one that is not installed says so at start.
func TestCrashAndMissingAgent(t *testing.T) {
	a, rec := start(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := a.Prompt(ctx, "chat-1", "crash loud", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Test Agent stopped")
	assert.Contains(t, err.Error(), "exit status 3")
	assert.Contains(t, err.Error(), "crashing on purpose")
	select {
	case <-a.Done():
	case <-ctx.Done():
		t.Fatal("the crashed agent's process was not reaped")
	}
	// What it wrote before it died arrives whole; the status line is its own words, not the
	// SDK's notes on the closed connection (those are in its log, after its own).
	for !strings.HasSuffix(rec.text("text", snapshot(rec)), "...") {
		select {
		case <-rec.changed:
		case <-ctx.Done():
			t.Fatalf("the agent's last words were lost: %d bytes arrived", len(rec.text("text", snapshot(rec))))
		}
	}
	assert.Len(t, rec.text("text", snapshot(rec)), len("Going down")+48<<10)
	assert.NotContains(t, err.Error(), "level=")

	h := &Host{}
	_, err = h.Start(ctx, Spec{Name: "nope", Title: "Nope CLI", Command: []string{"skiff-no-such-agent", "--acp"}})
	require.Error(t, err)
	assert.Equal(t, "Nope CLI is not installed: skiff-no-such-agent was not found on PATH.", err.Error())
	var ie *i18n.Error
	require.ErrorAs(t, err, &ie, "a sentence of the catalogs, for the panel to say in the user's language")
	assert.Equal(t, "errAgentNotInstalled", ie.Text.Key)
}

// A command that is not an ACP agent (the CLI itself rather than its ACP adapter) is a clear
// message at start, never a hang: one that prints its usage and exits says so with its words;
// one that leaves a child holding its output still ends the start once it exited; one that
// talks but not ACP's JSON stops at the start's limit.
func TestAProgramThatIsNotAnAgent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h := &Host{}
	_, err := h.Start(ctx, Spec{Name: "cli", Title: "Some CLI", Command: []string{"sh", "-c", "echo 'usage: some-cli [options] <prompt>' >&2; exit 1"}})
	require.Error(t, err)
	assert.Equal(t, "Some CLI stopped (exit status 1). The end of its log: usage: some-cli [options] <prompt>", err.Error())

	_, err = h.Start(ctx, Spec{Name: "cli", Title: "Some CLI", Command: []string{"sh", "-c", "sleep 300 & echo 'no ACP here' >&2; exit 2"}})
	require.Error(t, err)
	assert.Equal(t, "Some CLI stopped (exit status 2). The end of its log: no ACP here", err.Error())
	require.NoError(t, ctx.Err(), "the start waited on the child that holds the pipe")

	defer func(d time.Duration) { StartTimeout = d }(StartTimeout)
	StartTimeout = 2 * time.Second
	_, err = h.Start(ctx, Spec{Name: "cli", Title: "Some CLI", Command: []string{"sh", "-c", "echo 'Welcome! Type a question.'; exec sleep 300"}})
	require.Error(t, err)
	assert.Equal(t, "Some CLI did not answer Skiff's first message within 2 s: is its command one that speaks ACP (an agent's ACP adapter, not the program itself)?", err.Error())
	require.NoError(t, ctx.Err())
}

// Close kills the agent's whole process group: a child the agent started goes with it, even
// one that outlives the agent (it ignores SIGTERM).
func TestCloseKillsTheProcessGroup(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "agent.sh")
	pidfile := filepath.Join(dir, "child.pid")
	// The child ignores SIGTERM and holds none of the agent's pipes (as a helper that detached
	// may): it must go too.
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nsh -c \"trap '' TERM; exec sleep 300\" </dev/null >/dev/null 2>&1 &\necho $! > "+pidfile+"\nexec "+acpagent.Build(t)+"\n"), 0o755))
	h := &Host{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := h.Start(ctx, Spec{Name: "sh", Command: []string{script}})
	require.NoError(t, err)
	b, err := os.ReadFile(pidfile)
	require.NoError(t, err)
	pid := strings.TrimSpace(string(b))
	a.Close()
	// The child is gone (or a zombie of init's, not running): kill -0 fails or ps shows Z.
	out, _ := exec.Command("ps", "-o", "stat=", "-p", pid).Output()
	st := strings.TrimSpace(string(out))
	assert.True(t, st == "" || strings.HasPrefix(st, "Z"), "the agent's child is still running: %q", st)
}

// The SDK's own example agent (a permission request and two tool calls) runs under the host.
func TestTheSDKExampleAgent(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "example-agent")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/coder/acp-go-sdk/example/agent").CombinedOutput()
	require.NoError(t, err, string(out))
	rec := newRecorder()
	rec.answer = func(q Question) (string, error) { return AllowOnce, nil }
	h := &Host{Ask: rec, Emit: rec.emit}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a, err := h.Start(ctx, Spec{Name: "example", Title: "Example", Command: []string{bin}})
	require.NoError(t, err)
	defer a.Close()
	require.NoError(t, a.NewSession(ctx, "c"))
	turn, err := a.Prompt(ctx, "c", "hi", nil)
	require.NoError(t, err)
	assert.Equal(t, string(acp.StopReasonEndTurn), turn.StopReason)
	es := rec.take()
	assert.Contains(t, rec.text("text", es), "ACP Go Example Agent")
	tools := 0
	for _, e := range es {
		if e.Kind == "tool" && !e.Tool.Update {
			tools++
		}
	}
	assert.Equal(t, 2, tools)
	assert.NotEmpty(t, rec.asked)
}

// lastConfig waits for the session's config options to come, and gives the latest.
func lastConfig(ctx context.Context, t *testing.T, rec *recorder) []ConfigOption {
	t.Helper()
	var cfg []ConfigOption
	for cfg == nil {
		for _, e := range snapshot(rec) {
			if e.Kind == "config" {
				cfg = e.Config
			}
		}
		if cfg == nil {
			select {
			case <-rec.changed:
			case <-ctx.Done():
				t.Fatal("no config options came")
			}
		}
	}
	return cfg
}

// The model is a config option of category model: offered at session/new, changed with
// set_config_option, and the agent uses it.
func TestModelIsAConfigOption(t *testing.T) {
	a, rec := start(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg := lastConfig(ctx, t, rec)
	require.Equal(t, []ConfigOption{{ID: "model", Name: "Model", Category: "model", Current: "fast-1", Values: []string{"fast-1", "deep-2"}, Labels: []string{"Fast", "Deep"}}}, cfg)
	now, err := a.SetOption(ctx, "chat-1", "model", "deep-2")
	require.NoError(t, err)
	assert.Equal(t, "deep-2", now[0].Current)
	_, err = a.Prompt(ctx, "chat-1", "model", nil)
	require.NoError(t, err)
	es := rec.take()
	assert.Contains(t, rec.text("text", es), "model: deep-2")
	_, err = a.SetOption(ctx, "chat-1", "model", "nope")
	assert.Error(t, err)
}

// inFolder starts the test agent sharing folder, offering to reopen sessions as reopen says
// (SKIFF_TEST_AGENT_REOPEN: "" all of list, load and resume; "load", "resume" or "none").
func inFolder(ctx context.Context, t *testing.T, folder, reopen string) (*Agent, *recorder) {
	t.Helper()
	rec := newRecorder()
	f, err := OpenFiles(folder, false)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	h := &Host{Ask: rec, Emit: rec.emit, Files: f}
	a, err := h.Start(ctx, Spec{Name: "test", Title: "Test Agent", Command: []string{acpagent.Build(t)}, Env: []string{"SKIFF_TEST_AGENT_REOPEN=" + reopen}})
	require.NoError(t, err)
	t.Cleanup(a.Close)
	return a, rec
}

// An agent's legacy session modes (Gemini CLI still sends them) are one more config option, of
// category "mode", beside its model: setting it sets the mode (session/set_mode) and says the
// options as they are now; the agent changing its own mode (current_mode_update) comes as the
// whole list again.
func TestLegacyModesAreAnOption(t *testing.T) {
	t.Setenv("SKIFF_TEST_AGENT_MODES", "legacy")
	a, rec := start(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mode := func(cur string) ConfigOption {
		return ConfigOption{ID: ModeOption, Name: "Mode", Category: "mode", Current: cur, Values: []string{"default", "plan"}, Labels: []string{"Default", "Plan"}}
	}
	model := ConfigOption{ID: "model", Name: "Model", Category: "model", Current: "fast-1", Values: []string{"fast-1", "deep-2"}, Labels: []string{"Fast", "Deep"}}
	require.Equal(t, []ConfigOption{model, mode("default")}, lastConfig(ctx, t, rec))
	now, err := a.SetOption(ctx, "chat-1", ModeOption, "plan")
	require.NoError(t, err)
	assert.Equal(t, []ConfigOption{model, mode("plan")}, now)
	_, err = a.Prompt(ctx, "chat-1", "mode", nil)
	require.NoError(t, err)
	assert.Contains(t, rec.text("text", rec.take()), "mode: plan")
	// Setting the model keeps the mode where it is.
	now, err = a.SetOption(ctx, "chat-1", "model", "deep-2")
	require.NoError(t, err)
	assert.Equal(t, mode("plan"), now[1])
	_, err = a.Prompt(ctx, "chat-1", "leave-plan", nil)
	require.NoError(t, err)
	var cfg []ConfigOption
	for _, e := range rec.take() {
		if e.Kind == "config" {
			cfg = e.Config
		}
	}
	require.Len(t, cfg, 2, "the agent's own change of mode came as the options")
	assert.Equal(t, mode("default"), cfg[1])
	assert.Equal(t, "deep-2", cfg[0].Current)
	_, err = a.SetOption(ctx, "chat-1", ModeOption, "yolo")
	assert.Error(t, err)
}

// A chat whose agent stopped (skiffd restarted, the agent crashed) reopens the agent's own
// session: through session/resume when the agent offers it, else session/load, whose replay
// of the history is dropped (the chat has it), else as a new session, which Open says.
func TestReopenASession(t *testing.T) {
	folder := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run := func(reopen string) (*Agent, *recorder) { return inFolder(ctx, t, folder, reopen) }
	a, _ := run("")
	sid, how, err := a.Open(ctx, "chat-1", "")
	require.NoError(t, err)
	assert.Equal(t, OpenedNew, how)
	_, err = a.Prompt(ctx, "chat-1", "remember apples", nil)
	require.NoError(t, err)
	a.Close()

	for _, tt := range []struct{ reopen, how, recall string }{
		{"", OpenedResumed, "you said: remember apples"},
		{"load", OpenedLoaded, "you said: remember apples"},
		{"none", OpenedNew, "you said: "},
	} {
		b, rec := run(tt.reopen)
		got, how, err := b.Open(ctx, "chat-1", sid)
		require.NoError(t, err, tt.reopen)
		assert.Equal(t, tt.how, how, tt.reopen)
		if tt.how != OpenedNew {
			assert.Equal(t, sid, got, tt.reopen)
		}
		_, err = b.Prompt(ctx, "chat-1", "recall", nil)
		require.NoError(t, err)
		es := rec.take()
		assert.Equal(t, tt.recall, rec.text("text", es), "%s: nothing replayed reaches the chat", tt.reopen)
		assert.Empty(t, rec.text("user", es), tt.reopen)
		b.Close()
	}
}

// An agent's own sessions (started elsewhere, or by another run) are listed through
// session/list, every page of it, and one is continued as a chat new to Skiff: loaded with the
// history it replays (returned, not streamed), or resumed without it when the agent cannot
// load; an agent that lists nothing says so, and a session it does not have is an error, not a
// new session in its place.
func TestListAndContinueAnAgentsSessions(t *testing.T) {
	folder := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run := func(reopen string) (*Agent, *recorder) { return inFolder(ctx, t, folder, reopen) }
	a, _ := run("")
	var ids []string
	for i, words := range []string{"plan the trip", "pack the bags", "book the boat"} {
		sid, _, err := a.Open(ctx, fmt.Sprintf("elsewhere-%d", i), "")
		require.NoError(t, err)
		_, err = a.Prompt(ctx, fmt.Sprintf("elsewhere-%d", i), words, nil)
		require.NoError(t, err)
		ids = append(ids, sid)
	}
	a.Close()

	b, rec := run("")
	list, err := b.ListSessions(ctx, 100)
	require.NoError(t, err)
	require.Len(t, list, 3, "every page of the list")
	titles := map[string]string{}
	for _, s := range list {
		titles[s.ID] = s.Title
		assert.NotEmpty(t, s.UpdatedAt)
	}
	assert.Equal(t, "pack the bags", titles[ids[1]])
	short, err := b.ListSessions(ctx, 1)
	require.NoError(t, err)
	assert.Len(t, short, 1)

	sid, history, err := b.Continue(ctx, "chat-new", ids[1])
	require.NoError(t, err)
	assert.Equal(t, ids[1], sid)
	var said, user string
	for _, e := range history {
		assert.Equal(t, "chat-new", e.Session)
		switch e.Kind {
		case "user":
			user += e.Text
		case "text":
			said += e.Text
		}
	}
	assert.Equal(t, "pack the bags", user)
	assert.Equal(t, "(replayed) pack the bags", said)
	_, err = b.Prompt(ctx, "chat-new", "recall", nil)
	require.NoError(t, err)
	es := rec.take()
	assert.Equal(t, "you said: pack the bags", rec.text("text", es))
	assert.Empty(t, rec.text("user", es), "the replay is returned, not streamed")

	_, _, err = b.Continue(ctx, "chat-gone", "no-such-session")
	assert.ErrorContains(t, err, "could not reopen that session")
	b.Close()

	c, _ := run("resume")
	sid, history, err = c.Continue(ctx, "chat-resumed", ids[2])
	require.NoError(t, err)
	assert.Equal(t, ids[2], sid)
	require.Len(t, history, 1, "resume gives no history, only the session's options")
	assert.Equal(t, "config", history[0].Kind)
	c.Close()

	d, _ := run("none")
	_, err = d.ListSessions(ctx, 100)
	assert.ErrorIs(t, err, ErrNoList)
	_, _, err = d.Continue(ctx, "chat-x", ids[0])
	assert.ErrorContains(t, err, "neither session/load nor session/resume")
}

// The end of an agent's log in a status line is its last whole lines that fit in 400 bytes,
// from a whole character when one line is longer than that.
func TestLogTail(t *testing.T) {
	tailOf := func(log string) string {
		a := &Agent{stderr: &tail{max: 64 << 10}}
		a.stderr.Write([]byte(log))
		return a.logTail()
	}
	got := tailOf(strings.Repeat("starting up\n", 50) + "Error: no API key\n    at main (cli.js:12:5)\n")
	assert.True(t, strings.HasPrefix(got, "starting up\n") && strings.HasSuffix(got, "\nError: no API key\n    at main (cli.js:12:5)") && len(got) <= 400, "%q", got)
	long := tailOf(strings.Repeat("é", 300) + "!") // 601 bytes: the last 400 begin inside an é
	assert.True(t, utf8.ValidString(long), "%q", long)
	assert.Equal(t, strings.Repeat("é", 199)+"!", long)
}
