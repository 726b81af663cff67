//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/testkit"
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
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Book a table"`)})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, url)
	runAgent(t, panel, "Book a table at Luigi for 4")
	Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the agent's run sent no form")

	// Saved from the chat, under a name.
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	JS[bool](t, panel, `(document.getElementById("workflow-name").value = "Book a table", true)`)
	Do(t, panel, chromedp.Click(`#workflow-save button[type="submit"]`))
	WaitJS(t, panel, `document.getElementById("workflows-status").textContent.includes("Book a table") && !!document.querySelector(".workflow .wf-steps li")`)
	steps := JS[[]string](t, panel, `[...document.querySelectorAll(".workflow .wf-steps li")].map(li => li.textContent)`)
	if len(steps) != 3 || !strings.HasPrefix(steps[0], "open ") || !strings.Contains(steps[1], "{{restaurant}}") || steps[2] != "click button “Book a table”" {
		t.Fatalf("the workflow's steps: %q", steps)
	}

	// No model from here on.
	m.Close()
	calls := len(m.Conversations())
	replay := func(restaurant, people, password string) {
		t.Helper()
		Click(t, panel, `document.querySelector(".workflow .wf-run")`)
		WaitJS(t, panel, `!!document.querySelector(".wf-form input[name=restaurant]")`)
		if got := JS[string](t, panel, `[...document.querySelectorAll(".wf-form input")].map(i => i.name + "=" + i.value + ":" + i.type).join(" ")`); got != "restaurant=Luigi:text people=4:text account_password=:password" {
			t.Errorf("the run form: %s", got)
		}
		JS[bool](t, panel, `(f => (f.restaurant.value = `+jsString(restaurant)+`, f.people.value = `+jsString(people)+`, f.account_password.value = `+jsString(password)+`, true))(document.querySelector(".wf-form"))`)
		before := JS[string](t, panel, `skiffTest.state.active ? skiffTest.state.active.id : ""`)
		Click(t, panel, `document.querySelector(".wf-form .wf-start")`)
		WaitJS(t, panel, `document.body.dataset.view === "chat" && skiffTest.state.active && skiffTest.state.active.id !== `+jsString(before)+` && skiffTest.state.active.title.startsWith("▶")`)
		untilDone(t, panel, `(m => !!m && /ran all|Stopped at step/.test(m.textContent))([...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1))`)
	}
	replay("Chez Ana", "2", "RUNTIME-pw-9")
	last := JS[string](t, panel, `[...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1).textContent`)
	if !strings.Contains(last, "ran all 3 steps") {
		t.Fatalf("the replay: %q; cards: %s", last, cardsString(toolCards(t, panel)))
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
	stored := JS[string](t, panel, `Promise.all([chrome.storage.local.get(null), chrome.storage.session.get(null)]).then(a => JSON.stringify(a))`)
	if strings.Contains(stored, "RUNTIME-pw-9") {
		t.Errorf("the password given to the replay is in storage")
	}
	if !strings.Contains(stored, "Chez Ana") || !strings.Contains(stored, `\"restaurant\"`) {
		t.Errorf("the storage read is not the one Skiff writes (no replay chat, no workflow)")
	}

	// The site renamed its button: the replay stops at that step, says why, and sends nothing.
	WaitJS(t, browser.Tab(t, url), `(localStorage.setItem("variant", "b"), true)`)
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	WaitJS(t, panel, `!!document.querySelector(".workflow .wf-run")`)
	replay("Luigi", "4", "x")
	last = JS[string](t, panel, `[...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1).textContent`)
	if !strings.Contains(last, "Stopped at step 3 of 3 (click button “Book a table”): the page has no button “Book a table”; it has button “Reserve now”") {
		t.Errorf("the changed page: %q", last)
	}
	if n := len(site.Forms()); n != 2 {
		t.Errorf("%d forms sent after the page changed", n)
	}
}

// An outside agent lists the user's workflows and runs one through skiffd: the replay works in
// the client's own tab group, each step asks in the panel naming the client (the password field
// always asks), the site gets the values the client gave, and the password it gave is nowhere
// in storage. Values it gets wrong are refused before anything runs, in words that say what the
// workflow takes.
func TestMCPClientListsAndRunsAWorkflow(t *testing.T) {
	site := testkit.NewSite(t)
	d := startSkiffd(t, 0)
	panel := browser.FreshPanel(t)
	linkPanel(t, panel, d)
	raw, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "workflows", "booking.json"))
	if err != nil {
		t.Fatal(err)
	}
	data := strings.ReplaceAll(string(raw), "SITE", site.URL)
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
	var asked []string
	ask := `document.querySelector('#outside-asks .outside-ask[data-who="e2e-agent"] button[data-decision="allow_once"]')`
	for r = nil; r == nil; {
		select {
		case r = <-done:
		default:
			if JS[bool](t, panel, `!!`+ask) {
				id := JS[string](t, panel, ask+`.closest(".outside-ask").dataset.id`)
				asked = append(asked, JS[string](t, panel, ask+`.closest(".outside-ask").dataset.tool`))
				Click(t, panel, ask)
				WaitJS(t, panel, `!document.querySelector('#outside-asks .outside-ask[data-id="`+id+`"]')`)
			} else {
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
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
	group := JS[string](t, panel, `(async () => {
		const tabs = await chrome.tabs.query({url: `+jsString(site.URL+"/*")+`});
		const g = tabs.filter(t => t.groupId >= 0);
		return g.length ? (await chrome.tabGroups.get(g[0].groupId)).title : "no group: " + tabs.length + " tabs";
	})()`)
	if group != "e2e-agent" {
		t.Errorf("the replay's tab group: %q", group)
	}
	stored := JS[string](t, panel, `Promise.all([chrome.storage.local.get(null), chrome.storage.session.get(null)]).then(a => JSON.stringify(a))`)
	if strings.Contains(stored, "MCP-pw-7") {
		t.Errorf("the password the client gave is in storage")
	}
	if !strings.Contains(stored, "▶ Book a table") || !strings.Contains(stored, "Chez Ana") {
		t.Errorf("no chat of the replay in storage")
	}
}
