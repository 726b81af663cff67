//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// A task done once by the agent becomes a workflow, and the workflow does it again with other
// values and no model at all: the model's server is shut before the replay. The password it
// typed is a parameter asked for at each run, and the one given at the replay is nowhere in
// Skiff's storage afterwards. When the page has changed (the button is called otherwise), the
// replay stops at that step and says what the page has instead, and sends nothing.
func TestWorkflowRecordAndReplayWithoutAModel(t *testing.T) {
	site := testkit.NewSite(t)
	url := site.Page("booking.html")
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("fill_form", obj{"fields": []obj{
				{"ref": refIn(t, c, `textbox "Restaurant"`), "value": "Luigi"},
				{"ref": refIn(t, c, `textbox "People"`), "value": "4"},
				{"ref": refIn(t, c, `textbox "Account password"`), "value": "recorded-pw-1"},
			}})}
		},
		clickOn(t, `button "Book a table"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, url)
	runAgent(t, panel, "Book a table at Luigi for 4")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")

	// Saved from the chat, under a name.
	steps := saveWorkflow(t, panel, "Book a table")
	if len(steps) != 3 || !strings.HasPrefix(steps[0], "open ") || !strings.Contains(steps[1], "{{restaurant}}") || steps[2] != "click button “Book a table”" {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	// In French, the steps read in French, the values and the page's own words as they are.
	Do(t, panel, chromedp.Click("#history-toggle")) // History's rows drawn in English first
	WaitJS(t, panel, `document.querySelector("#session-list .session .rename")?.textContent === "Rename"`)
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	WaitJS(t, panel, `!!document.querySelector(".workflow .wf-steps li")`)
	setLanguage(t, panel, "fr")
	WaitJS(t, panel, `document.querySelector(".workflow .wf-steps li:nth-child(3)").textContent === "cliquer sur bouton “Book a table”"`)
	if got := JS[string](t, panel, `document.querySelector(".workflow .wf-steps li:nth-child(2)").textContent`); !strings.HasPrefix(got, "remplir zone de texte “Restaurant” = {{restaurant}}; ") {
		t.Errorf("the second step in French: %q", got)
	}
	// Rows drawn before the switch are kept across redraws: their buttons follow it all the same,
	// here and in History (drawn in English when the chat was listed there before).
	if got := JS[string](t, panel, `document.querySelector(".workflow .wf-run").textContent`); got != "Lancer" {
		t.Errorf("the Run button in French: %q", got)
	}
	Do(t, panel, chromedp.Click("#history-toggle"))
	WaitJS(t, panel, `!!document.querySelector("#session-list .session .rename")`)
	if got := JS[string](t, panel, `document.querySelector("#session-list .session .rename").textContent`); got != "Renommer" {
		t.Errorf("a chat's Rename button in French: %q", got)
	}
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	setLanguage(t, panel, "en")
	WaitJS(t, panel, `document.querySelector(".workflow .wf-steps li:nth-child(3)").textContent === "click button “Book a table”"`)

	// No model from here on.
	m.Close()
	calls := len(m.Conversations())
	replay := func(restaurant, people, password string) string {
		t.Helper()
		openRunForm(t, panel)
		if got := JS[string](t, panel, `[...document.querySelectorAll(".wf-form input")].map(i => i.name + "=" + (i.type === "checkbox" ? i.checked : i.value) + ":" + i.type).join(" ")`); got != "restaurant=Luigi:text people=4:text account_password=:password repair=false:checkbox" {
			t.Errorf("the run form: %s", got)
		}
		return replayFromView(t, panel, map[string]string{"restaurant": restaurant, "people": people, "account_password": password}, false)
	}
	// Every state of a chat the storage gets, as it gets it.
	JS[bool](t, panel, `(globalThis.writes = [], chrome.storage.local.onChanged.addListener((ch) => { for (const k in ch) if (k.startsWith("session/") && ch[k].newValue) writes.push(JSON.parse(ch[k].newValue)); }), true)`)
	last := replay("Chez Ana", "2", "RUNTIME-pw-9")
	if !strings.Contains(last, "ran all 3 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	// A step costs one write of the chat when it runs (and one when it asks, as each step here
	// does), not one more for its pending state and one more for its result; the chat's start
	// costs two, its end one. The states stored on the way are each one a restart can stop
	// cleanly at (the steps done, then at most one going), and the last holds every result.
	type chatState struct {
		Workflow *struct{ Done bool } `json:"workflow"`
		Messages []struct {
			Role, Status, Content string
			Tool                  *struct{ Name string } `json:"tool"`
		} `json:"messages"`
	}
	states := JS[[]chatState](t, panel, `(() => { const id = writes.at(-1).id; return writes.filter(s => s.id === id); })()`)
	if n := len(states); n > 2+2*3+1 {
		t.Errorf("a replay of 3 steps wrote its chat %d times: %s", n, JS[string](t, panel, `(() => { const id = writes.at(-1).id; return writes.filter(s => s.id === id).map(s => s.messages.map(m => m.role[0] + (m.status || "ok")).join(",")).join(" | "); })()`))
	}
	for k, st := range states {
		done, going := 0, 0
		for _, m := range st.Messages {
			switch {
			case m.Tool == nil:
			case m.Status == "" && going > 0:
				t.Errorf("stored state %d: a step is done after one still going: %+v", k, st.Messages)
			case m.Status == "":
				done++
			default:
				going++
			}
		}
		if going > 1 {
			t.Errorf("stored state %d: %d steps going at once", k, going)
		}
	}
	if final := states[len(states)-1]; final.Workflow == nil || !final.Workflow.Done {
		t.Errorf("the last stored state is not the replay's end: %+v", final)
	} else {
		results := 0
		for _, m := range final.Messages {
			if m.Tool != nil && m.Status == "" && m.Content != "" {
				results++
			}
		}
		if results != 3 {
			t.Errorf("the replay's end stored %d steps' results, not 3: %+v", results, final.Messages)
		}
	}
	forms := site.Forms()
	if len(forms) != 2 {
		t.Fatalf("%d forms sent", len(forms))
	}
	if f := forms[1]; f.Get("restaurant") != "Chez Ana" || f.Get("people") != "2" || f.Get("password") != "RUNTIME-pw-9" {
		t.Errorf("the replay sent %v", f)
	}
	if n := len(m.Conversations()); n != calls {
		t.Errorf("the replay asked the model %d times", n-calls)
	}
	stored := storedText(t, panel)
	if strings.Contains(stored, "RUNTIME-pw-9") {
		t.Errorf("the password given to the replay is in storage")
	}
	if !strings.Contains(stored, "Chez Ana") || !strings.Contains(stored, `\"restaurant\"`) {
		t.Errorf("the storage read is not the one Skiff writes (no replay chat, no workflow)")
	}

	// The site renamed its button: the replay stops at that step, says why, and sends nothing.
	WaitJS(t, browser.Tab(t, url), `(localStorage.setItem("variant", "b"), true)`)
	last = replay("Luigi", "4", "x")
	if !strings.Contains(last, "Stopped at step 3 of 3 (click button “Book a table”): the page has no button “Book a table”; it has button “Reserve now”") {
		t.Errorf("the changed page: %q", last)
	}
	if n := len(site.Forms()); n != 2 {
		t.Errorf("%d forms sent after the page changed", n)
	}
	// A French user reads the replay's own words in French (the page's and the values as they
	// are): the chat is drawn again in the language chosen.
	setLanguage(t, panel, "fr")
	t.Cleanup(func() { setLanguage(t, panel, "en") })
	WaitJS(t, panel, lastAssistant+`.textContent.startsWith("Arrêté")`)
	if got, want := lastReply(t, panel), "Arrêté à l’étape 3 sur 3 (cliquer sur bouton “Book a table”) : la page n’a pas de bouton “Book a table” ; elle a bouton “Reserve now”."; !strings.Contains(got, want) {
		t.Errorf("the stop in French: %q, want %q", got, want)
	}
	if got := JS[string](t, panel, `document.querySelector('#messages .msg[data-role="user"] .content').textContent`); !strings.HasPrefix(got, "Lancer le workflow « Book a table » (3 étapes).\nRestaurant: Luigi") {
		t.Errorf("the replay's first message in French: %q", got)
	}
}

// An outside agent lists the user's workflows and runs one through skiffd: the replay works in
// the client's own tab group, each step asks in the panel naming the client (the password field
// always asks), the site gets the values the client gave, and the password it gave is nowhere
// in storage. Values it gets wrong are refused before anything runs, in words that say what the
// workflow takes.
func TestMCPClientListsAndRunsAWorkflow(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	data, _ := reserveWorkflow(t, site)
	JS[any](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(data)+`})`)

	cs := mcpClient(t, d, "e2e-agent")
	r := callTool(t, panel, cs, "e2e-agent", "workflow_list", map[string]any{}, "")
	var list []link.WorkflowInfo
	if r.IsError || json.Unmarshal([]byte(text(r)), &list) != nil || len(list) != 1 {
		t.Fatalf("workflow_list: %s", text(r))
	}
	w := list[0]
	if w.Name != "Book a table" || len(w.Steps) != 3 || len(w.Sites) != 1 || w.Sites[0] != site.URL {
		t.Errorf("the workflow listed: %+v", w)
	}
	schema, _ := json.Marshal(w.Values)
	if !strings.Contains(string(schema), `"required":["account_password"]`) || !strings.Contains(string(schema), `"default":"Luigi"`) {
		t.Errorf("its values' schema: %s", schema)
	}

	// Wrong values: refused before any step, saying what it takes.
	r = callTool(t, panel, cs, "e2e-agent", "workflow_run", map[string]any{"workflow": "Book a table", "values": map[string]any{"restaurant": "X", "guests": "3"}}, "")
	if !r.IsError || !strings.Contains(text(r), "no parameter “guests” (it takes restaurant, people, account_password)") {
		t.Errorf("an unknown value: %s", text(r))
	}
	r = callTool(t, panel, cs, "e2e-agent", "workflow_run", map[string]any{"workflow": "Book a table", "values": map[string]any{"restaurant": "X"}}, "")
	if !r.IsError || !strings.Contains(text(r), "needs a value for “account_password”") {
		t.Errorf("a secret not given: %s", text(r))
	}
	if n := len(site.Forms()); n != 0 {
		t.Fatalf("%d forms sent by refused runs", n)
	}

	// The run: every ask is the client's, answered in the panel until the result comes.
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "workflow_run", Arguments: map[string]any{
			"workflow": w.ID, "values": map[string]any{"restaurant": "Chez Ana", "account_password": "MCP-pw-7"}}})
		if err != nil {
			r = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		done <- r
	}()
	r = nil
	asked := answerOutside(t, panel, "e2e-agent", 2*time.Minute, func() bool {
		select {
		case r = <-done:
			return true
		default:
			return false
		}
	})
	if r.IsError || !strings.Contains(text(r), "ran all 3 steps") {
		t.Fatalf("workflow_run: %s (asked %v)", text(r), asked)
	}
	if !slices.Contains(asked, "fill_form") {
		t.Errorf("the password field did not ask (asks: %v)", asked)
	}
	forms := site.Forms()
	if len(forms) != 1 || forms[0].Get("restaurant") != "Chez Ana" || forms[0].Get("people") != "4" || forms[0].Get("password") != "MCP-pw-7" {
		t.Fatalf("the site got %v", forms)
	}
	if group := groupOf(t, panel, site.URL); group != "e2e-agent" {
		t.Errorf("the replay's tab group: %q", group)
	}
	stored := storedText(t, panel)
	if strings.Contains(stored, "MCP-pw-7") {
		t.Errorf("the password the client gave is in storage")
	}
	if !strings.Contains(stored, "▶ Book a table") || !strings.Contains(stored, "Chez Ana") {
		t.Errorf("no chat of the replay in storage")
	}
}

// reserveWorkflow is testdata's booking workflow without its password: one that can run on a
// schedule (a secret would have to be stored).
func reserveWorkflow(t *testing.T, site *testkit.Site) (withSecret, without string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "workflows", "booking.json"))
	if err != nil {
		t.Fatal(err)
	}
	withSecret = strings.ReplaceAll(string(raw), "SITE", site.URL)
	var w workflow.Workflow
	if err := json.Unmarshal([]byte(withSecret), &w); err != nil {
		t.Fatal(err)
	}
	w.Name, w.Params = "Reserve a table", w.Params[:2]
	w.Steps[1].Targets = w.Steps[1].Targets[:2]
	w.Steps[1].Args = json.RawMessage(`{"fields": [{"ref": "@1", "value": "{{restaurant}}"}, {"ref": "@2", "value": "{{people}}"}]}`)
	b, _ := json.Marshal(w)
	return withSecret, string(b)
}

// schedulable is a fresh panel holding reserveWorkflow's workflow without a password (one a
// schedule can run) on site, and the workflow's id.
func schedulable(t *testing.T) (*testkit.Site, context.Context, string) {
	t.Helper()
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	_, without := reserveWorkflow(t, site)
	return site, panel, JS[string](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(without)+`}).then(ws => ws[0].id)`)
}

// A workflow scheduled in the panel runs by itself while the panel is closed and the worker
// stopped: the alarm wakes the worker, the run works in a window and tab group of its own, and
// at its first ask it waits (a count on the button, a notification) and does nothing more until
// the user, opening the panel, answers, however long after the chats' own ask timeout. It
// leaves a chat, a notification with its outcome and the outcome in the schedule's row. A
// workflow that types a password cannot be scheduled.
func TestScheduledWorkflowRunsWithThePanelClosedAndWaitsOnAsks(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	withSecret, without := reserveWorkflow(t, site)
	JS[any](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(withSecret)+`})`)
	JS[any](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(without)+`})`)
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	row := func(name string) string {
		return `[...document.querySelectorAll(".workflow")].find(li => li.querySelector(".wf-name").textContent === ` + jsString(name) + `)`
	}
	WaitJS(t, panel, `!!`+row("Book a table")+` && !!`+row("Reserve a table"))

	Click(t, panel, row("Book a table")+`.querySelector(".wf-schedule")`)
	Click(t, panel, row("Book a table")+`.querySelector(".sc-save")`)
	WaitJS(t, panel, `document.getElementById("workflows-status").textContent.includes("cannot run on a schedule")`)
	if n := JS[int](t, panel, `skiffTest.call("schedule.list").then(l => l.length)`); n != 0 {
		t.Fatalf("%d schedules after a refused one", n)
	}

	// Asks time out after five seconds in chats (the shortest setting).
	saveSettings(t, panel, `{askSeconds: 5}`)

	// Once, a few seconds from now, with a value of its own.
	Click(t, panel, row("Reserve a table")+`.querySelector(".wf-schedule")`)
	JS[bool](t, panel, `(f => {
		f.every.value = "once"; f.every.dispatchEvent(new Event("change"));
		const at = new Date(Date.now() + 15000);
		const local = new Date(at.getTime() - at.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
		f.at.step = "1"; // a person picks a minute; the test cannot wait for the next one
		f.at.value = local; f["v:restaurant"].value = "Sched Bistro";
		return true;
	})(`+row("Reserve a table")+`.querySelector(".sc-form"))`)
	Click(t, panel, row("Reserve a table")+`.querySelector(".sc-save")`)
	WaitJS(t, panel, `!!document.querySelector('#schedule-list .schedule[data-state="waiting"]')`)
	if got := JS[string](t, panel, `document.querySelector("#schedule-list .schedule .sc-when").textContent`); !strings.Contains(got, "once") || !strings.Contains(got, "next") {
		t.Errorf("the schedule's row: %q", got)
	}

	// The user closes the panel; Chrome stops the idle worker.
	_ = chromedp.Cancel(panel)
	browser.StopWorker(t)
	Eventually(t, 60*time.Second, func() bool {
		return browser.WorkerRunning() && WorkerValue[bool](t, browser, `chrome.notifications.getAll().then(n => Object.keys(n).some(k => k.startsWith("skiff-ask:")))`)
	}, "the scheduled run did not start and ask with the panel closed")
	if got := WorkerValue[string](t, browser, `chrome.action.getBadgeText({})`); got != "1" {
		t.Errorf("the button's count while the run asks: %q", got)
	}
	if got := WorkerValue[string](t, browser, `chrome.action.getTitle({})`); got != "Skiff: 1 waiting for your OK" {
		t.Errorf("the button's title while the run asks: %q", got)
	}
	if n := len(site.Forms()); n != 0 {
		t.Fatalf("%d forms sent before any answer", n)
	}

	// The user comes back later than the two-minute default (five seconds here, the shortest
	// setting): a scheduled run's ask waits as long as the run may, and says so.
	panel = browser.Panel(t)
	WaitJS(t, panel, `!!document.querySelector("#outside-asks .outside-ask .ask-timeout")`)
	if got := JS[string](t, panel, `document.querySelector("#outside-asks .outside-ask .ask-timeout").textContent`); !regexp.MustCompile(`\b(5\d|60) minutes`).MatchString(got) {
		t.Errorf("the scheduled ask's time left: %q", got)
	}
	askedAt := JS[float64](t, panel, `skiffTest.call("asks.list").then(qs => qs[0].askedAt)`)
	Eventually(t, time.Minute, func() bool { return JS[float64](t, panel, `Date.now()`) > askedAt+6000 }, "the clock did not move")
	// The user answers each ask of the run.
	asked := answerOutside(t, panel, "⏰ Reserve a table", time.Minute, func() bool { return len(site.Forms()) > 0 })
	if len(asked) == 0 || asked[0] != "navigate" {
		t.Errorf("asks: %v", asked)
	}
	if f := site.Forms()[0]; f.Get("restaurant") != "Sched Bistro" || f.Get("people") != "4" {
		t.Errorf("the run sent %v", f)
	}
	Eventually(t, 30*time.Second, func() bool {
		return WorkerValue[bool](t, browser, `chrome.notifications.getAll().then(n => Object.keys(n).some(k => k.startsWith("skiff-run:")))`)
	}, "no notification of the run's outcome")
	if group := groupOf(t, panel, site.URL); group != "⏰ Reserve a table" {
		t.Errorf("the run's tab group: %q", group)
	}
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	WaitJS(t, panel, `(li => !!li && li.dataset.state === "waiting" && li.querySelector(".sc-last").dataset.ok === "1")(document.querySelector("#schedule-list .schedule"))`)
	if got := JS[string](t, panel, `document.querySelector("#schedule-list .sc-last").textContent`); !strings.Contains(got, "ran all 3 steps") {
		t.Errorf("the schedule's last run: %q", got)
	}
	setLanguage(t, panel, "fr")
	WaitJS(t, panel, `document.querySelector("#schedule-list .sc-last").textContent.includes("Le workflow « Reserve a table » a fait ses 3 étapes.")`)
	setLanguage(t, panel, "en")
	// Its chat is there, with every step.
	Click(t, panel, `document.querySelector("#schedule-list .sc-chat")`)
	WaitJS(t, panel, `document.body.dataset.view === "chat" && skiffTest.state.active && skiffTest.state.active.title === "▶ Reserve a table"`)
}

// The site renamed its button; the user lets the model finish a replay that cannot place it.
// The replay stops at that step and hands the rest to the model in the same chat, with the
// workflow as the plan and the run's values as placeholders (the password never reaches the
// model); the model finds the new button. Saved, the chat is the workflow's version 2, which
// then replays to the end with no model at all.
func TestWorkflowRepairedByTheModelBecomesItsNextVersion(t *testing.T) {
	site, panel, m := renamedBooking(t)

	run := func(restaurant, password string, repair bool) string {
		t.Helper()
		return replayFromView(t, panel, map[string]string{"restaurant": restaurant, "account_password": password}, repair)
	}
	if last := run("Repair Café", "rp-pw-5", true); !strings.Contains(last, "Done.") {
		t.Fatalf("the repaired run ended with %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	forms := site.Forms()
	if len(forms) != 1 || forms[0].Get("restaurant") != "Repair Café" || forms[0].Get("password") != "rp-pw-5" {
		t.Fatalf("the site got %v", forms)
	}
	convs := m.Conversations()
	if len(convs) == 0 {
		t.Fatal("the model was not asked to finish the run")
	}
	var told strings.Builder
	for _, c := range convs {
		for _, msg := range c.Messages {
			told.WriteString(msg.Text + "\n")
		}
	}
	if !strings.Contains(told.String(), "stopped at step 3 of 3: the page has no button “Book a table”; it has button “Reserve now”") ||
		!strings.Contains(told.String(), "{{account_password}}") || !strings.Contains(told.String(), "“Repair Café”") {
		t.Errorf("what the model was told: %s", told.String())
	}
	if strings.Contains(told.String(), "rp-pw-5") {
		t.Error("the password reached the model")
	}

	// Saved from the repaired chat: version 2, with the model's click as step 3.
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	Do(t, panel, chromedp.Click(`#workflow-save button[type="submit"]`))
	WaitJS(t, panel, `document.getElementById("workflows-status").textContent.includes("version 2")`)
	WaitJS(t, panel, `(li => !!li && li.textContent.includes("click button “Reserve now”"))(document.querySelector(".workflow .wf-steps li:nth-child(3)"))`)
	if n := JS[int](t, panel, `skiffTest.call("workflow.list").then(l => l.length)`); n != 1 {
		t.Errorf("%d workflows after saving a new version", n)
	}

	// Version 2 replays to the end with the model gone.
	m.Close()
	n := len(m.Conversations())
	if last := run("Luigi", "pw-2", false); !strings.Contains(last, "ran all 3 steps") {
		t.Fatalf("version 2's replay: %q", last)
	}
	if len(site.Forms()) != 2 || len(m.Conversations()) != n {
		t.Errorf("forms %d, model calls %d", len(site.Forms()), len(m.Conversations())-n)
	}
}

// renamedBooking is the booking page open with its button renamed to "Reserve now", the
// workflow recorded when it was "Book a table" imported, and a model that would finish the task
// by snapshotting and clicking the new name.
func renamedBooking(t *testing.T) (*testkit.Site, context.Context, *testkit.Model) {
	t.Helper()
	site := testkit.NewSite(t)
	url := site.Page("booking.html")
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Reserve now"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	withSecret, _ := reserveWorkflow(t, site)
	JS[any](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(withSecret)+`})`)
	tab := openTab(t, panel, url)
	inTab[bool](t, panel, tab, `(localStorage.setItem("variant", "b"), true)`)
	return site, panel, m
}

// A replay that stopped because the page changed, run without "let the model finish": the chat
// offers to hand the rest to the model afterwards, asking again for the password it never kept.
// The model is told where the replay stopped (never the password) and finishes it; the offer
// goes once it is taken.
func TestStoppedReplayFinishedByTheModelLater(t *testing.T) {
	site, panel, m := renamedBooking(t)

	if last := replayFromView(t, panel, map[string]string{"restaurant": "Later Bistro", "account_password": "later-pw-7"}, false); !strings.Contains(last, "Stopped at step 3") {
		t.Fatalf("the replay ended with %q", last)
	}
	if len(m.Conversations()) != 0 || len(site.Forms()) != 0 {
		t.Fatalf("model calls %d, forms %d before the user chose", len(m.Conversations()), len(site.Forms()))
	}
	offer := `document.getElementById("replay-finish")`
	WaitJS(t, panel, `!`+offer+`.hidden && !!`+offer+`.querySelector('input[name="v:account_password"]')`)
	if got := JS[string](t, panel, offer+`.textContent`); !strings.Contains(got, "step 3") {
		t.Errorf("the offer says: %q", got)
	}
	Click(t, panel, `(f => (f.querySelector('input[name="v:account_password"]').value = "later-pw-7", f.querySelector('button[type="submit"]')))(`+offer+`)`)
	untilDone(t, panel, `document.getElementById("stop").hidden && (m => !!m && /Done\./.test(m.textContent))([...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1))`)
	forms := site.Forms()
	if len(forms) != 1 || forms[0].Get("restaurant") != "Later Bistro" || forms[0].Get("password") != "later-pw-7" {
		t.Fatalf("the site got %v", forms)
	}
	var told strings.Builder
	for _, c := range m.Conversations() {
		for _, msg := range c.Messages {
			told.WriteString(msg.Text + "\n")
		}
	}
	if !strings.Contains(told.String(), "stopped at step 3 of 3") || !strings.Contains(told.String(), "“Later Bistro”") {
		t.Errorf("what the model was told: %s", told.String())
	}
	if strings.Contains(told.String(), "later-pw-7") || strings.Contains(storedText(t, panel), "later-pw-7") {
		t.Error("the password reached the model or the storage")
	}
	WaitJS(t, panel, offer+`.hidden`)
}

// Editing a workflow in its view, as a user does: a new name, a parameter's value and field name,
// a value turned into a secret (which keeps no value), a step removed, a step made optional (a
// replay goes on without it when the page does not show its element). Each save is the next
// version, and what the view shows is what is stored.
func TestWorkflowEditedInItsView(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	withSecret, _ := reserveWorkflow(t, site)
	var offered workflow.Workflow // (the restaurant a choice among what the page offered: made secret, it keeps none)
	if err := json.Unmarshal([]byte(withSecret), &offered); err != nil || offered.Params[0].Name != "restaurant" {
		t.Fatalf("%v: %+v", err, offered.Params)
	}
	offered.Params[0].Choices = []string{"Luigi's", "Chez Ana"}
	b, _ := json.Marshal(offered)
	JS[any](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(string(b))+`})`)
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	WaitJS(t, panel, `!!document.querySelector(".workflow .wf-edit")`)
	Click(t, panel, `document.querySelector(".workflow .wf-edit")`)
	WaitJS(t, panel, `!!document.querySelector(".wf-edit-form")`)
	TypeInto(t, panel, `.wf-edit-form input[name=name]`, "Book quickly")
	TypeInto(t, panel, `.wf-edit-param[data-param=people] input[aria-label^="Value"]`, "7")
	TypeInto(t, panel, `.wf-edit-param[data-param=people] input[aria-label^="Field"]`, "Guests")
	Click(t, panel, `document.querySelector('.wf-edit-param[data-param=restaurant] input[type=checkbox]')`)
	Click(t, panel, `document.querySelector(".wf-edit-steps li:nth-child(3) .wf-remove-step")`)
	if n := JS[int](t, panel, `document.querySelectorAll(".wf-edit-steps .wf-optional").length`); n != 1 {
		t.Errorf("%d steps offer to be skipped; the one on elements only should", n)
	}
	Click(t, panel, `document.querySelector(".wf-edit-steps li:nth-child(2) .wf-optional input")`)
	Click(t, panel, `document.querySelector(".wf-edit-save")`)
	WaitJS(t, panel, `document.getElementById("workflows-status").textContent.includes("version 2")`)
	got := JS[string](t, panel, `skiffTest.call("workflow.list").then(l => JSON.stringify(l[0]))`)
	var w workflow.Workflow
	if err := json.Unmarshal([]byte(got), &w); err != nil {
		t.Fatal(err)
	}
	if w.Name != "Book quickly" || w.Version != 2 || len(w.Steps) != 2 || w.Steps[1].Tool != "fill_form" || !w.Steps[1].Optional {
		t.Errorf("after the edit: %s", got)
	}
	want := []workflow.Param{{Name: "restaurant", Label: "Restaurant", Secret: true}, {Name: "people", Label: "Guests", Default: "7"}, {Name: "account_password", Label: "Account password", Secret: true}}
	if !reflect.DeepEqual(w.Params, want) {
		t.Errorf("the parameters: %+v", w.Params)
	}
	if strings.Contains(got, "Luigi") {
		t.Error("a value turned secret is still stored")
	}
	WaitJS(t, panel, `document.querySelectorAll(".workflow .wf-steps li").length === 2 && document.querySelector(".workflow .wf-name").textContent === "Book quickly"`)
	if got := JS[string](t, panel, `document.querySelector(".workflow .wf-steps li:nth-child(2)").textContent`); !strings.HasSuffix(got, ", if the page shows it") {
		t.Errorf("the step made optional reads %q", got)
	}
}

// answerOutside answers with Allow once every ask of the outside caller who (an MCP client, a
// scheduled run) shown above the composer, until done holds, and returns the tools that asked.
func answerOutside(t *testing.T, panel context.Context, who string, within time.Duration, done func() bool) []string {
	t.Helper()
	ask := `document.querySelector('#outside-asks .outside-ask[data-who=` + jsString(who) + `] button[data-decision="allow_once"]')`
	var asked []string
	deadline := time.Now().Add(within)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("%s's run did not end (asked %v)", who, asked)
		}
		if !JS[bool](t, panel, `!!`+ask) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		id := JS[string](t, panel, ask+`.closest(".outside-ask").dataset.id`)
		asked = append(asked, JS[string](t, panel, ask+`.closest(".outside-ask").dataset.tool`))
		Click(t, panel, ask)
		WaitJS(t, panel, `!document.querySelector('#outside-asks .outside-ask[data-id=`+jsString(id)+`]')`)
	}
	return asked
}

// Stop during a replay, as a user presses it while a step waits for their answer: the replay
// stops there, says so, and the step that asked never runs.
func TestStopDuringAReplay(t *testing.T) {
	site, panel := untilThePasswordAsks(t)
	// The user presses Stop while the password step asks.
	Do(t, panel, chromedp.Click("#stop"))
	stoppedAtThePassword(t, site, panel)
}

// untilThePasswordAsks has a fresh panel replay "Book a table" on booking.html (its page load
// allowed, as a user allows it) up to its password step, which always asks, and returns once
// that step asks.
func untilThePasswordAsks(t *testing.T) (*testkit.Site, context.Context) {
	t.Helper()
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	withSecret, _ := reserveWorkflow(t, site)
	JS[any](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(withSecret)+`})`)
	openTab(t, panel, site.Page("booking.html"))
	startFromView(t, panel, map[string]string{"account_password": "stop-pw"}, false)
	WaitJS(t, panel, `!!document.querySelector('.msg.tool[data-tool="navigate"] .ask .allow-once:not([disabled])')`)
	Click(t, panel, `document.querySelector('.msg.tool[data-tool="navigate"] .ask .allow-once')`)
	WaitJS(t, panel, `!!document.querySelector('.msg.tool[data-tool="fill_form"] .ask .allow-once:not([disabled])') && !document.getElementById("stop").hidden`)
	return site, panel
}

// stoppedAtThePassword checks a replay of untilThePasswordAsks stopped there: its last word
// says so, the step that asked is stopped and asks no more, and nothing was filled or sent.
func stoppedAtThePassword(t *testing.T, site *testkit.Site, panel context.Context) {
	t.Helper()
	WaitJS(t, panel, `document.getElementById("stop").hidden && (m => !!m && m.textContent.includes("Stopped at step 2 of 3"))([...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1))`)
	if got := JS[string](t, panel, `document.querySelector('.msg.tool[data-tool="fill_form"]').dataset.status`); got != "stopped" {
		t.Errorf("the step that asked: %s", got)
	}
	if JS[bool](t, panel, `!!document.querySelector(".msg.tool .ask")`) {
		t.Error("an ask is still shown after the replay stopped")
	}
	if n := len(site.Forms()); n != 0 {
		t.Errorf("%d forms sent", n)
	}
	if v := inTab[string](t, panel, JS[int](t, panel, `chrome.tabs.query({url: `+jsString(site.URL+"/*")+`}).then(t => t[0].id)`), `document.querySelector("input[name=restaurant]").value`); v != "" {
		t.Errorf("the field was filled: %q", v)
	}
}

// A replay cut by a worker restart while a step asked stops there for good: the step that
// asked is not run (by the new worker, or by a late answer), the steps after it are not run,
// the chat says where and why it stopped, in a sentence of its own, and the user may run the
// workflow again.
func TestAReplayCutByAWorkerRestartStopsWhereItWas(t *testing.T) {
	site, panel := untilThePasswordAsks(t)
	// The worker stops while the password step asks.
	browser.RestartWorker(t, panel)
	stoppedAtThePassword(t, site, panel)
	if end := lastReply(t, panel); !strings.Contains(end, "worker restarted") || !strings.Contains(end, "run the workflow again") {
		t.Errorf("the replay's last word: %s", end)
	}
	if n := JS[int](t, panel, `document.querySelectorAll(".msg.tool").length`); n != 2 {
		t.Errorf("%d steps shown (want the two that began)", n)
	}
}

// openRunForm opens the Workflows view (when it is not open) and the first workflow's run form.
// saveWorkflow saves the chat on screen as a workflow named name from the workflows view, as a
// user does, and returns its steps as the view lists them.
func saveWorkflow(t *testing.T, panel context.Context, name string) []string {
	t.Helper()
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	JS[bool](t, panel, `(document.getElementById("workflow-name").value = `+jsString(name)+`, true)`)
	Do(t, panel, chromedp.Click(`#workflow-save button[type="submit"]`))
	WaitJS(t, panel, `document.getElementById("workflows-status").textContent.includes(`+jsString(name)+`) && !!document.querySelector(".workflow .wf-steps li")`)
	return JS[[]string](t, panel, `[...document.querySelectorAll(".workflow .wf-steps li")].map(li => li.textContent)`)
}

func openRunForm(t *testing.T, panel context.Context) {
	t.Helper()
	if JS[bool](t, panel, `document.getElementById("workflows").hidden`) {
		Do(t, panel, chromedp.Click("#workflows-toggle"))
	}
	WaitJS(t, panel, `!!document.querySelector(".workflow .wf-run")`)
	Click(t, panel, `document.querySelector(".workflow .wf-run")`)
	WaitJS(t, panel, `!!document.querySelector(".wf-form .wf-start")`)
}

// startFromView runs the first workflow from its form, as a user does: the values given (the
// others as the form fills them), the repair box, Start; it returns once the panel shows the
// run's new chat.
func startFromView(t *testing.T, panel context.Context, values map[string]string, repair bool) {
	t.Helper()
	openRunForm(t, panel)
	b, _ := json.Marshal(values)
	JS[bool](t, panel, `((f, v) => { for (const [k, x] of Object.entries(v)) f[k].value = x; f.repair.checked = `+strconv.FormatBool(repair)+`; return true })(document.querySelector(".wf-form"), `+string(b)+`)`)
	before := JS[string](t, panel, `skiffTest.state.active ? skiffTest.state.active.id : ""`)
	Click(t, panel, `document.querySelector(".wf-form .wf-start")`)
	WaitJS(t, panel, `document.body.dataset.view === "chat" && skiffTest.state.active && skiffTest.state.active.id !== `+jsString(before)+` && skiffTest.state.active.title.startsWith("▶")`)
}

// replayFromView starts the first workflow (startFromView), allows what it asks until it ends
// and returns its last reply: the replay's own last word, or with repair the model's ("Done.").
func replayFromView(t *testing.T, panel context.Context, values map[string]string, repair bool) string {
	t.Helper()
	startFromView(t, panel, values, repair)
	end := `/ran all|ran to its end|Stopped at step/`
	if repair {
		end = `/Done\./`
	}
	untilDone(t, panel, `document.getElementById("stop").hidden && (m => !!m && `+end+`.test(m.textContent))([...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1))`)
	return lastReply(t, panel)
}

// saveSettings saves the settings with the fields of the JS object literal patch changed.
func saveSettings(t *testing.T, panel context.Context, patch string) {
	t.Helper()
	JS[bool](t, panel, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, ...`+patch+`}, keys: {}})).then(() => true)`)
}

// lastReply is the text of the chat's last assistant message.
func lastReply(t *testing.T, panel context.Context) string {
	t.Helper()
	return JS[string](t, panel, `[...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1).textContent`)
}

// storedText is everything Skiff keeps in chrome.storage (local and session), as JSON text,
// with the audit entries still queued written first (reading the log writes them).
func storedText(t *testing.T, panel context.Context) string {
	t.Helper()
	return JS[string](t, panel, `skiffTest.call("permission.list").then(() => Promise.all([chrome.storage.local.get(null), chrome.storage.session.get(null)])).then(a => JSON.stringify(a))`)
}

// groupOf is the title of the tab group of the first grouped tab on site ("no group" when none).
func groupOf(t *testing.T, panel context.Context, site string) string {
	t.Helper()
	return JS[string](t, panel, `(async () => {
		const tabs = (await chrome.tabs.query({url: `+jsString(site+"/*")+`})).filter(t => t.groupId >= 0);
		return tabs.length ? (await chrome.tabGroups.get(tabs[0].groupId)).title : "no group";
	})()`)
}

// A prompt scheduled in the Workflows view runs as an agent run at its time: the model works
// in the run's own tab group, each act asks (answered in the panel, named as the schedule;
// the toolbar button says so in the user's language), and the schedule's row and the run's
// chat keep the outcome.
func TestScheduledPromptRunsAsAnAgent(t *testing.T) {
	site := testkit.NewSite(t)
	url := site.Page("counter.html")
	p := &plan{steps: []step{
		calls(call("navigate", obj{"url": url})),
		calls(call("snapshot", nil)),
		clickOn(t, `button "Like"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	// In French, what the worker shows outside the panel is French too: the button's title
	// while the run waits for an answer.
	saveSettings(t, panel, `{language: "fr"}`)
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	WaitJS(t, panel, `document.body.dataset.view === "workflows"`)
	JS[bool](t, panel, `(d => (d.open = true, true))(document.getElementById("schedule-prompt"))`)
	form := `document.querySelector("#schedule-prompt .sc-form")`
	JS[bool](t, panel, `(f => {
		f.name.value = "Morning like";
		f.prompt.value = "Press Like on `+url+`";
		f.every.value = "once"; f.every.dispatchEvent(new Event("change"));
		const at = new Date(Date.now() + 8000);
		f.at.step = "1";
		f.at.value = new Date(at.getTime() - at.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
		return true;
	})(`+form+`)`)
	Click(t, panel, form+`.querySelector(".sc-save")`)
	WaitJS(t, panel, `[...document.querySelectorAll("#schedule-list .schedule")].some(li => li.textContent.includes("Morning like"))`)

	WaitJS(t, panel, `!!document.querySelector('#outside-asks .outside-ask[data-who="⏰ Morning like"]')`)
	Eventually(t, 30*time.Second, func() bool {
		return WorkerValue[string](t, browser, `chrome.action.getTitle({})`) == "Skiff : 1 en attente de votre accord"
	}, "the button's title is not in French while the run asks")

	asked := answerOutside(t, panel, "⏰ Morning like", time.Minute, func() bool {
		return JS[bool](t, panel, `skiffTest.call("schedule.list").then(l => !!l[0]?.last)`)
	})
	if !slices.Contains(asked, "click") {
		t.Errorf("asks: %v", asked)
	}
	if n := len(p.results("click")); n != 1 {
		t.Fatalf("clicks: %s", p.all())
	}
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(url)+`}).then(([t]) => t.id)`)
	waitTab(t, panel, tab, `document.getElementById("count-like").textContent === "1"`)
	last := JS[map[string]any](t, panel, `skiffTest.call("schedule.list").then(l => l[0].last)`)
	if last["ok"] != true || last["outcome"] != "Done." {
		t.Errorf("the schedule's last run: %v", last)
	}
	if group := groupOf(t, panel, site.URL); group != "⏰ Morning like" {
		t.Errorf("the run's tab group: %q", group)
	}
	Click(t, panel, `document.querySelector("#schedule-list .sc-chat")`)
	WaitJS(t, panel, `document.body.dataset.view === "chat" && skiffTest.state.active?.messages?.[0]?.content === "Press Like on `+url+`"`)
}

// A replay reads the page again only when it changed: here typing the name draws the Code field
// again (a new element, the one read before gone), and the replay finds the new one, types into
// it, and the site gets every value. Read once for all, the step would type into an element no
// longer on the page and stop.
func TestReplayFollowsAPageThatRedrawsItsFields(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	url := site.Page("reform.html")
	field := func(name string) string {
		return fmt.Sprintf(`{"tool": "type", "args": {"ref": "@1", "text": "{{%s}}"}, "targets": [{"role": "textbox", "name": %q, "tag": "input"}], "url": %q, "origin": %q, "what": "type {{%s}} into textbox “%s”"}`,
			strings.ToLower(name), name, url, site.URL, strings.ToLower(name), name)
	}
	data := `{"name": "Delivery", "version": 1,
		"params": [{"name": "name", "label": "Name"}, {"name": "code", "label": "Code"}, {"name": "note", "label": "Note"}],
		"steps": [
			{"tool": "navigate", "args": {"url": ` + jsString(url) + `}, "url": ` + jsString(url) + `, "origin": ` + jsString(site.URL) + `, "what": "open the page"},
			` + field("Name") + `, ` + field("Code") + `, ` + field("Note") + `,
			{"tool": "click", "args": {"ref": "@1"}, "targets": [{"role": "button", "name": "Send", "tag": "button"}], "url": ` + jsString(url) + `, "origin": ` + jsString(site.URL) + `, "what": "click button “Send”"}
		], "createdAt": 1795000000000, "updatedAt": 1795000000000}`
	JS[any](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(data)+`})`)
	allowSite(t, panel, site.URL)
	openTab(t, panel, url)
	last := replayFromView(t, panel, map[string]string{"name": "Ana", "code": "K-17", "note": "ring twice"}, false)
	if !strings.Contains(last, "ran all 5 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	Eventually(t, 10*time.Second, func() bool { return len(site.Forms()) == 1 }, "the replay sent no form")
	if f := site.Forms()[0]; f.Get("name") != "Ana" || f.Get("code") != "K-17" || f.Get("note") != "ring twice" {
		t.Errorf("the site got %v", f)
	}
}

// A workflow replays a click on a checkbox as the state the click left it in: on a page that
// shows the box checked already (the site remembers), the replay leaves it checked instead of
// turning it off again. A radio clicked in a fieldset is the run's choice in it, {{plan}}: the
// replay checks the one named with the run's value.
func TestReplayLeavesACheckboxAsItWasLeft(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `checkbox "Send me the newsletter"`),
		clickOn(t, `radio "Pro"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("checks.html"))
	runAgent(t, panel, "sign me up for the newsletter")
	if !inTab[bool](t, panel, tab, `document.getElementById("news").checked`) {
		t.Fatalf("the agent's click did not check the box: %s", p.all())
	}
	steps := saveWorkflow(t, panel, "Newsletter")
	if len(steps) != 3 || steps[1] != "check checkbox “Send me the newsletter”" || steps[2] != "check radio “Pro” (or the first named with {{plan}})" {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	inTab[bool](t, panel, tab, `(localStorage.setItem("remember", "1"), true)`)
	m.Close()
	if last := replayFromView(t, panel, map[string]string{"plan": "Free"}, false); !strings.Contains(last, "ran all 3 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if !inTab[bool](t, panel, tab, `document.getElementById("news").checked && localStorage.getItem("remember") === "1"`) {
		t.Errorf("the replay turned the box the page showed checked off")
	}
	if !inTab[bool](t, panel, tab, `document.getElementById("free").checked`) {
		t.Errorf("the replay did not choose the Free plan")
	}
}

// A call the page refused does not become a step, and a step the page refuses stops the replay:
// the agent's first click on Subscribe, with the address still empty, was stopped by the
// browser and is not in the workflow, nor is its click on the address's field before typing
// there (typing gives the field the focus); a replay given an address the browser does not take
// stops at that click and says why, instead of saying it ran every step.
func TestReplayStopsWhereThePageRefusesIt(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Subscribe"`),
		func(c *testkit.Conversation) []testkit.Call {
			email := refIn(t, c, `textbox "Email"`)
			return []testkit.Call{call("click", obj{"ref": email}), call("type", obj{"ref": email, "text": "ana@example.com"})}
		},
		clickOn(t, `button "Subscribe"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("subscribe.html"))
	runAgent(t, panel, "subscribe me")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
	if got := p.since(1); len(got) < 1 || !strings.Contains(got[0].Text, "The form was not sent") {
		t.Fatalf("the first click: %s", p.all())
	}
	steps := saveWorkflow(t, panel, "Subscribe")
	if len(steps) != 3 || !strings.HasPrefix(steps[0], "open ") || !strings.Contains(steps[1], "{{email}}") || steps[2] != "click button “Subscribe”" {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	m.Close()
	allowSite(t, panel, site.URL)
	last := replayFromView(t, panel, map[string]string{"email": "not an address"}, false)
	if !strings.Contains(last, "Stopped at step 3 of 3 (click button “Subscribe”): the page did not take it: the browser did not send the form: it stopped it at textbox “Email”") {
		t.Errorf("the replay: %q", last)
	}
	if n := len(site.Forms()); n != 1 {
		t.Errorf("%d forms sent", n)
	}
}

// A replay's chat speaks of the workflow, not of a model: its steps ask in the workflow's name,
// and its start (the workflow's own words, which no model answered) cannot be edited or
// answered again; a press of Regenerate that gets through says what to do instead.
func TestAReplaysChatSpeaksOfTheWorkflow(t *testing.T) {
	site := testkit.NewSite(t)
	panel := browser.FreshPanel(t)
	data, _ := reserveWorkflow(t, site)
	JS[any](t, panel, `skiffTest.call("workflow.import", {data: `+jsString(data)+`})`)
	openTab(t, panel, site.Page("booking.html"))
	startFromView(t, panel, map[string]string{"restaurant": "Chez Ana", "people": "2", "account_password": "pw-ask-9"}, false)
	WaitJS(t, panel, `!!document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`)
	if got := JS[string](t, panel, `document.querySelector(".msg.tool .ask .ask-q strong").textContent.trim()`); got != "Allow the workflow “Book a table” to" {
		t.Errorf("the replay's step asks as %q", got)
	}
	untilDone(t, panel, `document.getElementById("stop").hidden && /ran all/.test(`+lastAssistant+`?.textContent)`)
	if got := JS[string](t, panel, `[...document.querySelectorAll("#messages .m-actions button")].map(b => b.className).join(" ")`); strings.Contains(got, "regenerate") || strings.Contains(got, "edit") {
		t.Errorf("the replay's chat offers %q", got)
	}
	got := JS[string](t, panel, `skiffTest.call("chat.regenerate", {sessionId: skiffTest.state.active.id}).then(() => "", (e) => String(e.message || e))`)
	if !strings.Contains(got, "This chat is a workflow's replay, which no model answered") {
		t.Errorf("Regenerate on a replay: %q", got)
	}
}

// A task that fills a form the page opens in a new tab, then comes back to mark it done, is a
// workflow that does the same in the tabs its replay opens: the recorded tab ids are dead by
// then, so each step keeps its tab's place in the run (the one it started in, the one its link
// opened), and the replay switches where the agent switched, and closes the tab the agent closed.
func TestAWorkflowFollowsTheTabItsLinkOpens(t *testing.T) {
	site := testkit.NewSite(t)
	opened := func(c *testkit.Conversation) int {
		re := regexp.MustCompile(`opened a new tab \(tabId (\d+)\)`)
		for i := len(c.Messages) - 1; i >= 0; i-- {
			if g := re.FindStringSubmatch(c.Messages[i].Text); g != nil {
				n, _ := strconv.Atoi(g[1])
				return n
			}
		}
		t.Errorf("no tab was opened: %v", c.Messages)
		return 0
	}
	var start int
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `link "Open the booking form"`),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("tab_switch", obj{"tabId": opened(c)})}
		},
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("fill_form", obj{"fields": []obj{
				{"ref": refIn(t, c, `textbox "Restaurant"`), "value": "Luigi"},
				{"ref": refIn(t, c, `textbox "People"`), "value": "4"},
			}})}
		},
		clickOn(t, `button "Book a table"`),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("tab_switch", obj{"tabId": start})}
		},
		calls(call("snapshot", nil)),
		clickOn(t, `button "Mark as done"`),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("tab_close", obj{"tabIds": []int{opened(c)}})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	allowSite(t, panel, site.URL)
	start = openTab(t, panel, site.Page("order.html"))
	sent := func() int { // the tabs that show the page the form leads to
		return JS[int](t, panel, `chrome.tabs.query({}).then(ts => ts.filter(x => x.url.startsWith(`+jsString(site.URL+"/submit")+`)).length)`)
	}
	runAgent(t, panel, "Book a table at Luigi for 4, then mark the order done")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
	if got := inTab[string](t, panel, start, `document.getElementById("said").textContent`); got != "Marked done 1 time(s)." {
		t.Fatalf("the agent's run: %q; %s", got, p.all())
	}
	steps := saveWorkflow(t, panel, "Book and mark done")
	want := []string{"click link “Open the booking form”", "switch to the run's tab 2", "fill textbox “Restaurant” = {{restaurant}}; textbox “People” = {{people}}", "click button “Book a table”", "switch to the run's tab 1", "click button “Mark as done”", "close the run's tab 2"}
	if len(steps) != 8 || !strings.HasPrefix(steps[0], "open ") || !slices.Equal(steps[1:], want) {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	if n := sent(); n != 0 {
		t.Fatalf("the agent left %d tabs it closed", n)
	}

	// The replay, with other values and no model, in a tab of its own.
	m.Close()
	again := openTab(t, panel, site.Page("order.html"))
	last := replayFromView(t, panel, map[string]string{"restaurant": "Chez Ana", "people": "2"}, false)
	if !strings.Contains(last, "ran all 8 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	forms := site.Forms()
	if len(forms) != 2 || forms[1].Get("restaurant") != "Chez Ana" || forms[1].Get("people") != "2" {
		t.Errorf("the forms sent: %v", forms)
	}
	if got := inTab[string](t, panel, again, `document.getElementById("said").textContent`); got != "Marked done 1 time(s)." {
		t.Errorf("the replay's own order page says %q", got)
	}
	if n := sent(); n != 0 {
		t.Errorf("the replay left %d of the tabs it opened and was to close", n)
	}
}

// A schedule leaves one window, its last run's, not one a run: each run works in a window of
// its own, and the next run of the schedule closes the tabs the one before left that the user
// has not taken up (gone on to another page in). The one the user took up stays.
func TestAScheduleLeavesTheWindowOfItsLastRunOnly(t *testing.T) {
	site, panel, id := schedulable(t)
	Do(t, panel, chromedp.Click("#workflows-toggle")) // where the run's asks are answered
	sc := ""
	// runOnce has the schedule run in a moment and returns the tabs that run left.
	runOnce := func(n int) []int {
		t.Helper()
		saved := JS[string](t, panel, `skiffTest.call("schedule.save", {id: `+jsString(sc)+`, name: "Reserve", workflow: `+jsString(id)+`, values: {restaurant: "Run `+strconv.Itoa(n)+`", people: "2"}, repeat: {every: "once", at: Date.now() + 2000}}).then(s => s.id)`)
		sc = saved
		answerOutside(t, panel, "⏰ Reserve", time.Minute, func() bool { return len(site.Forms()) >= n })
		var left []int
		Eventually(t, 30*time.Second, func() bool {
			left = JS[[]int](t, panel, `skiffTest.call("schedule.list").then(l => (l[0].last && !l[0].running && l[0].last.outcome.includes("ran all") && l[0].last.left || []).map(x => x.id))`)
			return len(left) > 0
		}, "the run left no tab")
		return left
	}
	open := func(id int) bool {
		return JS[bool](t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(() => true, () => false)`, id))
	}
	first := runOnce(1)
	second := runOnce(2)
	for _, id := range first {
		if open(id) {
			t.Errorf("tab %d of the first run is still open after the second", id)
		}
	}
	for _, id := range second {
		if !open(id) {
			t.Errorf("tab %d of the last run was closed", id)
		}
	}
	// The user goes on in the last run's tab: it is theirs, and the next run leaves it.
	JS[bool](t, panel, fmt.Sprintf(`chrome.tabs.update(%d, {url: %s}).then(() => true)`, second[0], jsString(site.Page("order.html"))))
	WaitJS(t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.status === "complete" && t.url.endsWith("order.html"))`, second[0]))
	third := runOnce(3)
	if !open(second[0]) {
		t.Errorf("the tab the user took up was closed")
	}
	if slices.Contains(third, second[0]) {
		t.Errorf("the third run worked in the tab the user took up")
	}
	if f := site.Forms(); len(f) != 3 || f[2].Get("restaurant") != "Run 3" {
		t.Errorf("the forms: %v", f)
	}
}

// A search, then a click on the result named after what was searched for: the workflow's
// replay searches for the run's value and opens the first result named with it (the recorded
// result is not among them).
func TestAReplayOpensTheResultOfItsOwnSearch(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `searchbox "Search restaurants"`), "text": "Luigi", "submit": true})}
		},
		calls(call("snapshot", nil)),
		clickOn(t, `link "Luigi's Trattoria"`),
	}}
	opensChezAna(t, site, p, "open Luigi's Trattoria", "search_restaurants",
		"open "+site.Page("restaurants.html"), "type {{search_restaurants}} into searchbox “Search restaurants”", "click link “Luigi's Trattoria” (or the first named with {{search_restaurants}})")
}

// The agent goes straight to the search's address with what the task asked for in it
// (restaurants.html?q=Luigi), as models do: the replay with another value searches for that
// value, and opens the result named after it, not the recorded one.
func TestAReplaySearchesTheAddressWithItsOwnValue(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("navigate", obj{"url": site.Page("restaurants.html?q=Luigi")})),
		calls(call("snapshot", nil)),
		clickOn(t, `link "Luigi's Trattoria"`),
	}}
	opensChezAna(t, site, p, "Find the restaurants called Luigi and open the trattoria", "search",
		"open "+site.Page("restaurants.html?q={{search}}"), "click link “Luigi's Trattoria” (or the first named with {{search}})")
}

// opensChezAna has the agent run p on restaurants.html for task (it opens Luigi's Trattoria),
// saves the run as a workflow whose steps read want, and replays it with no model and "Chez
// Ana" for param: the replay opens the first result named so, Chez Ana Bistro.
func opensChezAna(t *testing.T, site *testkit.Site, p *plan, task, param string, want ...string) {
	t.Helper()
	panel, tab, m := p.runOn(t, site, "restaurants.html", task)
	at := func() string {
		return JS[string](t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => decodeURIComponent(new URL(t.url).searchParams.get("at") || ""))`, tab))
	}
	if got := at(); got != "Luigi's Trattoria" {
		t.Fatalf("the agent opened %q: %s", got, p.all())
	}
	if steps := saveWorkflow(t, panel, "Find a table"); !slices.Equal(steps, want) {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	m.Close()
	if last := replayFromView(t, panel, map[string]string{param: "Chez Ana"}, false); !strings.Contains(last, fmt.Sprintf("ran all %d steps", len(want))) {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if got := at(); got != "Chez Ana Bistro" {
		t.Errorf("the replay opened %q", got)
	}
}

// savedResultRun is an agent's run that searched the restaurants for Luigi (search), read the
// page's links and went to result, the trattoria's own address, saved as the workflow "Find a
// table" whose second step is made for the search; it returns the panel and the run's tab.
func savedResultRun(t *testing.T, site *testkit.Site, search, result string) (context.Context, int) {
	t.Helper()
	p := &plan{steps: []step{
		calls(call("navigate", obj{"url": site.Page(search)})),
		calls(call("links", obj{"filter": "booking"})),
		calls(call("navigate", obj{"url": site.Page(result)})),
	}}
	panel, tab, m := p.runOn(t, site, "restaurants.html", "Find the restaurants called Luigi and open the trattoria")
	steps := saveWorkflow(t, panel, "Find a table")
	if len(steps) != 2 || steps[1] != "open "+site.Page(result)+" (or the page's link of its kind for {{search}})" {
		t.Fatalf("the workflow's steps: %q; the run: %s", steps, p.all())
	}
	m.Close()
	return panel, tab
}

// The agent goes to a result's own address, read off the page, after searching what the task
// asked for: a replay searching another value goes to the address the page links to for it
// (the same kind, made for the run's value), never to the recorded result; where the page has
// none, it stops there and says why. Ticked off in the editor (the user says the address
// serves every value), the step goes to the recorded address.
func TestAReplayGoesToTheResultFoundForItsValue(t *testing.T) {
	site := testkit.NewSite(t)
	panel, tab := savedResultRun(t, site, "restaurants.html?q=Luigi", "booking.html?at=Luigi%27s%20Trattoria")
	at := func() string {
		return JS[string](t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => decodeURIComponent(new URL(t.url).searchParams.get("at") || ""))`, tab))
	}
	if last := replayFromView(t, panel, map[string]string{"search": "Chez Ana"}, false); !strings.Contains(last, "ran all 2 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if got := at(); got != "Chez Ana Bistro" {
		t.Errorf("the replay opened %q", got)
	}

	last := replayFromView(t, panel, map[string]string{"search": "Dragon"}, false)
	if !strings.HasPrefix(last, "Stopped at step 2 of 2") || !strings.Contains(last, "the recorded run went to an address it found for “Luigi”; the page links to none like it for “Dragon”") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if n := len(toolCards(t, panel)); n != 1 {
		t.Errorf("%d steps ran; the first only should", n)
	}

	if JS[bool](t, panel, `document.getElementById("workflows").hidden`) {
		Do(t, panel, chromedp.Click("#workflows-toggle"))
	}
	WaitJS(t, panel, `!!document.querySelector(".workflow .wf-edit")`)
	Click(t, panel, `document.querySelector(".workflow .wf-edit")`)
	WaitJS(t, panel, `document.querySelectorAll(".wf-edit-steps .wf-for input:checked").length === 1`)
	Click(t, panel, `document.querySelector(".wf-edit-steps .wf-for input")`)
	Click(t, panel, `document.querySelector(".wf-edit-save")`)
	WaitJS(t, panel, `document.getElementById("workflows-status").textContent.includes("version 2")`)
	if last := replayFromView(t, panel, map[string]string{"search": "Chez Ana"}, false); !strings.Contains(last, "ran all 2 steps") {
		t.Errorf("the replay after the edit: %q", last)
	}
	if got := at(); got != "Luigi's Trattoria" {
		t.Errorf("the replay after the edit opened %q", got)
	}
}

// The same with a result's address made of a number (booking.html?id=2), which the agent read
// in the page's links: the link's name held the searched value, so a replay for another value
// goes to the address of the link named with it, never to the recorded result.
func TestAReplayGoesToTheResultNamedForItsValue(t *testing.T) {
	site := testkit.NewSite(t)
	panel, tab := savedResultRun(t, site, "restaurants.html?q=Luigi&ids=1", "booking.html?id=2")
	if last := replayFromView(t, panel, map[string]string{"search": "Chez Ana"}, false); !strings.Contains(last, "ran all 2 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if got := JS[string](t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.url)`, tab)); !strings.HasSuffix(got, "booking.html?id=4") {
		t.Errorf("the replay opened %q, not Chez Ana Bistro's booking.html?id=4", got)
	}
}

// A day chosen on a calendar as flatpickr draws it (each day a span named by its date): the
// workflow keeps the date as a value, and its replay for {{today+2}} chooses the day after
// tomorrow, whatever day it runs, and books it. So with flatpickr's own Japanese, Chinese,
// Korean, Russian and Turkish words, its days named "12月 2, 2026", "十二月 2, 2026", "12월 2,
// 2026", "Декабрь 2, 2026", "Aralık 2, 2026".
func TestAReplayChoosesTheDayCountedFromItsRun(t *testing.T) {
	for _, lang := range []string{"en", "ja", "zh", "ko", "ru", "tr"} {
		t.Run(lang, func(t *testing.T) { choosesTheDayCountedFromItsRun(t, lang) })
	}
}

func choosesTheDayCountedFromItsRun(t *testing.T, lang string) {
	site := testkit.NewSite(t)
	// (flatpickr's "F j, Y" in lang: its months in Chinese, Russian and Turkish)
	months := map[string][12]string{"zh": {"一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"},
		"ru": {"Январь", "Февраль", "Март", "Апрель", "Май", "Июнь", "Июль", "Август", "Сентябрь", "Октябрь", "Ноябрь", "Декабрь"},
		"tr": {"Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim", "Kasım", "Aralık"}}
	day := func(n int, layout string) string {
		d := time.Now().AddDate(0, 0, n)
		if layout == "F j, Y" {
			switch lang {
			case "ja", "ko":
				return d.Format(map[string]string{"ja": "1月 2, 2006", "ko": "1월 2, 2006"}[lang])
			case "zh", "ru", "tr":
				return months[lang][d.Month()-1] + d.Format(" 2, 2006")
			}
			layout = "January 2, 2006"
		}
		return d.Format(layout)
	}
	tomorrow := day(1, "F j, Y")
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `clickable "`+tomorrow+`"`),
		clickOn(t, `button "Book"`),
	}}
	panel, _, m := p.runOn(t, site, "day-booking.html?lang="+lang, "book it for tomorrow")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
	if got := site.Forms()[0].Get("day"); got != day(1, "2006-01-02") {
		t.Fatalf("the agent booked %q", got)
	}
	steps := saveWorkflow(t, panel, "Book a day")
	if len(steps) != 3 || steps[1] != "click generic “"+tomorrow+"” (or the first named with {{date}})" {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	m.Close()
	before := day(2, "2006-01-02")
	if last := replayFromView(t, panel, map[string]string{"date": "{{today+2}}"}, false); !strings.Contains(last, "ran all 3 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	// (The day after tomorrow as the replay began, or as it ended past midnight.)
	if f := site.Forms(); len(f) != 2 || f[1].Get("day") != before && f[1].Get("day") != day(2, "2006-01-02") {
		t.Errorf("the forms: %v (wanted %s)", f, before)
	}
}

// A stay's first and last days chosen on one calendar (flatpickr's range mode): the last day
// counts from the first, so a replay for a stay from {{today+5}} leaves three days later, as
// the recorded stay did.
func TestAReplayKeepsTheRangesLength(t *testing.T) {
	site := testkit.NewSite(t)
	day := func(n int, layout string) string { return time.Now().AddDate(0, 0, n).Format(layout) }
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `clickable "`+day(1, "January 2, 2006")+`"`),
		calls(call("snapshot", nil)),
		clickOn(t, `clickable "`+day(4, "January 2, 2006")+`"`),
		clickOn(t, `button "Book"`),
	}}
	panel, _, m := p.runOn(t, site, "day-booking.html?range=1", "book a stay from tomorrow for three nights")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
	if got := site.Forms()[0].Get("day"); got != day(1, "2006-01-02")+" to "+day(4, "2006-01-02") {
		t.Fatalf("the agent booked %q", got)
	}
	if steps := saveWorkflow(t, panel, "Book a stay"); len(steps) != 4 {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	m.Close()
	start := time.Now()
	if last := replayFromView(t, panel, map[string]string{"date": "{{today+5}}"}, false); !strings.Contains(last, "ran all 4 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	// (Counted from the day the replay began, or from the next if it ended past midnight.)
	stay := func(d time.Time) string {
		return d.AddDate(0, 0, 5).Format("2006-01-02") + " to " + d.AddDate(0, 0, 8).Format("2006-01-02")
	}
	if f := site.Forms(); len(f) != 2 || f[1].Get("day") != stay(start) && f[1].Get("day") != stay(start.AddDate(0, 0, 1)) {
		t.Errorf("the forms: %v (wanted %s)", f, stay(start))
	}
}

// A day chosen on the calendar jQuery UI's datepicker opens under a field, each day a link named
// only by its number: the workflow keeps the date (the month the calendar writes above the days
// says which), and its replay for {{today+40}} turns the calendar with its own Next (a link with
// no address, which the snapshot shows for its title) to that month, and books that day. Where
// the calendar's head chooses its month and year from lists (/lists), the month is read from
// them, and the replay chooses the run's year and month there. So in French, German, Spanish,
// Italian, Swedish, Polish, Czech, Japanese, Korean, Chinese, Russian, Turkish, Ukrainian,
// Finnish, Hungarian, Greek, Romanian and Indonesian, as jQuery UI's own strings write them.
func TestAReplayTurnsTheCalendarToTheRunsMonth(t *testing.T) {
	// (jQuery UI's Next in each language)
	next := map[string]string{"en": "Next", "fr": "Suivant", "de": "Vor", "es": "Sig", "it": "Succ", "sv": "Nästa", "pl": "Następny", "cs": "Později", "ja": "次", "ko": "다음달", "zh-CN": "下月", "ru": "След", "tr": "ileri",
		"uk": "найближчий", "fi": "Seuraava", "hu": "Előre", "el": "Επόμενος", "ro": "Luna următoare", "id": "Maju"}
	// (the months a language names as English does: "April 2026" is English words too)
	englishToo := map[string][]time.Month{"de": {time.April, time.August, time.September, time.November},
		"sv": {time.April, time.September, time.November, time.December}, "hu": {time.November, time.December},
		"ro": {time.August}, "id": {time.April, time.September, time.November}}
	for _, variant := range []string{"en", "fr", "de", "es", "sv", "pl", "cs", "ja", "ko", "zh-CN", "ru", "tr", "uk", "fi", "hu", "el", "ro", "id", "en&selects=1", "fr&selects=1", "it&selects=1", "pl&selects=1"} {
		lang, selects := strings.CutSuffix(variant, "&selects=1")
		t.Run(strings.ReplaceAll(variant, "&selects=1", "/lists"), func(t *testing.T) {
			site := testkit.NewSite(t)
			panel, m, today := bookTodayOn(t, site, "day-picker.html?lang="+variant, "link")
			// The date is kept as the calendar writes it: "1 décembre 2026" in French.
			form := JS[string](t, panel, `skiffTest.call("workflow.list").then(l => l[0].params.map(p => p.name + "=" + p.default + " ").join(""))`)
			if written, ok := map[string]string{"ja": "2006年1月2日", "ko": "2006년 1월 2일", "zh-CN": "2006年1月2日"}[lang]; ok {
				if want := "date=" + today.Format(written) + " "; !strings.Contains(form, want) {
					t.Errorf("the run's form: %q (wanted %s)", form, want)
				}
			} else if want := "date=" + today.Format("January 2, 2006"); lang != "en" {
				// The page says its language: its words, though a month's be English too, and
				// today's day ("1. Dezember 2026" in German, "1er décembre" in French, "2026.
				// december 1." in Hungarian) and year.
				words := strings.Fields(strings.TrimPrefix(form, "date="))
				day := slices.ContainsFunc(words, func(w string) bool { return strings.TrimRight(w, ".,er") == strconv.Itoa(today.Day()) })
				year := slices.ContainsFunc(words, func(w string) bool { return strings.TrimRight(w, ".,") == strconv.Itoa(today.Year()) })
				if !day || !year || !slices.Contains(englishToo[lang], today.Month()) && strings.Contains(form, today.Format("January")) {
					t.Errorf("the run's form: %q", form)
				}
			} else if !strings.Contains(form, want) {
				t.Errorf("the run's form: %q (wanted %s)", form, want)
			}
			m.Close()
			replaysForTheDay40On(t, panel, site, today)
			if cards := cardsString(toolCards(t, panel)); selects && !strings.Contains(cards, `in combobox “Select month”`) && !strings.Contains(cards, `in combobox “Select year”`) {
				t.Errorf("no card shows the choice of the month in its list: %s", cards)
			} else if !selects && !strings.Contains(cards, `click link “`+next[lang]+`”`) {
				t.Errorf("no card shows the turn of the month: %s", cards)
			}
		})
	}
}

// bookTodayOn has the agent book a visit for today on page: it opens the calendar under "Visit
// date", clicks today's day (an element of role named by its number), then Book; the form must
// send today, and the run is saved as a workflow whose day step follows its calendar.
func bookTodayOn(t *testing.T, site *testkit.Site, page, role string) (context.Context, *testkit.Model, time.Time) {
	t.Helper()
	today := time.Now()
	day := strconv.Itoa(today.Day())
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `textbox "Visit date"`),
		calls(call("snapshot", nil)),
		clickOn(t, role+` "`+day+`"`),
		clickOn(t, `button "Book"`),
	}}
	panel, _, m := p.runOn(t, site, page, "book a visit for today")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
	if got := site.Forms()[0].Get("visit"); got != today.Format("2006-01-02") {
		t.Fatalf("the agent booked %q", got)
	}
	steps := saveWorkflow(t, panel, "Book a visit")
	if len(steps) != 4 || !strings.HasPrefix(steps[2], "click ") || !strings.HasSuffix(steps[2], "“"+day+"” (the day of {{date}} on its calendar)") {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	return panel, m, today
}

// replaysForTheDay40On replays the workflow a booking of a visit on today was saved as for
// {{today+40}}, with no model, and checks it ran to its end and sent that day (or the next, if
// it ended past midnight) as the form's visit.
func replaysForTheDay40On(t *testing.T, panel context.Context, site *testkit.Site, today time.Time) {
	t.Helper()
	want := today.AddDate(0, 0, 40)
	if last := replayFromView(t, panel, map[string]string{"date": "{{today+40}}"}, false); !strings.Contains(last, "ran all 4 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if f := site.Forms(); len(f) != 2 || f[1].Get("visit") != want.Format("2006-01-02") && f[1].Get("visit") != want.AddDate(0, 0, 1).Format("2006-01-02") {
		t.Errorf("the forms: %v (wanted %s)", f, want.Format("2006-01-02"))
	}
}

// The calendars of widget libraries as sites use them, unmodified (vendor-pickers.html): air-
// datepicker's days and arrows are divs with the pointer cursor and its title "December, 2026"
// is split by an <i>; vanillajs-datepicker's days are spans that show the pointer only under
// the mouse, under a head row of the days' names in one flex line; Pikaday's are buttons;
// Litepicker's are boxes a keyboard reaches, its arrows nameless buttons its code calls
// "button-next-month", its month and year two boxes of a flex row; js-datepicker's arrows are
// told apart only by their classes, qs-left and qs-right; Tempus Dominus writes its month
// "December 26", its year in two figures. A day
// the agent chose on each is the run's day at a replay, 40 days on, in the month it falls in.
func TestAReplayChoosesTheDayOnWidgetLibrariesCalendars(t *testing.T) {
	for _, c := range []struct{ kind, role string }{{"air", "clickable"}, {"vanilla", "clickable"}, {"pika", "button"}, {"lite", "clickable"}, {"jsdp", "clickable"}, {"tempus", "clickable"}} {
		t.Run(c.kind, func(t *testing.T) {
			site := testkit.NewSite(t)
			panel, m, today := bookTodayOn(t, site, "vendor-pickers.html?kind="+c.kind, c.role)
			m.Close()
			replaysForTheDay40On(t, panel, site, today)
		})
	}
}

// A date typed in words on a page that says its language (<html lang="nl">) is written in that
// language at a run: "15 november 2026" (Chrome's own Dutch and Swedish, November's name being
// English too) typed by the agent, the replay for a day in January types "10 januari 2027", as
// Chrome writes that day in the page's language, not "10 january 2027".
func TestADateIsTypedInThePagesLanguage(t *testing.T) {
	for _, lang := range []string{"nl", "sv"} {
		t.Run(lang, func(t *testing.T) {
			site := testkit.NewSite(t)
			long := `{day: "numeric", month: "long", year: "numeric", timeZone: "UTC"}`
			// (Chrome's writing of a day in lang: what a person there types)
			words := func(panel context.Context, d time.Time) string {
				return JS[string](t, panel, `new Date(Date.UTC(`+d.Format("2006, ")+strconv.Itoa(int(d.Month())-1)+`, `+strconv.Itoa(d.Day())+`)).toLocaleDateString("`+lang+`", `+long+`)`)
			}
			// (Dutch and Swedish write it so: November's name is English too.)
			const typed = "15 november 2026"
			p := &plan{steps: []step{
				calls(call("snapshot", nil)),
				func(c *testkit.Conversation) []testkit.Call {
					return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Date"`), "text": typed})}
				},
				clickOn(t, `button "Book"`),
			}}
			panel, _, m := p.runOn(t, site, "dated.html?lang="+lang, "book a trip on "+typed)
			if w := words(panel, time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)); w != typed {
				t.Fatalf("Chrome writes the day in %s as %q", lang, w)
			}
			Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
			if got := site.Forms()[0].Get("date"); got != typed {
				t.Fatalf("the agent typed %q (wanted %q)", got, typed)
			}
			if steps := saveWorkflow(t, panel, "Reis"); len(steps) != 3 {
				t.Fatalf("the workflow's steps: %q", steps)
			}
			m.Close()
			// The next 10 January: a month named otherwise in English.
			start := time.Now()
			jan := time.Date(start.Year()+1, 1, 10, 0, 0, 0, 0, time.UTC)
			n := int(jan.Sub(time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)).Hours()/24 + 0.5)
			if last := replayFromView(t, panel, map[string]string{"date": "{{today+" + strconv.Itoa(n) + "}}"}, false); !strings.Contains(last, "ran all 3 steps") {
				t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
			}
			// (Counted from the day the replay began, or from the next if it ended past midnight.)
			if f := site.Forms(); len(f) != 2 || f[1].Get("date") != words(panel, jan) && f[1].Get("date") != words(panel, jan.AddDate(0, 0, 1)) {
				t.Errorf("the forms: %v (wanted %q)", f, words(panel, jan))
			}
		})
	}
}

// A date and time typed into a native date and time field ("November 24, 2026 at 9:05 am")
// is a date of the workflow that keeps its time: a replay for {{today+1}} sets tomorrow at
// 9:05, as the recorded value was written. A month field given {{today+1}} gets tomorrow's
// month.
func TestAReplayKeepsTheTimeOfADateAndTime(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `"Meeting"`), "text": "November 24, 2026 at 9:05 am"}),
				call("type", obj{"ref": refIn(t, c, `"Month"`), "text": "November 2026"})}
		},
	}}
	panel, tab, m := p.runOn(t, site, "pickers-us.html", "set the meeting for November 24, 2026 at 9:05 am, in the report of November 2026")
	Eventually(t, 20*time.Second, func() bool {
		return inTab[string](t, panel, tab, `document.getElementById("when").value`) == "2026-11-24T09:05"
	}, "the agent did not set the meeting")
	steps := saveWorkflow(t, panel, "Meet")
	form := JS[string](t, panel, `skiffTest.call("workflow.list").then(l => l[0].params.map(p => p.name + "=" + p.default).join(" "))`)
	if len(steps) != 3 || form != "meeting=November 24, 2026 at 9:05 am month=November 2026" {
		t.Fatalf("the workflow's steps: %q, values: %q", steps, form)
	}
	m.Close()
	if last := replayFromView(t, panel, map[string]string{"meeting": "{{today+1}}", "month": "{{today+1}}"}, false); !strings.Contains(last, "ran all 3 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	// (Counted from the day the replay began, or from the next if it ended past midnight.)
	got := inTab[string](t, panel, tab, `document.getElementById("when").value`)
	if day := time.Now().AddDate(0, 0, 1); got != day.Format("2006-01-02")+"T09:05" && got != day.AddDate(0, 0, 1).Format("2006-01-02")+"T09:05" {
		t.Errorf("the replay set the meeting to %q (wanted tomorrow at 09:05)", got)
	}
	if got, day := inTab[string](t, panel, tab, `document.getElementById("month").value`), time.Now().AddDate(0, 0, 1); got != day.Format("2006-01") && got != day.AddDate(0, 0, 1).Format("2006-01") {
		t.Errorf("the replay set the month to %q (wanted tomorrow's)", got)
	}
}

// A stay booked on two calendars, its leave day three days after its visit day, keeps its
// length: the run form writes the leave day as counted from the visit day ({{date+3}}), and a
// replay with no model for a visit 40 days on leaves 43 days on, turning both calendars.
func TestAReplayKeepsTheStaysLength(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `textbox "Visit date"`),
		calls(call("snapshot", nil)),
		clickOn(t, `link "10"`),
		clickOn(t, `textbox "Leave date"`),
		calls(call("snapshot", nil)),
		clickOn(t, `link "13"`),
		clickOn(t, `button "Book"`),
	}}
	panel, _, m := p.runOn(t, site, "day-picker.html", "book a visit from the 10th to the 13th")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
	month := time.Now()
	if f := site.Forms()[0]; f.Get("visit") != month.Format("2006-01-")+"10" || f.Get("leave") != month.Format("2006-01-")+"13" {
		t.Fatalf("the agent booked %v", f)
	}
	if steps := saveWorkflow(t, panel, "Book a stay"); len(steps) != 6 || steps[4] != "click link “13” (the day of {{date_2}} on its calendar)" {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	m.Close()
	openRunForm(t, panel)
	if got := JS[string](t, panel, `document.querySelector(".wf-form").date_2.value`); got != "{{date+3}}" {
		t.Errorf("the run form's leave day: %q", got)
	}
	start := time.Now()
	if last := replayFromView(t, panel, map[string]string{"date": "{{today+40}}"}, false); !strings.Contains(last, "ran all 6 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	// (Counted from the day the replay began, or from the next if it ended past midnight.)
	f := site.Forms()
	if len(f) != 2 {
		t.Fatalf("the forms: %v", f)
	}
	booked := func(d time.Time) bool {
		return f[1].Get("visit") == d.AddDate(0, 0, 40).Format("2006-01-02") && f[1].Get("leave") == d.AddDate(0, 0, 43).Format("2006-01-02")
	}
	if !booked(start) && !booked(start.AddDate(0, 0, 1)) {
		t.Errorf("the replay booked %v (wanted %s to %s)", f[1], start.AddDate(0, 0, 40).Format("2006-01-02"), start.AddDate(0, 0, 43).Format("2006-01-02"))
	}

	// The user makes the leave day a date of its own in the edit form: a run then offers the
	// recorded day, even in the run form left open before the edit (made from version 1).
	openRunForm(t, panel)
	Click(t, panel, `document.querySelector(".workflow .wf-edit")`)
	follows := `document.querySelector('.wf-edit-param[data-param=date_2] .wf-follows')`
	WaitJS(t, panel, `!!`+follows)
	if got := JS[string](t, panel, follows+`.parentElement.textContent`); got != "Unless a run changes it, counts from date: {{date+3}}" {
		t.Errorf("the edit form says: %q", got)
	}
	Click(t, panel, follows)
	Click(t, panel, `document.querySelector(".wf-edit-save")`)
	WaitJS(t, panel, `document.getElementById("workflows-status").textContent.includes("version 2")`)
	openRunForm(t, panel)
	if got := JS[string](t, panel, `document.querySelector(".wf-form").date_2.value`); got != month.Format("January ")+"13"+month.Format(", 2006") {
		t.Errorf("the run form's leave day after the edit: %q", got)
	}
}

// A flight searched with its dates chosen in parts (a day from one list, a month and its year
// from another): the workflow keeps each date as one value, and its replay with no model for a
// departure 40 days on or a little more chooses that day's parts, the return three days after
// it, as the recorded trip was (its day before the 10th, which the list writes "04").
func TestAReplayChoosesTheDatesPartsFromOneDate(t *testing.T) {
	site := testkit.NewSite(t)
	month := time.Now()
	choose := func(what, value string) step {
		return func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("select_option", obj{"ref": refIn(t, c, what), "values": []string{value}})}
		}
	}
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		choose(`combobox "Departure day"`, "10"),
		choose(`combobox "Departure month"`, month.Format("January 2006")),
		choose(`combobox "Return day"`, "13"),
		choose(`combobox "Return month"`, month.Format("January 2006")),
		clickOn(t, `button "Search flights"`),
	}}
	panel, _, m := p.runOn(t, site, "flight-parts.html", "find a flight out on the 10th, back on the 13th")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
	steps := saveWorkflow(t, panel, "Find a flight")
	if len(steps) != 6 || steps[1] != "choose the day of {{departure}} in combobox “Departure day”" || steps[2] != "choose the month and year of {{departure}} in combobox “Departure month”" {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	m.Close()
	openRunForm(t, panel)
	if got := JS[string](t, panel, `[...document.querySelectorAll(".wf-form input:not([type=checkbox])")].map(i => i.name + "=" + i.value).join(" ")`); got != "departure="+month.Format("2006-01-")+"10 return={{departure+3}}" {
		t.Errorf("the run form: %q", got)
	}
	// A return before the 10th: the replay's "4" chooses the list's "04".
	start, n := time.Now(), 40
	for start.AddDate(0, 0, n+3).Day() >= 10 {
		n++
	}
	if last := replayFromView(t, panel, map[string]string{"departure": "{{today+" + strconv.Itoa(n) + "}}"}, false); !strings.Contains(last, "ran all 6 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	f := site.Forms()
	if len(f) != 2 {
		t.Fatalf("the forms: %v", f)
	}
	// (Counted from the day the replay began, or from the next if it ended past midnight.)
	chose := func(d time.Time) bool {
		out, back := d.AddDate(0, 0, n), d.AddDate(0, 0, n+3)
		return f[1].Get("departure_day") == out.Format("02") && f[1].Get("departure_month") == out.Format("2006-01") &&
			f[1].Get("return_day") == back.Format("02") && f[1].Get("return_month") == back.Format("2006-01")
	}
	if !chose(start) && !chose(start.AddDate(0, 0, 1)) {
		t.Errorf("the replay chose %v (wanted %s to %s)", f[1], start.AddDate(0, 0, n).Format("2006-01-02"), start.AddDate(0, 0, n+3).Format("2006-01-02"))
	}
}

// An outside agent that did a task through skiffd saves what it did as a workflow once the
// user allows it (the panel asks, naming it): the search it went to with the user's words is a
// value of the workflow, the result it opened follows it, and the user replays it from the
// panel with another value and no model. What it did is saved once: a second save has nothing.
// A worker Chrome stops and starts again mid-task forgets nothing of what it did or read.
func TestMCPClientSavesWhatItDidAsAWorkflow(t *testing.T) {
	site := testkit.NewSite(t)
	panel, cs := clientOn(t, site.Page("restaurants.html?q=Luigi"), "allow_once")
	snap := text(callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, "allow_always"))
	// The worker restarts after the client read the page: the next worker knows where it went
	// and what it read (the heading above the link it clicks names the link's place).
	browser.RestartWorker(t, panel)
	if r := callTool(t, panel, cs, "e2e-agent", "click", map[string]any{"ref": refOf(t, snap, `link "Luigi's Trattoria"`)}, "allow_once"); r.IsError {
		t.Fatalf("click: %s", text(r))
	}
	// The ask is on no site, and covers this save only: no standing answer to it.
	r := callToolSeeing(t, panel, cs, "e2e-agent", "workflow_save", map[string]any{"name": "Find a table", "task": "Open the trattoria among the restaurants called Luigi"}, "allow_once", func(ask string) {
		if got := JS[string](t, panel, ask+`.innerText`); !strings.Contains(got, "Allow e2e-agent to save the 2 steps it took as the workflow “Find a table”?") ||
			!strings.Contains(got, "changes what Skiff keeps for you") || strings.Contains(got, "agent://") || strings.Contains(got, "Always") || strings.Contains(got, "Never") {
			t.Errorf("the ask: %q", got)
		}
	})
	want := "Saved as the workflow “Find a table”"
	if r.IsError || !strings.Contains(text(r), want) || !strings.Contains(text(r), "click link “Luigi's Trattoria” (or the first named with {{search}})") {
		t.Fatalf("workflow_save: %s", text(r))
	}
	var list []workflow.Workflow
	if err := json.Unmarshal([]byte(JS[string](t, panel, `skiffTest.call("workflow.list").then(l => JSON.stringify(l))`)), &list); err != nil || len(list) != 1 {
		t.Fatalf("the workflows: %v %v", list, err)
	}
	if got := list[0]; len(got.Steps) != 2 || !strings.HasSuffix(got.Steps[0].What, "restaurants.html?q={{search}}") || len(got.Params) != 1 || got.Params[0].Default != "Luigi" ||
		len(got.Steps[1].Targets) != 1 || got.Steps[1].Targets[0].Near != "Results" {
		t.Errorf("the workflow saved: %+v", got)
	}
	if r := callTool(t, panel, cs, "e2e-agent", "workflow_save", map[string]any{"name": "Again"}, ""); !r.IsError || !strings.Contains(text(r), "it only read pages") {
		t.Errorf("a second save: %s", text(r))
	}

	if last := replayFromView(t, panel, map[string]string{"search": "Chez Ana"}, false); !strings.Contains(last, "ran all 2 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	WaitJS(t, panel, `chrome.tabs.query({}).then(ts => ts.some(t => t.url.includes("at=Chez%20Ana%20Bistro")))`)
}

// An outside agent reads a page's links, Chrome stops and starts the worker, and the agent
// goes to a result's address made of an id it read there: the address's name, kept with what
// the agent read, makes the saved step follow the search's value, and a replay for another
// value goes to that value's result.
func TestAClientsLinksOutliveTheWorker(t *testing.T) {
	site := testkit.NewSite(t)
	panel, cs := clientOn(t, site.Page("restaurants.html?q=Luigi&ids=1"), "allow_once")
	if r := callTool(t, panel, cs, "e2e-agent", "links", map[string]any{"filter": "booking"}, "allow_always"); r.IsError || !strings.Contains(text(r), "booking.html?id=2") {
		t.Fatalf("links: %s", text(r))
	}
	browser.RestartWorker(t, panel)
	if r := callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": site.Page("booking.html?id=2")}, "allow_once"); r.IsError {
		t.Fatalf("navigate: %s", text(r))
	}
	r := callTool(t, panel, cs, "e2e-agent", "workflow_save", map[string]any{"name": "Find a table", "task": "Find the restaurants called Luigi and open the trattoria"}, "allow_once")
	if want := "open " + site.Page("booking.html?id=2") + " (or the page's link of its kind for {{search}})"; r.IsError || !strings.Contains(text(r), want) {
		t.Fatalf("workflow_save: %s (wanted %q)", text(r), want)
	}
	if last := replayFromView(t, panel, map[string]string{"search": "Chez Ana"}, false); !strings.Contains(last, "ran all 2 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	WaitJS(t, panel, `chrome.tabs.query({}).then(ts => ts.some(t => t.url.endsWith("booking.html?id=4")))`)
}

// A cookie banner the agent accepted is not there at the replay, in a browser that remembers
// the answer: the replay goes on without that step, says so, and sends the form. A box an act of
// the run opens is not skipped so (TestReplayStopsWhereThePageRefusesIt's button is not in one).
// So for a banner in Turkish, which speaks of "çerezler", and one in Croatian ("kolačići").
func TestAReplayGoesOnWhereTheCookieBannerIsGone(t *testing.T) {
	for _, c := range []struct{ lang, button string }{{"en", "OK, understood"}, {"tr", "Devam et"}, {"hr", "Nastavi"}} {
		t.Run(c.lang, func(t *testing.T) { goesOnWhereTheCookieBannerIsGone(t, c.lang, c.button) })
	}
}

func goesOnWhereTheCookieBannerIsGone(t *testing.T, lang, button string) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "`+button+`"`),
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Email"`), "text": "ana@example.com"})}
		},
		clickOn(t, `button "Subscribe"`),
	}}
	panel, tab, m := p.runOn(t, site, "banner-news.html?lang="+lang, "subscribe me")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
	steps := saveWorkflow(t, panel, "Subscribe")
	if len(steps) != 4 || steps[1] != "click button “"+button+"”, if the page shows it" {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	m.Close()
	if !inTab[bool](t, panel, tab, `localStorage.getItem("cookies") === "yes"`) {
		t.Fatal("the page did not keep the answer")
	}
	last := replayFromView(t, panel, map[string]string{"email": "bo@example.com"}, false)
	if !strings.HasPrefix(last, "The workflow “Subscribe” ran to its end (4 steps, without 2: the page did not show what they close).") {
		t.Errorf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	said := JS[string](t, panel, `[...document.querySelectorAll('#messages .msg[data-role="assistant"]')].map(m => m.textContent).join("|")`)
	if !strings.Contains(said, "Went on without step 2 (click button “"+button+"”, if the page shows it), which only closes what a page shows as it loads: the page has no button “"+button+"”") {
		t.Errorf("the replay's chat: %q", said)
	}
	if f := site.Forms(); len(f) != 2 || f[1].Get("email") != "bo@example.com" {
		t.Errorf("the forms: %v", f)
	}
}

// Run now on a schedule's row runs it at once as its time would (its own tab group, its asks
// answered in the panel, named as the schedule), paused or not, and leaves its next time as it
// was: a user tries a schedule out without waiting for 8 o'clock. A value counted in days from
// the run's ({{today+1}}) is the date of the day after it.
func TestRunNowTriesAScheduleOut(t *testing.T) {
	site, panel, id := schedulable(t)
	// Its party is counted in days from the run's: a value a date field would take.
	next := JS[float64](t, panel, `skiffTest.call("schedule.save", {name: "Reserve", workflow: `+jsString(id)+`, values: {restaurant: "Tried", people: "{{today+1}}"}, paused: true, repeat: {every: "daily", time: "08:00"}}).then(s => s.nextAt)`)
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	WaitJS(t, panel, `!!document.querySelector('#schedule-list .schedule[data-state="paused"] .sc-run:not([disabled])')`)
	Click(t, panel, `document.querySelector("#schedule-list .schedule .sc-run")`)
	answerOutside(t, panel, "⏰ Reserve", time.Minute, func() bool { return len(site.Forms()) == 1 })
	tomorrow := JS[string](t, panel, `(d => (d.setDate(d.getDate() + 1), d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0")))(new Date())`)
	if f := site.Forms()[0]; f.Get("restaurant") != "Tried" || f.Get("people") != tomorrow {
		t.Errorf("the run sent %v, not tomorrow (%s)", f, tomorrow)
	}
	WaitJS(t, panel, `(li => !!li && li.dataset.state === "paused" && li.querySelector(".sc-last").dataset.ok === "1")(document.querySelector("#schedule-list .schedule"))`)
	if got := JS[float64](t, panel, `skiffTest.call("schedule.list").then(l => l[0].nextAt)`); got != next {
		t.Errorf("its next time moved from %v to %v", next, got)
	}
	if group := groupOf(t, panel, site.URL); group != "⏰ Reserve" {
		t.Errorf("the run's tab group: %q", group)
	}
}

// A choice the agent made in a drop-down the page draws, by clicking its option as models do
// (a Radix select: a combobox button whose list is drawn at the end of the page, drawn.html),
// is a parameter named after the list, the run form offering the list's options: the replay,
// with no model, chooses the run's value, and the form saves it.
func TestAnOptionTheAgentClickedIsTheReplaysChoice(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `combobox "Plan"`),
		calls(call("snapshot", nil)),
		clickOn(t, `option "Pro"`),
		clickOn(t, `button "Save"`),
	}}
	panel, tab, m := p.runOn(t, site, "drawn.html", "choose the Pro plan")
	saved := func(plan string) bool {
		return strings.Contains(inTab[string](t, panel, tab, `document.getElementById("out").textContent`), `"plan":"`+plan+`"`)
	}
	Eventually(t, 20*time.Second, func() bool { return saved("Pro") }, "the agent's run saved no Pro plan")
	steps := saveWorkflow(t, panel, "Choose a plan")
	if len(steps) != 4 || !strings.Contains(steps[2], "{{plan}}") {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	openRunForm(t, panel)
	if got := JS[string](t, panel, `[...document.querySelector(".wf-form input[name=plan]").list.options].map(o => o.value).join(",")`); got != "Free,Pro,Team" {
		t.Errorf("the run form offers %q for the plan", got)
	}
	m.Close()
	if last := replayFromView(t, panel, map[string]string{"plan": "Team"}, false); !strings.Contains(last, "ran all 4 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if !saved("Team") {
		t.Errorf("the replay saved: %s", inTab[string](t, panel, tab, `document.getElementById("out").textContent`))
	}
}

// The agent finds the button it clicks with find_text, not in a snapshot: the third of four
// "Archive" under one heading, told apart only by its place. The saved step keeps that place,
// read from the page as the click began, and the replay archives the same order, not the
// first. So too when the last snapshot the agent read was of the page before, whose refs are
// others named alike.
func TestAButtonFoundWithFindTextKeepsItsPlace(t *testing.T) {
	t.Run("no snapshot", func(t *testing.T) { foundWithFindText(t, false) })
	t.Run("a snapshot of the page before", func(t *testing.T) { foundWithFindText(t, true) })
}

func foundWithFindText(t *testing.T, readBefore bool) {
	site := testkit.NewSite(t)
	start, p := "orders.html", &plan{}
	if readBefore {
		start = "long-form.html"
		p.steps = []step{calls(call("snapshot", nil)), calls(call("navigate", obj{"url": site.Page("orders.html")}))}
	}
	p.steps = append(p.steps,
		calls(call("find_text", obj{"text": "Archive"})),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refMatching(t, c, regexp.MustCompile(`\(act on it with ref (e\d+)\): "Order 1043`), "order 1043's button")})}
		},
	)
	panel, tab, m := p.runOn(t, site, start, "archive order 1043")
	archived := func() string {
		return inTab[string](t, panel, tab, `document.getElementById("log")?.textContent ?? ""`)
	}
	Eventually(t, 20*time.Second, func() bool { return archived() != "" }, "the agent's run archived nothing")
	if got := archived(); got != "archived Order 1043;" {
		t.Fatalf("the agent archived %q", got)
	}
	steps := saveWorkflow(t, panel, "Archive an order")
	m.Close()
	if last := replayFromView(t, panel, map[string]string{}, false); !strings.Contains(last, fmt.Sprintf("ran all %d steps", len(steps))) {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if got := archived(); got != "archived Order 1043;" {
		t.Errorf("the replay archived %q (steps: %q)", got, steps)
	}
}

// A button found with find_text that has no namesake is placed without a reading of the whole
// page: the page says it has none, and which heading it is under.
func TestAButtonWithNoNamesakeFoundWithFindTextKeepsItsHeading(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("find_text", obj{"text": "Download 2025"})),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refMatching(t, c, regexp.MustCompile(`\(act on it with ref (e\d+)\)`), "the download button")})}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "orders.html", "download the orders of 2025")
	Eventually(t, 20*time.Second, func() bool {
		return inTab[string](t, panel, tab, `document.getElementById("log").textContent`) == "downloaded 2025;"
	}, "the agent's run downloaded nothing")
	saveWorkflow(t, panel, "Download")
	var list []workflow.Workflow
	if err := json.Unmarshal([]byte(JS[string](t, panel, `skiffTest.call("workflow.list").then(l => JSON.stringify(l))`)), &list); err != nil || len(list) != 1 {
		t.Fatalf("the workflows: %v %v", list, err)
	}
	if s := list[0].Steps; len(s) != 2 || len(s[1].Targets) != 1 || s[1].Targets[0].Near != "Past years" || s[1].Targets[0].Nth != 0 {
		t.Errorf("the workflow saved: %+v", s)
	}
}

// The same on selects widget libraries hide and draw again, unmodified (vendor-selects.html):
// Choices.js wraps the select in a box that opens its list of options (named by the select's
// label, which names the hidden select), Tom Select a field whose list opens under it, where
// "selected" marks the option the mouse is on. The agent's click on an option is not said to
// have changed nothing, and the replay chooses the run's value.
func TestAChoiceOnWidgetLibrariesSelectsIsTheReplays(t *testing.T) {
	for _, kind := range []string{"choices", "tom"} {
		t.Run(kind, func(t *testing.T) {
			site := testkit.NewSite(t)
			p := &plan{steps: []step{
				calls(call("snapshot", nil)),
				clickOn(t, `combobox "Plan"`),
				calls(call("snapshot", nil)),
				clickOn(t, `option "Team"`),
				clickOn(t, `button "Save"`),
			}}
			panel, _, m := p.runOn(t, site, "vendor-selects.html?kind="+kind, "choose the Team plan")
			Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")
			if got := site.Forms()[0].Get("plan"); got != "Team" {
				t.Fatalf("the agent chose %q: %s", got, p.all())
			}
			if c := p.results("click"); len(c) != 3 || strings.Contains(c[1].Text, "did not change") {
				t.Errorf("the click on the option: %s", p.all())
			}
			steps := saveWorkflow(t, panel, "Choose a plan")
			if len(steps) != 4 || !strings.Contains(steps[2], "{{plan}}") {
				t.Fatalf("the workflow's steps: %q", steps)
			}
			m.Close()
			if last := replayFromView(t, panel, map[string]string{"plan": "Enterprise"}, false); !strings.Contains(last, "ran all 4 steps") {
				t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
			}
			if f := site.Forms(); len(f) != 2 || f[1].Get("plan") != "Enterprise" {
				t.Errorf("the forms: %v", f)
			}
		})
	}
}

// A form Ant Design draws (vendor-antd.html, unmodified antd 6.6.8 on React 18): its Select is
// a combobox whose list of options is a virtual list of divs beside a listbox of no size that
// assistive tech reads (the divs are its options, which select_option clicks; its field, which
// antd marks "new-password" only to keep autofill away, is not a password), its DatePicker a
// field typed into, whose calendar covers the form until Tab leaves the field (the click it
// covers leaves it so first, and says so: Escape would undo the day), or a calendar whose days are cells titled with their
// dates, its Switch a button (set again by the replay as a box is), and a list named "Team" is
// not taken for a result of the plan "Team" chosen before it; its Cascader opens a menu a
// level, whose path select_option chooses and the workflow keeps as one value. The agent's
// run, with select_option and typing, or with clicks on the list and the calendar, sends the
// form, and its workflow sends the run's plan, region and day with no model, turning the
// calendar to a day of the next month.
func TestAnAntDesignFormIsDoneAndReplayed(t *testing.T) {
	// (The calendar opens on this month: its 15th is chosen, and the next month's replayed.)
	now := time.Now()
	mid := time.Date(now.Year(), now.Month(), 15, 12, 0, 0, 0, time.Local)
	first, then := mid.Format("2006-01-02"), mid.AddDate(0, 1, 0).Format("2006-01-02")
	for _, way := range []string{"select_option", "click"} {
		t.Run(way, func(t *testing.T) {
			site := testkit.NewSite(t)
			choose := func(c *testkit.Conversation) []testkit.Call {
				return []testkit.Call{call("select_option", obj{"ref": refIn(t, c, `combobox "Plan"`), "values": []string{"Team"}}),
					call("select_option", obj{"ref": refIn(t, c, `combobox "Team"`), "values": []string{"Mobile"}}),
					call("select_option", obj{"ref": refIn(t, c, `combobox "Region"`), "values": []string{"Europe", "France", "Paris"}}),
					// (One that searches lists whole paths: "Europe" finds every one below it.)
					call("select_option", obj{"ref": refIn(t, c, `combobox "Ship from"`), "values": []string{"Europe", "Portugal", "Lisbon"}}),
					call("type", obj{"ref": refIn(t, c, `textbox "Start date"`), "text": first})}
			}
			if way == "click" {
				choose = func(c *testkit.Conversation) []testkit.Call {
					return []testkit.Call{call("click", obj{"ref": refIn(t, c, `combobox "Plan"`)}), call("snapshot", nil)}
				}
			}
			p := &plan{steps: []step{
				calls(call("snapshot", nil)),
				choose,
			}}
			if way == "click" {
				p.steps = append(p.steps, func(c *testkit.Conversation) []testkit.Call {
					return []testkit.Call{call("click", obj{"ref": refIn(t, c, `option "Team"`)}), call("click", obj{"ref": refIn(t, c, `textbox "Start date"`)}), call("snapshot", nil)}
				}, func(c *testkit.Conversation) []testkit.Call {
					return []testkit.Call{call("click", obj{"ref": refMatching(t, c, regexp.MustCompile(`cell \[(e\d+)\]: `+first+` `), "the 15th")})}
				})
			}
			if way == "select_option" {
				// (The calendar the typed field keeps open covers the form: the click leaves
				// the field with Tab first, which keeps the day.)
				p.steps = append(p.steps, clickOn(t, `switch "Auto-renew"`))
			}
			p.steps = append(p.steps, clickOn(t, `radio "Yearly"`), clickOn(t, `button "Subscribe"`))
			page := "vendor-antd.html?more=1" // (with a TreeSelect, whose tree is named by no id it has)
			if way == "click" {
				page = "vendor-antd.html"
			}
			panel, _, m := p.runOn(t, site, page, "subscribe to the Team plan from the 15th, billed yearly")
			Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form: "+p.all())
			if f := site.Forms()[0]; f.Get("plan") != "Team" || f.Get("start") != first || f.Get("billing") != "yearly" {
				t.Fatalf("the agent's form: %v: %s", f, p.all())
			}
			if s := p.results("snapshot"); len(s) == 0 || !strings.Contains(s[0].Text, `combobox "Plan" [e2] collapsed required readonly`+"\n") {
				t.Errorf("the snapshot: %s", p.all())
			}
			if r := p.results("click"); way == "select_option" && (len(r) != 3 || r[0].Error ||
				!strings.Contains(r[0].Text, `It first left textbox “Start date” with Tab, as a person does: it kept a list or a picker open over switch “Auto-renew”.`)) {
				t.Errorf("the click under the calendar: %s", p.all())
			}
			if r := p.results("select_option"); way == "select_option" && (len(r) != 4 || !strings.Contains(r[0].Text, `Chose "Team" in combobox “Plan”. It shows "Team".`) ||
				site.Forms()[0].Get("team") != "mobile" || site.Forms()[0].Get("region") != "europe,france,paris" ||
				!strings.Contains(r[3].Text, `Chose "Europe / Portugal / Lisbon" in combobox “Ship from”.`) || site.Forms()[0].Get("from") != "europe,portugal,lisbon") {
				t.Errorf("select_option: %s", p.all())
			}
			steps := saveWorkflow(t, panel, "Subscribe")
			if !slices.ContainsFunc(steps, func(s string) bool { return strings.Contains(s, "{{plan}}") }) ||
				slices.ContainsFunc(steps, func(s string) bool {
					return strings.Contains(s, "combobox “Team” (or the first named with {{plan}})")
				}) {
				t.Fatalf("the workflow's steps: %q", steps)
			}
			m.Close()
			// (The searching cascader gets its path as one value, which it finds nowhere whole:
			// the narrowest part is searched for.)
			values := map[string]string{"plan": "Enterprise", "team": "Web", "start_date": then, "region": "Asia / Japan / Tokyo", "ship_from": "Europe / France / Lyon"}
			if way == "click" {
				values = map[string]string{"plan": "Enterprise", "date": then}
			}
			if last := replayFromView(t, panel, values, false); !strings.Contains(last, "ran all") {
				t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
			}
			if f := site.Forms(); len(f) != 2 || f[1].Get("plan") != "Enterprise" || f[1].Get("start") != then || f[1].Get("billing") != "yearly" {
				t.Errorf("the forms: %v; steps %q", f, steps)
			} else if way == "select_option" && (f[1].Get("team") != "web" || f[1].Get("renew") != "true" || f[1].Get("region") != "asia,japan,tokyo" || f[1].Get("from") != "europe,france,lyon") {
				t.Errorf("the replay's team: %v", f[1])
			}
		})
	}
}

// A form Element Plus draws (vendor-element.html, unmodified element-plus 2.14.8 on Vue 3.5):
// its Select's field lies under the placeholder it draws over it, in the box whose click opens
// its list (the click there is the field's, not one covered), and its Switch is a div that
// toggles on a click around a hidden input, which the label of the form's row does not toggle
// (the div is the switch). Its Cascader is a read-only field that opens a menu a level (which
// the click that opens it says, with how select_option chooses in it): select_option given a
// name of the second level says to give the path, and given the path
// chooses it, which the workflow keeps as one value. The agent's run sends the form, and its
// workflow sends the run's course, people, level and venue with no model.
func TestAnElementPlusFormIsDoneAndReplayed(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("select_option", obj{"ref": refIn(t, c, `combobox "Course"`), "values": []string{"Pastry"}}),
				call("type", obj{"ref": refIn(t, c, `combobox "First day"`), "text": "2026-12-10"}), call("press_key", obj{"key": "Tab"}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Start time"`), "values": []string{"09:30"}}),
				call("type", obj{"ref": refIn(t, c, `spinbutton "People"`), "text": "4"}),
				call("click", obj{"ref": refIn(t, c, `radio "Advanced"`)}),
				call("click", obj{"ref": refIn(t, c, `switch "Reminders"`)}),
				call("click", obj{"ref": refIn(t, c, `checkbox "I accept the terms"`)}),
				call("click", obj{"ref": refIn(t, c, `textbox "Venue"`)}),
				call("select_option", obj{"ref": refIn(t, c, `textbox "Venue"`), "values": []string{"Le Marais"}}),
				call("select_option", obj{"ref": refIn(t, c, `textbox "Venue"`), "values": []string{"Paris", "Le Marais"}}),
				// (One that searches is clicked to see that it opens, its menus chosen from;
				// closed, it says it expands, and is typed into: it finds one path that ends
				// at the value, drawn in Element Plus's box of pop-ups.)
				call("select_option", obj{"ref": refIn(t, c, `textbox "Meeting point"`), "values": []string{"Lyon / Croix-Rousse"}}),
				call("select_option", obj{"ref": refIn(t, c, `textbox "Meeting point"`), "values": []string{"Bastille"}})}
		},
		clickOn(t, `button "Book"`),
	}}
	panel, _, m := p.runOn(t, site, "vendor-element.html", "book a pastry course for 4 advanced people on December 10 at 9:30, with reminders")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form: "+p.all())
	if f := site.Forms()[0]; f.Get("course") != "Pastry" || f.Get("day") != "2026-12-10" || f.Get("time") != "09:30" || f.Get("people") != "4" ||
		f.Get("level") != "advanced" || f.Get("remind") != "true" || f.Get("terms") != "true" || f.Get("venue") != "paris/marais" || f.Get("meet") != "paris/bastille" {
		t.Fatalf("the agent's form: %v: %s", f, p.all())
	}
	if r := p.results("click"); len(r) < 4 || !strings.Contains(r[1].Text, `Clicked switch “Reminders”`) || !strings.Contains(r[1].Text, "It is now on.") ||
		!strings.Contains(r[3].Text, `It opens a menu a level (a cascader): select_option on it chooses a path, one value a level, such as ["Paris", …].`) {
		t.Errorf("the switch, and the Cascader clicked open: %s", p.all())
	}
	if r := p.results("select_option"); len(r) != 6 || !r[2].Error || !strings.Contains(r[5].Text, `Chose "Paris / Bastille" in textbox “Meeting point”.`) ||
		!strings.Contains(r[2].Text, `Textbox “Venue” has no option "Le Marais"; it offers "Paris", "Lyon"; it opens one level at a time: give the path from the first level, one value a level (such as ["Paris", …])`) ||
		!strings.Contains(r[3].Text, `Chose "Paris" › "Le Marais" in textbox “Venue”. It shows "Paris / Le Marais".`) {
		t.Errorf("select_option on the Cascader, a read-only field that opens a menu a level: %s", p.all())
	}
	// (The meeting point chosen twice is one step, its last value: the replay sets it once. The
	// Venue clicked open before the choice is no step: the choice opens it.)
	if steps := saveWorkflow(t, panel, "Book a course"); !slices.Contains(steps, "choose {{venue}} in textbox “Venue”") || slices.Contains(steps, "click textbox “Venue”") ||
		!slices.Contains(steps, "choose {{meeting_point}} in textbox “Meeting point”") || slices.Contains(steps, "choose {{meeting_point_2}} in textbox “Meeting point”") {
		t.Errorf("the steps: %q", steps)
	}
	m.Close()
	if last := replayFromView(t, panel, map[string]string{"course": "Pottery", "people": "2", "level": "Beginner", "venue": "Lyon / Croix-Rousse",
		"meeting_point": "Croix-Rousse"}, false); !strings.Contains(last, "ran all") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if f := site.Forms(); len(f) != 2 || f[1].Get("course") != "Pottery" || f[1].Get("people") != "2" || f[1].Get("level") != "beginner" || f[1].Get("remind") != "true" ||
		f[1].Get("venue") != "lyon/croix-rousse" || f[1].Get("meet") != "lyon/croix-rousse" {
		t.Errorf("the forms: %v", f)
	}
}

// A form MUI draws (vendor-mui.html, unmodified @mui/material 5.18.0 on React 18): its Select
// is a div with the combobox role whose listbox opens in a pop-over over the page (the rest of
// the page hidden from assistive tech meanwhile, which its closing does not reveal), its
// Autocomplete a field whose suggestions open under it. Clicked
// open and chosen in, as models do, each is a choice of the workflow named after its list, with
// what the list offered; the replay chooses the run's values with no model.
func TestAnMUIFormIsDoneAndReplayed(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `combobox "Delivery"`),
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `option "Express"`)}), call("click", obj{"ref": refIn(t, c, `combobox "Country"`)}), call("snapshot", nil)}
		},
		clickOn(t, `option "Portugal"`),
		clickOn(t, `button "Ship"`),
	}}
	panel, _, m := p.runOn(t, site, "vendor-mui.html", "ship it express to Portugal")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form: "+p.all())
	if f := site.Forms()[0]; f.Get("speed") != "Express" || f.Get("country") != "Portugal" {
		t.Fatalf("the agent's form: %v: %s", f, p.all())
	}
	// (The page behind the list, hidden from assistive tech only while it was open, was seen
	// all along: closing the list reveals none of it.)
	if r := p.results("click"); len(r) != 5 || !strings.Contains(r[1].Text, `Clicked option “Express”`) || strings.Contains(r[1].Text, "revealed") {
		t.Errorf("the clicks: %s", p.all())
	}
	steps := saveWorkflow(t, panel, "Ship")
	if len(steps) != 6 || !strings.Contains(steps[2], "{{delivery}}") || !strings.Contains(steps[4], "{{country}}") {
		t.Fatalf("the workflow's steps: %q", steps)
	}
	if got := JS[string](t, panel, `skiffTest.call("workflow.list").then(l => JSON.stringify(l[0].params.map(p => p.choices)))`); got != `[["Standard","Express","Overnight"],["France","Germany","Portugal","Spain","United Kingdom","United States"]]` {
		t.Errorf("the choices: %s", got)
	}
	m.Close()
	if last := replayFromView(t, panel, map[string]string{"delivery": "Overnight", "country": "Spain"}, false); !strings.Contains(last, "ran all 6 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
	}
	if f := site.Forms(); len(f) != 2 || f[1].Get("speed") != "Overnight" || f[1].Get("country") != "Spain" {
		t.Errorf("the forms: %v", f)
	}
}
