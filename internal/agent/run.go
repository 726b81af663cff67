package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/safety"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// run is one run of a session: the user's message is stored (and reported) first, then the
// page is attached, then model turns and tool calls alternate until the model answers without
// tools, the step limit, an error or Stop.
// Messages the user queued meanwhile are sent after it, in order, in the same hold on the
// session, as long as each run ends well.
func (e *Engine) run(ctx context.Context, ses *store.Session, in Input, read func(context.Context) (*store.Page, error), emit func(Update)) error {
	ctx, finish, err := e.take(ctx, ses.ID)
	if err != nil {
		return err
	}
	return e.drive(ctx, finish, ses, in, read, emit)
}

// drive runs session ses, which the caller holds until finish, then what waits in its queue.
func (e *Engine) drive(ctx context.Context, finish func(), ses *store.Session, in Input, read func(context.Context) (*store.Page, error), emit func(Update)) error {
	defer finish()
	emit = e.marking(ses.ID, emit)
	for {
		last, err := e.runOne(ctx, ses, in, read, emit)
		if err != nil || ctx.Err() != nil || last.Status != "" {
			return err // stopped, failed, cut: what waits is the user's to send or drop
		}
		text, ok := e.dequeue(ctx, ses, finish, emit)
		if !ok {
			return nil
		}
		in.Text, read = text, nil
	}
}

// runOne is one run in a session the caller holds: to the model's answer without tools, the
// step limit, an error or Stop. It returns the run's last message.
func (e *Engine) runOne(ctx context.Context, ses *store.Session, in Input, read func(context.Context) (*store.Page, error), emit func(Update)) (store.Message, error) {
	st, err := e.Store.Settings(ctx)
	if err != nil {
		return store.Message{}, err
	}
	if name, ok := strings.CutPrefix(st.Provider, HostedPrefix); ok {
		return e.runHosted(ctx, ses, name, read, emit)
	}
	p, key, model, err := st.Resolve()
	if err != nil {
		return store.Message{}, err
	}
	if in.Agent != nil {
		ses.Agent = *in.Agent
	}
	if in.Plan != nil {
		ses.PlanFirst = *in.Plan
	}
	ses.Plan = nil // every run plans anew
	if ses.Agent && e.Browser == nil {
		return store.Message{}, ErrNoBrowser
	}

	ses.Provider, ses.Model = p.ID, model
	ses.UpdatedAt = e.now()
	// Stored before it is acknowledged: the user's message survives anything that follows.
	if err := e.Store.SaveSession(ctx, ses); err != nil {
		return store.Message{}, err
	}
	emit(Update{Type: UpdateSession, SessionID: ses.ID, Session: ses})
	r := &runner{e: e, ses: ses, emit: emit, p: p, key: key, model: model, st: st, values: in.Values, secrets: in.Secrets, resume: in.resume, versions: in.versions}
	if read != nil {
		r.attach(ctx, read)
	}
	if ses.Agent && in.Task != nil {
		r.task = in.Task
		defer r.ownTabs(ctx, r.task.Env, false)()
	} else if ses.Agent {
		r.begin(ctx, PanelCaller(ses.ID), in.TabID, in.WindowID)
		defer r.release(ctx)
		// The page the user attached they shared themselves.
		if p := ses.Messages[lastUser(ses.Messages)].Page; p != nil {
			r.task.shared(origin(p.URL))
		}
	}
	if ses.Agent {
		ctx = tool.WithFileSource(ctx, e.attached(ses))
	}
	last := r.safeLoop(ctx)
	r.release(ctx)
	emit(Update{Type: UpdateDone, SessionID: ses.ID, MessageID: last.ID, Message: &last})
	return last, nil
}

// safeLoop is r.loop, where a fault of Skiff's own (a panic: a bug) ends this run, not the
// worker and every other run with it: what was live in the chat (the reply being written, a
// call asking or running) ends in an error that says so, the chat is saved as it was, and the
// fault is written to the worker's console for a report.
func (r *runner) safeLoop(ctx context.Context) (last store.Message) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		Fault("a run of "+r.ses.ID, p)
		fault := store.Failure("internal", sayFault.With(fmt.Sprint(p)))
		for i := range r.ses.Messages {
			if m := &r.ses.Messages[i]; store.Live(m.Status) {
				m.Status, m.Error = store.StatusError, fault
				if m.Tool != nil {
					m.Tool.IsError = true
				}
			}
		}
		_ = r.save(context.WithoutCancel(ctx))
		i := len(r.ses.Messages) - 1
		r.message(i)
		last = r.ses.Messages[i]
		if last.Status == "" {
			last.Status, last.Error = store.StatusError, fault // the run stops: nothing queued is sent
		}
	}()
	return r.loop(ctx)
}

// attachedIDs are the pictures the user attached to the chat, the latest first.
func attachedIDs(ses *store.Session) []string {
	var ids []string
	for i := len(ses.Messages) - 1; i >= 0; i-- {
		if m := ses.Messages[i]; m.Role == "user" {
			ids = append(ids, m.Images...)
		}
	}
	return ids
}

// attached finds a picture or a file the user attached to the chat by its name (the latest of
// that name), for upload_file: read from the store only when a call names one. A file whose
// text alone was kept is not found (its text is not the file).
func (e *Engine) attached(ses *store.Session) tool.Files {
	ids := attachedIDs(ses)
	return func(ctx context.Context, name string) (tool.File, bool) {
		if len(ids) == 0 {
			return tool.File{}, false
		}
		imgs, err := e.Store.Images(ctx, ids...)
		if err != nil {
			return tool.File{}, false
		}
		for _, id := range ids {
			img, ok := imgs[id]
			if !ok || img.Name == "" || img.Name != name {
				continue
			}
			if !IsDocument(img.Mime) {
				return tool.File{Path: name, Name: name, Mime: img.Mime, Data: img.Data}, true
			}
			// A file goes as its text: the page gets the file itself, when it was kept.
			if img.Original {
				if data, ok, err := e.Store.Original(ctx, id); err == nil && ok {
					return tool.File{Path: name, Name: name, Mime: img.Mime, Data: data}, true
				}
			}
		}
		return tool.File{}, false
	}
}

type runner struct {
	window int // the window a local server loaded the model with (serverWindow), once known
	e      *Engine
	ses    *store.Session
	emit   func(Update)
	p      provider.Provider
	key    string
	model  string
	st     store.Settings
	// task is the run's tool calls as the gate knows them: the tabs, the sites it worked on
	// and may read, the elements the user let it act on.
	task *Task
	// values fill the {{name}} placeholders the model types while it repairs a workflow;
	// secrets are the values among them (and a replay's) that are never shown (guarded.Secrets).
	values  map[string]string
	secrets []string
	// replaying: the calls are a workflow's steps, not a model's. A step can be made again from
	// the workflow, so it is not stored before it runs, and what came of it is stored with the
	// step that follows (its "running" or its ask) or with the replay's end: one write a step
	// instead of three. A worker stopped in between leaves the step that was going as
	// "running", which a restart reads as cut (Engine.Session), never as one to run again.
	replaying bool
	// blind: the model refused the pictures it was sent, so none go in the rest of the run.
	blind bool
	// resume: the run's first turn goes on with the chat's last reply, which was cut (Continue),
	// instead of writing a new one.
	resume bool
	// versions: the run's first reply is a new version of a reply, and these the ones before it.
	versions []store.Message
	// unsaved drop the notes (store.Pending) of screenshots stored before the message that holds
	// them: once a save holds it, a stopped worker no longer leaves a screenshot no chat holds.
	unsaved []func()
	// holds: the run holds its tabs (begin), and gives them back at its end (release, released).
	holds, released bool
}

// PanelCaller is the model of a chat in the panel, as the gate and the audit log name it.
func PanelCaller(sessionID string) permission.Caller {
	said := sayPanelModel.With()
	return permission.Caller{Kind: permission.KindPanel, Name: said.English(), NameText: &said, Chat: sessionID}
}

// WorkflowCaller is a workflow's replay, as the gate and the audit log name it.
func WorkflowCaller(name, sessionID string) permission.Caller {
	said := sayWorkflowCaller.With(name)
	return permission.Caller{Kind: permission.KindWorkflow, Name: said.English(), NameText: &said, Chat: sessionID}
}

// begin gives the run its task, for caller, starting on tab tabID of window windowID (0: the
// active one): the site the task starts on counts as one it works on. The caller defers release.
func (r *runner) begin(ctx context.Context, caller permission.Caller, tabID, windowID int) {
	env := tool.NewEnv(r.e.Browser, tabID, windowID)
	env.Incognito = store.Private(caller.Chat) // only a private chat's run uses incognito windows
	r.task = NewTask(caller, env)
	r.holds = true
	r.ownTabs(ctx, env, false)
	if t, err := r.task.Env.Current(ctx); err == nil {
		r.task.allowed(origin(t.URL), "")
	}
}

// ownTabs gives env the tabs the chat's runs opened in this browser session, and keeps the
// ones it opens: closing them does not ask, in the next run of the chat as in this one, nor
// after a worker restart. Storage that fails costs only that: closing the tab asks. A task
// given to the run (a scheduled run's, an outside client's) keeps its tabs in the chat it
// leaves too, until the run ends (stop). A tab the user went to since the chat's last run
// ended is theirs again (a run a worker restart cut, resumed, is the same run: resumed).
func (r *runner) ownTabs(ctx context.Context, env *tool.Env, resumed bool) (stop func()) {
	ids, _ := r.e.Store.OwnTabs(ctx, r.ses.ID)
	since := lastActive(r.ses.Messages)
	for _, id := range ids {
		if resumed {
			env.Own(id)
		} else {
			env.OwnSince(id, since)
		}
	}
	return env.OnOpen(func(id int) { _ = r.e.Store.AddOwnTab(context.WithoutCancel(ctx), r.ses.ID, id) })
}

// lastActive is when the chat's last run ended, near enough: the end of the last of its
// messages before the user's latest.
func lastActive(ms []store.Message) time.Time {
	var at int64
	for _, m := range ms[:max(lastUser(ms), 0)] {
		at = max(at, m.CreatedAt+m.DoneMs)
		if m.Tool != nil {
			at = max(at, m.Tool.StartedAt+m.Tool.DurationMs)
		}
	}
	return time.UnixMilli(at)
}

// release gives back the tabs the run worked in (the debugger detaches), once, if the run
// holds them (begin: not an outside client's, whose session keeps them). The run does so before
// it says it is done: a run begun at once in the same tab (the user's next message in another
// chat) does not have its debugger detached under it by the last one's end.
func (r *runner) release(ctx context.Context) {
	if !r.holds || r.released {
		return
	}
	r.released = true
	for _, id := range r.task.Env.Used() {
		r.e.Browser.Release(context.WithoutCancel(ctx), id)
	}
}

// save writes the session; a failure is reported on the message it concerns.
func (r *runner) save(ctx context.Context) error {
	r.ses.UpdatedAt = r.e.now()
	if err := r.e.Store.SaveSession(context.WithoutCancel(ctx), r.ses); err != nil {
		return err
	}
	for _, done := range r.unsaved {
		done()
	}
	r.unsaved = nil
	return nil
}

func (r *runner) message(i int) {
	m := r.ses.Messages[i]
	r.emit(Update{Type: UpdateMessage, SessionID: r.ses.ID, MessageID: m.ID, Message: &m})
}

// attach reads the page the user attached to their message, after the message is stored: a
// page that does not answer (stuck in a dialog, busy) costs the page, never the message.
func (r *runner) attach(ctx context.Context, read func(context.Context) (*store.Page, error)) {
	i := lastUser(r.ses.Messages)
	rctx, cancel := context.WithTimeout(ctx, AttachTimeout)
	page, err := read(rctx)
	cancel()
	m := &r.ses.Messages[i]
	if err != nil {
		var why any = strings.TrimSuffix(err.Error(), ".")
		var ie *i18n.Error
		if errors.As(err, &ie) {
			why = ie.Text
		}
		m.SetNotice(sayNotAttached.With(why))
	} else if page != nil {
		page.Clip()
		flagPage(page)
		m.Page = page
	}
	if r.save(ctx) == nil {
		r.message(i)
	}
}

// MaxCallsPerTurn bounds the calls one reply runs. A model that loops (a small local model can
// write one call dozens of times in a reply) does not act dozens of times before it reads what
// its first calls did; the calls past the bound are answered, not run, in one write.
const MaxCallsPerTurn = 20

// calls runs a reply's calls but the ones done (a run resumed after a restart), the first
// MaxCallsPerTurn of them; the rest are answered as not run.
func (r *runner) calls(ctx context.Context, calls []provider.ToolCall, done map[string]bool) {
	var past []provider.ToolCall
	for k, c := range calls {
		switch {
		case done[c.ID]:
		case k >= MaxCallsPerTurn:
			past = append(past, c)
		default:
			r.call(ctx, c)
		}
	}
	if len(past) > 0 {
		r.notRun(ctx, past)
	}
}

// notRun answers calls the turn will not run (every call needs its result, or the provider
// refuses the next request). They come after the ones that ran.
func (r *runner) notRun(ctx context.Context, calls []provider.ToolCall) {
	first := len(r.ses.Messages)
	for _, c := range calls {
		m := &r.ses.Messages[r.toolMessage(c)]
		m.Status, m.Tool.IsError = store.StatusError, true
		m.Content = fmt.Sprintf("Not run: one reply runs at most %d calls. Read what the first %d did, then make the calls still needed in your next reply.", MaxCallsPerTurn, MaxCallsPerTurn)
	}
	_ = r.save(ctx)
	for k := first; k < len(r.ses.Messages); k++ {
		r.message(k)
	}
}

// AttachTimeout bounds reading the page attached to a message.
var AttachTimeout = 6 * time.Second

// loop runs model turns and tool calls and returns the last message.
func (r *runner) loop(ctx context.Context) store.Message {
	steps := r.st.MaxSteps
	if steps <= 0 {
		steps = store.DefaultMaxSteps
	}
	// The calls of the last step, when they all failed, and how many steps in a row made them.
	last, same := "", 0
	for step := 1; ; step++ {
		i, calls := r.turn(ctx)
		if len(calls) == 0 || r.ses.Messages[i].Status != "" {
			return r.ses.Messages[i]
		}
		if !r.ses.Agent {
			// A chat without tools that still got calls (a model that ignores the tool list).
			r.ses.Messages[i].SetNotice(sayNotAgent.With())
			_ = r.save(ctx)
			return r.ses.Messages[i]
		}
		r.calls(ctx, calls, nil)
		if ctx.Err() != nil {
			return r.ses.Messages[len(r.ses.Messages)-1]
		}
		if sig := r.failedCalls(i); sig != "" && sig == last {
			same++
		} else {
			last, same = sig, 1
		}
		if same >= MaxSameFailures || step >= steps {
			m := store.Message{ID: NewID(), Role: "assistant", CreatedAt: r.e.now(), Provider: r.p.ID, Model: r.model,
				Status: store.StatusStopped}
			if same >= MaxSameFailures {
				// A small model stuck on one call that fails the same way: another step would
				// make it again, and spend the rest of the limit on it.
				m.SetNotice(sayLooping.With(same))
			} else {
				m.SetNotice(sayStepLimit.With(steps))
			}
			r.ses.Messages = append(r.ses.Messages, m)
			_ = r.save(ctx)
			return m
		}
	}
}

// MaxSameFailures is how many steps in a row may make the same calls and fail the same way
// before the run stops.
const MaxSameFailures = 3

// failedCalls is what the calls of the turn at message i were, and what each answered, when
// every one of them failed; "" when one did not.
func (r *runner) failedCalls(i int) string {
	var b strings.Builder
	results := 0
	for _, m := range r.ses.Messages[i+1:] {
		if m.Role != "tool" || m.Tool == nil {
			continue
		}
		if !m.Tool.IsError {
			return ""
		}
		results++
		b.WriteString(m.Tool.Name + "\x00" + string(m.Tool.Args) + "\x00" + m.Content + "\x00")
	}
	if results == 0 {
		return ""
	}
	return b.String()
}

// turn streams one model reply into a new assistant message and returns its index and the
// tool calls it made.
func (r *runner) turn(ctx context.Context) (int, []provider.ToolCall) {
	e := r.e
	var mems []store.Memory
	if r.st.Memories && r.st.MemoryCount > 0 {
		if all, err := e.Store.Memories(ctx); err == nil {
			mems = store.TopMemories(all, r.st.MemoryCount)
		}
	}
	var page *store.Page
	mark := ""
	if i := lastUser(r.ses.Messages); i >= 0 {
		page = r.ses.Messages[i].Page // only the latest user message's page goes with the request
		mark = markOf(r.ses.Messages[i].ID)
	}
	system := SystemContent(r.st.SystemPrompt, mems, page, mark)
	vision := provider.SeesImages(r.p, r.model) && !r.blind
	resumed := r.resume
	r.resume = false
	var req provider.Request
	var err error
	var base, baseReasoning string // a resumed reply's text before it goes on
	var before *provider.Usage     // and the tokens it had cost
	if resumed {
		// The model reads the chat with its cut reply last and is asked to go on with it; what
		// it writes is added to that reply, which reads whole once it ends.
		ask := append(slices.Clone(r.ses.Messages), store.Message{Role: "user", Content: continueInstruction})
		req, err = r.request(ctx, system, vision, ask, false)
	} else {
		req, err = r.request(ctx, system, vision, r.ses.Messages, false)
		r.ses.Messages = append(r.ses.Messages, store.Message{ID: NewID(), Role: "assistant"})
	}
	i := len(r.ses.Messages) - 1
	msg := &r.ses.Messages[i]
	if resumed {
		base, baseReasoning, before = msg.Content, msg.Reasoning, msg.Usage
		*msg = store.Message{ID: msg.ID, Role: "assistant", Content: base, Reasoning: baseReasoning, Versions: msg.Versions, Version: msg.Version}
	}
	msg.CreatedAt, msg.Status, msg.Provider, msg.Model = e.now(), store.StatusStreaming, r.p.ID, r.model
	if len(r.versions) > 0 && !resumed {
		msg.Versions, msg.Version, r.versions = r.versions, len(r.versions), nil
	}
	if err != nil {
		msg.Status, msg.Error = store.StatusError, store.Failure("storage", sayCouldNotRead.With(err))
		_ = r.save(ctx)
		return i, nil
	}
	if err := r.save(ctx); err != nil {
		msg.Status, msg.Error = store.StatusError, store.Failure("storage", sayCouldNotSave.With(err))
		return i, nil
	}
	r.message(i)

	var content, reasoning strings.Builder
	content.WriteString(base)
	var join *joiner // a continued reply: its start is held while it may repeat the reply's end
	if resumed {
		join = newJoiner(base)
	}
	var unopened unopenedThoughts
	text := func(t string) {
		if unopened.lead { // past a </think> the template opened: the blank lines before the answer
			if t = strings.TrimLeft(t, " \t\r\n"); t == "" {
				return
			}
			unopened.lead = false
		}
		content.WriteString(t)
		if r.st.Streaming && t != "" {
			r.emit(Update{Type: UpdateDelta, SessionID: r.ses.ID, MessageID: msg.ID, Text: t})
		}
	}
	reasoning.WriteString(baseReasoning)
	lastFlush := e.Now()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	drafts := newDrafter(context.WithoutCancel(ctx), e.Store, r.ses.ID, stop)
	defer drafts.close() // a fault in the turn leaves no draft to write after the chat is saved
	flush := func() {
		msg.Content, msg.Reasoning = content.String(), reasoning.String()
		lastFlush = e.Now()
		drafts.put(*msg)
	}
	var calls []provider.ToolCall
	finishRaw, finishSaid := "", "" // the provider's word for the finish, and what it said of it
	// How often the turn was asked again after a call the provider could not read, and what
	// the model was told then.
	badCalls, hint := 0, ""
	blankTries := 0 // asked again after a reply with nothing in it
	fits, tight := 0, false
	limit, used := 0, 0 // the window and the request's count, as a context error gives them
	// A reply that goes on far past the length limit (a server that ignores max_tokens, a
	// small model looping) is cut there: a scheduled run has no one to press Stop.
	runaway, most := false, RunawayBytes(r.st.MaxTokens)
	// Ollama fits a conversation longer than the window it loaded the model with by leaving
	// out its start without a word. Skiff fits it first (its latest turns, the latest page
	// read), and the reply says so and how to give the model more room. A model not loaded yet
	// tells its window once the reply is in.
	window, need := 0, requestSize(req)
	if !resumed {
		window = r.serverWindow(ctx)
		if room := windowBytes(window, r.st.MaxTokens); window > 0 && need > room {
			short := SystemContent(r.st.SystemPrompt, mems, fitPage(page), mark)
			if again, _, cut, err := r.fit(ctx, system, short, vision, r.ses.Messages[:i], room, false); err == nil {
				req, tight = again, cut
				msg.SetNotice(sayServerWindow.With(r.model, window, aboutTokens(need)))
			}
		}
	}
	for attempt := 0; ; attempt++ {
		for ev := range r.p.Stream(sctx, e.Doer, r.key, req) {
			if runaway {
				continue // what comes after the cut, until the stream closes
			}
			if msg.FirstMs == 0 && (ev.Kind == provider.EventText || ev.Kind == provider.EventReasoning || ev.Kind == provider.EventToolCall) {
				msg.FirstMs = max(1, e.now()-msg.CreatedAt)
			}
			switch ev.Kind {
			case provider.EventText:
				if join != nil {
					text(join.add(ev.Text))
				} else {
					text(ev.Text)
				}
				if !unopened.done && base == "" {
					unopened.check(&content, &reasoning, func() {
						msg.Content, msg.Reasoning = content.String(), reasoning.String()
						r.message(i) // the panel shows the thoughts folded from now on
					})
				}
			case provider.EventReasoning:
				reasoning.WriteString(ev.Text)
				if r.st.Streaming {
					r.emit(Update{Type: UpdateDelta, SessionID: r.ses.ID, MessageID: msg.ID, Reasoning: ev.Text})
				}
			case provider.EventToolCall:
				calls = append(calls, *ev.ToolCall)
			case provider.EventUsage:
				msg.Usage = ev.Usage
			case provider.EventFinish:
				msg.Status, msg.Finish, finishRaw, finishSaid = "", ev.Finish.Reason, ev.Finish.Raw, ev.Finish.Message
			case provider.EventError:
				msg.Status, msg.Error = store.StatusError, errorInfo(r.p, ev.Err)
				limit, used = provider.AsError(r.p, ev.Err).Window()
			}
			if content.Len()+reasoning.Len()-len(base)-len(baseReasoning) > most {
				runaway = true
				stop()
			}
			if msg.Status == store.StatusStreaming && e.Now().Sub(lastFlush) >= e.FlushEvery {
				flush()
			}
		}
		if join != nil {
			text(join.end()) // what was held: the reply ended, or failed after it began
		}
		nothing := content.Len() == len(base) && reasoning.Len() == len(baseReasoning) && len(calls) == 0
		// Whether the turn said anything: a call, or words (what it thought alone is no reply).
		said := len(calls) > 0 || strings.TrimSpace(content.String()[len(base):]) != ""
		if len(calls) == 0 && msg.Error == nil && msg.Finish == provider.FinishBadCall && badCalls < MaxBadCalls {
			// The model wrote a call its provider could not read and dropped (Gemini's
			// MALFORMED_FUNCTION_CALL, often a call written as Python), maybe after words that
			// led up to it ("I'll open the menu."): the turn is asked again (as Gemini CLI does),
			// and the model told what went wrong. The words it had shown go: the turn writes them
			// again, with its call.
			badCalls++
			req.System = strings.TrimSuffix(req.System, hint)
			hint = "\n\n" + badCallHint(finishSaid)
			req.System += hint
			shown := said
			content.Reset()
			content.WriteString(base)
			unopened = unopenedThoughts{}
			msg.Status, msg.Finish, finishRaw, finishSaid = store.StatusStreaming, "", "", ""
			if shown {
				msg.Content = content.String()
				r.message(i)
			}
			continue
		}
		if !said && msg.Error == nil && (msg.Finish == "stop" || msg.Finish == "") && !resumed && blankTries == 0 {
			// A model that ended its turn with nothing in it (Gemini does, most often deep in an
			// agent run: reported against Gemini CLI and LiteLLM) is asked once more, as it was.
			blankTries++
			content.Reset()
			content.WriteString(base)
			unopened = unopenedThoughts{}
			msg.Status, msg.Finish, finishRaw, finishSaid = store.StatusStreaming, "", "", ""
			continue
		}
		if msg.Error == nil || !nothing {
			break // it answered, or failed after the reply began: what came is kept
		}
		// A resumed reply is not sent again without pictures nor fitted: both rebuild the
		// request from the chat, without the reply it goes on with.
		if vision && !resumed && msg.Error.Kind == string(provider.KindNoImages) {
			// The model cannot read pictures after all (its name made it seem it could): the
			// turn goes again without them, and the rest of the run too.
			vision, r.blind = false, true
			again, err := r.request(ctx, system, false, r.ses.Messages[:i], tight)
			if err != nil {
				break
			}
			req, msg.Status, msg.Error = again, store.StatusStreaming, nil
			continue
		}
		if msg.Error.Kind == string(provider.KindContextLength) && fits < maxFits && !tight && !resumed {
			// The conversation does not fit the model's window (a small local model, a long
			// chat, a long run of page reads): again with its latest turns, as many as the
			// window the error tells of takes (half as much when it tells nothing), and, when
			// even the latest turn alone is too long, with that turn only, one page read, one
			// picture and a shorter page. The reply says what was left out.
			fits++
			budget := requestSize(req) / 2
			if limit > 0 {
				budget = int(float64(requestSize(req)) * float64(limit) / float64(used) * 0.9)
			}
			short := SystemContent(r.st.SystemPrompt, mems, fitPage(page), mark)
			again, says, cut, err := r.fit(ctx, system, short, vision, r.ses.Messages[:i], budget, fits == maxFits)
			if err != nil {
				break
			}
			tight = cut
			req, msg.Status, msg.Error = again, store.StatusStreaming, nil
			msg.SetNotice(says)
			continue
		}
		if req.Temperature != nil && msg.Error.Kind == string(provider.KindBadRequest) && strings.Contains(strings.ToLower(msg.Error.Message), "temperature") {
			// A model that takes only its own temperature (a reasoning model under a name
			// Skiff does not know): the turn goes again without one, and so do later ones.
			r.e.ownTemperature.Store(r.p.ID+"\x00"+r.model, true)
			req.Temperature, msg.Status, msg.Error = nil, store.StatusStreaming, nil
			continue
		}
		// A provider busy for a moment (overloaded, a 5xx, a short rate limit) is asked again
		// after a pause, before anything is said: a run left alone, a scheduled one, does not
		// end on a passing 529. The pause shows under the reply while it lasts.
		wait, ok := retryWait(msg.Error, attempt)
		if !ok {
			break
		}
		failed, notice, noticeText := msg.Error, msg.Notice, msg.NoticeText
		msg.Status, msg.Error = store.StatusStreaming, nil
		msg.SetNotice(sayRetrying.With(r.p.Name, int(math.Ceil(wait.Seconds()))))
		r.message(i)
		waited := pause(sctx, wait)
		msg.Notice, msg.NoticeText = notice, noticeText
		if !waited {
			if ctx.Err() == nil {
				msg.Status, msg.Error = store.StatusError, failed
			}
			break // stopped by the user: the reply is stopped
		}
		r.message(i)
	}
	// The last draft written (or given up) before the reply is saved whole: a draft written
	// after it would bring back a streaming copy of it.
	storeErr := drafts.close()
	msg.Content, msg.Reasoning = content.String(), reasoning.String()
	ended := msg.Status == "" && (msg.Finish == "stop" || msg.Finish == "") && !runaway
	if ended && len(calls) == 0 && len(req.Tools) > 0 {
		// A local model whose server did not read its calls sends them as its text (the JSON
		// of a call, and finish "stop"): they are the calls it made, not a reply to show.
		if written, words, ok := provider.CallsInText(strings.TrimPrefix(msg.Content, base), req.Tools); ok {
			calls, msg.Content, msg.Finish = written, base+words, "tool_calls"
		}
	}
	msg.DoneMs = max(1, e.now()-msg.CreatedAt)
	if !resumed && window == 0 && msg.Status == "" && msg.Notice == "" && ctx.Err() == nil {
		// The model was loaded for this turn: its window is known now, and Ollama may have left
		// out the start of what it was sent.
		if w := r.serverWindow(ctx); w > 0 && requestSize(req) > windowBytes(w, r.st.MaxTokens) {
			msg.SetNotice(sayServerWindow.With(r.model, w, aboutTokens(requestSize(req))))
		}
	}
	if before != nil { // the reply's tokens, both parts together
		u := *before
		if msg.Usage != nil {
			u = u.Plus(*msg.Usage)
		}
		msg.Usage = &u
	}
	msg.ToolCalls = r.uniqueIDs(calls)
	calls = msg.ToolCalls
	switch {
	case storeErr != nil:
		msg.Status = store.StatusError
		msg.Error = store.Failure("storage", sayCouldNotSave.With(storeErr))
	case runaway && ctx.Err() == nil:
		// Its calls are not run: a reply that ran away is not one to act on.
		msg.Status, msg.Error, msg.Finish, msg.ToolCalls, calls = "", nil, "length", nil, nil
		msg.SetNotice(sayRunaway.With(r.st.MaxTokens))
	case msg.Status == store.StatusStreaming && ctx.Err() != nil:
		msg.Status = store.StatusStopped
	case msg.Status == store.StatusStreaming:
		msg.Status, msg.Error = store.StatusError, store.Failure(string(provider.KindTruncated), sayNoFinish.With())
	case msg.Status == "" && msg.NoticeText == nil:
		// A reply that ended for another reason than its end says why, or it would read as
		// whole (cut at the length limit) or as nothing at all (a safety filter).
		switch msg.Finish {
		case "", "stop", "tool_calls":
			if strings.TrimSpace(msg.Content) == "" && len(msg.ToolCalls) == 0 {
				msg.SetNotice(sayEmptyReply.With()) // a bubble with nothing in it says nothing
			}
		case "length":
			if r.st.MaxTokens > 0 {
				msg.SetNotice(sayLength.With(r.st.MaxTokens))
			} else {
				msg.SetNotice(sayModelLength.With())
			}
		case "context_full":
			msg.SetNotice(sayContextFull.With())
		case "content_filter":
			msg.SetNotice(sayFiltered.With(finishRaw))
		case provider.FinishBadCall:
			msg.SetNotice(sayBadCall.With(r.p.Name, finishRaw))
		default:
			msg.SetNotice(sayOddFinish.With(finishRaw))
		}
	}
	if err := r.save(ctx); err != nil {
		msg.Status = store.StatusError
		msg.Error = store.Failure("storage", sayCouldNotSave.With(err))
	}
	if msg.Status != "" {
		// A stopped or failed turn runs none of its calls; they are answered in history.
		return i, nil
	}
	r.message(i)
	return i, calls
}

// RetryWaits are the pauses before asking a provider again after a passing failure, one per
// retry; MaxRetryAfter is the longest wait a provider may ask for that is waited out.
var (
	RetryWaits    = []time.Duration{time.Second, 4 * time.Second}
	MaxRetryAfter = 20 * time.Second
)

// retryWait says whether a turn that failed with info before anything came is asked again
// (the attempt-th time), and after how long.
func retryWait(info *store.ErrorInfo, attempt int) (time.Duration, bool) {
	if attempt >= len(RetryWaits) {
		return 0, false
	}
	switch provider.ErrorKind(info.Kind) {
	case provider.KindOverloaded, provider.KindServer:
	case provider.KindRateLimit:
		if after := time.Duration(info.RetryAfterMs) * time.Millisecond; after > 0 {
			return after, after <= MaxRetryAfter
		}
	default:
		return 0, false
	}
	return RetryWaits[attempt], true
}

// pause waits d, and reports false when ctx ends first.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// RunawayBytes is how long a reply may grow, text and thinking, under a length limit of
// maxTokens: 16 bytes a token, past what any model writes in its limit and the thinking room
// some are given on top of it.
func RunawayBytes(maxTokens int) int {
	return 16 * (max(maxTokens, provider.DefaultMaxTokens) + provider.ThinkingRoom)
}

// unopenedThoughts finds, in a reply as it comes, the thoughts of a model whose chat template
// opened them (provider.UnopenedThoughts): the words before its "</think>" move to the
// reply's reasoning once the tag comes. Only a reply that starts the turn and has no thoughts
// of the provider's own is read so.
type unopenedThoughts struct {
	done bool // split, or the reply is not one to split
	from int  // the reply before this holds no tag
	lead bool // just split: the blank lines that follow are dropped
}

func (u *unopenedThoughts) check(content, reasoning *strings.Builder, moved func()) {
	if reasoning.Len() > 0 {
		u.done = true
		return
	}
	s := content.String()
	u.from = min(u.from, len(s)) // the reply may have started again (a turn asked again)
	at := strings.Index(s[max(0, u.from-len("</think>")+1):], "</think>")
	if at < 0 {
		u.from = len(s)
		return
	}
	at += max(0, u.from-len("</think>")+1)
	thoughts, rest, ok := provider.UnopenedThoughts(s)
	switch {
	case ok:
		reasoning.WriteString(thoughts)
		content.Reset()
		content.WriteString(rest)
		u.done, u.lead = true, rest == ""
		moved()
	case strings.TrimSpace(s[at+len("</think>"):]) != "":
		u.done = true // a reply that speaks of the tag
	}
	// else the tag ends what came so far: the next piece decides
}

// serverWindow is the window a local server that fits conversations without a word loaded
// the model with (Ollama's), 0 when it does not say; it asks for at most two seconds.
func (r *runner) serverWindow(ctx context.Context) int {
	if r.window > 0 {
		return r.window // known for the run: one question to the server, not one a step
	}
	wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	r.window = r.p.LoadedWindow(wctx, r.e.Doer, r.model)
	return r.window
}

// windowBytes is how much of requestSize a window of tokens takes, with room left for the
// reply (at most a quarter of it): 3 bytes a token, as tools and JSON count more tokens a byte
// than prose. 0 for no window.
func windowBytes(tokens, maxTokens int) int {
	if tokens <= 0 {
		return 0
	}
	return (tokens - min(max(maxTokens, 256), tokens/4)) * 3
}

// aboutTokens is what a request of size bytes (requestSize) counts, as windowBytes reads it,
// to the hundred.
func aboutTokens(size int) int { return (size/3 + 50) / 100 * 100 }

// maxFits is how many times a turn is fitted to a model's window before its error stands.
const maxFits = 3

// imageSize is what a picture counts for in requestSize: about a thousand tokens.
const imageSize = 4000

// requestSize is how much of a model's window req takes, in bytes of what it counts tokens
// of: the system prompt, the tools, the messages' text and calls, and their pictures.
func requestSize(req provider.Request) int {
	n := len(req.System)
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.Reasoning) + len(m.Images)*imageSize
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Args)
		}
	}
	return n
}

// fit is the request for the turn after history that is no larger than budget (requestSize):
// its latest turns, from the earliest user message whose request is small enough, and the
// notice that says how many messages the model did not get. When even the latest turn alone
// is too large, or when last, it is that turn alone, tight (one page read, one picture), with
// the system prompt short (its page cut), and tight is true.
func (r *runner) fit(ctx context.Context, system, short string, vision bool, history []store.Message, budget int, last bool) (req provider.Request, says i18n.Text, tight bool, err error) {
	var users []int
	for j, m := range history {
		if m.Role == "user" && j > 0 {
			users = append(users, j)
		}
	}
	// The requests grow as the cut moves back: the earliest that fits is found by halves.
	best := -1
	for lo, hi := 0, len(users); !last && lo < hi; {
		mid := (lo + hi) / 2
		try, err := r.request(ctx, system, vision, history[users[mid]:], false)
		if err != nil {
			return try, i18n.Text{}, false, err
		}
		if requestSize(try) <= budget {
			best, req, hi = mid, try, mid
		} else {
			lo = mid + 1
		}
	}
	if best >= 0 {
		left := 0
		for _, m := range history[:users[best]] {
			if m.Role == "user" || m.Role == "assistant" {
				left++
			}
		}
		return req, sayFittedSome.With(left), false, nil
	}
	from := max(lastUser(history), 0)
	req, err = r.request(ctx, short, vision, history[from:], true)
	return req, sayFitted.With(), true, err
}

// fitPage is page with its text cut to fitPageText characters, for a model whose window the
// whole page did not fit (nil stays nil).
func fitPage(page *store.Page) *store.Page {
	if page == nil || len(page.Text) <= fitPageText {
		return page
	}
	p := *page
	cut := fitPageText
	for cut > 0 && !utf8.RuneStart(p.Text[cut]) {
		cut--
	}
	p.Text, p.Truncated = p.Text[:cut], true
	return &p
}

const fitPageText = 6000

// request is the model's request for the turn after history: the system prompt and its agent
// instructions, the tools, and the history, with its pictures when vision. A model that does
// not see gets none, and the user message whose pictures are left out says so.
func (r *runner) request(ctx context.Context, system string, vision bool, history []store.Message, tight bool) (provider.Request, error) {
	if i := lastUser(history); i >= 0 && !vision {
		if m := &history[i]; len(m.Images) > 0 && m.NoticeText == nil && pictures(m.Images) {
			m.SetNotice(sayNoVision.With()) // stored with the reply
			r.message(i)
		}
	}
	req := provider.Request{Model: r.model, MaxTokens: r.st.MaxTokens}
	if _, own := r.e.ownTemperature.Load(r.p.ID + "\x00" + r.model); !own {
		t := r.st.Temperature
		req.Temperature = &t
	}
	if r.ses.Agent {
		system += "\n\n" + AgentInstructions(vision)
		req.Tools = offered(vision, uploadable(attachedIDs(r.ses)))
		if r.planning() {
			system += "\n\n" + PlanningInstructions
			req.Tools = planningTools(req.Tools)
		}
	}
	req.System = system
	msgs, err := r.e.history(ctx, history, vision, r.ses.Agent, tight)
	req.Messages = msgs
	return req, err
}

// uniqueIDs gives every call an id no other call of the session has: a tool result is found
// by its call's id, and Gemini's API gives calls none (its decoder numbers them from call_0 in
// every reply, so each turn's first call would answer to the last turn's result).
func (r *runner) uniqueIDs(calls []provider.ToolCall) []provider.ToolCall {
	seen := map[string]bool{}
	for _, m := range r.ses.Messages {
		for _, c := range m.ToolCalls {
			seen[c.ID] = true
		}
	}
	for i := range calls {
		if calls[i].ID == "" || seen[calls[i].ID] || r.p.Format == provider.FormatGoogle {
			calls[i].ID = "call_" + NewID()
		}
		seen[calls[i].ID] = true
	}
	return calls
}

// offered is the tool list a model gets: all of them, but screenshots only for models that
// see images, and the tools that give a page files only when the chat holds some (files).
func offered(vision, files bool) []provider.Tool {
	var out []provider.Tool
	for _, t := range tool.Offered() {
		if t.Files && !files || t.Name == "screenshot" && !vision {
			continue
		}
		out = append(out, provider.Tool{Name: t.Name, Description: t.Description, Schema: t.Schema})
	}
	return out
}

// call runs one tool call through the guarded path: a tool message is stored (pending), then
// described, asking while the user is asked, running, and its outcome; every state is saved
// before it is reported.
func (r *runner) call(ctx context.Context, c provider.ToolCall) {
	if c.Name == ProposePlan || r.planning() {
		if r.plan(ctx, c) {
			return
		}
	}
	var run json.RawMessage
	if len(r.values) > 0 && typing[c.Name] {
		if filled, err := workflow.Fill(c.Args, r.values); err == nil {
			run = filled
		}
	}
	r.callWith(ctx, c, run)
}

// toolMessage adds call c to the chat as a pending tool message and returns its index.
func (r *runner) toolMessage(c provider.ToolCall) int {
	risk := permission.RiskPlan
	if t, ok := tool.Lookup(c.Name); ok {
		risk = string(t.Risk)
	}
	m := store.Message{ID: NewID(), Role: "tool", CreatedAt: r.e.now(), Status: store.StatusPending,
		Tool: &store.ToolRun{CallID: c.ID, Name: c.Name, Args: c.Args, Risk: risk}}
	if len(m.Tool.Args) == 0 || !json.Valid(m.Tool.Args) {
		m.Tool.Args = json.RawMessage("{}")
	}
	r.ses.Messages = append(r.ses.Messages, m)
	return len(r.ses.Messages) - 1
}

// finishOf is why the reply that made call id ended (its Finish).
func (r *runner) finishOf(id string) string {
	for k := len(r.ses.Messages) - 1; k >= 0; k-- {
		m := r.ses.Messages[k]
		for _, c := range m.ToolCalls {
			if m.Role == "assistant" && c.ID == id {
				return m.Finish
			}
		}
	}
	return ""
}

// typing are the tools whose arguments carry values a person types.
var typing = map[string]bool{"type": true, "fill_form": true, "select_option": true, "dialog": true}

// callWith is call for a call that runs with other arguments than the ones it stores and shows
// (a workflow's step with a secret value masked in c.Args); nil: c.Args.
func (r *runner) callWith(ctx context.Context, c provider.ToolCall, run json.RawMessage) {
	i := r.toolMessage(c)
	if ctx.Err() != nil {
		r.finish(ctx, i, store.StatusStopped, "The user stopped the run before this call.", true)
		return
	}
	if c.Incomplete {
		if r.finishOf(c.ID) == "length" {
			r.finish(ctx, i, store.StatusError, "The call's arguments were cut off (the reply hit its token limit). Make the call again, shorter.", true)
		} else {
			r.finish(ctx, i, store.StatusError, "The call's arguments are not valid JSON ("+clipText(string(c.Args), 200)+"). Make the call again, with its arguments as one JSON object that matches the tool's parameters (double quotes around names and strings).", true)
		}
		return
	}
	if !r.replaying {
		if err := r.save(ctx); err != nil {
			r.finish(ctx, i, store.StatusError, "Skiff could not save this call: "+i18n.Said(err).English(), true)
			return
		}
	}
	r.message(i)
	r.gated(ctx, i, run, time.Time{}, 0)
}

// finish stores a tool message's outcome and reports it.
func (r *runner) finish(ctx context.Context, i int, status, content string, isError bool) {
	msg := &r.ses.Messages[i]
	msg.Status, msg.Content, msg.Tool.IsError = status, content, isError
	if r.replaying && status == "" {
		r.message(i) // stored with what follows (see runner.replaying)
		return
	}
	if err := r.save(ctx); err != nil {
		msg.Status, msg.Tool.IsError = store.StatusError, true
		msg.Content = "Skiff could not save this result: " + i18n.Said(err).English()
	}
	r.message(i)
}

// gated takes the call of tool message i through the guarded path, storing and showing each
// state: described, asking (askedAt: when it first asked, for a call a restart cut off while it
// asked), running, and what came of it. It runs with run when not nil (see callWith), else with
// the stored arguments. A batch starts at step from.
func (r *runner) gated(ctx context.Context, i int, run json.RawMessage, askedAt time.Time, from int) {
	e := r.e
	msg := &r.ses.Messages[i]
	show := func() {
		if r.save(ctx) == nil {
			r.message(i)
		}
	}
	args := msg.Tool.Args
	if run != nil {
		args = run
	}
	// The tabs the call opens (told as it runs them), for a workflow saved from the chat.
	opened := collectOpened(r.task.Env)
	o := e.guard(ctx, r.task, guarded{ID: msg.ID, Name: msg.Tool.Name, Args: args, AskedAt: askedAt, From: from, Secrets: r.secrets, Replay: r.replaying}, watch{
		resolved: func(f *tool.Effect, c permission.Call, k, n int) {
			msg.Tool.What, msg.Tool.WhatText, msg.Tool.URL, msg.Tool.Origin = c.What, c.WhatText, f.URL, c.Origin
			msg.Tool.Sensitive, msg.Tool.Risk, msg.Tool.Irreversible = c.Sensitive, c.Risk, f.Irreversible()
			msg.Tool.LeadsTo = ""
			if lt := weburl.Origin(f.LeadsTo); lt != "" && lt != f.Origin() {
				msg.Tool.LeadsTo = f.LeadsTo
			}
			msg.Tool.TabID = r.task.Env.TabID()
			msg.Tool.In = workedIn(f, r.task.Env)
			msg.Tool.Step = k
			msg.Tool.Elements = described(msg.Tool.Elements, f)
			if msg.Tool.At == "" {
				msg.Tool.At = f.URL
			}
			// Shown at once; stored with the state that follows (asking, running, or how the
			// gate ruled), which always comes and always saves: one write fewer per call.
			if msg.Status == store.StatusPending || n > 1 {
				r.message(i)
			}
		},
		asking: func(why i18n.Text) {
			msg.Status = store.StatusAsking
			msg.Tool.AskedAt = e.now()
			msg.Tool.SetAsks(why)
			if !askedAt.IsZero() {
				msg.Tool.AskedAt = askedAt.UnixMilli()
			}
			show()
		},
		running: func() {
			msg.Status = store.StatusRunning
			if msg.Tool.StartedAt == 0 {
				msg.Tool.StartedAt = e.now()
			}
			show()
		},
	})
	msg.Tool.Opened = opened()
	msg.Tool.Decision, msg.Tool.DecisionText = o.Ruling.How(), said(o.Ruling)
	if msg.Tool.StartedAt > 0 {
		msg.Tool.DurationMs = e.now() - msg.Tool.StartedAt
	}
	switch {
	case o.Status == store.StatusStopped && !o.Ran:
		r.finish(ctx, i, store.StatusStopped, "The user stopped the run before this call.", true)
	case o.Status == store.StatusStopped:
		r.finish(ctx, i, store.StatusStopped, "The user stopped the run while this call was running; it may have done part of its work.", true)
	case o.Status != "":
		if o.Quotes {
			msg.Tool.Summary = clipText(o.Text, 120)
			msg.Tool.Flags = safety.Flag(o.Text)
			msg.Tool.Quoted = true
		}
		r.finish(ctx, i, o.Status, o.Text, true)
	default:
		res := o.Result
		msg.Tool.Summary, msg.Tool.SummaryText, msg.Tool.Untrusted = res.Summary, res.SummaryText, res.Untrusted
		msg.Tool.Checked, msg.Tool.Refused, msg.Tool.Path = res.Checked, res.Refused, res.Path
		msg.Tool.Flags = safety.Flag(res.Text)
		if res.URL != "" {
			msg.Tool.URL, msg.Tool.Origin = res.URL, origin(res.URL)
		}
		msg.Tool.TabID = r.task.Env.TabID()
		if res.Image != nil {
			id := NewID()
			if store.Private(r.ses.ID) {
				id = store.PrivatePrefix + id
			}
			sctx := context.WithoutCancel(ctx)
			if c, err := e.Store.Begin(sctx, store.Pending{Session: r.ses.ID, Images: []string{id}}); err == nil {
				if err := e.Store.SaveImage(sctx, id, store.StoredImage{Mime: res.Image.Mime, Data: res.Image.Data}); err == nil {
					msg.Tool.Image = id
					r.unsaved = append(r.unsaved, c.Done)
				} else {
					c.Abandon()
				}
			}
		}
		r.finish(ctx, i, "", res.Text, false)
	}
}

func origin(u string) string { return weburl.Origin(u) }

// collectOpened collects the tabs the call about to run opens (Env.OnOpen), for a workflow made
// of it; the func it returns stops collecting and gives them.
func collectOpened(env *tool.Env) func() []int {
	var mu sync.Mutex
	var ids []int
	stop := env.OnOpen(func(id int) {
		mu.Lock()
		defer mu.Unlock()
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	})
	return func() []int {
		stop()
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(ids)
	}
}

// workedIn is the tab a call described as f works in: the one it names, else the task's current.
func workedIn(f *tool.Effect, env *tool.Env) int {
	if f.TabID > 0 {
		return f.TabID
	}
	return env.TabID()
}

// described adds the elements a call's refs name (Effect.Named) to those of its earlier steps,
// once each.
func described(have []tool.Element, f *tool.Effect) []tool.Element {
	add := func(e *tool.Element) {
		if e == nil || e.Ref == "" || slices.ContainsFunc(have, func(h tool.Element) bool { return h.Ref == e.Ref }) {
			return
		}
		have = append(have, *e)
	}
	for _, e := range f.Named() {
		add(e)
	}
	return have
}

// flagPage notes what in an attached page reads like instructions to the model.
func flagPage(p *store.Page) {
	p.Flags = safety.Flag(p.Title + "\n" + p.Selection + "\n" + p.Text)
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// drafter writes a streaming reply's drafts to storage off the streaming loop, so deltas never
// wait on a storage write: put hands it the newest copy (replacing one still waiting), and it
// writes one at a time. A write that fails stops the stream (stop). close waits for the write
// under way, drops what still waits, and says whether a write failed.
type drafter struct {
	next chan store.Message // holds at most the newest draft
	done chan struct{}
	once sync.Once // close's work
	mu   sync.Mutex
	err  error
}

func newDrafter(ctx context.Context, st *store.Store, sessionID string, stop func()) *drafter {
	d := &drafter{next: make(chan store.Message, 1), done: make(chan struct{})}
	go func() {
		defer close(d.done)
		defer func() { // a fault in a write: the stream stops, as on a failed write
			if p := recover(); p != nil {
				d.mu.Lock()
				d.err = fmt.Errorf("%v", p)
				d.mu.Unlock()
				stop()
			}
		}()
		for m := range d.next {
			if err := st.SaveDraft(ctx, sessionID, &m); err != nil {
				d.mu.Lock()
				if d.err == nil {
					d.err = err
				}
				d.mu.Unlock()
				stop()
			}
		}
	}()
	return d
}

func (d *drafter) put(m store.Message) {
	for {
		select {
		case d.next <- m:
			return
		default:
		}
		select {
		case <-d.next: // an older draft no one wrote yet: the newer one replaces it
		default:
		}
	}
}

func (d *drafter) close() error {
	d.once.Do(func() {
		select {
		case <-d.next:
		default:
		}
		close(d.next)
		<-d.done
	})
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Safe runs f, and a fault of Skiff's own in it (a panic: a bug) ends f, not the worker that
// runs every chat: it is written to the worker's console, named what. For the work a goroutine
// does on its own (go Safe("…", f)): a fault there has no caller to fail.
func Safe(what string, f func()) {
	defer func() {
		if p := recover(); p != nil {
			Fault(what, p)
		}
	}()
	f()
}

// Fault writes a fault of Skiff's own that was recovered (p, in what) and where it happened to
// the worker's console, for a report.
func Fault(what string, p any) {
	fmt.Fprintf(os.Stderr, "skiff: a fault in %s: %v\n%s", what, p, debug.Stack())
}
