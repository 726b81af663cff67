package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// adFrames is a tab Chrome calls "loading" for as long as the frames its page added load (an
// ad's, a map's), whose own document is in readyState; pending is where it is going, when it is,
// and arriving says Chrome told of its main frame setting out for a page not come yet.
type adFrames struct {
	twoWindows
	readyState, pending string
	arriving            bool
	asked               int
}

func (b *adFrames) Tab(ctx context.Context, id int) (Tab, error) {
	t, err := b.twoWindows.Tab(ctx, id)
	t.Status, t.Pending = "loading", b.pending
	return t, err
}

func (b *adFrames) Arriving(int) bool { return b.arriving }

func (b *adFrames) Dialog(int) (Dialog, bool) { return Dialog{}, false }

func (b *adFrames) Script(_ context.Context, s Script) ([]FrameResult, error) {
	if s.Call != "info" {
		return nil, fmt.Errorf("unexpected call %s", s.Call)
	}
	b.asked++
	raw, _ := json.Marshal(map[string]string{"url": "https://kept.example/", "readyState": b.readyState})
	return []FrameResult{{FrameID: 0, Result: raw}}, nil
}

// A message sent from a page whose own document has loaded goes with it at once, however long
// its ad frames keep the tab "loading"; a page still on its way, or still being parsed, is waited
// for (up to the bound).
func TestAPageIsThereWhenItsOwnDocumentHasLoaded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	loaded := &adFrames{readyState: "complete"}
	got, err := NewEnv(loaded, 0, 0).Arrived(ctx, 1, time.Hour)
	require.NoError(t, err, "a page whose own load has come is waited on as long as its frames load")
	assert.Equal(t, "https://kept.example/", got.URL)

	for name, b := range map[string]*adFrames{
		"a link clicked, its page not come yet": {readyState: "complete", arriving: true},
		"a navigation Chrome has not committed": {readyState: "complete", pending: "https://kept.example/next"},
		"a document still being parsed":         {readyState: "interactive"},
	} {
		got, err := NewEnv(b, 0, 0).Arrived(ctx, 1, 600*time.Millisecond)
		require.NoError(t, err, name)
		assert.Equal(t, "loading", got.Status, name)
		if b.readyState == "complete" {
			assert.Zero(t, b.asked, "%s: the page that is going was asked whether it loaded", name)
		}
	}
}

// inDialog is a page still being parsed that its script stopped with an alert.
type inDialog struct{ adFrames }

func (b *inDialog) Dialog(int) (Dialog, bool) { return Dialog{Type: "alert", Message: "Welcome"}, true }

// A page whose alert holds its load goes no further until someone answers: a message sent
// from it is not held for its load (it was, 3 s), nor is the page asked whether it loaded.
func TestAPageHeldByItsDialogIsNotWaitedFor(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := &inDialog{adFrames{readyState: "interactive"}}
	got, err := NewEnv(b, 0, 0).Arrived(ctx, 1, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, "loading", got.Status)
	assert.Zero(t, b.asked)
}

// The tabs an env opens are told to each listener, as long as it listens: a run given an outside
// client's task keeps them in its chat without taking them from the client. Its own tabs are
// the ones it opened and, of those an earlier run opened, the ones the user has not gone to.
func TestTheTabsAnEnvOpensAreToldToEachListener(t *testing.T) {
	e := NewEnv(&twoWindows{}, 0, 0)
	var client, chat, other []int
	e.OnOpen(func(id int) { client = append(client, id) })
	done := e.OnOpen(func(id int) { chat = append(chat, id) })
	stopOther := e.OnOpen(func(id int) { other = append(other, id) })
	e.opens(5)
	done() // the first run ends before the second: the second still listens
	e.opens(6)
	stopOther()
	assert.Equal(t, []int{5, 6}, other)
	e.Own(7) // a tab an earlier run opened: its own, told to no one
	assert.Equal(t, []int{5, 6}, client)
	assert.Equal(t, []int{5}, chat)
	for _, id := range []int{5, 6, 7} {
		assert.True(t, e.Opened(id), "tab %d", id)
	}
	assert.False(t, e.Opened(8))

	// A tab an earlier run opened is the user's again once they went to it after that run,
	// not when the env itself brought it to the front.
	ended := time.Now().Add(-time.Minute)
	e.OwnSince(9, ended)
	assert.True(t, e.ownTab(Tab{ID: 9, LastAccessed: ended.UnixMilli() - 5}))
	assert.False(t, e.ownTab(Tab{ID: 9, LastAccessed: ended.UnixMilli() + 5}), "the user went to it")
	assert.False(t, e.ownTab(Tab{ID: 9, LastAccessed: ended.UnixMilli() - 5, Active: true}), "in front, where the user may have taken it up")
	e.fronted(9)
	assert.True(t, e.ownTab(Tab{ID: 9, LastAccessed: time.Now().UnixMilli(), Active: true}), "the env brought it to the front")
	assert.True(t, e.ownTab(Tab{ID: 9, LastAccessed: time.Now().UnixMilli()}), "the env brought it to the front")
	assert.True(t, e.ownTab(Tab{ID: 5, LastAccessed: time.Now().UnixMilli()}), "a tab this env opened")
	assert.False(t, e.ownTab(Tab{ID: 8}))
}

// pageSays is a page that answers every call with the same failure, and counts the calls.
type pageSays struct {
	twoWindows
	answer string
	asked  map[string]int
}

func (b *pageSays) Dialog(int) (Dialog, bool) { return Dialog{}, false }

func (b *pageSays) Frames(context.Context, int) ([]Frame, error) {
	return []Frame{{ID: 0, ParentID: -1, URL: "https://kept.example/"}}, nil
}

func (b *pageSays) Script(_ context.Context, s Script) ([]FrameResult, error) {
	b.asked[s.Call]++
	return []FrameResult{{FrameID: 0, Result: json.RawMessage(b.answer)}}, nil
}

// A failure the page says will not pass by waiting (a ref whose element is gone, a selector
// that is not CSS) is said at once; one it says may pass (a selector that matches nothing yet)
// is tried again for a moment, as Playwright's actionability checks are.
func TestOnlyWhatMayPassIsTriedAgain(t *testing.T) {
	ctx := context.Background()
	gone := &pageSays{answer: `{"error":"there is no element e6 on the page any more"}`, asked: map[string]int{}}
	e := NewEnv(gone, 1, 0)
	tab, err := e.Browser.Tab(ctx, 1)
	require.NoError(t, err)
	_, _, err = e.find(ctx, tab, Target{Ref: "e6"}, nil, false)
	require.ErrorContains(t, err, "no element e6")
	assert.Equal(t, 1, gone.asked["target"], "a ref whose element is gone was asked for again")

	bad := &pageSays{answer: `{"error":"the selector \"##\" is not valid CSS"}`, asked: map[string]int{}}
	_, err = waitFor(ctx, NewEnv(bad, 1, 0), &WaitInput{Selector: "##", TimeoutMs: 20000}, nil)
	require.ErrorContains(t, err, "not valid CSS")
	assert.Equal(t, 1, bad.asked["check"], "wait_for waited on a selector that can never match")

	was := ActionWait
	ActionWait = 300 * time.Millisecond
	defer func() { ActionWait = was }()
	later := &pageSays{answer: `{"error":"no element matches \"#late\"","retry":1}`, asked: map[string]int{}}
	_, _, err = NewEnv(later, 1, 0).find(ctx, tab, Target{Selector: "#late"}, nil, false)
	require.ErrorContains(t, err, "no element matches")
	assert.Greater(t, later.asked["target"], 1, "a selector that may match later was not tried again")
}

// An element under a cover that waits for an answer (a cookie banner with its buttons, a
// dialog) is said to be covered once the cover has stood a moment, not after the whole wait
// for a control enabled late: nothing but an answer takes such a cover away. A cover the page
// does not say will stay (a loading veil) is waited out as before.
func TestACoverThatWaitsForAnAnswerIsSaidSoon(t *testing.T) {
	wasAction, wasCover := ActionWait, CoverWait
	defer func() { ActionWait, CoverWait = wasAction, wasCover }()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	ActionWait, CoverWait = time.Hour, 100*time.Millisecond // the call's own end: 10 s
	banner := &pageSays{answer: `{"error":"button “Buy” is covered by div “We use cookies.” at the point where it would be clicked; close or move that first","retry":1,"lasting":1}`, asked: map[string]int{}}
	_, err := NewEnv(banner, 1, 0).locate(ctx, 1, 0, pageTarget{Ref: "e3"}, "click")
	require.ErrorContains(t, err, "is covered by", "waited on a cookie banner until the call's own end")
	// Looked at again (at 50 and 150 ms, the waits between tries being 50, then 100 ms), and
	// said once it had stood 100 ms: never a fourth time, however slow the machine.
	assert.Greater(t, banner.asked["locate"], 1, "the banner was not looked at again before it was said")
	assert.LessOrEqual(t, banner.asked["locate"], 3, "the banner was waited on after it had stood")

	ActionWait, CoverWait = 300*time.Millisecond, 0
	veil := &pageSays{answer: `{"error":"button “Buy” is covered by div “Loading…” at the point where it would be clicked; close or move that first","retry":1}`, asked: map[string]int{}}
	_, err = NewEnv(veil, 1, 0).locate(ctx, 1, 0, pageTarget{Ref: "e3"}, "click")
	require.ErrorContains(t, err, "is covered by")
	assert.Greater(t, veil.asked["locate"], 1, "a loading veil was not waited out")
}

// pageStill is a page that answers every locate with a failure a still page does not change by
// itself (a disabled button), saying how still it is: changing counts a change to its document
// at each ask, busy that something on it moves, out the requests it has not heard back from.
type pageStill struct {
	pageSays
	changing bool
	busy     int
	out      int
	n        int
}

func (b *pageStill) RequestsSince(int, time.Time) int { return b.out }

func (b *pageStill) Script(_ context.Context, s Script) ([]FrameResult, error) {
	b.asked[s.Call]++
	if b.changing {
		b.n++
	}
	raw, _ := json.Marshal(map[string]any{"error": "button “Send” is disabled", "retry": 1, "calm": map[string]int{"n": b.n, "busy": b.busy}})
	return []FrameResult{{FrameID: 0, Result: raw}}, nil
}

// A disabled control on a page where nothing happens is said once the page has stood still a
// moment, not after the whole wait for a control enabled late; a page that changes, moves, or
// waits for an answer to a request is waited on as before, since that is what enables controls,
// and so is one the env acted on a moment ago.
func TestADisabledControlOnAStillPageIsSaidSoon(t *testing.T) {
	wasAction, wasStill := ActionWait, StillWait
	defer func() { ActionWait, StillWait = wasAction, wasStill }()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	ActionWait, StillWait = time.Hour, 100*time.Millisecond // the call's own end: 10 s
	still := &pageStill{pageSays: pageSays{asked: map[string]int{}}}
	_, err := NewEnv(still, 1, 0).locate(ctx, 1, 0, pageTarget{Ref: "e3"}, "click")
	require.ErrorContains(t, err, "is disabled", "waited on a still page until the call's own end")
	// Looked at again (at 50 and 150 ms), said once it had stood 100 ms.
	assert.Greater(t, still.asked["locate"], 1, "the page was not looked at again before it was said")
	assert.LessOrEqual(t, still.asked["locate"], 3, "the page was waited on after it had stood still")

	ActionWait, StillWait = 400*time.Millisecond, 0
	for name, b := range map[string]*pageStill{
		"a page that changes":          {changing: true},
		"a page where something moves": {busy: 1},
		"a page waiting for an answer": {out: 1},
	} {
		b.asked = map[string]int{}
		_, err := NewEnv(b, 1, 0).locate(ctx, 1, 0, pageTarget{Ref: "e3"}, "click")
		require.ErrorContains(t, err, "is disabled", name)
		assert.Greater(t, b.asked["locate"], 2, "%s was not waited on", name)
	}
	// A page still since the env's last action a moment ago may be answering it out of sight.
	justActed := &pageStill{pageSays: pageSays{asked: map[string]int{}}}
	e := NewEnv(justActed, 1, 0)
	e.acted()
	_, err = e.locate(ctx, 1, 0, pageTarget{Ref: "e3"}, "click")
	require.ErrorContains(t, err, "is disabled")
	assert.Greater(t, justActed.asked["locate"], 2, "a page still since the last action a moment ago was not waited on")
}
