//go:build !js

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// Plan first, as a user turns it on: the run starts with the tools that read and propose_plan
// only (an act the model tries anyway is refused, unasked and unrun). The plan, one card, names
// one site and "fill". The worker stops while the plan waits; the card still asks, and
// approved (as the user edited it), the run goes on and fills the form there without asking;
// the password field, a click (a kind of action the plan did not name) and a page on another
// site still ask.
func TestApprovedPlanRunsItsStepsWithoutAskingThere(t *testing.T) {
	site := testkit.NewSite(t)
	url := site.Page("booking.html")
	other := site.Other + "/site/counter.html"
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Book a table"`)})} // before any plan
		},
		calls(call("propose_plan", obj{"steps": []string{"Fill in the restaurant and the number of people", "Type the account password", "Book", "Look at the other site"},
			"sites": []string{site.URL}, "kinds": []string{"fill"}})),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("fill_form", obj{"fields": []obj{
				{"ref": refIn(t, c, `textbox "Restaurant"`), "value": "Plan Bistro"},
				{"ref": refIn(t, c, `textbox "People"`), "value": "5"},
			}})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Account password"`), "text": "plan-pw-3"})}
		},
		clickOn(t, `button "Book a table"`),
		calls(call("navigate", obj{"url": other})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, url)
	NewChat(t, panel)
	agentOn(t, panel)
	Do(t, panel, chromedp.Click("#plan-toggle"))
	WaitJS(t, panel, `document.getElementById("plan-toggle").getAttribute("aria-pressed") === "true"`)
	WaitJS(t, panel, `(c => c.hidden || c.dataset.state === "attached" || c.dataset.state === "unavailable")(document.getElementById("page-chip"))`)
	Do(t, panel, chromedp.SendKeys("#input", "Book a table at Plan Bistro for 5\r"))

	// Answer every ask with its Allow (the plan's is Approve), noting which call asked.
	var asked []string
	restarted := false
	ask := `document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`
	deadline := time.Now().Add(90 * time.Second)
	for !JS[bool](t, panel, `document.getElementById("stop").hidden && !!document.querySelector('.msg[data-role="assistant"]') && [...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1).textContent.includes("Done.")`) {
		if time.Now().After(deadline) {
			t.Fatalf("the run did not end; asked %v; cards: %s", asked, cardsString(toolCards(t, panel)))
		}
		if JS[bool](t, panel, `!!`+ask) {
			tool := JS[string](t, panel, ask+`.closest(".msg.tool").dataset.tool`)
			if tool == "propose_plan" && !restarted {
				// The worker stops while the plan waits: the card asks again once the panel
				// reconnects, and the answer given then carries the run on.
				restarted = true
				browser.RestartWorker(t, panel)
				continue
			}
			if tool == "propose_plan" {
				if got := JS[string](t, panel, `(c => c.textContent + " " + c.querySelector("textarea").value)(`+ask+`.closest(".msg.tool").querySelector(".plan-card"))`); !strings.Contains(got, "Fill in the restaurant") || !strings.Contains(got, site.URL) || !strings.Contains(got, "fill in forms") {
					t.Errorf("the plan card: %q", got)
				}
				// The ask says the plan's kinds of action in words, as the card does.
				if got := JS[string](t, panel, ask+`.closest(".ask").querySelector(".ask-what").textContent`); !strings.HasSuffix(got, "(fill in forms)") {
					t.Errorf("the plan's ask: %q", got)
				}
				if n := JS[int](t, panel, ask+`.closest(".ask").querySelectorAll("button").length`); n != 2 {
					t.Errorf("the plan's ask has %d answers (approve, reject)", n)
				}
				// The user adds a step of their own before approving.
				JS[bool](t, panel, `(a => (a.value += "\nDo not book for more than 6", true))(`+ask+`.closest(".msg.tool").querySelector(".plan-edit-steps"))`)
			}
			asked = append(asked, tool)
			Click(t, panel, ask)
			continue
		}
		time.Sleep(50 * time.Millisecond)
	}
	if want := []string{"propose_plan", "type", "click", "navigate"}; !slices.Equal(asked, want) {
		t.Errorf("asked %v, want %v; cards: %s", asked, want, cardsString(toolCards(t, panel)))
	}
	cards := toolCards(t, panel)
	if len(cards) < 2 || cards[1].Tool != "click" || cards[1].Status != "denied" || !strings.Contains(cards[1].Result, "plans first") {
		t.Errorf("the click before the plan: %s", cardsString(cards))
	}
	convs := m.Conversations()
	if got := p.results("propose_plan"); len(got) != 1 || !strings.Contains(got[0].Text, "as they edited it") || !strings.Contains(got[0].Text, "- Do not book for more than 6") {
		t.Errorf("the model was told: %+v", got)
	}
	if first := convs[0]; slices.Contains(first.Tools, "click") || !slices.Contains(first.Tools, "propose_plan") || !slices.Contains(first.Tools, "snapshot") {
		t.Errorf("the tools while planning: %v", first.Tools)
	}
	if last := convs[len(convs)-1]; !slices.Contains(last.Tools, "click") || slices.Contains(last.Tools, "propose_plan") {
		t.Errorf("the tools once approved: %v", last.Tools)
	}
	forms := site.Forms()
	if len(forms) != 1 || forms[0].Get("restaurant") != "Plan Bistro" || forms[0].Get("people") != "5" || forms[0].Get("password") != "plan-pw-3" {
		t.Errorf("the site got %v", forms)
	}
}
