//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/tool"
)

// step is one model turn of a plan: the calls to make, knowing the results so far.
type step func(c *testkit.Conversation) []testkit.Call

// plan plays its steps one per model turn, then answers "Done." It keeps every tool result the
// model was sent, by tool call, for the test to check.
type plan struct {
	steps []step
	mu    sync.Mutex
	seen  []testkit.Msg // every tool result, in order
}

func (p *plan) script(c *testkit.Conversation) testkit.Turn {
	p.mu.Lock()
	p.seen = append(p.seen, c.Results()...)
	p.mu.Unlock()
	if s := c.Steps(); s < len(p.steps) {
		return testkit.Turn{Calls: p.steps[s](c)}
	}
	return testkit.Turn{Text: "Done."}
}

// results returns the results the model got from tool name, in order.
func (p *plan) results(name string) []testkit.Msg {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []testkit.Msg
	for _, r := range p.seen {
		if r.Name == name {
			out = append(out, r)
		}
	}
	return out
}

// since returns every tool result the model got from the i-th on.
func (p *plan) since(i int) []testkit.Msg {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]testkit.Msg(nil), p.seen[min(i, len(p.seen)):]...)
}

func (p *plan) all() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	for _, r := range p.seen {
		fmt.Fprintf(&b, "\n--- %s (error %v)\n%s", r.Name, r.Error, r.Text)
	}
	return b.String()
}

func calls(cs ...testkit.Call) step {
	return func(*testkit.Conversation) []testkit.Call { return cs }
}

func call(name string, args map[string]any) testkit.Call { return testkit.Call{Name: name, Args: args} }

type obj = map[string]any

// refIn finds the ref of the element whose snapshot line matches pattern (a regexp over the
// line before the ref), in the last snapshot the model got.
func refIn(t *testing.T, c *testkit.Conversation, pattern string) string {
	t.Helper()
	return refMatching(t, c, regexp.MustCompile(pattern+`[^\n\[]*\[((?:f\d+)?e\d+)\]`), pattern)
}

// refMatching is the first group of re in the last of the model's reads (snapshot, links,
// find_text) where re matches: a ref.
func refMatching(t *testing.T, c *testkit.Conversation, re *regexp.Regexp, what string) string {
	t.Helper()
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if m := c.Messages[i]; m.Role == "tool" && (m.Name == "snapshot" || m.Name == "links" || m.Name == "find_text") {
			if g := re.FindStringSubmatch(m.Text); g != nil {
				return g[1]
			}
		}
	}
	t.Errorf("no element matching %q in the snapshots", what)
	return "e0"
}

func TestAgentClicksPastAnOverlay(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		calls(call("click", obj{"selector": "#buy"})),                                   // covered by the banner: a clear failure
		calls(call("select_option", obj{"selector": "#size", "values": []string{"M"}})), // so is choosing under it
		clickOn(t, `button "Accept all"`),
		clickOn(t, `button "Buy"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("overlay.html"))
	runAgent(t, panel, "buy it")
	clicks := p.results("click")
	if len(clicks) != 3 {
		t.Fatalf("clicks: %s", p.all())
	}
	if !clicks[0].Error || !strings.Contains(clicks[0].Text, `utton “Buy” is covered by`) || !strings.Contains(clicks[0].Text, "Accept all") {
		t.Errorf("a covered click: %+v", clicks[0])
	}
	if sel := p.results("select_option"); len(sel) != 1 || !sel[0].Error || !strings.Contains(sel[0].Text, "is covered by") {
		t.Errorf("choosing in a covered list: %s", p.all())
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("size").value`); got != "S" {
		t.Errorf("the covered list was changed to %q", got)
	}
	if clicks[1].Error || clicks[2].Error {
		t.Errorf("clicks after the banner: %s", p.all())
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); got != "bought (trusted=true)" {
		t.Fatalf("page says %q", got)
	}
	// The cards show what happened.
	cards := toolCards(t, panel)
	if len(cards) != 5 || cards[1].Status != "error" || cards[2].Status != "error" || cards[4].Status != "done" || !strings.Contains(cards[4].What, `button “Buy”`) {
		t.Errorf("cards: %s", cardsString(cards))
	}
}

// A cover that waits for an answer (the cookie banner with its button, a dialog) is told from
// one that goes by itself (a loading veil): an element under the first is said to be covered
// once the banner has stood a moment, under the second it is waited for as long as ever.
func TestACookieBannerIsToldFromALoadingVeil(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	tab := openTab(t, panel, site.Page("overlay.html"))
	locate := func() string { return locateFor(t, panel, tab, "#buy") }
	if got := locate(); !strings.Contains(got, `is covered by`) || !strings.Contains(got, `"lasting":1`) {
		t.Errorf("under the cookie banner: %s", got)
	}
	// A consent banner drawn in a closed shadow root, as many are.
	inTab[bool](t, panel, tab, `(() => {
		const host = document.createElement("div");
		host.attachShadow({mode: "closed"}).innerHTML = '<p>We use cookies.</p><button type="button">OK</button>';
		document.querySelector("#banner div").replaceChildren(host);
		return true;
	})()`)
	if got := locate(); !strings.Contains(got, `is covered by`) || !strings.Contains(got, `"lasting":1`) {
		t.Errorf("under a cookie banner in a shadow root: %s", got)
	}
	inTab[bool](t, panel, tab, `(document.querySelector("#banner div").innerHTML = '<p role="progressbar">Loading…</p>', true)`)
	if got := locate(); !strings.Contains(got, `is covered by`) || strings.Contains(got, `lasting`) {
		t.Errorf("under a loading veil: %s", got)
	}
	inTab[bool](t, panel, tab, `(document.querySelector("#banner div").innerHTML = '<p>Saved.</p>', true)`)
	if got := locate(); !strings.Contains(got, `is covered by`) || strings.Contains(got, `lasting`) {
		t.Errorf("under a veil with nothing to answer: %s", got)
	}
}

// A box of the page's own laid over a button (a layout gone wrong, a menu left open) is said
// to stay once it stood still at two looks, as a cover that waits for an answer is, so a click
// hears of it within a second, not after the whole wait for it to go; one that may still go
// (a live region such as a toast, something animating in or around it, an empty veil, one that
// moved since the last look) is waited out.
func TestABoxLaidOverAButtonIsToldFromOneThatGoes(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	tab := openTab(t, panel, site.Page("laid-over.html"))
	locate := func() string { return locateFor(t, panel, tab, "#buy") }
	lasting := func(what string, want bool) {
		t.Helper()
		locate() // the first look at a box only notes where it is
		got := locate()
		if !strings.Contains(got, "is covered by") || strings.Contains(got, `"lasting":1`) != want {
			t.Errorf("%s: %s", what, got)
		}
	}
	change := func(js string) { inTab[bool](t, panel, tab, "("+js+", true)") }
	lasting("under a box of the page's that stays", true)
	change(`document.querySelector("#promo").setAttribute("role", "status")`)
	lasting("under a live region", false)
	change(`document.querySelector("#promo").removeAttribute("role")`)
	change(`document.querySelector("#promo").insertAdjacentHTML("beforeend", '<i class="spinning"></i>')`)
	lasting("under a box with something turning in it", false)
	change(`document.querySelector("#promo .spinning").remove()`)
	change(`document.querySelector("main").animate([{opacity: 1}, {opacity: 0.99}], {duration: 60000})`)
	lasting("under a box whose holder is fading", false)
	change(`document.getAnimations().forEach((a) => a.cancel())`)
	change(`document.querySelector("#promo").replaceChildren()`)
	lasting("under an empty veil", false)
	change(`document.querySelector("#promo").innerHTML = "<p>Spring sale</p>"`)
	lasting("under the box once more", true)
	change(`document.querySelector("#promo").style.left = "3px"`)
	if got := locate(); !strings.Contains(got, "is covered by") || strings.Contains(got, "lasting") {
		t.Errorf("under a box that moved since the last look: %s", got)
	}
}

// A sign-up's button the page keeps disabled until its form is complete: a click says at once
// what the form still wants (its required fields left empty, the ones not valid, each with its
// ref), where it waited 3 s to say only "disabled" and the model had to look again to learn why.
// So does one among fields that no form element holds, as apps draw forms. A disabled button
// with no form to complete says only that, as before.
func TestADisabledButtonSaysWhatItsFormWants(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{calls(call("click", obj{"selector": "#create"}))}}
	panel, tab, _ := p.runOn(t, site, "signup.html", "create my account")
	clicks := p.results("click")
	if len(clicks) != 1 || !clicks[0].Error || !regexp.MustCompile(`Button “Create account” is disabled; its form still has fields to fill: textbox “Email” \[e\d+\] \(empty\), combobox “Country” \[e\d+\] \(not chosen\), checkbox “I agree to the terms” \[e\d+\] \(not chosen\)`).MatchString(clicks[0].Text) {
		t.Fatalf("clicking the sign-up's disabled button: %s", p.all())
	}
	if strings.Contains(clicks[0].Text, "Name") {
		t.Errorf("a field the form does not need is said: %s", clicks[0].Text)
	}
	locate := func() string { return locateFor(t, panel, tab, "#create") }
	fill := func(js string) {
		inTab[bool](t, panel, tab, "("+js+`, document.getElementById("signup").dispatchEvent(new Event("input")), true)`)
	}
	fill(`document.querySelector("[name=email]").value = "ada"`)
	if got := locate(); !strings.Contains(got, `textbox “Email” [`) || !strings.Contains(got, `(not valid)`) || !strings.Contains(got, `"lasting":1`) {
		t.Errorf("with an address that is not one: %s", got)
	}
	fill(`document.querySelector("[name=email]").value = "ada@example.com"`)
	if got := locate(); strings.Contains(got, "Email") || !strings.Contains(got, `checkbox “I agree to the terms”`) {
		t.Errorf("with the address given: %s", got)
	}
	fill(`document.querySelector("[name=country]").value = "Portugal"`)
	fill(`document.querySelector("[name=terms]").checked = true`)
	if got := locate(); !strings.Contains(got, `"ok":1`) {
		t.Errorf("with the form complete: %s", got)
	}
	if got := locateFor(t, panel, tab, "#subscribe"); !strings.Contains(got, `is disabled; its form still has fields to fill: textbox “Your email” [`) || !strings.Contains(got, `(empty)`) {
		t.Errorf("a disabled button among fields with no form element around them: %s", got)
	}
	if got := locateFor(t, panel, tab, "#later"); !strings.Contains(got, `"error":"button “Import contacts” is disabled",`) || strings.Contains(got, "lasting") {
		t.Errorf("a disabled button with no form to complete: %s", got)
	}
}

// Closing a tab the task opened itself (tab_open, or a link it clicked that opened one) loses
// nothing of the user's: it does not ask, where closing one of the user's tabs still asks every
// time.
func TestClosingATabTheTaskOpenedDoesNotAsk(t *testing.T) {
	site := testkit.NewSite(t)
	newTab := ""
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `link "Read the full terms"`),
		func(c *testkit.Conversation) []testkit.Call {
			m := regexp.MustCompile(`It opened a new tab \(tabId (\d+)\)`).FindStringSubmatch(c.Results()[0].Text)
			if m == nil {
				t.Errorf("the click opened no tab: %s", c.Results()[0].Text)
				return nil
			}
			newTab = m[1]
			id, _ := strconv.Atoi(m[1])
			return []testkit.Call{call("tab_close", obj{"tabIds": []int{id}})}
		},
		calls(call("tab_open", obj{"url": site.Page("long.html")})),
		calls(call("tab_close", nil)),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	first := openTab(t, panel, site.Page("checks.html"))
	p.steps = append(p.steps, calls(call("tab_close", obj{"tabIds": []int{first}})))
	cards, asks := runAgentAsks(t, panel, "read the terms, then tidy up")
	closes := p.results("tab_close")
	if len(closes) != 3 {
		t.Fatalf("calls: %s", p.all())
	}
	for i, c := range closes {
		if c.Error || !strings.Contains(c.Text, "Closed 1 tab") {
			t.Errorf("close %d: %s", i+1, c.Text)
		}
	}
	// The click and tab_open ask (acting, loading a page), and so does closing the user's tab.
	if asks != 3 {
		t.Errorf("the task asked %d times, want 3 (the click, tab_open, closing the user's tab %d; not closing tab %s it opened): %+v", asks, first, newTab, cards)
	}
}

// A disabled control with no form to say why says what the page says of it, where pages say
// it: its description (a hidden hint), a tooltip on it or on the box around it. One the page
// says nothing of is only disabled.
func TestADisabledControlSaysWhatThePageSaysOfIt(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	tab := openTab(t, panel, site.Page("disabled-why.html"))
	for sel, want := range map[string]string{
		"#search": `button “Search” is disabled; the page says why: “Sign in to search your orders”`,
		"#send":   `button “Send invite” is disabled; the page says why: “Verify your email address first”`,
	} {
		if got := locateFor(t, panel, tab, sel); !strings.Contains(got, want) {
			t.Errorf("%s: %s", sel, got)
		}
	}
	if got := locateAs(t, panel, tab, "#field", "type"); !strings.Contains(got, `textbox “Coupon” is disabled; the page says why: “Coupons open on Monday”`) {
		t.Errorf("a field: %s", got)
	}
	if got := locateFor(t, panel, tab, "#plain"); !strings.Contains(got, `button “Export” is disabled"`) {
		t.Errorf("one the page says nothing of: %s", got)
	}
}

// What the page tells the core of its stillness along with a disabled control, a box over an
// element or a hidden one, which a still page does not change by itself: on a page where nothing happens
// the count of its changes stands and it is not busy (the core says the failure once it has
// stood a second, not after the whole 3 s wait); a countdown's every tick counts, and a box
// fading away is busy, so those are waited on. Then, through the agent, a button enabled
// when its countdown ends is clicked.
func TestAStillPageIsToldFromOneAtWork(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	tab := openTab(t, panel, site.Page("still-or-not.html"))
	waitTab(t, panel, tab, "window.settled")
	type answer struct {
		Error string
		Calm  *struct{ N, Busy int }
	}
	look := func(sel string) answer {
		t.Helper()
		var a answer
		raw := locateFor(t, panel, tab, sel)
		if err := json.Unmarshal([]byte(raw), &a); err != nil || a.Calm == nil {
			t.Fatalf("%s: %s", sel, raw)
		}
		return a
	}
	for sel, want := range map[string]string{"#export": `button “Export” is disabled`, "#buy": `button “Buy” is covered by div <div#veil>`, "#gift": `button <button#gift> is not visible (display:none)`} {
		first, again := look(sel), look(sel)
		if !strings.Contains(first.Error, want) || first.Calm.Busy != 0 || again.Calm.Busy != 0 || again.Calm.N != first.Calm.N {
			t.Errorf("%s on a still page: %+v, then %+v", sel, first, again)
		}
	}

	inTab[bool](t, panel, tab, `document.getElementById("fading").classList.add("going"), true`)
	if a := look("#pay"); !strings.Contains(a.Error, "is covered by") || a.Calm.Busy != 1 {
		t.Errorf("under a box fading away: %+v", a)
	}

	inTab[bool](t, panel, tab, `document.getElementById("start").click(), true`)
	ticks := inTab[int](t, panel, tab, "window.ticks")
	before := look("#resend")
	waitTab(t, panel, tab, fmt.Sprintf("window.ticks > %d", ticks))
	if after := look("#resend"); !strings.Contains(before.Error, "is disabled") || after.Calm.N <= before.Calm.N {
		t.Errorf("a countdown ticking: %+v, then %+v", before, after)
	}

	p := &plan{steps: []step{calls(call("click", obj{"selector": "#start"})), calls(call("click", obj{"selector": "#resend"}))}}
	p.runOn(t, site, "still-or-not.html", "ask for the code again")
	if r := p.results("click"); len(r) != 2 || r[1].Error {
		t.Fatalf("clicking the button enabled when its countdown ends: %s", p.all())
	}
}

// A tab the chat opened stays its own after the worker restarts and in the chat's next
// message ("close the tabs you opened" does not ask), unless the user went to it meanwhile:
// then it is theirs again, and closing it asks, as closing the user's own tab does.
func TestATabTheChatOpenedStaysItsOwnAfterARestart(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{calls(call("tab_open", obj{"url": site.Page("long.html")}), call("tab_open", obj{"url": site.Page("counter.html")}))}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	first := openTab(t, panel, site.Page("checks.html"))
	runAgentAsks(t, panel, "open the long page and the counter")
	var ids []int
	for _, r := range p.results("tab_open") {
		said := regexp.MustCompile(`Opened tab (\d+)`).FindStringSubmatch(r.Text)
		if r.Error || said == nil {
			t.Fatalf("tab_open: %s", p.all())
		}
		id, _ := strconv.Atoi(said[1])
		ids = append(ids, id)
	}
	if len(ids) != 2 {
		t.Fatalf("tab_open: %s", p.all())
	}
	// The user goes to their tab, then to the second one the chat opened (the last opened,
	// in front until then).
	JS[any](t, panel, fmt.Sprintf(`chrome.tabs.update(%d, {active: true}).then(() => chrome.tabs.update(%d, {active: true})).then(() => 0)`, first, ids[1]))
	browser.RestartWorker(t, panel)
	WaitJS(t, panel, `document.querySelector('.msg.tool[data-tool="tab_open"][data-status="done"]')`) // the chat drawn again
	p.mu.Lock()
	p.steps = []step{calls(call("tab_close", obj{"tabIds": []int{ids[0]}})), calls(call("tab_close", obj{"tabIds": []int{ids[1]}})), calls(call("tab_close", obj{"tabIds": []int{first}}))}
	p.mu.Unlock()
	Do(t, panel, chromedp.SendKeys("#input", "close the tabs you opened, then mine\r"))
	WaitJS(t, panel, `document.querySelectorAll('.msg[data-role="user"]').length === 2`)
	var asked []string
	deadline := time.Now().Add(90 * time.Second)
	for !JS[bool](t, panel, `document.getElementById("stop").hidden && `+lastAssistant+`?.dataset.status === "done" && document.querySelectorAll('.msg.tool[data-tool="tab_close"]').length === 3`) {
		if time.Now().After(deadline) {
			t.Fatalf("the run did not end: %s", cardsString(toolCards(t, panel)))
		}
		if JS[bool](t, panel, `!!document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`) {
			asked = append(asked, JS[string](t, panel, `document.querySelector(".msg.tool .ask .allow-once:not([disabled])").closest(".msg.tool").textContent`))
			Click(t, panel, `document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`)
			continue
		}
		time.Sleep(50 * time.Millisecond)
	}
	closes := p.results("tab_close")
	if len(closes) != 3 || closes[0].Error || closes[1].Error || closes[2].Error {
		t.Fatalf("calls: %s", p.all())
	}
	if len(asked) != 2 || !strings.Contains(asked[0], "Counter") || !strings.Contains(asked[0], "This chat opened the tab, but you have been in it since") || !strings.Contains(asked[1], "Checks") {
		t.Errorf("closing asked %d times, want twice (the tab %d the user went to, the user's tab %d; not tab %d the chat opened): %q", len(asked), ids[1], first, ids[0], asked)
	}
}

// An element in a part of the page that is closed (a menu a button opens, a <details>, a
// popover, an accordion's panel drawn at no height) says at once what opens it, where it waited 3 s to say it was not visible. One
// hidden with nothing to open it says only that, as before.
func TestAHiddenElementSaysWhatOpensIt(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	tab := openTab(t, panel, site.Page("closed-parts.html"))
	for sel, opener := range map[string]string{"#pricing": `button “Menu”`, "#export": `“More options”`, "#tip": `button “Tips”`} {
		got := locateFor(t, panel, tab, sel)
		if !strings.Contains(got, "is not visible: it is in a part of the page that ") || !strings.Contains(got, opener+" [e") || !strings.Contains(got, `"lasting":1`) {
			t.Errorf("%s: %s", sel, got)
		}
	}
	if got := locateFor(t, panel, tab, "#returns"); !strings.Contains(got, "is not visible: it is in a part of the page that button “Shipping questions” [e") || !strings.Contains(got, `"lasting":1`) {
		t.Errorf("in an accordion's panel drawn at no height: %s", got)
	}
	if got := locateFor(t, panel, tab, "#gone"); !strings.Contains(got, "is not visible (") || strings.Contains(got, "lasting") {
		t.Errorf("hidden with nothing to open it: %s", got)
	}
	inTab[bool](t, panel, tab, `(document.getElementById("menu-button").click(), true)`)
	if got := locateFor(t, panel, tab, "#pricing"); !strings.Contains(got, `"ok":1`) {
		t.Errorf("in the menu once opened: %s", got)
	}
}

// A field a page keeps read-only until it has the focus (to keep autofill out) takes the text,
// as it does when a person clicks it first; it was refused for 3 s as read-only. A field that
// stays read-only (a picker fills it) is said so at once.
func TestAFieldReadOnlyUntilFocusedTakesText(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{calls(call("type", obj{"selector": "#user", "text": "ada"})), calls(call("type", obj{"selector": "#date", "text": "2026-12-01"}))}}
	panel, tab, _ := p.runOn(t, site, "readonly.html", "sign in")
	types := p.results("type")
	if len(types) != 2 {
		t.Fatalf("calls: %s", p.all())
	}
	if types[0].Error || inTab[string](t, panel, tab, `document.getElementById("user").value`) != "ada" {
		t.Errorf("typing into the field read-only until focused: %s", types[0].Text)
	}
	if !types[1].Error || !strings.Contains(types[1].Text, "is read-only: a picker may fill it") {
		t.Errorf("typing into a field read-only for good: %s", types[1].Text)
	}
	if got := locateAs(t, panel, tab, "#date", "type"); !strings.Contains(got, "is read-only") || !strings.Contains(got, `"lasting":1`) {
		t.Errorf("the field read-only for good, as typing asks the page: %s", got)
	}
}

// links on a real page with thousands of them (Archive of Our Own's, 3,859 anchors): the first
// ones, as many as a result holds, say how many there are and how to find the others, and a
// filter finds a link far past them (the footer's "Known Issues"), with a ref to act on it.
func TestLinksFindsALinkPastTheFirstOnes(t *testing.T) {
	pages := testkit.Pages(t)
	p := &plan{}
	p.steps = []step{
		calls(call("links", nil), call("links", obj{"filter": "known issues"}), call("links", obj{"filter": "no such link here"})),
	}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, pages+"/archive-of-our-own/")
	runAgent(t, panel, "find the known issues")
	rs := p.results("links")
	if len(rs) != 3 {
		t.Fatalf("links results: %s", p.all())
	}
	all := rs[0].Text
	n := strings.Count(all, "\n- [") // the fence's first line comes before them
	if !strings.Contains(all, fmt.Sprintf("These are the first %d of the page's ", n)) || !strings.Contains(all, " links; the rest are not listed: pass filter") {
		t.Errorf("links does not say it listed only some: %s", all[max(0, len(all)-400):])
	}
	if n < 300 || len(all) > tool.MaxResultChars {
		t.Errorf("%d links in %d characters", n, len(all))
	}
	if strings.Contains(all, "Known Issues") {
		t.Errorf("the footer's link is in the first 500")
	}
	if !regexp.MustCompile(`- \[e\d+\] "Known Issues" http://127\.0\.0\.1:\d+/known_issues`).MatchString(rs[1].Text) || strings.Contains(rs[1].Text, "These are the first") {
		t.Errorf("links filtered by known issues: %s", rs[1].Text)
	}
	if !strings.Contains(rs[2].Text, `No link has "no such link here" in its text or address.`) {
		t.Errorf("links filtered by words no link has: %s", rs[2].Text)
	}
}

// A dialog opened modal (showModal) makes the page behind it inert, as Chrome's accessibility
// tree has it: the snapshot shows the dialog and says the page behind it is left out, an action
// on an element behind it says why it cannot be done instead of reporting it done, and once
// the dialog is closed from inside it the page is there again.
func TestAModalDialogHoldsThePageBehindIt(t *testing.T) {
	site := testkit.NewSite(t)
	cancel := ""
	p := &plan{}
	p.steps = []step{
		calls(call("snapshot", nil)),
		calls(call("click", obj{"selector": "#save"}), call("type", obj{"selector": "#name", "text": "Bob"}), call("links", nil)),
		func(*testkit.Conversation) []testkit.Call {
			if m := regexp.MustCompile(`button "Cancel" \[(e\d+)\]`).FindStringSubmatch(p.results("snapshot")[0].Text); m != nil {
				cancel = m[1]
			}
			return []testkit.Call{call("click", obj{"ref": cancel})}
		},
		calls(call("snapshot", nil)),
	}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("modal.html"))
	// The dialog waits for an answer: a click behind it is refused at once, not after the wait
	// for what may go by itself.
	if got := locateFor(t, panel, tab, "#save"); !strings.Contains(got, "a dialog open over the page") || !strings.Contains(got, `"lasting":1`) {
		t.Errorf("behind the dialog, as the page says: %s", got)
	}
	runAgentAsks(t, panel, "save my settings")
	snaps := p.results("snapshot")
	if len(snaps) != 2 {
		t.Fatalf("snapshots: %s", p.all())
	}
	if !strings.Contains(snaps[0].Text, `[A dialog "Delete your account?" [e1] is open over the page: until it closes, only what is in it can be used; the page behind it is left out (3 controls).]`) ||
		strings.Contains(snaps[0].Text, "Save changes") || !strings.Contains(snaps[0].Text, `button "Delete account"`) {
		t.Errorf("the snapshot with the dialog open:\n%s", snaps[0].Text)
	}
	for _, r := range []testkit.Msg{p.results("click")[0], p.results("type")[0]} {
		if !r.Error || !strings.Contains(r.Text, `is behind dialog “Delete your account?`) || !strings.Contains(r.Text, "a dialog open over the page: nothing behind it can be used until it closes") {
			t.Errorf("%s behind the dialog: error %v, %s", r.Name, r.Error, r.Text)
		}
	}
	if l := p.results("links")[0].Text; !strings.Contains(l, "No links found.") {
		t.Errorf("links behind the dialog: %s", l)
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("name").value + "|" + document.getElementById("saved").textContent`); got != "Ada|" {
		t.Errorf("the page behind the dialog changed: %q", got)
	}
	if c := p.results("click"); len(c) != 2 || c[1].Error {
		t.Fatalf("Cancel in the dialog (%s): %s", cancel, p.all())
	}
	if !strings.Contains(snaps[1].Text, `button "Save changes"`) || strings.Contains(snaps[1].Text, "A dialog") {
		t.Errorf("the snapshot once the dialog closed:\n%s", snaps[1].Text)
	}
}

// A check that a person is there (reCAPTCHA's checkbox, as its script draws it) is the user's:
// the snapshot says so and tells the model to hand it over. reCAPTCHA v3's badge, which asks
// the person nothing, is not such a check.
func TestACaptchaIsHandedToTheUser(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{}
	p.steps = []step{
		calls(call("snapshot", nil)),
		calls(call("navigate", obj{"url": site.Page("captcha-v3.html")})),
		calls(call("snapshot", nil)),
	}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("captcha.html"))
	runAgentAsks(t, panel, "sign me up")
	snaps := p.results("snapshot")
	if len(snaps) != 2 {
		t.Fatalf("snapshots: %s", p.all())
	}
	const handOver = "[The page asks to prove a person is here (reCAPTCHA). Do not try to solve it or get around it: tell the user, who can solve it in the tab, and go on once they say it is done.]"
	if !strings.Contains(snaps[0].Text, handOver) {
		t.Errorf("the sign-up page's snapshot does not hand the check over:\n%s", snaps[0].Text)
	}
	if strings.Contains(snaps[1].Text, "prove a person") || !strings.Contains(snaps[1].Text, `button "Subscribe"`) {
		t.Errorf("reCAPTCHA v3's badge was taken for a check:\n%s", snaps[1].Text)
	}
	if !strings.Contains(m.Conversations()[0].System, `A CAPTCHA or "verify you are human" check is for the user`) {
		t.Errorf("the agent's instructions do not say CAPTCHAs are the user's")
	}
}

// Reading tools and tab tools, over Gemini's wire format.
func TestAgentReadsPagesAndManagesTabs(t *testing.T) {
	site := testkit.NewSite(t)
	var groupTab int
	p := &plan{}
	p.steps = []step{
		calls(call("tabs_list", nil)),
		calls(call("tab_open", obj{"url": site.Page("long.html")})),
		calls(call("find_text", obj{"text": "pineapple"}), call("links", nil), call("get_content", obj{"selector": "#s47"})),
		calls(call("read_text", nil), call("snapshot", obj{"interactive": true}), call("screenshot", nil)),
		calls(call("scroll", obj{"direction": "bottom"}), call("scroll", obj{"ref": "e1"}), call("scroll", obj{"direction": "right"})),
		calls(call("tabs_list", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			m := regexp.MustCompile(`tab (\d+) \(current\)`).FindStringSubmatch(c.Results()[0].Text)
			if m == nil {
				t.Errorf("no current tab in %s", c.Results()[0].Text)
				return nil
			}
			fmt.Sscan(m[1], &groupTab)
			return []testkit.Call{call("tab_group", obj{"tabIds": []int{groupTab}, "title": "Research", "color": "green"})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("tab_ungroup", obj{"tabIds": []int{groupTab}})}
		},
		calls(call("navigate", obj{"url": site.Page("form.html")})),
		calls(call("back", nil)),
		calls(call("forward", nil)),
		calls(call("reload", nil)),
		calls(call("tab_close", nil)),
	}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "google", m)
	first := openTab(t, panel, site.Page("flights.html"))
	runAgent(t, panel, "look around")
	check := func(name string, i int, want ...string) {
		t.Helper()
		rs := p.results(name)
		if len(rs) <= i {
			t.Errorf("%s: no result %d:%s", name, i, p.all())
			return
		}
		for _, w := range want {
			if !strings.Contains(rs[i].Text, w) || rs[i].Error {
				t.Errorf("%s: %q not in:\n%s", name, w, rs[i].Text)
			}
		}
	}
	check("tabs_list", 0, fmt.Sprintf("tab %d (current)", first), "SkyCheap")
	check("tab_open", 0, "Long page", "long.html")
	check("find_text", 0, "The secret word is pineapple", "in p") // the match and where it is
	check("links", 0)
	check("get_content", 0, "Section 47")
	check("read_text", 0, "Title: Long page", "Paragraph 60 of a long page")
	check("snapshot", 0, `button "Bottom button"`)
	check("screenshot", 0, "Screenshot of")
	check("scroll", 0, "This is the bottom of the page")
	check("scroll", 2, "px sideways; now at ", " of 24") // the page is 2400 px and more across
	check("navigate", 0, "Contact form")
	check("back", 0, "Long page")
	check("forward", 0, "Contact form")
	check("reload", 0, "Contact form")
	check("tab_close", 0, "Closed 1 tab")
	if s := p.results("screenshot"); len(s) == 1 && s[0].Images != 1 {
		t.Errorf("the screenshot reached the model as %d images", s[0].Images)
	}
	if g := p.results("tab_group"); len(g) == 1 {
		if !strings.Contains(g[0].Text, `"Research"`) {
			t.Errorf("tab_group: %s", g[0].Text)
		}
	}
	// The real state of the browser: the long page's tab was closed, the flights tab remains
	// (tabs of earlier tests, on their own servers, may still be closing: only this site's count).
	if n := JS[int](t, panel, `chrome.tabs.query({}).then(ts => ts.filter(t => t.url.startsWith(`+jsString(site.URL)+`)).length)`); n != 1 {
		t.Errorf("%d site tabs open", n)
	}
	if g := JS[int](t, panel, `chrome.tabGroups.query({title: "Research"}).then(gs => gs.length)`); g != 0 {
		t.Errorf("the group is still there after ungroup")
	}
	// The screenshot is the chat's, with no note of it left; deleted, the chat takes it along.
	NothingLeftBehind(t, panel)
	if n := JS[int](t, panel, `chrome.storage.local.get(null).then(a => Object.keys(a).filter(k => k.startsWith("image/")).length)`); n != 1 {
		t.Errorf("%d pictures stored after a run that took one screenshot", n)
	}
	JS[bool](t, panel, `skiffTest.call("session.delete", {sessionId: skiffTest.state.active.id}).then(() => true)`)
	NothingLeftBehind(t, panel)
	if n := JS[int](t, panel, `chrome.storage.local.get(null).then(a => Object.keys(a).filter(k => k.startsWith("image/")).length)`); n != 0 {
		t.Errorf("%d pictures stored after the chat was deleted", n)
	}
}

// An agent run over a provider that bills each call (OpenRouter's usage.cost): each reply's
// Details say what its call cost, and the last one's what the whole run cost, summed.
func TestAnAgentRunSaysWhatItCost(t *testing.T) {
	site := testkit.NewSite(t)
	costs := []float64{0.00042, 0.0011, 0.00025}
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		s := c.Steps()
		turn := testkit.Turn{Cost: costs[min(s, len(costs)-1)]}
		if s < 2 {
			turn.Calls = []testkit.Call{call("snapshot", nil)}
		} else {
			turn.Text = "Done."
		}
		return turn
	})
	panel := browser.FreshPanel(t)
	Configure(t, panel, "openrouter", m.URL, "sk-or-test", "openai/gpt-4o-mini")
	openTab(t, panel, site.Page("form.html"))
	allowSite(t, panel, site.URL)
	runAgent(t, panel, "look at the form")
	Click(t, panel, lastAssistant+`.querySelector(".info-msg")`)
	WaitJS(t, panel, lastAssistant+`.querySelector(".m-info") !== null`)
	info := JS[string](t, panel, lastAssistant+`.querySelector(".m-info").textContent`)
	for _, want := range []string{"tokens: 100 in, 20 out · cost $0.00025", "\nthe whole run: 3 model calls, tokens: 300 in, 60 out, cost $0.00177"} {
		if !strings.Contains(info, want) {
			t.Errorf("the run's Details say %q, without %q", info, want)
		}
	}
}

// Acting on a form, over Anthropic's wire format: type replaces, submit presses Enter as a
// person does (and what the field says of a value it refuses comes back), fill_form sets every
// kind of field, select_option, press_key, hover.
func TestAgentFillsAForm(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("type", obj{"ref": refIn(t, c, `textbox "First name"`), "text": "Ada"}),
				call("type", obj{"ref": refIn(t, c, `searchbox "Search"`), "text": "lisbon", "submit": true}),
				call("type", obj{"ref": refIn(t, c, `textbox "Email"`), "text": "ada at example"}),
				call("fill_form", obj{"fields": []obj{
					{"ref": refIn(t, c, `textbox "Email"`), "value": "ada@example.com"},
					{"ref": refIn(t, c, `combobox "Country"`), "value": "Portugal"},
					{"ref": refIn(t, c, `checkbox "Newsletter"`), "value": "false"},
					{"ref": refIn(t, c, `radio "Phone"`), "value": "true"},
					{"ref": refIn(t, c, `textbox "Message"`), "value": "Hello\nthere"},
				}}),
				call("type", obj{"ref": refIn(t, c, `textbox "Notes"`), "text": " more", "clear": false}),
				call("click", obj{"ref": refIn(t, c, `button "Disabled"`)}),
			}
		},
		calls(call("select_option", obj{"selector": "select[name=country]", "values": []string{"Spain"}}),
			call("press_key", obj{"key": "Control+A", "selector": "#first"}), call("press_key", obj{"key": "Backspace"}),
			call("hover", obj{"selector": "button[type=submit]"}), call("select_option", obj{"selector": "select[name=country]", "values": []string{"Mars"}})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "anthropic", m)
	tab := openTab(t, panel, site.Page("form.html"))
	runAgent(t, panel, "fill the form")
	// The last reply's Details count the whole run: four model calls, each counting 100 tokens
	// in and 20 out (the scripted model's usage).
	Click(t, panel, lastAssistant+`.querySelector(".info-msg")`)
	WaitJS(t, panel, lastAssistant+`.querySelector(".m-info") !== null`)
	if got := JS[string](t, panel, lastAssistant+`.querySelector(".m-info").textContent.split("\n")[1]`); got != "the whole run: 4 model calls, tokens: 400 in, 80 out" {
		t.Errorf("the run's details: %q", got)
	}
	state := inTab[map[string]any](t, panel, tab, `(() => { const f = document.forms[0]; return {first: f.first.value, email: f.email.value, country: f.country.value, news: f.news.checked, by: f.by.value, message: f.message.value, typed: document.getElementById("typed").textContent, notes: document.getElementById("editor").textContent} })()`)
	want := map[string]any{"first": "", "email": "ada@example.com", "country": "Spain", "news": false, "by": "phone", "message": "Hello\nthere",
		"typed": "searched: lisbon trusted=true", "notes": "Some notes more"}
	for k, v := range want {
		if state[k] != v {
			t.Errorf("%s = %#v, want %#v", k, state[k], v)
		}
	}
	types := p.results("type")
	if len(types) != 4 || types[0].Error || !strings.Contains(types[0].Text, `Typed 3 characters into textbox “First name”`) {
		t.Errorf("type: %s", p.all())
	}
	// An address the field refuses: the field's own message comes back.
	if len(types) == 4 && !strings.Contains(types[2].Text, "The field says its value is not valid: \"Please include an '@'") {
		t.Errorf("typing an address without an @: %s", types[2].Text)
	}
	clicks := p.results("click")
	if len(clicks) != 1 || !clicks[0].Error || !strings.Contains(clicks[0].Text, "is disabled") {
		t.Errorf("clicking a disabled button: %+v", clicks)
	}
	sel := p.results("select_option")
	if len(sel) != 2 || sel[0].Error || !sel[1].Error || !strings.Contains(sel[1].Text, `has no option "Mars"`) {
		t.Errorf("select_option: %+v", sel)
	}
}

// Without the debugger (DevTools open on the tab, another extension debugging it: here Skiff's
// own panel holds it, so the worker cannot attach), actions fall back to DOM events: the form
// still fills and sends, and each result says its input was not real, for the model to know
// why a site may ignore it.
func TestAgentFillsAFormWithoutTheDebugger(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("type", obj{"ref": refIn(t, c, `textbox "First name"`), "text": "Ada"}),
				call("type", obj{"ref": refIn(t, c, `searchbox "Search"`), "text": "lisbon", "submit": true}),
				call("fill_form", obj{"fields": []obj{
					{"ref": refIn(t, c, `textbox "Email"`), "value": "ada@example.com"},
					{"ref": refIn(t, c, `checkbox "Newsletter"`), "value": "false"},
					{"ref": refIn(t, c, `textbox "Message"`), "value": "Hello\nthere"},
				}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Country"`), "values": []string{"Portugal"}}),
				call("click", obj{"ref": refIn(t, c, `radio "Phone"`)}),
				call("press_key", obj{"key": "End", "ref": refIn(t, c, `textbox "First name"`)}),
				call("press_key", obj{"key": "Backspace"}),
				call("press_key", obj{"key": "Tab"}),
				call("press_key", obj{"key": " ", "ref": refIn(t, c, `checkbox "Newsletter"`)}),
				call("type", obj{"ref": refIn(t, c, `textbox "Notes"`), "text": " more", "clear": false}),
			}
		},
		clickOn(t, `button "Send"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("form.html"))
	takeDebugger(t, panel, tab)
	runAgent(t, panel, "fill the form and send it")
	forms := site.Forms()
	if len(forms) != 1 {
		t.Fatalf("%d forms sent: %s", len(forms), p.all())
	}
	want := map[string]string{"first": "Ad", "email": "ada@example.com", "country": "pt", "by": "phone", "message": "Hello\r\nthere", "news": "on"}
	for k, v := range want {
		if got := forms[0].Get(k); got != v {
			t.Errorf("the form sent %s=%q, want %q", k, got, v)
		}
	}
	for _, name := range []string{"type", "click", "press_key"} {
		for _, r := range p.results(name) {
			if r.Error || !strings.Contains(r.Text, "with DOM events") {
				t.Errorf("%s did not say its input was not real: %s", name, r.Text)
			}
		}
	}
	// What a click changed is read as for a real one.
	if c := p.results("click"); len(c) != 2 || !strings.Contains(c[0].Text, "It is now checked.") || !strings.Contains(c[1].Text, `The page changed to "Thank you"`) {
		t.Errorf("click: %s", p.all())
	}
	// A key as DOM events does nothing by itself: Skiff did what the browser does, and says so.
	keys := p.results("press_key")
	for i, want := range []string{"moved the caret", "deleted", "moved the focus", "pressed it"} {
		if i >= len(keys) || !strings.Contains(keys[i].Text, "Skiff did what the browser does for it: "+want) {
			t.Errorf("press_key %d does not say %q: %s", i, want, p.all())
		}
	}
	if len(keys) > 2 && !strings.Contains(keys[2].Text, "Email") {
		t.Errorf("Tab from the first name did not say the focus went to the email: %s", keys[2].Text)
	}
	for _, name := range []string{"fill_form", "select_option"} {
		for _, r := range p.results(name) {
			if r.Error {
				t.Errorf("%s failed: %s", name, r.Text)
			}
		}
	}
}

// Frames (same-origin and cross-origin) and shadow DOM (open and closed), over OpenAI's format:
// the snapshot shows them, refs in frames act there, with trusted input.
func TestAgentWorksInFramesAndShadowDOM(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `button "Inner button"`)}),
				call("type", obj{"ref": refIn(t, c, `textbox "Card holder"`), "text": "Ada L"}),
				call("click", obj{"ref": refIn(t, c, `button "Pay"`)}),
			}
		},
		// Read again: the page now knows its frames, and its first reading is the one kept.
		calls(call("snapshot", nil)),
		calls(call("navigate", obj{"url": site.Page("shadow.html")})),
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("type", obj{"ref": refIn(t, c, `textbox "Coupon"`), "text": "SAVE10"}),
				call("click", obj{"ref": refIn(t, c, `button "Apply coupon"`)}),
			}
		},
		clickOn(t, `button "Subscribe"`),
		clickOn(t, `button "Add notice"`),
		clickOn(t, `button "Open confirm"`),
		clickOn(t, `button "Secret action"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("frames.html"))
	runAgent(t, panel, "pay in the frames")
	snaps := p.results("snapshot")
	if len(snaps) != 3 {
		t.Fatalf("snapshots: %s", p.all())
	}
	for _, snap := range snaps[:2] {
		for _, want := range []string{`iframe "Inner"`, `iframe "Payment"`, "Inside the frame.", `button "Inner button" [f`, `textbox "Card holder" [f`} {
			if !strings.Contains(snap.Text, want) {
				t.Errorf("frames snapshot lacks %q:\n%s", want, snap.Text)
			}
		}
	}
	if !strings.Contains(snaps[1].Text, "Ada L") {
		t.Errorf("the second frames snapshot does not show what was typed in the frame:\n%s", snaps[1].Text)
	}
	for _, want := range []string{`textbox "Coupon"`, `button "Apply coupon"`, `button "Secret action"`, `button "Subscribe"`} {
		if !strings.Contains(snaps[2].Text, want) {
			t.Errorf("shadow snapshot lacks %q:\n%s", want, snaps[2].Text)
		}
	}
	if c := p.results("click"); len(c) < 3 || !strings.Contains(c[len(c)-3].Text, `The page says: "Notice added"`) {
		t.Errorf("an alert in the shadow tree of an element the click added went unsaid: %s", p.all())
	}
	if c := p.results("click"); len(c) < 5 || !strings.Contains(c[len(c)-5].Text, `"10% off your order"`) {
		t.Errorf("what a web component showed in its shadow tree went unsaid: %s", p.all())
	}
	if c := p.results("click"); len(c) < 2 || !strings.Contains(c[len(c)-2].Text, "It opened dialog “Confirm”") {
		t.Errorf("a dialog a web component keeps in its shadow tree opened unsaid: %s", p.all())
	}
	// The web button's element only wraps its button; the chips show the pointer under the
	// mouse by their own tree's sheets.
	if strings.Count(snaps[2].Text, "clickable") != 2 || !strings.Contains(snaps[2].Text, `clickable "Red" [e`) || !strings.Contains(snaps[2].Text, `clickable "Blue" [e`) {
		t.Errorf("shadow snapshot has other clickables than the two chips:\n%s", snaps[2].Text)
	}
	for _, r := range append(p.results("click"), p.results("type")...) {
		if r.Error {
			t.Errorf("%s failed: %s", r.Name, r.Text)
		}
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); got != "secret clicked" {
		t.Errorf("shadow page says %q", got)
	}
	// The frames page is behind us now; its state was checked by the results: the click in the
	// same-origin frame was trusted, and the cross-origin form got the text.
	if c := p.results("click"); len(c) > 0 && strings.Contains(c[0].Text, "DOM events") {
		t.Errorf("the click in the frame was not trusted: %s", c[0].Text)
	}
}

// A card form in a frame from another site, inside the shop's own checkout frame (as payment
// providers embed theirs): the snapshot reads both frames, type and click reach the form two
// frames down, and find_text and wait_for look there (not in a frame the checkout hides).
func TestAFormInAFrameInAFrame(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Card holder"`), "text": "Ada"})}
		},
		clickOn(t, `button "Pay"`),
		calls(call("find_text", obj{"text": "paid by"}), call("wait_for", obj{"text": "paid by Ada", "timeoutMs": 3000}), call("find_text", obj{"text": "Mallory"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("nested-frames.html"))
	runAgent(t, panel, "pay in the nested frame")
	snaps := p.results("snapshot")
	if len(snaps) != 1 {
		t.Fatalf("snapshots: %s", p.all())
	}
	for _, want := range []string{`iframe "Checkout"`, "Your basket: one sail.", `iframe "Card" [f`, `textbox "Card holder" [f`, `button "Pay" [f`} {
		if !strings.Contains(snaps[0].Text, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, snaps[0].Text)
		}
	}
	for _, r := range append(p.results("type"), p.results("click")...) {
		if r.Error {
			t.Errorf("%s failed: %s", r.Name, r.Text)
		}
	}
	if c := p.results("click"); len(c) != 1 || !strings.Contains(c[0].Text, "paid by Ada") {
		t.Errorf("the click two frames down: %s", p.all())
	}
	// find_text and wait_for look there too.
	if f := p.results("find_text"); len(f) != 2 || !strings.Contains(f[0].Text, "paid by Ada") || !strings.Contains(f[0].Text, "frame-cross.html") || !strings.Contains(f[0].Text, "ref f") {
		t.Errorf("find_text two frames down: %s", p.all())
	}
	if w := p.results("wait_for"); len(w) != 1 || w[0].Error {
		t.Errorf("wait_for two frames down: %s", p.all())
	}
	// A frame the checkout frame hides (a tracker's, with words for the AI) is not searched.
	if f := p.results("find_text"); len(f) != 2 || !strings.Contains(f[1].Text, "is not on the page") || strings.Contains(f[0].Text, "Mallory") {
		t.Errorf("find_text looked in a hidden frame: %s", p.all())
	}
}

// Frames with no address of their own, as rich-text editors and widgets make them (a srcdoc, an
// about:blank the page writes into), and two frames of the same address: each is read, each
// ref reaches its own frame.
func TestFramesWrittenByThePageAndTwins(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Srcdoc button"`),
		clickOn(t, `button "Blank button"`),
		func(c *testkit.Conversation) []testkit.Call {
			// The second twin's button: the last "Inner button" in the snapshot.
			refs := regexp.MustCompile(`button "Inner button" \[(f\d+e\d+)\]`).FindAllStringSubmatch(c.Messages[2].Text, -1)
			if len(refs) != 2 {
				t.Errorf("the twins' buttons: %q", refs)
				return nil
			}
			return []testkit.Call{call("click", obj{"ref": refs[1][1]})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("written-frames.html"))
	runAgent(t, panel, "click them")
	snaps := p.results("snapshot")
	if len(snaps) != 1 {
		t.Fatalf("snapshots: %s", p.all())
	}
	for _, want := range []string{"In srcdoc.", `button "Srcdoc button" [f`, "Written by the page.", `button "Blank button" [f`, `iframe "Twin two"`} {
		if !strings.Contains(snaps[0].Text, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, snaps[0].Text)
		}
	}
	c := p.results("click")
	if len(c) != 3 || !strings.Contains(c[0].Text, "done A") || !strings.Contains(c[1].Text, "done B") || c[2].Error {
		t.Fatalf("the clicks: %s", p.all())
	}
	if got := inTab[string](t, panel, tab, `[...document.querySelectorAll("iframe[src]")].map(f => f.contentDocument.getElementById("out").textContent).join("|")`); got != "|clicked inner true" {
		t.Errorf("the twins' frames say %q (the second was clicked)", got)
	}
}

// A ref in a frame the page has since removed says the frame is gone, in words the model can
// act on (not Chrome's "No frame with id …").
func TestARefInAFrameThatWentAwaySaysSo(t *testing.T) {
	site := testkit.NewSite(t)
	var holder string
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			holder = refIn(t, c, `textbox "Card holder"`)
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Pay another way"`)})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": holder, "text": "Ada"})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("frames.html"))
	runAgent(t, panel, "pay")
	ty := p.results("type")
	if len(ty) != 1 || !ty[0].Error || !strings.Contains(ty[0].Text, "That frame is no longer on the page (it was removed, or it loaded another page); take a new snapshot.") {
		t.Errorf("typing into a frame that was removed: %s", p.all())
	}
}

// A frame whose page did not load (its site does not answer, and Chrome shows its error page
// there) is said to be one, not "empty, or not readable", and the page around it reads and
// acts as ever.
func TestAFrameWhosePageDidNotLoadSaysSo(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Read more"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("dead-frame.html"))
	runAgent(t, panel, "read the news")
	snaps, clicks := p.results("snapshot"), p.results("click")
	if len(snaps) != 1 || len(clicks) != 1 || clicks[0].Error {
		t.Fatalf("calls: %s", p.all())
	}
	for _, want := range []string{"iframe \"Advert\" [e1]:\n  (its page did not load)", "iframe \"Empty\" [e2]:\n  (empty, or not readable)"} {
		if !strings.Contains(snaps[0].Text, want) {
			t.Errorf("want %q in the snapshot:\n%s", want, snaps[0].Text)
		}
	}
}

// A page's dialogs: the click that opens one reports it; the dialog tool answers; nothing hangs.
func TestAgentAnswersDialogs(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("click", obj{"selector": "#confirm"})),
		calls(call("snapshot", nil)), // the page is blocked: the dialog is reported, fast
		calls(call("dialog", obj{"accept": false})),
		calls(call("click", obj{"selector": "#prompt"})),
		calls(call("dialog", obj{"accept": true, "promptText": "Ada"})),
		calls(call("click", obj{"selector": "#alert"})),
		calls(call("dialog", obj{"accept": true})),
		calls(call("dialog", obj{"accept": true})), // nothing to answer
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("dialogs.html"))
	start := time.Now()
	runAgent(t, panel, "handle the dialogs")
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the run took %s", d)
	}
	clicks := p.results("click")
	if len(clicks) != 3 || !strings.Contains(clicks[0].Text, `confirm dialog that says "Delete everything?"`) {
		t.Fatalf("clicks: %s", p.all())
	}
	snap := p.results("snapshot")
	if len(snap) != 1 || !snap[0].Error || !strings.Contains(snap[0].Text, "use the dialog tool") {
		t.Errorf("a snapshot while the dialog is open: %+v", snap)
	}
	d := p.results("dialog")
	if len(d) != 4 || d[0].Error || d[1].Error || d[2].Error || !d[3].Error {
		t.Errorf("dialogs: %s", p.all())
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); got != "alert closed" {
		t.Errorf("page says %q", got)
	}
	if !strings.Contains(d[1].Text, `Answered "Ada"`) {
		t.Errorf("prompt: %s", d[1].Text)
	}
}

// A page that calls alert() as it loads: Send shows the message at once, the reply comes,
// and the message says why the page is not attached. Before, Send hung with no message.
func TestAlertOnLoadDoesNotHangSend(t *testing.T) {
	site := testkit.NewSite(t)
	srv := testkit.OpenAIText(t, "Hello.", 8, 0)
	panel := browser.FreshPanel(t)
	Configure(t, panel, "openai", srv.URL, "sk-alert", "gpt-test")
	openTabNoWait(t, panel, site.Page("alert-on-load.html"))
	WaitJS(t, panel, `document.getElementById("page-chip-text").textContent === "The page is showing an alert dialog (“Welcome to our site!”); answer it in the tab, then try again."`)
	start := time.Now()
	SendMessage(t, panel, "what is this page?")
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done"`)
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("the reply took %s", d)
	}
}

// Pages Chrome does not let extensions script get a clear tool error, fast.
func TestAgentOnRestrictedPages(t *testing.T) {
	p := &plan{steps: []step{
		calls(call("snapshot", nil), call("click", obj{"selector": "a"}), call("tab_open", obj{"url": "chrome://settings"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, "chrome://version")
	start := time.Now()
	runAgent(t, panel, "read it")
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the run took %s", d)
	}
	for _, name := range []string{"snapshot", "click"} {
		r := p.results(name)
		if len(r) != 1 || !r[0].Error || !strings.Contains(r[0].Text, "Chrome does not let extensions work on this page") {
			t.Errorf("%s on chrome://version: %+v", name, r)
		}
	}
	if r := p.results("tab_open"); len(r) != 1 || !r[0].Error || !strings.Contains(r[0].Text, "is not a web address Skiff can open") {
		t.Errorf("tab_open chrome://settings: %+v", r)
	}
}

// Waiting: for a text, for a selector, for a text to go, for seconds; an element enabled late
// is clicked once it is (the actionability checks wait); a slow page loads within the wait.
func TestAgentWaitsForThePage(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("click", obj{"selector": "#late"})),
		calls(call("wait_for", obj{"text": "3 results found"}), call("wait_for", obj{"selector": "#list li:nth-child(3)"}),
			call("wait_for", obj{"textGone": "Loading results"}), call("wait_for", obj{"text": "never here", "timeoutMs": 400}),
			call("wait_for", obj{"seconds": 0.2})),
		calls(call("navigate", obj{"url": site.URL + "/slow?ms=1500"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "google", m)
	tab := openTab(t, panel, site.Page("dynamic.html"))
	runAgent(t, panel, "wait")
	if c := p.results("click"); len(c) != 1 || c[0].Error {
		t.Errorf("click on a button enabled late: %s", p.all())
	}
	w := p.results("wait_for")
	if len(w) != 5 || w[0].Error || w[1].Error || w[2].Error || !w[3].Error || w[4].Error {
		t.Errorf("waits: %s", p.all())
	}
	if n := p.results("navigate"); len(n) != 1 || !strings.Contains(n[0].Text, "Slow page") {
		t.Errorf("navigate to a slow page: %s", p.all())
	}
	_ = tab
}

// History tools, against the browser's real history.
func TestAgentUsesHistory(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("history_search", obj{"text": "flights"}), call("history_recent", obj{"hours": 1}), call("history_visits", obj{"url": site.Page("flights.html")})),
		calls(call("history_delete_url", obj{"url": site.Page("flights.html")})),
		calls(call("history_visits", obj{"url": site.Page("flights.html")})),
		func(*testkit.Conversation) []testkit.Call {
			now := time.Now().UnixMilli()
			return []testkit.Call{call("history_delete_range", obj{"startTime": now - 3600_000, "endTime": now + 1000})}
		},
		calls(call("history_search", obj{"text": "site"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "anthropic", m)
	openTab(t, panel, site.Page("flights.html"))
	openTab(t, panel, site.Page("form.html"))
	runAgent(t, panel, "history")
	s := p.results("history_search")
	if len(s) != 2 || !strings.Contains(s[0].Text, "flights.html") || !strings.Contains(s[1].Text, "No pages found") {
		t.Errorf("history_search: %s", p.all())
	}
	if r := p.results("history_recent"); len(r) != 1 || !strings.Contains(r[0].Text, "form.html") {
		t.Errorf("history_recent: %s", p.all())
	}
	v := p.results("history_visits")
	if len(v) != 2 || !strings.Contains(v[0].Text, "was visited 1 times") || !strings.Contains(v[1].Text, "is not in the history") {
		t.Errorf("history_visits: %s", p.all())
	}
	if n := JS[int](t, panel, fmt.Sprintf(`chrome.history.getVisits({url: %s}).then(v => v.length)`, jsString(site.Page("form.html")))); n != 0 {
		t.Errorf("form.html still has %d visits after delete_range", n)
	}
}

// run_script runs in the page and returns its value; a throw is the model's error.
func TestAgentRunsScripts(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("run_script", obj{"code": "document.title"}), call("run_script", obj{"code": "const n = document.querySelectorAll('li').length;\nreturn {n}"}),
			call("run_script", obj{"code": "throw new Error('boom')"}), call("run_script", obj{"code": "await new Promise(r => setTimeout(r, 50)); 42"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("flights.html"))
	runAgent(t, panel, "script")
	r := p.results("run_script")
	if len(r) != 4 || !strings.Contains(r[0].Text, "SkyCheap") || !strings.Contains(r[1].Text, `{"n":4}`) || !r[2].Error || !strings.Contains(r[2].Text, "boom") {
		t.Errorf("run_script: %s", p.all())
	}
	if len(r) == 4 && (r[3].Error || !strings.Contains(r[3].Text, "42")) {
		t.Errorf("statements with await: %+v", r[3])
	}
}

// The whole task: find the cheapest flight, select it, fill the booking form over several
// turns and submit; the site receives exactly what was asked. Run in each wire format.
func TestAgentBooksTheCheapestFlight(t *testing.T) {
	for _, format := range []string{"openai", "anthropic", "google"} {
		t.Run(format, func(t *testing.T) {
			site := testkit.NewSite(t)
			cheapest := regexp.MustCompile(`€(\d+)`)
			p := &plan{steps: []step{
				calls(call("snapshot", nil)),
				func(c *testkit.Conversation) []testkit.Call {
					// The model reads the prices and picks the lowest, then its Select button.
					snap := c.Results()[0].Text
					best, line := 1<<30, ""
					for _, l := range strings.Split(snap, "\n") {
						if m := cheapest.FindStringSubmatch(l); m != nil {
							var v int
							fmt.Sscan(m[1], &v)
							if v < best {
								best, line = v, l
							}
						}
					}
					ref := regexp.MustCompile(`button "Select" \[(e\d+)\]`).FindStringSubmatch(line)
					if ref == nil {
						t.Errorf("no Select button on the cheapest line %q in\n%s", line, snap)
						return nil
					}
					return []testkit.Call{call("click", obj{"ref": ref[1]})}
				},
				calls(call("snapshot", obj{"ref": ""})),
				func(c *testkit.Conversation) []testkit.Call {
					return []testkit.Call{call("fill_form", obj{"fields": []obj{
						{"ref": refIn(t, c, `textbox "Full name"`), "value": "Ada Lovelace"},
						{"ref": refIn(t, c, `textbox "Email"`), "value": "ada@example.com"},
						{"ref": refIn(t, c, `combobox "Seat"`), "value": "Window"},
					}})}
				},
				clickOn(t, `button "Book now"`),
			}}
			m := testkit.NewModel(t, p.script)
			panel := agentPanel(t, format, m)
			openTab(t, panel, site.Page("flights.html"))
			runAgent(t, panel, "Find the cheapest flight on this page and book it for Ada Lovelace, ada@example.com, window seat.")
			forms := site.Forms()
			if len(forms) != 1 {
				t.Fatalf("the site got %d forms: %s", len(forms), p.all())
			}
			f := forms[0]
			want := map[string]string{"flight": "U24821", "name": "Ada Lovelace", "email": "ada@example.com", "seat": "window", "insurance": ""}
			for k, v := range want {
				if f.Get(k) != v {
					t.Errorf("%s = %q, want %q (form %v)", k, f.Get(k), v, f)
				}
			}
			if c := p.results("click"); len(c) != 2 || !strings.Contains(c[1].Text, `The page changed to "Thank you"`) {
				t.Errorf("the submit's result: %s", p.all())
			}
		})
	}
}

// Stop stops at once, mid-tool; the run's history is intact and nothing runs after it.
func TestAgentStopsAtOnce(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		calls(call("wait_for", obj{"text": "never", "timeoutMs": 30000}), call("click", obj{"selector": "#buy"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("overlay.html"))
	startAgent(t, panel, "wait forever") // with the page attached: the reads do not ask
	WaitJS(t, panel, `document.querySelector('.msg.tool[data-tool="wait_for"][data-status="running"]')`)
	start := time.Now()
	Do(t, panel, chromedp.Click("#stop"))
	WaitJS(t, panel, `document.getElementById("stop").hidden`)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Stop took %s", d)
	}
	cards := toolCards(t, panel)
	if len(cards) != 3 || cards[1].Status != "stopped" || cards[2].Status != "stopped" {
		t.Fatalf("after Stop: %s", cardsString(cards))
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); got != "nothing bought" {
		t.Errorf("a call after Stop ran: %q", got)
	}
	n := len(m.Conversations())
	// Reopened, the chat is the same; and the next message goes on from it.
	again := browser.Panel(t)
	if c := toolCards(t, again); len(c) != 3 || c[1].Status != "stopped" {
		t.Errorf("reopened: %s", cardsString(c))
	}
	time.Sleep(300 * time.Millisecond)
	if len(m.Conversations()) != n {
		t.Errorf("the model was asked again after Stop")
	}
}

// A worker killed mid-run: the run's history is intact, what was in flight is marked
// interrupted, and nothing is replayed: the page is not acted on again, the model not asked.
func TestAgentSurvivesAKilledWorker(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		calls(call("wait_for", obj{"text": "never", "timeoutMs": 30000})),
		calls(call("click", obj{"selector": "#accept"})),
	}}
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if c.Last().Role == "user" && strings.TrimSpace(c.Last().Text) == "go on" {
			return testkit.Turn{Text: "Going on."}
		}
		return p.script(c)
	})
	panel := agentPanel(t, "anthropic", m)
	tab := openTab(t, panel, site.Page("overlay.html"))
	NewChat(t, panel)
	agentOn(t, panel)
	Do(t, panel, chromedp.SendKeys("#input", "wait\r"))
	// The first read of the site asks, unless the page went with the message (attaching it is
	// the user's consent; whether the chip attached it by now is a race this test does not
	// care about); the wait reads the same site, so it does not.
	running := `document.querySelector('.msg.tool[data-tool="wait_for"][data-status="running"]')`
	WaitJS(t, panel, `document.querySelector(".msg.tool .ask .allow-once") || `+running)
	if JS[bool](t, panel, `!!document.querySelector(".msg.tool .ask .allow-once")`) {
		Click(t, panel, `document.querySelector(".msg.tool .ask .allow-once")`)
	}
	WaitJS(t, panel, `document.querySelector('.msg.tool[data-tool="wait_for"][data-status="running"]')`)
	n := len(m.Conversations())
	browser.RestartWorker(t, panel)
	// The panel reconnects (waking a new worker) and shows the run as it was stored.
	WaitJS(t, panel, `document.querySelector('.msg.tool[data-tool="wait_for"][data-status="interrupted"]')`)
	cards := toolCards(t, panel)
	if len(cards) != 2 || cards[0].Status != "done" || !strings.Contains(cards[0].Result, `button "Accept all"`) {
		t.Fatalf("after the restart: %s", cardsString(cards))
	}
	if !JS[bool](t, panel, `document.getElementById("stop").hidden`) {
		t.Error("the panel still shows the run as going on")
	}
	time.Sleep(500 * time.Millisecond)
	if len(m.Conversations()) != n {
		t.Errorf("the run was replayed: the model was asked again")
	}
	if got := inTab[int](t, panel, tab, `document.querySelectorAll("#banner").length`); got != 1 {
		t.Errorf("the page was acted on after the restart")
	}
	// The next message goes on: the model gets the interrupted call's result.
	Do(t, panel, chromedp.SendKeys("#input", "go on\r"))
	WaitJS(t, panel, lastAssistant+`?.textContent.includes("Going on.")`)
	convs := m.Conversations()
	last := convs[len(convs)-1]
	found := false
	for _, msg := range last.Messages {
		if msg.Role == "tool" && msg.Name == "wait_for" && strings.Contains(msg.Text, "restarted before this call finished") {
			found = true
		}
	}
	if !found {
		t.Errorf("the interrupted call's result was not sent: %+v", last.Messages)
	}
}

// A page showing a dialog does not cost navigate its time: leaving the page closes the dialog
// (one Skiff opened with a click, answerable, and one the page opened as it loaded, which only
// a navigation closes), navigate returns at once, and the next snapshot is the new page.
func TestNavigateAwayFromADialog(t *testing.T) {
	site := testkit.NewSite(t)
	for _, c := range []struct {
		name  string
		page  string
		first []testkit.Call
	}{
		{"a dialog a click opened", "dialogs.html", []testkit.Call{call("click", obj{"selector": "#alert"})}},
		{"a dialog the page opened as it loaded", "alert-on-load.html", nil},
		// Each alert dismissed as the page is left lets its next script run, which alerts
		// again: navigate got the old page's fourth alert for an answer, after 2 s.
		{"a page that alerts again as it is left", "counter.html", []testkit.Call{call("navigate", obj{"url": site.Page("alerts-while-loading.html")})}},
		// Its first alert open before Skiff took the tab, which Skiff cannot answer: the
		// navigation closes it, the page's next script alerts and holds the navigation
		// (navigated again, until it goes), and that alert's report comes after the new
		// page has committed, which it said was stuck in a dialog.
		{"a page that alerts again, its first alert open before Skiff took the tab", "alerts-while-loading.html", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var steps []step
			if c.first != nil {
				steps = append(steps, calls(c.first...))
			}
			steps = append(steps, calls(call("navigate", obj{"url": site.Page("counter.html")})), calls(call("snapshot", nil)))
			p := &plan{steps: steps}
			m := testkit.NewModel(t, p.script)
			panel := agentPanel(t, "openai", m)
			openTabNoWait(t, panel, site.Page(c.page))
			start := time.Now()
			cards := runAgent(t, panel, "go to the counter")
			nav := p.results("navigate")
			if len(nav) == 0 || nav[len(nav)-1].Error || !strings.Contains(nav[len(nav)-1].Text, "counter.html") {
				t.Fatalf("navigate: %s\n%s", p.all(), cardsString(cards))
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("the run took %s", d)
			}
			snap := p.results("snapshot")
			if len(snap) != 1 || snap[0].Error || !strings.Contains(snap[0].Text, `button "Like"`) {
				t.Errorf("the snapshot after leaving the dialog: %s", p.all())
			}
		})
	}
}

// A run that ends on a page showing an alert leaves the alert to the user, and the tab still
// in Skiff's hands until it is answered: the next run can leave the page, even one whose
// scripts alert again each time one is closed. (Released, the alert could no longer be
// answered: the debugger does not see a dialog open before it attaches, and leaving let the
// page's next script alert, which held the navigation: navigate failed.)
func TestTheNextRunLeavesAPageAnEarlierRunLeftAlerting(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{calls(call("navigate", obj{"url": site.Page("alerts-while-loading.html")}))}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("counter.html"))
	runAgent(t, panel, "open the old page")
	if nav := p.results("navigate"); len(nav) != 1 || !strings.Contains(nav[0].Text, `alert dialog that says "wrong"`) {
		t.Fatalf("the first run: %s", p.all())
	}
	p.mu.Lock()
	p.steps = []step{calls(call("navigate", obj{"url": site.Page("counter.html")})), calls(call("snapshot", nil))}
	p.mu.Unlock()
	runAgent(t, panel, "go back to the counter")
	nav := p.results("navigate")
	if len(nav) != 2 || nav[1].Error || !strings.Contains(nav[1].Text, "counter.html") {
		t.Fatalf("the second run's navigate: %s", p.all())
	}
	if snap := p.results("snapshot"); len(snap) != 1 || snap[0].Error || !strings.Contains(snap[0].Text, `button "Like"`) {
		t.Errorf("the snapshot after leaving the page: %s", p.all())
	}
}

// "Sign in with…" as sites do it: a popup window the page opens, which tells its opener who
// signed in and closes itself once its form is sent. The click says which tab it opened; the
// form sent in it says the tab closed (not "No tab with given id", as a failure, for what was
// done) and where calls go now; the page that opened it shows who signed in.
func TestASignInWindowIsUsedAndClosesItself(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{}
	popup := 0
	p.steps = []step{
		calls(call("click", obj{"selector": "#signin"})),
		func(*testkit.Conversation) []testkit.Call {
			if m := regexp.MustCompile(`It opened a new tab \(tabId (\d+)\)`).FindStringSubmatch(p.results("click")[0].Text); m != nil {
				popup, _ = strconv.Atoi(m[1])
			}
			return []testkit.Call{call("type", obj{"tabId": popup, "selector": "#email", "text": "ada@example.com", "submit": true})}
		},
		calls(call("snapshot", nil)),
	}
	_, tab, _ := p.runOn(t, site, "popup.html", "sign me in")
	if popup == 0 {
		t.Fatalf("the click does not say which tab it opened: %s", p.all())
	}
	ty := p.results("type")
	if len(ty) != 1 || ty[0].Error || !strings.Contains(ty[0].Text, "Typed 15 characters") ||
		!strings.Contains(ty[0].Text, fmt.Sprintf("The tab it acted in (tabId %d) then closed", popup)) ||
		!strings.Contains(ty[0].Text, fmt.Sprintf("Calls without a tabId now go to tab %d", tab)) {
		t.Errorf("the form sent in the sign-in window: %s", p.all())
	}
	if s := p.results("snapshot"); len(s) != 1 || !strings.Contains(s[0].Text, "Signed in as ada@example.com") {
		t.Errorf("the page after signing in: %s", p.all())
	}
}

// Words a person reads are found and waited for wherever the page puts them: split across
// elements and lines, with a no-break space, in a web component's shadow tree, in a frame it
// shows (some only after a moment); words it hides, and a frame it keeps at no size, are not.
func TestTextIsFoundWhereverThePageShowsIt(t *testing.T) {
	site := testkit.NewSite(t)
	finds := []string{"order is confirmed", "Total: $12.99", "ships tomorrow", "Delivery on Tuesday", "Payment accepted", "WELCOME50", "Refund approved"}
	p := &plan{}
	p.steps = []step{
		calls(call("wait_for", obj{"text": "Payment accepted"})),
		calls(call("wait_for", obj{"text": "Saved to your library"})),
		calls(call("wait_for", obj{"textGone": "Checking your card"})),
		calls(call("wait_for", obj{"text": "Refund approved", "timeoutMs": 1000})),
	}
	for _, f := range finds {
		p.steps = append(p.steps, calls(call("find_text", obj{"text": f})))
	}
	p.runOn(t, site, "found.html", "is my order through?")
	waits, found := p.results("wait_for"), p.results("find_text")
	if len(waits) != 4 || len(found) != len(finds) {
		t.Fatalf("calls: %s", p.all())
	}
	for i, w := range waits[:3] {
		if w.Error || !strings.Contains(w.Text, "Found") {
			t.Errorf("wait %d: %s", i, w.Text)
		}
	}
	if !waits[3].Error {
		t.Errorf("waiting for the words of a frame of no size: %s", waits[3].Text)
	}
	for i, f := range finds[:5] {
		if found[i].Error || strings.Contains(found[i].Text, "is not on the page") {
			t.Errorf("find_text %q: %s", f, found[i].Text)
		}
	}
	if !regexp.MustCompile(`in the frame showing \S+found-frame.html\) at \d+ px \(no control holds it; its block has ref f\d+e\d+\)`).MatchString(found[4].Text) {
		t.Errorf("the words in the frame do not say where they are: %s", found[4].Text)
	}
	for i, f := range finds[5:] {
		if r := found[5+i]; !strings.Contains(r.Text, "is not on the page") {
			t.Errorf("find_text %q found hidden words: %s", f, r.Text)
		}
	}
}

// Chrome unloads a tab's page and keeps its address: Memory Saver puts a background tab to
// sleep, a crashed page shows "Aw, Snap!". Reading or acting there is not "Chrome does not let
// extensions work on this page": the page is loaded again, as a click on the tab or its Reload
// does, and the result says so.
func TestAnUnloadedTabIsLoadedAgain(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{}
	var slept int
	p.steps = []step{
		calls(call("snapshot", nil)),
		calls(call("click", obj{"selector": "#like"})),
		func(*testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("read_text", obj{"tabId": slept})}
		},
	}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	slept = openTab(t, panel, site.Page("reading.html"))
	tab := openTab(t, panel, site.Page("counter.html"))
	allowSite(t, panel, site.URL)
	// The page in the agent's tab crashes; the other tab is put to sleep, as Memory Saver does.
	browser.WorkerJS(t, fmt.Sprintf(`Promise.race([new Promise(r => setTimeout(r, 2000)),
		chrome.debugger.attach({tabId: %d}, "1.3").catch(() => 0).then(() => chrome.debugger.sendCommand({tabId: %d}, "Page.crash")).catch(() => 0).then(() => chrome.debugger.detach({tabId: %d})).catch(() => 0)])`, tab, tab, tab))
	slept = JS[int](t, panel, fmt.Sprintf(`chrome.tabs.discard(%d).then(t => t.id)`, slept)) // Chrome may give it a new id
	for _, id := range []int{tab, slept} {
		WaitJS(t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.status === "unloaded")`, id))
	}
	runAgent(t, panel, "like it, then read the other tab")
	const again = "[Chrome had unloaded the page in this tab (to save memory, or it crashed); Skiff loaded"
	if s := p.results("snapshot"); len(s) != 1 || s[0].Error || !strings.Contains(s[0].Text, again) || !strings.Contains(s[0].Text, `button "Like"`) {
		t.Errorf("the snapshot of the crashed page: %s", p.all())
	}
	if c := p.results("click"); len(c) != 1 || c[0].Error || strings.Contains(c[0].Text, again) {
		t.Errorf("the click once it was loaded again: %s", p.all())
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("count-like").textContent`); got != "1" {
		t.Errorf("the Like counter: %q", got)
	}
	if r := p.results("read_text"); len(r) != 1 || r[0].Error || !strings.Contains(r[0].Text, again) {
		t.Errorf("reading the tab put to sleep: %s", p.all())
	}
}
