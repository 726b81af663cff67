// Package workflow turns a finished agent run into steps that run again without a model: each
// element a step acted on becomes a stable target (its role, its accessible name, the frame it
// is in, the heading above it, which of its kind it was), never a ref that dies with the page;
// each value the model typed becomes a parameter. A runner replays the steps through the one
// guarded path the model's calls take (it is given that path, it has no other), finds each
// target again on the page as it is now, and stops, saying why, at the first step it cannot
// place.
package workflow

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Workflow is a saved task: its steps and the parameters they take.
type Workflow struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Version int     `json:"version"`
	Params  []Param `json:"params,omitempty"`
	Steps   []Step  `json:"steps"`
	// From is the chat it was made from.
	From      string `json:"from,omitempty"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`
}

// Param is a value a step types: asked for when the workflow runs, with the value of the
// recorded run as its default. A secret (typed into a password or payment field) has no default:
// it is asked for at every run and never stored.
type Param struct {
	Name    string `json:"name"`
	Label   string `json:"label,omitempty"` // the field's name on the page
	Default string `json:"default,omitempty"`
	Secret  bool   `json:"secret,omitempty"`
	// From, for a date recorded a few days after another parameter's date (a stay's last day
	// after its first, a return after the flight out), is that parameter, and Days how many
	// days after it: left out of a run, the date counts from that one's ({{From+Days}}) rather
	// than being the recorded day.
	From string `json:"from,omitempty"`
	Days int    `json:"days,omitempty"`
	// Lang is the language of dates' words the page said its words were in where the value
	// was typed or chosen ("sv"), when it is one besides English: a run's date is written in
	// it ("januari" for a recorded "december", English words too).
	Lang string `json:"lang,omitempty"`
	// Choices are what the page offered where the value was chosen (a select's options, a
	// list's or a radio group's), as it offered them when recorded: a run may be given another
	// value, and the page may offer others by then.
	Choices []string `json:"choices,omitempty"`
}

// quotedAll is each of ss quoted, between commas.
func quotedAll(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return strings.Join(out, ", ")
}

// MaxChoices bounds a parameter's Choices.
const MaxChoices = 50

// Counted is the value a run of p takes when none is given: its recorded default, or for a
// date that counts from another ({{check_in+3}}).
func (p Param) Counted() string {
	switch {
	case p.From == "":
		return p.Default
	case p.Days == 0:
		return "{{" + p.From + "}}"
	}
	return "{{" + p.From + "+" + strconv.Itoa(p.Days) + "}}"
}

// Step is one tool call of the workflow. Args are the call's arguments with each element ref
// written as its place in Targets ("@1": the first), what it stood for, and every typed value
// as {{param}}.
type Step struct {
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args"`
	Targets []Target        `json:"targets,omitempty"`
	// URL is the page the step acted on when it was recorded; Origin its site.
	URL    string `json:"url,omitempty"`
	Origin string `json:"origin,omitempty"`
	What   string `json:"what,omitempty"` // the call in words, as the recorded run's card said
	// WhatText is What for the panel to show in the user's language (Says): filled when the
	// panel lists workflows, never stored.
	WhatText *i18n.Text `json:"whatText,omitempty"`
	// Tab is which of the run's tabs the step works in: 0 the one it starts in, k the k-th tab
	// its steps opened (a link to a new tab, tab_open). A tab's id dies with the browser
	// session; its place in the run does not.
	Tab int `json:"tab,omitempty"`
	// Optional: the step closed what the page put over itself as it loaded (a cookie banner's
	// "Accept all", a sign-up prompt's ×), which a page shows once: a replay that does not find
	// it goes on without it, and says so.
	Optional bool `json:"optional,omitempty"`
	// Closes are the places of the tabs a tab_close closes (Tab's way of naming them).
	Closes []int `json:"closes,omitempty"`
	// For is the parameter whose recorded value the address a navigate goes to was made for
	// (a result's own address, found after searching that value): with another value, the
	// replay cannot know where to go, and stops there.
	For string `json:"for,omitempty"`
}

// Target is an element as a person finds it again on a page that changed: what it is and what
// it is called, the frame it is in, the heading above it, and which of the elements with the
// same role and name it was.
type Target struct {
	Role  string `json:"role"`
	Name  string `json:"name,omitempty"`
	Tag   string `json:"tag,omitempty"`
	Field string `json:"field,omitempty"` // "password", "payment"
	// Hint is what the page's code calls a control without a name (an icon's: "trash"): among
	// nameless controls, only those its page calls so are it.
	Hint string `json:"hint,omitempty"`
	// Frame is the origin of the frame that held it, when that is not the page's own.
	Frame string `json:"frame,omitempty"`
	Near  string `json:"near,omitempty"`
	Nth   int    `json:"nth,omitempty"`
	// Href is where a link (or an <a> a page made a button) went: among namesakes ("edit", one
	// a section; "Read more", one an article), the one that goes there is it, wherever the
	// page wrote it.
	Href string `json:"href,omitempty"`
	// Param is the parameter whose recorded value its name held (a search result named after
	// what was typed into the search box): a replay looks first for one that holds the run's
	// value, the first in the page's order, and else for the one recorded. An option's is its
	// list's choice, or the value typed whose suggestion it is: a replay chooses only an option
	// named with the run's value (Matcher.choice).
	Param string `json:"param,omitempty"`
	// Month is how a calendar wrote the month above a day it names only by its number
	// ("December 2026"; Param is then the date): a replay finds the run's date's month.
	Month string `json:"month,omitempty"`
	// Lang is the language of dates' words the page said its words were in there, when it is
	// one besides English (Param.Lang).
	Lang string `json:"lang,omitempty"`

	value string // the run's value of Param, while a replay matches it
	// chosen: Param's recorded value is the name itself (a choice in a list), not a value
	// typed that the name held.
	chosen bool
}

// Words is the target as a person reads it: button “Book”.
func (t Target) Words() string {
	kind := t.Role
	if kind == "" {
		kind = t.Tag
	}
	if t.Field != "" {
		kind = t.Field + " field"
	}
	if t.Name == "" {
		if t.Hint != "" {
			return kind + " (" + t.Hint + ")"
		}
		return kind
	}
	return kind + " “" + t.Name + "”"
}

// Says is the target as the user reads it, in their language: button “Send”.
func (t Target) Says() i18n.Text {
	return (&tool.Element{Role: t.Role, Tag: t.Tag, Field: t.Field, Name: t.Name, Hint: t.Hint}).Says()
}

// acting lists the tools a workflow keeps: what changes the page or where the run is. Reads
// served the model that chose the steps; a replay does not need them.
var acting = map[string]bool{"navigate": true, "tab_open": true, "back": true, "forward": true, "reload": true,
	"click": true, "type": true, "fill_form": true, "select_option": true, "press_key": true, "hover": true, "drag": true,
	"scroll": true, "wait_for": true, "dialog": true, "tab_action": true, "run_script": true, "tab_switch": true, "tab_close": true}

// Keeps reports whether a call of tool name becomes a step of a workflow.
func Keeps(name string) bool { return acting[name] }

// replaceParams writes s with each {{name}} placeholder (a name of lower-case letters, digits
// and _), or {{name:part}} (a part of a date: {{date:d}}), replaced by f(name).
func replaceParams(s string, f func(name string) string) string {
	return expand(s, func(p placeholder, _ string) string { return f(p.name) })
}

// placeholder is a parameter as a step's arguments name it: {{name}}, or {{name:part}} for the
// part of its date a pattern writes (parts.go).
type placeholder struct{ name, part string }

func (p placeholder) String() string {
	if p.part == "" {
		return "{{" + p.name + "}}"
	}
	return "{{" + p.name + ":" + p.part + "}}"
}

// expand is replaceParams telling f what s has become before the placeholder.
func expand(s string, f func(p placeholder, before string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i+2:], "}}")
		var p placeholder
		if j >= 0 {
			p.name, p.part, _ = strings.Cut(s[i+2:i+2+j], ":")
		}
		if _, ok := partLayout(p.part); j < 0 || !paramOK(p.name) || p.part != "" && !ok {
			b.WriteString(s[:i+1]) // not one: look again from the next brace
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(f(p, b.String()))
		s = s[i+2+j+2:]
	}
}

// Unfollow makes each date that counts from a parameter w no longer has before it (an edit took
// out its step) a date of its own again: its recorded day.
func (w *Workflow) Unfollow() {
	for i, p := range w.Params {
		if p.From != "" {
			if at := w.find(p.From); at < 0 || at >= i {
				w.Params[i].From, w.Params[i].Days = "", 0
			}
		}
	}
}

// find is where the parameter named name is in w.Params, or -1.
func (w *Workflow) find(name string) int {
	for i, p := range w.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// paramOK reports whether name can name a parameter: lower-case letters, digits and _.
func paramOK(name string) bool {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return name != ""
}

// Fill writes values into a step's arguments: each {{param}} becomes its value (as JSON text,
// so a value cannot change the shape of the arguments). A parameter without a value is an error.
func Fill(args json.RawMessage, values map[string]string) (json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return nil, sayArgsNotJSON.Error()
	}
	var missing, undated placeholder
	value := func(p placeholder) string {
		val, ok := values[p.name]
		if !ok && missing.name == "" {
			missing = p
		}
		if p.part == "" || !ok {
			return val
		}
		part, ok := datePart(val, p.part)
		if !ok && undated.name == "" {
			undated = p
		}
		return part
	}
	fill := func(s string) string { return expand(s, func(p placeholder, _ string) string { return value(p) }) }
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			if u, ok := x.(string); ok && k == "url" {
				m[k] = expand(u, func(p placeholder, before string) string { return inAddress(value(p), before) })
			} else {
				m[k] = mapStrings(x, fill)
			}
		}
	} else {
		v = mapStrings(v, fill)
	}
	if missing.name != "" {
		return nil, sayNoValue.Error(missing.name)
	}
	if undated.name != "" {
		return nil, sayPartNoDate.Error(values[undated.name], undated.name, undated.String())
	}
	return json.Marshal(v)
}

// inAddress is v as an address takes it after before: escaped as a query value after a "?",
// as a path segment (or fragment) after the site, and as it is where it is the site itself (a
// parameter that holds the whole address, or its start).
func inAddress(v, before string) string {
	_, rest, scheme := strings.Cut(before, "://")
	switch {
	case strings.Contains(before, "#"):
		return weburl.Escape(v, false)
	case strings.Contains(before, "?"):
		return weburl.Escape(v, true)
	case scheme && strings.Contains(rest, "/"):
		return weburl.Escape(v, false)
	}
	return v
}

// Params lists the parameters a step's arguments name.
func (s Step) Params() []string {
	var out []string
	replaceParams(string(s.Args), func(name string) string {
		out = append(out, name)
		return ""
	})
	return out
}

// mapStrings applies f to every string value (not keys) of a decoded JSON value.
func mapStrings(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for i := range x {
			x[i] = mapStrings(x[i], f)
		}
	case map[string]any:
		for k := range x {
			x[k] = mapStrings(x[k], f)
		}
	}
	return v
}

// refs visits every element ref of a call's arguments in a stable order (the order the
// recorder and the runner both use): a "ref" key at any depth, keys in sorted order, arrays in
// order. visit returns the ref's new value, or false to take the ref out.
func refs(v any, visit func(ref string) (string, bool)) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = refs(x[i], visit)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s, ok := x[k].(string); ok && k == "ref" {
				if nv, keep := visit(s); keep {
					x[k] = nv
				} else {
					delete(x, k)
				}
				continue
			}
			x[k] = refs(x[k], visit)
		}
	}
	return v
}

// paramName makes a parameter's name from the words of a field: its first words, up to the end
// of its first phrase ("Number of people" → number_of_people; "Search. Use the arrows" →
// search).
func paramName(words string) string {
	if i := strings.IndexAny(words, ".:(,;!?"); i > 0 {
		words = words[:i]
	}
	var parts []string
	for _, f := range strings.FieldsFunc(latin(strings.ToLower(words)), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(parts) == 4 {
			break
		}
		parts = append(parts, f)
	}
	if len(parts) == 0 {
		// A field named in Japanese, Chinese or Korean: what its words ask for, in English.
		for _, k := range cjkFields {
			if strings.Contains(words, k[0]) {
				return k[1]
			}
		}
		return "value"
	}
	return strings.Join(parts, "_")
}

// cjkFields are the words forms in Japanese, Chinese and Korean name their fields with, and a
// parameter's name for them (the first a label holds is its).
var cjkFields = [...][2]string{
	{"パスワード", "password"}, {"密码", "password"}, {"密碼", "password"}, {"비밀번호", "password"},
	{"メール", "email"}, {"邮箱", "email"}, {"电子邮件", "email"}, {"電子郵件", "email"}, {"이메일", "email"},
	{"電話", "phone"}, {"电话", "phone"}, {"手机", "phone"}, {"전화", "phone"}, {"휴대폰", "phone"},
	{"郵便番号", "postal_code"}, {"邮编", "postal_code"}, {"우편번호", "postal_code"},
	{"住所", "address"}, {"地址", "address"}, {"주소", "address"},
	{"チェックイン", "check_in"}, {"入住", "check_in"}, {"체크인", "check_in"},
	{"チェックアウト", "check_out"}, {"退房", "check_out"}, {"체크아웃", "check_out"},
	{"出発", "departure"}, {"出发", "departure"}, {"출발", "departure"},
	{"到着", "arrival"}, {"到达", "arrival"}, {"도착", "arrival"},
	{"日付", "date"}, {"日期", "date"}, {"날짜", "date"}, {"年月日", "date"},
	{"人数", "people"}, {"人數", "people"}, {"인원", "people"},
	{"名前", "name"}, {"氏名", "name"}, {"姓名", "name"}, {"名字", "name"}, {"이름", "name"}, {"성명", "name"},
	{"会社", "company"}, {"公司", "company"}, {"회사", "company"},
	{"都市", "city"}, {"城市", "city"}, {"도시", "city"},
	{"国", "country"}, {"국가", "country"},
	{"検索", "search"}, {"搜索", "search"}, {"검색", "search"},
	{"メッセージ", "message"}, {"留言", "message"}, {"메시지", "message"},
}

// latin is s, in small letters, with its letters written in Latin ones without marks, as a
// name of a parameter can hold them: "arrivée" is "arrivee", "straße" "strasse", "дата" "data",
// "ημερομηνία" "imerominia". Other scripts are left as they are.
func latin(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteString(latinOf(r))
	}
	return b.String()
}

// latinMarked are small Latin letters with marks, grouped by the letter they are without them
// (latinBare), and the Cyrillic and Greek letters with their Latin spellings.
var (
	latinMarked = [...]string{"àáâãäåāăą", "çćĉċč", "ďđð", "èéêëēĕėęě", "ĝğġģ", "ĥħ", "ìíîïĩīĭįı", "ĵ", "ķ", "ĺļľŀł", "ñńņňŉ",
		"òóôõöøōŏő", "ŕŗř", "śŝşšș", "ţťŧț", "ùúûüũūŭůűų", "ŵ", "ýÿŷ", "źżž"}
	latinBare  = [...]string{"a", "c", "d", "e", "g", "h", "i", "j", "k", "l", "n", "o", "r", "s", "t", "u", "w", "y", "z"}
	cyrillic   = [...]string{"a", "b", "v", "g", "d", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"}
	greek      = [...]string{"a", "v", "g", "d", "e", "z", "i", "th", "i", "k", "l", "m", "n", "x", "o", "p", "r", "s", "s", "t", "y", "f", "ch", "ps", "o"}
	greekMarks = [...][2]string{{"ά", "a"}, {"έ", "e"}, {"ή", "i"}, {"ί", "i"}, {"ϊ", "i"}, {"ΐ", "i"}, {"ό", "o"}, {"ύ", "y"}, {"ϋ", "y"}, {"ΰ", "y"}, {"ώ", "o"}}
)

// unmarked is r, a small Latin letter, without its marks ("é" is "e", "ł" "l"), or r.
func unmarked(r rune) rune {
	if r < utf8.RuneSelf {
		return r
	}
	for i, g := range latinMarked {
		if strings.ContainsRune(g, r) {
			return rune(latinBare[i][0])
		}
	}
	return r
}

// latinOf is r, a small letter, as latin writes it.
func latinOf(r rune) string {
	switch {
	case r < utf8.RuneSelf:
		return string(r)
	case r >= 'а' && r <= 'я': // (Russian's alphabet but ё, in order)
		return cyrillic[r-'а']
	case r >= 'α' && r <= 'ω': // (Greek's, ς among them)
		return greek[r-'α']
	}
	switch r {
	case 'ß':
		return "ss"
	case 'æ':
		return "ae"
	case 'œ':
		return "oe"
	case 'þ':
		return "th"
	case 'ё':
		return "e"
	case 'є':
		return "ye"
	case 'і':
		return "i"
	case 'ї':
		return "yi"
	case 'ґ':
		return "g"
	}
	if u := unmarked(r); u != r {
		return string(u)
	}
	for _, m := range greekMarks {
		if string(r) == m[0] {
			return m[1]
		}
	}
	return string(r)
}

// site is the origin of u, or u itself when it has none.
func site(u string) string {
	if o := weburl.Origin(u); o != "" {
		return o
	}
	return u
}

// Check reports what is wrong with a workflow read from outside (an import, an edit), as a
// sentence, or nil: a name, steps of known tools whose arguments are JSON objects, parameters
// named as the steps name them, targets with a role.
func (w *Workflow) Check() error {
	if strings.TrimSpace(w.Name) == "" {
		return sayNoName.Error()
	}
	if len(w.Steps) == 0 {
		return sayNoSteps.Error(w.Name)
	}
	if len(w.Steps) > MaxSteps {
		return sayTooManySteps.Error(w.Name, len(w.Steps), MaxSteps)
	}
	named, secret := map[string]bool{}, map[string]bool{}
	for _, p := range w.Params {
		if !paramOK(p.Name) {
			return sayBadParamName.Error(p.Name)
		}
		if named[p.Name] {
			return sayParamTwice.Error(p.Name)
		}
		if p.Secret && p.Default != "" {
			return saySecretStored.Error(p.Name)
		}
		if p.From != "" && (!named[p.From] || secret[p.From] || p.Secret || p.Days < 0 || p.Days > MaxDays) {
			return sayBadFrom.Error(p.Name, p.From)
		}
		if len(p.Choices) > MaxChoices || p.Secret && len(p.Choices) > 0 {
			return sayTooManyChoices.Error(p.Name, len(p.Choices), MaxChoices)
		}
		named[p.Name], secret[p.Name] = true, p.Secret
	}
	for i, s := range w.Steps {
		if !acting[s.Tool] {
			return sayNotReplayable.Error(i+1, s.Tool)
		}
		if _, ok := tool.Lookup(s.Tool); !ok {
			return sayUnknownTool.Error(i+1, s.Tool)
		}
		var m map[string]any
		if err := json.Unmarshal(s.Args, &m); err != nil || m == nil {
			return sayStepArgs.Error(i + 1)
		}
		for _, p := range s.Params() {
			if !named[p] {
				return sayNotParam.Error(i+1, p)
			}
		}
		for _, t := range s.Targets {
			if t.Role == "" && t.Tag == "" {
				return sayTargetBare.Error(i + 1)
			}
			if t.Param != "" && !named[t.Param] {
				return sayNotParam.Error(i+1, t.Param)
			}
			if t.Param != "" && secret[t.Param] {
				return sayFoundBySecret.Error(i+1, t.Param)
			}
		}
		if s.For != "" && !named[s.For] {
			return sayNotParam.Error(i+1, s.For)
		}
		// A secret in an address would be sent, shown and kept where addresses are.
		for _, p := range s.Params() {
			if u, ok := m["url"].(string); ok && secret[p] && strings.Contains(u, "{{"+p+"}}") {
				return saySecretURL.Error(i+1, p)
			}
		}
		// Step i+1 may open a tab itself (tab_open works in the tab it opens); the steps
		// before it can have opened at most i.
		if s.Tab < 0 || s.Tab > i+1 {
			return sayBadTab.Error(i+1, s.Tab+1)
		}
		for _, c := range s.Closes {
			if c < 0 || c > i {
				return sayBadTab.Error(i+1, c+1)
			}
		}
		var bad string
		refs(any(m), func(at string) (string, bool) {
			n, err := strconv.Atoi(strings.TrimPrefix(at, "@"))
			if (err != nil || n < 1 || n > len(s.Targets) || !strings.HasPrefix(at, "@")) && bad == "" {
				bad = at
			}
			return at, true
		})
		if bad != "" {
			return sayNotTarget.Error(i+1, bad)
		}
	}
	return nil
}

// MaxSteps bounds a workflow.
const MaxSteps = 200

// Sites are the origins the workflow's steps act on, in the order it first reaches them.
func (w *Workflow) Sites() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range w.Steps {
		if s.Origin != "" && !seen[s.Origin] {
			seen[s.Origin] = true
			out = append(out, s.Origin)
		}
	}
	return out
}

// Schema is the JSON Schema of the values a run takes: one string property per parameter, its
// field's name as the description, the recorded value as the default; a secret, or a value
// recorded empty, is required.
func (w *Workflow) Schema() map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, p := range w.Params {
		d := map[string]any{"type": "string"}
		if p.Label != "" {
			d["description"] = p.Label
		}
		switch {
		case p.Secret:
			d["description"] = strings.TrimSpace(p.Label + " (secret: asked at every run, never stored)")
			required = append(required, p.Name)
		case p.From != "":
			d["default"] = p.Counted()
			d["description"] = strings.TrimSpace(p.Label + " (a date; by default " + p.Counted() + ", counted from " + p.From + "; {{today+1}} counts from the day of the run)")
		case p.Default != "":
			d["default"] = p.Default
			if isDateAs(p.Default, p.Lang) {
				d["description"] = strings.TrimSpace(p.Label + " (a date; {{today}}, {{today+1}} or tomorrow, {{today-7}} count from the day of the run)")
			} else if len(p.Choices) > 0 {
				d["description"] = strings.TrimSpace(p.Label + " (a choice; the page offered " + quotedAll(p.Choices) + " when it was recorded)")
				d["examples"] = p.Choices
			}
		default:
			required = append(required, p.Name)
		}
		props[p.Name] = d
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// What is wrong with a workflow, or with a run saved as one, in words for the user (inside
// "This workflow cannot be saved: …"; their French is in ui/_locales).
var (
	sayArgsNotJSON      = i18n.Sentence{Key: "wfErrArgsNotJSON", English: "the step's arguments are not JSON"}
	sayNoValue          = i18n.Sentence{Key: "wfErrNoValue", English: "no value was given for {{$1}}"}
	sayPartNoDate       = i18n.Sentence{Key: "wfErrPartNoDate", English: "“$1”, the value of $2, is no date to write $3 from"}
	sayBadFrom          = i18n.Sentence{Key: "wfErrBadFrom", English: "the date $1 counts from $2, which is no date parameter before it"}
	sayCountsFromNoDate = i18n.Sentence{Key: "wfErrCountsFrom", English: "the value of $1, “$2”, counts from $3, which holds no date in this run"}
	sayNoName           = i18n.Sentence{Key: "wfErrNoName", English: "the workflow has no name"}
	sayNoSteps          = i18n.Sentence{Key: "wfErrNoSteps", English: "the workflow “$1” has no steps"}
	sayTooManySteps     = i18n.Sentence{Key: "wfErrTooManySteps", English: "the workflow “$1” has $2 steps; at most $3 are kept"}
	sayBadParamName     = i18n.Sentence{Key: "wfErrParamName", English: "the parameter name “$1” is not one of lower-case letters, digits and _"}
	sayParamTwice       = i18n.Sentence{Key: "wfErrParamTwice", English: "the parameter “$1” is named twice"}
	sayTooManyChoices   = i18n.Sentence{Key: "wfErrChoices", English: "the parameter “$1” keeps $2 choices; at most $3 are kept, and a secret keeps none"}
	saySecretStored     = i18n.Sentence{Key: "wfErrSecretStored", English: "the secret parameter “$1” has a stored value; secrets are asked for at each run"}
	sayNotReplayable    = i18n.Sentence{Key: "wfErrNotReplayable", English: "step $1 uses “$2”, which a workflow cannot replay"}
	sayUnknownTool      = i18n.Sentence{Key: "wfErrUnknownTool", English: "step $1 uses “$2”, which Skiff does not have"}
	sayStepArgs         = i18n.Sentence{Key: "wfErrStepArgs", English: "step $1's arguments are not a JSON object"}
	sayNotParam         = i18n.Sentence{Key: "wfErrNotParam", English: "step $1 uses {{$2}}, which is not a parameter"}
	sayTargetBare       = i18n.Sentence{Key: "wfErrTargetBare", English: "step $1 has a target with neither a role nor a tag"}
	sayNotTarget        = i18n.Sentence{Key: "wfErrNotTarget", English: "step $1 names the element “$2”, which is not one of its targets"}
	saySecretURL        = i18n.Sentence{Key: "wfErrSecretInAddress", English: "step $1 puts the secret {{$2}} in an address, where it would be sent, shown and kept"}
	sayFoundBySecret    = i18n.Sentence{Key: "wfErrFoundBySecret", English: "step $1 finds an element by the secret {{$2}}, which is never looked for on a page"}
	sayBadTab           = i18n.Sentence{Key: "wfErrBadTab", English: "step $1 works in the run's tab $2, which the steps before it cannot have opened"}
	sayForeignTab       = i18n.Sentence{Key: "wfErrForeignTab", English: "it works in a tab the run neither started in nor opened, which a replay could not find again"}
	sayTakesNoValues    = i18n.Sentence{Key: "wfErrTakesNoValues", English: "the workflow “$1” takes no values, and “$2” was given"}
	sayNoSuchParam      = i18n.Sentence{Key: "wfErrNoSuchParam", English: "the workflow “$1” has no parameter “$2” (it takes $3)"}
	sayRecordStep       = i18n.Sentence{Key: "wfErrRecordStep", English: "step $1 ($2): $3"}
	sayOnlyRead         = i18n.Sentence{Key: "wfErrOnlyRead", English: "the run did nothing a workflow can repeat: it only read pages"}
	sayRunTooLong       = i18n.Sentence{Key: "wfErrRunTooLong", English: "the run has $1 steps; a workflow keeps at most $2"}
	sayFiles            = i18n.Sentence{Key: "wfErrFiles", English: "the run gave a page files, which a workflow cannot do again (files are never stored); do the task without that step to save it"}
	sayNoStep           = i18n.Sentence{Key: "wfErrNoStep", English: "the workflow has no step $1"}
	sayModelOnlyRead    = i18n.Sentence{Key: "wfErrModelOnlyRead", English: "the model's part did nothing a workflow can repeat"}
	sayCallArgs         = i18n.Sentence{Key: "wfErrCallArgs", English: "its arguments are not a JSON object"}
	sayUnrecorded       = i18n.Sentence{Key: "wfErrUnrecorded", English: "Skiff did not record what the element [$1] was"}
)
