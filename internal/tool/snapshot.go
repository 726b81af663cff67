package tool

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Snap is what ext/page/skiff.js's snapshot returns for one frame.
type Snap struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	Tree      []Item `json:"tree"`
	Truncated bool   `json:"truncated"`
	// PDF: the tab shows a PDF, in Chrome's viewer (nothing in it to act on).
	PDF int `json:"pdf,omitempty"`
	// Human names the check the page shows that a person is there (a CAPTCHA), when it shows
	// one: "reCAPTCHA", "hCaptcha", "Cloudflare's check".
	Human string `json:"human,omitempty"`
	// Modal is the dialog open modal over the page (showModal), when one is: the page behind
	// it, left out of the tree, cannot be used until it closes.
	Modal *struct {
		Ref    string `json:"ref"`
		Name   string `json:"name"`
		Behind int    `json:"behind"`
	} `json:"modal,omitempty"`
	// Watch names this reading in the page, which watches for changes after it (Env.Unchanged);
	// "" when it could not.
	Watch  string `json:"watch,omitempty"`
	Scroll struct {
		Y        int `json:"y"`
		Height   int `json:"height"`
		Viewport int `json:"viewport"`
	} `json:"scroll"`
}

// Item is a piece of a snapshot tree: text a person reads ({"t": text} on the wire), or an
// element (Node). It has no JSON methods of its own: a decoder method on a recursive type makes
// encoding/json scan each level's bytes again for every level above it (BenchmarkDecodeSnapshot,
// wikipedia-2's 431 KB and 23 levels: 41-52 ms with one, 9 ms without, natively).
type Item struct {
	Text string `json:"t,omitempty"`
	*Node
}

// Node is an element of a snapshot: its ARIA role and accessible name, its ref when a tool can
// act on it or read below it, its state, and what is inside it.
type Node struct {
	Group       int      `json:"group,omitempty"` // a block without a role: its items on their own lines
	Role        string   `json:"role,omitempty"`
	Name        string   `json:"name,omitempty"`
	Ref         string   `json:"ref,omitempty"`
	Inline      int      `json:"inline,omitempty"`
	Level       int      `json:"level,omitempty"`
	Disabled    int      `json:"disabled,omitempty"`
	Expanded    *int     `json:"expanded,omitempty"`
	Checked     *int     `json:"checked,omitempty"`
	Selected    int      `json:"selected,omitempty"`
	Pressed     *int     `json:"pressed,omitempty"`
	Required    int      `json:"required,omitempty"`
	Invalid     int      `json:"invalid,omitempty"` // the page marked it invalid (aria-invalid)
	Sort        string   `json:"sort,omitempty"`    // a column sorted "ascending" or "descending"
	Readonly    int      `json:"readonly,omitempty"`
	Password    int      `json:"password,omitempty"`
	Payment     int      `json:"payment,omitempty"`
	Value       *string  `json:"value,omitempty"`
	Type        string   `json:"type,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	Options     []string `json:"options,omitempty"`
	More        int      `json:"more,omitempty"`
	Offscreen   int      `json:"offscreen,omitempty"`
	Scroll      *Room    `json:"scroll,omitempty"` // a box the page scrolls inside
	Href        string   `json:"href,omitempty"`   // where a link without a name leads
	Hint        string   `json:"hint,omitempty"`   // what the page's code calls a control without a name
	Frame       *int     `json:"frame,omitempty"`
	Src         string   `json:"src,omitempty"`
	// Failed is set (by Env.Snapshot) on an iframe whose page did not load.
	Failed bool   `json:"failed,omitempty"`
	Kids   []Item `json:"kids,omitempty"`
}

// Room is how far a box that scrolls on its own can scroll, in screens of its own: up and down
// (a list of channels, a pane of messages), and sideways for one that scrolls so (a strip of
// cards, a wide table). A way it does not scroll is 0, as one scrolled to its end there.
type Room struct {
	Up    float64 `json:"u"`
	Down  float64 `json:"d"`
	Left  float64 `json:"l"`
	Right float64 `json:"r"`
}

// String says it as the snapshot writes it: "2.5 screens below", "1 screen above, 0.5 below",
// "3 screens to the right".
func (r Room) String() string {
	var parts []string
	for _, p := range []struct {
		n    float64
		side string
	}{{r.Up, "above"}, {r.Down, "below"}, {r.Left, "to the left"}, {r.Right, "to the right"}} {
		if p.n > 0 {
			parts = append(parts, strconv.FormatFloat(p.n, 'f', -1, 64)+" "+p.side)
		}
	}
	if len(parts) == 0 {
		return "less than a tenth of a screen more"
	}
	n, rest, _ := strings.Cut(parts[0], " ")
	unit := " screens "
	if n == "1" {
		unit = " screen "
	}
	parts[0] = n + unit + rest
	return strings.Join(parts, ", ")
}

// interactiveRoles are the roles a person acts on (the rest is read).
var interactiveRoles = map[string]bool{"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true, "radio": true,
	"combobox": true, "listbox": true, "option": true, "slider": true, "spinbutton": true, "switch": true, "tab": true, "menuitem": true,
	"menuitemcheckbox": true, "menuitemradio": true, "treeitem": true, "gridcell": true, "generic": true}

// textual roles take their name from their content: it is written after a colon, unquoted.
var textual = map[string]bool{"paragraph": true, "listitem": true, "cell": true, "columnheader": true, "rowheader": true, "heading": true,
	"caption": true, "legend": true, "term": true, "definition": true, "blockquote": true, "code": true}

// Interactive reports whether n is an element a person acts on.
func (n *Node) Interactive() bool { return n.Ref != "" && interactiveRoles[n.Role] }

// frameRef makes a ref of frame's document global: "e12" in frame 3 is "f3e12".
func frameRef(frame int, ref string) string {
	if frame == 0 || ref == "" {
		return ref
	}
	return "f" + strconv.Itoa(frame) + ref
}

// prefixRefs makes the refs of a frame's tree global (frameRef).
func prefixRefs(items []Item, frame int) {
	if frame == 0 {
		return
	}
	for _, it := range items {
		if n := it.Node; n != nil {
			n.Ref = frameRef(frame, n.Ref)
			prefixRefs(n.Kids, frame)
		}
	}
}

// SnapOptions shape the text of a snapshot.
type SnapOptions struct {
	MaxTokens int // budget; 0: DefaultSnapshotTokens
	// After continues a snapshot that was cut: only what comes after the element with this
	// ref is written.
	After string
	// FullText keeps every run of text whole (a part of the page the model asked for by its
	// ref); else a long one is shortened to SnapshotText, read_text giving it whole.
	FullText bool
}

// SnapshotText is how much of a long run of text a page's snapshot shows (about thirty words):
// a snapshot is for finding what to act on; read_text, or a snapshot of that part, reads it
// whole.
const SnapshotText = 160

// DefaultSnapshotTokens is the snapshot budget when the caller gives none.
const DefaultSnapshotTokens = 6000

// Format writes a snapshot as the model reads it: a header, then one line per element or run
// of text, indented by nesting. When the text exceeds the budget it is shortened in steps that
// give up text before controls: long texts clipped, then text lines left out, then only the
// controls and the headings around them; when even those do not fit, it is cut, saying how many
// controls follow and how to see them (after= the last ref shown continues from there).
func Format(s *Snap, opt SnapOptions) string {
	budget := opt.MaxTokens
	if budget <= 0 {
		budget = DefaultSnapshotTokens
	}
	maxChars := budget * 4
	var head strings.Builder
	fmt.Fprintf(&head, "Page: %s\nURL: %s\n", oneLine(s.Title), s.URL)
	if s.Scroll.Height > s.Scroll.Viewport && s.Scroll.Viewport > 0 {
		fmt.Fprintf(&head, "Scrolled to %d of %d px (the viewport shows %d px)\n", s.Scroll.Y, s.Scroll.Height, s.Scroll.Viewport)
	}
	if opt.After != "" {
		head.WriteString("[Continued after [" + opt.After + "].]\n")
	}
	if s.Human != "" {
		fmt.Fprintf(&head, "[The page asks to prove a person is here (%s). Do not try to solve it or get around it: tell the user, who can solve it in the tab, and go on once they say it is done.]\n", s.Human)
	}
	if m := s.Modal; m != nil {
		name := ""
		if m.Name != "" {
			name = " " + strconv.Quote(oneLine(m.Name))
		}
		fmt.Fprintf(&head, "[A dialog%s [%s] is open over the page: until it closes, only what is in it can be used; the page behind it is left out (%d controls).]\n", name, m.Ref, m.Behind)
	}
	controls := map[string]bool{}
	collect(s.Tree, controls)
	var body string
	note := ""
	first := SnapshotText
	if opt.FullText {
		first = 0
	}
	steps := []writer{{textMax: first}, {textMax: 60}, {textMax: 60, noText: true}, {textMax: 60, noText: true, controlsOnly: true}}
	if first == 0 {
		steps = append([]writer{{textMax: 0}, {textMax: SnapshotText}}, steps[1:]...)
	}
	for i, w := range steps {
		w.b = &strings.Builder{}
		tree := s.Tree
		if w.controlsOnly {
			tree = onlyControls(s.Tree)
		}
		w.items(tree, 0)
		body = w.b.String()
		if opt.After != "" {
			body = after(body, opt.After)
		}
		if len(body)+head.Len() <= maxChars {
			switch {
			case w.controlsOnly:
				note = "[Only the controls and the headings around them fit the budget; read_text gives the page's text, or ask for a subtree with ref.]\n"
			case w.noText:
				note = "[Texts are left out to fit the budget; read_text gives the page's text, or ask for a subtree with ref.]\n"
			case w.textMax > 0 && i > 0:
				note = "[Long texts are shortened to fit the budget; read_text gives them whole.]\n"
			case w.clipped:
				note = "[Long texts are shortened (…); read_text gives them whole, or snapshot with ref= gives one part in full.]\n"
			}
			break
		}
	}
	if len(body)+head.Len() > maxChars {
		cut := maxChars - head.Len() - 300
		if cut < 0 {
			cut = 0
		}
		cut = min(cut, len(body))
		if i := strings.LastIndexByte(body[:cut], '\n'); i >= 0 && cut-i < 2000 {
			cut = i + 1
		} else if i := strings.LastIndexByte(body[:cut], ']'); i >= 0 {
			cut = i + 1 // inside a long line: after the last whole ref
		}
		shown, left, last := 0, 0, ""
		for _, r := range refsIn(body[:cut]) {
			if controls[r] {
				shown++
				last = r
			}
		}
		for _, r := range refsIn(body[cut:]) {
			if controls[r] {
				left++
			}
		}
		body = body[:cut]
		how := "scroll, or find_text to reach one"
		if last != "" {
			how = fmt.Sprintf("snapshot with after=%q continues from the last one shown; find_text or ref= reach one part", last)
		}
		note = fmt.Sprintf("[Cut at the budget of about %d tokens: %d controls shown, %d more follow (%s; or a larger maxTokens).]\n", budget, shown, left, how)
	}
	if s.Truncated {
		note += "[The page is very large; only its first part was read.]\n"
	}
	if s.PDF != 0 {
		note += "[This tab shows a PDF in Chrome's viewer, which has nothing to act on: read_text gives its text, page by page.]\n"
	}
	if strings.TrimSpace(body) == "" {
		body = "(nothing visible)\n"
		if opt.After != "" {
			body = "(nothing after [" + opt.After + "]: that is the end of the page, or the ref is not on it; take a new snapshot)\n"
		}
	}
	return head.String() + note + body
}

// refsIn lists the refs written in a snapshot's text ("[e12]", "[f3e7]"), in order.
func refsIn(s string) []string {
	var out []string
	for i := strings.IndexByte(s, '['); i >= 0; {
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			break
		}
		if _, _, err := parseRef(s[i+1 : i+j]); err == nil && (s[i+1] == 'e' || s[i+1] == 'f') {
			out = append(out, s[i+1:i+j])
		}
		k := strings.IndexByte(s[i+1:], '[')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return out
}

// after is the part of a snapshot's text that comes after ref: the lines after the one that
// holds it, and first, when ref sits inside a line with more controls after it (a paragraph of
// inline links is one line, and a cut can fall inside it), the rest of that line.
func after(body, ref string) string {
	mark := "[" + ref + "]"
	i := strings.Index(body, mark)
	if i < 0 {
		return ""
	}
	rest := body[i+len(mark):]
	line, next := rest, ""
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		line, next = rest[:j], rest[j+1:]
	}
	if len(refsIn(line)) > 0 {
		return "… " + strings.TrimLeft(line, " ,;") + "\n" + next
	}
	return next
}

// collect notes the refs of the controls in items (what a person can act on).
func collect(items []Item, into map[string]bool) {
	for _, it := range items {
		if n := it.Node; n != nil {
			if n.Interactive() {
				into[n.Ref] = true
			}
			collect(n.Kids, into)
		}
	}
}

// onlyControls keeps the controls of items and the headings that say where they are (a
// control says its name: what is inside it is not needed), inside the frames that hold them.
func onlyControls(items []Item) []Item {
	var out []Item
	for _, it := range items {
		n := it.Node
		if n == nil {
			continue
		}
		kids := onlyControls(n.Kids)
		switch {
		case n.Role == "iframe":
			c := *n
			c.Kids = kids
			out = append(out, Item{Node: &c})
		case n.Interactive() || n.Role == "heading":
			c := *n
			c.Kids, c.Inline = nil, 0 // a line of its own: a cut falls between controls
			out = append(out, Item{Node: &c})
			out = append(out, kids...)
		default:
			out = append(out, kids...)
		}
	}
	return out
}

func countInteractive(items []Item) int {
	n := 0
	for _, it := range items {
		if it.Node != nil {
			if it.Node.Interactive() {
				n++
			}
			n += countInteractive(it.Node.Kids)
		}
	}
	return n
}

type writer struct {
	b            *strings.Builder
	textMax      int  // clip each run of text to this many bytes (0: no limit)
	clipped      bool // a run of text was clipped
	noText       bool // leave runs of text out
	controlsOnly bool // the tree is its controls and headings only
}

// clip shortens s to textMax, and notes it did.
func (w *writer) clip(s string) string {
	c := clip(s, w.textMax)
	if len(c) != len(s) {
		w.clipped = true
	}
	return c
}

// line writes one line, indented two spaces a level. Nesting is the indent alone: a "- " before
// every line (as Playwright writes) said nothing more and cost a few percent of every snapshot.
func (w *writer) line(depth int, s string) {
	for i := 0; i < depth; i++ {
		w.b.WriteString("  ")
	}
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// items writes a sequence: runs of text and inline elements share a line; blocks get their own.
func (w *writer) items(items []Item, depth int) {
	var run []string
	textOnly := true
	flush := func() {
		if len(run) == 0 {
			return
		}
		s := strings.Join(strings.Fields(strings.Join(run, " ")), " ")
		run = run[:0]
		only := textOnly
		textOnly = true
		if s == "" || (only && w.noText) {
			return
		}
		if only && w.textMax > 0 {
			s = w.clip(s)
		}
		w.line(depth, s)
	}
	for _, it := range items {
		n := it.Node
		switch {
		case n == nil:
			run = append(run, it.Text)
		case n.Group == 1:
			flush()
			w.items(n.Kids, depth)
		case n.Inline == 1 && inlineLeaf(n):
			run = append(run, w.inlineLabel(n))
			textOnly = false
		default:
			flush()
			w.node(n, depth)
		}
	}
	flush()
}

// inlineLeaf reports whether n can sit inside a line of text: nothing but text inside it.
func inlineLeaf(n *Node) bool {
	for _, k := range n.Kids {
		if k.Node != nil {
			return false
		}
	}
	return n.Role != "iframe"
}

func (w *writer) node(n *Node, depth int) {
	label := w.label(n)
	if n.Role == "iframe" {
		w.line(depth, label+":")
		switch {
		case n.Failed:
			w.line(depth+1, "(its page did not load)")
		case len(n.Kids) == 0:
			w.line(depth+1, "(empty, or not readable)")
		}
		w.items(n.Kids, depth+1)
		return
	}
	if len(n.Kids) == 0 {
		w.line(depth, label)
		return
	}
	// A nameless clickable box that shows a few words is said by them, as one in a line of
	// text is (Said): `clickable "1" [e9]`, a day of air-datepicker's calendar.
	if n.Inline != 1 && n.Name == "" {
		if said := n.Said(); said != "" {
			cp := *n
			cp.Name, cp.Kids = said, nil
			w.line(depth, w.label(&cp))
			return
		}
	}
	// A table row whose cells each fit on a line is one line: cells between bars.
	if n.Role == "row" {
		if cells, ok := w.cells(n.Kids); ok {
			w.line(depth, label+": "+cells)
			return
		}
	}
	// Content that is one run of text and inline elements goes on the element's own line.
	if run, ok := w.run(n.Kids); ok {
		switch {
		case run == "":
			w.line(depth, label)
		case label == "li":
			// A plain list item is already a line of a list: its "li:" said nothing, on every
			// line of every menu.
			w.line(depth, run)
		default:
			w.line(depth, label+": "+run)
		}
		return
	}
	w.line(depth, label+":")
	w.items(n.Kids, depth+1)
}

// cells renders a row's cells as "a | b | c" when each is text and inline elements.
func (w *writer) cells(items []Item) (string, bool) {
	var parts []string
	for _, it := range items {
		n := it.Node
		if n == nil || (n.Role != "cell" && n.Role != "columnheader" && n.Role != "rowheader" && n.Role != "gridcell") {
			return "", false
		}
		c := n.Name
		if n.Ref != "" {
			c = w.label(n)
		} else if len(n.Kids) > 0 {
			run, ok := w.run(n.Kids)
			if !ok {
				return "", false
			}
			c = run
		}
		if n.Sort != "" && n.Ref == "" {
			c += " (sorted " + n.Sort + ")" // a header the table is sorted by
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, " | "), true
}

// run renders items as one line when they are all text and inline elements (what items would
// write on a single line), and reports whether they were.
func (w *writer) run(items []Item) (string, bool) {
	var parts []string
	textOnly := true
	for _, it := range items {
		switch n := it.Node; {
		case n == nil:
			parts = append(parts, it.Text)
		case n.Inline == 1 && n.Group == 0 && inlineLeaf(n):
			parts = append(parts, w.inlineLabel(n))
			textOnly = false
		default:
			return "", false
		}
	}
	s := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
	if textOnly && w.noText {
		return "", true
	}
	if textOnly && w.textMax > 0 {
		s = w.clip(s)
	}
	return s, true
}

// inlineLabel is an element that sits in a line of text, as its label with the name it is said
// by (Said).
func (w *writer) inlineLabel(n *Node) string {
	if n.Name != "" {
		return w.label(n)
	}
	cp := *n
	cp.Name = n.Said()
	return w.label(&cp)
}

// Said is the name the snapshot writes n by: its name, or, for a nameless element that sits in
// a line of text (a clickable span, a file tile a page lets people drag), the words it shows,
// which the line would otherwise lose, and for a nameless clickable box that shows only a few
// words (air-datepicker's days, written `clickable "1" [e9]`). A workflow finds it again by the
// same.
func (n *Node) Said() string {
	if n.Name != "" || n.Inline != 1 && n.Role != "generic" || n.Group != 0 || !inlineLeaf(n) {
		return n.Name
	}
	var parts []string
	for _, k := range n.Kids {
		parts = append(parts, k.Text)
	}
	s := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
	if n.Inline != 1 && (n.Ref == "" || len(s) > maxSaid) {
		return "" // (a box's text of more than a few words is its text, not its name)
	}
	return s
}

// maxSaid bounds the words a nameless clickable box is said by (Said).
const maxSaid = 80

// label is an element in a few words: role, name, ref, state.
func (w *writer) label(n *Node) string {
	var b strings.Builder
	role := n.Role
	switch role {
	case "heading":
		role = "h" + strconv.Itoa(max(1, min(n.Level, 6)))
	case "paragraph":
		role = "p"
	case "listitem":
		role = "li"
	case "generic":
		role = "clickable"
	}
	b.WriteString(role)
	name := n.Name
	if w.textMax > 0 && !n.Interactive() {
		name = w.clip(name)
	}
	colonName := textual[n.Role] && name != ""
	if name != "" && !colonName {
		b.WriteString(" ")
		b.WriteString(strconv.Quote(name))
	}
	if n.Ref != "" {
		b.WriteString(" [" + n.Ref + "]")
	}
	var props []string
	if n.Disabled == 1 {
		props = append(props, "disabled")
	}
	if n.Checked != nil {
		props = append(props, [...]string{"unchecked", "checked", "mixed"}[min(max(*n.Checked, 0), 2)])
	}
	if n.Expanded != nil {
		props = append(props, map[bool]string{true: "expanded", false: "collapsed"}[*n.Expanded == 1])
	}
	if n.Selected == 1 {
		props = append(props, "selected")
	}
	if n.Pressed != nil && *n.Pressed == 1 {
		props = append(props, "pressed")
	}
	if n.Required == 1 {
		props = append(props, "required")
	}
	if n.Readonly == 1 {
		props = append(props, "readonly")
	}
	if n.Invalid == 1 {
		props = append(props, "invalid")
	}
	if n.Sort != "" {
		props = append(props, "sorted "+n.Sort)
	}
	if n.Type != "" && !(n.Type == "password" && n.Password == 1) { // "password" says it
		props = append(props, "type="+n.Type)
	}
	if n.Password == 1 {
		props = append(props, "password")
	}
	if n.Payment == 1 {
		props = append(props, "payment")
	}
	if n.Value != nil && *n.Value != "" && n.Password != 1 {
		props = append(props, "value="+strconv.Quote(*n.Value))
	}
	if n.Placeholder != "" {
		props = append(props, "placeholder="+strconv.Quote(n.Placeholder))
	}
	if n.Href != "" && n.Name == "" {
		props = append(props, "href="+strconv.Quote(n.Href))
	}
	if n.Hint != "" && n.Name == "" {
		props = append(props, "hint="+strconv.Quote(n.Hint))
	}
	if n.Scroll != nil {
		if n.Role != "scrollable" {
			props = append(props, "scrollable")
		}
		props = append(props, "("+n.Scroll.String()+")")
	}
	if len(n.Options) > 0 {
		o := "options=" + strings.Join(quoteAll(n.Options), ",")
		if n.More > 0 {
			o += fmt.Sprintf(",…(+%d)", n.More)
		}
		props = append(props, o)
	}
	if len(props) > 0 {
		b.WriteString(" " + strings.Join(props, " "))
	}
	if colonName && n.Role == "listitem" && n.Ref == "" && len(props) == 0 {
		return name // a plain list item is its text: the line is already one of a list
	}
	if colonName {
		b.WriteString(": " + name)
	}
	return b.String()
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// stitch puts each frame's tree under the iframe element it belongs to. frames maps frame id to
// its snapshot; parents maps frame id to its parent frame id. Refs in frame f become "f<f>e…".
// A child frame the parent could not name (its hello did not arrive) goes under the first
// unclaimed iframe of its parent whose src is its URL.
func stitch(frames map[int]*Snap, parents map[int]int) *Snap {
	top := frames[0]
	if top == nil {
		return nil
	}
	top.Watch = ""                     // the top frame's watch says nothing of the others
	ids := make([]int, 0, len(frames)) // frame ids grow in document order
	for id, s := range frames {
		prefixRefs(s.Tree, id)
		ids = append(ids, id)
	}
	sort.Ints(ids)
	placed := map[int]bool{0: true}
	var place func(items []Item, frame int)
	place = func(items []Item, frame int) {
		for _, it := range items {
			n := it.Node
			if n == nil {
				continue
			}
			if n.Role == "iframe" {
				child := -1
				if n.Frame != nil && *n.Frame >= 0 && frames[*n.Frame] != nil && !placed[*n.Frame] {
					child = *n.Frame
				} else {
					for _, id := range ids {
						if parents[id] == frame && !placed[id] && frames[id].URL == n.Src {
							child = id
							break
						}
					}
				}
				if child >= 0 {
					placed[child] = true
					n.Kids = frames[child].Tree
					place(n.Kids, child)
				}
				continue
			}
			place(n.Kids, frame)
		}
	}
	place(top.Tree, 0)
	return top
}
