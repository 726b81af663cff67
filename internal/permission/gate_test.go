package permission

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/i18n"
)

type memPolicies struct {
	mu sync.Mutex
	ps []Policy
}

func (m *memPolicies) Policies(context.Context) ([]Policy, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Policy(nil), m.ps...), nil
}

func (m *memPolicies) SetPolicy(_ context.Context, p Policy) error {
	p, err := Normalize(p)
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.ps = append([]Policy{p}, m.ps...)
	m.mu.Unlock()
	return nil
}

// fakeClock moves only when told; After fires when Advance passes its time.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeTimer
}

type fakeTimer struct {
	at time.Time
	ch chan time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.timers = append(c.timers, fakeTimer{c.now.Add(d), ch})
	return ch
}

// AdvanceWaiting moves the clock once someone waits on it: a call that has asked sets its
// timer a moment later, and a clock moved before that would leave it waiting for ever.
func (c *fakeClock) AdvanceWaiting(d time.Duration) {
	for {
		c.mu.Lock()
		n := 0
		for _, t := range c.timers {
			if t.at.After(c.now) {
				n++
			}
		}
		c.mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	c.Advance(d)
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			select {
			case t.ch <- c.now:
			default:
			}
		}
	}
}

type recorder struct {
	mu      sync.Mutex
	qs      [][]Question
	waiting []int
	entries []Entry
	asked   chan struct{}
}

func (r *recorder) Questions(_ context.Context, qs []Question) {
	r.mu.Lock()
	r.qs = append(r.qs, qs)
	r.mu.Unlock()
	if len(qs) > 0 && r.asked != nil {
		select {
		case r.asked <- struct{}{}:
		default:
		}
	}
}

func (r *recorder) Waiting(_ context.Context, n int, _ i18n.Text) {
	r.mu.Lock()
	r.waiting = append(r.waiting, n)
	r.mu.Unlock()
}

func (r *recorder) Audit(_ context.Context, e Entry) error {
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.mu.Unlock()
	return nil
}

func newGate() (*Gate, *memPolicies, *fakeClock, *recorder) {
	ps := &memPolicies{}
	clk := &fakeClock{now: time.UnixMilli(1_700_000_000_000)}
	rec := &recorder{asked: make(chan struct{}, 8)}
	g := &Gate{Policies: ps, Asker: rec, Notifier: rec, Audit: rec, Clock: clk,
		Timeout: func(context.Context) time.Duration { return time.Minute }}
	return g, ps, clk, rec
}

var client = Caller{Kind: KindClient, ID: "c", Name: "Claude Code"}

func click(id, origin string) Call {
	return Call{ID: id, Caller: client, What: "click button “Save” [e2]",
		Request: Request{Tool: "click", Risk: "act", Permission: "act:click", Origin: origin}}
}

// An outside call asks; "always" answers it and becomes a policy, so the next one does not ask.
func TestAnswerAlwaysBecomesAPolicy(t *testing.T) {
	g, ps, _, rec := newGate()
	ctx := context.Background()
	done := make(chan Ruling, 1)
	go func() {
		r, err := g.Decide(ctx, click("a", "https://shop.example"), time.Time{}, nil)
		assert.NoError(t, err)
		done <- r
	}()
	<-rec.asked
	qs := g.Questions()
	require.Len(t, qs, 1)
	assert.Equal(t, "Claude Code", qs[0].Who)
	assert.Equal(t, "acting in your browser asks first", qs[0].Why)
	assert.True(t, g.Answer("a", AllowAlways))
	r := <-done
	assert.True(t, r.Allow && r.ByUser)
	require.Len(t, ps.ps, 1)
	assert.Equal(t, Policy{Tool: "act:click", Origin: "https://shop.example", Decision: AllowAlways, UpdatedAt: ps.ps[0].UpdatedAt}, ps.ps[0])
	r, err := g.Decide(ctx, click("b", "https://shop.example"), time.Time{}, func(i18n.Text) { t.Error("asked again") })
	require.NoError(t, err)
	assert.True(t, r.Allow)
	assert.False(t, r.ByUser)
	assert.Empty(t, g.Questions())
}

// No answer within the timeout is a deny; a call that asked before a restart counts its time
// from then.
func TestTimeoutCountsFromTheFirstAsk(t *testing.T) {
	g, _, clk, rec := newGate()
	ctx := context.Background()
	done := make(chan Ruling, 1)
	go func() {
		r, _ := g.Decide(ctx, click("a", "https://x.example"), time.Time{}, nil)
		done <- r
	}()
	<-rec.asked
	clk.AdvanceWaiting(61 * time.Second)
	r := <-done
	assert.False(t, r.Allow)
	assert.Equal(t, "denied: no answer within 1 minute", r.How())

	// Asked 59 s ago, before a restart: one second left.
	go func() {
		r, _ := g.Decide(ctx, click("b", "https://x.example"), clk.Now().Add(-59*time.Second), nil)
		done <- r
	}()
	<-rec.asked
	clk.AdvanceWaiting(1 * time.Second)
	assert.False(t, (<-done).Allow)
	// Asked longer ago than the timeout: denied at once, nothing shown.
	r, _ = g.Decide(ctx, click("c", "https://x.example"), clk.Now().Add(-2*time.Minute), func(i18n.Text) { t.Error("asked") })
	assert.False(t, r.Allow)
}

// After a restart the questions that were waiting are shown again; an answer given then is
// kept for the call, which takes it when skiffd sends it again.
func TestQuestionsSurviveARestart(t *testing.T) {
	g, _, clk, _ := newGate()
	ctx := context.Background()
	old := Question{ID: "q1", Who: "Claude Code", What: "click", AskedAt: clk.Now().Add(-10 * time.Second).UnixMilli(), Timeout: time.Minute.Milliseconds()}
	stale := Question{ID: "q0", AskedAt: clk.Now().Add(-2 * time.Minute).UnixMilli(), Timeout: time.Minute.Milliseconds()}
	g.Resume(ctx, []Question{old, stale})
	qs := g.Questions()
	require.Len(t, qs, 1)
	assert.Equal(t, "q1", qs[0].ID)
	assert.True(t, g.Shown("q1"))
	assert.False(t, g.Answer("q1", AllowOnce)) // no call waits yet
	assert.Empty(t, g.Questions())
	r, err := g.Decide(ctx, click("q1", "https://x.example"), time.UnixMilli(old.AskedAt), func(i18n.Text) { t.Error("asked again") })
	require.NoError(t, err)
	assert.True(t, r.Allow)
	assert.Equal(t, "you allowed it once", r.How())
	// Shown questions whose calls never come back expire.
	g.Resume(ctx, []Question{{ID: "q2", AskedAt: clk.Now().UnixMilli(), Timeout: time.Minute.Milliseconds()}})
	require.Len(t, g.Questions(), 1)
	clk.Advance(2 * time.Minute)
	assert.Empty(t, g.Questions())
}

// "Never" stops the call and the next ones without asking; everything decided is audited.
func TestNeverAndTheAuditLog(t *testing.T) {
	g, _, _, rec := newGate()
	ctx := context.Background()
	go func() {
		<-rec.asked
		g.Answer("a", DenyAlways)
	}()
	r, err := g.Decide(ctx, click("a", "https://x.example"), time.Time{}, nil)
	require.NoError(t, err)
	assert.False(t, r.Allow)
	g.Record(ctx, click("a", "https://x.example"), r, ResultNotRun.With(), false)
	r, _ = g.Decide(ctx, click("b", "https://x.example"), time.Time{}, func(i18n.Text) { t.Error("asked") })
	assert.False(t, r.Allow)
	assert.Contains(t, r.How(), "you chose never")
	require.Len(t, rec.entries, 1)
	assert.Equal(t, "Claude Code", rec.entries[0].Who)
	assert.Equal(t, "you chose never (act:click on https://x.example)", rec.entries[0].Decision)
	// The log's reader sees both as sentences of the catalogs, in their language.
	require.NotNil(t, rec.entries[0].DecisionText)
	assert.Equal(t, "decYouNeverOn", rec.entries[0].DecisionText.Key)
	assert.Equal(t, []any{"act:click", "https://x.example"}, rec.entries[0].DecisionText.Args)
	require.NotNil(t, rec.entries[0].ResultText)
	assert.Equal(t, "not run", rec.entries[0].Result)
	assert.Equal(t, "resNotRun", rec.entries[0].ResultText.Key)
}

// Stopping the run ends the wait at once.
func TestDecideReturnsWhenCancelled(t *testing.T) {
	g, _, _, _ := newGate()
	ctx, cancel := context.WithCancel(context.Background())
	asked := make(chan struct{})
	done := make(chan error, 1)
	c := click("a", "https://x.example")
	c.Caller = Caller{Kind: KindPanel, Name: "the model in the panel", Chat: "s1"}
	go func() {
		_, err := g.Decide(ctx, c, time.Time{}, func(i18n.Text) { close(asked) })
		done <- err
	}()
	<-asked
	assert.Empty(t, g.Questions(), "a chat's call shows in its chat, not as an outside question")
	assert.Equal(t, 1, g.Pending())
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
	assert.Equal(t, 0, g.Pending())
}

// Granted and Passive: one intent on one element asks once; scrolling a readable site does not
// ask; neither weakens a sensitive field, a new site, or a destructive act.
func TestGrantsAndPassiveActs(t *testing.T) {
	for _, tt := range []struct {
		r    Request
		want Verdict
	}{
		{Request{Risk: "act", Granted: true, Origin: "https://a"}, Allow},
		{Request{Risk: "act", Passive: true, Consented: true, Origin: "https://a"}, Allow},
		{Request{Risk: "act", Passive: true, Origin: "https://a"}, Ask},
		{Request{Risk: "act", Granted: true, Sensitive: true, Origin: "https://a"}, Ask},
		{Request{Risk: "act", Granted: true, NewOrigin: true, Origin: "https://b"}, Ask},
		{Request{Risk: "destructive", Granted: true, Origin: "https://a"}, Ask},
		{Request{Risk: "act", Granted: true, Outside: "x", Origin: "https://a"}, Ask},
	} {
		assert.Equal(t, tt.want, Default(tt.r).Verdict, "%+v", tt.r)
	}
}

// A gate with no one to ask reads and refuses the rest, saying so as sentences of the catalogs.
func TestReadOnly(t *testing.T) {
	r := ReadOnly("read")
	assert.True(t, r.Allow)
	assert.Equal(t, "allowed: reading", r.How())
	r = ReadOnly("act")
	assert.False(t, r.Allow)
	assert.Equal(t, "denied: no one can be asked", r.How())
	assert.Equal(t, "decNoOneToAsk", r.Said.Key)
	assert.NotEmpty(t, r.Why)
}

// An Always answered in a private chat (an incognito window's) holds for private chats only:
// the same call from a kept chat or an outside agent still asks, as Chrome keeps what is
// decided in incognito windows to them.
func TestAnIncognitoAlwaysStaysThere(t *testing.T) {
	g, ps, _, _ := newGate()
	ctx := context.Background()
	private := click("a", "https://shop.example")
	askedFirst := make(chan struct{}, 1)
	private.Caller = Caller{Kind: KindPanel, Name: "the model in the panel", Chat: PrivatePrefix + "s1"}
	done := make(chan Ruling, 1)
	go func() {
		r, err := g.Decide(ctx, private, time.Time{}, func(i18n.Text) { askedFirst <- struct{}{} })
		assert.NoError(t, err)
		done <- r
	}()
	<-askedFirst
	assert.True(t, g.Answer("a", AllowAlways))
	require.True(t, (<-done).Allow)
	require.Len(t, ps.ps, 1)
	assert.True(t, ps.ps[0].Private)

	private.ID = "b"
	r, err := g.Decide(ctx, private, time.Time{}, func(i18n.Text) { t.Error("a private chat asked again") })
	require.NoError(t, err)
	assert.True(t, r.Allow)

	for _, who := range []Caller{{Kind: KindPanel, Name: "the model in the panel", Chat: "s2"}, {Kind: KindClient, Name: "Claude Code"}} {
		c := click("c-"+who.Name, "https://shop.example")
		c.Caller = who
		asked := make(chan struct{}, 1)
		cctx, cancel := context.WithCancel(ctx)
		go func() {
			<-asked
			cancel()
		}()
		_, err := g.Decide(cctx, c, time.Time{}, func(i18n.Text) { asked <- struct{}{} })
		assert.ErrorIs(t, err, context.Canceled, "%s was allowed by the incognito window's Always", who.Name)
	}
}

// A change an outside client makes to what Skiff keeps (a memory every later chat is told, a
// workflow) asks each time: no standing answer covers it, not even one that allows every call
// everywhere, and an "always" answer to it allows it once and leaves no policy.
func TestAChangeToWhatSkiffKeepsAsksEachTime(t *testing.T) {
	g, ps, _, rec := newGate()
	ctx := context.Background()
	ps.ps = []Policy{{Tool: "*", Origin: "*", Decision: AllowAlways}, {Tool: "act:*", Origin: "*", Decision: AllowAlways}}
	keep := func(id string) Call {
		return Call{ID: id, Caller: client, What: "remember “the user lives in Lyon”",
			Request: Request{Tool: "add_memory", Risk: RiskKeep, Permission: "memory:add", Origin: "agent://c"}}
	}
	for _, answer := range []Decision{AllowAlways, DenyAlways} {
		done := make(chan Ruling, 1)
		go func() {
			r, err := g.Decide(ctx, keep(string(answer)), time.Time{}, nil)
			assert.NoError(t, err)
			done <- r
		}()
		select {
		case <-rec.asked:
		case r := <-done:
			t.Fatalf("ruled without asking: %s", r.How())
		}
		qs := g.Questions()
		require.Len(t, qs, 1)
		assert.Equal(t, "an outside agent changes what Skiff keeps for you, which you allow each time", qs[0].Why)
		assert.True(t, g.Answer(string(answer), answer))
		r := <-done
		assert.Equal(t, answer.Allows(), r.Allow)
		assert.Contains(t, []string{"you allowed it once", "you denied it"}, r.Said.English(), "taken as once")
		assert.Len(t, ps.ps, 2, "no policy written")
	}
}
