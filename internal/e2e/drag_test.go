//go:build !js

package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// Dragging as pages take it (drag.html): a card moved to another column by the browser's own
// drag and drop (before the card it is dropped on, which takes the side of its middle the
// pointer is on), and one dropped on a column that takes no drops; a list sorted by following
// the pointer, whose item glides to its place after the release; a file dragged by mouse events
// onto a bin that deletes it (which asks, as a Delete button does); a row moved by its grip,
// and one dragged by its text, which the page does not drag; a note that stays where it is let
// go. Each result says where the element is now, or that nothing moved.
func TestDragMovesWhatPagesLetPeopleDrag(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", obj{"interactive": true}), call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("drag", obj{"ref": textRef(t, c, "Write the spec"), "to": obj{"ref": textRef(t, c, "Ship 1.0")}}),
				// The archive's column has no ref (nothing in it can be acted on): a selector.
				call("drag", obj{"ref": textRef(t, c, "Review the budget"), "to": obj{"selector": ".board > section:last-child"}}),
				call("drag", obj{"ref": refIn(t, c, `button "Security review"`), "to": obj{"ref": refIn(t, c, `button "Billing export"`)}}),
				call("drag", obj{"ref": refIn(t, c, `clickable "report.pdf"`), "to": obj{"ref": refIn(t, c, `region "Drop here to delete"`)}}),
				call("drag", obj{"ref": refIn(t, c, `button "Move Ulysses"`), "to": obj{"ref": refIn(t, c, `button "Move Dune"`)}}),
				call("drag", obj{"selector": "#reading li:first-child span:last-child", "to": obj{"ref": refIn(t, c, `button "Move Emma"`)}}),
				call("drag", obj{"ref": refIn(t, c, `clickable "Call the bank"`), "to": obj{"ref": refIn(t, c, `region "Corkboard"`)}}),
				call("drag", obj{"ref": refIn(t, c, `button "Dark mode"`), "to": obj{"ref": refIn(t, c, `region "Favourites"`)}}),
			}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("drag.html"))
	// The user let Skiff read and act on the site (not what cannot be undone).
	for _, kind := range []string{"read:*", "act:*"} {
		JS[any](t, panel, `skiffTest.call("permission.set", {tool: "`+kind+`", origin: `+jsString(site.URL)+`, decision: "allow_always"})`)
	}
	cards, asks := runAgentAsks(t, panel, "sort the board and delete the report")
	drags := p.results("drag")
	if len(drags) != 8 {
		t.Fatalf("calls: %s", p.all())
	}
	for i, want := range []string{
		`Dragged listitem “Write the spec” [e1] onto listitem “Ship 1.0” [e4]. It is now in the part headed “Done”, item 1 of 2, before listitem “Ship 1.0”. The page says: "Moved “Write the spec” to Done"`,
		`Nothing moved: section “Archive Old task” did not take the drop (the page does not accept drops there).`,
		`Dragged button “Security review” [e5] onto button “Billing export” [e7]. It is now item 3 of 4 (it was item 1), after button “Billing export”.`,
		`Dragged div “report.pdf” [e13] onto region “Drop here to delete” [e15]. The element is no longer on the page. The page says: "Deleted report.pdf"`,
		`Dragged button “Move Ulysses” [e18] onto button “Move Dune” [e16]. It moved with listitem “Move Ulysses Ulysses”, which is now item 1 of 3 (it was item 3), before listitem “Move Dune Dune”.`,
		`Nothing moved: the page did not drag it (some pages drag only by a handle`,
		`Dragged div “Call the bank” [e11] onto region “Corkboard” [e10]. It stays where it was let go, over region “Corkboard”.`,
		// The page answered without moving it: not "nothing moved".
		`Dragged button “Dark mode” [e8] onto region “Favourites” [e9]. The element itself stayed where it was. The page says: "Added “Dark mode” to favourites"`,
	} {
		if !strings.Contains(drags[i].Text, want) || drags[i].Error {
			t.Errorf("drag %d: want %q in %s", i+1, want, drags[i].Text)
		}
	}
	// What a drag library marks as dragged has a ref; with the controls only, a nameless one
	// is named by its words.
	if snap := p.results("snapshot")[1].Text; !strings.Contains(snap, `clickable "Buy milk" [e`) {
		t.Errorf("the note jQuery UI would drag has no ref:\n%s", snap)
	}
	if snap := p.results("snapshot")[0].Text; !strings.Contains(snap, `clickable "Call the bank" [e11]`) || !strings.Contains(snap, `clickable "Buy milk" [e12]`) {
		t.Errorf("the controls only:\n%s", snap)
	}
	// What the page says for screen readers only is not the page's to the model.
	if strings.Contains(drags[2].Text, "Draggable item") {
		t.Errorf("the drop's announcement for screen readers is said: %s", drags[2].Text)
	}
	// A row put back elsewhere is not something the page shows afresh.
	if strings.Contains(drags[4].Text, "now shows") {
		t.Errorf("the moved row is said as new: %s", drags[4].Text)
	}
	// The page is as the results say.
	if got := inTab[string](t, panel, tab, `[...document.querySelectorAll(".col")].map(c => [...c.querySelectorAll("li")].map(l => l.textContent).join(",")).join(" | ")`); got != "Review the budget | Fix the login bug | Write the spec,Ship 1.0 | Old task" {
		t.Errorf("the board is %s", got)
	}
	if got := inTab[string](t, panel, tab, `[...document.querySelectorAll("#prio li, #files .file, #reading li")].map(l => l.textContent.replace("⠿", "")).join(",")`); got != "Onboarding flow,Billing export,Security review,Dark mode,notes.txt,Ulysses,Dune,Emma" {
		t.Errorf("the lists are %s", got)
	}
	// Dropping on a bin that deletes asks, as a Delete button does; the other drags do not.
	if asks != 1 {
		t.Errorf("%d asks, want 1 (the bin): %s", asks, cardsString(cards))
	}
	for _, c := range cards {
		if c.Tool == "drag" && strings.Contains(c.What, "report.pdf") && !strings.Contains(c.What, "onto region “Drop here to delete”") {
			t.Errorf("the bin's card says %q", c.What)
		}
	}
	after := inTab[string](t, panel, tab, `document.body.innerText`)

	// Saved as a workflow, the run replays without the model on the page loaded afresh: each
	// drag finds both its elements again by what they are, and the page ends as the run left it.
	Do(t, panel, chromedp.Click("#workflows-toggle"))
	Do(t, panel, chromedp.Click(`#workflow-save button[type="submit"]`))
	WaitJS(t, panel, `document.querySelectorAll(".workflow .wf-steps li").length === 9`)
	if got := JS[string](t, panel, `document.querySelector(".workflow .wf-steps li:nth-child(2)").textContent`); !strings.Contains(got, "drag listitem “Write the spec” onto listitem “Ship 1.0”") {
		t.Errorf("the workflow's drag says %q", got)
	}
	m.Close()
	if last := replayFromView(t, panel, map[string]string{}, false); !strings.Contains(last, "ran all 9 steps") {
		t.Fatalf("the replay ended with %q", last)
	}
	if got := inTab[string](t, panel, tab, `document.body.innerText`); got != after {
		t.Errorf("after the replay the page shows\n%s\nwhere the run left\n%s", got, after)
	}
}

// textRef is the ref of the element whose snapshot line is its ref then its text
// ("li [e4]: Ship 1.0"), in the last snapshot the model got.
func textRef(t *testing.T, c *testkit.Conversation, text string) string {
	t.Helper()
	return refMatching(t, c, regexp.MustCompile(`(?m)^\s*\S+ \[((?:f\d+)?e\d+)\]: `+regexp.QuoteMeta(text)+`$`), text)
}

// Frames whose content is in their own view but below the page's (frame-low.html: frames
// further down than the window reaches): a click and a drag in them scroll every document to
// the element first, as a person scrolls the page to the frame, instead of pressing at a point
// off the screen ("the click … did not reach").
func TestActingInFramesBelowTheFold(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", obj{"interactive": true})),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `button "Inner button"`)}),
				call("drag", obj{"ref": refIn(t, c, `button "Security review"`), "to": obj{"ref": refIn(t, c, `button "Billing export"`)}}),
			}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "frame-low.html", "press the inner button and move the security review down")
	got := p.since(1)
	if len(got) != 2 {
		t.Fatalf("calls: %s", p.all())
	}
	if !strings.Contains(got[0].Text, "Clicked button “Inner button”") || got[0].Error {
		t.Errorf("the click: %s", got[0].Text)
	}
	if !strings.Contains(got[1].Text, "It is now item 3 of 4 (it was item 1), after button “Billing export”.") || got[1].Error {
		t.Errorf("the drag: %s", got[1].Text)
	}
	if out := inTab[string](t, panel, tab, `document.querySelector('iframe[title="Inner"]').contentDocument.getElementById("out").textContent`); out != "clicked inner true" {
		t.Errorf("the inner button says %q", out)
	}
}

// Without the debugger (DevTools open on the tab: here Skiff's own panel holds it), a drag is
// made of DOM events and checked as a real one is: where the element went, or that nothing
// moved; hovering still reveals a menu; the console and scripts, which need the debugger, say
// why they cannot.
func TestDragAndHoverWithoutTheDebugger(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("drag", obj{"ref": textRef(t, c, "Write the spec"), "to": obj{"ref": textRef(t, c, "Ship 1.0")}}),
				call("drag", obj{"ref": refIn(t, c, `button "Security review"`), "to": obj{"ref": refIn(t, c, `button "Billing export"`)}}),
				call("drag", obj{"ref": refIn(t, c, `clickable "report.pdf"`), "to": obj{"ref": refIn(t, c, `region "Drop here to delete"`)}}),
				call("drag", obj{"ref": refIn(t, c, `button "Move Ulysses"`), "to": obj{"ref": refIn(t, c, `button "Move Dune"`)}}),
				call("navigate", obj{"url": site.Page("menus.html")}),
			}
		},
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("hover", obj{"ref": refIn(t, c, `link "Account"`)}),
				call("console_messages", obj{}),
				call("run_script", obj{"code": "return document.title"}),
			}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("drag.html"))
	for _, kind := range []string{"read:*", "act:*"} {
		JS[any](t, panel, `skiffTest.call("permission.set", {tool: "`+kind+`", origin: `+jsString(site.URL)+`, decision: "allow_always"})`)
	}
	takeDebugger(t, panel, tab)
	runAgentAsks(t, panel, "sort the board, then open the account menu")
	drags := p.results("drag")
	if len(drags) != 4 {
		t.Fatalf("calls: %s", p.all())
	}
	for i, want := range []string{
		`(with DOM events: Skiff cannot send real input to this tab, and some sites ignore such events). It is now in the part headed “Done”, item 1 of 2`,
		`(with DOM events: Skiff cannot send real input to this tab, and some sites ignore such events). It is now item 3 of 4 (it was item 1)`,
		`The element is no longer on the page.`,
		`It moved with listitem “Move Ulysses Ulysses”, which is now item 1 of 3 (it was item 3)`,
	} {
		if !strings.Contains(drags[i].Text, want) {
			t.Errorf("drag %d: want %q in:\n%s", i, want, drags[i].Text)
		}
	}
	for name, want := range map[string]string{
		"hover":            `It revealed link “Your orders”`,
		"console_messages": "The console cannot be read on this tab",
		"run_script":       "Skiff cannot run scripts in this tab now",
	} {
		if r := p.results(name); len(r) != 1 || !strings.Contains(r[0].Text, want) {
			t.Errorf("%s: want %q in %+v", name, want, r)
		}
	}
}
