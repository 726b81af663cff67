//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// startAgent opens a new agent chat and sends text, with the page the chip shows attached (the
// user's consent to read it: whether the chip had caught up with a just-opened tab was a race
// that decided whether the first read asked), without answering anything.
func startAgent(t *testing.T, panel context.Context, text string) {
	t.Helper()
	NewChat(t, panel)
	agentOn(t, panel)
	WaitJS(t, panel, `!document.getElementById("page-chip").hidden && !document.getElementById("page-chip-remove").hidden`)
	Do(t, panel, chromedp.SendKeys("#input", text+"\r"))
	WaitJS(t, panel, `document.querySelector('.msg[data-role="user"]')`)
}

// shownAsk is the question on screen, as a person reads it.
type shownAsk struct {
	Tool, What, Question string
	Facts                map[string]string
	Buttons              []string
}

// waitAsk waits for a call to ask and returns what its card says.
func waitAsk(t *testing.T, panel context.Context) shownAsk {
	t.Helper()
	WaitJS(t, panel, `document.querySelector(".msg.tool[data-status='asking'] .ask button:not([disabled])")`)
	raw := JS[string](t, panel, `(() => {
		const card = document.querySelector(".msg.tool[data-status='asking']");
		const facts = {};
		for (const dt of card.querySelectorAll(".ask-facts dt")) facts[dt.textContent] = dt.nextElementSibling.textContent;
		return JSON.stringify({Tool: card.dataset.tool, What: card.querySelector(".ask-what").textContent,
			Question: card.querySelector(".ask-q").textContent, Facts: facts,
			Buttons: [...card.querySelectorAll(".ask-answers button")].map(b => b.textContent)});
	})()`)
	var a shownAsk
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// reply clicks one of the four answers on the card that asks.
func reply(t *testing.T, panel context.Context, decision string) {
	t.Helper()
	Click(t, panel, `document.querySelector(".msg.tool[data-status='asking'] .ask button[data-decision='`+decision+`']:not([disabled])")`)
}

// runEnds waits for the run to end, failing if anything asks meanwhile.
func runEnds(t *testing.T, panel context.Context) {
	t.Helper()
	WaitJS(t, panel, `document.getElementById("stop").hidden && `+lastAssistant+`?.dataset.status === "done"`)
	if JS[bool](t, panel, `!!document.querySelector(".msg.tool[data-status='asking']")`) {
		t.Fatal("a call still asks after the run ended")
	}
}

func count(t *testing.T, panel context.Context, tab int, id string) int {
	t.Helper()
	return inTab[int](t, panel, tab, `+document.getElementById("count-`+id+`").textContent`)
}

func statuses(t *testing.T, panel context.Context) string {
	t.Helper()
	var out []string
	for _, c := range toolCards(t, panel) {
		out = append(out, c.Tool+":"+c.Status)
	}
	return strings.Join(out, " ")
}

// policies lists the standing permissions the Permissions view shows.
func policies(t *testing.T, panel context.Context) []string {
	t.Helper()
	if JS[bool](t, panel, `document.getElementById("permissions").hidden`) {
		Do(t, panel, chromedp.Click("#permissions-toggle"))
	}
	WaitJS(t, panel, `document.querySelector("#policy-list li")`)
	return JS[[]string](t, panel, `[...document.querySelectorAll("#policy-list .policy")].map(li => li.querySelector(".badge").textContent + " " + li.querySelector(".p-text").textContent)`)
}

func closeView(t *testing.T, panel context.Context) {
	t.Helper()
	if !JS[bool](t, panel, `document.getElementById("permissions").hidden`) {
		Do(t, panel, chromedp.Click("#permissions-toggle"))
	}
}

// TestAskCardAndItsFourAnswers drives the ask as a user: the card says what will happen and
// where; Allow once runs the call and asks again next time; Deny runs nothing; Always on this
// site runs it and the next such call without asking; Never refuses this and every later one.
// The "always" and "never" answers are kept across a worker restart, show in Permissions,
// and a revoked one asks again. The audit log has every decided call and exports as JSON.
func TestAskCardAndItsFourAnswers(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Like"`),
		clickOn(t, `button "Star"`),
		clickOn(t, `button "Follow"`),
		clickOn(t, `button "Share"`),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Note"`), "text": "hello there"})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Note"`), "text": "again"})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("counter.html"))
	origin := site.URL

	startAgent(t, panel, "press the buttons")
	// The page is attached to the message, so reading it does not ask. The first click does.
	a := waitAsk(t, panel)
	if a.Tool != "click" || !strings.Contains(a.What, `button “Like”`) || a.Facts["Site"] != origin ||
		!strings.Contains(a.Question, "the model in this chat") || a.Facts["Why"] == "" || a.Facts["Risk"] != "acts on the page" {
		t.Errorf("the ask card: %+v", a)
	}
	if strings.Join(a.Buttons, "|") != "Allow once|Always on this site|Deny|Never" {
		t.Errorf("answers: %v", a.Buttons)
	}
	reply(t, panel, "allow_once")
	waitTab(t, panel, tab, `document.getElementById("count-like").textContent === "1"`)

	a = waitAsk(t, panel) // Allow once does not carry over to the next click
	if !strings.Contains(a.What, `“Star”`) {
		t.Errorf("second ask: %+v", a)
	}
	reply(t, panel, "deny_once")

	a = waitAsk(t, panel)
	if !strings.Contains(a.What, `“Follow”`) {
		t.Errorf("third ask: %+v", a)
	}
	reply(t, panel, "allow_always")
	waitTab(t, panel, tab, `document.getElementById("count-follow").textContent === "1"`)
	// Share: a click on the same site, allowed always now: it runs without asking.
	waitTab(t, panel, tab, `document.getElementById("count-share").textContent === "1"`)

	a = waitAsk(t, panel) // typing is not clicking: it asks
	if a.Tool != "type" || a.Facts["Text"] != "hello there" || !strings.Contains(a.What, `textbox “Note”`) {
		t.Errorf("the ask to type: %+v", a)
	}
	reply(t, panel, "deny_always")
	runEnds(t, panel)

	if got := statuses(t, panel); got != "snapshot:done click:done click:denied click:done click:done type:denied type:denied" {
		t.Errorf("calls: %s", got)
	}
	if count(t, panel, tab, "star") != 0 || inTab[string](t, panel, tab, `document.getElementById("echo").textContent`) != "" {
		t.Error("a denied call ran")
	}
	denials := 0
	for _, r := range p.results("type") {
		if r.Error && strings.Contains(r.Text, "never to allow") {
			denials++
		}
	}
	if denials != 1 {
		t.Errorf("the model was not told the second type was refused by the user's rule: %s", p.all())
	}

	want := []string{"Never typing on " + origin, "Always allow clicking on " + origin}
	if got := policies(t, panel); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("policies: %q, want %q", got, want)
	}
	closeView(t, panel)

	// The answers outlive the worker.
	browser.RestartWorker(t, panel)
	WaitJS(t, panel, `!document.getElementById("banner").textContent`)
	p.mu.Lock()
	p.steps = []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Like"`),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Note"`), "text": "third"})}
		},
	}
	p.mu.Unlock()
	startAgent(t, panel, "again")
	runEnds(t, panel)
	if got := statuses(t, panel); got != "snapshot:done click:done type:denied" {
		t.Errorf("after a restart: %s", got)
	}
	if count(t, panel, tab, "like") != 2 {
		t.Error("the always-allowed click did not run after the restart")
	}
	if got := policies(t, panel); len(got) != 2 {
		t.Errorf("after a restart the view shows %q", got)
	}

	// Revoked, "always" is gone: the click asks again.
	Click(t, panel, `[...document.querySelectorAll("#policy-list .policy")].find(li => li.dataset.decision === "allow_always").querySelector(".p-revoke")`)
	WaitJS(t, panel, `document.querySelectorAll("#policy-list .policy").length === 1`)
	closeView(t, panel)
	p.mu.Lock()
	p.steps = p.steps[:2]
	p.mu.Unlock()
	startAgent(t, panel, "once more")
	a = waitAsk(t, panel)
	if !strings.Contains(a.What, `“Like”`) {
		t.Errorf("after revoking: %+v", a)
	}
	reply(t, panel, "allow_once")
	runEnds(t, panel)
	if count(t, panel, tab, "like") != 3 {
		t.Error("the click allowed once after revoking did not run")
	}

	// The audit log: every decided call, what came of it, and an export.
	var perms struct {
		Audit []struct {
			Tool, What, Origin, Decision, Result string
			OK                                   bool
		}
	}
	if err := json.Unmarshal([]byte(JS[string](t, panel, `skiffTest.call("permission.list").then(r => JSON.stringify(r))`)), &perms); err != nil {
		t.Fatal(err)
	}
	var log []string
	for _, e := range perms.Audit {
		log = append(log, fmt.Sprintf("%s %v %s", e.Tool, e.OK, e.Decision))
	}
	joined := strings.Join(log, "\n")
	for _, want := range []string{"click true you allowed it once", "click false you denied it", "click true you allowed it always", "type false you chose never",
		"type false denied: you chose never", "click true allowed: you chose always"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the audit log lacks %q:\n%s", want, joined)
		}
	}
	dir := browser.Downloads(t)
	Do(t, panel, chromedp.Click("#permissions-toggle"))
	Do(t, panel, chromedp.Click("#audit-export"))
	name := "skiff-audit-" + time.Now().UTC().Format("2006-01-02") + ".json"
	var exported struct {
		Entries []json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(WaitFile(t, dir, name), &exported); err != nil || len(exported.Entries) != len(perms.Audit) {
		t.Errorf("export: %v, %d entries, want %d", err, len(exported.Entries), len(perms.Audit))
	}
	if n := JS[int](t, panel, `document.querySelectorAll("#audit-list .audit").length`); n != len(perms.Audit) {
		t.Errorf("the view lists %d calls, the log has %d", n, len(perms.Audit))
	}
}

// TestAskTimesOutAndSurvivesAKilledWorker: no answer in time is a no; a call still asking
// when the worker is killed still asks afterwards, and its answer resumes the run.
func TestAskTimesOutAndSurvivesAKilledWorker(t *testing.T) {
	site := testkit.NewSite(t)
	button := "Like"
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "`+button+`"`)})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "anthropic", m)
	tab := openTab(t, panel, site.Page("counter.html"))

	// The user gives a call 5 seconds to be answered.
	Do(t, panel, chromedp.Click("#settings-toggle"))
	TypeInto(t, panel, "#askSeconds", "5")
	Do(t, panel, chromedp.Click("#save"))
	WaitJS(t, panel, `document.getElementById("settings-status").textContent === "Saved."`)
	Do(t, panel, chromedp.Click("#settings-toggle"))

	startAgent(t, panel, "like it")
	waitAsk(t, panel)
	start := time.Now()
	WaitJS(t, panel, `document.querySelector(".msg.tool[data-tool='click'][data-status='denied']")`)
	if waited := time.Since(start); waited < 3*time.Second {
		t.Errorf("denied after %v, before the 5 s were up", waited)
	}
	runEnds(t, panel)
	if count(t, panel, tab, "like") != 0 {
		t.Error("the unanswered click ran")
	}
	if r := p.results("click"); len(r) != 1 || !strings.Contains(r[0].Text, "did not answer within 5 seconds") {
		t.Errorf("the model was told: %v", r)
	}

	// Back to two minutes; the worker is killed while a call asks.
	Do(t, panel, chromedp.Click("#settings-toggle"))
	TypeInto(t, panel, "#askSeconds", "120")
	Do(t, panel, chromedp.Click("#save"))
	WaitJS(t, panel, `document.getElementById("settings-status").textContent === "Saved."`)
	Do(t, panel, chromedp.Click("#settings-toggle"))
	button = "Star"
	startAgent(t, panel, "star it")
	waitAsk(t, panel)
	asked := len(m.Conversations())
	browser.RestartWorker(t, panel)
	WaitJS(t, panel, `!document.getElementById("banner").textContent`)
	// The panel reconnected to a new worker: the call still asks, and nothing ran.
	a := waitAsk(t, panel)
	if !strings.Contains(a.What, `“Star”`) || count(t, panel, tab, "star") != 0 {
		t.Fatalf("after the restart: %+v, star %d", a, count(t, panel, tab, "star"))
	}
	reply(t, panel, "allow_once")
	waitTab(t, panel, tab, `document.getElementById("count-star").textContent === "1"`)
	runEnds(t, panel)
	if got := statuses(t, panel); got != "snapshot:done click:done" {
		t.Errorf("after resuming: %s", got)
	}
	if got := len(m.Conversations()); got != asked+1 {
		t.Errorf("the model was asked %d more times after the answer, want 1 (the turn after the click)", got-asked)
	}
	if r := p.results("click"); len(r) != 2 || r[1].Error {
		t.Errorf("the model did not get the resumed click's result: %v", r)
	}
}

// TestAskWithThePanelClosed: a call that asks while no panel is open puts a count on Skiff's
// button and a notification up; the panel, opened again, shows the question, and the answer
// clears both.
func TestAskWithThePanelClosed(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Follow"`),
	}}
	m := testkit.NewModel(t, p.script)
	first := agentPanel(t, "google", m)
	// In French: the notification says what waits in the user's language.
	setLanguage(t, first, "fr")
	t.Cleanup(func() { setLanguage(t, browser.Panel(t), "en") })
	browser.WorkerJS(t, `(() => { const n = chrome.notifications, create = n.create.bind(n); globalThis.notified = []; n.create = (id, o, ...rest) => { notified.push(o.message); return create(id, o, ...rest); }; return true; })()`)
	tab := openTab(t, first, site.Page("counter.html"))
	startAgent(t, first, "follow")
	waitAsk(t, first)
	Eventually(t, 5*time.Second, func() bool {
		return WorkerValue[string](t, browser, `chrome.action.getBadgeText({})`) == "1"
	}, "the button shows no count while a call asks")
	if n := WorkerValue[int](t, browser, `chrome.notifications.getAll().then(n => Object.keys(n).length)`); n != 0 {
		t.Errorf("%d notifications while a panel shows the question", n)
	}

	_ = chromedp.Cancel(first) // the user closes the panel
	Eventually(t, 5*time.Second, func() bool {
		return WorkerValue[bool](t, browser, `chrome.notifications.getAll().then(n => Object.keys(n).some(k => k.startsWith("skiff-ask:")))`)
	}, "no notification with the panel closed")
	if got := WorkerValue[string](t, browser, `(globalThis.notified || []).join(" | ")`); !strings.HasPrefix(got, "cliquer sur bouton “Follow”") {
		t.Errorf("the notification, for a French user: %q", got)
	}

	panel := browser.Panel(t)
	a := waitAsk(t, panel)
	if !strings.Contains(a.What, `“Follow”`) {
		t.Errorf("the reopened panel asks %+v", a)
	}
	reply(t, panel, "allow_once")
	waitTab(t, panel, tab, `document.getElementById("count-follow").textContent === "1"`)
	runEnds(t, panel)
	Eventually(t, 5*time.Second, func() bool {
		return WorkerValue[string](t, browser, `chrome.action.getBadgeText({})`) == "" &&
			WorkerValue[int](t, browser, `chrome.notifications.getAll().then(n => Object.keys(n).length)`) == 0
	}, "the count or the notification stayed after the answer")
}

// TestContentScriptsAreRefused: a page's content script (our own isolated world, which a
// compromised page cannot reach, but which must not be trusted either) cannot open the
// panel's channel to the core, and its messages get nothing back.
func TestContentScriptsAreRefused(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	tab := openTab(t, panel, site.Page("counter.html"))
	raw := JS[string](t, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, func: () => new Promise((resolve) => {
		const port = chrome.runtime.connect();
		const got = [];
		port.onMessage.addListener((m) => got.push(String(m)));
		port.onDisconnect.addListener(() => resolve(JSON.stringify({disconnected: true, got})));
		port.postMessage(JSON.stringify({id: 1, type: "core.hello"}));
		port.postMessage(JSON.stringify({id: 2, type: "settings.save", params: {keys: {openai: "sk-stolen"}}}));
		setTimeout(() => resolve(JSON.stringify({disconnected: false, got})), 4000);
	})}).then(r => r[0].result)`, tab))
	var res struct {
		Disconnected bool
		Got          []string
	}
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatal(err, raw)
	}
	if !res.Disconnected || len(res.Got) != 0 {
		t.Errorf("a content script's port: %+v", res)
	}
	reply := JS[string](t, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, func: () =>
		chrome.runtime.sendMessage({type: "core.hello"}).then(r => JSON.stringify(r === undefined ? null : r), e => "error: " + e.message)}).then(r => r[0].result)`, tab))
	if reply != "null" && !strings.HasPrefix(reply, "error:") {
		t.Errorf("a content script's message got %s", reply)
	}
	if JS[bool](t, panel, `skiffTest.call("core.hello").then(s => !!s.settings.hasKey.openai)`) {
		t.Error("the content script's settings.save reached the core")
	}
}

// A call is approved for the site its tab shows when it asks. If the tab moves on to another
// site before the answer comes, the approved call does not run there: a script does not run,
// and a read brings nothing of the new site back; the model is told why.
// askFor waits for the ask card and fails unless it asks for tool on site.
func askFor(t *testing.T, panel context.Context, p *plan, tool, site string) {
	t.Helper()
	if a := waitAsk(t, panel); a.Tool != tool || a.Facts["Site"] != site {
		t.Fatalf("the ask: %+v, want %s on %s (results: %s)", a, tool, site, p.all())
	}
}

// moveTab navigates tab to url, as a user who moved on while an ask waited, and waits until
// the new page has loaded.
func moveTab(t *testing.T, panel context.Context, tab int, url string) {
	t.Helper()
	JS[bool](t, panel, fmt.Sprintf(`chrome.tabs.update(%d, {url: %s}).then(() => true)`, tab, jsString(url)))
	WaitJS(t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.status === "complete" && t.url === %s)`, tab, jsString(url)))
	waitLoaded(t, panel, tab)
}

func TestApprovedCallsStayOnTheirSite(t *testing.T) {
	site, third := testkit.NewSite(t), testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("run_script", obj{"code": `document.getElementById("count-like").textContent = "99"`})),
		calls(call("snapshot", nil)),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("counter.html"))
	moveTo := func(url string) { moveTab(t, panel, tab, url) }

	startAgent(t, panel, "set the counter")
	askFor(t, panel, p, "run_script", site.URL)
	moveTo(site.Other + "/site/counter.html")
	reply(t, panel, "allow_once")
	// The snapshot that follows asks: the tab is on a site the message did not carry.
	askFor(t, panel, p, "snapshot", site.Other)
	if n := count(t, panel, tab, "like"); n != 0 {
		t.Errorf("the script approved for %s ran on %s (count %d)", site.URL, site.Other, n)
	}
	moveTo(third.Page("flights.html"))
	reply(t, panel, "allow_once")
	runEnds(t, panel)

	for _, name := range []string{"run_script", "snapshot"} {
		r := p.results(name)
		if len(r) != 1 || !r[0].Error || !strings.Contains(r[0].Text, "moved on") {
			t.Errorf("%s on a tab that moved on: %s", name, p.all())
		}
	}
	if strings.Contains(everything(m.Conversations()[len(m.Conversations())-1]), "SkyCheap") {
		t.Errorf("the page the tab moved on to reached the model")
	}
}

// TestApprovedActionsStayOnTheirSite: a click and a typing approved for one site do nothing
// when the tab has moved to another site during the ask, even where the same selector, and
// the same ref, name an element there too (the other site's page has been read meanwhile, so
// its refs are given out in the same order).
func TestApprovedActionsStayOnTheirSite(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("click", obj{"selector": "#like"})),
		calls(call("type", obj{"selector": "#note", "text": "approved elsewhere"})),
		calls(call("click", obj{"selector": "#star"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("counter.html"))
	moveTo := func(url string) {
		moveTab(t, panel, tab, url)
		// The new page is read as a snapshot reads it: its refs are given out.
		JS[bool](t, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, files: ["page/skiff.js"]}).then(() =>
			chrome.scripting.executeScript({target: {tabId: %d}, func: () => globalThis.skiffPage.call("snapshot", "{}")})).then(() => true)`, tab, tab))
	}

	startAgent(t, panel, "like it and leave a note")
	askFor(t, panel, p, "click", site.URL)
	moveTo(site.Other + "/site/counter.html")
	reply(t, panel, "allow_once")
	// The typing asks for the site the tab is on now; it is approved, then the tab moves back.
	askFor(t, panel, p, "type", site.Other)
	moveTo(site.Page("counter.html"))
	reply(t, panel, "allow_once")
	// The last click is asked for and allowed where the tab is: it runs.
	askFor(t, panel, p, "click", site.URL)
	reply(t, panel, "allow_once")
	runEnds(t, panel)

	if n := count(t, panel, tab, "like"); n != 0 {
		t.Errorf("the click approved for %s ran on %s (count %d)", site.URL, site.Other, n)
	}
	if v := inTab[string](t, panel, tab, `document.getElementById("note").value`); v != "" {
		t.Errorf("the typing approved for %s ran on %s: %q", site.Other, site.URL, v)
	}
	if n := count(t, panel, tab, "star"); n != 1 {
		t.Errorf("the click approved where the tab was did not run (count %d): %s", n, p.all())
	}
	for _, name := range []string{"click", "type"} {
		r := p.results(name)
		if len(r) == 0 || !r[0].Error || !strings.Contains(r[0].Text, "moved on") {
			t.Errorf("%s on a tab that moved on: %s", name, p.all())
		}
	}
}
