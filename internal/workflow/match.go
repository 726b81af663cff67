package workflow

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/tool"
)

// candidate is an element of a snapshot as the matcher sees it: the frame it is in (its
// origin, "" for the page's own).
type candidate struct {
	n     *tool.Node
	frame string
}

// flatten lists a snapshot's elements with refs in document order.
func flatten(s *tool.Snap) []candidate {
	var out []candidate
	var walk func(items []tool.Item, frame string)
	walk = func(items []tool.Item, frame string) {
		for _, it := range items {
			n := it.Node
			if n == nil {
				continue
			}
			if n.Ref != "" && n.Role != "iframe" {
				out = append(out, candidate{n: n, frame: frame})
			}
			f := frame
			if n.Role == "iframe" {
				f = site(n.Src)
			}
			walk(n.Kids, f)
		}
	}
	walk(s.Tree, "")
	return out
}

// norm is a name as matching compares it: its words, one space apart, in lower case.
func norm(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// Miss is a target that is not on the page, with why in words (Says: for the user, in their
// language).
type Miss struct {
	Target Target
	Why    string
	Says   i18n.Text
	// turn is what turns a calendar toward the month of a day it does not show (Matcher.day):
	// the replay clicks its Next or Prev, or chooses in its list of months or years, and looks
	// again.
	turn aside
}

// aside is a call a replay makes on its own on the way to a step: a click on ref, or
// (select_option) the choice in the list ref of the first of values it has.
type aside struct {
	tool, ref string
	values    []string
}

// click is the aside that clicks ref, none when ref is "".
func click(ref string) aside {
	if ref == "" {
		return aside{}
	}
	return aside{tool: "click", ref: ref}
}

func (m *Miss) Error() string { return m.Why }

// Matcher finds targets on one reading of a page.
type Matcher struct {
	snap  *tool.Snap
	page  string
	cands []candidate
	text  string         // the snapshot as the model reads it, written when first needed
	heads []head         // its headings, in order
	refs  map[string]int // where the text writes each ref (refAt), found when first needed
	lines []int          // where each of its lines begins (lineAt)
	// Links, when set, reads where the page's links whose address holds href go (ref →
	// address; the page's own frame): among namesakes, a link target is the one that goes
	// where it went.
	Links func(href string) map[string]string
}

// NewMatcher reads a snapshot of the page at pageOrigin for matching.
func NewMatcher(s *tool.Snap, pageOrigin string) *Matcher {
	return &Matcher{snap: s, page: pageOrigin, cands: flatten(s)}
}

// Disabled reports whether the element ref is disabled on the page as read.
func (m *Matcher) Disabled(ref string) bool {
	for _, c := range m.cands {
		if c.n.Ref == ref {
			return c.n.Disabled == 1
		}
	}
	return false
}

// named says whether an element whose name is said (as norm leaves it) is one named name: the
// same words, or, where the page cut one of them short (a snapshot keeps 120 letters of a
// name, the description of the element a call acted on 160), the same words as far as the
// shorter one goes. A name that merely ends so ("Loading…") is cut short of nothing.
func named(said, name string) bool {
	if said == name {
		return true
	}
	a, cutA := strings.CutSuffix(said, "…")
	b, cutB := strings.CutSuffix(name, "…")
	long := func(s string) bool { return utf8.RuneCountInString(s) >= minCut }
	switch {
	case cutA && cutB:
		return long(a) && long(b) && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a))
	case cutA:
		return long(a) && strings.HasPrefix(b, a)
	case cutB:
		return long(b) && strings.HasPrefix(a, b)
	}
	return false
}

// minCut is the fewest letters a name cut short keeps (the page cuts at 120 or more).
const minCut = 100

// Match finds t in a snapshot and returns its ref (see Matcher.Match).
func Match(s *tool.Snap, t Target, pageOrigin string) (string, error) {
	return NewMatcher(s, pageOrigin).Match(t)
}

// Match finds t and returns its ref. Its role and name must be there, in its frame; among
// several, the one under the same heading, then the one in the same place among them, both read
// from the snapshot's text as the recorder read them from the text the model saw. What is not
// there is a Miss that says what the page has instead.
func (m *Matcher) Match(t Target) (string, error) {
	frame := t.Frame
	if frame == m.page {
		frame = ""
	}
	name := norm(t.Name)
	if t.Month != "" && t.Param != "" {
		return m.day(t, frame)
	}
	if (t.Role == "option" || t.Role == "radio") && t.Param != "" {
		if ref, err, ok := m.choice(t, frame); ok {
			return ref, err
		}
	} else if ref := m.holding(t, frame); ref != "" {
		return ref, nil
	}
	if v := strings.TrimSpace(t.value); isDateAs(v, t.Lang) && !holds(name, norm(v)) {
		// A day of a calendar, for another date than the recorded one: the recorded day
		// would be the wrong one.
		day := t
		day.Name = v
		ms := miss(day, nil, nil)
		ms.turn = click(m.dayTurner(t, frame, v))
		return "", ms
	}
	var found, sameRole, sameName []candidate
	for _, c := range m.cands {
		inFrame := c.frame == frame || (frame == "" && c.frame == m.page)
		switch {
		case c.n.Role == t.Role && named(norm(c.n.Said()), name) && inFrame:
			found = append(found, c)
		case c.n.Role == t.Role:
			sameRole = append(sameRole, c)
		case name != "" && named(norm(c.n.Said()), name):
			sameName = append(sameName, c)
		}
	}
	// A control without a name is told from the others by what its page's code calls it (the
	// bin from the pencil): one called otherwise, or not at all, is not it.
	if t.Hint != "" {
		var hinted []candidate
		for _, c := range found {
			if c.n.Hint == t.Hint {
				hinted = append(hinted, c)
			} else {
				sameRole = append(sameRole, c)
			}
		}
		found = hinted
	}
	if len(found) == 0 {
		// A name with a count in it ("Inbox (12)", "Cart, 3 items") counts otherwise another
		// day: the one element of its role whose name is the same but for its numbers is it.
		if c, ok := oneCounted(sameRole, t, frame, m.page); ok {
			return c.n.Ref, nil
		}
		return "", miss(t, sameRole, sameName)
	}
	// The name as it was, letter case included, before one that differs only in case.
	var exact []candidate
	for _, c := range found {
		if strings.Join(strings.Fields(c.n.Said()), " ") == t.Name {
			exact = append(exact, c)
		}
	}
	if len(exact) > 0 {
		found = exact
	}
	if len(found) == 1 {
		return found[0].n.Ref, nil
	}
	if t.Href != "" && frame == "" && m.Links != nil {
		// Several: the one that goes where it went (several that go there are one).
		// (Asked by address, not by name: a page's text may space a long name otherwise.)
		hrefs := m.Links(t.Href)
		var there []candidate
		for _, c := range found {
			if hrefs[c.n.Ref] == t.Href {
				there = append(there, c)
			}
		}
		if len(there) == 1 {
			return there[0].n.Ref, nil
		}
		if len(there) > 1 {
			found = there
		}
	}
	// Several: tell them apart as the recorder did, by the snapshot's text. The k-th time the
	// label is written is the namesake k; the heading is the last one above its line. Elements
	// the text leaves out (hidden, inside a code block) were not the model's to choose.
	m.read()
	want := map[string]bool{}
	for _, c := range found {
		want[c.n.Ref] = true
	}
	type placed struct {
		ref  string
		nth  int
		near string
	}
	var all, under []placed
	near := strings.TrimSuffix(t.Near, "…")
	nth := 0
	each(m.text, t, func(ref string, at int) bool {
		k := nth
		nth++
		if !want[ref] {
			return true
		}
		p := placed{ref, k, m.headingBefore(at)}
		all = append(all, p)
		if t.Near != "" && strings.HasPrefix(p.near, near) {
			under = append(under, p)
		}
		return true
	})
	if len(under) == 1 {
		return under[0].ref, nil
	}
	if len(under) > 1 {
		all = under
	}
	if len(all) == 0 {
		return found[0].n.Ref, nil
	}
	for _, p := range all {
		if p.nth == t.Nth {
			return p.ref, nil
		}
	}
	return all[0].ref, nil
}

// holding finds a target whose name held a value of the run (Target.Param) by the run's value:
// the first element of its role, in its frame, whose name holds the value. It finds none ("")
// when none holds it (the name only happened to hold the recorded value: "Home"), or when one
// that does is named as recorded (the run's value is the recorded one): the target is then
// found as any is, its namesakes told apart as recorded.
func (m *Matcher) holding(t Target, frame string) string {
	v := norm(t.value)
	if v == "" {
		return ""
	}
	first := ""
	for _, c := range m.cands {
		if c.n.Role != t.Role || !(c.frame == frame || frame == "" && c.frame == m.page) {
			continue
		}
		name := norm(c.n.Said())
		if !holds(name, v) {
			continue
		}
		if name == norm(t.Name) {
			return ""
		}
		if first == "" {
			first = c.n.Ref
		}
	}
	return first
}

// choice finds an option, or a radio, by the run's value of its parameter (Target.Param): for
// a choice in a list or a group (Target.chosen), the option named so, or the one option whose
// name holds it; for a value typed into the search field whose suggestions the options are,
// the first whose name holds it. When none does, the recorded option is not chosen in its
// place, as a link that merely held the recorded value would be: the list offers no such
// choice, a Miss. Not ok when the run's value is the recorded one: the option is then found as
// any target is.
func (m *Matcher) choice(t Target, frame string) (string, error, bool) {
	v := norm(t.value)
	if v == "" || v == norm(t.Name) || !t.chosen && holds(norm(t.Name), v) {
		return "", nil, false
	}
	var options, holding []candidate
	for _, c := range m.cands {
		if c.n.Role != t.Role || !(c.frame == frame || frame == "" && c.frame == m.page) {
			continue
		}
		options = append(options, c)
		switch name := norm(c.n.Said()); {
		case name == v:
			return c.n.Ref, nil, true
		case holds(name, v):
			holding = append(holding, c)
		}
	}
	if len(holding) == 1 || len(holding) > 1 && !t.chosen {
		return holding[0].n.Ref, nil, true
	}
	want := t
	want.Name = strings.TrimSpace(t.value)
	return "", miss(want, nil, options), true // (what the page offers, however many)
}

// oneCounted is the one element among cands, in t's frame, whose name is t's but for its
// numbers, when t's name has numbers and words besides and exactly one is named so.
func oneCounted(cands []candidate, t Target, frame, page string) (candidate, bool) {
	want := uncounted(norm(t.Name))
	if want == norm(t.Name) || strings.Trim(want, "# ") == "" {
		return candidate{}, false
	}
	var one []candidate
	for _, c := range cands {
		if (c.frame == frame || frame == "" && c.frame == page) && uncounted(norm(c.n.Said())) == want {
			one = append(one, c)
		}
	}
	if len(one) != 1 {
		return candidate{}, false
	}
	return one[0], true
}

// uncounted is s with each run of digits (and the separators inside a number: 1,234.5) as #.
func uncounted(s string) string {
	var b strings.Builder
	in := false
	for i, r := range s {
		digit := r >= '0' && r <= '9'
		sep := (r == ',' || r == '.') && in && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9'
		switch {
		case digit || sep:
			if !in {
				b.WriteByte('#')
			}
			in = true
		default:
			in = false
			b.WriteRune(r)
		}
	}
	return b.String()
}

// read writes the snapshot as the model reads it, and finds its headings, once.
func (m *Matcher) read() {
	if m.text != "" {
		return
	}
	m.text = tool.Format(m.snap, tool.SnapOptions{MaxTokens: 1 << 24, FullText: true})
	for start := 0; start < len(m.text); {
		end := strings.IndexByte(m.text[start:], '\n')
		if end < 0 {
			end = len(m.text) - start
		}
		if name, ok := heading(m.text[start : start+end]); ok {
			m.heads = append(m.heads, head{end: start + end, name: name})
		}
		start += end + 1
	}
}

// head is a heading of the text: where its line ends, and its name.
type head struct {
	end  int
	name string
}

// headingBefore is the last heading whose line ends before offset at.
func (m *Matcher) headingBefore(at int) string {
	k := sort.Search(len(m.heads), func(i int) bool { return m.heads[i].end >= at })
	if k == 0 {
		return ""
	}
	return m.heads[k-1].name
}

// miss says what the page has in place of t: elements of its role (the button was renamed) or
// of its name (it became a link).
func miss(t Target, sameRole, sameName []candidate) *Miss {
	why := fmt.Sprintf("the page has no %s", t.Words())
	says := sayNoTarget.With(t.Says())
	if t.Frame != "" {
		why += " in its frame from " + t.Frame
		says = sayNoTargetFrame.With(t.Says(), t.Frame)
	}
	var alt []Target
	other := func(c candidate) Target {
		o := Target{Role: c.n.Role, Name: c.n.Said()}
		if o.Name == "" {
			o.Hint = c.n.Hint
		}
		return o
	}
	for _, c := range sameName {
		alt = append(alt, other(c))
	}
	if len(sameRole) > 0 && len(sameRole) <= 6 {
		for _, c := range sameRole {
			alt = append(alt, other(c))
		}
	}
	if len(alt) > 3 {
		alt = alt[:3]
	}
	if len(alt) > 0 {
		words, shown := make([]string, len(alt)), make(i18n.List, len(alt))
		for i, a := range alt {
			words[i], shown[i] = a.Words(), a.Says()
		}
		why += "; it has " + strings.Join(words, ", ")
		says = sayItHas.With(says, shown)
	}
	return &Miss{Target: t, Why: why, Says: says}
}
