//go:build !js

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

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
