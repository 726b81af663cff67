// Package agent is the streaming engine, a loop over turns: the conversation goes to the
// provider, the reply streams into the session, the tool calls it makes pass the permission
// gate and run in the browser, their results go back to the model, and so on until the model
// answers without tools, the step limit is reached, or the user stops. Every step is in the
// store before it is reported, so a worker killed at any moment loses at most FlushEvery of
// text, and a run cut by a restart is marked interrupted, never replayed.
package agent

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
)

// Update types.
const (
	UpdateSession = "chat.session" // Session: the whole session, as a run starts
	UpdateMessage = "chat.message" // Message: a message added or changed (a tool's progress, a new step)
	UpdateDelta   = "chat.delta"   // Text or Reasoning to append to message MessageID
	UpdateDone    = "chat.done"    // Message: the run's last message; the run is over
	UpdateQueue   = "chat.queue"   // Queue: the messages waiting in the session (none: empty)
)

// Update is what the engine reports while it works. The panel renders from these.
type Update struct {
	Type      string         `json:"type"` // one of the Update* constants
	SessionID string         `json:"sessionId"`
	MessageID string         `json:"messageId,omitempty"`
	Text      string         `json:"text,omitempty"`      // delta: visible text to append
	Reasoning string         `json:"reasoning,omitempty"` // delta: reasoning to append
	Session   *store.Session `json:"session,omitempty"`   // session: the whole session
	Message   *store.Message `json:"message,omitempty"`   // message, done: the message
	Queue     []store.Queued `json:"queue,omitempty"`     // queue: what waits, oldest first
}

// Engine runs chats. One run per session at a time.
type Engine struct {
	Store *store.Store
	Doer  provider.Doer
	// Browser runs the tools; nil means there is none (tests of chat alone).
	Browser tool.Browser
	// Gate decides whether each tool call may run. Nil allows reads and denies the rest.
	Gate Gate
	// FlushEvery bounds how much streamed text a killed worker can lose.
	FlushEvery time.Duration
	// ToolTimeout bounds one tool call, page operations and waits included.
	ToolTimeout time.Duration
	// Now is the clock; tests set it.
	Now func() time.Time

	// Hosted runs the chats whose provider is an agent skiffd hosts ("acp:NAME"); nil when no
	// skiffd is linked.
	Hosted Hosted

	mu      sync.Mutex
	running map[string]*claim     // by session id
	claims  uint64                // how many runs ever started: Session's repair checks none did
	hosted  map[string]*hostedRun // hosted chats' turns, by session id
	edits   map[string]store.Plan // plans the user edited as they approved them, by message id
	// ownTemperature holds the models (provider id, NUL, model) that refused the temperature
	// they were sent: they get none for as long as the worker runs.
	ownTemperature sync.Map
	// qmu orders the queues' changes with the end of runs: a message is queued only while a
	// run is going, and a run ends only when its queue is empty (see dequeue).
	qmu sync.Mutex
}

// claim is one run's hold on its session.
type claim struct {
	cancel context.CancelFunc
	ended  chan struct{} // closed when the run lets go of its session
	// over: the run stored its end and said so (chat.done); it lets go of the session in a
	// moment, unless a queued message starts it again. Guarded by Engine.mu.
	over bool
}

// LetGoWait bounds how long a call waits for a run that is over to let go of its chat.
var LetGoWait = 2 * time.Second

// marking passes a run's updates on, noting first when one says the run is over (chat.done),
// or that it goes on after all (a queued message's chat.session): a panel that acts on a chat
// as soon as its reply is done (Regenerate, a rename) finds the run over, and waits the moment
// it takes to let go instead of being told a reply is still streaming.
func (e *Engine) marking(id string, emit func(Update)) func(Update) {
	return func(u Update) {
		if u.Type == UpdateDone || u.Type == UpdateSession {
			e.mu.Lock()
			if c := e.running[id]; c != nil {
				c.over = u.Type == UpdateDone
			}
			e.mu.Unlock()
		}
		emit(u)
	}
}

// letGo waits, when the run holding chat id is over, for it to let go (LetGoWait at most),
// and says whether no run holds the chat now.
func (e *Engine) letGo(ctx context.Context, id string) bool {
	e.mu.Lock()
	c := e.running[id]
	over := c != nil && c.over
	e.mu.Unlock()
	if c == nil {
		return true
	}
	if !over {
		return false
	}
	t := time.NewTimer(LetGoWait)
	defer t.Stop()
	select {
	case <-c.ended:
		return !e.Running(id)
	case <-ctx.Done():
	case <-t.C:
	}
	return false
}

// Busy says whether a run holds chat id, waiting a moment for one that is over to let go.
func (e *Engine) Busy(ctx context.Context, id string) bool {
	return !e.letGo(ctx, id)
}

// New returns an engine with the default flush interval.
func New(st *store.Store, d provider.Doer) *Engine {
	return &Engine{Store: st, Doer: d, FlushEvery: 500 * time.Millisecond, ToolTimeout: 90 * time.Second, Now: time.Now}
}

// Errors Send, Edit and Regenerate return when they cannot start.
var (
	ErrBusy  = errors.New("agent: a reply is still streaming in this session")
	ErrEmpty = errors.New("agent: empty message")
	// ErrKeptChat: a message about a tab in an incognito window, sent in a chat that is kept.
	ErrKeptChat            = errors.New("agent: a kept chat does not take an incognito window's page")
	ErrNothingToEdit       = errors.New("agent: there is no message to edit")
	ErrNothingToRegenerate = errors.New("agent: nothing to regenerate")
	// ErrReplayStart: the message to edit or answer again is a workflow replay's own start.
	ErrReplayStart       = errors.New("agent: a replay's start is not a message to a model")
	ErrNothingToContinue = errors.New("agent: the last reply was not cut")
	ErrNoBrowser         = errors.New("agent: the browser tools are not available here")
)

// NewID returns a random id: 18 hex digits. Ids name sessions, messages and images in local
// storage; they guard nothing, so math/rand/v2 (ChaCha8, seeded by the runtime) serves, and
// core.wasm does without crypto/rand and the math/big it pulls in.
func NewID() string {
	const hexDigits = "0123456789abcdef"
	var b [18]byte
	x, y := rand.Uint64(), rand.Uint64()
	for i := range 16 {
		b[i] = hexDigits[x&15]
		x >>= 4
	}
	b[16], b[17] = hexDigits[y&15], hexDigits[(y>>4)&15]
	return string(b[:])
}

func (e *Engine) now() int64 { return e.Now().UnixMilli() }

// Running reports whether session id has a run in flight in this engine.
func (e *Engine) Running(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.running[id]
	return ok
}

// RunningIDs are the sessions a run is going in now.
func (e *Engine) RunningIDs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	ids := make([]string, 0, len(e.running))
	for id := range e.running {
		ids = append(ids, id)
	}
	return ids
}

// Session loads a session. A message still marked as going on (streaming, a tool pending or
// running) that no run of this engine is writing was cut off by a worker restart: it is
// marked interrupted, and saved so. Nothing is run again. A call still asking keeps asking
// until the ask times out (Settings.AskTimeout; its answer resumes the run, see Resume); then
// it is denied.
//
// The read and the repair must not straddle a run: a run that ends between the read and the
// check would have its finished reply overwritten as interrupted. So the repair is saved only
// if no run is going and none started since before the read, checked under the lock a run
// takes to start, held through the save.
func (e *Engine) Session(ctx context.Context, id string) (*store.Session, error) {
	e.mu.Lock()
	_, busy := e.running[id]
	claims := e.claims
	e.mu.Unlock()
	ses, err := e.Store.Session(ctx, id)
	if err != nil {
		return nil, err
	}
	if busy {
		return ses, nil
	}
	fixed := false
	// A replay the restart cut off stops where it was: its values (secrets among them) were
	// only in the worker's memory, and a step it had started may have run.
	wf := ses.Workflow
	cut := wf != nil && !wf.Done && wf.Stop == ""
	for i := range ses.Messages {
		m := &ses.Messages[i]
		if m.Status == store.StatusAsking && m.Tool != nil && cut {
			// Not the user's "no": no one answered, and the step was not run.
			m.Status, m.Tool.IsError, m.Content = store.StatusStopped, true, "Skiff's worker restarted while this step asked; it was not run."
			m.Tool.Decision, m.Tool.DecisionText = "", nil
			continue
		}
		if m.Status == store.StatusAsking && m.Tool != nil {
			if !e.expire(ctx, m) {
				continue
			}
			fixed = true
			continue
		}
		if store.Live(m.Status) {
			if m.Role == "tool" && m.Content == "" {
				m.Content = interruptedResult
				m.Tool.IsError = true
			}
			m.Status = store.StatusInterrupted
			fixed = true
		}
	}
	if cut {
		said := e.cutReplay(ctx, wf)
		wf.Stop = said.English()
		ses.Messages = append(ses.Messages, e.saying(said))
		fixed = true
	}
	if !fixed {
		return ses, nil
	}
	e.mu.Lock()
	if _, busy := e.running[id]; busy || e.claims != claims {
		e.mu.Unlock()
		return e.Store.Session(ctx, id) // a run started since the read: its statuses are its own
	}
	defer e.mu.Unlock()
	if err := e.Store.SaveSession(ctx, ses); err != nil {
		return nil, err
	}
	return ses, nil
}

// AskTimeout is how long a call waits for the user's answer (Settings.AskTimeout), or longer
// in a run that said so (WithAskWait).
func (e *Engine) AskTimeout(ctx context.Context) time.Duration {
	d := store.DefaultAskSeconds * time.Second
	if st, err := e.Store.Settings(ctx); err == nil {
		d = st.AskTimeout()
	}
	if w, ok := ctx.Value(askWaitKey{}).(time.Duration); ok && w > d {
		return w
	}
	return d
}

type askWaitKey struct{}

// WithAskWait makes the calls run with ctx wait up to d for the user's answer, when that is
// longer than the settings say: a scheduled run starts while the user may be away, and waits
// for them (never going on unanswered) instead of failing two minutes in.
func WithAskWait(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, askWaitKey{}, d)
}

// expire denies the call of tool message m, still asking, if it waited longer than the ask
// timeout, and says whether it did.
func (e *Engine) expire(ctx context.Context, m *store.Message) bool {
	d := e.AskTimeout(ctx)
	if e.now()-m.Tool.AskedAt < d.Milliseconds() {
		return false
	}
	m.Status, m.Content, m.Tool.IsError = store.StatusDenied, NoAnswer(d), true
	expired := permission.Expired(d)
	m.Tool.Decision, m.Tool.DecisionText = expired.English(), &expired
	return true
}

// said is a ruling's words for the card, in the user's language (nil: its English only).
func said(r permission.Ruling) *i18n.Text {
	if r.Said.IsZero() {
		return nil
	}
	return &r.Said
}

// NoAnswer is what the model is told of a call the user did not answer within d.
func NoAnswer(d time.Duration) string { return permission.NoAnswer(d) }

// Span says a duration in words: "2 minutes", "30 seconds", "1 minute 30 seconds".
func Span(d time.Duration) string { return permission.Span(d) }

const interruptedResult = "Skiff's worker restarted before this call finished, so its outcome is unknown; check the page before going on."

// NewSession creates and saves an empty session for the current settings; a private one (a
// chat in an incognito window, kept in memory only: see store.Private) when private is set.
func (e *Engine) NewSession(ctx context.Context, private bool) (*store.Session, error) {
	st, err := e.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	p, _, model, _ := st.Resolve()
	id := p.ID
	if strings.HasPrefix(st.Provider, HostedPrefix) {
		id, model = st.Provider, ""
	}
	now := e.now()
	ses := &store.Session{Header: store.Header{ID: NewID(), Title: "New chat", Provider: id, Model: model, CreatedAt: now, UpdatedAt: now},
		Messages: []store.Message{}}
	if private {
		ses.ID = store.PrivatePrefix + ses.ID
	}
	if err := e.Store.SaveSession(ctx, ses); err != nil {
		return nil, err
	}
	return ses, e.Store.SetActive(ctx, ses.ID)
}

// Input is a request to run: a message (for Send and Edit), the page to attach, the mode,
// and where in the browser the tools start.
type Input struct {
	SessionID string
	Text      string
	// Images are the ids of the images the user attached (stored by SaveImages).
	Images []string
	Attach *Attach
	// Agent, when set, switches the chat between chat and agent (tools on).
	Agent *bool
	// Plan, when set, turns planning first on or off for the chat's runs.
	Plan *bool
	// WindowID and TabID are where the tools work first (0: the active tab of the last
	// focused window).
	WindowID, TabID int
	// Private: the message is about a tab in an incognito window. It starts a private chat
	// (kept in memory only), and a kept chat does not take it.
	Private bool
	// Task, when set, is the task the tools work in and whose caller the gate names (a
	// scheduled run's own tab group); its tabs stay the task's.
	Task *Task
	// Values are a workflow's values while a model repairs its replay: a {{name}} the model
	// types is filled in on the way to the page, never shown to it or stored. Secrets are the
	// ones the run keeps secret (see guarded.Secrets).
	Values  map[string]string
	Secrets []string
	// resume: the run goes on with the chat's last reply, which was cut (Continue).
	resume bool
	// versions are the reply's versions a Regenerate keeps, oldest first: the new one joins them.
	versions []store.Message
}

// Attach is the page context of a message: Page when the panel already holds it (a selection
// from the context menu), else Read, which reads it from the browser once the user's message
// is stored.
type Attach struct {
	Page *store.Page
	Read func(ctx context.Context) (*store.Page, error)
}

// Send adds in.Text as a user message to session in.SessionID (a new session when empty), runs
// and reports progress to emit. The user message is stored before the first update. Send
// returns when the run is over; every outcome is stored in the session. An error is returned
// only when nothing could be started (bad settings, storage failure).
func (e *Engine) Send(ctx context.Context, in Input, emit func(Update)) error {
	if strings.TrimSpace(in.Text) == "" && len(in.Images) == 0 {
		return ErrEmpty
	}
	if in.Private || store.Private(in.SessionID) {
		// Refused before the message is stored: nothing of it goes to an agent's own records.
		if st, err := e.Store.Settings(ctx); err == nil && strings.HasPrefix(st.Provider, HostedPrefix) {
			return ErrHostedPrivate
		}
	}
	var ses *store.Session
	var err error
	if in.SessionID == "" {
		ses, err = e.NewSession(ctx, in.Private)
	} else if in.Private && !store.Private(in.SessionID) {
		return ErrKeptChat
	} else {
		ses, err = e.Session(ctx, in.SessionID)
	}
	if err != nil {
		return err
	}
	if !e.Running(ses.ID) {
		// A call still asking from a run a worker restart cut off: the user moved on instead.
		for i := range ses.Messages {
			if m := &ses.Messages[i]; m.Status == store.StatusAsking && m.Tool != nil {
				moved := sayMovedOn.With()
				m.Status, m.Tool.IsError, m.Tool.Decision, m.Tool.DecisionText = store.StatusDenied, true, moved.English(), &moved
				m.Content = "The user sent a new message instead of answering, so this call was not run."
			}
		}
	}
	msg := store.Message{ID: NewID(), Role: "user", Content: in.Text, CreatedAt: e.now(), Images: in.Images}
	if in.Attach != nil && in.Attach.Page != nil {
		msg.Page = in.Attach.Page
		msg.Page.Clip()
		flagPage(msg.Page)
	}
	ses.Messages = append(ses.Messages, msg)
	if ses.Title == "" || ses.Title == "New chat" {
		ses.Title = store.TitleFrom(in.Text)
	}
	var read func(ctx context.Context) (*store.Page, error)
	if in.Attach != nil && in.Attach.Page == nil {
		read = in.Attach.Read
	}
	return e.run(ctx, ses, in, read, emit)
}

// Edit replaces the last user message of a session with in.Text (keeping its page context) and
// runs again: the old reply and anything after it are dropped.
func (e *Engine) Edit(ctx context.Context, in Input, emit func(Update)) error {
	if strings.TrimSpace(in.Text) == "" {
		return ErrEmpty
	}
	ses, err := e.Session(ctx, in.SessionID)
	if err != nil {
		return err
	}
	last := lastUser(ses.Messages)
	if last < 0 {
		return ErrNothingToEdit
	}
	if replayStart(ses, last) {
		return ErrReplayStart
	}
	finish, err := e.dropping(ctx, ses.ID, store.ImagesOf(ses.Messages[last+1:]))
	if err != nil {
		return err
	}
	defer finish()
	ses.Messages = ses.Messages[:last+1]
	if last == 0 && ses.Title == store.TitleFrom(ses.Messages[0].Content) {
		ses.Title = store.TitleFrom(in.Text) // still the automatic title: follow the edit, not a rename
	}
	ses.Messages[last].Content = in.Text
	return e.run(ctx, ses, in, nil, emit)
}

// Regenerate drops everything after the last user message of a session (the reply, its tool
// calls, a failure) and runs again for the same message.
func (e *Engine) Regenerate(ctx context.Context, in Input, emit func(Update)) error {
	ses, err := e.Session(ctx, in.SessionID)
	if err != nil {
		return err
	}
	last := lastUser(ses.Messages)
	if last < 0 {
		return ErrNothingToRegenerate
	}
	if replayStart(ses, last) {
		return ErrReplayStart
	}
	// A chat's reply that had words is kept as a version of the new one (an agent's run, made
	// of calls and their results, is replaced whole).
	if tail := ses.Messages[last+1:]; !ses.Agent && len(tail) == 1 && tail[0].Role == "assistant" && len(tail[0].ToolCalls) == 0 && strings.TrimSpace(tail[0].Content) != "" {
		in.versions = allVersions(tail[0])
		if n := len(in.versions); n >= MaxVersions {
			in.versions = in.versions[n-MaxVersions+1:]
		}
	}
	finish, err := e.dropping(ctx, ses.ID, store.ImagesOf(ses.Messages[last+1:]))
	if err != nil {
		return err
	}
	defer finish()
	ses.Messages = ses.Messages[:last+1]
	return e.run(ctx, ses, in, nil, emit)
}

// replayStart reports whether message i of ses is the start of the workflow replay ses is: its
// own words ("Run the workflow …" and the values), not a message a model answers.
func replayStart(ses *store.Session, i int) bool {
	if ses.Workflow == nil {
		return false
	}
	for k, m := range ses.Messages {
		if m.Role == "user" {
			return k == i
		}
	}
	return false
}

// MaxVersions is how many versions of a reply are kept, the one shown among them.
const MaxVersions = 10

// allVersions is every version of reply m, oldest first, m among them where it stands (each
// without versions of its own).
func allVersions(m store.Message) []store.Message {
	shown := m
	shown.Versions, shown.Version = nil, 0
	at := min(max(m.Version, 0), len(m.Versions))
	out := make([]store.Message, 0, len(m.Versions)+1)
	out = append(out, m.Versions[:at]...)
	out = append(out, shown)
	return append(out, m.Versions[at:]...)
}

// ShowVersion makes version k (0: the oldest) of the chat's last reply the one shown and the
// one the model reads from then on, and returns the reply as it is now. Only the last message
// of a chat that is not running: a version of an earlier reply would change what later
// replies answered.
func (e *Engine) ShowVersion(ctx context.Context, id, msgID string, k int) (*store.Message, error) {
	if e.Busy(ctx, id) {
		return nil, ErrBusy
	}
	ses, err := e.Session(ctx, id)
	if err != nil {
		return nil, err
	}
	n := len(ses.Messages)
	if n == 0 || ses.Messages[n-1].ID != msgID || len(ses.Messages[n-1].Versions) == 0 {
		return nil, sayNoVersions.Error()
	}
	m := &ses.Messages[n-1]
	all := allVersions(*m)
	if k < 0 || k >= len(all) {
		return nil, sayNoVersions.Error()
	}
	shown := all[k]
	shown.ID = m.ID // the same reply, another version of it
	shown.Versions = append(all[:k:k], all[k+1:]...)
	shown.Version = k
	*m = shown
	if err := e.Store.SaveSession(ctx, ses); err != nil {
		return nil, err
	}
	return m, nil
}

// Continue goes on with the chat's last reply where it was cut (the length limit, Stop, a
// stream that broke, a worker that died): the model reads the chat with that reply last and is
// asked to go on from its last word, and what it writes is added to the same reply, as
// ChatGPT's "Continue generating" does. A reply that ended whole, made calls, or has no text is
// not continued; nor is a chat with an agent skiffd hosts (the agent keeps its own).
func (e *Engine) Continue(ctx context.Context, in Input, emit func(Update)) error {
	ses, err := e.Session(ctx, in.SessionID)
	if err != nil {
		return err
	}
	if !Continuable(ses) {
		return ErrNothingToContinue
	}
	st, err := e.Store.Settings(ctx)
	if err != nil {
		return err
	}
	if strings.HasPrefix(st.Provider, HostedPrefix) {
		return sayContinueHosted.Error()
	}
	in.resume = true
	return e.run(ctx, ses, in, nil, emit)
}

// Continuable says whether a chat's last message is a reply that was cut, with words to go on
// from: stopped, failed or interrupted midway, or ended at the length limit.
func Continuable(ses *store.Session) bool {
	if len(ses.Messages) == 0 {
		return false
	}
	m := ses.Messages[len(ses.Messages)-1]
	if m.Role != "assistant" || strings.TrimSpace(m.Content) == "" || len(m.ToolCalls) > 0 || m.ContentText != nil {
		return false
	}
	switch m.Status {
	case store.StatusStopped, store.StatusError, store.StatusInterrupted:
		return true
	case "":
		return m.Finish == "length"
	}
	return false
}

// continueInstruction asks the model to go on with its cut reply (not stored: the reply it
// writes is added to the one it continues).
// MaxBadCalls is how many times a turn is asked again after its model wrote a tool call the
// provider could not read (provider.FinishBadCall) and nothing else.
const MaxBadCalls = 2

// badCallHint is what the model is told when it is asked again after such a call; said is what
// the provider said of it (the call as the model wrote it).
func badCallHint(said string) string {
	if said = strings.TrimSpace(said); said != "" {
		said = " (" + clipText(said, 300) + ")"
	}
	return "Your last reply tried to call a tool, but the call could not be read" + said + ". Call tools only through the function-calling interface, with the arguments as a JSON object that matches the tool's parameters; never write a call as code or as text."
}

const continueInstruction = "Your last reply above was cut off before its end. Continue it from exactly where it stops, mid-sentence or mid-word if so: write only what comes next, without repeating any of it and without a preamble."

func lastUser(ms []store.Message) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == "user" {
			return i
		}
	}
	return -1
}

// Stop cancels the run of session id. What streamed is kept, marked stopped; tool calls not
// yet run are not run.
func (e *Engine) Stop(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.running[id]; ok {
		c.cancel()
		return true
	}
	return false
}

// take makes the session's run the only one (ErrBusy if another runs): the context it returns
// is what Stop cancels, and done ends the run (it may be called more than once).
func (e *Engine) take(ctx context.Context, id string) (context.Context, func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	c := &claim{cancel: cancel, ended: make(chan struct{})}
	if !e.claim(id, c) && !(e.letGo(ctx, id) && e.claim(id, c)) {
		cancel()
		return nil, nil, ErrBusy
	}
	return ctx, func() {
		e.release(id, c)
		cancel()
	}, nil
}

func (e *Engine) claim(id string, c *claim) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.running == nil {
		e.running = map[string]*claim{}
	}
	if _, busy := e.running[id]; busy {
		return false
	}
	e.running[id] = c
	e.claims++
	return true
}

// release ends c's hold on session id, and never the hold of a run that followed it.
func (e *Engine) release(id string, c *claim) {
	e.mu.Lock()
	if e.running[id] == c {
		delete(e.running, id)
		close(c.ended)
	}
	e.mu.Unlock()
}

// StopAll stops the runs of the sessions keep picks and returns once each has let go of its
// session (its end stored), or ctx is done.
func (e *Engine) StopAll(ctx context.Context, keep func(id string) bool) {
	e.mu.Lock()
	var ended []chan struct{}
	for id, c := range e.running {
		if keep(id) {
			c.cancel()
			ended = append(ended, c.ended)
		}
	}
	e.mu.Unlock()
	for _, ch := range ended {
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}

func errorInfo(p provider.Provider, err error) *store.ErrorInfo {
	pe := provider.AsError(p, err)
	info := store.Failure(string(pe.Kind), pe.Text())
	info.Status, info.RetryAfterMs = pe.Status, pe.RetryAfter.Milliseconds()
	return info
}
