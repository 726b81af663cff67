package workflow

import (
	"fmt"
	"strings"

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

// Miss is a target that is not on the page, with why in words.
type Miss struct {
	Target Target
	Why    string
}

func (m *Miss) Error() string { return m.Why }

// Matcher finds targets on one reading of a page.
type Matcher struct {
	snap  *tool.Snap
	page  string
	cands []candidate
	text  string // the snapshot as the model reads it, written when first needed
}

// NewMatcher reads a snapshot of the page at pageOrigin for matching.
func NewMatcher(s *tool.Snap, pageOrigin string) *Matcher {
	return &Matcher{snap: s, page: pageOrigin, cands: flatten(s)}
}

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
	var found, sameRole, sameName []candidate
	for _, c := range m.cands {
		inFrame := c.frame == frame || (frame == "" && c.frame == m.page)
		switch {
		case c.n.Role == t.Role && norm(c.n.Name) == name && inFrame:
			found = append(found, c)
		case c.n.Role == t.Role:
			sameRole = append(sameRole, c)
		case norm(c.n.Name) == name && name != "":
			sameName = append(sameName, c)
		}
	}
	if len(found) == 0 {
		return "", miss(t, sameRole, sameName)
	}
	// The name as it was, letter case included, before one that differs only in case.
	var exact []candidate
	for _, c := range found {
		if strings.Join(strings.Fields(c.n.Name), " ") == t.Name {
			exact = append(exact, c)
		}
	}
	if len(exact) > 0 {
		found = exact
	}
	if len(found) == 1 {
		return found[0].n.Ref, nil
	}
	if m.text == "" {
		m.text = tool.Format(m.snap, tool.SnapOptions{MaxTokens: 1 << 24})
	}
	type placed struct {
		ref  string
		nth  int
		near string
	}
	var all, under []placed
	want := strings.TrimSuffix(t.Near, "…")
	for _, c := range found {
		nth, near, shown := seenAt(m.text, c.n.Ref, t)
		if !shown {
			continue // the page keeps it out of what a person reads (hidden, inside a code block)
		}
		p := placed{c.n.Ref, nth, near}
		all = append(all, p)
		if t.Near != "" && strings.HasPrefix(near, want) {
			under = append(under, p)
		}
	}
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

// miss says what the page has in place of t: elements of its role (the button was renamed) or
// of its name (it became a link).
func miss(t Target, sameRole, sameName []candidate) *Miss {
	why := fmt.Sprintf("the page has no %s", t.Words())
	if t.Frame != "" {
		why += " in its frame from " + t.Frame
	}
	var alt []string
	for _, c := range sameName {
		alt = append(alt, Target{Role: c.n.Role, Name: c.n.Name}.Words())
	}
	if len(sameRole) > 0 && len(sameRole) <= 6 {
		for _, c := range sameRole {
			alt = append(alt, Target{Role: c.n.Role, Name: c.n.Name}.Words())
		}
	}
	if len(alt) > 3 {
		alt = alt[:3]
	}
	if len(alt) > 0 {
		why += "; it has " + strings.Join(alt, ", ")
	}
	return &Miss{Target: t, Why: why}
}
