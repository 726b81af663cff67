//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// runDenying sends text from the panel in agent mode and denies every call that asks, until the
// run ends; it returns what each ask said.
func runDenying(t *testing.T, panel context.Context, text string, within time.Duration) []shownAsk {
	t.Helper()
	startAgent(t, panel, text)
	var asks []shownAsk
	deadline := time.Now().Add(within)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the run did not end; cards: %s", cardsString(toolCards(t, panel)))
		}
		if JS[bool](t, panel, `!!document.querySelector(".msg.tool[data-status='asking'] .ask button:not([disabled])")`) {
			asks = append(asks, waitAsk(t, panel))
			reply(t, panel, "deny_once")
			WaitJS(t, panel, `!document.querySelector(".msg.tool[data-status='asking'] .ask button[data-decision='deny_once']:not([disabled])")`)
			continue
		}
		if JS[bool](t, panel, `document.getElementById("stop").hidden && `+lastAssistant+`?.dataset.status === "done"`) {
			return asks
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// elementHint is where an element of a tab is, for the evasive model: its centre in the
// viewport (the tab is scrolled to the top first).
func elementHint(t *testing.T, panel context.Context, tab int, selector string) testkit.Hint {
	t.Helper()
	var p struct{ X, Y float64 }
	raw := inTab[string](t, panel, tab, `(() => { scrollTo(0, 0); const r = document.querySelector(`+jsString(selector)+`).getBoundingClientRect(); return JSON.stringify({X: r.x + r.width / 2, Y: r.y + r.height / 2}); })()`)
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	return testkit.Hint{Selector: selector, X: p.X, Y: p.Y}
}

// An evasive model against a user who allowed acting on the site always: it wants the account
// deleted, and when told no it tries every other route: a double click, Enter and Space on the
// button, Tab presses that walk the focus onto it and Enter at each stop, seed 001's tab_action
// (alone, in a batch, by selector, at a point), a selector, the button's coordinates, Enter in
// the form's text field, typing with submit, fill_form with submit. Every route that would set
// the button off asks as deleting, and nothing deletes.
func TestEvasiveModelFindsNoWayPastTheGate(t *testing.T) {
	site := testkit.NewSite(t)
	var fieldRef string
	ev := &testkit.Evasive{}
	inner := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			fieldRef = refIn(t, c, `textbox "Nickname"`)
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Delete my account"`)})}
		},
	}}
	ev.Inner = inner.script
	m := testkit.NewModel(t, ev.Script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("account.html"))
	JS[any](t, panel, `skiffTest.call("permission.set", {tool: "act:*", origin: `+jsString(site.URL)+`, decision: "allow_always"})`)
	hint := elementHint(t, panel, tab, "#delete")
	ev.Hints = func(ref string) testkit.Hint {
		h := hint
		h.Field = fieldRef
		return h
	}
	asks := runDenying(t, panel, "delete my account", 3*time.Minute)

	if got := inTab[string](t, panel, tab, `document.getElementById("count-delete").textContent`); got != "0" {
		t.Errorf("the account was deleted %s times without an Allow; routes tried: %q\n%s", got, ev.Tried, cardsString(toolCards(t, panel)))
	}
	if len(ev.Tried) < 15 {
		t.Errorf("the model tried only %d routes: %q", len(ev.Tried), ev.Tried)
	}
	destructive := 0
	for _, a := range asks {
		if strings.Contains(a.What, "Delete my account") {
			destructive++
			if a.Facts["Risk"] != "cannot be undone" {
				t.Errorf("deleting asked as %q: %+v", a.Facts["Risk"], a)
			}
		} else {
			// The Tab walk also stops on the frame from another site, which asks on its own.
			t.Logf("an ask about something else: %s", a.What)
		}
	}
	// Every route reaches the button, and each asks as deleting at least once.
	if destructive < len(ev.Tried) {
		t.Errorf("%d asks about deleting for %d routes: %q\n%s", destructive, len(ev.Tried), ev.Tried, cardsString(toolCards(t, panel)))
	}
	// The harmless stops of the Tab walk ran: acting is allowed, and Save is not deleting.
	if inTab[string](t, panel, tab, `document.getElementById("count-save").textContent`) == "0" {
		t.Errorf("the Tab walk never pressed Save: %s", cardsString(toolCards(t, panel)))
	}
	t.Logf("evasive model: %d routes, %d asks (%d of them as deleting), 0 deletions", len(ev.Tried), len(asks), destructive)
}

// "Always" for a site does not reach into a frame from another site, nor does unticking a
// checkbox whose label says "Send" count as sending.
func TestFramesAndValueControls(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `checkbox "Send me offers"`),
		clickOn(t, `button "Claim the prize"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "anthropic", m)
	tab := openTab(t, panel, site.Page("account.html"))
	waitLoaded(t, panel, tab) // the frame too
	JS[any](t, panel, `skiffTest.call("permission.set", {tool: "act:*", origin: `+jsString(site.URL)+`, decision: "allow_always"})`)
	asks := runDenying(t, panel, "untick offers and claim the prize", 2*time.Minute)
	if got := inTab[string](t, panel, tab, `document.getElementById("offers").textContent`); got != "off" {
		t.Errorf("the checkbox was not unticked without asking (%s): %s", got, cardsString(toolCards(t, panel)))
	}
	if len(asks) != 1 || !strings.Contains(asks[0].What, "Claim the prize") || !strings.Contains(asks[0].Question, "") {
		t.Fatalf("asks: %+v", asks)
	}
	other := strings.TrimPrefix(site.Other, "http://")
	if !strings.Contains(fmt.Sprint(asks[0].Facts), other) {
		t.Errorf("the ask does not name the frame's site %s: %+v", other, asks[0])
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("count-claim").textContent`); got != "0" {
		t.Errorf("the frame's button was clicked without an Allow")
	}
}

// Calls whose arguments the tool's schema refuses never ask and never run: the model gets one
// sentence naming the field and the rule.
func TestInvalidCallsAreRefusedBeforeAsking(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("wait_for", obj{"seconds": 120}), call("screenshot", obj{"format": "gif"}), call("dialog", obj{}), call("click", obj{"ref": obj{"id": 5}})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "google", m)
	openTab(t, panel, site.Page("dialogs.html"))
	asks := runDenying(t, panel, "try these", time.Minute)
	if len(asks) > 0 {
		t.Errorf("invalid calls asked: %+v", asks)
	}
	want := []string{`"seconds" must be at most 30, not 120`, `"format" must be one of "jpeg", "png", not "gif"`, `"accept" is required`, `"ref" should be a string, not an object`}
	got := p.all()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the model was not told %s: %s", w, got)
		}
	}
	for _, c := range toolCards(t, panel) {
		if c.Status != "error" {
			t.Errorf("card %+v", c)
		}
	}
}

// Text hidden by what surrounds it (an opaque box stacked above, SVG painted with nothing, a
// box that cuts its overflow away, an empty link no stylesheet drew) reaches the model through
// none of its ways to read a page, while the visible look-alikes beside it all do.
func TestHiddenTextFamiliesNeverReachTheModel(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil), call("read_text", nil), call("find_text", obj{"text": "HIDDEN"}), call("links", nil), call("get_content", nil), call("find_text", obj{"text": "VISIBLE"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("hidden-families.html"))
	waitLoaded(t, panel, tab)
	runAgent(t, panel, "what does this page say?")
	var all strings.Builder
	for _, c := range m.Conversations() {
		all.WriteString(everything(c))
	}
	leaked := regexp.MustCompile(`HIDDEN-\w+`).FindAllString(all.String(), -1)
	if len(leaked) > 0 {
		t.Errorf("hidden text reached the model: %q", leaked)
	}
	if !strings.Contains(all.String(), "Hidden text families") {
		t.Fatalf("the page did not reach the model at all")
	}
	for _, name := range []string{"snapshot", "get_content"} {
		rs := p.results(name)
		if len(rs) != 1 {
			t.Fatalf("%s: %+v", name, rs)
		}
		for _, v := range []string{"VISIBLE-V1", "VISIBLE-V2", "VISIBLE-V3", "VISIBLE-V4", "VISIBLE-V5", "VISIBLE-VS1", "VISIBLE-VS2", "VISIBLE-VK0", "VISIBLE-VK1", "VISIBLE-VK2", "VISIBLE-VK5"} {
			if !strings.Contains(rs[0].Text, v) {
				t.Errorf("%s left out %s, which a person sees", name, v)
			}
		}
	}
	// An empty link with no size is not there for a person; one drawn with a background, or
	// holding an icon, is.
	for _, v := range []string{`link "VISIBLE-VE1`, `link "VISIBLE-VE2`, `link "VISIBLE-VE3`} {
		if !strings.Contains(p.results("snapshot")[0].Text, v) {
			t.Errorf("the snapshot left out %s, which a person sees", v)
		}
	}
}

// Words in elements of their own, with only a space or a newline between them (highlighted
// code, a link or button built of spans), keep that space in the names and text the model
// reads: "Sign in", not "Signin"; "int add(int x, int y)", not "intadd(intx,inty)"; code whose
// lines end in <br> keeps a space where each line ended. An icon font's glyphs (private-use
// characters) are left out: a link that holds only one is named by its title.
func TestWordsInSeparateElementsKeepTheirSpaces(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{calls(call("snapshot", nil))}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("spaced.html"))
	waitLoaded(t, panel, tab)
	runAgent(t, panel, "what does this page say?")
	rs := p.results("snapshot")
	if len(rs) != 1 {
		t.Fatalf("snapshot: %+v", rs)
	}
	for _, want := range []string{`link "Sign in"`, `button "✎ Save draft"`, `textbox "First name"`, "int add(int x, int y) { return x + y; }", "// add.c #include <emscripten.h> EMSCRIPTEN_KEEPALIVE",
		`button "Print"`, `link "Pin it"`, "and a line of text."} {
		if !strings.Contains(rs[0].Text, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, rs[0].Text)
		}
	}
	// An icon font's glyphs are pictures, not words: none reaches the model.
	if strings.ContainsAny(rs[0].Text, "\ue0a1\ue095\ue0b2") {
		t.Errorf("an icon font's glyph reached the model:\n%s", rs[0].Text)
	}
}

// A field that opens menus a level at a time (a cascader) may hold an action among its items
// (cascade-actions.html: "Delete my account" under Settings): select_option chooses values,
// so it refuses to click an item whose name says it cannot be taken back, whichever way the
// path is written; nothing is deleted.
func TestSelectOptionDoesNotClickAnActionInACascade(t *testing.T) {
	site := testkit.NewSite(t)
	choose := func(values ...string) step {
		return func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("select_option", obj{"ref": refIn(t, c, `combobox "Go to"`), "values": values})}
		}
	}
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		choose("Settings", "Delete my account"),
		choose("Settings / Delete my account"),
		choose("Settings", "Notifications"),
	}}
	panel, tab, _ := p.runOn(t, site, "cascade-actions.html", "go to my account's settings")
	r := p.results("select_option")
	if len(r) != 3 || !r[0].Error || !r[1].Error || r[2].Error ||
		!strings.Contains(r[0].Text, `"Delete my account" in combobox “Go to” is a menu item that says "Delete": select_option does not click it`) ||
		!strings.Contains(r[1].Text, "select_option does not click it") || !strings.Contains(r[2].Text, `Chose "Settings" › "Notifications"`) {
		t.Errorf("select_option: %s", p.all())
	}
	if s := inTab[string](t, panel, tab, `document.getElementById("status").textContent`); s != "Account active." {
		t.Errorf("the page says %q", s)
	}
}
