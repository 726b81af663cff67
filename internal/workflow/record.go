package workflow

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Call is one tool call of a finished run, as the recorder takes it: what ran, the elements its
// refs stood for (the page described each before the gate ruled), the page it acted on, and the
// last snapshot the model read before it (where its refs came from).
type Call struct {
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	Elements  []tool.Element  `json:"elements,omitempty"`
	URL       string          `json:"url,omitempty"`
	Sensitive bool            `json:"sensitive,omitempty"` // it typed into a password or payment field
	Seen      string          `json:"seen,omitempty"`      // the text of the snapshot read before it, if any
	// Checked is the state a click left a checkbox, radio or switch in, if it was one.
	Checked *bool `json:"checked,omitempty"`
	// Path: select_option's values were one path down a list's levels (a cascader's), kept as
	// one value, its parts joined with " / ", which select_option reads as the path again.
	Path bool `json:"path,omitempty"`
	// Tab is the tab it worked in (0: not known, as in chats from before Skiff noted it), and
	// Opened the tabs it opened (a link to a new tab, tab_open).
	Tab    int   `json:"tab,omitempty"`
	Opened []int `json:"opened,omitempty"`
	// Link, for a navigate or tab_open, is the name of the page's link to its address that the
	// run read before it (the links tool): a result's own address made of an id ("…/r/8812")
	// is a result named with a value all the same.
	Link string `json:"link,omitempty"`
}

// ReadLinks sets c's Link from what the links tool last said (text), when c goes to an
// address it listed.
func (c *Call) ReadLinks(text string) {
	if c.Tool != "navigate" && c.Tool != "tab_open" || text == "" {
		return
	}
	var in struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(c.Args, &in) != nil || in.URL == "" {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "- [")
		i := strings.Index(rest, "] ")
		if !ok || i < 0 {
			continue
		}
		q, err := strconv.QuotedPrefix(rest[i+2:])
		if err != nil {
			continue
		}
		if strings.TrimSpace(rest[i+2+len(q):]) == in.URL {
			c.Link, _ = strconv.Unquote(q)
			return
		}
	}
}

// Saw is what the model has seen of the page once it read snapshot text after having read
// seen: a snapshot continued after a ref (after=; its head says "[Continued after [e300].]")
// follows the part it continues, up to that ref's line, so that an element's place among its
// namesakes counts from the page's start, as a replay counts it. Any other snapshot stands
// alone.
func Saw(seen, text string) string {
	const mark = "\n[Continued after ["
	i := strings.Index(text, mark)
	if i < 0 || strings.Count(text[:i], "\n") > 3 { // (the head: the page, its address, its scroll)
		return text
	}
	ref, _, _ := strings.Cut(text[i+len(mark):], "]")
	at := strings.Index(seen, " ["+ref+"]")
	if ref == "" || at < 0 {
		return text // (what it continues was not read in this run)
	}
	body := text[i+1:] // from the mark's line on
	if end := strings.IndexByte(seen[at:], '\n'); end >= 0 {
		seen = seen[:at+end+1]
	} else {
		seen += "\n"
	}
	if len(seen)+len(body) > maxSaw {
		return text // (a page read part by part past this counts from the part's start)
	}
	return seen + body
}

// maxSaw bounds what Saw keeps of a page read part by part (a run's memory, an outside
// client's kept read): about 40 parts of the snapshot's default size.
const maxSaw = 1 << 20

// Record makes a workflow of a run's calls (the ones that ran and succeeded; the caller leaves
// out the rest): reads are dropped, each element becomes a Target, each typed value a
// parameter. A run that did not start with loading its page gets a first step that loads the
// page its first action was on, so that a replay starts where the recording did.
//
// task is what the user asked of the run, in their words: a value an address the run went to
// carries that the task gave ("find usb cables": …/s?k=usb+cables) becomes a parameter too.
func Record(name, task string, calls []Call) (*Workflow, error) {
	w := &Workflow{Name: strings.TrimSpace(name), Version: 1}
	if w.Name == "" {
		w.Name = "Workflow"
	}
	r := recorder{w: w, task: norm(task)}
	for _, c := range lastOfEach(calls) {
		if err := repeatable(c); err != nil {
			return nil, err
		}
		if !acting[c.Tool] {
			continue
		}
		tab, err := r.tab(c)
		if err != nil {
			return nil, sayRecordStep.Error(len(w.Steps)+1, c.Tool, err)
		}
		if len(w.Steps) == 0 && c.Tool != "navigate" && c.Tool != "tab_open" && c.URL != "" {
			s := Step{Tool: "navigate", URL: c.URL, Origin: site(c.URL), Tab: tab}
			var at string
			at, s.For = r.address(c.URL)
			s.Args, _ = json.Marshal(map[string]string{"url": at})
			s.What = Describe(s)
			w.Steps = append(w.Steps, s)
		}
		s, err := r.step(c, tab)
		if err != nil {
			return nil, sayRecordStep.Error(len(w.Steps)+1, c.Tool, err)
		}
		w.Steps = append(w.Steps, r.optional(s))
	}
	if len(w.Steps) == 0 {
		return nil, sayOnlyRead.Error()
	}
	r.dateParts()
	if len(w.Steps) > MaxSteps {
		return nil, sayRunTooLong.Error(len(w.Steps), MaxSteps)
	}
	return w, nil
}

// lastOfEach is calls without the ones whose value the next act replaced: a choice made again
// in the same list (select_option), or text typed again over what was typed into the same
// field, with nothing done in between. A run that tried a value, then another, leaves the
// field holding the last: the replay sets it once, to that, and asks for one value, not one
// for each try ("meeting_point", "meeting_point_2"). Text typed with Enter (a search sent), or
// added to (clear false), stays: the page took it, or it is part of what the field holds.
func lastOfEach(calls []Call) []Call {
	var out []Call
	for i, c := range calls {
		next := i + 1
		for next < len(calls) && !acting[calls[next].Tool] {
			next++
		}
		if next == len(calls) || !replaces(c, calls[next]) && !opens(c, calls[next]) {
			out = append(out, c)
		}
	}
	return out
}

// replaces reports whether call b sets again the field call a set, to a value of its own.
func replaces(a, b Call) bool {
	type set struct {
		Ref, Selector string
		Clear         *bool
		Submit        bool
	}
	var x, y set
	if a.Tool != b.Tool || a.Tab != b.Tab || a.Tool != "select_option" && a.Tool != "type" ||
		json.Unmarshal(a.Args, &x) != nil || json.Unmarshal(b.Args, &y) != nil {
		return false
	}
	if x.Submit || (x.Clear != nil && !*x.Clear) || (y.Clear != nil && !*y.Clear) {
		return false
	}
	if x.Ref == "" {
		// (A selector names no element whose role says whether it keeps several choices.)
		return a.Tool == "type" && x.Selector != "" && x.Selector == y.Selector && y.Ref == ""
	}
	ea, eb := sameElement(a, b, x.Ref, y.Ref)
	if ea == nil || ea.Field != eb.Field || a.Sensitive != b.Sensitive {
		return false
	}
	// A list the page draws may keep several choices, each one added to those before (tags):
	// a choice replaces the one before only in a list that holds one, a native select that is
	// no listbox, a text field that suggests (it holds one text), or a cascade's path.
	return a.Tool == "type" || ea.Tag == "select" && ea.Role == "combobox" || ea.Role == "textbox" || ea.Role == "searchbox" || a.Path && b.Path
}

// opens reports whether click a, on the field the next acting call b then typed in or chose in,
// did nothing but open the field's list or give it the focus: select_option opens the list it
// chooses in, and type gives the field the focus and replaces what it held. Only a plain left
// click on the same element counts, in a field that holds a value (a click on a button or a link
// may do more than open a list); before a type, only in a field the keys go to (not one that
// takes no typing, filled by what it opens), and not before text added where the click put the
// caret.
func opens(a, b Call) bool {
	if a.Tool != "click" || b.Tool != "select_option" && b.Tool != "type" {
		return false
	}
	type at struct {
		Ref    string
		X      *float64
		Button string
		Double bool
		Clear  *bool
	}
	var x, y at
	if a.Tab != b.Tab || json.Unmarshal(a.Args, &x) != nil || json.Unmarshal(b.Args, &y) != nil ||
		x.X != nil || x.Double || x.Button != "" && x.Button != "left" {
		return false
	}
	ea, _ := sameElement(a, b, x.Ref, y.Ref)
	if ea == nil || !(ea.Tag == "select" || ea.Role == "combobox" || ea.Role == "textbox" || ea.Role == "searchbox") {
		return false
	}
	if b.Tool == "select_option" {
		return true
	}
	return ea.Tag != "select" && !ea.Readonly && (y.Clear == nil || *y.Clear)
}

// sameElement is the elements refs ra and rb name in a's and b's when they are one: the same
// ref, role, name and origin; nil when they are not, or either is not known.
func sameElement(a, b Call, ra, rb string) (ea, eb *tool.Element) {
	ea, eb = elementOf(a, ra), elementOf(b, rb)
	if ra == "" || ra != rb || ea == nil || eb == nil || ea.Role != eb.Role || ea.Name != eb.Name || ea.Origin != eb.Origin {
		return nil, nil
	}
	return ea, eb
}

// elementOf is the element of c's elements that ref names, or nil.
func elementOf(c Call, ref string) *tool.Element {
	for i := range c.Elements {
		if c.Elements[i].Ref == ref {
			return &c.Elements[i]
		}
	}
	return nil
}

// repeatable refuses a call a replay cannot make: giving a page files (they come with a call,
// from the user's computer or the chat, and are never stored). Left out, the replay would go
// on without them, and send a form that lacks its file.
func repeatable(c Call) error {
	if c.Tool == "upload_file" {
		return sayFiles.Error()
	}
	return nil
}

// Extend is a new version of base repaired by a model: its first upto steps (the ones that ran
// as recorded), then the steps of the calls the model made to finish it. The parameters are the
// ones the kept steps use, and the ones the model's calls typed: a value it typed as a
// placeholder of base ("{{restaurant}}", as it is told to) stays that parameter.
//
// values are the replay's (the model's pages show them, not the recorded ones: a result named
// after the replay's search follows its parameter), and ran its calls of the steps that ran
// (the tabs the model works in are counted on from the ones they opened).
func Extend(base *Workflow, upto int, values map[string]string, ran, calls []Call) (*Workflow, error) {
	if upto < 0 || upto > len(base.Steps) {
		return nil, sayNoStep.Error(upto + 1)
	}
	w := &Workflow{ID: base.ID, Name: base.Name, Version: base.Version + 1, From: base.From, CreatedAt: base.CreatedAt}
	w.Steps = append(w.Steps, base.Steps[:upto]...)
	used := map[string]bool{}
	for _, s := range w.Steps {
		for _, p := range s.Params() {
			used[p] = true
		}
	}
	r := recorder{w: w, known: map[string]Param{}, values: values}
	for _, c := range ran {
		if acting[c.Tool] {
			_, _ = r.tab(c) // a tab it did not know stays unknown: the model's step there is refused
		}
	}
	for _, p := range base.Params {
		r.known[p.Name] = p
		if used[p.Name] {
			w.Params = append(w.Params, p)
		}
	}
	for _, c := range lastOfEach(calls) {
		if err := repeatable(c); err != nil {
			return nil, err
		}
		if !acting[c.Tool] {
			continue
		}
		tab, err := r.tab(c)
		if err != nil {
			return nil, sayRecordStep.Error(len(w.Steps)+1, c.Tool, err)
		}
		s, err := r.step(c, tab)
		if err != nil {
			return nil, sayRecordStep.Error(len(w.Steps)+1, c.Tool, err)
		}
		w.Steps = append(w.Steps, r.optional(s))
	}
	if len(w.Steps) == upto {
		return nil, sayModelOnlyRead.Error()
	}
	if len(w.Steps) > MaxSteps {
		return nil, sayRunTooLong.Error(len(w.Steps), MaxSteps)
	}
	w.Unfollow()
	return w, w.Check()
}

// checkable are the roles fill_form sets to a state.
var checkable = map[string]bool{"checkbox": true, "radio": true, "switch": true}

// fieldRoles are the roles of fields, named by their labels.
var fieldRoles = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "spinbutton": true, "slider": true, "listbox": true}

type recorder struct {
	w *Workflow
	// known are the parameters of the workflow a repair extends: a value typed as one's
	// placeholder is that parameter.
	known map[string]Param
	// tabs are the run's tabs by id, each at its place (Step.Tab); n is how many places are
	// taken, and last the place of the step before.
	tabs    map[int]int
	n, last int
	task    string            // what the user asked, as norm writes it
	values  map[string]string // in a repair, the replay's values of the known parameters
}

// tab is the place in the run of the tab call c works in (Step.Tab), counting the tabs it
// opens. The run starts in the tab of its first act; after that, a call in a tab that was
// neither that one nor one the run opened (a tab of the user's it switched to) is refused: a
// replay could not tell which tab that is.
func (r *recorder) tab(c Call) (int, error) {
	if r.tabs == nil {
		r.tabs = map[int]int{}
	}
	if r.n == 0 {
		r.n = 1 // place 0 is where the run starts, even when its id is not known
		if c.Tab != 0 {
			r.tabs[c.Tab] = 0
		}
	}
	place, known := r.last, true // a call from before tabs were noted: where the one before was
	if c.Tab != 0 {
		place, known = r.tabs[c.Tab]
	}
	for _, id := range c.Opened {
		if _, ok := r.tabs[id]; !ok {
			r.tabs[id] = r.n
			r.n++
		}
	}
	if c.Tool == "tab_open" && len(c.Opened) > 0 {
		place, known = r.tabs[c.Opened[0]], true // it works in the tab it opens
	}
	if !known {
		return 0, sayForeignTab.Error()
	}
	r.last = place
	return place, nil
}

// ids are arguments that name what dies with the browser session: tabs and groups.
var ids = []string{"tabId", "tabIds", "groupId"}

// maxHref is the longest address of a link a target keeps (Target.Href): a longer one (a
// tracker's) is not, and its namesakes are told apart by their place.
const maxHref = 500

// step is call c as a step in the run's tab at place tab.
func (r *recorder) step(c Call, tab int) (Step, error) {
	var args map[string]any
	if err := json.Unmarshal(c.Args, &args); err != nil || args == nil {
		return Step{}, sayCallArgs.Error()
	}
	for _, k := range ids {
		delete(args, k)
	}
	s := Step{Tool: c.Tool, URL: c.URL, Origin: site(c.URL), Tab: tab}
	byRef := map[string]tool.Element{}
	for _, e := range c.Elements {
		if e.Ref != "" {
			byRef[e.Ref] = e
		}
	}
	var bad string
	var seenAs []string // the targets' refs, as the snapshot the model saw wrote them
	var sawAs []string  // and that snapshot, where it showed them ("" where not)
	refs(args, func(ref string) (string, bool) {
		e, ok := byRef[ref]
		if !ok {
			if bad == "" {
				bad = ref
			}
			return "", false
		}
		t := targetOf(e)
		saw := c.Seen // (what it says of e, where it shows e)
		if !Shows(saw, e) {
			saw = ""
		}
		if p := e.Place; p != nil {
			// (Its caller's snapshot did not show it: where it stood was read as it acted.)
			t.Hint, t.Nth, t.Near = p.Hint, p.Nth, p.Near
		} else {
			if t.Name == "" {
				t.Hint = hintOf(saw, ref)
			}
			t.Nth, t.Near = seen(saw, ref, t)
		}
		if e.Origin != "" && e.Origin != s.Origin {
			t.Frame = e.Origin
		}
		if len(e.Link) <= maxHref { // (a link, or an <a> a page made a button: a carousel's Next)
			t.Href = e.Link
		}
		if !fieldRoles[t.Role] {
			// (A field is named by its label, which a value typed before may say by chance:
			// a "Team" list after the plan "Team" was chosen. It is no result of that value.)
			t.Param = r.heldBy(t.Name)
		}
		if d := dateIn(t.Name); t.Param == "" && d != "" && c.Tool == "click" {
			// A day of a calendar ("Choose Wednesday, December 2, 2026"): the date is a
			// parameter, which {{today+1}} may count from the day of the run.
			t.Param = strings.Trim(r.param(Target{Name: "date", Lang: t.Lang}, d, false), "{}")
		} else if n, ok := dayNumber(t.Name); t.Param == "" && ok && c.Tool == "click" {
			// One named by its number under the month its calendar shows: the same.
			if d, month := dateOfDay(saw, ref, snapLabel(Target{Role: t.Role}), n, t.Lang); d != "" {
				t.Month = month
				t.Param = strings.Trim(r.param(Target{Name: "date", Lang: t.Lang}, d, false), "{}")
			}
		}
		if t.Param == "" && c.Tool == "click" && (t.Role == "option" || t.Role == "radio") && t.Name != "" {
			// A choice in a list the page draws (a listbox's option, clicked as models do
			// rather than chosen with select_option), or among a group's radios: the value
			// chosen is a parameter named after the list or the group, as a select's is.
			if list := r.listOf(saw, ref, t.Role); list != "" {
				t.Param = strings.Trim(r.param(Target{Name: list, Lang: t.Lang}, t.Name, false), "{}")
				r.offer(t.Param, siblingsOf(saw, ref, t.Role))
			}
		}
		s.Targets = append(s.Targets, t)
		seenAs = append(seenAs, ref)
		sawAs = append(sawAs, saw)
		s.Optional = c.Tool == "click" && len(s.Targets) == 1 && e.Over && (dismisses(t) || e.Consent && (t.Role == "button" || t.Role == "link"))
		return "@" + strconv.Itoa(len(s.Targets)), true
	})
	if bad != "" {
		return Step{}, sayUnrecorded.Error(bad)
	}
	// The values it typed become parameters, named after their fields.
	target := func(i int) Target {
		if i < len(s.Targets) {
			return s.Targets[i]
		}
		return Target{}
	}
	switch c.Tool {
	case "type":
		if v, ok := args["text"].(string); ok {
			t := target(0)
			args["text"] = r.typed(t, v, secretValue(c, t.Field))
		}
	case "select_option":
		if vs, ok := args["values"].([]any); ok && c.Path && len(vs) > 1 {
			// One path down a cascade's levels is one value: "Europe / France / Paris".
			var parts []string
			for _, v := range vs {
				if sv, ok := v.(string); ok {
					parts = append(parts, sv)
				}
			}
			args["values"] = []any{r.param(target(0), strings.Join(parts, " / "), false)}
		} else if ok {
			for i, v := range vs {
				if sv, ok := v.(string); ok {
					vs[i] = r.param(target(0), sv, false)
					if len(seenAs) > 0 {
						r.offer(strings.Trim(vs[i].(string), "{}"), optionsOf(sawAs[0], seenAs[0]))
					}
				}
			}
		}
	case "fill_form":
		// Fields keep their order, and each has one ref: the i-th target is the i-th field's.
		// A field named by a selector has no target: the targets are the fields with refs.
		var in struct {
			Fields []struct {
				Ref string `json:"ref"`
			} `json:"fields"`
		}
		_ = json.Unmarshal(c.Args, &in)
		if fs, ok := args["fields"].([]any); ok {
			k := 0
			for i, f := range fs {
				m, ok := f.(map[string]any)
				if !ok {
					continue
				}
				t := Target{}
				if i < len(in.Fields) && in.Fields[i].Ref != "" {
					t = target(k)
					k++
				}
				if v, ok := m["value"].(string); ok {
					m["value"] = r.typed(t, v, secretValue(Call{}, t.Field))
				}
			}
		}
	case "wait_for":
		// The text it waits for may hold a value typed before ("Booked for Luigi"): the run's
		// value is waited for.
		for _, k := range []string{"text", "textGone"} {
			if v, ok := args[k].(string); ok {
				args[k] = r.follow(v)
			}
		}
	case "navigate", "tab_open":
		if v, ok := args["url"].(string); ok {
			at, made := r.address(v)
			if made == "" && c.Link != "" && at == v {
				// A result's own address made of an id, its link named with a value.
				made = r.madeFor(c.Link)
			}
			args["url"], s.For = at, made
		}
	case "dialog":
		if v, ok := args["promptText"].(string); ok {
			args["promptText"] = r.param(Target{Name: "answer"}, v, false)
		}
	case "tab_close":
		// The tabs it closed, by their places in the run (the current one when it named none).
		var in struct {
			TabIDs []int `json:"tabIds"`
		}
		_ = json.Unmarshal(c.Args, &in)
		if len(in.TabIDs) == 0 {
			s.Closes = []int{tab}
		}
		for _, id := range in.TabIDs {
			p, ok := r.tabs[id]
			if !ok {
				return Step{}, sayForeignTab.Error()
			}
			s.Closes = append(s.Closes, p)
		}
	case "click":
		// A click on a checkbox, a radio or a switch meant the state it left it in: replayed
		// as a click, it would turn a box the page already shows checked off again. It is
		// kept as that state (fill_form clicks only when the box is not in it already, and
		// says when the page refuses).
		if ref, ok := args["ref"].(string); ok && c.Checked != nil && len(s.Targets) == 1 && checkable[s.Targets[0].Role] && args["double"] != true && (args["button"] == nil || args["button"] == "left") {
			s.Tool = "fill_form"
			args = map[string]any{"fields": []any{map[string]any{"ref": ref, "value": strconv.FormatBool(*c.Checked)}}}
		}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return Step{}, err
	}
	s.Args = raw
	s.What = Describe(s)
	return s, nil
}

// param makes value a parameter named after the field t and returns its placeholder. The same
// field typed with the same value again shares the parameter.
func (r *recorder) param(t Target, value string, secret bool) string {
	if name, ok := strings.CutPrefix(value, "{{"); ok && strings.HasSuffix(name, "}}") {
		name = strings.TrimSuffix(name, "}}")
		if p, ok := r.known[name]; ok {
			if r.find(name) < 0 {
				r.w.Params = append(r.w.Params, p)
			}
			return value
		}
	}
	base := paramName(t.Name)
	if t.Name == "" {
		base = paramName(t.Role)
		if secret {
			base = "password"
		}
	} else if base == "value" && !secret {
		base = kindOf(value, t.Lang) // (a field named in letters that say nothing in Latin ones: Arabic, Hebrew, Thai…)
	}
	if secret {
		value = "" // never stored
	}
	name := base
	for n := 2; ; n++ {
		i := r.find(name)
		if i < 0 {
			break
		}
		if p := r.w.Params[i]; p.Secret == secret && p.Default == value && p.Label == t.Name {
			return "{{" + name + "}}"
		}
		name = base + "_" + strconv.Itoa(n)
	}
	p := Param{Name: name, Label: t.Name, Default: value, Secret: secret, Lang: t.Lang}
	if !secret {
		p.From, p.Days = after(r.w.Params, value, t.Lang)
	}
	r.w.Params = append(r.w.Params, p)
	return "{{" + name + "}}"
}

// kindOf names a parameter after what its value is, for a field whose name gives none: "date",
// "email", "phone", "number", else "value".
func kindOf(value, lang string) string {
	v := strings.TrimSpace(value)
	digits, other := 0, 0
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune("+-() .", r):
		default:
			other++
		}
	}
	switch at := strings.IndexByte(v, '@'); {
	case isDateAs(v, lang):
		return "date"
	case at > 0 && strings.Contains(v[at:], ".") && !strings.ContainsAny(v, " \t"):
		return "email"
	case other == 0 && digits >= 7 && strings.ContainsAny(v, "+ -("):
		return "phone"
	case other == 0 && digits > 0 && strings.Trim(v, "0123456789") == "":
		return "number"
	}
	return "value"
}

// typed is a value typed into t as the step keeps it: its parameter, or for a stay's dates in
// one field ("2026-12-10 to 2026-12-13", as range pickers write them), each date's, the last
// counting from the first.
func (r *recorder) typed(t Target, value string, secret bool) string {
	if !secret {
		for _, sep := range [...]string{" to ", " - ", " – ", " — ", " au ", " → "} {
			if a, b, ok := strings.Cut(value, sep); ok && isDateAs(a, t.Lang) && isDateAs(b, t.Lang) {
				return r.param(t, a, false) + sep + r.param(t, b, false)
			}
		}
	}
	return r.param(t, value, secret)
}

// FollowsWithin is how many days after the date typed before it a date may be and still count
// from it: a stay, a trip, a rental, a report's few weeks.
const FollowsWithin = 92

// after is the parameter among params (the ones before value's) whose date value, typed on a
// page in lang, counts from, and how many days after it: the date typed just before it, when
// value is one a few days on (a stay's last day after its first), else the last one before that
// value is a few days on from (a hotel's check-in on a flight's day out, after its day back); ""
// when value is no date, or far from those before.
func after(params []Param, value, lang string) (string, int) {
	if !isDateAs(value, lang) {
		return "", 0
	}
	for i := len(params) - 1; i >= 0; i-- {
		p := params[i]
		if p.Secret || !isDateAs(p.Default, p.Lang) {
			continue
		}
		if n, ok := daysAfter(p.Default, value, lang); ok && n >= 0 && n <= FollowsWithin {
			return p.Name, n
		}
	}
	return "", 0
}

// secretValue says whether a value call c typed into a field of kind field ("password",
// "payment", "" for another) is a secret, which no workflow keeps: one typed into such a field,
// or typed by a call the page said was sensitive.
func secretValue(c Call, field string) bool {
	return field != "" || c.Tool == "type" && c.Sensitive
}

// optional is s as the workflow keeps it after the steps recorded so far: a click that closes
// a box over the page (Step.Optional) is one only as the first acts on a page that just loaded
// (after closing another such box: a cookie banner, then a sign-up prompt). A box an act of the
// run opened ("Delete this? OK") comes each time, and a replay that does not find it stops.
func (r *recorder) optional(s Step) Step {
	if !s.Optional {
		return s
	}
	s.Optional = false
	for i := len(r.w.Steps) - 1; i >= 0; i-- {
		p := r.w.Steps[i]
		if p.Tab != s.Tab {
			continue
		}
		switch {
		case p.Optional:
			continue
		case p.Tool == "navigate" || p.Tool == "tab_open" || p.Tool == "back" || p.Tool == "forward" || p.Tool == "reload":
			s.Optional = true
		}
		break
	}
	s.What = Describe(s)
	return s
}

// closing are the names of the buttons that close a box a page puts over itself as it loads
// (a cookie banner, a sign-up prompt), in the languages sites most often use, each between |
// (a string, not a map: nothing to build as the worker starts).
const closing = "|accept|accept all|accept all cookies|accept cookies|allow all|allow all cookies|" +
	"allow cookies|agree|i agree|i accept|agree and close|agree & close|accept and close|" +
	"accept & close|accept and continue|agree and continue|got it|close|dismiss|no thanks|" +
	"no, thanks|not now|maybe later|reject all|reject|decline|decline all|" +
	"continue without accepting|only necessary|only necessary cookies|necessary only|" +
	"essential only|use necessary cookies only|reject non-essential|x|×|✕|close dialog|" +
	"close banner|tout accepter|accepter|accepter et fermer|j'accepte|tout refuser|refuser|" +
	"continuer sans accepter|fermer|alle akzeptieren|akzeptieren|zustimmen|alle ablehnen|" +
	"ablehnen|schließen|aceptar|aceptar todo|aceptar todas|rechazar|rechazar todo|cerrar|" +
	"accetta|accetta tutti|rifiuta|rifiuta tutti|chiudi|ok|okay|ok, got it|understood|i understand|" +
	"alles accepteren|accepteren|akkoord|weigeren|sluiten|aceitar|aceitar todos|rejeitar|fechar|" +
	"zaakceptuj wszystkie|akceptuję|odrzuć|zamknij|godkänn|acceptera alla|avvisa|stäng|" +
	"accepter alle|tillad alle|afvis|afvis alle|luk|godta|godta alle|avvis alle|lukk|" +
	"přijmout vše|přijmout|odmítnout|odmítnout vše|zavřít|rozumím|souhlasím|" +
	"принять|принять все|принимаю|согласен|согласна|отклонить|отклонить все|закрыть|понятно|хорошо|" +
	"прийняти|прийняти все|погоджуюсь|відхилити|закрити|зрозуміло|" +
	"kabul et|tümünü kabul et|kabul ediyorum|reddet|tümünü reddet|kapat|tamam|anladım|" +
	"hyväksy|hyväksy kaikki|hyväksyn|hylkää|hylkää kaikki|sulje|selvä|" +
	"elfogadom|összes elfogadása|mindet elfogadom|elutasítom|elutasítás|bezárás|rendben|" +
	"αποδοχή|αποδοχή όλων|αποδέχομαι|απόρριψη|απόρριψη όλων|κλείσιμο|εντάξει|" +
	"同意する|すべて同意する|すべて受け入れる|同意します|拒否する|閉じる|" +
	"接受|全部接受|接受全部|同意|拒绝|全部拒绝|关闭|知道了|" +
	"동의|모두 동의|동의합니다|모두 허용|거부|모두 거부|닫기|확인|" +
	"prihvati|prihvati sve|prihvaćam|odbij|odbij sve|zatvori|u redu|razumijem|slažem se|" +
	"acceptă|acceptă tot|acceptă toate|accept toate|refuză|refuză tot|închide|am înțeles|" +
	"terima|terima semua|setuju|tolak|tolak semua|tutup|mengerti|" +
	"prijať|prijať všetko|prijať všetky|súhlasím|odmietnuť|odmietnuť všetko|zavrieť|" +
	"приемам|приеми всички|приемане|откажи|отказвам|затвори|разбрах|"

// dismisses says whether t is a button or link that closes a box over the page by its name
// (or, without one, by what its page's code calls it: "close").
func dismisses(t Target) bool {
	if t.Role != "button" && t.Role != "link" && t.Role != "generic" {
		return false
	}
	if t.Name == "" {
		return t.Hint == "close" || t.Hint == "dismiss"
	}
	name := strings.Trim(norm(t.Name), ".!")
	return name != "" && !strings.Contains(name, "|") && strings.Contains(closing, "|"+name+"|")
}

// heldBy is the parameter an element's name holds the recorded value of ("" when none): a
// value typed before (followed), as whole words (a search result named after what was searched
// for).
func (r *recorder) heldBy(name string) string {
	n := norm(name)
	for _, p := range r.followed() {
		if holds(n, norm(p.Default)) {
			return p.Name
		}
	}
	return ""
}

// followed are the values typed before that are looked for in what a later step names (an
// element's name, a text it waits for, an address): of three characters or more, never a
// secret's. Each is its parameter with the value the run had (in a repair, the replay's:
// the pages the model worked on showed that one).
func (r *recorder) followed() []Param {
	var out []Param
	for _, p := range r.w.Params {
		if v, ok := r.values[p.Name]; ok {
			p.Default = v
		}
		v := strings.TrimSpace(p.Default)
		if !p.Secret && utf8.RuneCountInString(v) >= 3 && !strings.Contains(v, "{{") {
			out = append(out, p)
		}
	}
	return out
}

// follow is text with each value typed before that it holds as whole words (letter case
// aside) written as its {{parameter}}.
func (r *recorder) follow(text string) string {
	for _, p := range r.followed() {
		v := p.Default
		var b strings.Builder
		for i := 0; i < len(text); {
			end := i + len(v)
			if end <= len(text) && strings.EqualFold(text[i:end], v) && boundary(text, i, end) {
				b.WriteString("{{" + p.Name + "}}")
				i = end
				continue
			}
			_, n := utf8.DecodeRuneInString(text[i:])
			b.WriteString(text[i : i+n])
			i += n
		}
		text = b.String()
	}
	return text
}

// address is a url a step goes to, with the values in it that a replay must change written as
// parameters: a path segment or a query value that is a value typed before (…/search?q=Luigi
// after "Luigi" was typed: {{restaurant}}), or a query value the task gave, which becomes a
// parameter named after its key. A value typed before that the address holds as a part only
// (a result's own address, …/r/luigis-trattoria) cannot be written for another value: the
// parameter it was made for is returned (Step.For).
func (r *recorder) address(raw string) (string, string) {
	u, ok := weburl.Web(raw)
	if !ok || strings.Contains(raw, "{{") {
		return raw, ""
	}
	auth := raw[len(u.Scheme)+3:]
	if end := strings.IndexAny(auth, "/?#"); end >= 0 {
		auth = auth[:end]
	}
	if strings.Contains(auth, "@") {
		return raw, "" // a user's name and password before its host: kept as it is
	}
	rest, frag, hasFrag := strings.Cut(u.Rest, "#")
	path, query, hasQuery := strings.Cut(rest, "?")
	made := ""
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		v, ok := weburl.Unescape(seg, false)
		if !ok || v == "" {
			continue
		}
		if p := r.typedAs(v); p != "" {
			segs[i] = "{{" + p + "}}"
		} else if made == "" {
			made = r.madeFor(v)
		}
	}
	out := raw[:len(u.Scheme)+3+len(u.Host)] + strings.Join(segs, "/")
	if hasQuery {
		parts := strings.Split(query, "&")
		for i, part := range parts {
			k, val, ok := strings.Cut(part, "=")
			v, unescaped := weburl.Unescape(val, true)
			if !ok || !unescaped || strings.TrimSpace(v) == "" {
				continue
			}
			key, _ := weburl.Unescape(k, true)
			switch p := r.typedAs(v); {
			case p != "":
				parts[i] = k + "={{" + p + "}}"
			case r.asked(v):
				parts[i] = k + "=" + r.param(Target{Name: queryLabel(key)}, v, false)
			case made == "":
				made = r.madeFor(v)
			}
		}
		out += "?" + strings.Join(parts, "&")
	}
	if hasFrag {
		out += "#" + frag
	}
	return out, made
}

// typedAs is the parameter whose value typed before v is (letter case and spaces around
// aside), or "".
func (r *recorder) typedAs(v string) string {
	for _, p := range r.followed() {
		if strings.EqualFold(strings.TrimSpace(v), strings.TrimSpace(p.Default)) {
			return p.Name
		}
	}
	return ""
}

// madeFor is the parameter whose value typed before a part of an address holds as its words
// (a slug: "luigis-trattoria" for "Luigi"; a word of four letters or more may go on by one or
// two, as a possessive or a plural does: "news" is not "new"), or "".
func (r *recorder) madeFor(part string) string {
	for _, p := range r.followed() {
		if holdsWords(part, p.Default) {
			return p.Name
		}
	}
	return ""
}

// holdsWords says whether part (of an address) holds value's words, one after the other, each
// as a word of its own or, from four letters, with up to two more ("luigis-trattoria" holds
// "Luigi").
func holdsWords(part, value string) bool {
	in, v := words(part), words(value)
	for i := 0; len(v) > 0 && i+len(v) <= len(in); i++ {
		j := 0
		for j < len(v) && (in[i+j] == v[j] || len(v[j]) >= 4 && strings.HasPrefix(in[i+j], v[j]) && len(in[i+j]) <= len(v[j])+2) {
			j++
		}
		if j == len(v) {
			return true
		}
	}
	return false
}

// words are s's runs of letters and digits, in lower case.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(c rune) bool { return !wordy(c) })
}

// asked says whether the task gave v: it holds it as whole words, and v is text a person
// writes (3 to 100 characters, a letter among them), not an id.
func (r *recorder) asked(v string) bool {
	n := utf8.RuneCountInString(strings.TrimSpace(v))
	return r.task != "" && n >= 3 && n <= 100 && strings.IndexFunc(v, unicode.IsLetter) >= 0 && holds(r.task, norm(v))
}

// queryLabel is what a parameter taken from an address's query is called: what was searched
// for by the keys sites search by, else the key.
func queryLabel(key string) string {
	switch strings.ToLower(key) {
	case "q", "query", "k", "s", "search", "search_query", "keyword", "keywords", "term", "text", "find":
		return "search"
	}
	return key
}

// boundary says whether text[at:end] stands as whole words in text.
func boundary(text string, at, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:at])
	after, _ := utf8.DecodeRuneInString(text[end:])
	return (at == 0 || !wordy(before)) && (end == len(text) || !wordy(after))
}

// holds says whether name holds v as whole words (both as norm writes them).
func holds(name, v string) bool {
	for off := 0; v != ""; {
		i := strings.Index(name[off:], v)
		if i < 0 {
			return false
		}
		if at, end := off+i, off+i+len(v); boundary(name, at, end) {
			return true
		}
		off += i + 1
	}
	return false
}

func wordy(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func (r *recorder) find(name string) int { return r.w.find(name) }

// listOf is the name of the list that shows the option ref in a snapshot's text: the named
// listbox or combobox its line is under, else what the step before clicked open
// (`combobox "Guests"`, react-select's `clickable "Select a state"`; not one that says one of
// the list's choices, as a button that shows the choice made often does); for a radio (role),
// the named radiogroup or group (a fieldset's legend) it is under. "" when none names it, or
// when a value was typed into a field of that name (a search's suggestions: the value typed is
// the parameter, Target.Param).
func (r *recorder) listOf(snapshot, ref, role string) string {
	list := ""
	lists := []string{"listbox", "combobox"}
	if role == "radio" {
		lists = []string{"radiogroup", "group"}
	}
	if start, at, ok := lineOf(snapshot, ref); ok {
		indent := depth(snapshot[start:at])
		if name, ok := namedAs(strings.TrimLeft(snapshot[start:at], " "), lists...); ok {
			list, indent = name, 0 // its line begins with its list (`radiogroup "Size": radio "S" [e3]`)
		}
		for end := start - 1; end > 0 && indent > 0; {
			from := strings.LastIndexByte(snapshot[:end], '\n') + 1
			line := snapshot[from:end]
			if in := depth(line); in < indent {
				indent = in
				if name, ok := namedAs(strings.TrimLeft(line, " "), lists...); ok {
					list = name
					break
				}
			}
			end = from - 1
		}
	}
	if list == "" && role == "option" && len(r.w.Steps) > 0 {
		if last := r.w.Steps[len(r.w.Steps)-1]; last.Tool == "click" && len(last.Targets) == 1 && last.Targets[0].Role != "option" {
			// (One that says a choice it shows, "Wade Cooper", "Assigned to Wade Cooper",
			// names no list.)
			list = last.Targets[0].Name
			for _, c := range siblingsOf(snapshot, ref, role) {
				if holds(norm(list), norm(c)) {
					list = ""
					break
				}
			}
		}
	}
	for _, s := range r.w.Steps {
		if s.Tool == "type" || s.Tool == "fill_form" {
			for _, t := range s.Targets {
				if t.Name == list {
					return ""
				}
			}
		}
	}
	return list
}

// offer keeps what the page offered as the choices of parameter name, when they are few
// enough to list (Param.Choices) and it has none yet.
func (r *recorder) offer(name string, choices []string) {
	i := r.find(name)
	if i < 0 || r.w.Params[i].Secret || len(r.w.Params[i].Choices) > 0 || len(choices) < 2 || len(choices) > MaxChoices {
		return
	}
	for _, c := range choices {
		if c == "" || utf8.RuneCountInString(c) > maxChoice {
			return
		}
	}
	r.w.Params[i].Choices = choices
}

// maxChoice is the longest choice kept, in letters.
const maxChoice = 100

// optionsOf is the options a snapshot's text writes for the select ref (`options="S","M"`),
// none when it left some out (`,…(+40)`).
func optionsOf(snapshot, ref string) []string {
	at := strings.Index(snapshot, " ["+ref+"]")
	if at < 0 {
		return nil
	}
	line := snapshot[at+len(ref)+2:]
	if end := strings.IndexByte(line, '\n'); end >= 0 {
		line = line[:end]
	}
	out := optionsAfter(line)
	if i := strings.Index(line, " options="); i >= 0 && strings.Contains(line[i:], ",…(+") {
		return nil
	}
	return out
}

// lineOf is where the line of a snapshot's text that writes ref begins, and where its ref is.
func lineOf(snapshot, ref string) (start, at int, ok bool) {
	at = strings.Index(snapshot, " ["+ref+"]")
	if at < 0 {
		return 0, 0, false
	}
	return strings.LastIndexByte(snapshot[:at], '\n') + 1, at, true
}

// depth is how deep a snapshot's line is written: its spaces before its first element.
func depth(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// siblingsOf is the names of the elements of ref's role (option, radio) a snapshot's text
// writes beside it: on its line and, under a list or a group, the lines about it written at
// least as deep, up to the first less deep (its list's or its group's).
func siblingsOf(snapshot, ref, role string) []string {
	start, at, ok := lineOf(snapshot, ref)
	if !ok {
		return nil
	}
	indent := depth(snapshot[start:at])
	from, to := start, strings.IndexByte(snapshot[at:], '\n')
	if to < 0 {
		to = len(snapshot)
	} else {
		to += at
	}
	for from > 0 && indent > 0 {
		prev := strings.LastIndexByte(snapshot[:from-1], '\n') + 1
		if line := snapshot[prev : from-1]; depth(line) < indent || strings.TrimSpace(line) == "" {
			break
		}
		from = prev
	}
	for to < len(snapshot) && indent > 0 {
		end := strings.IndexByte(snapshot[to+1:], '\n')
		if end < 0 {
			end = len(snapshot) - to - 1
		}
		if line := snapshot[to+1 : to+1+end]; depth(line) < indent || strings.TrimSpace(line) == "" {
			break
		}
		to += 1 + end
	}
	var out []string
	block := snapshot[from:to]
	for off := 0; ; {
		i := strings.Index(block[off:], role+` "`)
		if i < 0 {
			return out
		}
		i += off
		off = i + len(role) + 1
		if i > 0 && block[i-1] != ' ' && block[i-1] != '\n' {
			continue // (a word that ends so: "myradio")
		}
		q, err := strconv.QuotedPrefix(block[off:])
		if err != nil || !strings.HasPrefix(block[off+len(q):], " [") {
			continue
		}
		name, _ := strconv.Unquote(q)
		out = append(out, name)
		off += len(q)
	}
}

// namedAs is the name of an element a snapshot's line writes first, when its role is one of
// roles (`listbox "Guests" [e4]:`).
func namedAs(line string, roles ...string) (string, bool) {
	for _, role := range roles {
		if rest, ok := strings.CutPrefix(line, role+" "); ok {
			if q, err := strconv.QuotedPrefix(rest); err == nil {
				name, _ := strconv.Unquote(q)
				return name, name != ""
			}
		}
	}
	return "", false
}

// targetOf is the target e is, before its place among its namesakes is known.
func targetOf(e tool.Element) Target {
	t := Target{Role: e.Role, Name: strings.Join(strings.Fields(e.Name), " "), Tag: e.Tag, Field: e.Field, Lang: pageTongue(e.Lang)}
	if t.Role == "" {
		t.Role = "generic"
	}
	return t
}

// Shows says whether the snapshot text seen shows e at its ref: what it writes before the ref
// is e's role and name (the name as far as the snapshot keeps it). Each page counts its refs
// from e1, so the snapshot of another page (one read before a navigation, a reload) names
// other elements by them; what a snapshot shows of e is read only where it shows e.
func Shows(seen string, e tool.Element) bool {
	at := strings.Index(seen, " ["+e.Ref+"]")
	if at < 0 || e.Ref == "" {
		return false
	}
	before := seen[strings.LastIndexByte(seen[:at], '\n')+1 : at]
	t := targetOf(e)
	if strings.HasSuffix(before, snapLabel(t)) {
		return true
	}
	role := snapLabel(Target{Role: t.Role})
	if t.Name == "" {
		return false
	}
	if k := strings.LastIndex(before, role+` "`); k >= 0 {
		name, ok := namedAs(before[k:], role)
		return ok && named(norm(name), norm(t.Name))
	}
	if !strings.HasSuffix(before, role) {
		return false
	}
	// Named by its text, written after it ("cell [e5]: 29 | cell [e6]: 30"), as far as the
	// snapshot writes it.
	rest := seen[at+len(" ["+e.Ref+"]"):]
	rest, _, _ = strings.Cut(rest, "\n")
	rest, _, _ = strings.Cut(rest, " | ")
	_, text, ok := strings.Cut(rest, ": ")
	text, name := strings.TrimSuffix(norm(text), "…"), norm(t.Name)
	return ok && text != "" && (strings.HasPrefix(name, text) || strings.HasPrefix(text, name))
}

// Placed is where e stands on the page s read (tool.Element.Place), as a replay's Matcher reads
// it: nil when s does not show it.
func Placed(s *tool.Snap, e tool.Element) *tool.Place {
	m := NewMatcher(s, "")
	m.read()
	if !strings.Contains(m.text, " ["+e.Ref+"]") {
		return nil
	}
	t := targetOf(e)
	if t.Name == "" {
		t.Hint = hintOf(m.text, e.Ref)
	}
	p := &tool.Place{Hint: t.Hint}
	p.Nth, p.Near = seen(m.text, e.Ref, t)
	return p
}

// seen finds in a snapshot's text where ref was: which of the elements written as t is (0: the
// first), and the heading above it. Nothing is found in a snapshot that did not show it.
func seen(snapshot, ref string, t Target) (nth int, near string) {
	at := strings.Index(snapshot, " ["+ref+"]")
	if at < 0 {
		return 0, ""
	}
	before := snapshot[:at]
	each(snapshot, t, func(_ string, k int) bool {
		if k >= at {
			return false
		}
		nth++
		return true
	})
	// The heading nearest above, from the line before the element's own.
	for end := strings.LastIndexByte(before, '\n'); end > 0; {
		start := strings.LastIndexByte(before[:end], '\n') + 1
		if name, ok := heading(before[start:end]); ok {
			return nth, name
		}
		end = start - 1
	}
	return nth, ""
}

// hintOf is what the snapshot's text says the page's code calls the element ref (hint="trash"),
// as the matcher will read it on the page again; "" when it says nothing.
func hintOf(snapshot, ref string) string {
	at := strings.Index(snapshot, " ["+ref+"]")
	if at < 0 {
		return ""
	}
	props := propsOf(snapshot[at+len(ref)+3:])
	i := strings.Index(props, " hint=")
	if i < 0 {
		return ""
	}
	h, err := strconv.QuotedPrefix(props[i+len(" hint="):])
	if err != nil {
		return ""
	}
	h, _ = strconv.Unquote(h)
	return h
}

// propsOf is what the snapshot's text says of an element, from just after its ref: to the
// next element's ref or the end of its line.
func propsOf(rest string) string {
	if k := strings.IndexAny(rest, "[\n"); k >= 0 {
		return rest[:k]
	}
	return rest
}

// each calls f with the ref of every element the snapshot's text writes as t's label (and,
// for a target its page's code names, that calls it so), in order, with where its ref begins;
// f returns false to stop.
func each(text string, t Target, f func(ref string, at int) bool) {
	label := snapLabel(t) + " ["
	hint := " hint=" + strconv.Quote(t.Hint)
	for off := 0; ; {
		i := strings.Index(text[off:], label)
		if i < 0 {
			return
		}
		at := off + i + len(label)
		j := strings.IndexByte(text[at:], ']')
		if j < 0 {
			return
		}
		ref := text[at : at+j]
		off = at + j
		if t.Hint != "" {
			if !strings.Contains(propsOf(text[off:]), hint) {
				continue
			}
		}
		if !f(ref, at) {
			return
		}
	}
}

// heading reads a line of a snapshot's text that is a heading (`h2 "Name" [e4]`, or
// `h2: its text`, tool.Format; older snapshots began each line with "- ") and returns its name.
func heading(line string) (string, bool) {
	s := strings.TrimPrefix(strings.TrimLeft(line, " "), "- ")
	if len(s) < 2 || s[0] != 'h' || s[1] < '1' || s[1] > '6' {
		return "", false
	}
	switch s = s[2:]; {
	case s == "" || strings.HasPrefix(s, " ["):
		return "", true
	case strings.HasPrefix(s, ": "):
		s = s[2:]
		if k := strings.Index(s, " ["); k >= 0 {
			s = s[:k]
		}
		return strings.TrimSpace(s), true
	case strings.HasPrefix(s, ` "`):
		if q, err := strconv.QuotedPrefix(s[1:]); err == nil {
			name, _ := strconv.Unquote(q)
			return name, true
		}
	}
	return "", false
}

// snapLabel is how a snapshot writes an element with t's role and name (tool.Format).
func snapLabel(t Target) string {
	role := t.Role
	if role == "generic" {
		role = "clickable"
	}
	if t.Name == "" {
		return role
	}
	return role + " " + strconv.Quote(t.Name)
}

// A step's words that are not a tool card's (their French is in ui/_locales).
var (
	stepType      = i18n.Sentence{Key: "wfStepType", English: "type $1 into $2"}
	stepFill      = i18n.Sentence{Key: "wfStepFill", English: "fill $1"}
	stepFillField = i18n.Sentence{Key: "wfStepFillField", English: "$1 = $2"}
	stepCheck     = i18n.Sentence{Key: "wfStepCheck", English: "check $1"}
	stepUncheck   = i18n.Sentence{Key: "wfStepUncheck", English: "uncheck $1"}
	stepBack      = i18n.Sentence{Key: "wfStepBack", English: "go back"}
	stepForward   = i18n.Sentence{Key: "wfStepForward", English: "go forward"}
	stepReload    = i18n.Sentence{Key: "wfStepReload", English: "reload the page"}
	stepSwitch    = i18n.Sentence{Key: "wfStepSwitch", English: "switch to the run's tab $1"}
	stepClose     = i18n.Sentence{Key: "wfStepClose", English: "close the run's tab $1"}
	stepFollows   = i18n.Sentence{Key: "wfStepFollows", English: "$1 (or the first named with $2)"}
	stepMadeFor   = i18n.Sentence{Key: "wfStepMadeFor", English: "$1 (or the page's link of its kind for $2)"}
	stepIfShown   = i18n.Sentence{Key: "wfStepIfShown", English: "$1, if the page shows it"}
)

// Describe is a step in words: type {{restaurant}} into textbox “Restaurant”.
func Describe(s Step) string { return Says(s).English() }

// Says is a step in words for the user, in their language: what the recorded run's card said,
// with each typed value as its {{parameter}}, and the value an element it acts on is found by.
func Says(s Step) i18n.Text {
	said := says(s)
	if s.Optional {
		said = stepIfShown.With(said)
	}
	for _, t := range s.Targets {
		switch {
		case t.Param != "" && t.Month != "":
			return stepDay.With(said, "{{"+t.Param+"}}")
		case t.Param != "":
			return stepFollows.With(said, "{{"+t.Param+"}}")
		}
	}
	if s.For != "" {
		return stepMadeFor.With(said, "{{"+s.For+"}}")
	}
	return said
}

func says(s Step) i18n.Text {
	var args map[string]any
	_ = json.Unmarshal(s.Args, &args)
	str := func(k string) string { v, _ := args[k].(string); return v }
	el := func(i int) *tool.Element {
		if i >= len(s.Targets) {
			return nil // the page
		}
		t := s.Targets[i]
		return &tool.Element{Role: t.Role, Tag: t.Tag, Field: t.Field, Name: t.Name}
	}
	f := tool.Effect{Action: s.Tool, Element: el(0)}
	switch s.Tool {
	case "navigate", "tab_open":
		f.Action, f.LeadsTo = "navigate", str("url")
	case "back":
		return stepBack.With()
	case "forward":
		return stepForward.With()
	case "reload":
		return stepReload.With()
	case "tab_switch":
		return stepSwitch.With(s.Tab + 1)
	case "tab_close":
		var places i18n.List
		for _, p := range s.Closes {
			places = append(places, p+1)
		}
		return stepClose.With(places)
	case "click", "hover":
	case "drag":
		f.Activates = el(1)
	case "type":
		// The value is a {{parameter}} (a secret's never shows), so it is not counted as a
		// password typed at a card would be.
		return stepType.With(str("text"), el(0).Says())
	case "select_option":
		f.Action = "select"
		if a, ok := args["values"].([]any); ok {
			for _, v := range a {
				if sv, ok := v.(string); ok {
					f.Values = append(f.Values, sv)
				}
			}
		}
	case "fill_form":
		var parts []any
		fs, _ := args["fields"].([]any)
		for i, x := range fs {
			m, _ := x.(map[string]any)
			v, _ := m["value"].(string)
			if e := el(i); e != nil && (e.Role == "checkbox" || e.Role == "switch" || e.Role == "radio") && (v == "true" || v == "false") {
				// A box is checked or unchecked, not filled (a click recorded on one is kept
				// as the state it left).
				part := stepCheck.With(e.Says())
				if v == "false" {
					part = stepUncheck.With(e.Says())
				}
				if len(fs) == 1 {
					return part
				}
				parts = append(parts, part)
				continue
			}
			parts = append(parts, stepFillField.With(el(i).Says(), v))
		}
		return stepFill.With(i18n.List(parts))
	case "press_key":
		f.Action, f.Key = "press", str("key")
	case "scroll":
		f.Detail = or(str("direction"), "down")
	case "wait_for":
		f.Action = "wait"
	case "dialog":
		f.Accept, _ = args["accept"].(bool)
	default:
		return i18n.Verbatim(s.Tool)
	}
	return f.Says()
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
