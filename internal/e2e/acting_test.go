//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// Native date, time, month, week, colour and range fields take values as a person writes them,
// in the page's own locale (day first in French, month first in the US), and get the events
// their picker fires; what they cannot read is refused with the formats they take.
func TestPickersTakeWhatAPersonWrites(t *testing.T) {
	site := testkit.NewSite(t)
	for _, c := range []struct {
		page   string
		values map[string]string
		want   map[string]string
	}{
		{"pickers-fr.html",
			map[string]string{"Arrival": "24/11/2026", "Time": "14h30", "Meeting": "24/11/2026 14:30", "Month": "novembre 2026", "Week": "2026-W48", "Colour": "red", "Guests": "7"},
			map[string]string{"date": "2026-11-24", "time": "14:30", "when": "2026-11-24T14:30", "month": "2026-11", "week": "2026-W48", "color": "#ff0000", "range": "7"}},
		{"pickers-us.html",
			map[string]string{"Arrival": "11/24/2026", "Time": "2:30 PM", "Meeting": "November 24, 2026 at 9:05 am", "Month": "November 2026", "Week": "week 48, 2026", "Colour": "#00ff00", "Guests": "3"},
			map[string]string{"date": "2026-11-24", "time": "14:30", "when": "2026-11-24T09:05", "month": "2026-11", "week": "2026-W48", "color": "#00ff00", "range": "3"}},
		// (a date as Korean and Hungarian write theirs, year first; a time after its half of the day, 오후: pm)
		{"pickers-us.html?ko",
			map[string]string{"Arrival": "2026. 11. 24.", "Time": "오후 2:30", "Meeting": "2026/11/24 9:05", "Month": "2026-11", "Week": "2026-W48", "Colour": "#00ff00", "Guests": "3"},
			map[string]string{"date": "2026-11-24", "time": "14:30", "when": "2026-11-24T09:05", "month": "2026-11", "week": "2026-W48", "color": "#00ff00", "range": "3"}},
		// (day first with a space after each dot, and one after the year, as Croatian and Czech write theirs)
		{"pickers-fr.html?hr",
			map[string]string{"Arrival": "24. 11. 2026.", "Time": "14:30", "Meeting": "24.11.2026. 14:30", "Month": "2026-11", "Week": "2026-W48", "Colour": "red", "Guests": "7"},
			map[string]string{"date": "2026-11-24", "time": "14:30", "when": "2026-11-24T14:30", "month": "2026-11", "week": "2026-W48", "color": "#ff0000", "range": "7"}},
	} {
		t.Run(c.page, func(t *testing.T) {
			p := &plan{steps: []step{
				calls(call("snapshot", nil)),
				func(cv *testkit.Conversation) []testkit.Call {
					var fields []any
					for label, v := range c.values {
						if label == "Arrival" {
							continue
						}
						fields = append(fields, obj{"ref": refIn(t, cv, `"`+label+`"`), "value": v})
					}
					return []testkit.Call{
						call("type", obj{"ref": refIn(t, cv, `"Arrival"`), "text": c.values["Arrival"]}),
						call("fill_form", obj{"fields": fields}),
						call("type", obj{"ref": refIn(t, cv, `"Arrival"`), "text": "some day soon"}),
					}
				},
			}}
			m := testkit.NewModel(t, p.script)
			panel := agentPanel(t, "openai", m)
			tab := openTab(t, panel, site.Page(c.page))
			runAgent(t, panel, "book it")
			log := inTab[string](t, panel, tab, `document.getElementById("log").textContent`)
			for id, want := range c.want {
				if got := inTab[string](t, panel, tab, `document.getElementById("`+id+`").value`); got != want {
					t.Errorf("%s holds %q, want %q (results: %s)", id, got, want, p.all())
				}
				for _, ev := range []string{"input", "change"} {
					if !strings.Contains(log, id+":"+ev+"="+want) {
						t.Errorf("%s did not get %s with %s: %s", id, ev, want, log)
					}
				}
			}
			types := p.results("type")
			if len(types) != 2 || types[0].Error || !strings.Contains(types[0].Text, "holds 2026-11-24") {
				t.Errorf("typing a date: %s", p.all())
			}
			if !types[1].Error || !strings.Contains(types[1].Text, "not a date Skiff can read") {
				t.Errorf("a date it cannot read: %+v", types[1])
			}
		})
	}
}

// A click lands on its target or says it did not: links wrapped over two lines in narrow
// columns are clicked on a line of theirs, a link around a large icon far down the page is
// scrolled to where it is drawn, and a bar that pushes the page down as the mouse
// first moves makes the click aim again instead of pressing what came under the mouse.
func TestClicksLandOnTheirTarget(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `link "full report on the harbour"`)}),
				call("click", obj{"ref": refIn(t, c, `link "the annual accounts of the cooperative society"`)}),
				call("click", obj{"ref": refIn(t, c, `link "a link"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Share"`)}),
				call("click", obj{"ref": refIn(t, c, `link "The Harbour Times"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Close the notice"`)}),
				call("hover", obj{"ref": refIn(t, c, `link "Logo"`)}),
				call("click", obj{"ref": refIn(t, c, `link "Logo"`)}),
				call("click", obj{"ref": refIn(t, c, `link "Archive"`)}),
			}
		},
		calls(call("navigate", obj{"url": site.Page("shifting.html")})),
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Pay now"`)}), call("click", obj{"ref": refIn(t, c, `button "Save for later"`)})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "anthropic", m)
	tab := openTab(t, panel, site.Page("wrapped.html"))
	// The columns are narrow enough that each link wraps.
	if lines := inTab[int](t, panel, tab, `document.getElementById("two").getClientRects().length`); lines < 2 {
		t.Fatalf("the link does not wrap (%d boxes): the page does not test what it should", lines)
	}
	runAgent(t, panel, "open them")
	// What a link's name already says is not said again under it, in blocks of its own.
	if snap := p.results("snapshot")[0].Text; regexp.MustCompile(`link "Logo" \[e\d+\]:`).MatchString(snap) {
		t.Errorf("the floated logo's words are said twice:\n%s", snap)
	}
	if hovers := p.results("hover"); len(hovers) != 1 || hovers[0].Error {
		t.Errorf("hover over a link shown by its floated logo: %s", p.all())
	}
	clicks := p.results("click")
	if len(clicks) != 10 {
		t.Fatalf("clicks: %s", p.all())
	}
	for _, c := range clicks {
		if c.Error {
			t.Errorf("a click failed: %s", c.Text)
		}
	}
	// A control named by a part of it is called in the result what the snapshot called it; a
	// link with no box of its own is clicked where what is in it shows.
	for i, name := range map[int]string{4: "link “The Harbour Times”", 5: "button “Close the notice”", 6: "Clicked link “Logo” [e6]. It now shows: \"float\"", 7: "Clicked link “Archive” [e7]. It now shows: \"contents\""} {
		if !strings.Contains(clicks[i].Text, name) {
			t.Errorf("the click on %s says: %s", name, clicks[i].Text)
		}
	}
	counts := inTab[string](t, panel, tab, `["above", "pay", "save"].map(id => document.getElementById("count-" + id).textContent).join(" ")`)
	if counts != "0 1 1" {
		t.Errorf("on the shifting page, Keep shopping / Pay now / Save for later were clicked %s times", counts)
	}
}

// A control the page scrolled under a bar that stays put (a sticky header, a cookie strip at
// the bottom) is scrolled out from under it and clicked, as a person does, not refused as
// covered; the bar itself is not clicked.
func TestAControlUnderAStickyBarIsScrolledOut(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("navigate", obj{"url": site.Page("sticky.html?under=header")})),
		calls(call("snapshot", nil)),
		clickOn(t, `button "Subscribe"`),
		calls(call("navigate", obj{"url": site.Page("sticky.html?under=footer")})),
		calls(call("snapshot", nil)),
		clickOn(t, `button "Share"`),
	}}
	panel, tab, _ := p.runOn(t, site, "wrapped.html", "subscribe and share")
	clicks := p.results("click")
	if len(clicks) != 2 {
		t.Fatalf("calls: %s", p.all())
	}
	for i, want := range []string{`Clicked button “Subscribe”`, `Clicked button “Share”`} {
		if clicks[i].Error || !strings.Contains(clicks[i].Text, want) {
			t.Errorf("click %d: %s", i+1, clicks[i].Text)
		}
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("said").textContent`); got != "Share clicked. " {
		t.Errorf("the second page says %q", got)
	}
}

// A count the page moves by itself (people looking, a ticker) is not said as what an action
// did, even when it moved once while the action was watched: the page was seen moving it
// before. A count the action moves still is.
func TestANumberThatMovesByItselfIsNotNews(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		// The count two moves on from what the snapshot read: the page is seen moving it.
		func(c *testkit.Conversation) []testkit.Call {
			n := 0
			if m := regexp.MustCompile(`(\d+) people are looking`).FindStringSubmatch(c.Results()[0].Text); m != nil {
				n, _ = strconv.Atoi(m[1])
			}
			return []testkit.Call{call("wait_for", obj{"text": fmt.Sprintf("%d people", n+2), "timeoutMs": 5000})}
		},
		clickOn(t, `button "Save search"`),
		clickOn(t, `button "Add to shortlist"`),
	}}
	p.runOn(t, site, "ticker.html", "save the search and shortlist the flat")
	clicks := p.results("click")
	if len(clicks) != 2 {
		t.Fatalf("calls: %s", p.all())
	}
	if !strings.Contains(clicks[0].Text, "Saved.") || strings.Contains(clicks[0].Text, "looking") {
		t.Errorf("the save said: %s", clicks[0].Text)
	}
	if !strings.Contains(clicks[1].Text, `"Shortlist (1)" (was "Shortlist (0)")`) || strings.Contains(clicks[1].Text, "looking") {
		t.Errorf("the shortlist said: %s", clicks[1].Text)
	}
}

// Editors as mail and chat sites draw them: lines typed into one that keeps each in a
// paragraph of its own are not said to have been rewritten (the editor reads them back with a
// blank line between), an editor with no label is not called by the text it holds, and one
// that is a form field of its own (a custom element, as Trix's) is named by its label.
func TestEditorsTakeLinesAndAreNotNamedByTheirText(t *testing.T) {
	site := testkit.NewSite(t)
	comment := regexp.MustCompile(`textbox \[(e\d+)\] value="First draft"`)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Message"`), "text": "Hello world,\nthe launch is on Friday."})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			ref := "e0"
			for _, msg := range c.Messages {
				if m := comment.FindStringSubmatch(msg.Text); m != nil {
					ref = m[1]
				}
			}
			return []testkit.Call{call("type", obj{"ref": ref, "text": "Looks good."})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Notes"`), "text": "Book the room."})}
		},
		clickOn(t, `button "Send"`),
	}}
	panel, tab, _ := p.runOn(t, site, "editor.html", "answer the team")
	types := p.results("type")
	if len(types) != 3 {
		t.Fatalf("calls: %s", p.all())
	}
	if types[0].Error || !strings.Contains(types[0].Text, "Typed 37 characters into textbox “Message”") || strings.Contains(types[0].Text, "field holds") {
		t.Errorf("typing lines into the editor: %s", types[0].Text)
	}
	if types[1].Error || !strings.Contains(types[1].Text, "into textbox <div#comment>") {
		t.Errorf("typing into the editor with no label: %s", types[1].Text)
	}
	if types[2].Error || !strings.Contains(types[2].Text, "into textbox “Notes”") {
		t.Errorf("typing into the editor labelled by a label for it: %s", types[2].Text)
	}
	want := `{"message":["Hello world,","the launch is on Friday."],"comment":["Looks good."],"notes":"Book the room."}`
	if got := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); got != want {
		t.Errorf("the editors hold %s, want %s", got, want)
	}
}

// A rich text editor as TinyMCE draws it, its text in a frame the page wrote itself (srcdoc),
// is read and typed into as any field, on the page's site: such a frame has no address of its
// own, and once had no site the permission given to the page could cover (the call waited on
// an ask), nor was read at all ("(empty, or not readable)"). A click on a button the page is
// scrolled to reach does not say it revealed the editor's toolbar, which was in view all along
// (where things were was judged from before the scroll).
func TestARichTextEditorInAFrameIsTypedInto(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("type", obj{"ref": refIn(t, c, `textbox "Rich Text Area"`), "text": "Dear Ana, see you on Friday."}),
				call("type", obj{"ref": refIn(t, c, `textbox "To"`), "text": "Ana"}),
				call("click", obj{"ref": refIn(t, c, `button "Send letter"`)}),
			}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("rich-editor.html"))
	allowSite(t, panel, site.URL)
	_, asks := runAgentAsks(t, panel, "write to Ana")
	if asks != 0 {
		t.Errorf("the run asked %d times on a site allowed always: %s", asks, p.all())
	}
	types, clicks := p.results("type"), p.results("click")
	if len(types) != 2 || len(clicks) != 1 {
		t.Fatalf("calls: %s", p.all())
	}
	if types[0].Error || !strings.Contains(types[0].Text, "Typed 28 characters into textbox “Rich Text Area”") {
		t.Errorf("typing into the editor's frame: %s", types[0].Text)
	}
	if clicks[0].Error || strings.Contains(clicks[0].Text, "revealed") {
		t.Errorf("the click on Send: %s", clicks[0].Text)
	}
	want := `{"to":"Ana","text":"Dear Ana, see you on Friday."}`
	if got := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); got != want {
		t.Errorf("the page sent %s, want %s", got, want)
	}
}

// An action that fills a field other than the one acted on says so, with what the field holds
// now: a calendar's day fills the date field it was opened from (a read-only field: typing
// into it says what to do instead), a button steps a number, and a button that makes up a
// password fills it, its value not said.
func TestActionsSayWhichFieldsTheyFilled(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Arrival"`), "text": "2026-12-24"})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `textbox "Arrival"`)}), call("snapshot", nil)}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("select_option", obj{"ref": refIn(t, c, `combobox "Month"`), "values": []string{"December"}}), call("snapshot", nil)}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `"December 24, 2026"`)}),
				call("click", obj{"ref": refIn(t, c, `button "More guests"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Make one up"`)}),
			}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "picker.html", "book for three on Christmas Eve")
	types, clicks := p.results("type"), p.results("click")
	if len(types) != 1 || len(clicks) != 4 {
		t.Fatalf("calls: %s", p.all())
	}
	if !types[0].Error || !strings.Contains(types[0].Text, "is read-only: a picker may fill it") {
		t.Errorf("typing into the read-only date field: %+v", types[0])
	}
	for i, want := range []string{
		`It filled textbox “Arrival” [e1] with "2026-12-24".`,
		`It filled spinbutton “Guests” [e2] with "3".`,
		`It filled textbox “Password” [e4] (a secret: its value is not shown).`,
	} {
		if got := clicks[i+1].Text; !strings.Contains(got, want) || strings.Contains(got, "Xq7") {
			t.Errorf("click %d: want %q in %s", i+2, want, got)
		}
	}
	if strings.Contains(clicks[0].Text, "It filled") {
		t.Errorf("opening the calendar filled nothing: %s", clicks[0].Text)
	}
	if got := inTab[string](t, panel, tab, `[arrival.value, guests.value, pw.value].join(" ")`); got != "2026-12-24 3 Xq7-pL2-vR9" {
		t.Errorf("the fields hold %q", got)
	}
}

// A key that moves the focus says where it went, with a ref to act there: Tab from a field to
// the next, Shift+Tab back (pressed where the focus is); a key that types leaves it, and one
// that sends the form to another page says that page, not where the focus is there.
func TestKeysSayWhereTheFocusWent(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("press_key", obj{"ref": refIn(t, c, `textbox "First name"`), "key": "Tab"})}
		},
		calls(call("press_key", obj{"key": "Shift+Tab"})),
		calls(call("press_key", obj{"key": "a"})),
		calls(call("press_key", obj{"key": "Enter"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("long-form.html"))
	runAgent(t, panel, "move through the form")
	snap := p.results("snapshot")[0].Text
	keys := p.results("press_key")
	if len(keys) != 4 {
		t.Fatalf("press_key: %s", p.all())
	}
	if !strings.Contains(keys[3].Text, "The page changed to") {
		t.Errorf("Enter in the form: %s", keys[3].Text)
	}
	for i, want := range []string{`The focus moved to textbox “Last name” [` + regexp.MustCompile(`textbox "Last name" \[(e\d+)\]`).FindStringSubmatch(snap)[1] + `].`, `The focus moved to textbox “First name” [`, "", ""} {
		if keys[i].Error || want != "" && !strings.Contains(keys[i].Text, want) || want == "" && strings.Contains(keys[i].Text, "focus moved") {
			t.Errorf("key %d: want %q in %s", i+1, want, keys[i].Text)
		}
	}
}

// What a hover or a click brings into view is said, with refs to act on: a menu the stylesheet
// shows while the mouse is over its item, one a script shows a moment later, and a panel a
// button unfolds; and those kept out of sight by their place or size rather than their style
// (a menu pushed off the page, one scaled to nothing, a panel of no height that hides its
// overflow). A hover over what shows nothing says nothing more.
func TestWhatAnActionRevealsIsSaid(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("hover", obj{"ref": refIn(t, c, `link "Products"`)})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("hover", obj{"ref": refIn(t, c, `link "Account"`)})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Filters"`)})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("hover", obj{"selector": "p"})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("hover", obj{"ref": refIn(t, c, `link "Brands"`)})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("hover", obj{"ref": refIn(t, c, `link "Sale"`)})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Help"`)})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("menus.html"))
	runAgent(t, panel, "look at the menus")
	hovers, clicks := p.results("hover"), p.results("click")
	if len(hovers) != 5 || len(clicks) != 2 {
		t.Fatalf("calls: %s", p.all())
	}
	revealed := regexp.MustCompile(`It revealed (.*)\.`)
	for _, c := range []struct {
		r    testkit.Msg
		want []string
	}{
		{hovers[0], []string{"link “Laptops” [e", "link “Phones” [e", "link “Tablets” [e"}},
		{hovers[1], []string{"link “Your orders” [e", "button “Sign out” [e"}},
		{clicks[0], []string{"checkbox “In stock” [e", "button “Apply” [e"}},
		{hovers[3], []string{"link “Acme” [e", "link “Globex” [e"}},
		{hovers[4], []string{"link “Clearance” [e"}},
		{clicks[1], []string{"link “Questions people ask” [e", "button “Write to us” [e"}},
	} {
		m := revealed.FindStringSubmatch(c.r.Text)
		if c.r.Error || m == nil {
			t.Errorf("nothing revealed: %s", c.r.Text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(m[1], w) {
				t.Errorf("%q is not in what was revealed: %s", w, c.r.Text)
			}
		}
	}
	if strings.Contains(hovers[0].Text, "Your orders") || strings.Contains(hovers[2].Text, "revealed") || strings.Contains(hovers[3].Text, "Clearance") {
		t.Errorf("a hover said what it did not reveal: %s / %s / %s", hovers[0].Text, hovers[2].Text, hovers[3].Text)
	}
	// What stays out of sight is not in the snapshot either: the model learns of it by the
	// action that shows it.
	if snap := p.results("snapshot")[0].Text; strings.Contains(snap, "Acme") || strings.Contains(snap, "Clearance") || strings.Contains(snap, "Write to us") {
		t.Errorf("the snapshot shows what is out of sight:\n%s", snap)
	}
}

// A page that loads its content after its load (an app fetching its data) is waited on while
// it shows so (a spinner, a region marked busy, a skeleton of grey blocks that shimmer), after
// navigate and after a click that went there, so that the next snapshot holds the content; one
// that never stops says so. A badge that pulses on every page holds nothing.
func TestNavigateWaitsForWhatThePageLoads(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("navigate", obj{"url": site.Page("loading.html")})),
		calls(call("snapshot", nil)),
		calls(call("navigate", obj{"url": site.Page("loading.html?busy")})),
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `link "Your orders again"`)})}
		},
		calls(call("snapshot", nil)),
		calls(call("navigate", obj{"url": site.Page("loading.html?skeleton")})),
		calls(call("snapshot", nil)),
		calls(call("navigate", obj{"url": site.Page("loading.html?forever")})),
		calls(call("navigate", obj{"url": site.Page("loading.html?skeleton&forever")})),
	}}
	p.runOn(t, site, "wrapped.html", "show my orders")
	snaps, navs := p.results("snapshot"), p.results("navigate")
	if len(snaps) != 4 || len(navs) != 5 {
		t.Fatalf("calls: %s", p.all())
	}
	for i, s := range snaps {
		if !strings.Contains(s.Text, "You have 3 orders.") || !strings.Contains(s.Text, `button "Track order 4711"`) {
			t.Errorf("snapshot %d was taken before the orders came:\n%s", i+1, s.Text)
		}
	}
	if !strings.Contains(navs[3].Text, "It was still loading after 3s (it shows a spinner)") {
		t.Errorf("a page that never stops loading: %s", navs[3].Text)
	}
	if !strings.Contains(navs[4].Text, "It was still loading after 3s (it shows placeholders where its content will be)") {
		t.Errorf("a skeleton that never fills in: %s", navs[4].Text)
	}
	// The badge that pulses on every one of these pages is not taken for loading.
	for _, n := range navs[:3] {
		if strings.Contains(n.Text, "still loading") {
			t.Errorf("a page that loaded: %s", n.Text)
		}
	}
}

// Chrome's tab status counts every frame: an ad or a map frame added after the page's own load,
// whose server is slow, puts the tab back to "loading" for as long as it takes. The page is
// loaded and usable: navigate says so, and does not wait for the frame; a click there is not
// taken for a page going elsewhere (which waited 8 s and said "still loading"), and a link
// that does go elsewhere says where.
func TestAFrameThatLoadsLateLeavesThePageLoaded(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("navigate", obj{"url": site.Page("late-frame.html")})),
		calls(call("read_text", nil)),
		calls(call("click", obj{"selector": "#more"})),
		calls(call("find_text", obj{"text": "Departures: 6:40"})),
		calls(call("click", obj{"selector": "a[href='']"})),
		calls(call("click", obj{"selector": "a[href='#timetable']"})),
		calls(call("click", obj{"selector": "a[href='counter.html']"})),
	}}
	p.runOn(t, site, "wrapped.html", "what changed for the ferry?")
	navs, reads := p.results("navigate"), p.results("read_text")
	if len(navs) != 1 || len(reads) != 1 {
		t.Fatalf("calls: %s", p.all())
	}
	if n := navs[0]; n.Error || strings.Contains(n.Text, "still loading") || !strings.Contains(n.Text, `"Harbour news"`) {
		t.Errorf("the page that loaded: %s", n.Text)
	}
	if !strings.Contains(reads[0].Text, "first ferry leaves at 6:40") {
		t.Errorf("reading it: %s", reads[0].Text)
	}
	clicks := p.results("click")
	if len(clicks) != 4 {
		t.Fatalf("calls: %s", p.all())
	}
	for _, c := range clicks {
		if c.Error || strings.Contains(c.Text, "still loading") {
			t.Errorf("a click on the page: %s", c.Text)
		}
	}
	if !strings.Contains(clicks[1].Text, `The page loaded again: "Harbour news"`) {
		t.Errorf("the link to the page itself: %s", clicks[1].Text)
	}
	if !strings.Contains(clicks[2].Text, "It went to #timetable on the same page.") {
		t.Errorf("the link to a part of the page: %s", clicks[2].Text)
	}
	if !strings.Contains(clicks[3].Text, `The page changed to "Counters"`) {
		t.Errorf("the link to another page: %s", clicks[3].Text)
	}
	if f := p.results("find_text"); len(f) != 1 || strings.Contains(f[0].Text, "is not on the page") {
		t.Errorf("what the button showed: %s", p.all())
	}
}

// A control whose middle is under something else (the next item of a menu laid over its end,
// a badge over a card's button) is clicked where it shows, as a person clicks it: on its
// words, or another part of it that nothing covers. One wholly under a banner is still
// covered. Found on qq's menu, whose links each ran under the next.
func TestAControlPartlyUnderAnotherIsClickedWhereItShows(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `link "Sport"`)})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("hover", obj{"ref": refIn(t, c, `link "News"`)}), call("click", obj{"ref": refIn(t, c, `button "Add to basket"`)})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Hidden offer"`)})}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "overlap.html", "add the best seller")
	clicks, hovers := p.results("click"), p.results("hover")
	if len(clicks) != 3 || len(hovers) != 1 {
		t.Fatalf("calls: %s", p.all())
	}
	if !strings.Contains(clicks[0].Text, "It went to #sport on the same page.") {
		t.Errorf("the menu's link under its neighbour: %s", clicks[0].Text)
	}
	if hovers[0].Error || !strings.Contains(hovers[0].Text, `The mouse is over link “News”`) {
		t.Errorf("hovering it: %s", hovers[0].Text)
	}
	if !strings.Contains(clicks[1].Text, `It now shows: "Added"`) {
		t.Errorf("the button under a badge: %s", clicks[1].Text)
	}
	if !clicks[2].Error || !strings.Contains(clicks[2].Text, `is covered by div “Sale ends soon”`) {
		t.Errorf("the button under a banner: %s", clicks[2].Text)
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("said").textContent`); got != "Added" {
		t.Errorf("the page heard %q", got)
	}
}

// A link to a new tab clicked again, from its tab now behind the one it opened: Chrome names
// the window's active tab as the new tab's opener (the first new tab), and the second click
// waited its 2 s and said nothing of the tab it opened. Each click says its own new tab, as it
// does for an outside agent whose tabs are behind the user's.
func TestEachNewTabALinkOpensIsSaid(t *testing.T) {
	site := testkit.NewSite(t)
	var link string
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			link = refIn(t, c, `link "Read the full terms"`)
			return []testkit.Call{call("click", obj{"ref": link})}
		},
		func(*testkit.Conversation) []testkit.Call { return []testkit.Call{call("click", obj{"ref": link})} },
		func(*testkit.Conversation) []testkit.Call { return []testkit.Call{call("click", obj{"ref": link})} },
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("checks.html"))
	t.Cleanup(func() {
		JS[any](t, panel, `chrome.tabs.query({}).then((ts) => Promise.all(ts.filter((x) => /checks\.html\?full-terms/.test(x.url || x.pendingUrl || "")).map((x) => chrome.tabs.remove(x.id).catch(() => 0))))`)
	})
	allowSite(t, panel, site.URL)
	runAgent(t, panel, "read the terms")
	clicks := p.results("click")
	if len(clicks) != 3 {
		t.Fatalf("calls: %s", p.all())
	}
	seen := map[string]bool{}
	for i, c := range clicks {
		m := regexp.MustCompile(`It opened a new tab \(tabId (\d+)\) at \S+checks\.html\?full-terms; this tab stays at `).FindStringSubmatch(c.Text)
		if m == nil || seen[m[1]] {
			t.Errorf("click %d does not say the new tab it opened: %s", i+1, c.Text)
			continue
		}
		seen[m[1]] = true
	}
}

// A button drawn as an icon only (a bin, a pencil, a cross), with no words, no aria-label and no
// title, is "button [e5]" and nothing else: which of a row's two is the bin? What the page's
// code calls it tells them apart (an icon font's class, an SVG sprite's symbol, a test id, a
// data-icon, an id or class made of words); a generated id or utility classes say nothing.
func TestButtonsWithoutWordsSayWhatTheirCodeCallsThem(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			// The second row's bin: the fourth button called "trash" would be wrong.
			re := regexp.MustCompile(`button \[(e\d+)\] hint="trash"`)
			var refs []string
			for _, m := range re.FindAllStringSubmatch(c.Messages[len(c.Messages)-1].Text, -1) {
				refs = append(refs, m[1])
			}
			if len(refs) != 2 {
				t.Fatalf("the bins: %s", c.Messages[len(c.Messages)-1].Text)
			}
			return []testkit.Call{call("click", obj{"ref": refs[1]})}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "icons.html", "remove my work address")
	snap := p.results("snapshot")
	if len(snap) != 1 {
		t.Fatalf("calls: %s", p.all())
	}
	for _, want := range []string{`hint="add-address"`, `hint="icon-close"`, `hint="pencil"`, `hint="share"`} {
		if !strings.Contains(snap[0].Text, want) {
			t.Errorf("no %s in the snapshot:\n%s", want, snap[0].Text)
		}
	}
	if n := strings.Count(snap[0].Text, "hint="); n != 7 {
		t.Errorf("%d hints, not 7 (a generated id or utility classes say nothing):\n%s", n, snap[0].Text)
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("said").textContent`); got != "Removed work" {
		t.Errorf("the click: %q; %s", got, p.all())
	}
	// What was clicked is said as the snapshot said it: the bin, not "button".
	if c := p.results("click"); len(c) != 1 || !strings.Contains(c[0].Text, "Clicked button (trash) [") {
		t.Errorf("the click's result does not name the bin: %s", p.all())
	}
}

// A page built with React or the like draws its controls again as it renders: after a click,
// the "Like" the model saw is another element that looks the same, and its ref named nothing
// ("take a new snapshot": a round trip for each). A ref whose element was the only one of its
// tag, role and name stands for the one that took its place; one of several alike ("Reply"
// under each post) stands for the one among the same words (its post, wherever the feed put
// it now, its count of likes changed), and never guesses: not between twins ("Notify me" under
// two posts that say the same), nor for a post that is gone.
func TestARefFollowsTheControlItsPageDrewAgain(t *testing.T) {
	site := testkit.NewSite(t)
	var like, reply, marketReply, notify string
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			like, reply, notify = refIn(t, c, `button "Like"`), refIn(t, c, `button "Reply"`), refIn(t, c, `button "Notify me"`)
			marketReply = refMatching(t, c, regexp.MustCompile(`harbour market opens at 8\.[^\[]*\n[^\n]*button "Reply" \[(e\d+)\]`), "the market post's Reply")
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Refresh feed"`)})}
		},
		func(*testkit.Conversation) []testkit.Call { return []testkit.Call{call("click", obj{"ref": like})} },
		func(*testkit.Conversation) []testkit.Call { return []testkit.Call{call("click", obj{"ref": like})} },
		func(*testkit.Conversation) []testkit.Call { return []testkit.Call{call("click", obj{"ref": reply})} },
		func(*testkit.Conversation) []testkit.Call { return []testkit.Call{call("click", obj{"ref": notify})} },
		func(*testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": marketReply})}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `button "Hide"`)})}
		},
		func(*testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": marketReply})}
		},
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			notify = refIn(t, c, `button "Notify me"`)
			return []testkit.Call{call("click", obj{"ref": notify})}
		},
		// Its post now says it is done; the other twin's Notify me is alone of its kind.
		func(*testkit.Conversation) []testkit.Call { return []testkit.Call{call("click", obj{"ref": notify})} },
	}}
	panel, tab, _ := p.runOn(t, site, "redraw.html", "like the ferry post")
	clicks := p.results("click")
	if len(clicks) != 10 {
		t.Fatalf("calls: %s", p.all())
	}
	for i, c := range clicks[1:3] {
		if c.Error || !strings.Contains(c.Text, `Clicked button “Like” [`+like+`]`) {
			t.Errorf("Like %d, drawn again: %s", i+1, c.Text)
		}
	}
	if got := inTab[string](t, panel, tab, `document.querySelector("article span").textContent`); got != "2" {
		t.Errorf("likes: %q; %s", got, p.all())
	}
	if r := clicks[3]; r.Error || !strings.Contains(r.Text, `Clicked button “Reply” [`+reply+`]`) {
		t.Errorf("the ferry post's Reply, drawn again elsewhere: %s", r.Text)
	}
	if r := clicks[4]; !r.Error || !strings.Contains(r.Text, "take a new snapshot") {
		t.Errorf("a Notify me of twins, drawn again: %s", r.Text)
	}
	if r := clicks[5]; r.Error || !strings.Contains(r.Text, `Clicked button “Reply” [`+marketReply+`]`) {
		t.Errorf("the market post's Reply: %s", r.Text)
	}
	if r := clicks[7]; !r.Error || !strings.Contains(r.Text, "take a new snapshot") {
		t.Errorf("the Reply of a post that is gone: %s", r.Text)
	}
	if r := clicks[9]; !r.Error || !strings.Contains(r.Text, "take a new snapshot") {
		t.Errorf("a Notify me of twins, pressed again once its post changed: %s", r.Text)
	}
	// What was pressed, in order, each where the model meant it.
	heard := inTab[string](t, panel, tab, `document.getElementById("heard").textContent`)
	if !strings.HasPrefix(heard, "liked; liked; reply to the ferry post; reply to the market post; notify ") || strings.Count(heard, "notify") != 1 {
		t.Errorf("the page heard %q; %s", heard, p.all())
	}
}

// Every visible control is addressable however long the page: a 500-row table comes before the
// button that matters. At the default budget the snapshot gives up the table's text and keeps
// every control; at a tight budget it is cut, says how many controls follow, and its
// continuation (after=) reaches the button.
func TestEveryControlIsReachable(t *testing.T) {
	site := testkit.NewSite(t)
	after := regexp.MustCompile(`after="((?:f\d+)?e\d+)"`)
	for _, c := range []struct {
		name   string
		tokens int
	}{{"default budget", 0}, {"tight budget", 1000}} {
		t.Run(c.name, func(t *testing.T) {
			first := obj{}
			if c.tokens > 0 {
				first["maxTokens"] = c.tokens
			}
			m := testkit.NewModel(t, func(cv *testkit.Conversation) testkit.Turn {
				rs := cv.Results()
				switch {
				case cv.Steps() == 0:
					return testkit.Turn{Calls: []testkit.Call{call("snapshot", first)}}
				case len(rs) == 1 && rs[0].Name == "snapshot" && strings.Contains(rs[0].Text, `button "Confirm all orders"`):
					return testkit.Turn{Calls: []testkit.Call{call("click", obj{"ref": refIn(t, cv, `button "Confirm all orders"`)})}}
				case len(rs) == 1 && rs[0].Name == "snapshot" && cv.Steps() < 40:
					if m := after.FindStringSubmatch(rs[0].Text); m != nil {
						next := obj{"after": m[1]}
						if c.tokens > 0 {
							next["maxTokens"] = c.tokens
						}
						return testkit.Turn{Calls: []testkit.Call{call("snapshot", next)}}
					}
				}
				return testkit.Turn{Text: "Done."}
			})
			panel := agentPanel(t, "google", m)
			tab := openTab(t, panel, site.Page("long-table.html"))
			runAgent(t, panel, "confirm all orders")
			if got := inTab[string](t, panel, tab, `document.getElementById("done").textContent`); got != "confirmed" {
				t.Errorf("the button after the table was not reached")
			}
			convs := m.Conversations()
			var snaps []string
			for _, msg := range convs[len(convs)-1].Messages {
				if msg.Role == "tool" && msg.Name == "snapshot" {
					snaps = append(snaps, msg.Text)
				}
			}
			// Older snapshots are dropped from the history as new ones come: any of them says
			// how many controls follow.
			if c.tokens > 0 && (len(snaps) < 2 || !strings.Contains(strings.Join(snaps, "\n"), "more follow")) {
				t.Errorf("the cut snapshot did not lead on (%d snapshots): %.400s", len(snaps), strings.Join(snaps, "\n---\n"))
			}
			t.Logf("the button was reached after %d snapshots", len(snaps))
		})
	}
}

// Checkboxes, radios and switches a site draws itself (the native input hidden in one of the
// ways sites hide it, its label drawn as the box) are reached through their labels, without
// pressing the link a label holds; and a click says what it changed, or that the page did not
// change it, as fill_form does, and the tab it opened (a link to a new tab, a popup); a choice
// in a list that the page takes back is reported, by select_option and fill_form; a file field
// (or a label drawn as its button) is not clicked into the system's file chooser. The new
// tab comes to the front: the calls after it act in a background tab, which Chrome does not
// draw (a mouse move there was answered only after 5 s).
func TestDrawnControlsAndWhatEachActionChanged(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `checkbox "I accept the terms of service"`)}),
				call("click", obj{"ref": refIn(t, c, `checkbox "Send me the newsletter"`)}),
				call("click", obj{"ref": refIn(t, c, `switch "Dark mode"`)}),
				call("click", obj{"ref": refIn(t, c, `radio "Pro"`)}),
				call("click", obj{"ref": refIn(t, c, `checkbox "Keep me signed in"`)}),
				call("click", obj{"ref": refIn(t, c, `checkbox "Remember this device"`)}),
				call("click", obj{"ref": refIn(t, c, `switch "Beta features"`)}),
				call("click", obj{"ref": refIn(t, c, `button "More options"`)}),
				call("click", obj{"ref": refIn(t, c, `link "Read the full terms"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Help"`)}),
				call("fill_form", obj{"fields": []any{
					obj{"ref": refIn(t, c, `checkbox "Send me the newsletter"`), "value": "false"},
					obj{"ref": refIn(t, c, `checkbox "Keep me signed in"`), "value": "true"},
					obj{"ref": refIn(t, c, `radio "Free"`), "value": "true"},
					obj{"ref": refIn(t, c, `combobox "Seats"`), "value": "Enterprise"},
				}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Seats"`), "values": []string{"Enterprise"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Seats"`), "values": []string{"5"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Seats"`), "values": []string{"5"}}),
				call("click", obj{"ref": refIn(t, c, `button "Profile picture"`)}),
				call("click", obj{"selector": `label[for="cv"]`}),
				call("press_key", obj{"ref": refIn(t, c, `button "Profile picture"`), "key": "Enter"}),
				call("press_key", obj{"selector": "#avatar", "key": "Space"}),
				// Typed into, as models do: a drop-down chooses the option the text names (as
				// keys do in a focused one), or says which it has; a box says how it is checked.
				call("type", obj{"ref": refIn(t, c, `combobox "Seats"`), "text": "1"}),
				call("type", obj{"ref": refIn(t, c, `checkbox "Keep me signed in"`), "text": "yes"}),
			}
		},
		calls(call("type", obj{"selector": "#seats", "text": "twelve"})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("checks.html"))
	// The tab and the popup window the page opens are closed after: a window left in front
	// would keep a later test's page from having the focus.
	t.Cleanup(func() {
		JS[any](t, panel, `chrome.tabs.query({}).then((ts) => Promise.all(ts.filter((x) => /checks\.html\?(help|full-terms)/.test(x.url || x.pendingUrl || "")).map((x) => chrome.tabs.remove(x.id).catch(() => 0))))`)
	})
	runAgent(t, panel, "sign me up")
	snap := p.results("snapshot")[0].Text
	for _, want := range []string{`radio "Free" [e5] checked`, `p: checkbox "Keep me signed in" [e7] unchecked` + "\n", `button "Profile picture" [e11] type=file button "Upload your CV" [e12] type=file`} {
		if !strings.Contains(snap, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, snap)
		}
	}
	clicks := p.results("click")
	// The popup a button opens is reported when it comes within the moment a click is watched
	// for (a link to a new tab is waited for): on a busy machine it may come later.
	want := []string{"now checked", "now checked", "now on", "now checked", "still unchecked (the click did not change it)", "now checked", "still off", "now expanded",
		"It opened a new tab (tabId ", "Clicked button “Help”",
		"“Profile picture” opens a file chooser: to choose files for it, use upload_file on it", "opens a file chooser"}
	if len(clicks) != len(want) {
		t.Fatalf("clicks: %s", p.all())
	}
	for i, c := range clicks {
		if c.Error != (i >= 10) || !strings.Contains(c.Text, want[i]) { // a file field is refused
			t.Errorf("click %d: want %q, got %s", i+1, want[i], c.Text)
		}
	}
	for i, page := range []string{"checks.html?full-terms", "checks.html?help"} {
		if c := clicks[8+i].Text; (i == 0 || strings.Contains(c, "new tab")) && !strings.Contains(c, page+"; this tab stays at "+site.Page("checks.html")) {
			t.Errorf("click %d does not say where the new tab went: %s", 9+i, c)
		}
	}
	if len(p.results("press_key")) != 2 {
		t.Errorf("press_key: %s", p.all())
	}
	for _, k := range p.results("press_key") {
		if !k.Error || !strings.Contains(k.Text, "opens a file chooser") {
			t.Errorf("a key in a file field: %s", k.Text)
		}
	}
	if ty := p.results("type"); len(ty) != 3 || ty[0].Error || !strings.Contains(ty[0].Text, `It is a list to choose from: the text chose its option. Chose "1" in combobox “Seats” [e`) ||
		!ty[1].Error || !strings.Contains(ty[1].Text, "“Keep me signed in” is not a text field: click it to check or uncheck it") ||
		!ty[2].Error || !strings.Contains(ty[2].Text, `ombobox “Seats” has no option "twelve"; it has "1", "5", "Enterprise"`) {
		t.Errorf("type into a list and a checkbox: %s", p.all())
	}
	if v := inTab[string](t, panel, tab, `document.getElementById("seats").value`); v != "1" {
		t.Errorf("the drop-down holds %q after type chose \"1\"", v)
	}
	if f := p.results("fill_form"); len(f) != 1 || !strings.Contains(f[0].Text, "Keep me signed in” [e7]: still unchecked") || !strings.Contains(f[0].Text, "newsletter” [e3]: unchecked") ||
		!strings.Contains(f[0].Text, `: chose "Enterprise", but the page did not keep it: the list holds "1"`) {
		t.Errorf("fill_form: %s", p.all())
	}
	if s := p.results("select_option"); len(s) != 3 || !strings.Contains(s[0].Text, `The page did not keep it: the list holds "1".`) || strings.Contains(s[1].Text, "did not keep") ||
		!strings.Contains(s[2].Text, `"5" was already chosen in combobox “Seats”`) {
		t.Errorf("select_option: %s", p.all())
	}
	if v := inTab[string](t, panel, tab, `document.visibilityState`); v != "hidden" {
		t.Errorf("the page is %s: the calls after the new tab opened did not act in a background tab", v)
	}
	state := inTab[string](t, panel, tab, `["terms", "news", "dark", "free", "pro", "stubborn"].map(id => document.getElementById(id).checked).join(" ") + " " + document.getElementById("aria").getAttribute("aria-checked") + " " + location.hash + document.getElementById("log").textContent`)
	if !strings.HasPrefix(state, "true false true true false false true ") || strings.Contains(state, "terms-link") {
		t.Errorf("terms, news, dark, free, pro, stubborn, aria: %s (want true false true true false false true, and the terms link never pressed)", state)
	}
}

// A code split into one box per digit takes the whole code typed into its first box, as a
// person typing it does: each box takes what it holds and the page moves the focus on. A field
// that only limits its length keeps what it takes, and the result says what it holds.
func TestTypingFollowsTheFocusAcrossCodeBoxes(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("type", obj{"ref": refIn(t, c, `textbox "Digit 1"`), "text": "123456"}),
				call("type", obj{"ref": refIn(t, c, `textbox "Promo code"`), "text": "SUMMER2026"}),
				call("fill_form", obj{"fields": []any{obj{"ref": refIn(t, c, `textbox "Backup code"`), "value": "ABCDEFGHIJ"}}}),
			}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "google", m)
	tab := openTab(t, panel, site.Page("code.html"))
	runAgent(t, panel, "enter the code")
	if got := inTab[string](t, panel, tab, `document.getElementById("code").textContent + " " + ["promo", "backup", "after"].map(id => document.getElementById(id).value).join(" ")`); got != "123456 SUMME ABCD EFGH" {
		t.Errorf("the page holds %q, want %q", got, "123456 SUMME ABCD EFGH")
	}
	types := p.results("type")
	if len(types) != 2 || types[0].Error || !strings.Contains(types[0].Text, `The page moved the focus from field to field as the text went in: textbox “Digit 1” holds "1", textbox “Digit 2” holds "2"`) ||
		!strings.Contains(types[0].Text, `textbox “Digit 6” holds "6".`) || strings.Contains(types[0].Text, "does not hold") {
		t.Errorf("typing the code: %s", p.all())
	}
	if len(types) == 2 && !strings.Contains(types[1].Text, `The field does not hold what was typed: it holds "SUMME".`) {
		t.Errorf("typing past a field's limit: %s", types[1].Text)
	}
	if f := p.results("fill_form"); len(f) != 1 || !strings.Contains(f[0].Text, `textbox “Then” holds "EFGH"; the last 2 characters went nowhere (the focus stayed).`) {
		t.Errorf("fill_form: %s", p.all())
	}
}

// Fields are named by their labels, not by what they hold: a list in its label is "Toppings",
// not "Toppings Ham Olives Cheese", a list of suggestions has no name made of its options, a
// label beside its field is said once (as the field's name), and a slider a page draws says
// where it stands. Typing into a field that suggests says what it suggests.
func TestFieldsAreNamedByTheirLabelsNotByWhatTheyHold(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `combobox "City"`), "text": "Par"}), call("snapshot", nil)}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("replies.html"))
	runAgent(t, panel, "look")
	snaps := p.results("snapshot")
	if len(snaps) != 2 {
		t.Fatalf("snapshots: %s", p.all())
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`p: listbox "Toppings" \[e\d+\] options="Ham","Olives","Cheese"\n`),
		regexp.MustCompile(`\np: combobox "City" \[e\d+\] collapsed\n`),
		regexp.MustCompile(`slider "Volume" \[e\d+\] value="50"\n`),
	} {
		if !want.MatchString(snaps[0].Text) {
			t.Errorf("the snapshot lacks %s:\n%s", want, snaps[0].Text)
		}
	}
	if !regexp.MustCompile(`\nlistbox \[e\d+\]:\n  option "Paris" \[e\d+\]\n  option "Parma" \[e\d+\]\n`).MatchString(snaps[1].Text) {
		t.Errorf("the suggestions:\n%s", snaps[1].Text)
	}
	if ty := p.results("type"); len(ty) != 1 || !strings.Contains(ty[0].Text, `; it suggests "Paris", "Parma" (select_option chooses one).`) {
		t.Errorf("typing into a field that suggests: %s", p.all())
	}
}

// What a page says back to an action is in the action's result: the fields a browser stopped a
// form on, a field the page marked invalid and why, a message that comes a moment later, a dialog
// a link opened (and Escape closed). An input mask that formats what was typed is told from a
// field that refused it, a button the page draws again as the mouse comes is clicked all the
// same, and a slider the page draws is set with keys, as a person sets it. A tab says it is
// selected, a column header says how the table is now sorted, and a switch the page turns a
// moment after the click says it is on. A button whose script opens the file chooser does not
// leave the system's file dialog in front of the user.
func TestActionsSayWhatThePageSaidBack(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("type", obj{"ref": refIn(t, c, `spinbutton "Age"`), "text": "12"}),
				call("click", obj{"ref": refIn(t, c, `button "Register"`)}),
				call("type", obj{"ref": refIn(t, c, `textbox "Coupon"`), "text": "SPRING", "submit": true}),
				call("fill_form", obj{"fields": []any{obj{"ref": refIn(t, c, `textbox "Email"`), "value": "bob"}}, "submit": true}),
				call("click", obj{"ref": refIn(t, c, `button "Save"`)}),
				call("click", obj{"ref": refIn(t, c, `link "Open settings"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Add to cart"`)}),
				call("type", obj{"ref": refIn(t, c, `textbox "Phone"`), "text": "5551234567"}),
				call("type", obj{"ref": refIn(t, c, `slider "Volume"`), "text": "83"}),
				call("press_key", obj{"ref": refIn(t, c, `slider "Volume"`), "key": "ArrowLeft"}),
				call("fill_form", obj{"fields": []any{obj{"ref": refIn(t, c, `slider "Volume"`), "value": "0"}}}),
				call("type", obj{"ref": refIn(t, c, `slider "Volume"`), "text": "150"}),
				call("click", obj{"ref": refIn(t, c, `tab "Reviews"`)}),
				call("click", obj{"ref": refIn(t, c, `switch "Notify me"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Attach a photo"`)}),
				call("press_key", obj{"ref": refIn(t, c, `link "Open settings"`), "key": "Escape"}),
				call("click", obj{"ref": refIn(t, c, `button "Price"`)}),
				call("snapshot", nil),
				call("click", obj{"ref": refIn(t, c, `button "Buy now"`)}),
			}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("replies.html"))
	runAgent(t, panel, "order")
	want := []struct {
		tool string
		text string
	}{
		{"type", `Typed 2 characters into spinbutton “Age”`},
		{"click", `Clicked button “Register” [e`},
		{"type", `Pressed Enter. The page marked textbox “Coupon” ("This coupon has expired.") as not valid.`},
		{"fill_form", `Pressed Enter to submit. The page says: "Please enter a valid email address."`},
		{"click", `Clicked button “Save” [e`},
		{"click", `Clicked link “Open settings” [e`},
		{"click", `Clicked button “Add to cart” [e`},
		{"type", `The page formatted it: the field holds "(555) 123-4567".`},
		{"type", `Slider “Volume” is at 83.`},
		{"press_key", `Pressed ArrowLeft in slider “Volume”. It is at 82.`},
		{"fill_form", `slider “Volume” is at 0`},
		{"type", `Slider “Volume” goes from 0 to 100, and 150 is outside that`},
		{"click", `Clicked tab “Reviews” [e`},
		{"click", `Clicked switch “Notify me” [e`},
		{"click", `Clicked button “Attach a photo” [e`},
		{"press_key", `Pressed Escape in link “Open settings”. It closed dialog “Settings”.`},
		{"click", `Clicked button “Price” [e`},
		{"snapshot", `row: Plan | button "Price" [e`},
		{"click", `Clicked button “Buy now” [e`},
	}
	got := p.since(1) // after the first snapshot
	if len(got) != len(want) {
		t.Fatalf("results: %s", p.all())
	}
	for i, w := range want {
		if got[i].Name != w.tool || !strings.Contains(got[i].Text, w.text) {
			t.Errorf("call %d (%s): want %q in %s", i+1, w.tool, w.text, got[i].Text)
		}
	}
	for i, after := range map[int]string{
		1:  `. The form was not sent: the browser stopped it at textbox “Username” (`,
		4:  `. The page says: "Saved."`,
		5:  `. It opened dialog “Settings” [e`,
		6:  ` (the page drew it again as the mouse came over it; the new one was clicked).`,
		12: `. It is now selected.`,
		13: `. It is now on.`, // a moment after the click
		14: `. The page asked for a file chooser, which Skiff kept closed: to choose files, use upload_file on the same element.`,
		16: `. It is now sorted ascending.`,
		17: `] (sorted ascending)`,
		18: `. It opened dialog “Confirm order” [e`, // once its backdrop had faded in
	} {
		if !strings.Contains(got[i].Text, after) {
			t.Errorf("call %d: want %q in %s", i+1, after, got[i].Text)
		}
	}
	if !strings.Contains(got[1].Text, `spinbutton “Age” ("`) {
		t.Errorf("the age field the browser stopped the form on: %s", got[1].Text)
	}
	if !got[11].Error {
		t.Errorf("a value outside the slider: %+v", got[11])
	}
	if got := inTab[string](t, panel, tab, `location.search + document.getElementById("log").textContent + document.getElementById("vol").getAttribute("aria-valuenow")`); got != "cart;0" {
		t.Errorf("the page: %q, want the form not sent, the redrawn button pressed once, and the volume at 0", got)
	}
}

// An action waits for the requests it sent: a page that posts and only then says "Saved", or
// that its card was declined, or how its search went, is read once it heard back (one request
// after another, fetch and XHR), a sign-in that posts and then goes elsewhere says where it
// went, and a request that is not answered in time is said to be still unanswered. Where what
// it sent is out of sight, a page that shows it is working (a spinner, a region marked busy, a
// disabled "Placing order…") is read once it stops, or said to be still working. An action
// that sends nothing is not held. A field that asks its server for suggestions once the typing
// pauses says what it suggests (typed by type or fill_form). What the page shows outside its alerts and live regions is
// heard too: an error in a plain block (a password it repeats is masked), a button that now
// reads otherwise, how much a list grew, what a live region too long to be read whole added at
// its end, and a number that moved on once (a basket's count, likes), with what it was; not a
// list drawn again as it was, nor a clock or a countdown that moved on meanwhile.
func TestActionsWaitForTheRequestsTheySent(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `button "Save draft"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Pay now"`)}),
				call("type", obj{"ref": refIn(t, c, `textbox "Order number"`), "text": "4711", "submit": true}),
				call("click", obj{"ref": refIn(t, c, `button "Dark theme"`)}),
				call("type", obj{"ref": refIn(t, c, `combobox "City"`), "text": "Par"}),
				call("fill_form", obj{"fields": []any{obj{"ref": refIn(t, c, `combobox "City"`), "value": "Po"}}}),
				call("type", obj{"ref": refIn(t, c, `textbox "Password"`), "text": "hunter2", "submit": true}),
				call("click", obj{"ref": refIn(t, c, `button "Follow"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Show more people"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Send thanks"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Add to favourites"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Add to basket"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Like"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Place order"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Sync contacts"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Refresh prices"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Connect printer"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Play sample"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Export everything"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Sign in"`)}),
			}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("requests.html"))
	runAgent(t, panel, "check my account")
	want := []string{
		`Clicked button “Save draft” [e`,
		`Clicked button “Pay now” [e`,
		`Pressed Enter.`,
		`Clicked button “Dark theme” [e`,
		`Typed 3 characters into combobox “City” [e`,
		`Filled 1 field:`,
		`Pressed Enter.`,
		`Clicked button “Follow” [e`,
		`Clicked button “Show more people” [e`,
		`Clicked button “Send thanks” [e`,
		`Clicked button “Add to favourites” [e`,
		`Clicked button “Add to basket” [e`,
		`Clicked button “Like” [e`,
		`Clicked button “Place order” [e`,
		`Clicked button “Sync contacts” [e`,
		`Clicked button “Refresh prices” [e`,
		`Clicked button “Connect printer” [e`,
		`Clicked button “Play sample” [e`,
		`Clicked button “Export everything” [e`,
		`Clicked button “Sign in” [e`,
	}
	after := []string{
		`. The page says: "Draft saved at 10:42."`,
		`. The page says: "Your card was declined."`,
		` The page says: "No order 4711 was found."`,
		`].`,
		`; it suggests "Paris", "Parma" (select_option chooses one).`,
		`; it suggests "Porto" (select_option chooses one)`,
		` It now shows: "Incorrect password “••••••”. Try again."`,
		`]. It now shows: "Following"`,
		`]. The page now shows about `,
		`]. It now shows: "Friday: You thanked Ana for the delivery."`,
		`]. It is now pressed.`,
		`]. It now shows: "Basket (1)" (was "Basket (0)")`,
		`]. It now shows: "13 likes" (was "12 likes")`,
		`]. It now shows: "Order 1042 placed."`,
		`]. It now shows: "Synced 12 contacts."`,
		`]. It now shows: "Lamp 35 €, down from 39 €"`,
		`]. The page was still working on it after 3.`,
		`].`,
		`. The page had still not heard back from a request it sent after `,
		`. The page changed to "Slow page"`,
	}
	got := p.since(1)
	if len(got) != len(want) {
		t.Fatalf("results: %s", p.all())
	}
	for i := range want {
		if !strings.Contains(got[i].Text, want[i]) || !strings.Contains(got[i].Text, after[i]) {
			t.Errorf("call %d: want %q and %q in %s", i+1, want[i], after[i], got[i].Text)
		}
	}
	if strings.Contains(p.all(), "hunter2") {
		t.Errorf("the password the page repeated reached the model: %s", p.all())
	}
	if i := slices.IndexFunc(got, func(m testkit.Msg) bool { return strings.Contains(m.Text, "“Play sample”") }); i < 0 || strings.Contains(got[i].Text, "still working") {
		t.Errorf("a player's moving bars held the click as a page still working: %s", p.all())
	}
	if i := slices.IndexFunc(got, func(m testkit.Msg) bool { return strings.Contains(m.Text, "“Add to favourites”") }); i < 0 || regexp.MustCompile(`It now shows:.*"Add to favourites`).MatchString(got[i].Text) {
		t.Errorf("a tooltip the mouse brought up on the way to the click was reported as news: %s", p.all())
	}
	// The click that sent nothing redrew a list as it was and a countdown a second on, while a
	// clock moved on.
	for _, news := range []string{"heard back", "It now shows", "new text", "The page says"} {
		if strings.Contains(got[3].Text, news) {
			t.Errorf("a click that sent nothing and showed nothing new: %s", got[3].Text)
		}
	}
}

// A link that goes nowhere says so: Chrome's error page for a site that does not resolve is
// not "the page changed to …", and a page read there says what it is, with Chrome's reason
// (its host name does not exist: a mistake in the address, not a site that is down); a link to a server that
// never answers says where the tab is going and that it still shows the page it was on. A link
// to a part of the same page is not a new page either, and one to another app (mailto:) says
// it asks the browser to open that app.
func TestALinkThatGoesNowhereSaysSo(t *testing.T) {
	site := testkit.NewSite(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/" // a port nothing listens on
	l.Close()
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `link "the notes below"`)}),
				call("click", obj{"ref": refIn(t, c, `link "Follow"`)}),
				call("click", obj{"ref": refIn(t, c, `link "write to us"`)}),
				call("click", obj{"ref": refIn(t, c, `link "a site whose name does not resolve"`)}),
			}
		},
		calls(call("snapshot", nil)),
		calls(call("click", obj{"ref": "e2"})), // a ref of the page it left
		calls(call("navigate", obj{"url": "http://unreachable.invalid/x"})),
		// Written as people type a local server's address: without "http://".
		calls(call("navigate", obj{"url": strings.TrimPrefix(site.Page("away.html"), "http://")})),
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("click", obj{"ref": refIn(t, c, `link "a page whose server never answers"`)})}
		},
		calls(call("navigate", obj{"url": closed})),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("away.html"))
	// The user lets the task act on this site: a link to another app asks all the same (what it
	// does happens outside the browser), as a password field does.
	allowSite(t, panel, site.URL)
	runAgent(t, panel, "read on")
	var perms struct {
		Audit []struct{ What, Decision string }
	}
	if err := json.Unmarshal([]byte(JS[string](t, panel, `skiffTest.call("permission.list").then(r => JSON.stringify(r))`)), &perms); err != nil {
		t.Fatal(err)
	}
	decided := map[string]string{}
	for _, a := range perms.Audit {
		for _, name := range []string{"write to us", "the notes below"} {
			if strings.Contains(a.What, name) {
				decided[name] = a.Decision
			}
		}
	}
	if decided["write to us"] != "you allowed it once" || !strings.HasPrefix(decided["the notes below"], "allowed:") {
		t.Errorf("the link to an email app was decided %q (want asked), the link on the page %q (want allowed by the policy)", decided["write to us"], decided["the notes below"])
	}
	got := p.since(1)
	want := []struct {
		text  string
		error bool
	}{
		{`Clicked link “the notes below” [e4]. It went to #notes on the same page.`, false},
		{`Clicked link “Follow” [e5].`, false},
		{`Clicked link “write to us” [e3]. The link asks the browser to open an email app (mailto:someone@example.com?subject=Hello); Chrome may ask the user first, and the page stays as it was.`, false},
		{`Clicked link “a site whose name does not resolve” [e1]. Chrome could not load http://unreachable.invalid/ and shows its error page (net::ERR_NAME_NOT_RESOLVED): its host name does not exist: check the address for a mistake`, false},
		{`The tab shows Chrome's error page: http://unreachable.invalid/ could not be loaded (net::ERR_NAME_NOT_RESOLVED): its host name does not exist`, true},
		{`The tab shows Chrome's error page: http://unreachable.invalid/ could not be loaded (net::ERR_NAME_NOT_RESOLVED): its host name does not exist`, true},
		{`Chrome could not load http://unreachable.invalid/x and shows its error page (net::ERR_NAME_NOT_RESOLVED)`, true},
		{`Loaded: "Links away"`, false},
		{``, false},
		{`Clicked link “a page whose server never answers” [e2]. It is going to ` + site.URL + `/slow?ms=200000, which has not answered after 8s; the tab still shows ` + site.Page("away.html") + ` until it does.`, false},
		{`Chrome could not load ` + closed + ` and shows its error page (net::ERR_CONNECTION_REFUSED): nothing answered at that address`, true},
	}
	if len(got) != len(want) {
		t.Fatalf("results: %s", p.all())
	}
	for i, w := range want {
		if !strings.Contains(got[i].Text, w.text) || got[i].Error != w.error || i < 3 && strings.Contains(got[i].Text, "changed") {
			t.Errorf("call %d: want %q (error %v) in %+v", i+2, w.text, w.error, got[i])
		}
	}
}

// Lists a page draws itself are chosen from as a person does: a select of divs is opened and
// its option clicked (Select2's tree of treeitems too), a field that suggests after a request is typed into and the suggestion
// that is exactly the value clicked (one that only holds it is offered, not chosen), an open
// list of several choices gets each clicked, and fill_form types into a field that suggests
// (choosing a suggestion may search or go somewhere: select_option does it when asked).
// A web component's list, in its shadow root with its options slotted from the page, is found
// too, as are a closed listbox that shows only its chosen option (Choices.js: it is opened) and
// a search field emptied once a choice is made, the choice drawn beside it in its box (Tom
// Select: the box is read), and a list that opens with a search field and asks for a letter,
// or draws its search field in the control, looking up what is typed (Select2 with a remote
// source: the value is typed there and the option it finds clicked). What the control shows
// afterwards is read back; a button that says it opens a list, or a dialog holding one (a phone
// field's country picker), is chosen from too, its choice read from its name; and a field that
// shows its choice in a box of its own and is drawn see-through once it does (react-select)
// is read by that box and chosen in again. A button is not opened as a list: a
// click is judged as a click.
func TestListsAPageDrawsAreChosenFromAsAPersonDoes(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("select_option", obj{"ref": refIn(t, c, `combobox "Size"`), "values": []string{"medium"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Choose"`), "values": []string{"Germany"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Airport"`), "values": []string{"CDG"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Airport"`), "values": []string{"Paris Orly (ORY)"}}),
				call("select_option", obj{"ref": refIn(t, c, `listbox "Interests"`), "values": []string{"Music", "Sport"}}),
				call("select_option", obj{"ref": refIn(t, c, `listbox "Interests"`), "values": []string{"Chess"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Size"`), "values": []string{"XXL"}}),
				call("select_option", obj{"ref": refIn(t, c, `button "Clear all"`), "values": []string{"All"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Seat"`), "values": []string{"Aisle"}}),
				call("select_option", obj{"ref": refIn(t, c, `listbox "Meal"`), "values": []string{"Fish"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Port"`), "values": []string{"Lisbon"}}),
				call("fill_form", obj{"fields": []any{
					obj{"ref": refIn(t, c, `combobox "Size"`), "value": "Large"},
					obj{"ref": refIn(t, c, `combobox "Browser"`), "value": "Firefox"},
				}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Search a town"`), "values": []string{"Porto"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Labels"`), "values": []string{"gift", "fragile"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Search a town"`), "values": []string{"Atlantis"}}),
				call("select_option", obj{"ref": refIn(t, c, `searchbox`), "values": []string{"urgent"}}),
				call("select_option", obj{"ref": refIn(t, c, `button "Change country`), "values": []string{"Portugal"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Colour"`), "values": []string{"Blue"}}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Colour"`), "values": []string{"Green"}}),
				call("snapshot", obj{"interactive": true}),
			}
		},
		// Typed into, as models do: a list the page draws chooses the option the text names.
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `combobox "Seat"`), "text": "Window"})}
		},
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("lists.html"))
	runAgent(t, panel, "plan the trip")
	want := []string{
		`Chose "Medium" in combobox “Size”. It shows "Medium".`,
		`Chose "Germany" in combobox “Germany”. It shows "Germany".`,
		`Typed "CDG" into combobox “Airport”, which suggests "Paris Charles de Gaulle (CDG)"; none is exactly that, so none was chosen`,
		`Chose "Paris Orly (ORY)" in combobox “Airport”. It shows "Paris Orly (ORY)".`,
		`Chose "Music", "Sport" in listbox “Interests”.`,
		`Option "Chess" of listbox “Interests” is disabled`,
		`Combobox “Size” has no option "XXL"; it offers "Small", "Medium", "Large"`,
		`is not a drop-down or a list to choose from; click it instead`,
		`Chose "Aisle" in combobox “Seat”. It shows "Aisle".`,
		`Chose "Fish" in listbox “Meal”.`,
		`Chose "Lisbon" in combobox “Port”. It shows "Lisbon".`,
		"Chose \"Large\" in combobox “Size”. It shows \"Large\"\n- combobox “Browser” [e",
		`Chose "Porto" in combobox “Porto”. It shows "Porto".`,
		`Chose "gift", "fragile" in combobox “Labels”. It shows "× gift × fragile".`,
		`Combobox “Porto” found no option for "Atlantis" typed into its search field`,
		`is a text field, not a list to choose from; type the value into it`,
		`Chose "Portugal (+351)" in button “Change country, currently selected Portugal (+351)”. It shows "+351".`,
		`Chose "Blue" in combobox “Colour”. It shows "Blue".`,
		`Chose "Green" in combobox “Colour”. It shows "Green".`,
	}
	got := p.since(1) // after the first snapshot
	if ty := got[len(got)-1]; ty.Error || !strings.Contains(ty.Text, `It is a list to choose from: the text chose its option. Chose "Window" in combobox “Seat”`) {
		t.Errorf("type into a list the page draws: %s", ty.Text)
	}
	got = got[:len(got)-1]
	if len(got) != len(want)+1 {
		t.Fatalf("%d results for %d: %s", len(got), len(want), p.all())
	}
	// The field drawn see-through once it shows its choice is still there to choose again.
	if last := got[len(want)].Text; !strings.Contains(last, `combobox "Colour" [e`) {
		t.Errorf("after the choice, the snapshot has no field to choose again in:\n%s", last)
	}
	got = got[:len(want)]
	shows := regexp.MustCompile(`It shows "([^"]+)"`)
	for i, w := range want {
		if !strings.Contains(got[i].Text, w) || got[i].Error != (i >= 5 && i <= 7 || i == 14 || i == 15) {
			t.Errorf("call %d: want %q in %s", i+1, w, got[i].Text)
		}
		if strings.Contains(got[i].Text, "It filled") { // the list chosen in is not news to itself
			t.Errorf("call %d: %s", i+1, got[i].Text)
		}
		if m := shows.FindStringSubmatch(got[i].Text); m != nil && strings.Contains(got[i].Text, `It now shows: "`+m[1]+`"`) {
			t.Errorf("call %d says what the list shows twice: %s", i+1, got[i].Text)
		}
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("log").textContent + " " + document.getElementById("browser").value`); got != "size=Medium;country=de;airport=Paris Orly (ORY);interest=Music;interest=Sport;seat=Aisle;meal=Fish;port=Lisbon;size=Large;town=Porto;label=gift;label=fragile;country code=+351;colour=Blue;colour=Green;seat=Window; Firefox" {
		t.Errorf("the page: %q", got)
	}
}

// Controls drawn as buttons, as Radix (shadcn/ui) and Headless UI draw them (drawn.html): a
// checkbox and a switch named by their <label for>, a tab panel's text kept though the panel
// takes the focus, a drop-down showing its choice as its value; clicked, the drop-down (which
// opens on a pointerdown it cancels, so no mousedown comes) is not said to have missed; while
// its list is open, a button the page hid with the rest is said to be behind it; choosing
// closes the list and reveals nothing, and the check mark drawn in the checkbox is not news.
// What get_content reads keeps the page's lines apart, so the labels of a settings page do
// not run together into a sentence that reads like instructions. A field whose label the page
// hid with the rest while its suggestions show is still named by it.
func TestControlsDrawnAsButtons(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil), call("get_content", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `checkbox "Accept terms and conditions"`)}),
				call("click", obj{"ref": refIn(t, c, `combobox "Plan"`)}),
				call("snapshot", nil),
			}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `button "Save"`)}),
				call("click", obj{"ref": refIn(t, c, `option "Pro"`)}),
				call("snapshot", nil),
			}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `button "Save"`)}),
				call("type", obj{"ref": refIn(t, c, `combobox "Coupon"`), "text": "save"}),
				call("snapshot", nil),
			}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "drawn.html", "take the Pro plan")
	snaps, clicks, content := p.results("snapshot"), p.results("click"), p.results("get_content")
	if len(snaps) != 4 || len(clicks) != 5 || len(content) != 1 {
		t.Fatalf("%d snapshots, %d clicks, %d get_content: %s", len(snaps), len(clicks), len(content), p.all())
	}
	for _, want := range []string{
		`checkbox "Accept terms and conditions" [e`,
		`switch "Email notifications" [e`,
		`tabpanel "Password" [e5]: Make changes to your password here.`,
		`combobox "Plan" [e1] collapsed value="Choose a plan…"`,
	} {
		if !strings.Contains(snaps[0].Text, want) {
			t.Errorf("the snapshot has no %q:\n%s", want, snaps[0].Text)
		}
	}
	if got := content[0].Text; !strings.Contains(got, "\nEmail notifications\nPassword\nMake changes to your password here.") || strings.Contains(got, "Skiff's warning") {
		t.Errorf("get_content: %s", got)
	}
	if got := clicks[0].Text; clicks[0].Error || !strings.Contains(got, "It is now checked.") || strings.Contains(got, "It now shows") {
		t.Errorf("the checkbox: %s", got)
	}
	if got := clicks[1].Text; clicks[1].Error || !strings.Contains(got, "It is now expanded.") {
		t.Errorf("opening the plans: %s", got)
	}
	if got := snaps[1].Text; !strings.Contains(got, `listbox "Plan" [e`) || !strings.Contains(got, `option "Pro" [e`) {
		t.Errorf("the open list: %s", got)
	}
	if got := clicks[2].Text; !clicks[2].Error || !regexp.MustCompile(`Button “Save” is behind listbox “Plan” \[e\d+\], which the page holds open over the rest: act in it, or close it first`).MatchString(got) {
		t.Errorf("Save behind the open list: %s", got)
	}
	if got := clicks[3].Text; clicks[3].Error || strings.Contains(got, "revealed") {
		t.Errorf("choosing Pro: %s", got)
	}
	if got := snaps[2].Text; !strings.Contains(got, `combobox "Plan" [e1] collapsed value="Pro"`) {
		t.Errorf("after the choice: %s", got)
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); got != `{"plan":"Pro","terms":"true","notify":"false"}` {
		t.Errorf("the form sent %s", got)
	}
	// The field's label, hidden with the rest while its suggestions show, still names it.
	if got := snaps[3].Text; !strings.Contains(got, `combobox "Coupon" [e`) || !strings.Contains(got, `option "SAVE20"`) {
		t.Errorf("the coupon's suggestions: %s", got)
	}
}

// A cookie box drawn as vanilla-cookieconsent draws it (a fixed box in a fixed wrapper of no
// size) is in the snapshot; controls named only by words kept for screen readers (an icon
// button's clipped "Share this story", a switch's see-through label) are named by them and
// acted on; switches drawn by their labels, unfolded, are said as revealed (and one seen before
// is not); the page's own text kept for screen readers only still reaches the model by no way.
func TestConsentBoxAndScreenReaderNames(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `button "Share this story"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Manage preferences"`)}),
				call("snapshot", obj{"interactive": true}),
			}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `checkbox "Analytics"`)}),
				call("click", obj{"ref": refIn(t, c, `link "2 services"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Save preferences"`)}),
				call("get_content", nil),
				call("find_text", obj{"text": "HIDDEN"}),
			}
		},
	}}
	panel, tab, m := p.runOn(t, site, "consent.html", "share the story and allow only analytics cookies")
	snaps, clicks := p.results("snapshot"), p.results("click")
	if len(snaps) != 2 || len(clicks) != 5 {
		t.Fatalf("%d snapshots, %d clicks: %s", len(snaps), len(clicks), p.all())
	}
	// The services' switches show as their labels do; the switch seen before is not news.
	if got := clicks[3].Text; !regexp.MustCompile(`It revealed checkbox “Google Analytics” \[e\d+\], checkbox “Hotjar” \[e\d+\]\.`).MatchString(got) || strings.Contains(got, "checkbox “Analytics”") {
		t.Errorf("unfolding the services: %s", got)
	}
	for _, want := range []string{`button "Share this story" [e1]`, `dialog "We use cookies" [e`, `button "Accept all" [e`} {
		if !strings.Contains(snaps[0].Text, want) {
			t.Errorf("the snapshot has no %q:\n%s", want, snaps[0].Text)
		}
	}
	for _, want := range []string{`button "Close" [e`, `checkbox "Analytics" [e`, `checkbox "Marketing" [e`} {
		if !strings.Contains(snaps[1].Text, want) {
			t.Errorf("the preferences have no %q:\n%s", want, snaps[1].Text)
		}
	}
	for i, c := range clicks {
		if c.Error {
			t.Errorf("click %d: %s", i+1, c.Text)
		}
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("consent").textContent + " " + document.getElementById("shared").textContent`); got != "analytics Link copied" {
		t.Errorf("the page got %q", got)
	}
	for _, c := range m.Conversations() {
		if strings.Contains(everything(c), "HIDDEN-SR") {
			t.Errorf("text kept for screen readers reached the model as the page's")
		}
	}
}

// A code editor that takes its text in a textarea it keeps out of sight (CodeMirror 5, Monaco,
// Ace; code-editor.html) is a textbox named by the textarea it replaced, holding the lines it
// shows without their numbers; typed into, lines go in as written (not indented again at each
// new line), what it held is replaced (its own Select all) or added to, and the read-back waits
// for the lines it draws a frame later. One that leaves a paste to the browser gets the text
// typed, and the result says it laid the lines out its own way.
func TestCodeEditorsTakeTheirTextInAFieldOutOfSight(t *testing.T) {
	site := testkit.NewSite(t)
	code := "def solve(n):\n    if n:\n        return n * 2\n    return 0"
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			ed := refIn(t, c, `textbox "Solution"`)
			return []testkit.Call{
				call("type", obj{"ref": ed, "text": "x = 1"}),
				call("type", obj{"ref": ed, "text": code}),
				call("type", obj{"ref": ed, "text": "\n# done", "clear": false}),
				call("snapshot", nil),
				call("click", obj{"ref": refIn(t, c, `button "Run"`)}),
				call("get_content", obj{"selector": "#out"}),
				call("navigate", obj{"url": site.Page("code-editor.html?nopaste")}),
				call("snapshot", nil),
			}
		},
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Solution"`), "text": code})}
		},
	}}
	p.runOn(t, site, "code-editor.html", "solve the problem")
	snaps, types := p.results("snapshot"), p.results("type")
	if len(snaps) != 3 || len(types) != 4 {
		t.Fatalf("%d snapshots, %d types: %s", len(snaps), len(types), p.all())
	}
	if want := `textbox "Solution" [e1] value="def solve(n): return n"`; !strings.Contains(snaps[0].Text, want) {
		t.Errorf("the snapshot has no %q:\n%s", want, snaps[0].Text)
	}
	for i, r := range types[:3] {
		if r.Error || !strings.Contains(r.Text, "into textbox “Solution” [e1].") || strings.Contains(r.Text, "holds") {
			t.Errorf("typing %d: %s", i+1, r.Text)
		}
	}
	if want := `value="def solve(n): if n: return n * 2 return 0 # done"`; !strings.Contains(snaps[1].Text, want) {
		t.Errorf("after typing, the snapshot has no %q:\n%s", want, snaps[1].Text)
	}
	if got := types[3].Text; !strings.Contains(got, `The editor laid it out its own way (its indentation differs): it holds "def solve(n):\n    if n:\n            return n * 2`) {
		t.Errorf("typing into the editor that indents each new line: %s", got)
	}
	// What the editor holds, as its page reads it: the lines as written.
	if got, want := p.results("get_content"), fmt.Sprintf("%q", code+"\n# done"); len(got) != 1 || !strings.Contains(got[0].Text, want) {
		t.Errorf("the editor holds %+v, want %s", got, want)
	}
}

// A toast that says an action is done (toasts.html, as react-hot-toast draws one: a loader
// turning under the opaque check mark painted over it, an entrance, gone after two seconds) is
// said by the click: the covered spinner is no sign the page is still working. One that shows
// a spinner while the work goes on (Sonner's promise toast) is waited for, and what came said.
func TestToastsAreHeardWhileTheyShow(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("click", obj{"ref": refIn(t, c, `button "Invite Ada"`)}),
				call("click", obj{"ref": refIn(t, c, `button "Remove Bob"`)}),
			}
		},
	}}
	p.runOn(t, site, "toasts.html", "invite Ada and remove Bob")
	clicks := p.results("click")
	if len(clicks) != 2 {
		t.Fatalf("calls: %s", p.all())
	}
	for i, want := range []string{`The page says: "Invite sent to ada@example.com"`, `The page says: "Bob was removed from the team"`} {
		if !strings.Contains(clicks[i].Text, want) || clicks[i].Error {
			t.Errorf("click %d: want %q in %s", i+1, want, clicks[i].Text)
		}
	}
}

// Web components as Material Web builds them (material.html): a text field whose input sits in
// a box drawn see-through until it has the focus, a checkbox input drawn see-through over its
// box and labelled by the label around its element, a radio with no input at all (its role
// given through ElementInternals) named by its label, a switch on the element that keeps a
// native one inside it (Ionic), a date in three contenteditable sections
// drawn see-through while empty (MUI X), and a menu that draws its options in one after the
// other. Each is found, named, and used as a person uses it.
func TestWebComponentsAsMaterialDrawsThem(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{
				call("type", obj{"ref": refIn(t, c, `textbox "Full name"`), "text": "Ada Lovelace"}),
				call("click", obj{"ref": refIn(t, c, `checkbox "Accept the terms"`)}),
				call("click", obj{"ref": refIn(t, c, `clickable "Large"`)}),
				call("click", obj{"ref": refIn(t, c, `switch "Push notifications"`)}),
				call("type", obj{"ref": refIn(t, c, `spinbutton "Month"`), "text": "12"}),
				call("type", obj{"ref": refIn(t, c, `spinbutton "Day"`), "text": "24"}),
				call("type", obj{"ref": refIn(t, c, `spinbutton "Year"`), "text": "2026"}),
				call("select_option", obj{"ref": refIn(t, c, `combobox "Plan"`), "values": []string{"Team"}}),
				call("click", obj{"ref": refIn(t, c, `button "Create account"`)}),
			}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "material.html", "create an account for Ada on the Team plan")
	got := p.since(1)
	if len(got) != 9 {
		t.Fatalf("calls: %s", p.all())
	}
	// A switch drawn by a custom element that keeps a native one inside it is one control.
	if n := strings.Count(p.results("snapshot")[0].Text, `switch "Push notifications"`); n != 1 {
		t.Errorf("the switch is listed %d times:\n%s", n, p.results("snapshot")[0].Text)
	}
	for i, want := range []string{
		`Typed 12 characters into textbox “Full name” [e1].`,
		`Clicked checkbox “Accept the terms” [e2]. It is now checked.`,
		`Clicked x-radio “Large” [e4].`,
		`Clicked switch “Push notifications” [e5]. It is now on.`,
		`Typed 2 characters into spinbutton “Month”`,
		`Typed 2 characters into spinbutton “Day”`,
		`Typed 4 characters into spinbutton “Year”`,
		`Chose "Team" in combobox “Plan”. It shows "Team".`,
		`Clicked button “Create account”`,
	} {
		if !strings.Contains(got[i].Text, want) || got[i].Error {
			t.Errorf("call %d: want %q in %s", i+1, want, got[i].Text)
		}
	}
	if v := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); v != `{"name":"Ada Lovelace","terms":"on","size":"l","push":"on","start":"2026-12-24","plan":"team"}` {
		t.Errorf("the form sent %s", v)
	}
}

// A page that scrolls in boxes of its own (a chat app: the page never scrolls, its channel list
// and its messages do, pinned items scroll sideways; a dialog's terms over a long page) is
// scrolled the way a person scrolls it: the snapshot says which boxes scroll and how far, a
// scroll given a box and a way scrolls that box (not the element into view, which moved
// nothing and was said to have), waits for what scrolling to its end loads, and says so; with
// a modal dialog open, a scroll without a box scrolls the dialog's, not the page behind it.
func TestBoxesThatScrollAreScrolled(t *testing.T) {
	site := testkit.NewSite(t)
	ref := func(snap, pattern string) string {
		if m := regexp.MustCompile(pattern).FindStringSubmatch(snap); m != nil {
			return m[1]
		}
		return "e0"
	}
	p := &plan{}
	p.steps = []step{
		calls(call("snapshot", nil)),
		func(*testkit.Conversation) []testkit.Call {
			s := p.results("snapshot")[0].Text
			return []testkit.Call{
				call("scroll", obj{"ref": ref(s, `navigation "Channels" \[(e\d+)\]`), "direction": "down"}),
				call("scroll", obj{"ref": ref(s, `\n\s*scrollable \[(e\d+)\] \([^)]*below\)`), "direction": "bottom"}),
				call("scroll", obj{"ref": ref(s, `button "Pin 1" \[(e\d+)\]`), "direction": "right"}),
			}
		},
		calls(call("snapshot", nil)),
		calls(call("navigate", obj{"url": site.Page("terms.html")})),
		calls(call("click", obj{"selector": "#open"})),
		calls(call("scroll", obj{"direction": "bottom"})),
		calls(call("click", obj{"selector": "#agree"})),
	}
	panel, tab, _ := p.runOn(t, site, "scrollers.html", "catch up on the chat, then sign up")
	snaps, scrolls := p.results("snapshot"), p.results("scroll")
	if len(snaps) != 2 || len(scrolls) != 4 {
		t.Fatalf("calls: %s", p.all())
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`navigation "Channels" \[e\d+\] scrollable \(\d+(\.\d)? screens below\)`),
		regexp.MustCompile(`scrollable \[e\d+\] \(\d+(\.\d)? screens below\):`),
	} {
		if !want.MatchString(snaps[0].Text) {
			t.Errorf("the first snapshot does not say which boxes scroll (%s):\n%s", want, snaps[0].Text)
		}
	}
	if !strings.Contains(snaps[0].Text, `button "Pin 12"`) || !strings.Contains(snaps[1].Text, `link "channel-1" [`) {
		t.Errorf("what a box scrolls to (the pins along the strip, the channels the list was scrolled past) is left out:\n%s\n%s", snaps[0].Text, snaps[1].Text)
	}
	if n := strings.Count(snaps[0].Text, "scrollable"); n != 3 {
		t.Errorf("the snapshot marks %d boxes that scroll, not 3:\n%s", n, snaps[0].Text)
	}
	// The strip of pins scrolls sideways, and says so: at its start, then past a screen of it.
	strip := regexp.MustCompile(`\n\s*scrollable \[e\d+\] \(([^)]*)\):\n\s*button "Pin 1"`)
	if m := strip.FindStringSubmatch(snaps[0].Text); m == nil || !regexp.MustCompile(`^\d+(\.\d)? screens to the right$`).MatchString(m[1]) {
		t.Errorf("the first snapshot does not say the pins scroll sideways:\n%s", snaps[0].Text)
	}
	if m := strip.FindStringSubmatch(snaps[1].Text); m == nil || !regexp.MustCompile(`^\d+(\.\d)? screens? to the left, \d+(\.\d)? to the right$`).MatchString(m[1]) {
		t.Errorf("once scrolled, the strip does not say it goes both ways:\n%s", snaps[1].Text)
	}
	if r := scrolls[0]; r.Error || !strings.Contains(r.Text, `in navigation “Channels”`) || strings.Contains(r.Text, "into view") {
		t.Errorf("scrolling the channel list: %s", r.Text)
	}
	if r := scrolls[1]; r.Error || !strings.Contains(r.Text, "More came in") {
		t.Errorf("scrolling the messages to their end: %s", r.Text)
	}
	if r := scrolls[2]; r.Error || !strings.Contains(r.Text, "sideways") {
		t.Errorf("scrolling the pinned items: %s", r.Text)
	}
	if !strings.Contains(snaps[1].Text, "Message 40 of the day") {
		t.Errorf("the messages loaded at the end are not in the next snapshot:\n%s", snaps[1].Text)
	}
	if r := scrolls[3]; r.Error || !strings.Contains(r.Text, "This is its end") {
		t.Errorf("scrolling the terms in the dialog: %s", r.Text)
	}
	if c := p.results("click"); len(c) != 2 || c[1].Error {
		t.Errorf("I agree: %s", p.all())
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("done").textContent + "|" + Math.round(scrollY)`); got != "Welcome aboard|0" {
		t.Errorf("after agreeing to the terms, the page says %q (and is scrolled to): the page behind the dialog was scrolled, not the terms", got)
	}
}

// A list the browser draws (a <select>) is chosen from as a person reads it, as the lists a
// page draws are: by the option's name in any case and spacing, or by the part of it only one
// option holds ("Spa" for Spain); a part several hold, or none, says which options there are.
func TestASelectIsChosenFromByWhatItsOptionsSay(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			ref := refIn(t, c, `combobox "Country"`)
			return []testkit.Call{
				call("select_option", obj{"ref": ref, "values": []string{" portugal "}}),
				call("select_option", obj{"ref": ref, "values": []string{"a"}}),
				call("select_option", obj{"ref": ref, "values": []string{"Germany"}}),
				call("select_option", obj{"ref": ref, "values": []string{"Spa"}}),
			}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "form.html", "I live in Spain")
	s := p.results("select_option")
	if len(s) != 4 {
		t.Fatalf("calls: %s", p.all())
	}
	if s[0].Error || s[3].Error || !strings.Contains(s[3].Text, `"Spain"`) {
		t.Errorf("choosing by the name and by the part only one holds: %s", p.all())
	}
	if !s[1].Error || !strings.Contains(s[1].Text, `matches several options`) || !strings.Contains(s[1].Text, `"Portugal"`) {
		t.Errorf("a part several options hold: %s", s[1].Text)
	}
	if !s[2].Error || !strings.Contains(s[2].Text, `has no option "Germany"; it has "France", "Portugal", "Spain"`) {
		t.Errorf("an option it does not have: %s", s[2].Text)
	}
	if got := inTab[string](t, panel, tab, `document.querySelector("select[name=country]").value`); got != "Spain" {
		t.Errorf("the country chosen: %q", got)
	}
}

// A link that says nothing (a shop's tile: a picture without alt text) is told apart by where
// it leads, and the model picks the one it wants by that; a link with words is not given its
// address as well.
func TestLinksWithoutWordsSayWhereTheyLead(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			re := regexp.MustCompile(`link \[(e\d+)\] href="/site/counter.html\?item=blue-boot"`)
			return []testkit.Call{call("click", obj{"ref": refMatching(t, c, re, "the blue boot's tile")})}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "tiles.html", "show me the blue boots")
	snap := p.results("snapshot")[0].Text
	for _, want := range []string{`href="/site/counter.html?item=red-runner"`, `href="https://elsewhere.example/sale"`, `href="javascript:…"`, `link "Green sandal" [e`} {
		if !strings.Contains(snap, want) {
			t.Errorf("the snapshot lacks %s:\n%s", want, snap)
		}
	}
	if strings.Contains(snap, "green-sandal") {
		t.Errorf("a link with words is given its address too:\n%s", snap)
	}
	if got := inTab[string](t, panel, tab, `location.search`); got != "?item=blue-boot" {
		t.Errorf("the click led to %q, not the blue boot: %s", got, p.all())
	}
}

// A box that holds a hidden checkbox and the label drawn for it (checks.html's last row, a
// div as wide as the form): the label stands for the checkbox, as a person clicks it, not the
// box, whose middle is empty space beside the label. A box that draws the control around the
// input with no label in it is the control (Element Plus's switch: vendor-element.html).
func TestABoxHoldingAHiddenCheckboxAndItsLabel(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `checkbox "Remember me here"`),
	}}
	panel, tab, _ := p.runOn(t, site, "checks.html", "remember me")
	if c := p.results("click"); len(c) != 1 || c[0].Error || !strings.Contains(c[0].Text, "It is now checked.") {
		t.Errorf("the click: %s", p.all())
	}
	if !inTab[bool](t, panel, tab, `document.getElementById("stay").checked`) {
		t.Error("the box is not checked")
	}
}

// A key that types nothing can still change what a field holds: Escape in Ant Design's date
// field undoes the day typed into it (vendor-antd.html, unmodified antd 6.6.8), and Tab drops a
// day written in a form it cannot read, which it marks as not valid as it is typed. Each result
// says so; Tab after a day it reads, which keeps it, says nothing of the kind.
func TestAKeyThatUndidWhatAFieldHeldSaysSo(t *testing.T) {
	site := testkit.NewSite(t)
	day := "2026-12-15"
	typeDay := func(day string) step {
		return func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("type", obj{"ref": refIn(t, c, `textbox "Start date"`), "text": day})}
		}
	}
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		typeDay("15/12/2026"), calls(call("press_key", obj{"key": "Tab"})),
		typeDay(day), calls(call("press_key", obj{"key": "Escape"})),
		typeDay(day), calls(call("press_key", obj{"key": "Tab"})),
	}}
	panel, tab, _ := p.runOn(t, site, "vendor-antd.html", "start on the 15th")
	k, ty := p.results("press_key"), p.results("type")
	if len(k) != 3 || !strings.Contains(k[0].Text, `held "15/12/2026" and now holds nothing: the page did not keep it`) ||
		!strings.Contains(k[1].Text, `held on Escape: it held "`+day+`" and now holds nothing. To keep a typed value, type it again and leave the field with Tab.`) ||
		strings.Contains(k[2].Text, "held") {
		t.Errorf("the keys: %s", p.all())
	}
	if len(ty) != 3 || !strings.Contains(ty[0].Text, "characters into textbox “Start date” [e3]. The page marks the field as not valid.\n") || strings.Contains(ty[1].Text, "not valid") {
		t.Errorf("the typing: %s", p.all())
	}
	if v := inTab[string](t, panel, tab, `document.querySelector("input[placeholder='Select date']").value`); v != day {
		t.Errorf("the field holds %q after Tab", v)
	}
}

// fill_form given a day for Ant Design's date field, then its form's radio and checkbox
// (vendor-antd.html): the calendar the typed field keeps open covers them, and fill_form leaves
// the field with Tab as a person does, which keeps the day, and goes on.
func TestFillFormLeavesAFieldThatKeepsAPickerOpen(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("fill_form", obj{"fields": []obj{{"ref": refIn(t, c, `textbox "Start date"`), "value": "2026-12-15"},
				{"ref": refIn(t, c, `radio "Yearly"`), "value": "true"}, {"ref": refIn(t, c, `checkbox "Send invoices by email"`), "value": "true"}}})}
		},
	}}
	panel, tab, _ := p.runOn(t, site, "vendor-antd.html", "start on the 15th, yearly, with invoices by email")
	if r := p.results("fill_form"); len(r) != 1 || r[0].Error || !strings.Contains(r[0].Text, "typed 10 characters (left with Tab, as a person does: it kept a picker open over the next field)\n- radio “Yearly” [e5]: checked\n- checkbox") {
		t.Errorf("fill_form: %s", p.all())
	}
	if v := inTab[string](t, panel, tab, `document.querySelector("input[placeholder='Select date']").value + " " + document.querySelector("input[value=yearly]").checked`); v != "2026-12-15 true" {
		t.Errorf("the form holds %q", v)
	}
}
