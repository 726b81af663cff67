package workflow

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// A day of a calendar named only by its number ("2": jQuery UI's datepicker, Bootstrap's, MUI's
// draw their days so) is a date all the same: the month the calendar writes above its grid
// ("December 2026") says which. A click on one keeps the date as a value (Target.Month is how
// the calendar wrote its month), and a replay for another date finds that date's month on the
// calendar, turning the calendar's months with its own Next or Prev while it shows another.

// monthLayouts are the ways a calendar writes the month it shows.
var monthLayouts = []string{"January 2006", "Jan 2006", "January, 2006", "Jan, 2006", "2006年 January", "2006 年 January", "2006 January", "2006. January"}

// dayLayout is how a day found by its number keeps its date, a value Dated writes again.
const dayLayout = "January 2, 2006"

// MaxTurns bounds how many months a replay turns a calendar to find its day.
const MaxTurns = 24

// dayNumber is the day a name that is only a day's number names (1 to 31).
func dayNumber(name string) (int, bool) {
	name = strings.TrimSpace(name)
	if len(name) == 0 || len(name) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(name)
	if err != nil || n < 1 || n > 31 || name[0] == '+' {
		return 0, false
	}
	return n, true
}

// shortYearLayouts are the ways a calendar writes its month with its year in two figures
// (Tempus Dominus' "December 26"), read only where a calendar is sure to be (monthOfLineAs): a
// date without its year is written so too.
var shortYearLayouts = []string{"January 06", "Jan 06"}

// monthIn reads s as a month a calendar shows, and the way it is written.
func monthIn(s string) (time.Time, string, bool) {
	s = strings.Join(strings.Fields(s), " ")
	if l, day, ok := cjkLayout(s); ok && !day {
		if t, err := time.Parse(l, s); err == nil {
			return t, l, true
		}
	}
	en, _ := english(s)
	for _, l := range monthLayouts {
		if t, err := time.Parse(l, en); err == nil {
			return t, l, true
		}
	}
	// A month's short name that is an English word too, and its year (Italian's "Gen 2027").
	if f := strings.Fields(s); len(f) == 2 && len(f[1]) == 4 {
		if m, ok := monthNamed(f[0]); ok {
			if t, err := time.Parse("Jan 2006", m.String()[:3]+" "+f[1]); err == nil {
				return t, "Jan 2006", true
			}
		}
	}
	return time.Time{}, "", false
}

// monthOfLine is the month a line of a snapshot's text writes (its text, its heading's or an
// element's name: `grid "December 2026" [e4]:`), the words it is written with, and the way.
func monthOfLine(line string) (month time.Time, label, layout string, ok bool) {
	return monthOfLineAs(line, false)
}

// monthOfLineAs is monthOfLine, or with short, the month a line writes with its year in two
// figures (shortYearLayouts).
func monthOfLineAs(line string, short bool) (month time.Time, label, layout string, ok bool) {
	if !short && !hasYear(line) {
		return time.Time{}, "", "", false // (most lines: read fast)
	}
	s := strings.TrimPrefix(strings.TrimSpace(line), "- ")
	tries := []string{strings.TrimSuffix(s, ":")}
	if _, rest, found := strings.Cut(s, ": "); found {
		tries = append(tries, rest)
	}
	// Every name the line writes (a table's head row: `clickable "«" | clickable "December
	// 2026" | clickable "»"`, as Bootstrap's datepicker draws it), and the names together: a
	// month and a year each a button of its own (`button "Dec" [e5] button "2026" [e6]`, as
	// Ant Design's calendar draws them).
	names := 0
	for rest := s; ; {
		i := strings.IndexByte(rest, '"')
		if i < 0 {
			break
		}
		q, err := strconv.QuotedPrefix(rest[i:])
		if err != nil {
			break
		}
		if u, err := strconv.Unquote(q); err == nil {
			tries = append(tries, u)
			names++
		}
		rest = rest[i+len(q):]
	}
	if names > 1 {
		tries = append(tries, strings.Join(tries[len(tries)-names:], " "))
	}
	// And what a cell of such a row writes after its ref (`columnheader [e2]: December 2026`).
	for _, seg := range strings.Split(s, " | ") {
		if _, after, found := strings.Cut(seg, "]: "); found {
			tries = append(tries, after)
		}
	}
	for _, t := range tries {
		if short {
			t = strings.Join(strings.Fields(t), " ")
			if f := strings.Fields(t); len(f) != 2 || len(f[1]) != 2 || !digits(f[1]) {
				continue
			}
			en, _ := english(t)
			for _, l := range shortYearLayouts {
				if m, err := time.Parse(l, en); err == nil {
					return m, t, l, true
				}
			}
			continue
		}
		if m, l, ok := monthIn(t); ok {
			return m, strings.Join(strings.Fields(t), " "), l, true
		}
	}
	if short {
		return time.Time{}, "", "", false
	}
	// A month and a year chosen from lists: written as its month's list writes it, and the year.
	if lists, ok := monthLists(line); ok {
		label := lists.name + " " + strconv.Itoa(lists.month.Year())
		if m, l, ok := monthIn(label); ok {
			return m, label, l, true
		}
	}
	return time.Time{}, "", "", false
}

// calendarLists are the lists a calendar's head chooses its month and year from (jQuery UI's
// changeMonth and changeYear), as a line of a snapshot's text writes them: the month they
// show, the words the month's list writes it with ("Dec", "décembre"), and their refs.
type calendarLists struct {
	month             time.Time
	name              string
	monthRef, yearRef string
	names             []string // the options of the month's list, when the text writes them
}

// monthNamed reads s as the name of a month, in full or short, in English or another language.
func monthNamed(s string) (time.Month, bool) {
	en, _ := english(strings.TrimSpace(s))
	if m, ok := englishMonth(strings.TrimSuffix(en, ".")); ok {
		return m, true
	}
	// A name alone that is an English word too (Italian's "Gen", Portuguese's "Out").
	names, _ := namesOf()
	for _, n := range names {
		if t, err := time.Parse("Jan", n[bare(strings.TrimSpace(s))]); err == nil {
			return t.Month(), true
		}
	}
	return 0, false
}

// optionsAfter is what the text writes as the options of the element whose props begin s
// (`] value="Dec" options="Jan","Feb",…`), up to the next element.
func optionsAfter(s string) []string {
	if next := nextRef(s); next > 0 {
		s = s[:next] // (s begins at its own ref's "]")
	}
	i := strings.Index(s, " options=")
	if i < 0 {
		return nil
	}
	var out []string
	for rest := s[i+len(" options="):]; ; {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return out
		}
		o, _ := strconv.Unquote(q)
		out = append(out, o)
		rest, _ = strings.CutPrefix(rest[len(q):], ",")
	}
}

// nextRef is where s writes an element's ref (" [e12]", " [f1e3]"), -1 when it writes none: a
// "[" in a name or an option ("Large [XL]") is none.
func nextRef(s string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], " [")
		if i < 0 {
			return -1
		}
		at := off + i
		j, digits := at+2, 0
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
			if s[j] <= '9' {
				digits++
			}
			j++
		}
		if digits > 0 && (s[at+2] == 'e' || s[at+2] == 'f') && j < len(s) && s[j] == ']' {
			return at
		}
		off = at + 2
	}
}

// monthNames are the names to choose month by in a calendar's list of months: the option that
// names it, or without its options, its names in full and short ("December", "Dec"; in
// the language of a list that writes another), the list having the one of them it writes.
func (l calendarLists) monthNames(month time.Time) []string {
	for _, o := range l.names {
		if m, ok := monthNamed(o); ok && m == month.Month() {
			return []string{o}
		}
	}
	out := []string{month.Format("January"), month.Format("Jan")}
	_, tg := english(l.name)
	if tg == nil && !isMonth(strings.TrimSuffix(l.name, ".")) {
		for i := range tongues { // (a name alone that is no evidence: Norwegian's "des.")
			if tongues[i].writes(l.name) {
				tg = &tongues[i]
				break
			}
		}
	}
	if tg != nil {
		for i := range out {
			out[i] = inTongue(out[i], l.name, tg)
		}
	}
	return out
}

// monthLists reads line as the head of a calendar that chooses its month and its year from
// lists (`combobox "Select month" [e7] value="Dec" … combobox "Select year" [e8] value="2026"`).
func monthLists(line string) (calendarLists, bool) {
	var out calendarLists
	var month time.Month
	year := 0
	for rest := line; ; {
		i := strings.Index(rest, "] value=")
		if i < 0 {
			break
		}
		open := strings.LastIndexByte(rest[:i], '[')
		q, err := strconv.QuotedPrefix(rest[i+len("] value="):])
		if err != nil {
			break
		}
		v, _ := strconv.Unquote(q)
		if open >= 0 {
			ref := rest[open+1 : i]
			if n, err := strconv.Atoi(v); err == nil && len(v) == 4 && n >= 1900 && n <= 2100 {
				year, out.yearRef = n, ref
			} else if m, ok := monthNamed(v); ok {
				month, out.name, out.monthRef = m, strings.TrimSpace(v), ref
				out.names = optionsAfter(rest[i:])
			}
		}
		rest = rest[i+len("] value=")+len(q):]
	}
	if out.monthRef == "" || out.yearRef == "" {
		return calendarLists{}, false
	}
	out.month = time.Date(year, month, 1, 0, 0, 0, 0, time.UTC)
	return out, true
}

// refAt is where the text writes ref's " [ref]" (-1: nowhere), from one walk of the text.
func (m *Matcher) refAt(ref string) int {
	m.read()
	if m.refs == nil {
		m.refs = map[string]int{}
		textElements(m.text, 0, func(_, _, r string, at int) bool {
			if _, seen := m.refs[r]; !seen {
				m.refs[r] = at
			}
			return true
		})
	}
	if p, ok := m.refs[ref]; ok {
		return p
	}
	return -1
}

// lineAt is the number of the line of the text offset p is on (from 0).
func (m *Matcher) lineAt(p int) int {
	if m.lines == nil {
		m.lines = []int{0}
		for i := 0; i < len(m.text); i++ {
			if m.text[i] == '\n' {
				m.lines = append(m.lines, i+1)
			}
		}
	}
	return sort.SearchInts(m.lines, p+1) - 1
}

// hasYear says whether s has four digits in a row.
func hasYear(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			if n++; n == 4 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// textElements calls f with each element the snapshot's text writes from offset from on, in
// order: its role, its name (`link "2" [e5]`, or after its ref for a cell: `cell [e5]: 2`), its
// ref and where its ref is; f returns false to stop.
func textElements(text string, from int, f func(role, name, ref string, at int) bool) {
	for off := from; off < len(text); {
		i := strings.Index(text[off:], " [")
		if i < 0 {
			return
		}
		at := off + i
		off = at + 2
		k := strings.IndexByte(text[off:], ']')
		if k <= 0 || k > 12 || strings.ContainsAny(text[off:off+k], " \n\"") {
			continue
		}
		ref := text[off : off+k]
		// What the text writes before it on its line, from the last " | " (a row's cells).
		line := text[strings.LastIndexByte(text[:at], '\n')+1 : at]
		if j := strings.LastIndex(line, " | "); j >= 0 {
			line = line[j+3:]
		}
		line = strings.TrimSpace(line)
		role, name := line, ""
		if strings.HasSuffix(line, `"`) {
			if q := strings.LastIndex(line[:len(line)-1], ` "`); q >= 0 {
				if u, err := strconv.Unquote(line[q+1:]); err == nil {
					role, name = line[:q], u
				}
			}
		}
		if j := strings.LastIndexAny(role, " :"); j >= 0 {
			role = role[j+1:]
		}
		if name == "" {
			rest := text[off+k+1:]
			if after, found := strings.CutPrefix(rest, ": "); found {
				if e := strings.IndexAny(after, "\n|"); e >= 0 {
					after = after[:e]
				}
				name = strings.TrimSpace(after)
			}
		}
		if !f(role, name, ref, at) {
			return
		}
	}
}

// gridLine says whether a line of a snapshot's text is a part of a table or grid.
func gridLine(line string) bool {
	s := strings.TrimPrefix(strings.TrimSpace(line), "- ")
	for _, p := range []string{"table", "grid", "row", "cell", "gridcell", "columnheader", "rowgroup"} {
		if rest, ok := strings.CutPrefix(s, p); ok && (rest == "" || rest[0] == ' ' || rest[0] == ':') {
			return true
		}
	}
	return false
}

// calendarMonth is the month written above the element ref of snapshot when the element is a
// day of a calendar's grid: the nearest month above it, with the grid between.
// It returns where the line that writes the month begins, too.
func calendarMonth(snapshot, ref string) (label, layout string, month time.Time, from int, ok bool) {
	at := strings.Index(snapshot, " ["+ref+"]")
	if at < 0 {
		return "", "", time.Time{}, 0, false
	}
	lines := strings.Split(snapshot[:at], "\n")
	from = at
	grid := false
	week := 0 // lines between that name a day of the week (a calendar's head drawn without a grid: Su, Mo…)
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-400; i-- {
		from -= len(lines[i])
		if i < len(lines)-1 {
			from-- // its line's end
		}
		if m, l, lay, ok := monthOfLine(lines[i]); ok {
			if !grid {
				return "", "", time.Time{}, 0, false
			}
			return l, lay, m, from, true
		}
		// (its year in two figures, where the days' names or a grid stand between: "December 26")
		if grid {
			if m, l, lay, ok := monthOfLineAs(lines[i], true); ok {
				return l, lay, m, from, true
			}
		}
		if i < len(lines)-1 {
			if _, ok := heading(lines[i]); ok {
				return "", "", time.Time{}, 0, false
			}
		}
		week += weekdays(lines[i])
		grid = grid || gridLine(lines[i]) || week >= 5
	}
	return "", "", time.Time{}, 0, false
}

// weekdays is how many names of days of the week a line of a snapshot's text writes when it
// writes only those, as a calendar's head does (Su, Mo, lun.; "Su Mo Tu We Th Fr Sa" on a line
// of their own; not a month's name), or 0.
func weekdays(line string) int {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
	if s == "" || len(s) > 120 || strings.ContainsAny(s, "[:\"0123456789") {
		return 0
	}
	words := strings.Fields(s)
	for _, w := range words {
		if _, ok := monthNamed(w); ok || !calendarWords(w) {
			return 0
		}
	}
	return len(words)
}

// dayCell is an element of a calendar's grid named by a day's number, at pos in the text, in
// the month shown above it moved by off (-1: a day of the month before drawn in the grid's
// first row; +1: of the month after, in its last).
type dayCell struct {
	ref      string
	pos, day int
	off      int
}

// months places the days in order of the text under the months written above them: each
// month's from where it is written to where the next is.
func months(marks []int, days []dayCell) [][]dayCell {
	out := make([][]dayCell, len(marks))
	for _, d := range days {
		k := -1
		for i, p := range marks {
			if p < d.pos {
				k = i
			}
		}
		if k >= 0 {
			out[k] = append(out[k], d)
		}
	}
	for _, ds := range out {
		off := 0
		if len(ds) > 0 && ds[0].day != 1 {
			off = -1 // the grid begins with the end of the month before
		}
		for i := range ds {
			if i > 0 && ds[i].day < ds[i-1].day {
				off++
			}
			ds[i].off = off
		}
	}
	return out
}

// dateOfDay is the date ref names in snapshot as a day of a calendar by its number, with the
// words its calendar writes its month with: "", "" when it is no such day.
func dateOfDay(snapshot, ref, role string, n int, lang string) (date, label string) {
	label, _, month, start, ok := calendarMonth(snapshot, ref)
	if !ok {
		return "", ""
	}
	// Its place among the grid's days says whether it is of the month written above it, or
	// of one beside it drawn in the grid's first or last row.
	var days []dayCell
	textElements(snapshot, start, func(r, name, at string, pos int) bool {
		if d, isDay := dayNumber(name); isDay && r == role {
			days = append(days, dayCell{ref: at, pos: pos, day: d})
		}
		return at != ref
	})
	if len(days) == 0 || days[len(days)-1].ref != ref {
		return "", ""
	}
	ds := months([]int{-1}, days)[0]
	day := ds[len(ds)-1]
	t := time.Date(month.Year(), month.Month()+time.Month(day.off), n, 12, 0, 0, 0, time.UTC)
	if t.Day() != n {
		return "", ""
	}
	if l, _, ok := cjkLayout(label); ok {
		return t.Format(cjkDayLayout(l)), label // 2026年12月2日
	}
	if strings.Contains(label, "年") {
		return t.Format(cjkDayLayout(label)), label // (of "2026 年 十二月")
	}
	if _, tg := englishAs(label, lang); tg != nil {
		return inTongue(t.Format(cmp.Or(tg.layout, "2 January 2006")), label, tg), label
	}
	return t.Format(dayLayout), label
}

// A day's words (their French is in ui/_locales).
var (
	stepDay        = i18n.Sentence{Key: "wfStepDay", English: "$1 (the day of $2 on its calendar)"}
	sayNoMonth     = i18n.Sentence{Key: "wfStopNoMonth", English: "the page shows no calendar month written as “$1” was"}
	sayMonthNoTurn = i18n.Sentence{Key: "wfStopMonthNoTurn", English: "the calendar shows $1, not $2, and has nothing that turns its months"}
	sayNoDay       = i18n.Sentence{Key: "wfStopNoDay", English: "the calendar's $1 has no day $2 to choose"}
	sayNotADate    = i18n.Sentence{Key: "wfStopNotADate", English: "“$1” is not a date the calendar can show"}
)

// day finds t, a day recorded by its number under its calendar's month (Target.Month), for the
// run's date: that month's day of that number. A calendar that shows other months is a Miss
// that names the control to turn it with (its Next or its Prev), when there is one near.
func (m *Matcher) day(t Target, frame string) (string, error) {
	m.read()
	_, _, layout, ok := monthOfLine(t.Month)
	short := false
	if !ok {
		_, _, layout, ok = monthOfLineAs(t.Month, true)
		short = ok
	}
	if !ok {
		return "", &Miss{Target: t, Why: sayNoMonth.With(t.Month).English(), Says: sayNoMonth.With(t.Month)}
	}
	date, ok := dateOf(t.value, t.Lang)
	if !ok {
		return "", &Miss{Target: t, Why: sayNotADate.With(t.value).English(), Says: sayNotADate.With(t.value)}
	}
	want := time.Date(date.Year(), date.Month(), 1, 0, 0, 0, 0, time.UTC)
	// The months the page writes as the calendar did, where.
	var marks []int
	var shown []time.Time
	for start := 0; start < len(m.text); {
		end := strings.IndexByte(m.text[start:], '\n')
		if end < 0 {
			end = len(m.text) - start
		}
		if mo, _, l, ok := monthOfLineAs(m.text[start:start+end], short); ok && l == layout {
			marks, shown = append(marks, start), append(shown, mo)
		}
		start += end + 1
	}
	if len(marks) == 0 {
		return "", &Miss{Target: t, Why: sayNoMonth.With(t.Month).English(), Says: sayNoMonth.With(t.Month)}
	}
	var days []dayCell
	for _, c := range m.cands {
		if c.n.Role != t.Role || !(c.frame == frame || frame == "" && c.frame == m.page) {
			continue
		}
		n, ok := dayNumber(c.n.Said())
		if !ok {
			continue
		}
		if p := m.refAt(c.n.Ref); p >= 0 {
			days = append(days, dayCell{ref: c.n.Ref, pos: p, day: n})
		}
	}
	// (The candidates come in the page's order, as the text writes them.)
	// (A month may be written twice, over its grid and as the grid's name: MUI's, react-day-
	// picker's; its days are under the one nearer them.)
	showsIt := false
	for i, ds := range months(marks, days) {
		if !shown[i].Equal(want) {
			continue
		}
		showsIt = true
		for _, d := range ds {
			if d.day == date.Day() && d.off == 0 {
				return d.ref, nil
			}
		}
	}
	if showsIt {
		says := sayNoDay.With(written(want, layout, t.Month, t.Lang), date.Day())
		return "", &Miss{Target: t, Why: says.English(), Says: says}
	}
	// Another month: the calendar's own Next or Prev, near where it writes its month.
	next := want.After(shown[len(shown)-1])
	says := sayMonthNoTurn.With(written(shown[0], layout, t.Month, t.Lang), written(want, layout, t.Month, t.Lang))
	miss := &Miss{Target: t, Why: says.English(), Says: says}
	if !next && !want.Before(shown[0]) {
		return "", miss // between two months it shows: not a month to turn to
	}
	// A calendar that chooses its month and year from lists: the run's year, then its month.
	line := m.text[marks[0]:]
	if end := strings.IndexByte(line, '\n'); end >= 0 {
		line = line[:end]
	}
	if lists, ok := monthLists(line); ok {
		if want.Year() != lists.month.Year() {
			miss.turn = aside{tool: "select_option", ref: lists.yearRef, values: []string{strconv.Itoa(want.Year())}}
		} else {
			miss.turn = aside{tool: "select_option", ref: lists.monthRef, values: lists.monthNames(want)}
		}
		return "", miss
	}
	var at []int
	for _, mk := range marks {
		at = append(at, m.lineAt(mk))
	}
	miss.turn = click(m.turner(frame, next, at))
	return "", miss
}

// dayTurner is the control that turns a calendar whose days are named with their dates toward
// value's month, when the calendar shows days only before it or only after it ("" else).
func (m *Matcher) dayTurner(t Target, frame, value string) string {
	want, ok := dateOf(value, t.Lang)
	if !ok {
		return ""
	}
	m.read()
	var first, last time.Time
	at := -1
	for _, c := range m.cands {
		if c.n.Role != t.Role || !(c.frame == frame || frame == "" && c.frame == m.page) {
			continue
		}
		d, ok := dateOf(dateIn(c.n.Said()), "")
		p := m.refAt(c.n.Ref)
		if !ok || p < 0 {
			continue
		}
		if first.IsZero() || d.Before(first) {
			first = d
		}
		if d.After(last) {
			last = d
		}
		if at < 0 || p < at {
			at = p
		}
	}
	if at < 0 || !want.Before(first) && !want.After(last) {
		return ""
	}
	return m.turner(frame, want.After(last), []int{m.lineAt(at)})
}

// dateOf reads s as a date written with its year, one of the ways Dated writes (on a page in
// lang).
func dateOf(s, lang string) (d time.Time, ok bool) {
	readings(s, lang, func(t time.Time, l string) bool {
		d, ok = t, writesYear(l)
		return !ok
	})
	return d, ok
}

// turner is the control that turns a calendar to the next month (next) or the one before: one
// in the calendar's head, the lines about from (where it writes its month, or its first day)
// that hold nothing but what turns or chooses its months and the names of its days (a form's
// own Next a line away is not in it). "" when there is none.
func (m *Matcher) turner(frame string, next bool, from []int) string {
	const reach = 24            // lines from a month's
	turners := map[int]string{} // line: a control that turns the calendar the way wanted
	others := map[int]bool{}    // lines that hold any other element
	lines := strings.Split(m.text, "\n")
	near := func(l int) bool {
		for _, at := range from {
			if l > at-reach && l < at+reach {
				return true
			}
		}
		return false
	}
	for _, c := range m.cands {
		p := m.refAt(c.n.Ref)
		if p < 0 || !(c.frame == frame || frame == "" && c.frame == m.page) || !near(m.lineAt(p)) {
			continue
		}
		switch l, name := m.lineAt(p), c.n.Said(); {
		case c.n.Disabled != 1 && turns(name, c.n.Hint, next):
			if _, ok := turners[l]; !ok {
				turners[l] = c.n.Ref
			}
		case turns(name, c.n.Hint, !next) || c.n.Role == "combobox" || c.n.Role == "spinbutton" || c.n.Role == "listbox" ||
			calendarWords(name) || dateIn(name) != "":
		default:
			others[l] = true
		}
	}
	head := func(l int) bool {
		if others[l] {
			return false
		}
		if _, ok := turners[l]; ok {
			return true
		}
		return !gridLine(lines[l]) && (calendarWords(lines[l]) || strings.Contains(lines[l], " ["))
	}
	for _, at := range from {
		if ref, ok := turners[at]; ok {
			return ref
		}
		for _, step := range []int{-1, 1} {
			for l := at + step; l >= 0 && l < len(lines) && l != at+reach*step && head(l); l += step {
				if ref, ok := turners[l]; ok {
					return ref
				}
			}
		}
	}
	// Else one beside the grid in the box that holds them both, whatever else its head holds
	// (Ant Design's: "Last year", "Previous month", "Choose a month" showing "Dec", "Next
	// month", "Next year", each on a line, the grid under them): the lines written as deep as
	// the grid about it, up to its box's (a grid written at the top of the text has no box).
	for _, at := range from {
		top := at
		for top > 0 && gridLine(lines[top]) && gridLine(lines[top-1]) {
			top--
		}
		d := depth(lines[top])
		if !gridLine(lines[top]) || d == 0 {
			continue
		}
		for _, step := range []int{-1, 1} {
			for l := top + step; l >= 0 && l < len(lines) && l != top+reach*step && depth(lines[l]) >= d; l += step {
				if ref, ok := turners[l]; ok && depth(lines[l]) == d {
					return ref
				}
			}
		}
	}
	return ""
}

// calendarWords says whether s is only words a calendar's head writes: a month (December 2026),
// a month's name or a year alone, the name of a day of the week (Sun, Monday, Mo).
func calendarWords(s string) bool {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "- "))
	if _, _, ok := monthIn(s); ok {
		return true
	}
	for _, l := range []string{"January", "Jan", "2006", "Monday", "Mon"} {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
	}
	names, _ := namesOf()
	for _, n := range names {
		if _, ok := n[bare(s)]; ok {
			return true
		}
	}
	switch strings.ToLower(s) { // the days' shortest names (Mo, lu, X)
	case "su", "mo", "tu", "we", "th", "fr", "sa", "lu", "ma", "me", "je", "ve", "di", "so", "mi", "do", "gi", "wo", "vr", "za", "zo",
		"l", "m", "j", "v", "s", "d", "x":
		return true
	}
	return false
}

// written is month as its calendar writes months (layout, in recorded's language, or lang's
// where the page says so).
func written(month time.Time, layout, recorded, lang string) string {
	if _, tg := englishAs(recorded, lang); tg != nil {
		// May's short name is its full one in English ("2 May 2026" is read in full): one
		// recorded in its short name in tg ("2 mag 2026", "2 may 2026") is written short.
		if may := tg.months[time.May-1]; strings.Contains(layout, "January") && !strings.EqualFold(may[0], short(may[1])) &&
			slices.ContainsFunc(strings.Fields(recorded), func(w string) bool { return bare(strings.TrimRight(w, ",;")) == bare(short(may[1])) }) {
			layout = strings.Replace(layout, "January", "Jan", 1)
		}
		return inTongue(month.Format(layout), recorded, tg)
	}
	s := month.Format(layout)
	if slices.ContainsFunc(strings.Fields(recorded), isSmallMonth) {
		// ("2 december 2026": Dutch or Swedish with names English writes too; "2 dec 2026")
		words := strings.Fields(s)
		for i, w := range words {
			if core := strings.TrimRight(w, ",."); isMonth(core) {
				words[i] = strings.ToLower(core) + w[len(core):]
			}
		}
		s = strings.Join(words, " ")
	}
	if _, _, t, _, ok := cjkWeekday(recorded); ok && strings.Contains(layout, "Monday") {
		s = strings.Replace(s, month.Weekday().String(), cjkWeekdays[t].days[month.Weekday()], 1) // 水曜日
	}
	return s
}

// englishMonth is the month w names in English, in full or short ("Dec"), in any letters.
func englishMonth(w string) (time.Month, bool) {
	for _, l := range [...]string{"January", "Jan"} {
		if t, err := time.Parse(l, w); err == nil {
			return t.Month(), true
		}
	}
	return 0, false
}

// isSmallMonth says whether w is an English month's name written in small letters ("december",
// "dec.").
func isSmallMonth(w string) bool {
	core := strings.TrimRight(w, ",.")
	return core != "" && core == strings.ToLower(core) && isMonth(core)
}

// isMonth says whether w is an English month's name, in full or short.
func isMonth(w string) bool {
	_, ok := englishMonth(w)
	return ok
}

// The names of the controls that turn a calendar to the month before and the next, in the
// languages of tongues too (jQuery UI's own: "Zurück" and "Vor", "Ant" and "Sig", "Förra" and
// "Nästa"), and in Japanese, Chinese and Korean ("前" and "次", "上月" and "下月").
var (
	prevWords = [...]string{"prev", "previous", "previous month", "‹", "«", "<", "←", "go to previous month", "go to the previous month",
		"précédent", "mois précédent", "zurück", "vorheriger monat", "ant", "anterior", "mes anterior", "mês anterior",
		"prec", "precedente", "mese precedente", "vorig", "vorige", "vorige maand", "förra", "föregående", "föregående månad",
		"forrige", "forrige måned", "poprzedni", "poprzedni miesiąc", "dříve", "předchozí", "předchozí měsíc",
		"пред", "предыдущий месяц", "назад", "geri", "önceki ay", "önceki", "попередній", "попередній місяць", "edellinen",
		"edellinen kuukausi", "vissza", "előző hónap", "προηγούμενος", "προηγούμενος μήνας", "luna precedentă", "mundur", "bulan sebelumnya", "predchádzajúci", "prethodno", "prethodni mjesec",
		"前", "前月", "前の月", "上月", "上個月", "上一月", "이전달", "이전", "이전 달"}
	nextWords = [...]string{"next", "next month", "›", "»", ">", "→", "go to next month", "go to the next month",
		"suivant", "mois suivant", "vor", "weiter", "nächster monat", "sig", "siguiente", "mes siguiente",
		"seguinte", "próximo", "próximo mês", "succ", "successivo", "mese successivo", "volgende", "volgende maand",
		"nästa", "nästa månad", "næste", "næste måned", "neste", "neste måned", "następny", "następny miesiąc",
		"později", "další", "další měsíc", "след", "следующий месяц", "вперёд", "вперед", "ileri", "sonraki ay", "sonraki", "наступний", "наступний місяць",
		"найближчий", "seuraava", "seuraava kuukausi", "előre", "következő hónap", "επόμενος", "επόμενος μήνας", "luna următoare", "maju", "bulan berikutnya", "nasledujúci", "напред", "sljedeći", "sljedeći mjesec", "次", "次月", "翌月", "次の月", "下月", "下個月", "下一月", "다음달", "다음", "다음 달"}
)

// turns says whether a control named name (or, without one, that its page's code calls hint)
// turns a calendar to the next month (next) or to the one before.
func turns(name, hint string, next bool) bool {
	n := norm(name)
	words, part := prevWords[:], "prev"
	if next {
		words, part = nextWords[:], "next"
	}
	// (with its arrows too: "<Ant", "Sig>", "« Prev", "Nästa»")
	if slices.Contains(words, n) || slices.Contains(words, strings.TrimSpace(strings.Trim(n, "<>«»‹›←→"))) {
		return true
	}
	// (or, without a name, what its code calls it: "next", "button-previous-month"; a
	// calendar's arrow that points the way, "qs-right", "chevron-left")
	h, way := strings.ToLower(hint), "left"
	if next {
		way = "right"
	}
	return n == "" && (strings.Contains(h, part) || strings.Contains(h, way))
}
