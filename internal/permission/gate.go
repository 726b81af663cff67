package permission

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// Caller is who makes a call: the model of a panel chat, an outside client (an MCP session),
// a workflow, an ACP agent. Every call names its caller; the gate asks in its name and the
// audit log records it.
type Caller struct {
	Kind string `json:"kind"`         // one of the Kind* constants
	ID   string `json:"id,omitempty"` // the client's, workflow's or agent's id
	Name string `json:"name"`         // as the user reads it: "the model in the panel", "Claude Code"
	// NameText is Name as a sentence, for Skiff's own callers (the panel's model, a workflow):
	// the audit log shows it in the reader's language. nil: a name as it is (a client's).
	NameText *i18n.Text `json:"nameText,omitempty"`
	Chat     string     `json:"chat,omitempty"` // the chat the call belongs to ("" when none shows it)
}

// asks is the caller asking for what (a notification's words): "Claude Code asks: click …".
func (c Caller) asks(what i18n.Text) i18n.Text {
	return sayAsks.With(i18n.Or(c.NameText, c.Name), what)
}

// Private says the call comes from a private chat (an incognito window's): what the user
// decides for it is private too, and it is weighed with the private decisions.
func (c Caller) Private() bool { return strings.HasPrefix(c.Chat, PrivatePrefix) }

// Kinds of callers.
const (
	KindPanel    = "panel"    // the model of a chat in Skiff's panel
	KindClient   = "client"   // an outside client through skiffd (MCP)
	KindWorkflow = "workflow" // a saved workflow replayed
	KindAgent    = "agent"    // an ACP agent hosted by skiffd
)

// Call is a tool call before the gate: the request the policies weigh, who asks, and the call
// in words for the ask and the audit log.
type Call struct {
	ID     string // unique: the tool message that records it, or the outside call's id
	Caller Caller
	Request
	What string // the call in words ("click button “Book” [e5]")
	// WhatText is What as a catalog key and its arguments (nil: What is all there is).
	WhatText *i18n.Text
	URL      string          // the page it acts on, when known
	Args     json.RawMessage // as the model sent them (shown on an outside client's ask)
}

// Ruling is the gate's answer to a call.
type Ruling struct {
	Allow bool
	// Said is how it was decided, for the record, as a sentence its reader reads in their
	// language ("allowed: reading", "you allowed it once"…); How is its English.
	Said i18n.Text
	Why  string // for a denial, what the model is told
	// ByUser: the user answered this very call (not a policy, not a default).
	ByUser bool
}

// Question is a call waiting for the user's answer, as the panel shows an outside caller's
// (the calls of a chat show as its tool messages instead). The panel answers with its ID.
type Question struct {
	ID        string     `json:"id"`
	Who       string     `json:"who"`
	Kind      string     `json:"kind"`
	Tool      string     `json:"tool"`
	Risk      string     `json:"risk"`
	What      string     `json:"what"`
	URL       string     `json:"url,omitempty"`
	Origin    string     `json:"origin,omitempty"`
	Args      any        `json:"args,omitempty"`
	WhatText  *i18n.Text `json:"whatText,omitempty"`
	Why       string     `json:"why"` // in English
	WhyText   *i18n.Text `json:"whyText,omitempty"`
	Sensitive bool       `json:"sensitive,omitempty"`
	AskedAt   int64      `json:"askedAt"`
	Timeout   int64      `json:"timeoutMs"`
}

// Entry is one decided call, for the audit log.
type Entry struct {
	At  int64
	Who string
	// WhoText is Who as a sentence for the log's reader, in their language (nil: Who).
	WhoText *i18n.Text
	Tool    string
	What    string
	// WhatText is What as a sentence for the log's reader, in their language (nil: What).
	WhatText *i18n.Text
	Origin   string
	Decision string // how it was decided
	// DecisionText and ResultText are Decision and Result as sentences for the log's reader,
	// in their language (nil: the words as they are).
	DecisionText *i18n.Text
	Result       string // what came of it, in a few words
	ResultText   *i18n.Text
	OK           bool   // it ran and succeeded
	Chat         string // the chat the call belongs to (Caller.Chat)
}

// PolicyStore keeps the user's standing decisions.
type PolicyStore interface {
	Policies(ctx context.Context) ([]Policy, error)
	SetPolicy(ctx context.Context, p Policy) error
}

// Asker shows the questions no chat shows (outside callers'): qs is every such question
// waiting now, oldest first. It may keep them (a restarted worker shows them again, see
// Gate.Resume).
type Asker interface {
	Questions(ctx context.Context, qs []Question)
}

// Notifier tells the user that calls wait for an answer (a badge; a notification when no panel
// can show it): pending is how many wait now (0 clears it), what the newest in words.
type Notifier interface {
	Waiting(ctx context.Context, pending int, what i18n.Text)
}

// Auditor records every decided call.
type Auditor interface {
	Audit(ctx context.Context, e Entry) error
}

// Clock is the time, for asks that time out.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// SystemClock is the real clock.
type SystemClock struct{}

func (SystemClock) Now() time.Time                         { return time.Now() }
func (SystemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// DefaultAskTimeout is how long a call waits for an answer when Gate.Timeout is nil.
const DefaultAskTimeout = 2 * time.Minute

// Gate is the one permission gate: every tool call, whoever makes it, passes Decide before it
// runs. It decides from the user's policies and the defaults (Evaluate); when the answer is to
// ask, it shows the call as asking and waits for Answer or the ask timeout, which counts as a
// deny. "Always" and "Never" answers become policies. An answer to a call no one waits for
// any more (the worker restarted while it asked) is kept, and the call takes it when it comes
// back to the gate (a resumed run, an outside call sent again).
//
// Its parts are interfaces, so the core wires the browser's storage and panels and tests wire
// fakes. Policies is required; the rest may be nil.
type Gate struct {
	Policies PolicyStore
	Asker    Asker
	Notifier Notifier
	Audit    Auditor
	Clock    Clock
	// Timeout is how long an ask waits for its answer (DefaultAskTimeout when nil).
	Timeout func(ctx context.Context) time.Duration

	mu       sync.Mutex
	waiting  map[string]*waiter
	answered map[string]Decision
	shown    map[string]Question // asked before a restart (Resume), shown until their call comes back
}

type waiter struct {
	ch   chan Decision
	what i18n.Text
	ask  *Question // a call no chat shows
}

func (g *Gate) clock() Clock {
	if g.Clock == nil {
		return SystemClock{}
	}
	return g.Clock
}

func (g *Gate) timeout(ctx context.Context) time.Duration {
	if g.Timeout == nil {
		return DefaultAskTimeout
	}
	return g.Timeout(ctx)
}

// Decide rules on a call. When it must ask, it calls asking (with why, in words) just before
// waiting, so the call can be shown and stored as waiting for an answer; askedAt, when not
// zero, is when the call first asked (before a restart), from which the timeout counts. Decide
// returns when the user answers, the ask times out, or ctx is done (with ctx's error).
func (g *Gate) Decide(ctx context.Context, c Call, askedAt time.Time, asking func(why i18n.Text)) (Ruling, error) {
	policies, err := g.Policies.Policies(ctx)
	if err != nil {
		return Ruled(false, sayNoPolicies.With(), "Skiff could not read the user's permissions, so this call was not run."), nil
	}
	g.mu.Lock()
	d, answered := g.answered[c.ID]
	delete(g.answered, c.ID)
	g.mu.Unlock()
	if answered {
		return g.apply(ctx, c, d), nil
	}
	out := Evaluate(Visible(policies, c.Caller.Private()), c.Request)
	switch out.Verdict {
	case Allow:
		return Ruled(true, sayAllowedBy.With(out.Why), ""), nil
	case Deny:
		return Ruled(false, sayDeniedBy.With(out.Why), "The user chose never to allow this here."), nil
	}

	timeout := g.timeout(ctx)
	now := g.clock().Now()
	if askedAt.IsZero() || askedAt.After(now) {
		askedAt = now
	}
	left := timeout - now.Sub(askedAt)
	if left <= 0 {
		return g.expired(timeout), nil
	}
	w := &waiter{ch: make(chan Decision, 1), what: i18n.Or(c.WhatText, c.What)}
	if c.Caller.Chat == "" {
		w.what = c.Caller.asks(i18n.Or(c.WhatText, c.What))
		var args any
		_ = json.Unmarshal(c.Args, &args)
		w.ask = &Question{ID: c.ID, Who: c.Caller.Name, Kind: c.Caller.Kind, Tool: c.Tool, Risk: c.Risk, What: c.What, WhatText: c.WhatText, URL: c.URL,
			Origin: c.Origin, Args: args, Why: out.Reason, WhyText: &out.Why, Sensitive: c.Sensitive, AskedAt: askedAt.UnixMilli(), Timeout: timeout.Milliseconds()}
	}
	g.mu.Lock()
	if g.waiting == nil {
		g.waiting = map[string]*waiter{}
	}
	g.waiting[c.ID] = w
	delete(g.shown, c.ID)
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.waiting, c.ID)
		g.mu.Unlock()
		bg := context.WithoutCancel(ctx)
		g.notify(bg, i18n.Text{})
		if w.ask != nil {
			g.showQuestions(bg)
		}
	}()
	if asking != nil {
		asking(out.Why)
	}
	if w.ask != nil {
		g.showQuestions(ctx)
	}
	g.notify(ctx, w.what)
	select {
	case d = <-w.ch:
	case <-g.clock().After(left):
		return g.expired(timeout), nil
	case <-ctx.Done():
		return Ruled(false, sayDecStopped.With(), ""), ctx.Err()
	}
	return g.apply(ctx, c, d), nil
}

func (g *Gate) expired(timeout time.Duration) Ruling {
	return Ruled(false, Expired(timeout), NoAnswer(timeout))
}

// How is how the call was decided, in English.
func (r Ruling) How() string { return r.Said.English() }

// Ruled is a ruling said as said, with why for the model when it denies.
func Ruled(allow bool, said i18n.Text, why string) Ruling {
	return Ruling{Allow: allow, Said: said, Why: why}
}

// ReadOnly is how a gate with no one to ask decides: reading is allowed, the rest is not.
func ReadOnly(risk string) Ruling {
	if risk == "read" {
		return Ruled(true, sayAllowedBy.With(sayReading.With()), "")
	}
	return Ruled(false, sayNoOneToAsk.With(), "Skiff has no way to ask the user about this call, so it was not run.")
}

// Expired is how a call the user did not answer within d was decided, for the record.
func Expired(d time.Duration) i18n.Text {
	s := int(d.Round(time.Second) / time.Second)
	if s%60 == 0 && s > 0 {
		return sayNoAnswerMin.With(s / 60)
	}
	return sayNoAnswerSec.With(s)
}

// NoAnswer is what the model is told of a call the user did not answer within d.
func NoAnswer(d time.Duration) string {
	return "The user did not answer within " + Span(d) + ", so this call was not run."
}

// Span says a duration in words: "2 minutes", "30 seconds", "1 minute 30 seconds".
func Span(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	unit := func(n int, w string) string {
		if n == 1 {
			return "1 " + w
		}
		return strconv.Itoa(n) + " " + w + "s"
	}
	switch {
	case s < 60:
		return unit(s, "second")
	case s%60 == 0:
		return unit(s/60, "minute")
	}
	return unit(s/60, "minute") + " " + unit(s%60, "second")
}

// apply turns the user's answer into the ruling; "always" and "never" are stored as policies
// for the call's scope on its origin.
func (g *Gate) apply(ctx context.Context, c Call, d Decision) Ruling {
	if OnlyOnce(c.Risk) {
		switch d {
		case AllowAlways:
			d = AllowOnce
		case DenyAlways:
			d = DenyOnce
		}
	}
	said := map[Decision]i18n.Sentence{AllowOnce: sayYouOnce, AllowAlways: sayYouAlways, DenyOnce: sayYouDenied, DenyAlways: sayYouNever}[d].With()
	if d == AllowAlways || d == DenyAlways {
		p := Policy{Tool: Scope(c.Request), Origin: c.Origin, Decision: d, UpdatedAt: g.clock().Now().UnixMilli(),
			Private: c.Caller.Private()}
		if p.Origin == "" {
			p.Origin = "*"
		}
		if err := g.Policies.SetPolicy(ctx, p); err == nil {
			on := sayYouAlwaysOn
			if d == DenyAlways {
				on = sayYouNeverOn
			}
			said = on.With(p.Tool, p.Origin)
		}
	}
	why := ""
	if !d.Allows() {
		why = "The user denied this call."
	}
	r := Ruled(d.Allows(), said, why)
	r.ByUser = true
	return r
}

// Record puts what came of a decided call in the audit log: its result in a few words, and
// whether it ran and succeeded.
func (g *Gate) Record(ctx context.Context, c Call, r Ruling, result i18n.Text, ok bool) {
	if g.Audit == nil {
		return
	}
	e := Entry{At: g.clock().Now().UnixMilli(), Who: c.Caller.Name, WhoText: c.Caller.NameText, Tool: c.Tool, What: c.What,
		WhatText: c.WhatText, Origin: c.Origin, Decision: r.How(), Result: result.English(), OK: ok, Chat: c.Caller.Chat}
	if !r.Said.IsZero() {
		e.DecisionText = &r.Said // zero: a ruling a test made up
	}
	if !result.IsZero() {
		e.ResultText = &result
	}
	_ = g.Audit.Audit(ctx, e)
}

// What came of a call, for the record (a tool's own summary goes as its words).
var (
	ResultNotRun  = i18n.Sentence{Key: "resNotRun", English: "not run"}
	ResultStopped = i18n.Sentence{Key: "resStoppedBefore", English: "stopped before it ran"}
	ResultFailed  = i18n.Sentence{Key: "resFailed", English: "failed: $1"}
)

// Answer gives the user's decision to the call waiting under id, and reports whether one
// waited. With none waiting here, the decision is kept for the call when it comes back.
func (g *Gate) Answer(id string, d Decision) bool {
	g.mu.Lock()
	w := g.waiting[id]
	if w == nil {
		if g.answered == nil {
			g.answered = map[string]Decision{}
		}
		g.answered[id] = d
		delete(g.shown, id)
	}
	g.mu.Unlock()
	if w == nil {
		g.showQuestions(context.Background())
		return false
	}
	select {
	case w.ch <- d:
	default:
	}
	return true
}

// Shown reports whether id is a question from before a restart (Resume) still shown: its call
// takes an answer when it comes back.
func (g *Gate) Shown(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.shown[id]
	return ok
}

// Forget drops an answer no call took.
func (g *Gate) Forget(id string) {
	g.mu.Lock()
	delete(g.answered, id)
	g.mu.Unlock()
}

// Resume shows again asks of outside callers that a restart cut off, until their calls come
// back to the gate (or time out): a restarted worker shows what still waits for an answer.
func (g *Gate) Resume(ctx context.Context, asks []Question) {
	now := g.clock().Now().UnixMilli()
	g.mu.Lock()
	if g.shown == nil {
		g.shown = map[string]Question{}
	}
	for _, a := range asks {
		if _, live := g.waiting[a.ID]; !live && now-a.AskedAt < a.Timeout {
			g.shown[a.ID] = a
		}
	}
	g.mu.Unlock()
	g.showQuestions(ctx)
}

// Questions lists the calls of outside callers waiting for an answer, oldest first.
func (g *Gate) Questions() []Question {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := []Question{}
	add := func(a Question) {
		i := len(out)
		out = append(out, a)
		for ; i > 0 && out[i].AskedAt < out[i-1].AskedAt; i-- {
			out[i-1], out[i] = out[i], out[i-1]
		}
	}
	for _, w := range g.waiting {
		if w.ask != nil {
			add(*w.ask)
		}
	}
	now := g.clock().Now().UnixMilli()
	for id, a := range g.shown {
		if now-a.AskedAt >= a.Timeout {
			delete(g.shown, id) // its call never came back: it was denied by the timeout
			continue
		}
		add(a)
	}
	return out
}

// Pending is how many calls wait for an answer.
func (g *Gate) Pending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.waiting) + len(g.shown)
}

func (g *Gate) showQuestions(ctx context.Context) {
	if g.Asker != nil {
		g.Asker.Questions(ctx, g.Questions())
	}
}

// Notify updates the badge and notification with what waits now (what: the newest, in words).
func (g *Gate) Notify(ctx context.Context) { g.notify(ctx, i18n.Text{}) }

func (g *Gate) notify(ctx context.Context, what i18n.Text) {
	if g.Notifier == nil {
		return
	}
	g.mu.Lock()
	n := len(g.waiting) + len(g.shown)
	if what.English() == "" {
		for _, w := range g.waiting {
			what = w.what
			break
		}
		for _, a := range g.shown {
			if what.English() == "" {
				what = Caller{Name: a.Who}.asks(i18n.Or(a.WhatText, a.What))
			}
		}
	}
	g.mu.Unlock()
	g.Notifier.Waiting(ctx, n, what)
}
