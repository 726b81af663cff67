package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// snap reads a real page's snapshot (as ext/page/skiff.js read it in Chromium).
func snap(t testing.TB, name string) *tool.Snap {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "tool", "testdata", "snapshots", name+".json"))
	require.NoError(t, err)
	var s tool.Snap
	require.NoError(t, json.Unmarshal(b, &s))
	return &s
}

// Every element of every real page, described as the recorder describes it (its role and name,
// with the heading above it and its place among its namesakes read from the snapshot text the
// model saw), is found again: the same element, not one that looks like it.
func TestMatchFindsEveryElementOfRealPages(t *testing.T) {
	total, dups, hinted := 0, 0, 0
	var m *Matcher
	pages := realElements(t, 150, func(name string, s *tool.Snap, text string, c candidate) {
		if m == nil || m.snap != s {
			m = NewMatcher(s, site(s.URL))
		}
		tg := Target{Role: c.n.Role, Name: strings.Join(strings.Fields(c.n.Said()), " "), Frame: c.frame}
		if tg.Name == "" {
			tg.Hint = hintOf(text, c.n.Ref)
			if tg.Hint != "" {
				hinted++
			}
		}
		tg.Nth, tg.Near = seen(text, c.n.Ref, tg)
		if tg.Nth > 0 {
			dups++
		}
		total++
		role := c.n.Role
		if role == "" {
			role = "generic"
		}
		assert.True(t, Shows(text, tool.Element{Ref: c.n.Ref, Role: role, Name: c.n.Said()}), "%s: the snapshot shows %s", name, tg.Words())
		got, err := m.Match(tg)
		if !assert.NoError(t, err, "%s: %s", name, tg.Words()) {
			return
		}
		assert.Equal(t, c.n.Ref, got, "%s: %s (near %q, nth %d)", name, tg.Words(), tg.Near, tg.Nth)
	})
	t.Logf("%d elements of %d pages found again, %d of them one of several namesakes, %d nameless told by their hint", total, pages, dups, hinted)
	assert.Greater(t, dups, 50, "the pages have namesakes to tell apart")
	assert.Greater(t, hinted, 5, "the pages have controls without a name")
}

// realElements calls f with the interactive elements of every recorded real page that its
// snapshot's text shows (every one of the smaller pages, about per of the larger), and returns
// how many pages there are.
func realElements(t *testing.T, per int, f func(page string, s *tool.Snap, text string, c candidate)) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "tool", "testdata", "snapshots", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		s := snap(t, name)
		text := tool.Format(s, tool.SnapOptions{MaxTokens: 1 << 22})
		cands := flatten(s)
		for i := 0; i < len(cands); i += max(1, len(cands)/per) {
			if c := cands[i]; c.n.Interactive() && strings.Contains(text, " ["+c.n.Ref+"]") {
				f(name, s, text, c)
			}
		}
	}
	return len(files)
}

// A target whose element was renamed is a Miss that says what the page has instead.
func TestMatchSaysWhatThePageHasInstead(t *testing.T) {
	s := snap(t, "webmd-1")
	_, err := Match(s, Target{Role: "button", Name: "Search"}, site(s.URL))
	var m *Miss
	require.ErrorAs(t, err, &m)
	assert.Contains(t, m.Why, "the page has no button “Search”")
	assert.Contains(t, m.Why, "button “Submit”")
}

// icons is a list of addresses, each with a pencil and a bin drawn as icons only (no name, no
// words), the page's code calling them "edit" and "trash"; first, when given, a button it
// added before them.
func icons(first string, rows ...string) *tool.Snap {
	s := &tool.Snap{URL: "https://shop.test/addresses", Title: "Addresses"}
	ref := 0
	button := func(hint string) tool.Item {
		ref++
		return tool.Item{Node: &tool.Node{Role: "button", Ref: fmt.Sprintf("e%d", ref), Hint: hint}}
	}
	if first != "" {
		s.Tree = append(s.Tree, button(first))
	}
	for _, r := range rows {
		s.Tree = append(s.Tree, tool.Item{Text: r}, button("edit"), button("trash"))
	}
	return s
}

// The bin of the second row, recorded as a nameless button, is the second row's bin on the page
// again when the page added a nameless button before the rows (a share icon): not the control
// that is now where it was, and not the first bin. A page whose bins are gone says so.
func TestANamelessControlIsFoundAgainByWhatItsPageCallsIt(t *testing.T) {
	then := icons("", "1 Harbour Road", "2 Quay Street")
	text := tool.Format(then, tool.SnapOptions{})
	require.Contains(t, text, `button [e4] hint="trash"`)
	bin := tool.Element{Ref: "e4", Role: "button", Tag: "button", Hint: "trash", Origin: site(then.URL)}
	w, err := Record("Remove an address", "", []Call{{Tool: "click", Args: json.RawMessage(`{"ref":"e4"}`), Elements: []tool.Element{bin}, URL: then.URL, Seen: text}})
	require.NoError(t, err)
	require.Len(t, w.Steps, 2) // the page it was on, and the click
	tg := w.Steps[1].Targets[0]
	assert.Equal(t, "trash", tg.Hint)
	assert.Equal(t, "button (trash)", tg.Words())

	now := icons("share", "1 Harbour Road", "2 Quay Street")
	got, err := Match(now, tg, site(now.URL))
	require.NoError(t, err)
	assert.Equal(t, "e5", got, "the second row's bin (e4 is now its pencil, e3 the first bin)")

	_, err = Match(icons("share"), tg, site(now.URL))
	var m *Miss
	require.ErrorAs(t, err, &m)
	assert.Contains(t, m.Why, "the page has no button (trash); it has button (share)")
}

// fakeBrowser is the page a replay sees and the guarded path it calls: it answers with a real
// page's snapshot and keeps the calls it was asked to make.
type fakeBrowser struct {
	snap  *tool.Snap
	links []tool.Link // the page's links, when it shows them
	calls []string
	shown []string
	fail  map[int]Outcome
}

func (b *fakeBrowser) runner(w *Workflow, values map[string]string) *Runner {
	r := &Runner{Workflow: w, Values: values, Wait: 1,
		Read: func(context.Context, int) (*tool.Snap, error) { return b.snap, nil },
		Call: func(_ context.Context, k int, args, shown json.RawMessage) Outcome {
			b.calls, b.shown = append(b.calls, string(args)), append(b.shown, string(shown))
			if o, ok := b.fail[k]; ok {
				return o
			}
			return Outcome{OK: true}
		}}
	if b.links != nil {
		r.Links = func(_ context.Context, _ int, filter string) ([]tool.Link, error) {
			var out []tool.Link // as the page filters them
			for _, l := range b.links {
				if strings.Contains(strings.ToLower(l.Text+" "+l.Href), strings.ToLower(filter)) {
					out = append(out, l)
				}
			}
			return out, nil
		}
	}
	return r
}

// A run on webmd (search for "flu", press Submit, with a password typed on the way) as the agent
// made it, with the elements the page described before the gate.
func recorded(t testing.TB) (*Workflow, *tool.Snap) {
	s := snap(t, "webmd-1")
	text := tool.Format(s, tool.SnapOptions{})
	search := tool.Element{Ref: "e5", Role: "textbox", Name: "Enter Search Keywords. Use the arrow keys to navigate suggestions.", Tag: "input", Origin: site(s.URL)}
	pw := tool.Element{Ref: "e5", Role: "textbox", Name: "Enter Search Keywords. Use the arrow keys to navigate suggestions.", Tag: "input", Field: "password", Origin: site(s.URL)}
	submit := tool.Element{Ref: "e6", Role: "button", Name: "Submit", Tag: "button", Origin: site(s.URL)}
	calls := []Call{
		{Tool: "snapshot", Args: json.RawMessage(`{}`), URL: s.URL},
		{Tool: "type", Args: json.RawMessage(`{"ref":"e5","text":"flu","tabId":7}`), Elements: []tool.Element{search}, URL: s.URL, Seen: text},
		{Tool: "type", Args: json.RawMessage(`{"ref":"e5","text":"hunter2"}`), Elements: []tool.Element{pw}, URL: s.URL, Sensitive: true, Seen: text},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e6"}`), Elements: []tool.Element{submit}, URL: s.URL, Seen: text},
	}
	w, err := Record("Search WebMD", "", calls)
	require.NoError(t, err)
	require.NoError(t, w.Check())
	return w, s
}

func TestRecordMakesStepsAndParameters(t *testing.T) {
	w, s := recorded(t)
	require.Len(t, w.Steps, 4, "the page is loaded first, the read is dropped")
	assert.Equal(t, "navigate", w.Steps[0].Tool)
	assert.JSONEq(t, `{"url":"`+s.URL+`"}`, string(w.Steps[0].Args))
	assert.JSONEq(t, `{"ref":"@1","text":"{{enter_search_keywords}}"}`, string(w.Steps[1].Args), "no tab id, a parameter")
	assert.Equal(t, "click button “Submit”", w.Steps[3].What)
	require.Len(t, w.Params, 2)
	assert.Equal(t, Param{Name: "enter_search_keywords", Label: w.Steps[1].Targets[0].Name, Default: "flu"}, w.Params[0])
	assert.True(t, w.Params[1].Secret)
	assert.Empty(t, w.Params[1].Default)
	b, err := json.Marshal(w)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "hunter2", "a secret is never stored")
	assert.NotContains(t, string(b), `"e5"`, "no ref that dies with the page")
}

// A click on a checkbox, a radio or a switch is kept as the state it left it in, so that a
// replay on a page that shows it that way already leaves it so; other clicks, and a click
// whose state was not read, stay clicks.
func TestClicksOnCheckboxesAreKeptAsTheirState(t *testing.T) {
	on, off := true, false
	el := func(ref, role, name string) []tool.Element {
		return []tool.Element{{Ref: ref, Role: role, Name: name, Tag: "input", Origin: "http://shop.test"}}
	}
	w, err := Record("Settings", "", []Call{
		{Tool: "click", Args: json.RawMessage(`{"ref":"e1"}`), Elements: el("e1", "checkbox", "Newsletter"), URL: "http://shop.test/", Checked: &on},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e2"}`), Elements: el("e2", "switch", "Dark mode"), URL: "http://shop.test/", Checked: &off},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e3"}`), Elements: el("e3", "radio", "Pro"), URL: "http://shop.test/", Checked: &on},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e4"}`), Elements: el("e4", "checkbox", "Terms"), URL: "http://shop.test/"},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e1","double":true}`), Elements: el("e1", "checkbox", "Newsletter"), URL: "http://shop.test/", Checked: &on},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e5"}`), Elements: el("e5", "button", "Save"), URL: "http://shop.test/"},
	})
	require.NoError(t, err)
	require.NoError(t, w.Check())
	require.Len(t, w.Steps, 7) // the page is loaded first
	for i, want := range []string{
		`{"fields":[{"ref":"@1","value":"true"}]}`, `{"fields":[{"ref":"@1","value":"false"}]}`, `{"fields":[{"ref":"@1","value":"true"}]}`,
		`{"ref":"@1"}`, `{"ref":"@1","double":true}`, `{"ref":"@1"}`,
	} {
		assert.JSONEq(t, want, string(w.Steps[i+1].Args), "step %d", i+2)
	}
	assert.Equal(t, []string{"navigate", "fill_form", "fill_form", "fill_form", "click", "click", "click"}, tools(w))
	assert.Empty(t, w.Params, "a box's state is the step's, not a value asked for")
	assert.Equal(t, "check checkbox “Newsletter”", w.Steps[1].What)
	assert.Equal(t, "uncheck switch “Dark mode”", w.Steps[2].What)
}

func tools(w *Workflow) []string {
	var out []string
	for _, s := range w.Steps {
		out = append(out, s.Tool)
	}
	return out
}

func TestReplayWithNewValues(t *testing.T) {
	w, s := recorded(t)
	b := &fakeBrowser{snap: s}
	stop := b.runner(w, map[string]string{"enter_search_keywords": "measles", w.Params[1].Name: "s3cret"}).Run(context.Background(), 0)
	require.Nil(t, stop)
	require.Len(t, b.calls, 4)
	assert.JSONEq(t, `{"ref":"e5","text":"measles"}`, b.calls[1])
	assert.JSONEq(t, `{"ref":"e5","text":"s3cret"}`, b.calls[2])
	assert.JSONEq(t, `{"ref":"e5","text":"`+Masked+`"}`, b.shown[2], "what is shown and stored is masked")
	assert.JSONEq(t, `{"ref":"e6"}`, b.calls[3])
}

func TestReplayStopsWhereThePageChanged(t *testing.T) {
	w, s := recorded(t)
	values := map[string]string{"enter_search_keywords": "x", w.Params[1].Name: "y"}

	// The button was renamed.
	renamed := snap(t, "webmd-1")
	var rename func(items []tool.Item)
	rename = func(items []tool.Item) {
		for _, it := range items {
			if it.Node != nil {
				if it.Ref == "e6" {
					it.Name = "Go"
				}
				rename(it.Kids)
			}
		}
	}
	rename(renamed.Tree)
	b := &fakeBrowser{snap: renamed}
	stop := b.runner(w, values).Run(context.Background(), 0)
	require.NotNil(t, stop)
	assert.Equal(t, 3, stop.Step)
	assert.Equal(t, StopMissing, stop.Kind)
	assert.Equal(t, "Step 4: the page has no button “Submit”; it has button “Go”", stop.Error())
	assert.Len(t, b.calls, 3, "the steps before it ran, it did not")

	// Another site.
	other := *s
	other.URL = "https://elsewhere.test/"
	b = &fakeBrowser{snap: &other}
	stop = b.runner(w, values).Run(context.Background(), 1)
	require.NotNil(t, stop)
	assert.Equal(t, StopMoved, stop.Kind)
	assert.Contains(t, stop.Reason, "recorded on http://pages.test, and the tab shows https://elsewhere.test")
	assert.Empty(t, b.calls)

	// The gate said no.
	b = &fakeBrowser{snap: s, fail: map[int]Outcome{2: {Kind: StopDenied, Text: "The user did not allow this call."}}}
	stop = b.runner(w, values).Run(context.Background(), 0)
	require.NotNil(t, stop)
	assert.Equal(t, 2, stop.Step)
	assert.Equal(t, StopDenied, stop.Kind)
	assert.Equal(t, "The user did not allow this call.", stop.Reason)
	assert.Equal(t, "The user did not allow this call.", stop.Says.English(), "words the gate gave as they are")

	// A value is missing.
	b = &fakeBrowser{snap: s}
	stop = b.runner(w, map[string]string{"enter_search_keywords": "x"}).Run(context.Background(), 0)
	require.NotNil(t, stop)
	assert.Equal(t, StopValues, stop.Kind)
	assert.Empty(t, b.calls)
}

func TestCheckRefusesBrokenWorkflows(t *testing.T) {
	w, _ := recorded(t)
	for name, broke := range map[string]func(w *Workflow){
		"no name":        func(w *Workflow) { w.Name = " " },
		"unknown tool":   func(w *Workflow) { w.Steps[1].Tool = "format_disk" },
		"a read":         func(w *Workflow) { w.Steps[1].Tool = "read_text" },
		"stray param":    func(w *Workflow) { w.Steps[1].Args = json.RawMessage(`{"ref":"@1","text":"{{nope}}"}`) },
		"stray target":   func(w *Workflow) { w.Steps[1].Args = json.RawMessage(`{"ref":"@2","text":"a"}`) },
		"a raw ref":      func(w *Workflow) { w.Steps[1].Args = json.RawMessage(`{"ref":"e5","text":"a"}`) },
		"stored secret":  func(w *Workflow) { w.Params[1].Default = "hunter2" },
		"not an object":  func(w *Workflow) { w.Steps[1].Args = json.RawMessage(`[1]`) },
		"bad param name": func(w *Workflow) { w.Params[0].Name = "Has Space" },
	} {
		c := *w
		c.Steps = append([]Step(nil), w.Steps...)
		c.Params = append([]Param(nil), w.Params...)
		broke(&c)
		assert.Error(t, c.Check(), name)
	}
}

// The heading above an element, as tool.Format writes headings: quoted, after a colon, with an
// inline element, and lines that only look like one.
func TestHeadingLines(t *testing.T) {
	for line, want := range map[string]string{
		`  - h2 "Book \"now\"" [e4]`:           `Book "now"`,
		`- h1: Contact us`:                     "Contact us",
		`- h3: link "Get your code" [e3]`:      `link "Get your code"`,
		`- h6 [e9]`:                            "",
		`- heading-like text`:                  "no",
		`- h7: not a heading`:                  "no",
		`- p: a paragraph about h2 "headings"`: "no",
		// tool.Format's lines now, without the "- "
		`  h2 "Book \"now\"" [e4]`:       `Book "now"`,
		`h1: Contact us`:                 "Contact us",
		`h3: link "Get your code" [e3]`:  `link "Get your code"`,
		`h6 [e9]`:                        "",
		`h2o is water`:                   "no",
		`p: a paragraph about h2 "dogs"`: "no",
	} {
		name, ok := heading(line)
		if want == "no" {
			assert.False(t, ok, line)
			continue
		}
		assert.True(t, ok, line)
		assert.Equal(t, want, name, line)
	}
}

// Only {{name}} with a name of lower-case letters, digits and _ is a parameter.
func TestPlaceholders(t *testing.T) {
	got := replaceParams(`{{a}} {{{b_2}}} {{Bad}} {{}} {{c`, func(n string) string { return "<" + n + ">" })
	assert.Equal(t, `<a> {<b_2>} {{Bad}} {{}} {{c`, got)
	assert.Equal(t, []string{"x", "y"}, Step{Args: json.RawMessage(`{"a":"{{x}} and {{y}}"}`)}.Params())
}

// What an outside client is told a workflow takes: the schema of its values (defaults from the
// recorded run; secrets and values recorded empty required), and the values it gives, with the
// defaults filled in and a name that is no parameter refused.
func TestValuesSchemaAndDefaults(t *testing.T) {
	w := &Workflow{Name: "Book", Params: []Param{
		{Name: "restaurant", Label: "Restaurant", Default: "Luigi"},
		{Name: "note", Label: "Note"},
		{Name: "pw", Label: "Password", Secret: true},
	}, Steps: []Step{
		{Tool: "navigate", Origin: "https://a.example"}, {Tool: "click", Origin: "https://a.example"}, {Tool: "click", Origin: "https://b.example"},
	}}
	b, err := json.Marshal(w.Schema())
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","additionalProperties":false,"required":["note","pw"],"properties":{
		"restaurant":{"type":"string","description":"Restaurant","default":"Luigi"},
		"note":{"type":"string","description":"Note"},
		"pw":{"type":"string","description":"Password (secret: asked at every run, never stored)"}}}`, string(b))
	assert.Equal(t, []string{"https://a.example", "https://b.example"}, w.Sites())

	v, err := w.WithDefaults(map[string]string{"pw": "s", "note": ""})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"restaurant": "Luigi", "note": "", "pw": "s"}, v)
	assert.Empty(t, w.Missing(v))
	v, err = w.WithDefaults(map[string]string{"restaurant": "Ana"})
	require.NoError(t, err)
	assert.Equal(t, []string{"note", "pw"}, w.Missing(v), "a secret never takes a default")
	_, err = w.WithDefaults(map[string]string{"guests": "3"})
	assert.EqualError(t, err, "the workflow “Book” has no parameter “guests” (it takes restaurant, note, pw)")
}

// A replay that stopped at step 4 (Submit was renamed) and that a model finished becomes the
// next version: the steps that ran, then the model's. A value it typed as the workflow's
// placeholder (as it is told to) stays that parameter, the secret stays a secret, and a value
// it typed itself is a new parameter.
func TestExtendKeepsTheStepsThatRanAndTheModelsRepair(t *testing.T) {
	base, s := recorded(t)
	base.ID = "w1"
	text := tool.Format(s, tool.SnapOptions{})
	pw := tool.Element{Ref: "e5", Role: "textbox", Name: "Password", Tag: "input", Field: "password", Origin: site(s.URL)}
	go_ := tool.Element{Ref: "e6", Role: "button", Name: "Go", Tag: "button", Origin: site(s.URL)}
	note := tool.Element{Ref: "e7", Role: "textbox", Name: "Note", Tag: "input", Origin: site(s.URL)}
	calls := []Call{
		{Tool: "snapshot", Args: json.RawMessage(`{}`), URL: s.URL},
		{Tool: "type", Args: json.RawMessage(`{"ref":"e5","text":"{{` + base.Params[1].Name + `}}"}`), Elements: []tool.Element{pw}, URL: s.URL, Sensitive: true, Seen: text},
		{Tool: "type", Args: json.RawMessage(`{"ref":"e7","text":"asap"}`), Elements: []tool.Element{note}, URL: s.URL, Seen: text},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e6"}`), Elements: []tool.Element{go_}, URL: s.URL, Seen: text},
	}
	w, err := Extend(base, 2, nil, nil, calls)
	require.NoError(t, err)
	assert.Equal(t, "w1", w.ID)
	assert.Equal(t, base.Version+1, w.Version)
	require.Len(t, w.Steps, 5)
	assert.Equal(t, base.Steps[:2], w.Steps[:2])
	assert.Equal(t, "click button “Go”", w.Steps[4].What)
	require.Len(t, w.Params, 3)
	assert.Equal(t, base.Params[0], w.Params[0], "kept by the steps that ran")
	assert.Equal(t, base.Params[1], w.Params[1], "the secret the model typed as its placeholder")
	assert.Equal(t, Param{Name: "note", Label: "Note", Default: "asap"}, w.Params[2])
	_, err = Extend(base, 2, nil, nil, calls[:1])
	assert.EqualError(t, err, "the model's part did nothing a workflow can repeat")
}

// A drag keeps both its elements as targets, what is dragged first, and says itself as its
// card did.
func TestDragKeepsWhatAndWhere(t *testing.T) {
	w, err := Record("Sort", "", []Call{{Tool: "drag", URL: "https://board.test/",
		Args:     json.RawMessage(`{"ref":"e1","to":{"ref":"e4"},"tabId":7}`),
		Elements: []tool.Element{{Ref: "e1", Role: "listitem", Tag: "li", Name: "Write the spec"}, {Ref: "e4", Role: "listitem", Tag: "li", Name: "Ship 1.0"}},
		Seen:     "h2: Done\nli [e1]: Write the spec\nli [e4]: Ship 1.0\n"}})
	require.NoError(t, err)
	require.Len(t, w.Steps, 2, "the page is loaded first")
	s := w.Steps[1]
	assert.JSONEq(t, `{"ref":"@1","to":{"ref":"@2"}}`, string(s.Args))
	require.Len(t, s.Targets, 2)
	assert.Equal(t, "Write the spec", s.Targets[0].Name)
	assert.Equal(t, "Ship 1.0", s.Targets[1].Name)
	assert.Equal(t, "drag listitem “Write the spec” onto listitem “Ship 1.0”", s.What)
	assert.NoError(t, w.Check())
}

// A run that gave a page files is not saved as a workflow: a replay would go on without them.
func TestARunThatGaveFilesIsNotSaved(t *testing.T) {
	calls := []Call{
		{Tool: "navigate", Args: json.RawMessage(`{"url":"http://shop.test/apply"}`), URL: "http://shop.test/apply"},
		{Tool: "upload_file", Args: json.RawMessage(`{"ref":"e3","files":["cv.pdf"]}`), URL: "http://shop.test/apply"},
	}
	_, err := Record("Apply", "", calls)
	assert.ErrorContains(t, err, "the run gave a page files, which a workflow cannot do again")
	base := &Workflow{Name: "Apply", Version: 1, Steps: []Step{{Tool: "navigate", Args: json.RawMessage(`{"url":"http://shop.test/apply"}`), URL: "http://shop.test/apply"}}}
	_, err = Extend(base, 1, nil, nil, calls[1:])
	assert.ErrorContains(t, err, "files are never stored")
}

// twoPages are a page with a link that opens a form in a new tab, and that form, as the run's
// two tabs show them.
func twoPages() (start, form *tool.Snap) {
	node := func(role, name, ref string) tool.Item {
		return tool.Item{Node: &tool.Node{Role: role, Name: name, Ref: ref}}
	}
	start = &tool.Snap{URL: "https://shop.test/order", Tree: []tool.Item{node("link", "Open the form", "e1"), node("button", "Done", "e2")}}
	form = &tool.Snap{URL: "https://shop.test/form", Tree: []tool.Item{node("textbox", "Name", "e1")}}
	return start, form
}

// A run that works in a tab it opened (a link to a new tab) keeps each step's tab by its place
// in the run, not by its id: the replay names the tab its own link opened where the recorded
// call named one, switches where the recorded run switched, and stops, saying so, when the
// link opens no tab this time. A call in a tab the run neither started in nor opened cannot be
// recorded.
func TestAWorkflowWorksInTheTabsItsStepsOpened(t *testing.T) {
	start, form := twoPages()
	el := func(role, name, ref, u string) []tool.Element {
		return []tool.Element{{Ref: ref, Role: role, Name: name, Origin: site(u)}}
	}
	seenStart, seenForm := tool.Format(start, tool.SnapOptions{}), tool.Format(form, tool.SnapOptions{})
	opens := Call{Tool: "click", Args: json.RawMessage(`{"ref":"e1"}`), Elements: el("link", "Open the form", "e1", start.URL), URL: start.URL, Seen: seenStart, Tab: 3, Opened: []int{9}}
	done := Call{Tool: "click", Args: json.RawMessage(`{"ref":"e2"}`), Elements: el("button", "Done", "e2", start.URL), URL: start.URL, Seen: seenStart, Tab: 3}
	typed := func(args string, tab int) Call {
		return Call{Tool: "type", Args: json.RawMessage(args), Elements: el("textbox", "Name", "e1", form.URL), URL: form.URL, Seen: seenForm, Tab: tab}
	}
	sw := func(to int) Call {
		return Call{Tool: "tab_switch", Args: json.RawMessage(fmt.Sprintf(`{"tabId":%d}`, to)), URL: "", Tab: to}
	}

	// The model named the new tab in its call, or switched to it first.
	named, err := Record("Order", "", []Call{opens, typed(`{"ref":"e1","text":"Ana","tabId":9}`, 9), done})
	require.NoError(t, err)
	closes := Call{Tool: "tab_close", Args: json.RawMessage(`{"tabIds":[9]}`), Tab: 3}
	switched, err := Record("Order", "", []Call{opens, sw(9), typed(`{"ref":"e1","text":"Ana"}`, 9), sw(3), done, closes})
	require.NoError(t, err)
	require.NoError(t, switched.Check())
	tabsOf := func(w *Workflow) (out []int) {
		for _, s := range w.Steps {
			out = append(out, s.Tab)
		}
		return out
	}
	assert.Equal(t, []int{0, 0, 1, 0}, tabsOf(named), "navigate, click, type in the opened tab, click")
	assert.Equal(t, []int{0, 0, 1, 1, 0, 0, 0}, tabsOf(switched))
	assert.Equal(t, []int{1}, switched.Steps[6].Closes)
	assert.Equal(t, "close the run's tab 2", switched.Steps[6].What)
	assert.Equal(t, "switch to the run's tab 2", switched.Steps[2].What)
	assert.JSONEq(t, `{}`, string(switched.Steps[2].Args), "no tab id is kept")

	_, err = Record("Order", "", []Call{opens, typed(`{"ref":"e1","text":"Ana","tabId":42}`, 42)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "step 3 (type): it works in a tab the run neither started in nor opened")
	_, err = Record("Order", "", []Call{opens, {Tool: "tab_close", Args: json.RawMessage(`{"tabIds":[42]}`), Tab: 3}})
	require.Error(t, err, "a tab of the user's closed")

	// The replay: its own tabs are 100, and 200 which its click opens.
	replay := func(w *Workflow, opensTab bool) (calls []string, reads []int, stop *Stop) {
		cur := 100
		r := &Runner{Workflow: w, Values: map[string]string{"name": "Bo"}, Wait: 1,
			Read: func(_ context.Context, tab int) (*tool.Snap, error) {
				reads = append(reads, tab)
				if tab == 0 {
					tab = cur
				}
				if tab == 200 {
					return form, nil
				}
				return start, nil
			},
			Call: func(_ context.Context, k int, args, _ json.RawMessage) Outcome {
				calls = append(calls, w.Steps[k].Tool+" "+string(args))
				var in struct {
					TabID int `json:"tabId"`
				}
				_ = json.Unmarshal(args, &in)
				o := Outcome{OK: true, Tab: cur}
				if w.Steps[k].Tool == "tab_switch" && in.TabID != 0 {
					cur = in.TabID
				}
				if in.TabID != 0 {
					o.Tab = in.TabID
				}
				if w.Steps[k].Tool == "click" && k == 1 && opensTab {
					o.Opened = []int{200}
				}
				return o
			}}
		return calls, reads, r.Run(context.Background(), 0)
	}
	calls, reads, stop := replay(named, true)
	require.Nil(t, stop)
	assert.Equal(t, []string{`navigate {"url":"https://shop.test/order"}`, `click {"ref":"e1"}`, `type {"ref":"e1","tabId":200,"text":"Bo"}`, `click {"ref":"e2"}`}, calls)
	assert.Equal(t, []int{0, 200, 0}, reads, "the form is read in the tab the link opened")

	calls, _, stop = replay(switched, true)
	require.Nil(t, stop)
	assert.Equal(t, []string{`navigate {"url":"https://shop.test/order"}`, `click {"ref":"e1"}`, `tab_switch {"tabId":200}`, `type {"ref":"e1","text":"Bo"}`, `tab_switch {"tabId":100}`, `click {"ref":"e2"}`, `tab_close {"tabIds":[200]}`}, calls)

	calls, _, stop = replay(named, false)
	require.NotNil(t, stop)
	assert.Equal(t, 2, stop.Step)
	assert.Equal(t, StopMoved, stop.Kind)
	assert.Equal(t, "it was recorded in the run's tab 2, which no step opened this time", stop.Reason)
	assert.Len(t, calls, 2, "nothing is typed into the tab the run is in")
}

// results is a search page after a search: its box, and a link for each result.
func results(names ...string) *tool.Snap {
	s := &tool.Snap{URL: "https://food.test/search", Tree: []tool.Item{{Node: &tool.Node{Role: "textbox", Name: "Search restaurants", Ref: "e1"}}}}
	s.Tree = append(s.Tree, tool.Item{Node: &tool.Node{Role: "link", Name: "Home", Ref: "e2"}})
	for i, n := range names {
		s.Tree = append(s.Tree, tool.Item{Node: &tool.Node{Role: "link", Name: n, Ref: fmt.Sprintf("e%d", i+3)}})
	}
	return s
}

// A search, then a click on a result named after what was searched for: the result is found
// again by the run's value (the first result that holds it), not by the recorded name, which a
// search for something else does not show. A name that only happens to hold the value is found
// as recorded when nothing holds the new one; a short value or a secret is never followed.
func TestAResultNamedAfterTheSearchFollowsTheRunsValue(t *testing.T) {
	then := results("Luigi Express", "Luigi's Trattoria", "Pizza Roma")
	seen := tool.Format(then, tool.SnapOptions{})
	el := func(role, name, ref string) []tool.Element {
		return []tool.Element{{Ref: ref, Role: role, Name: name, Origin: site(then.URL)}}
	}
	box := el("textbox", "Search restaurants", "e1")
	w, err := Record("Find a table", "", []Call{
		{Tool: "type", Args: json.RawMessage(`{"ref":"e1","text":"Luigi","submit":true}`), Elements: box, URL: then.URL, Seen: seen},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e4"}`), Elements: el("link", "Luigi's Trattoria", "e4"), URL: then.URL, Seen: seen},
		{Tool: "wait_for", Args: json.RawMessage(`{"text":"Booked at LUIGI, not Luigino"}`), URL: then.URL, Seen: seen},
		{Tool: "type", Args: json.RawMessage(`{"ref":"e1","text":"Home"}`), Elements: box, URL: then.URL, Seen: seen},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e2"}`), Elements: el("link", "Home", "e2"), URL: then.URL, Seen: seen},
	})
	require.NoError(t, err)
	require.NoError(t, w.Check())
	click := w.Steps[2].Targets[0]
	assert.Equal(t, "search_restaurants", click.Param)
	assert.Equal(t, "click link “Luigi's Trattoria” (or the first named with {{search_restaurants}})", w.Steps[2].What)

	match := func(s *tool.Snap, tg Target, value string) string {
		tg.value = value
		ref, err := Match(s, tg, site(s.URL))
		if err != nil {
			return err.Error()
		}
		return ref
	}
	other := results("Pizza Roma", "Chez Ana Bistro", "Chez Ana Café")
	assert.Equal(t, "e4", match(other, click, "Chez Ana"), "the first result for the run's search")
	assert.Equal(t, "e4", match(then, click, "Luigi"), "the recorded value: the result recorded")
	assert.Equal(t, "the page has no link “Luigi's Trattoria”; it has link “Home”, link “Pizza Roma”, link “Chez Ana Bistro”", match(other, click, "Sushi"))
	// What it waited for to show holds the value too: the run's is waited for.
	assert.JSONEq(t, `{"text":"Booked at {{search_restaurants}}, not Luigino"}`, string(w.Steps[3].Args))
	filled, err := Fill(w.Steps[3].Args, map[string]string{"search_restaurants": "Chez Ana"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"text":"Booked at Chez Ana, not Luigino"}`, string(filled))
	home := w.Steps[5].Targets[0]
	assert.Equal(t, "search_restaurants_2", home.Param)
	assert.Equal(t, "e2", match(other, home, "Office"), "nothing holds the new value: the link as recorded")

	// Two letters, or a password, are not followed.
	short, err := Record("Short", "", []Call{
		{Tool: "type", Args: json.RawMessage(`{"ref":"e1","text":"Pi"}`), Elements: box, URL: then.URL, Seen: seen},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e5"}`), Elements: el("link", "Pizza Roma", "e5"), URL: then.URL, Seen: seen},
	})
	require.NoError(t, err)
	assert.Empty(t, short.Steps[2].Targets[0].Param)

	// An import cannot have an element found by a secret.
	w.Params[0].Secret, w.Params[0].Default = true, ""
	err = w.Check()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "step 3 finds an element by the secret {{search_restaurants}}")
}

// A click that closes a box over the page as the first acts on a page that just loaded (a
// cookie banner, then a sign-up prompt) is optional: a replay that does not find it goes on
// without it, and says so. The same button after an act of the run (a box the run opened), a
// button of another name in such a box, or one in the page itself, is not.
func TestABannerClosedAsThePageLoadedIsOptional(t *testing.T) {
	page := &tool.Snap{URL: "https://news.test/", Tree: []tool.Item{
		{Node: &tool.Node{Role: "button", Name: "Accept all", Ref: "e1"}},
		{Node: &tool.Node{Role: "button", Name: "No thanks", Ref: "e2"}},
		{Node: &tool.Node{Role: "button", Name: "Delete", Ref: "e3"}},
		{Node: &tool.Node{Role: "button", Name: "Close", Ref: "e4"}},
		{Node: &tool.Node{Role: "textbox", Name: "Email", Ref: "e5"}},
	}}
	seen := tool.Format(page, tool.SnapOptions{})
	click := func(ref, name string, over bool) Call {
		return Call{Tool: "click", Args: json.RawMessage(`{"ref":"` + ref + `"}`), URL: page.URL, Seen: seen,
			Elements: []tool.Element{{Ref: ref, Role: "button", Name: name, Origin: site(page.URL), Over: over}}}
	}
	typed := Call{Tool: "type", Args: json.RawMessage(`{"ref":"e5","text":"ana@example.com"}`), URL: page.URL, Seen: seen,
		Elements: []tool.Element{{Ref: "e5", Role: "textbox", Name: "Email", Origin: site(page.URL)}}}
	w, err := Record("Read", "", []Call{click("e1", "Accept all", true), click("e2", "No thanks", true), typed, click("e4", "Close", true)})
	require.NoError(t, err)
	var optional []bool
	for _, s := range w.Steps {
		optional = append(optional, s.Optional)
	}
	assert.Equal(t, []bool{false, true, true, false, false}, optional, "the banner and the prompt as the page loaded; not a box after typing")
	assert.Equal(t, "click button “Accept all”, if the page shows it", w.Steps[1].What)

	for _, c := range []Call{click("e3", "Delete", true), click("e1", "Accept all", false)} {
		w, err := Record("Other", "", []Call{c})
		require.NoError(t, err)
		assert.False(t, w.Steps[1].Optional, c.Elements[0].Name)
	}
	for _, name := range []string{"Alles accepteren", "OK", "Zaakceptuj wszystkie", "Принять все", "Tümünü kabul et", "Hyväksy kaikki",
		"Αποδοχή όλων", "すべて同意する", "全部接受", "모두 동의", "Přijmout vše", "Prihvati sve", "Acceptă toate", "Terima semua", "Prijať všetko", "Приемам"} {
		w, err := Record("Other", "", []Call{click("e3", name, true)})
		require.NoError(t, err)
		assert.True(t, w.Steps[1].Optional, name)
	}
	// In a box that speaks of cookies, any button answers the banner ("OK, understood").
	consent := click("e3", "OK, understood", true)
	consent.Elements[0].Consent = true
	banner, err := Record("Other", "", []Call{consent})
	require.NoError(t, err)
	assert.True(t, banner.Steps[1].Optional)

	// The replay, on the page as it is another time: no banner, no prompt.
	after := &tool.Snap{URL: page.URL, Tree: []tool.Item{{Node: &tool.Node{Role: "textbox", Name: "Email", Ref: "e1"}}, {Node: &tool.Node{Role: "button", Name: "Close", Ref: "e2"}}}}
	var calls []string
	var skipped []string
	r := &Runner{Workflow: w, Values: map[string]string{"email": "bo@example.com"}, Wait: 1,
		Read: func(context.Context, int) (*tool.Snap, error) { return after, nil },
		Call: func(_ context.Context, k int, args, _ json.RawMessage) Outcome {
			calls = append(calls, w.Steps[k].Tool+" "+string(args))
			return Outcome{OK: true}
		},
		Skipped: func(k int, why i18n.Text) { skipped = append(skipped, fmt.Sprintf("%d: %s", k, why.English())) }}
	require.Nil(t, r.Run(context.Background(), 0))
	assert.Equal(t, []string{"1: the page has no button “Accept all”; it has button “Close”", "2: the page has no button “No thanks”; it has button “Close”"}, skipped)
	assert.Equal(t, []string{`navigate {"url":"https://news.test/"}`, `type {"ref":"e1","text":"bo@example.com"}`, `click {"ref":"e2"}`}, calls)

	// A step that is not optional stops the replay where its element is gone.
	bare := &tool.Snap{URL: page.URL, Tree: after.Tree[:1]}
	r.Read = func(context.Context, int) (*tool.Snap, error) { return bare, nil }
	calls, skipped = nil, nil
	stop := r.Run(context.Background(), 0)
	require.NotNil(t, stop)
	assert.Equal(t, 4, stop.Step)
}

// A replay whose page asks to sign in (the session ended, and the site sent it to its sign-in
// form, on its own site or another) says so with its stop; a workflow that signs in itself (it
// types a password) is not told to.
func TestAReplayStoppedByASignInFormSaysSo(t *testing.T) {
	start, _ := twoPages()
	seen := tool.Format(start, tool.SnapOptions{})
	done := Call{Tool: "click", Args: json.RawMessage(`{"ref":"e2"}`), URL: start.URL, Seen: seen,
		Elements: []tool.Element{{Ref: "e2", Role: "button", Name: "Done", Origin: site(start.URL)}}}
	w, err := Record("Order", "", []Call{done})
	require.NoError(t, err)
	login := func(u string) *tool.Snap {
		return &tool.Snap{URL: u, Tree: []tool.Item{{Node: &tool.Node{Role: "heading", Name: "Sign in", Level: 1}},
			{Node: &tool.Node{Role: "textbox", Name: "Password", Ref: "e1", Password: 1}}}}
	}
	stopOn := func(w *Workflow, s *tool.Snap) string {
		r := &Runner{Workflow: w, Values: map[string]string{"password": "x"}, Wait: 1,
			Read: func(context.Context, int) (*tool.Snap, error) { return s, nil },
			Call: func(context.Context, int, json.RawMessage, json.RawMessage) Outcome { return Outcome{OK: true} }}
		stop := r.Run(context.Background(), 0)
		require.NotNil(t, stop)
		return stop.Says.English()
	}
	assert.Equal(t, "the page has no button “Done”; the page asks to sign in: sign in in this browser, then run the workflow again", stopOn(w, login(start.URL)))
	assert.Equal(t, "it was recorded on https://shop.test, and the tab shows https://id.test; the page asks to sign in: sign in in this browser, then run the workflow again", stopOn(w, login("https://id.test/login")))
	assert.Equal(t, "the page has no button “Done”", stopOn(w, &tool.Snap{URL: start.URL, Tree: start.Tree[:1]}), "no sign-in form: no word of one")

	w.Params = append(w.Params, Param{Name: "password", Secret: true})
	assert.Equal(t, "the page has no button “Done”", stopOn(w, login(start.URL)))
}

// A value counted from the day a run runs ({{today+1}}: a schedule that books for tomorrow) is
// written as the recorded value was, the reading of 02/12 nearest the recording's day chosen,
// and a date and time keeps its time.
func TestADateCountedFromTheDayOfTheRun(t *testing.T) {
	recorded := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	w := &Workflow{CreatedAt: recorded.UnixMilli(), Params: []Param{
		{Name: "iso", Default: "2026-12-02"}, {Name: "eu", Default: "02/12/2026"}, {Name: "us", Default: "12/02/2026"},
		{Name: "de", Default: "02.12.2026"}, {Name: "text", Default: "Luigi"},
		{Name: "words", Default: "December 2, 2026"}, {Name: "day", Default: "Wed, 2 Dec 2026"}, {Name: "short", Default: "dec 2"},
		{Name: "nth", Default: "Wednesday, December 2nd, 2026"}, {Name: "nth2", Default: "December 2nd"},
	}}
	now := time.Date(2027, 2, 27, 8, 0, 0, 0, time.UTC)
	got := dated(t, w, map[string]string{"iso": "{{today+1}}", "eu": "{{today+2}}", "us": " {{today}} ", "de": "{{today-27}}",
		"text": "{{today}}", "other": "{{today+x}}", "far": "{{today+9999}}", "plain": "Chez Ana",
		"words": "{{today+1}}", "day": "{{today+2}}", "short": "{{today}}", "nth": "{{today+2}}", "nth2": "{{today-6}}"}, now)
	assert.Equal(t, map[string]string{"iso": "2027-02-28", "eu": "01/03/2027", "us": "02/27/2027", "de": "31.01.2027",
		"text": "2027-02-27", "other": "{{today+x}}", "far": "{{today+9999}}", "plain": "Chez Ana",
		"words": "February 28, 2027", "day": "Mon, 1 Mar 2027", "short": "feb 27",
		"nth": "Monday, March 1st, 2027", "nth2": "February 21st"}, got)
	// A day said in words, for a date: counted so; for another value, text as it is.
	got = dated(t, w, map[string]string{"iso": " Tomorrow ", "eu": "demain", "us": "aujourd’hui", "words": "yesterday", "text": "tomorrow"}, now)
	assert.Equal(t, map[string]string{"iso": "2027-02-28", "eu": "28/02/2027", "us": "02/27/2027", "words": "February 26, 2027", "text": "tomorrow"}, got)
	got = dated(t, w, map[string]string{"iso": "Morgen", "eu": "mañana", "us": "übermorgen", "words": "ieri", "text": "domani"}, now)
	assert.Equal(t, map[string]string{"iso": "2027-02-28", "eu": "28/02/2027", "us": "03/01/2027", "words": "February 26, 2027", "text": "domani"}, got, "in the other languages dates are read in")
	// A date with its time (a date and time field's): the run's date at the recorded time.
	w2 := &Workflow{CreatedAt: recorded.UnixMilli(), Params: []Param{{Name: "iso", Default: "2026-12-02T19:30"},
		{Name: "us", Default: "12/02/2026 7:30 PM"}, {Name: "words", Default: "December 2, 2026 at 7:30 p.m."},
		{Name: "fr", Default: "mercredi 2 décembre 2026 à 19h30"}, {Name: "secs", Default: "2026-12-02 19:30:00"}, {Name: "room", Default: "Room 2:30"}}}
	assert.Equal(t, map[string]string{"iso": "2027-02-28T19:30", "us": "02/28/2027 7:30 PM", "words": "February 28, 2027 at 7:30 p.m.",
		"fr": "dimanche 28 février 2027 à 19h30", "secs": "2027-02-28 19:30:00", "room": "tomorrow"},
		dated(t, w2, map[string]string{"iso": "{{today+1}}", "us": "tomorrow", "words": "{{today+1}}", "fr": "{{today+1}}", "secs": "{{today+1}}", "room": "tomorrow"}, now))
	// A month and its year (a month field's), a week (a week field's): those of the run's day.
	w3 := &Workflow{CreatedAt: recorded.UnixMilli(), Params: []Param{{Name: "iso", Default: "2026-12"}, {Name: "us", Default: "12/2026"},
		{Name: "words", Default: "December 2026"}, {Name: "es", Default: "diciembre de 2026"}, {Name: "week", Default: "2026-W49"}}}
	assert.Equal(t, map[string]string{"iso": "2027-03", "us": "03/2027", "words": "March 2027", "es": "marzo de 2027", "week": "2027-W09"},
		dated(t, w3, map[string]string{"iso": "{{today+2}}", "us": "{{today+2}}", "words": "{{today+2}}", "es": "{{today+2}}", "week": "{{today+2}}"}, now))
	assert.Equal(t, "2026-W53", dated(t, w3, map[string]string{"week": "{{today}}"}, time.Date(2027, 1, 1, 8, 0, 0, 0, time.UTC))["week"], "a year's last ISO week")
	n, ok := daysAfter("2026-12-10 15:00", "2026-12-13 11:00", "")
	assert.Equal(t, []any{3, true}, []any{n, ok}, "a stay's days, each with its time")
	// An outside agent reads it in the values' schema.
	props := w.Schema()["properties"].(map[string]any)
	assert.Contains(t, props["eu"].(map[string]any)["description"], "{{today+1}}")
	assert.NotContains(t, props["text"], "description")
}

// A date typed with its year in two figures ("12/02/26", as many American forms ask, "02.12.26")
// is a date too, written again so; one whose day and month are bare figures joined by dots
// ("1.2.26") is as often a version and stays text, as does such a date in a link's name.
func TestADateWithItsYearInTwoFigures(t *testing.T) {
	recorded := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	w := &Workflow{CreatedAt: recorded.UnixMilli(), Params: []Param{
		{Name: "us", Default: "12/02/26"}, {Name: "us_bare", Default: "12/2/26"}, {Name: "eu", Default: "02/12/26"},
		{Name: "de", Default: "02.12.26"}, {Name: "dash", Default: "02-12-26"}, {Name: "version", Default: "1.2.26"},
		{Name: "out", Default: "12/05/26"},
	}}
	now := time.Date(2027, 2, 27, 8, 0, 0, 0, time.UTC)
	assert.Equal(t, map[string]string{"us": "02/28/27", "us_bare": "3/1/27", "eu": "01/03/27", "de": "28.02.27", "dash": "27-02-27",
		"version": "2027-02-28", "out": "03/03/27"},
		dated(t, w, map[string]string{"us": "{{today+1}}", "us_bare": "{{today+2}}", "eu": "{{today+2}}", "de": "tomorrow", "dash": "{{today}}",
			"version": "{{today+1}}", "out": "{{us+3}}"}, now))
	n, ok := daysAfter("12/02/26", "12/05/26", "")
	assert.Equal(t, []any{3, true}, []any{n, ok}, "a stay's days")
	props := w.Schema()["properties"].(map[string]any)
	assert.Contains(t, props["us"].(map[string]any)["description"], "{{today+1}}")
	assert.NotContains(t, props["version"], "description")
	assert.Equal(t, "", dateIn("Invoice 12/02/26"), "a name's date with its year in two figures is no calendar's day")
	assert.Equal(t, "12/02/2026", dateIn("Invoice 12/02/2026"))
}

// A name with a count in it counts otherwise another day ("Inbox (12)", then "Inbox (1,015)"):
// the one element of its role named the same but for its numbers is the one recorded. Two such,
// or a name that is only a number, are not guessed at.
func TestANameWithACountIsFoundWhenTheCountChanged(t *testing.T) {
	page := func(names ...string) *tool.Snap {
		s := &tool.Snap{URL: "https://mail.test/"}
		for i, n := range names {
			s.Tree = append(s.Tree, tool.Item{Node: &tool.Node{Role: "link", Name: n, Ref: fmt.Sprintf("e%d", i+1)}})
		}
		return s
	}
	match := func(s *tool.Snap, name string) string {
		ref, err := Match(s, Target{Role: "link", Name: name}, "https://mail.test")
		if err != nil {
			return err.Error()
		}
		return ref
	}
	assert.Equal(t, "e2", match(page("Sent (3)", "Inbox (1,015)", "Drafts"), "Inbox (12)"))
	assert.Equal(t, "e1", match(page("Cart, 4 items", "Help"), "Cart, 2 items"))
	assert.Equal(t, "the page has no link “Inbox (12)”; it has link “Inbox (15)”, link “Inbox (2)”", match(page("Inbox (15)", "Inbox (2)"), "Inbox (12)"))
	assert.Equal(t, "the page has no link “12”; it has link “15”", match(page("15"), "12"))
}

// The addresses a run went to carry values: one typed before, as a whole path segment or query
// value, is written as its parameter (and escaped as its place in the address wants); a query
// value the task gave becomes a parameter of its own; a result's own address, made for a value
// typed before, cannot be written for another, and a replay with another value stops there
// rather than go to the recorded result.
func TestAnAddressTakesTheRunsValues(t *testing.T) {
	page := results("Luigi's Trattoria")
	seen := tool.Format(page, tool.SnapOptions{})
	box := []tool.Element{{Ref: "e1", Role: "textbox", Name: "Search restaurants", Origin: site(page.URL)}}
	nav := func(u string) Call {
		return Call{Tool: "navigate", Args: json.RawMessage(`{"url":"` + u + `"}`), URL: u}
	}
	w, err := Record("Book", "Book a table at Luigi in Paris.\nFor two, with usb cables", []Call{
		nav("https://food.test/find?q=usb+cables&ref=nav_logo&lang=fr"),
		{Tool: "type", Args: json.RawMessage(`{"ref":"e1","text":"Luigi"}`), Elements: box, URL: page.URL, Seen: seen},
		nav("https://food.test/search/Luigi?city=Paris&x=luigi#top"),
		nav("https://food.test/r/luigis-trattoria/book"),
		nav("https://food.test/r/art-cafe"),
	})
	require.NoError(t, err)
	require.NoError(t, w.Check())
	url := func(k int) string {
		var in struct {
			URL string `json:"url"`
		}
		require.NoError(t, json.Unmarshal(w.Steps[k].Args, &in))
		return in.URL
	}
	assert.Equal(t, "https://food.test/find?q={{search}}&ref=nav_logo&lang=fr", url(0), "what the task asked for; not a word of its own")
	assert.Equal(t, "https://food.test/search/{{search_restaurants}}?city={{city}}&x={{search_restaurants}}#top", url(2))
	assert.Equal(t, "https://food.test/r/luigis-trattoria/book", url(3))
	assert.Equal(t, "search_restaurants", w.Steps[3].For)
	assert.True(t, strings.HasSuffix(w.Steps[3].What, "/r/luigis-trattoria/book (or the page's link of its kind for {{search_restaurants}})"), w.Steps[3].What)
	assert.Empty(t, w.Steps[4].For, "“art” is not “cafe”: made for no value")
	news, err := Record("News", "", []Call{
		{Tool: "type", Args: json.RawMessage(`{"ref":"e1","text":"new"}`), Elements: box, URL: page.URL, Seen: seen},
		nav("https://food.test/news/today"),
	})
	require.NoError(t, err)
	assert.Empty(t, news.Steps[2].For, "“news” is not “new”")
	assert.Equal(t, []Param{
		{Name: "search", Label: "search", Default: "usb cables"},
		{Name: "search_restaurants", Label: "Search restaurants", Default: "Luigi"},
		{Name: "city", Label: "city", Default: "Paris"},
	}, w.Params)

	values := map[string]string{"search": "câble & prise", "search_restaurants": "Chez Ana/2", "city": "Saint Denis"}
	b := &fakeBrowser{snap: page}
	stop := b.runner(w, values).Run(context.Background(), 0)
	require.NotNil(t, stop)
	assert.Equal(t, 3, stop.Step)
	assert.Equal(t, StopMoved, stop.Kind)
	assert.Equal(t, "the recorded run went to an address it found for “Luigi”; the page links to none like it for “Chez Ana/2”", stop.Reason)
	assert.Equal(t, []string{
		`{"url":"https://food.test/find?q=c%C3%A2ble+%26+prise\u0026ref=nav_logo\u0026lang=fr"}`,
		`{"ref":"e1","text":"Chez Ana/2"}`,
		`{"url":"https://food.test/search/Chez%20Ana%2F2?city=Saint+Denis\u0026x=Chez+Ana%2F2#top"}`,
	}, b.calls)

	// On a page that links to the result made for the run's value, the replay goes there: the
	// first link of the same shape whose part made for the value holds its words, on to the
	// page the recorded run went on to (…/book).
	values["search_restaurants"] = "Chez Ana"
	b = &fakeBrowser{snap: page, links: []tool.Link{
		{Text: "Luigi's Trattoria", Href: "https://food.test/r/luigis-trattoria"},
		{Text: "About Chez Ana", Href: "https://food.test/about/chez-ana"},
		{Text: "Chez Ana", Href: "https://other.test/r/chez-ana"},
		{Text: "Ana's", Href: "https://food.test/r/anas"},
		{Text: "Chez Ana Bistro", Href: "https://food.test/r/chez-ana-bistro?ref=list"},
		{Text: "Chez Ana Café", Href: "https://food.test/r/chez-ana-cafe"},
	}}
	require.Nil(t, b.runner(w, values).Run(context.Background(), 0))
	require.Len(t, b.calls, 5)
	assert.Equal(t, `{"url":"https://food.test/r/chez-ana-bistro/book"}`, b.calls[3])
	b.links = b.links[:4]
	stop = b.runner(w, values).Run(context.Background(), 0)
	require.NotNil(t, stop, "no link made for “Chez Ana” on its site")
	assert.Equal(t, 3, stop.Step)
	for _, c := range []struct{ raw, href, want string }{
		{"https://a.test/p/luigi-12", "https://a.test/p/chez-ana-13", "https://a.test/p/chez-ana-13"},
		{"https://a.test/p/luigi-12?x=1#top", "https://a.test/p/chez-ana-13?y=2#a", "https://a.test/p/chez-ana-13?y=2#a"},
		{"https://a.test/p/luigi-12/book?x=1", "https://a.test/p/chez-ana-13?y=2", "https://a.test/p/chez-ana-13/book?x=1"},
		{"https://a.test/p/luigi-12/book", "https://a.test/p/chez-ana-13/menu", ""},
		{"https://a.test/p/luigi-12", "https://a.test/q/chez-ana-13", ""},
		{"https://a.test/p/luigi-12", "https://a.test/p/chez-anatole", ""},
		{"https://a.test/p/luigi-12", "http://a.test/p/chez-ana", ""},
		{"https://a.test/book?at=Luigi%27s&n=2", "https://a.test/book?n=4&at=Chez+Ana+Bistro", "https://a.test/book?n=4&at=Chez+Ana+Bistro"},
		{"https://a.test/book?at=Luigi%27s", "https://a.test/other?at=Chez+Ana", ""},
		{"https://a.test/book?at=Luigi%27s", "https://a.test/book?to=Chez+Ana", ""},
	} {
		got, ok := sameResult(c.raw, "Luigi", c.href, "Chez Ana")
		assert.Equal(t, c.want, got, c.href)
		assert.Equal(t, c.want != "", ok, c.href)
	}

	// The recorded value (any case): its address.
	values["search_restaurants"] = "luigi "
	b = &fakeBrowser{snap: page}
	require.Nil(t, b.runner(w, values).Run(context.Background(), 0))
	assert.Len(t, b.calls, 5)

	// A parameter that is the whole address is put in as it is.
	whole, err := Fill(json.RawMessage(`{"url":"{{site}}/s?q={{q}}"}`), map[string]string{"site": "https://a.test", "q": "a/b"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"url":"https://a.test/s?q=a%2Fb"}`, string(whole))

	// The model that finishes a replay stopped there works on pages that show the replay's
	// value: what it opens and where it goes follow it as the recorded run's did.
	other := results("Chez Ana Bistro")
	repair, err := Extend(w, 3, map[string]string{"search": "usb cables", "search_restaurants": "Chez Ana", "city": "Paris"}, nil, []Call{
		{Tool: "click", Args: json.RawMessage(`{"ref":"e3"}`), Elements: []tool.Element{{Ref: "e3", Role: "link", Name: "Chez Ana Bistro", Origin: site(other.URL)}}, URL: other.URL, Seen: tool.Format(other, tool.SnapOptions{})},
		nav("https://food.test/r/chez-ana-bistro/book"),
	})
	require.NoError(t, err)
	require.Len(t, repair.Steps, 5)
	assert.Equal(t, "search_restaurants", repair.Steps[3].Targets[0].Param)
	assert.Equal(t, "search_restaurants", repair.Steps[4].For)
	assert.Equal(t, w.Params, repair.Params, "no parameter of the replay's values")

	// An import cannot put a secret in an address.
	w.Params[2].Secret, w.Params[2].Default = true, ""
	err = w.Check()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "step 3 puts the secret {{city}} in an address")
}

// A link clicked among namesakes (blogger's seven "Edit", one a widget) from a list of the
// page's links, with no snapshot read to place it among them, is the one that goes where it
// went: the replay reads where the page's links named so go. One whose address no link has
// now is told apart by its place, as before; so is one of a page whose links cannot be read.
func TestALinkAmongNamesakesIsTheOneThatGoesThere(t *testing.T) {
	page := snap(t, "blogger")
	refs := []string{"e41", "e107", "e124", "e129", "e133", "e134", "e136"}
	var links []tool.Link
	for i, ref := range refs {
		links = append(links, tool.Link{Ref: ref, Text: "Edit", Href: fmt.Sprintf("https://www.blogger.com/rearrange?widgetId=HTML%d", i)})
	}
	edit := tool.Element{Ref: "e129", Role: "link", Name: "Edit", Tag: "a", Origin: site(page.URL), Link: links[3].Href}
	w, err := Record("Edit a widget", "", []Call{{Tool: "click", Args: json.RawMessage(`{"ref":"e129"}`), Elements: []tool.Element{edit}, URL: page.URL}})
	require.NoError(t, err)
	require.NoError(t, w.Check())
	require.Len(t, w.Steps, 2)
	assert.Equal(t, links[3].Href, w.Steps[1].Targets[0].Href)
	next := tool.Element{Ref: "e44", Role: "button", Name: "Next", Tag: "a", Origin: site(page.URL), Link: page.URL + "#themes"}
	carousel, err := Record("Next theme", "", []Call{{Tool: "click", Args: json.RawMessage(`{"ref":"e44"}`), Elements: []tool.Element{next}, URL: page.URL}})
	require.NoError(t, err)
	assert.Equal(t, next.Link, carousel.Steps[1].Targets[0].Href, "an <a> its page made a button (a carousel's Next) goes somewhere too")
	clicked := func(b *fakeBrowser) string {
		require.Nil(t, b.runner(w, nil).Run(context.Background(), 0))
		return b.calls[1]
	}
	assert.Equal(t, `{"ref":"e129"}`, clicked(&fakeBrowser{snap: page, links: links}))
	moved := slices.Clone(links)
	moved[0].Href, moved[3].Href = moved[3].Href, moved[0].Href // the page put the widget first
	assert.Equal(t, `{"ref":"e41"}`, clicked(&fakeBrowser{snap: page, links: moved}))
	assert.Equal(t, `{"ref":"e41"}`, clicked(&fakeBrowser{snap: page, links: links[:3]}), "no link goes there: the first, its place")
	assert.Equal(t, `{"ref":"e41"}`, clicked(&fakeBrowser{snap: page}), "the links not read")
}

// A name the page cut short in one reading and not in the other is the same name: the
// description of a link the run clicked kept 150 letters of it, the snapshot of the replay
// keeps 120 (guardian's picture links). A name that only ends with "…" is no other's start.
func TestANameCutShortIsTheSameName(t *testing.T) {
	page := snap(t, "guardian-1")
	full := "12 Parāoa Whales (Sperm Whales) recently stranded on the South Taranaki coast of Kaupokonui, on a scale not seen on their coast in recent memory."
	whale := tool.Element{Ref: "e33", Role: "link", Name: full, Tag: "a", Origin: site(page.URL)}
	w, err := Record("See the whales", "", []Call{{Tool: "click", Args: json.RawMessage(`{"ref":"e33"}`), Elements: []tool.Element{whale}, URL: page.URL}})
	require.NoError(t, err)
	b := &fakeBrowser{snap: page}
	require.Nil(t, b.runner(w, nil).Run(context.Background(), 0))
	assert.Equal(t, `{"ref":"e33"}`, b.calls[1])

	long := strings.Repeat("word ", 30)
	for _, c := range []struct {
		said, name string
		same       bool
	}{
		{"loading…", "loading more", false},
		{"loading more", "loading…", false},
		{long[:119] + "…", long + "and more", true},
		{long + "and more", long[:119] + "…", true},
		{long[:119] + "…", long[:100] + "…", true},
		{long[:119] + "…", "other " + long, false},
		{long[:50] + "…", long, false},
	} {
		assert.Equal(t, c.same, named(c.said, c.name), "%q, %q", c.said, c.name)
	}
}

// A result's own address made of an id (…/r/8812), which the run read in the page's links
// under a name that held the value typed before ("Luigi's Trattoria" after "Luigi"), follows
// the value as one made of its words does: a replay for another value goes to the address, one
// part away, of the first link named with it; an address no link named so is kept as it is.
func TestAResultsAddressMadeOfAnIdFollowsItsLinksName(t *testing.T) {
	page := results("Luigi's Trattoria")
	seen := tool.Format(page, tool.SnapOptions{})
	box := []tool.Element{{Ref: "e1", Role: "textbox", Name: "Search restaurants", Origin: site(page.URL)}}
	links := "- [e3] \"Luigi's Trattoria\" https://food.test/r/8812\n- [e4] \"About us\" https://food.test/about\n"
	record := func(u, read string) *Workflow {
		nav := Call{Tool: "navigate", Args: json.RawMessage(`{"url":"` + u + `"}`), URL: u}
		nav.ReadLinks(read)
		w, err := Record("Book", "", []Call{
			{Tool: "type", Args: json.RawMessage(`{"ref":"e1","text":"Luigi"}`), Elements: box, URL: page.URL, Seen: seen}, nav})
		require.NoError(t, err)
		require.NoError(t, w.Check())
		return w
	}
	w := record("https://food.test/r/8812", links)
	assert.Equal(t, "search_restaurants", w.Steps[2].For)
	assert.Empty(t, record("https://food.test/about", links).Steps[2].For, "its link is not named with the value")
	assert.Empty(t, record("https://food.test/r/8812", "").Steps[2].For, "no links read")

	b := &fakeBrowser{snap: page, links: []tool.Link{
		{Text: "Luigi's Trattoria", Href: "https://food.test/r/8812"},
		{Text: "Chez Ana", Href: "https://food.test/r/9921/menu"},
		{Text: "Chez Ana Bistro", Href: "https://food.test/r/9921?from=list"},
		{Text: "Chez Ana Café", Href: "https://food.test/r/9922"},
	}}
	require.Nil(t, b.runner(w, map[string]string{"search_restaurants": "Chez Ana"}).Run(context.Background(), 0))
	assert.Equal(t, `{"url":"https://food.test/r/9921?from=list"}`, b.calls[2])
	b.links = b.links[:2]
	require.NotNil(t, b.runner(w, map[string]string{"search_restaurants": "Chez Ana"}).Run(context.Background(), 0), "no link of its kind named so")

	for _, c := range []struct {
		raw, href string
		near      bool
	}{
		{"https://a.test/place?id=8812&lang=fr", "https://a.test/place?lang=fr&id=9921", true},
		{"https://a.test/place?id=8812&lang=fr", "https://a.test/place?lang=en&id=9921", false},
		{"https://a.test/place?id=8812", "https://a.test/place?ref=9921", false},
		{"https://a.test/r/8812", "https://b.test/r/9921", false},
		{"https://a.test/r/8812", "https://a.test/s/9921", false},
		{"https://a.test/r/8812#top", "https://a.test/r/9921", true},
		{"https://a.test/r/8812", "https://a.test/r/8812/x", false},
	} {
		assert.Equal(t, c.near, onePartAway(c.raw, c.href), c.href)
	}
}

// An imported workflow is anyone's JSON: whatever Check lets through is listed in words,
// filled with values and replayed without a panic.
func FuzzImportedWorkflow(f *testing.F) {
	w, _ := recorded(f)
	seed, _ := json.Marshal(w)
	f.Add(seed)
	f.Add([]byte(`{"name":"a","steps":[{"tool":"navigate","args":{"url":"https://x.test/{{q}}?a={{q}}#{{q}}"},"for":"q"}],"params":[{"name":"q","default":"a b"}]}`))
	f.Add([]byte(`{"name":"a","steps":[{"tool":"tab_close","args":{},"closes":[0],"tab":1},{"tool":"click","args":{"ref":"@1"},"targets":[{"role":"button","param":"q"}]}],"params":[{"name":"q"}]}`))
	f.Add([]byte(`{"name":"a","steps":[{"tool":"type","args":{"ref":"@1","text":"{{d}}"},"targets":[{"role":"textbox","lang":"sv"}]},` +
		`{"tool":"click","args":{"ref":"@1"},"targets":[{"role":"link","name":"2","param":"d","month":"december 2026","lang":"nl"}]}],"params":[{"name":"d","default":"2 maj 2027","lang":"pl"}]}`))
	page := results("Luigi's Trattoria")
	f.Fuzz(func(t *testing.T, data []byte) {
		var w Workflow
		if json.Unmarshal(data, &w) != nil || w.Check() != nil {
			return
		}
		values := map[string]string{}
		for _, p := range w.Params {
			values[p.Name] = p.Default + " x/?&#"
		}
		counted := map[string]string{}
		for _, p := range w.Params {
			counted[p.Name] = "{{today+40}}"
		}
		_, _ = Dated(&w, counted, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
		for _, s := range w.Steps {
			_ = Says(s).English()
			_, _ = Fill(s.Args, values)
		}
		b := &fakeBrowser{snap: page}
		_ = b.runner(&w, values).Run(context.Background(), 0)
	})
}

// A click on a day of a calendar named with its date keeps the date as a parameter: a run for
// {{today+1}} clicks the day after the run's, named as the recorded day was; for a day the
// calendar does not show, the replay turns the calendar's months with its own buttons, and
// stops where it cannot, never clicking the recorded day.
func TestADayOfACalendarFollowsTheRunsDate(t *testing.T) {
	month := &tool.Snap{URL: "https://book.test/", Tree: []tool.Item{{Node: &tool.Node{Role: "button", Name: "Next month", Ref: "e1"}}}}
	for d := 1; d <= 31; d++ {
		day := time.Date(2026, 12, d, 12, 0, 0, 0, time.UTC)
		month.Tree = append(month.Tree, tool.Item{Node: &tool.Node{Role: "button", Name: "Choose " + day.Format("Monday, January 2, 2006") + " as your day", Ref: fmt.Sprintf("e%d", d+1)}})
	}
	seen := tool.Format(month, tool.SnapOptions{})
	w, err := Record("Book", "", []Call{{Tool: "click", Args: json.RawMessage(`{"ref":"e3"}`), URL: month.URL, Seen: seen,
		Elements: []tool.Element{{Ref: "e3", Role: "button", Name: "Choose Wednesday, December 2, 2026 as your day", Origin: site(month.URL)}}}})
	require.NoError(t, err)
	w.CreatedAt = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).UnixMilli()
	require.NoError(t, w.Check())
	assert.Equal(t, []Param{{Name: "date", Label: "date", Default: "Wednesday, December 2, 2026"}}, w.Params)
	assert.Equal(t, "click button “Choose Wednesday, December 2, 2026 as your day” (or the first named with {{date}})", w.Steps[1].What)

	replay := func(value string, now time.Time) (string, *Stop) {
		b := &fakeBrowser{snap: month}
		stop := b.runner(w, dated(t, w, map[string]string{"date": value}, now)).Run(context.Background(), 0)
		return strings.Join(b.calls, " "), stop
	}
	calls, stop := replay("{{today+1}}", time.Date(2026, 12, 16, 7, 0, 0, 0, time.UTC))
	require.Nil(t, stop)
	assert.Equal(t, `{"url":"https://book.test/"} {"ref":"e18"}`, calls, "the 17th")
	calls, stop = replay("Wednesday, December 2, 2026", time.Now())
	require.Nil(t, stop)
	assert.Equal(t, `{"url":"https://book.test/"} {"ref":"e3"}`, calls, "the recorded day")
	_, stop = replay("{{today+1}}", time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC))
	require.NotNil(t, stop)
	assert.Equal(t, StopMissing, stop.Kind)
	assert.Equal(t, "the page has no button “Friday, January 1, 2027”", stop.Reason)
	// A replay that may turn the calendar's months turns it with its Next month to January.
	p := &pages{month: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), named: true}
	stop = p.runner(w, dated(t, w, map[string]string{"date": "{{today+1}}"}, time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC))).Run(context.Background(), 0)
	require.Nil(t, stop)
	assert.Equal(t, []string{`click {"ref":"e2"}`}, p.asides)
	assert.Equal(t, `{"ref":"e3"}`, p.calls[1], "January's first, in January")
	p = &pages{month: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), named: true}
	stop = p.runner(w, map[string]string{"date": "Monday, November 30, 2026"}).Run(context.Background(), 0)
	require.Nil(t, stop)
	assert.Equal(t, []string{`click {"ref":"e1"}`}, p.asides, "back a month")
	assert.Equal(t, `{"ref":"e32"}`, p.calls[1])

	assert.Empty(t, dateIn("2 items in your cart"))
	assert.Equal(t, "Wednesday, December 2nd, 2026", dateIn("Choose Wednesday, December 2nd, 2026"), "react-datepicker's")
	assert.Empty(t, dateIn("the 3rd row"))
	for day, want := range map[int]string{11: "May 11th", 12: "May 12th", 13: "May 13th", 22: "May 22nd", 31: "May 31st"} {
		assert.Equal(t, want, ordinal(fmt.Sprintf("May %d", day), day))
	}
	assert.Equal(t, "Dec 2, 2026", dateIn("Due (Dec 2, 2026)"))
}

// An option clicked in a list the page draws (as models choose in a Radix or MUI select, rather
// than with select_option) is a choice: a parameter named after the list, as a select's value
// is. A replay chooses the option named as the run's value, or the one option whose name
// holds it, and stops where the list offers none, never choosing the recorded one instead.
// A radio clicked in a named group (a fieldset's legend) is the same choice, kept as the state
// the click left it in. The suggestions under a search field typed into are not a choice of
// their own: the value typed is the parameter there, and a replay for a value none of them
// holds stops too.
func TestAnOptionClickedIsAChoiceOfTheRun(t *testing.T) {
	on, unchecked := true, 0
	page := &tool.Snap{URL: "https://book.test/", Tree: []tool.Item{
		{Node: &tool.Node{Role: "combobox", Name: "Guests", Ref: "e1"}},
		{Node: &tool.Node{Role: "listbox", Name: "Meal", Ref: "e2", Kids: []tool.Item{
			{Node: &tool.Node{Role: "option", Name: "Fish", Ref: "e3"}},
			{Node: &tool.Node{Role: "option", Name: "Vegetarian", Ref: "e4"}},
		}}},
		{Node: &tool.Node{Role: "combobox", Name: "Town", Ref: "e5"}},
		{Node: &tool.Node{Role: "listbox", Ref: "e6", Kids: []tool.Item{
			{Node: &tool.Node{Role: "option", Name: "1 person", Ref: "e7"}},
			{Node: &tool.Node{Role: "option", Name: "2 people", Ref: "e8"}},
			{Node: &tool.Node{Role: "option", Name: "4 people", Ref: "e9"}},
			{Node: &tool.Node{Role: "option", Name: "4 people and a baby", Ref: "e10"}},
		}}},
		{Node: &tool.Node{Role: "listbox", Ref: "e15", Kids: []tool.Item{
			{Node: &tool.Node{Role: "option", Name: "Porto, Portugal", Ref: "e11"}},
			{Node: &tool.Node{Role: "option", Name: "Lisbon, Portugal", Ref: "e12"}},
		}}},
		{Node: &tool.Node{Role: "group", Name: "Size", Kids: []tool.Item{ // (a fieldset's radios)
			{Node: &tool.Node{Role: "radio", Name: "Small", Ref: "e13", Checked: &unchecked}},
			{Node: &tool.Node{Role: "radio", Name: "Large", Ref: "e14", Checked: &unchecked}},
		}}},
	}}
	seen := tool.Format(page, tool.SnapOptions{})
	el := func(ref, role, name string) []tool.Element {
		return []tool.Element{{Ref: ref, Role: role, Name: name, Origin: site(page.URL)}}
	}
	click := func(ref, role, name string) Call {
		return Call{Tool: "click", Args: json.RawMessage(`{"ref":"` + ref + `"}`), URL: page.URL, Seen: seen, Elements: el(ref, role, name)}
	}
	w, err := Record("Book", "", []Call{
		click("e1", "combobox", "Guests"), click("e8", "option", "2 people"),
		click("e3", "option", "Fish"),
		{Tool: "type", Args: json.RawMessage(`{"ref":"e5","text":"Lisbon"}`), URL: page.URL, Seen: seen, Elements: el("e5", "combobox", "Town")},
		click("e12", "option", "Lisbon, Portugal"),
		{Tool: "click", Args: json.RawMessage(`{"ref":"e14"}`), URL: page.URL, Seen: seen, Elements: el("e14", "radio", "Large"), Checked: &on},
	})
	require.NoError(t, err)
	require.NoError(t, w.Check())
	assert.Equal(t, []Param{{Name: "guests", Label: "Guests", Default: "2 people", Choices: []string{"1 person", "2 people", "4 people", "4 people and a baby"}},
		{Name: "meal", Label: "Meal", Default: "Fish", Choices: []string{"Fish", "Vegetarian"}},
		{Name: "town", Label: "Town", Default: "Lisbon"}, {Name: "size", Label: "Size", Default: "Large", Choices: []string{"Small", "Large"}}}, w.Params)
	props := w.Schema()["properties"].(map[string]any)
	assert.Equal(t, `Meal (a choice; the page offered "Fish", "Vegetarian" when it was recorded)`, props["meal"].(map[string]any)["description"])
	assert.Equal(t, []string{"Fish", "Vegetarian"}, props["meal"].(map[string]any)["examples"])
	assert.Equal(t, "check radio “Large” (or the first named with {{size}})", w.Steps[6].What)
	assert.Equal(t, "click option “2 people” (or the first named with {{guests}})", w.Steps[2].What)

	replay := func(given map[string]string) (string, *Stop) {
		values := map[string]string{}
		for _, p := range w.Params {
			values[p.Name] = p.Default
		}
		maps.Copy(values, given)
		b := &fakeBrowser{snap: page}
		stop := b.runner(w, values).Run(context.Background(), 0)
		return strings.Join(b.calls, " "), stop
	}
	calls, stop := replay(nil)
	require.Nil(t, stop)
	assert.Equal(t, `{"url":"https://book.test/"} {"ref":"e1"} {"ref":"e8"} {"ref":"e3"} {"ref":"e5","text":"Lisbon"} {"ref":"e12"} {"fields":[{"ref":"e14","value":"true"}]}`, calls, "as recorded")
	calls, stop = replay(map[string]string{"guests": "4 people", "meal": "vegetarian", "town": "Porto", "size": "Small"})
	require.Nil(t, stop)
	assert.Equal(t, `{"url":"https://book.test/"} {"ref":"e1"} {"ref":"e9"} {"ref":"e4"} {"ref":"e5","text":"Porto"} {"ref":"e11"} {"fields":[{"ref":"e13","value":"true"}]}`, calls,
		"the option named as the value, not the longer one that holds it")
	calls, stop = replay(map[string]string{"guests": "baby"})
	require.Nil(t, stop)
	assert.Contains(t, calls, `{"ref":"e10"}`, "the one option that holds it")
	_, stop = replay(map[string]string{"guests": "9 people"})
	require.NotNil(t, stop)
	assert.Equal(t, 2, stop.Step)
	assert.Equal(t, StopMissing, stop.Kind)
	assert.Equal(t, "the page has no option “9 people”; it has option “Fish”; option “Vegetarian”; option “1 person”", stop.Reason)
	_, stop = replay(map[string]string{"guests": "people"})
	require.NotNil(t, stop, "several hold it: none is guessed at")
	_, stop = replay(map[string]string{"town": "Faro"})
	require.NotNil(t, stop, "no suggestion for the town typed: not the recorded one")
	assert.Equal(t, 5, stop.Step)
	// What the step before clicked open names the list, unless it says one of its choices (a
	// button that shows the choice made).
	opened := func(opener tool.Node) []Param {
		list := &tool.Snap{URL: "https://book.test/", Tree: []tool.Item{{Node: &opener}, {Node: &tool.Node{Role: "listbox", Ref: "e2", Kids: []tool.Item{
			{Node: &tool.Node{Role: "option", Name: "Texas", Ref: "e3"}}, {Node: &tool.Node{Role: "option", Name: "Wade Cooper", Ref: "e4"}},
		}}}}}
		seen := tool.Format(list, tool.SnapOptions{})
		w, err := Record("Pick", "", []Call{
			{Tool: "click", Args: json.RawMessage(`{"ref":"e1"}`), URL: list.URL, Seen: seen, Elements: el("e1", opener.Role, opener.Name)},
			{Tool: "click", Args: json.RawMessage(`{"ref":"e3"}`), URL: list.URL, Seen: seen, Elements: el("e3", "option", "Texas")},
		})
		require.NoError(t, err)
		return w.Params
	}
	assert.Equal(t, []Param{{Name: "select_a_state", Label: "Select a state", Default: "Texas", Choices: []string{"Texas", "Wade Cooper"}}},
		opened(tool.Node{Role: "generic", Name: "Select a state", Ref: "e1"}), "react-select's control")
	assert.Empty(t, opened(tool.Node{Role: "button", Name: "Assigned to Wade Cooper", Ref: "e1"}))
}

// A value chosen in a select keeps what the select offered as its parameter's choices, for the
// run form and an outside agent's schema; a select that offered more than the snapshot wrote
// keeps none. An imported workflow is checked for them too.
func TestAChoiceKeepsWhatThePageOffered(t *testing.T) {
	choose := func(line string) []string {
		w, err := Record("Size", "", []Call{{Tool: "select_option", Args: json.RawMessage(`{"ref":"e1","values":["Medium"]}`), URL: "https://shop.test/",
			Seen: "h1: Shirt\n" + line + "\nbutton \"Buy\" [e2]\n", Elements: []tool.Element{{Ref: "e1", Role: "combobox", Name: "Size", Origin: "https://shop.test"}}}})
		require.NoError(t, err)
		require.NoError(t, w.Check())
		require.Len(t, w.Params, 1)
		return w.Params[0].Choices
	}
	assert.Equal(t, []string{"Small", "Medium", "Large [XL]"}, choose(`combobox "Size" [e1] value="Small" options="Small","Medium","Large [XL]"`))
	assert.Nil(t, choose(`combobox "Size" [e1] value="Small" options="Small","Medium",…(+40)`), "some left out")
	assert.Nil(t, choose(`combobox "Size" [e1] value="Small"`))

	w := &Workflow{Name: "x", Steps: []Step{{Tool: "navigate", Args: json.RawMessage(`{"url":"https://shop.test/"}`)}},
		Params: []Param{{Name: "size", Default: "S", Choices: make([]string, MaxChoices+1)}}}
	assert.EqualError(t, w.Check(), "the parameter “size” keeps 51 choices; at most 50 are kept, and a secret keeps none")
	w.Params[0] = Param{Name: "pw", Secret: true, Choices: []string{"a", "b"}}
	assert.Error(t, w.Check())
}

// A path chosen down a cascade's levels (Europe, France, Paris) is one value of the workflow,
// its parts joined as select_option reads a path; several choices of one list are several.
func TestAPathDownACascadeIsOneValue(t *testing.T) {
	record := func(path bool) *Workflow {
		w, err := Record("Region", "", []Call{{Tool: "select_option", Args: json.RawMessage(`{"ref":"e1","values":["Europe","France","Paris"]}`), URL: "https://shop.test/",
			Path: path, Elements: []tool.Element{{Ref: "e1", Role: "combobox", Name: "Region", Origin: "https://shop.test"}}}})
		require.NoError(t, err)
		require.NoError(t, w.Check())
		return w
	}
	w := record(true)
	require.Len(t, w.Params, 1)
	assert.Equal(t, "Europe / France / Paris", w.Params[0].Default)
	assert.JSONEq(t, `{"ref":"@1","values":["{{region}}"]}`, string(w.Steps[1].Args))
	assert.Len(t, record(false).Params, 3, "a multiple choice")
}

// An address with nothing of the run's in it is kept as it was written, to the byte; one with
// a value is filled back to an address that holds that value where it was.
func FuzzAddress(f *testing.F) {
	for _, s := range []string{"https://food.test/search/Luigi?q=Luigi&x=1#top", "HTTP://[::1]:8080/a%2Fb?&&=&q=Luigi+x#", "https://u:p@a.test/Luigi", "https://a.test?q=%zz", "https://a.test/%E2%82%AC/Luigi?q=luigi%20"} {
		f.Add(s, "Luigi")
	}
	f.Fuzz(func(t *testing.T, raw, value string) {
		bare := recorder{w: &Workflow{}}
		if got, made := bare.address(raw); got != raw || made != "" {
			t.Fatalf("address(%q) with no values = %q, %q", raw, got, made)
		}
		r := recorder{w: &Workflow{Params: []Param{{Name: "v", Default: value}}}}
		got, _ := r.address(raw)
		if got == raw {
			return
		}
		filled, err := Fill(json.RawMessage(`{"url":`+strconv.Quote(got)+`}`), map[string]string{"v": value})
		if err != nil {
			return // (a value Go quotes otherwise than JSON does)
		}
		var in struct {
			URL string `json:"url"`
		}
		require.NoError(t, json.Unmarshal(filled, &in))
		if _, ok := weburl.Web(in.URL); !ok {
			t.Fatalf("address(%q) = %q filled with %q: %q is no address", raw, got, value, in.URL)
		}
	})
}

// A control the page has not enabled yet (a Send enabled once the page checks the form) is
// waited for before the step's call, as a person waits; one the page keeps disabled gets the
// call all the same once the wait is over, which says why.
func TestAReplayWaitsForAControlThePageEnables(t *testing.T) {
	page := func(disabled bool) *tool.Snap {
		d := 0
		if disabled {
			d = 1
		}
		return &tool.Snap{URL: "https://form.test/", Tree: []tool.Item{{Node: &tool.Node{Role: "button", Name: "Send", Ref: "e1", Disabled: d}}}}
	}
	w := &Workflow{Name: "Send", Steps: []Step{{Tool: "click", Args: json.RawMessage(`{"ref":"@1"}`), Targets: []Target{{Role: "button", Name: "Send"}}, URL: "https://form.test/", Origin: "https://form.test"}}}
	for _, enabledAt := range []int{3, 1 << 30} {
		reads, calledAt := 0, 0
		wait := 30 * time.Second // ended by the page enabling it (at the third read)
		if enabledAt > 3 {
			wait = 300 * time.Millisecond
		}
		r := &Runner{Workflow: w, Values: map[string]string{}, Wait: wait,
			Read: func(context.Context, int) (*tool.Snap, error) { reads++; return page(reads < enabledAt), nil },
			Call: func(_ context.Context, _ int, args, _ json.RawMessage) Outcome {
				calledAt = reads
				assert.JSONEq(t, `{"ref":"e1"}`, string(args))
				return Outcome{OK: true}
			}}
		require.Nil(t, r.Run(context.Background(), 0))
		if enabledAt == 3 {
			assert.Equal(t, 3, calledAt, "called once the page enabled it")
		} else {
			assert.Positive(t, calledAt, "called after the wait, to say why")
		}
	}
}

// dated is Dated's values, failing t on its error.
func dated(t *testing.T, w *Workflow, values map[string]string, now time.Time) map[string]string {
	t.Helper()
	out, err := Dated(w, values, now)
	require.NoError(t, err)
	return out
}

// A date typed on a page that says its language (lang="nl") is written in it at a run, though
// its names were English words too ("2 december 2026" is Dutch, "november 2026" Swedish) or
// another language's as well ("2 maj 2027" is Polish on a Polish page, Swedish elsewhere). A
// date in English's order ("December 2, 2026") or short names as English writes them stay
// English's on any page; a page that does not say keeps the recorded words' reading.
func TestADateIsWrittenInThePagesLanguage(t *testing.T) {
	form := &tool.Snap{URL: "https://reis.test/", Tree: []tool.Item{{Node: &tool.Node{Role: "textbox", Name: "Datum", Ref: "e1"}}}}
	seen := tool.Format(form, tool.SnapOptions{})
	now := time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC)
	for _, c := range []struct{ lang, typed, want string }{
		{"nl", "2 december 2026", "1 januari 2027"},
		{"nl-NL", "woensdag 2 december 2026", "vrijdag 1 januari 2027"},
		{"sv", "november 2026", "januari 2027"},
		{"da", "2. december 2026", "1. januar 2027"},
		{"no", "2. september 2026", "1. januar 2027"}, // (Norwegian's code of old)
		{"pl", "2 maj 2027", "1 styczeń 2027"},
		{"", "2 maj 2027", "1 januari 2027"}, // (Swedish, the first that writes it so)
		{"cs", "2 listopad 2026", "1 leden 2027"},
		{"de", "November 2026", "Januar 2027"},
		{"nl", "December 2, 2026", "January 1, 2027"},
		{"de", "Dec 2, 2026", "Jan 1, 2027"},
		{"en", "2 december 2026", "1 january 2027"},
		{"", "2 december 2026", "1 january 2027"},
		{"fr", "2 Dezember 2026", "1 Januar 2027"}, // (the words say German, whatever the page)
		// Short names that are English words too are a date's only where the page says so.
		{"it", "2 mag 2026", "1 gen 2027"},
		{"pt", "2 out 2026", "1 jan 2027"},
		{"es", "dom 2 ago 2026", "vie 1 ene 2027"},
		{"", "2 mag 2026", "2027-01-01"},
		// A short name a month and a day share (Spanish and Italian "mar": marzo, martes) is
		// the month's in its place.
		{"es", "2 mar 2027", "1 ene 2027"},
		{"it", "mar 2 mar 2027", "ven 1 gen 2027"},
		// A month of two figures after a dot: its zero where the language writes one.
		{"fi", "2.12.2026", "1.1.2027"},
		// Names two languages share read in the page's: Romanian's "dec.", Indonesian's "Desember".
		{"ro", "2 dec. 2026", "1 ian. 2027"},
		{"id", "2 Desember 2026", "1 Januari 2027"},
		{"nb", "2 Desember 2026", "1 Januar 2027"},
		{"", "02 December 2026", "01 January 2027"}, // (its day's zero kept, as Indonesian's "02 Desember")
		{"", "12 December 2026", "1 January 2027"},  // (none where it wrote none that shows)
		{"tr", "2.12.2026", "1.01.2027"},
		{"", "2.12.2026", "1.01.2027"},
		// A page that says a language it is not written in: an English name with English's
		// capital, where the language writes it without, is English's.
		{"nl", "2 December 2026", "1 January 2027"},
		{"sv", "Wednesday 2 December 2026", "Friday 1 January 2027"},
		{"sv", "2 december 2026", "1 januari 2027"},
		{"da", "2. December 2026", "1. Januar 2027"}, // (Danish's day with its dot)
		{"hr", "2. listopada 2026.", "1. siječnja 2027."},
		{"hr", "listopad 2026.", "siječanj 2027."},
		{"hr", "02.10.2026.", "01.01.2027."},
	} {
		w, err := Record("Reis", "", []Call{{Tool: "type", Args: json.RawMessage(`{"ref":"e1","text":"` + c.typed + `"}`), URL: form.URL, Seen: seen,
			Elements: []tool.Element{{Ref: "e1", Role: "textbox", Name: "Datum", Origin: site(form.URL), Lang: strings.ToLower(c.lang[:min(2, len(c.lang))])}}}})
		require.NoError(t, err)
		w.CreatedAt = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).UnixMilli()
		got := dated(t, w, map[string]string{"datum": "{{today+1}}"}, now)
		assert.Equal(t, c.want, got["datum"], "%q on a page in %q", c.typed, c.lang)
	}
	// A stay's last day typed so counts from its first.
	from, days := after([]Param{{Name: "check_in", Default: "2 mag 2026", Lang: "it"}}, "5 mag 2026", "it")
	assert.Equal(t, []any{"check_in", 3}, []any{from, days})
	// Croatian's "listopad" is October, Polish's, Czech's and Ukrainian's November: the page's
	// language tells, and so does Croatian's way of writing a day (its dots).
	for _, c := range []struct {
		value, lang string
		month       time.Month
	}{
		{"2. listopada 2026.", "hr", time.October}, {"2. listopada 2026.", "", time.October},
		{"2 listopada 2026", "", time.November}, {"2 listopada 2026", "pl", time.November}, {"2. listopadu 2026", "", time.November},
		{"2 lis 2026", "hr", time.October}, {"2. studenog 2026.", "", time.November},
	} {
		var got time.Month
		readings(c.value, c.lang, func(t time.Time, _ string) bool { got = t.Month(); return false })
		assert.Equal(t, c.month, got, "%q on a page in %q", c.value, c.lang)
	}
}

// A date typed a few days after the one before it (a stay's last day after its first) counts
// from it when a run leaves it as recorded: a run for another first day, or a schedule's
// {{today+1}}, keeps the stay's length rather than its recorded last day (which could come
// before the new first). A date far from the one before stays a date of its own.
func TestAStaysLastDayCountsFromItsFirst(t *testing.T) {
	form := &tool.Snap{URL: "https://stay.test/", Tree: []tool.Item{
		{Node: &tool.Node{Role: "textbox", Name: "Date of birth", Ref: "e1"}},
		{Node: &tool.Node{Role: "textbox", Name: "Check-in", Ref: "e2"}},
		{Node: &tool.Node{Role: "textbox", Name: "Check-out", Ref: "e3"}},
		{Node: &tool.Node{Role: "button", Name: "Search", Ref: "e4"}},
	}}
	seen := tool.Format(form, tool.SnapOptions{})
	typing := func(ref, text string) Call {
		n, _ := strconv.Atoi(ref[1:])
		e := form.Tree[n-1].Node
		return Call{Tool: "type", Args: json.RawMessage(`{"ref":"` + ref + `","text":"` + text + `"}`), URL: form.URL, Seen: seen,
			Elements: []tool.Element{{Ref: ref, Role: e.Role, Name: e.Name, Origin: site(form.URL)}}}
	}
	record := func(birth, in, out string) *Workflow {
		w, err := Record("Stay", "", []Call{typing("e1", birth), typing("e2", in), typing("e3", out),
			{Tool: "click", Args: json.RawMessage(`{"ref":"e4"}`), URL: form.URL, Seen: seen,
				Elements: []tool.Element{{Ref: "e4", Role: "button", Name: "Search", Origin: site(form.URL)}}}})
		require.NoError(t, err)
		require.NoError(t, w.Check())
		w.CreatedAt = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).UnixMilli()
		return w
	}
	run := func(w *Workflow, given map[string]string, now time.Time) map[string]string {
		values, err := w.WithDefaults(given)
		require.NoError(t, err)
		return dated(t, w, values, now)
	}
	now := time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC)

	w := record("1990-04-02", "2026-12-10", "2026-12-13")
	assert.Equal(t, []Param{{Name: "date_of_birth", Label: "Date of birth", Default: "1990-04-02"},
		{Name: "check_in", Label: "Check-in", Default: "2026-12-10"},
		{Name: "check_out", Label: "Check-out", Default: "2026-12-13", From: "check_in", Days: 3}}, w.Params,
		"the check-in is far from the birth date: a date of its own")
	assert.Equal(t, map[string]string{"date_of_birth": "1990-04-02", "check_in": "2026-12-10", "check_out": "2026-12-13"},
		run(w, nil, now), "left as recorded: the recorded days")
	assert.Equal(t, "2027-03-13", run(w, map[string]string{"check_in": "2027-03-10"}, now)["check_out"])
	assert.Equal(t, "2027-01-04", run(w, map[string]string{"check_in": "{{today+1}}"}, now)["check_out"], "a schedule's tomorrow, over the year's end")
	assert.Equal(t, "2027-02-01", run(w, map[string]string{"check_in": "{{today+1}}", "check_out": "{{check_in+31}}"}, now)["check_out"])
	assert.Equal(t, "2027-03-07", run(w, map[string]string{"check_in": "{{check_out-3}}", "check_out": "2027-03-10"}, now)["check_in"], "counted back from one after it")
	assert.Equal(t, "2026-12-20", run(w, map[string]string{"check_out": "2026-12-20"}, now)["check_out"], "a value given wins")
	props := w.Schema()["properties"].(map[string]any)
	assert.Equal(t, "{{check_in+3}}", props["check_out"].(map[string]any)["default"], "an outside agent reads it in the schema")

	// A value it counts from that holds no date, or two that count from each other: said, not typed.
	values, err := w.WithDefaults(map[string]string{"check_in": "soon"})
	require.NoError(t, err)
	_, err = Dated(w, values, now)
	assert.EqualError(t, err, "the value of check_out, “{{check_in+3}}”, counts from check_in, which holds no date in this run")
	_, err = Dated(w, map[string]string{"check_in": "{{check_out}}", "check_out": "{{check_in+1}}"}, now)
	assert.Error(t, err)
	// {{…}} naming no parameter is text as it was.
	assert.Equal(t, "{{nights+2}}", run(w, map[string]string{"date_of_birth": "{{nights+2}}"}, now)["date_of_birth"])

	// Written as it was typed: the US way, in words, in French.
	w = record("04/02/1990", "12/10/2026", "12/13/2026")
	assert.Equal(t, "02/02/2027", run(w, map[string]string{"check_in": "01/30/2027"}, now)["check_out"])
	w = record("2 avril 1990", "jeudi 10 décembre 2026", "dimanche 13 décembre 2026")
	got := run(w, map[string]string{"check_in": "{{today}}"}, now)
	assert.Equal(t, []string{"jeudi 31 décembre 2026", "dimanche 3 janvier 2027"}, []string{got["check_in"], got["check_out"]})
	w = record("April 2, 1990", "Dec 30", "Jan 2")
	assert.Equal(t, Param{Name: "check_out", Label: "Check-out", Default: "Jan 2", From: "check_in", Days: 3}, w.Params[2], "over a year's end, no year written")

	// A day chosen on a calendar, then one typed: each read as it is written.
	w = record("1990-04-02", "Wednesday, December 2, 2026", "05/12/2026")
	assert.Equal(t, 3, w.Params[2].Days)
	got = run(w, map[string]string{"check_in": "{{today}}"}, now)
	assert.Equal(t, []string{"Thursday, December 31, 2026", "03/01/2027"}, []string{got["check_in"], got["check_out"]})

	// A stay's dates typed into one field as a range picker writes them: two dates, the last
	// counting from the first.
	rng, err := Record("Stay", "", []Call{typing("e2", "2026-12-10 to 2026-12-13")})
	require.NoError(t, err)
	assert.Equal(t, []Param{{Name: "check_in", Label: "Check-in", Default: "2026-12-10"},
		{Name: "check_in_2", Label: "Check-in", Default: "2026-12-13", From: "check_in", Days: 3}}, rng.Params)
	assert.JSONEq(t, `{"ref":"@1","text":"{{check_in}} to {{check_in_2}}"}`, string(rng.Steps[1].Args))
	rng.CreatedAt = w.CreatedAt
	got = run(rng, map[string]string{"check_in": "{{today+1}}"}, now)
	args, err := Fill(rng.Steps[1].Args, got)
	require.NoError(t, err)
	assert.JSONEq(t, `{"ref":"@1","text":"2027-01-01 to 2027-01-04"}`, string(args))

	// Two days the same, or a last day before the first, or months after it: each its own.
	w = record("1990-04-02", "2026-12-10", "2026-12-08")
	assert.Empty(t, w.Params[2].From)
	w = record("1990-04-02", "2026-12-10", "2027-06-10")
	assert.Empty(t, w.Params[2].From)
	// A day before the one typed just before it counts from an earlier one it is a few days
	// on from: a flight's days out and back, then a hotel's check-in on the day out.
	w = record("2026-12-10", "2026-12-17", "2026-12-10")
	assert.Equal(t, []Param{{Name: "date_of_birth", Label: "Date of birth", Default: "2026-12-10"},
		{Name: "check_in", Label: "Check-in", Default: "2026-12-17", From: "date_of_birth", Days: 7},
		{Name: "check_out", Label: "Check-out", Default: "2026-12-10", From: "date_of_birth"}}, w.Params)
	got = run(w, map[string]string{"date_of_birth": "2027-02-01"}, now)
	assert.Equal(t, []string{"2027-02-08", "2027-02-01"}, []string{got["check_in"], got["check_out"]})

	// An import that counts from a parameter after it, or none, is refused; an edit that takes
	// out the first day's step makes the last day a date of its own.
	w = record("1990-04-02", "2026-12-10", "2026-12-13")
	bad := *w
	bad.Params = []Param{w.Params[0], w.Params[2], w.Params[1]}
	assert.EqualError(t, bad.Check(), "the date check_out counts from check_in, which is no date parameter before it")
	w.Params = slices.Delete(w.Params, 1, 2)
	w.Unfollow()
	assert.Equal(t, Param{Name: "check_out", Label: "Check-out", Default: "2026-12-13"}, w.Params[1])
}

// A parameter is named after its field in Latin letters without marks, as the run form, a
// schedule and an outside agent's workflow_run schema show it: "Date d'arrivée" is
// date_d_arrivee (not date_d_arriv_e), "Дата поездки" data_poezdki (not value). A name in
// Japanese, Chinese or Korean is named by the field's words forms use ("お名前": name), else
// after what was typed (a date, an email address, a phone number, a number), else "value".
func TestAParameterIsNamedInLatinLetters(t *testing.T) {
	for label, want := range map[string]string{"Date d'arrivée": "date_d_arrivee", "Дата поездки": "data_poezdki", "Дата народження": "data_narodzhennya",
		"Ημερομηνία άφιξης": "imerominia_afixis", "Straße": "strasse", "Przyjazd, Łódź": "przyjazd", "Şehir": "sehir", "Příjmení": "prijmeni",
		"Sähköposti": "sahkoposti", "Årsak": "arsak", "E-mail address": "e_mail_address",
		"日付": "date", "お名前": "name", "メールアドレス": "email", "电话号码": "phone", "入住日期": "check_in", "이메일": "email", "备注": "value"} {
		assert.Equal(t, want, paramName(label), label)
		assert.True(t, paramOK(paramName(label)), label)
	}
	// A field whose name says nothing in Latin letters (Arabic, Hebrew, Thai, a CJK word not
	// in the list) is named after what was typed into it.
	r := recorder{w: &Workflow{}, known: map[string]Param{}}
	for _, c := range []struct{ label, value, want string }{
		{"تاريخ الوصول", "02/12/2026", "{{date}}"}, {"דוא\"ל", "ana@example.com", "{{email}}"}, {"เบอร์โทร", "+66 81 234 5678", "{{phone}}"},
		{"人數", "4", "{{people}}"}, {"备注", "ring twice", "{{value}}"}, {"จำนวน", "3", "{{number}}"}, {"הערה", "a@b", "{{value_2}}"},
	} {
		assert.Equal(t, c.want, r.param(Target{Name: c.label}, c.value, false), c.label)
	}
}

// What a choice's list and its options are read from is the text of a snapshot the model saw,
// which a page writes: no text makes the readers fail.
func FuzzAChoicesList(f *testing.F) {
	f.Add("listbox \"Meal\" [e2]:\n  option \"Fish\" [e3]\n  option \"Veg\" [e4]\n", "e3", "option")
	f.Add("group \"Size\": radio \"S\" [e3] unchecked radio \"M\" [e4]", "e4", "radio")
	f.Add("combobox \"Size\" [e1] value=\"S\" options=\"S\",\"M [x]\",…(+3)\n", "e1", "option")
	f.Add("\n\n  [e1]\n", "e1", "")
	f.Fuzz(func(t *testing.T, text, ref, role string) {
		r := recorder{w: &Workflow{Steps: []Step{{Tool: "click", Targets: []Target{{Role: "button", Name: ref}}}}}}
		r.listOf(text, ref, role)
		if cs := siblingsOf(text, ref, role); len(cs) > 0 && !strings.Contains(text, role+` "`) {
			t.Fatalf("siblingsOf read %q from a text that writes no %s", cs, role)
		}
		optionsOf(text, ref)
		if at := nextRef(text); at >= 0 && !strings.HasPrefix(text[at:], " [") {
			t.Fatalf("nextRef at %d: %q", at, text[at:])
		}
	})
}

// A value tried, then replaced in the same field by the next act, is one step and one
// parameter, the last value: a replay sets the field once. A choice added to those a list the
// page draws keeps (tags), text added to a field's, a search sent with Enter, and a try with
// something done after it stay steps of their own.
func TestAValueTriedThenReplacedIsOneStep(t *testing.T) {
	field := func(tag, role, name string) []tool.Element {
		return []tool.Element{{Ref: "e1", Role: role, Name: name, Tag: tag, Origin: "https://shop.test"}, {Ref: "e2", Role: "button", Name: "Buy", Tag: "button", Origin: "https://shop.test"}}
	}
	at := func(tool, args string, els []tool.Element) Call {
		return Call{Tool: tool, Args: json.RawMessage(args), URL: "https://shop.test/", Elements: els}
	}
	params := func(calls ...Call) []string {
		w, err := Record("Buy", "", calls)
		require.NoError(t, err)
		require.NoError(t, w.Check())
		var out []string
		for _, p := range w.Params {
			out = append(out, p.Name+"="+p.Default)
		}
		return out
	}
	size := field("select", "combobox", "Size")
	assert.Equal(t, []string{"size=Large"}, params(at("select_option", `{"ref":"e1","values":["Small"]}`, size),
		at("snapshot", `{}`, nil), at("select_option", `{"ref":"e1","values":["Large"]}`, size)))
	name := field("input", "textbox", "Name")
	assert.Equal(t, []string{"name=Ada Lovelace"}, params(at("type", `{"ref":"e1","text":"Ada"}`, name), at("type", `{"ref":"e1","text":"Ada Lovelace","clear":true}`, name)))
	assert.Equal(t, []string{"name=Ada", "name_2= Lovelace"}, params(at("type", `{"ref":"e1","text":"Ada"}`, name), at("type", `{"ref":"e1","text":" Lovelace","clear":false}`, name)))
	assert.Equal(t, []string{"name=Ada", "name_2=Ada Lovelace"}, params(at("type", `{"ref":"e1","text":"Ada","submit":true}`, name), at("type", `{"ref":"e1","text":"Ada Lovelace"}`, name)))
	assert.Equal(t, []string{"name=Ada", "name_2=Ada Lovelace"}, params(at("type", `{"ref":"e1","text":"Ada"}`, name), at("click", `{"ref":"e2"}`, name),
		at("type", `{"ref":"e1","text":"Ada Lovelace"}`, name)))
	tags := field("div", "combobox", "Colours")
	assert.Equal(t, []string{"colours=Red", "colours_2=Blue"}, params(at("select_option", `{"ref":"e1","values":["Red"]}`, tags), at("select_option", `{"ref":"e1","values":["Blue"]}`, tags)))
	bySelector := []tool.Element{{Ref: "e1", Role: "combobox", Name: "Colours", Tag: "div", Origin: "https://shop.test"}}
	assert.Len(t, params(at("select_option", `{"selector":"#colours","values":["Red"]}`, bySelector), at("select_option", `{"selector":"#colours","values":["Blue"]}`, bySelector)), 2,
		"a selector says nothing of the list's role")
	assert.Len(t, params(at("type", `{"selector":"#name","text":"Ada"}`, nil), at("type", `{"selector":"#name","text":"Ada Lovelace"}`, nil)), 1)
	other := append(field("select", "combobox", "Size"), tool.Element{Ref: "e3", Role: "combobox", Name: "Colour", Tag: "select", Origin: "https://shop.test"})
	assert.Equal(t, []string{"size=Small", "colour=Red"}, params(at("select_option", `{"ref":"e1","values":["Small"]}`, other), at("select_option", `{"ref":"e3","values":["Red"]}`, other)))

	// A click that only opened the list select_option then chose in, or gave the focus to the
	// field type then replaced the text of, is no step: the choice opens the list itself, the
	// keys go to the field. A click at a point, a right click, one on another element, one in a
	// field that takes no typing, or before text added where it put the caret stays.
	tools := func(calls ...Call) []string {
		w, err := Record("Buy", "", calls)
		require.NoError(t, err)
		var out []string
		for _, s := range w.Steps[1:] { // (after the first page's navigate)
			out = append(out, s.Tool)
		}
		return out
	}
	venue := field("input", "combobox", "Venue")
	assert.Equal(t, []string{"select_option"}, tools(at("click", `{"ref":"e1"}`, venue), at("snapshot", `{}`, nil), at("select_option", `{"ref":"e1","values":["Lyon"]}`, venue)))
	assert.Equal(t, []string{"select_option"}, tools(at("click", `{"ref":"e1"}`, size), at("select_option", `{"ref":"e1","values":["Large"]}`, size)))
	assert.Equal(t, []string{"click", "select_option"}, tools(at("click", `{"ref":"e1","x":4,"y":5}`, venue), at("select_option", `{"ref":"e1","values":["Lyon"]}`, venue)))
	assert.Equal(t, []string{"click", "select_option"}, tools(at("click", `{"ref":"e1","button":"right"}`, venue), at("select_option", `{"ref":"e1","values":["Lyon"]}`, venue)))
	assert.Equal(t, []string{"click", "select_option"}, tools(at("click", `{"ref":"e2"}`, venue), at("select_option", `{"ref":"e1","values":["Lyon"]}`, venue)))
	assert.Equal(t, []string{"type", "select_option"}, tools(at("click", `{"ref":"e1"}`, venue), at("type", `{"ref":"e1","text":"Ly"}`, venue), at("select_option", `{"ref":"e1","values":["Lyon"]}`, venue)))
	assert.Equal(t, []string{"type"}, tools(at("click", `{"ref":"e1"}`, name), at("snapshot", `{}`, nil), at("type", `{"ref":"e1","text":"Ada","clear":true}`, name)))
	assert.Equal(t, []string{"click", "type"}, tools(at("click", `{"ref":"e1"}`, name), at("type", `{"ref":"e1","text":" Lovelace","clear":false}`, name)),
		"the click put the caret where the text is added")
	assert.Equal(t, []string{"click", "type"}, tools(at("click", `{"ref":"e1","x":4,"y":5}`, name), at("type", `{"ref":"e1","text":"Ada"}`, name)))
	picked := []tool.Element{{Ref: "e1", Role: "textbox", Name: "Date", Tag: "input", Readonly: true, Origin: "https://shop.test"}}
	assert.Equal(t, []string{"click", "type"}, tools(at("click", `{"ref":"e1"}`, picked), at("type", `{"ref":"e1","text":"2026-12-03"}`, picked)),
		"a field that takes no typing is filled by what the click opened")
	assert.Equal(t, []string{"click", "type"}, tools(at("click", `{"ref":"e1"}`, size), at("type", `{"ref":"e1","text":"L"}`, size)),
		"keys typed to a native select are no text that replaces")
	button := field("button", "button", "Venue")
	assert.Equal(t, []string{"click", "select_option"}, tools(at("click", `{"ref":"e1"}`, button), at("select_option", `{"ref":"e1","values":["Lyon"]}`, button)),
		"a click on a button may do more than open a list")
}

// A namesake the model saw in a snapshot continued after a ref (after=) has its place counted
// from the page's start, as a replay counts it: blogger's fourth "Edit", seen after e100, is
// the fourth, not the third. A continued snapshot of a part not read before stands alone.
func TestAPlaceSeenInAContinuedSnapshotCountsFromThePagesStart(t *testing.T) {
	page := snap(t, "blogger")
	first := tool.Format(page, tool.SnapOptions{MaxTokens: 1000})
	require.Contains(t, first, "[e41]")
	cut := regexp.MustCompile(`after="(e\d+)"`).FindStringSubmatch(first)
	require.NotNil(t, cut, "the first part says where it was cut")
	rest := tool.Format(page, tool.SnapOptions{After: cut[1]})
	require.NotContains(t, rest, "[e41]")
	require.NotContains(t, first, "[e129]")
	require.Contains(t, rest, "[e129]")
	edit := tool.Element{Ref: "e129", Role: "link", Name: "Edit", Tag: "a", Origin: site(page.URL)}
	place := func(seen string) int {
		w, err := Record("Edit", "", []Call{{Tool: "click", Args: json.RawMessage(`{"ref":"e129"}`), Elements: []tool.Element{edit}, URL: page.URL, Seen: seen}})
		require.NoError(t, err)
		return w.Steps[1].Targets[0].Nth
	}
	assert.Equal(t, 3, place(tool.Format(page, tool.SnapOptions{MaxTokens: 40000})), "the whole page")
	assert.Equal(t, 3, place(Saw(first, rest)))
	assert.Less(t, place(Saw("", rest)), 3, "only the part after the cut was read")
	assert.Equal(t, first, Saw(rest, first), "a new snapshot stands alone")
	huge := strings.Repeat("text\n", maxSaw/5) + `button "Edit" [e5]` + "\n"
	next := "Page: p\nURL: u\n[Continued after [e5].]\n" + `button "Edit" [e6]` + "\n"
	assert.Equal(t, next, Saw(huge, next), "past its bound, a part stands alone")
	assert.Equal(t, huge[len(huge)-200:]+next[len("Page: p\nURL: u\n"):], Saw(huge[len(huge)-200:], next))
}

// A button its caller found with find, or past the cut of the snapshot it read, is placed
// among its namesakes by where the page showed it as the call acted (tool.Element.Place):
// keep-images' third "Share this story" replays as the third, not the first.
func TestANamesakeFoundWithoutASnapshotKeepsItsPlace(t *testing.T) {
	page := snap(t, "keep-images")
	var shares []string
	for _, c := range flatten(page) {
		if c.n.Role == "button" && strings.HasPrefix(c.n.Name, "Share this story") {
			shares = append(shares, c.n.Ref)
		}
	}
	require.Len(t, shares, 4)
	share := tool.Element{Ref: shares[2], Role: "button", Name: "Share this story on Twitter, Facebook, or email", Tag: "button", Origin: site(page.URL)}
	placed := share
	placed.Place = Placed(page, share)
	require.NotNil(t, placed.Place)
	assert.Equal(t, 2, placed.Place.Nth)
	assert.Nil(t, Placed(page, tool.Element{Ref: "e99999", Role: "button", Name: "Share"}), "not on the page")
	clicked := func(e tool.Element, seen string) string {
		w, err := Record("Share", "", []Call{{Tool: "click", Args: json.RawMessage(`{"ref":"` + e.Ref + `"}`), Elements: []tool.Element{e}, URL: page.URL, Seen: seen}})
		require.NoError(t, err)
		b := &fakeBrowser{snap: page}
		require.Nil(t, b.runner(w, nil).Run(context.Background(), 0))
		return b.calls[1]
	}
	want := `{"ref":"` + shares[2] + `"}`
	assert.Equal(t, want, clicked(placed, ""), "found with find: no snapshot read")
	assert.Equal(t, want, clicked(share, tool.Format(page, tool.SnapOptions{MaxTokens: 1 << 20})), "seen in a snapshot")
	assert.Equal(t, `{"ref":"`+shares[0]+`"}`, clicked(share, ""), "neither: the first")
	other := snap(t, "medium-2") // (its refs are others, named alike)
	assert.Equal(t, want, clicked(placed, tool.Format(other, tool.SnapOptions{MaxTokens: 1 << 20})), "a snapshot of another page read last")
}

// A snapshot shows an element where it writes its role and name at its ref: as a label, cut
// short, or as the text of a cell. The snapshot of another page, whose refs count from e1 too,
// names another element by it, and shows none of this one.
func TestASnapshotShowsAnElementWhereItWritesIt(t *testing.T) {
	long := strings.Repeat("word ", 30)
	text := "Page: Orders\nURL: https://shop.test/orders\n" + `button "Archive" [e3]` + "\n" + `link "` + long[:119] + `…" [e4]` + "\n" +
		`  row: cell [e5]: 29 | cell [e6]: 30` + "\n" + `button [e7] hint="trash"` + "\n"
	for _, c := range []struct {
		e     tool.Element
		shown bool
	}{
		{tool.Element{Ref: "e3", Role: "button", Name: "Archive"}, true},
		{tool.Element{Ref: "e3", Role: "button", Name: "Delete"}, false},
		{tool.Element{Ref: "e3", Role: "link", Name: "Archive"}, false},
		{tool.Element{Ref: "e4", Role: "link", Name: long + "and more"}, true},
		{tool.Element{Ref: "e4", Role: "link", Name: "word word"}, false},
		{tool.Element{Ref: "e6", Role: "cell", Name: "30"}, true},
		{tool.Element{Ref: "e6", Role: "cell", Name: "29"}, false},
		{tool.Element{Ref: "e7", Role: "button"}, true},
		{tool.Element{Ref: "e8", Role: "button", Name: "Archive"}, false},
	} {
		assert.Equal(t, c.shown, Shows(text, c.e), "%+v", c.e)
	}
}
