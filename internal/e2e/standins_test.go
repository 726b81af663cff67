//go:build !js

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// Drop-downs drawn for selects a library hides, by the real libraries (testdata/site/vendor):
// Chosen draws a control of its own right after each select, with no ARIA at all, whose list
// opens on a mousedown and takes a choice on a mouseup; jQuery Nice Select draws a div that
// takes the focus, whose list opens and takes a choice on clicks. The snapshot shows each as the drop-down it
// is (named by the select's label, with its value and its options), select_option chooses in
// it as a person does (one choice, a choice in a group, several in a multiple choice, a
// disabled one refused), and the form sends what was chosen: with the debugger, and with DOM
// events when DevTools holds it.
func TestDropDownsDrawnForHiddenSelects(t *testing.T) {
	for _, debugger := range []bool{true, false} {
		name := "debugger"
		if !debugger {
			name = "DOM events"
		}
		t.Run(name, func(t *testing.T) {
			site := testkit.NewSite(t)
			p := &plan{steps: []step{
				calls(call("snapshot", nil)),
				func(c *testkit.Conversation) []testkit.Call {
					return []testkit.Call{
						call("select_option", obj{"ref": refIn(t, c, `combobox "Country"`), "values": []string{"France"}}),
						call("select_option", obj{"ref": refIn(t, c, `combobox "Carrier"`), "values": []string{"UPS Standard"}}),
						call("select_option", obj{"ref": refIn(t, c, `combobox "Extras"`), "values": []string{"Gift wrap", "SMS updates"}}),
						call("select_option", obj{"ref": refIn(t, c, `combobox "Country"`), "values": []string{"Sweden"}}),
						call("select_option", obj{"ref": refIn(t, c, `combobox "Country"`), "values": []string{"Portugal"}}),
						call("select_option", obj{"ref": refIn(t, c, `combobox "Speed"`), "values": []string{"Overnight"}}),
						call("fill_form", obj{"fields": []any{obj{"ref": refIn(t, c, `combobox "Carrier"`), "value": "DHL Express"}}}),
						call("snapshot", nil),
					}
				},
				clickOn(t, `button "Ship it"`),
			}}
			m := testkit.NewModel(t, p.script)
			panel := agentPanel(t, "openai", m)
			tab := openTab(t, panel, site.Page("stand-ins.html"))
			allowSite(t, panel, site.URL)
			if !debugger {
				takeDebugger(t, panel, tab)
			}
			runAgent(t, panel, "ship it to Portugal by UPS overnight, gift wrapped, with SMS updates")
			snaps := p.results("snapshot")
			if len(snaps) != 2 {
				t.Fatalf("%d snapshots: %s", len(snaps), p.all())
			}
			for _, want := range []string{
				`combobox "Country" [e1] value="Choose a country…" options="Germany","France","Italy","Portugal","Spain","Sweden"`,
				`combobox "Carrier" [e2] value="Post" options="Post","DHL Express","UPS Standard"`,
				`combobox "Extras" [e3] options="Gift wrap","Insurance","SMS updates"`,
				`combobox "Speed" [e5] value="Standard" options="Standard","Express","Overnight"`,
			} {
				if !strings.Contains(snaps[0].Text, want) {
					t.Errorf("the snapshot has no %q:\n%s", want, snaps[0].Text)
				}
			}
			for _, want := range []string{`combobox "Country" [e1] value="Portugal"`, `combobox "Carrier" [e2] value="DHL Express"`, `combobox "Extras" [e3] value="Gift wrap, SMS updates"`, `combobox "Speed" [e5] value="Overnight"`} {
				if !strings.Contains(snaps[1].Text, want) {
					t.Errorf("after choosing, the snapshot has no %q:\n%s", want, snaps[1].Text)
				}
			}
			chose := p.results("select_option")
			want := []string{
				`Chose "France" in combobox “Country”. It shows "France".`,
				`Chose "UPS Standard" in combobox “Carrier”. It shows "UPS Standard".`,
				`Chose "Gift wrap", "SMS updates" in combobox “Extras”. It shows "Gift wrap, SMS updates".`,
				`Option "Sweden" of combobox “Country” is disabled.`,
				`Chose "Portugal" in combobox “Country”. It shows "Portugal".`,
				`Chose "Overnight" in combobox “Speed”. It shows "Overnight".`,
			}
			if len(chose) != len(want) {
				t.Fatalf("%d select_option results: %s", len(chose), p.all())
			}
			for i, w := range want {
				if !strings.Contains(chose[i].Text, w) || chose[i].Error != (i == 3) {
					t.Errorf("select_option %d: want %q in %s", i+1, w, chose[i].Text)
				}
			}
			if f := p.results("fill_form"); len(f) != 1 || f[0].Error || !strings.Contains(f[0].Text, `Chose "DHL Express" in combobox “Carrier”. It shows "DHL Express"`) {
				t.Errorf("fill_form: %s", p.all())
			}
			forms := site.Forms()
			if len(forms) != 1 {
				t.Fatalf("%d forms sent: %s", len(forms), p.all())
			}
			if f := forms[0]; f.Get("country") != "PT" || f.Get("carrier") != "dhl" || f.Get("speed") != "night" || !slices.Equal(f["extras"], []string{"gift", "sms"}) {
				t.Errorf("the form sent %v", f)
			}
		})
	}
}

// select_option on selects widget libraries hide and draw again, unmodified
// (vendor-selects.html): Choices.js's box is named by the hidden select's label; Tom Select's
// field, typed into, marks the option the keys are on "selected", which is not a choice made:
// the option is clicked, and the form sends it, the second choice made in it too. Typed into,
// Tom Select keeps its list open over the form while its field has the focus (and opens it
// again a moment after a choice, when its search of the keys comes): a click under it leaves
// the field with Tab first, as a person does; so do a hover, a drag onto what it is over, and a
// choice in the select under it.
func TestSelectOptionOnWidgetLibrariesSelects(t *testing.T) {
	for _, kind := range []string{"choices", "tom"} {
		t.Run(kind, func(t *testing.T) {
			site := testkit.NewSite(t)
			p := &plan{steps: []step{
				calls(call("snapshot", nil)),
				func(c *testkit.Conversation) []testkit.Call {
					return []testkit.Call{call("select_option", obj{"ref": refIn(t, c, `combobox "Plan"`), "values": []string{"Team"}}),
						call("select_option", obj{"ref": refIn(t, c, `combobox "Plan"`), "values": []string{"Pro"}})}
				},
				clickOn(t, `button "Save"`),
			}}
			if kind == "tom" {
				// (Typed into, its list stays open over the button while the field has the
				// focus: the click leaves the field with Tab first, which keeps its choice.)
				p.steps = append(p.steps[:2], func(c *testkit.Conversation) []testkit.Call {
					plan := call("type", obj{"ref": refIn(t, c, `combobox "Plan"`), "text": "e"})
					return []testkit.Call{plan, call("select_option", obj{"ref": refIn(t, c, `combobox "Billing"`), "values": []string{"Yearly"}}),
						plan, call("hover", obj{"ref": refIn(t, c, `button "Save"`)}), plan, call("drag", obj{"selector": "h1", "to": obj{"ref": refIn(t, c, `button "Save"`)}}),
						plan, call("click", obj{"ref": refIn(t, c, `button "Save"`)})}
				})
			}
			// (Tom Select's list opens again once, and takes the focus back, as the field is
			// first left: it is left once more.)
			p.runOn(t, site, "vendor-selects.html?kind="+kind+"&reopen=1", "choose the Pro plan")
			Eventually(t, 20*time.Second, func() bool { return len(site.Forms()) == 1 }, "the run sent no form: "+p.all())
			if got := site.Forms()[0].Get("plan"); got != "Pro" {
				t.Errorf("the form sent %q: %s", got, p.all())
			}
			if r := p.results("select_option"); len(r) < 2 || r[1].Error || !strings.Contains(r[1].Text, `Chose "Pro" in combobox “Plan”.`) {
				t.Errorf("select_option: %s", p.all())
			}
			if kind != "tom" {
				return
			}
			left := `It first left combobox “Plan” with Tab, as a person does: it kept a list or a picker open over `
			if r := p.results("select_option"); len(r) != 3 || r[2].Error || !strings.Contains(r[2].Text, `Chose "Yearly" in combobox “Billing”`) ||
				!strings.Contains(r[2].Text, left+`combobox “Billing”. Leaving it, the page emptied it (it held "e").`) || site.Forms()[0].Get("billing") != "Yearly" {
				t.Errorf("select_option under Tom Select's list: %s", p.all())
			}
			if r := p.results("hover"); len(r) != 1 || r[0].Error || !strings.Contains(r[0].Text, left+`button “Save”.`) {
				t.Errorf("the hover under Tom Select's list: %s", p.all())
			}
			if r := p.results("drag"); len(r) != 1 || r[0].Error || !strings.Contains(r[0].Text, left+`button “Save”.`) {
				t.Errorf("a drag onto what Tom Select's list is over: %s", p.all())
			}
			if r := p.results("click"); len(r) != 1 || r[0].Error || !strings.Contains(r[0].Text,
				`Clicked button “Save” [e4]. `+left+`button “Save”. Leaving it, the page emptied it (it held "e").`) {
				t.Errorf("the click under Tom Select's list: %s", p.all())
			}
		})
	}
}
