package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// calendar is a page with a form and the calendar jQuery UI's datepicker opens under its field,
// as Skiff's snapshot reads it (its Prev and Next, the month in words, a table of links named
// by their numbers) showing month; with others, the grid's first and last rows show the days of
// the months beside it too, as Bootstrap's datepicker draws them; with a wizard, the page has a
// Next button of its own, far from the calendar.
func calendar(month time.Time, others, wizard bool) *tool.Snap {
	ref := 0
	next := func() string { ref++; return fmt.Sprintf("e%d", ref) }
	form := []tool.Item{{Node: &tool.Node{Role: "heading", Level: 1, Name: "Book a visit"}},
		{Node: &tool.Node{Role: "textbox", Name: "Visit date", Ref: next()}}}
	if wizard {
		form = append(form, tool.Item{Node: &tool.Node{Role: "button", Name: "Next", Ref: next()}})
		for i := range 12 {
			form = append(form, tool.Item{Text: fmt.Sprintf("Step %d of the form", i+1)})
		}
	}
	head := []tool.Item{{Node: &tool.Node{Role: "generic", Name: "Prev", Ref: next()}}, {Node: &tool.Node{Role: "generic", Name: "Next", Ref: next()}},
		{Node: &tool.Node{Group: 1, Kids: []tool.Item{{Text: month.Format("January")}, {Text: month.Format("2006")}}}}}
	var cols []tool.Item
	for _, d := range []string{"Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"} {
		cols = append(cols, tool.Item{Node: &tool.Node{Role: "columnheader", Name: d}})
	}
	table := &tool.Node{Role: "table", Ref: next(), Kids: []tool.Item{{Node: &tool.Node{Role: "row", Kids: cols}}}}
	first := time.Date(month.Year(), month.Month(), 1, 12, 0, 0, 0, time.UTC)
	day := first.AddDate(0, 0, -int(first.Weekday()))
	for week := 0; week < 6 && (week == 0 || day.Month() == month.Month()); week++ {
		row := &tool.Node{Role: "row"}
		for range 7 {
			cell := &tool.Node{Role: "cell"}
			if day.Month() == month.Month() || others {
				cell.Kids = []tool.Item{{Node: &tool.Node{Role: "link", Name: fmt.Sprint(day.Day()), Ref: next()}}}
			}
			row.Kids = append(row.Kids, tool.Item{Node: cell})
			day = day.AddDate(0, 0, 1)
		}
		table.Kids = append(table.Kids, tool.Item{Node: row})
	}
	return &tool.Snap{URL: "https://visit.test/book", Title: "Book a visit", Tree: append(form,
		tool.Item{Node: &tool.Node{Group: 1, Kids: append(head, tool.Item{Node: table})}})}
}

// refOf is the ref of the first element the snapshot's text writes as label (`link "2"`,
// which a cell writes `cell [e5]: 2`).
func refOf(t *testing.T, s *tool.Snap, label string) string {
	t.Helper()
	ref := refOf2(s, label)
	require.NotEqual(t, "-", ref, "no %s in\n%s", label, tool.Format(s, tool.SnapOptions{}))
	return ref
}

// clickOn records a run that clicked the element label names on s ("link \"2\"") as a
// workflow, its snapshot read before the click.
func clickOn(t *testing.T, name string, s *tool.Snap, label string) *Workflow {
	t.Helper()
	return clickOnIn(t, name, s, label, "")
}

// clickOnIn is clickOn on a page that says its words are in lang ("sv").
func clickOnIn(t *testing.T, name string, s *tool.Snap, label, lang string) *Workflow {
	t.Helper()
	ref := refOf(t, s, label)
	role, quoted, _ := strings.Cut(label, " ")
	text, _ := strconv.Unquote(quoted)
	if role == "clickable" {
		role = "generic" // (as the page says it; the snapshot writes it so)
	}
	w, err := Record(name, "", []Call{{Tool: "click", Args: json.RawMessage(`{"ref":"` + ref + `"}`), URL: s.URL, Seen: tool.Format(s, tool.SnapOptions{}),
		Elements: []tool.Element{{Ref: ref, Role: role, Name: text, Origin: site(s.URL), Lang: lang}}}})
	require.NoError(t, err)
	return w
}

// refOf2 is refOf, "-" when there is none.
func refOf2(s *tool.Snap, label string) string {
	role, quoted, _ := strings.Cut(label, " ")
	name, _ := strconv.Unquote(quoted)
	found := "-"
	textElements(tool.Format(s, tool.SnapOptions{}), 0, func(r, n, ref string, _ int) bool {
		if r == role && n == name {
			found = ref
			return false
		}
		return true
	})
	return found
}

// pages is a page whose calendar its Prev and Next turn, a month at a time, as the guarded path
// clicks them; it keeps the calls made.
type pages struct {
	month                time.Time
	others, wizard, bare bool   // bare: the calendar has no Prev or Next
	named                bool   // its days are named with their dates (namedCalendar)
	lang                 string // it writes its month and its Prev and Next in this language (jQuery UI's words), not English
	mui                  bool   // it is drawn as MUI's DateCalendar (muiCalendar)
	bootstrap            bool   // it is drawn as Bootstrap's datepicker (bootstrapCalendar)
	antd                 bool   // it is drawn as Ant Design's DatePicker (antdCalendar)
	gridless             int    // it is drawn without a grid, as air-datepicker draws it (1) or vanillajs-datepicker (2) (gridlessCalendar)
	calls, asides        []string
}

// muiCalendar is month as MUI's DateCalendar draws it: the month written over a button that
// switches to years, Previous month and Next month, then a grid named by the month again whose
// cells are buttons of the gridcell role named by their numbers.
func muiCalendar(month time.Time) *tool.Snap {
	ref := 0
	next := func() string { ref++; return fmt.Sprintf("e%d", ref) }
	label := month.Format("January 2006")
	tree := []tool.Item{{Node: &tool.Node{Role: "textbox", Name: "Party", Ref: next()}}, {Text: label},
		{Node: &tool.Node{Role: "button", Name: "calendar view is open, switch to year view", Ref: next()}},
		{Node: &tool.Node{Role: "button", Name: "Previous month", Ref: next()}}, {Node: &tool.Node{Role: "button", Name: "Next month", Ref: next()}}}
	grid := &tool.Node{Role: "grid", Name: label, Ref: next()}
	row := &tool.Node{Role: "row"}
	for d := 1; d <= 31; d++ {
		day := time.Date(month.Year(), month.Month(), d, 12, 0, 0, 0, time.UTC)
		if day.Month() != month.Month() {
			break
		}
		row.Kids = append(row.Kids, tool.Item{Node: &tool.Node{Role: "gridcell", Name: fmt.Sprint(d), Ref: next()}})
		if day.Weekday() == time.Saturday {
			grid.Kids = append(grid.Kids, tool.Item{Node: row})
			row = &tool.Node{Role: "row"}
		}
	}
	grid.Kids = append(grid.Kids, tool.Item{Node: row})
	return &tool.Snap{URL: "https://party.test/", Tree: append(tree, tool.Item{Node: grid})}
}

// gridlessCalendar is month as air-datepicker draws it: no table, nor grid: nameless boxes the
// pointer clicks, its arrows told by what its code calls them and its title between, the names
// of the days of the week on lines of their own (or, as vanillajs-datepicker lays them in a
// flex row, on one: oneLine), then its days, from the month before's last to the next's first,
// each a box that shows only its number.
func gridlessCalendar(month time.Time, oneLine bool) *tool.Snap {
	ref := 0
	next := func() string { ref++; return fmt.Sprintf("e%d", ref) }
	tree := []tool.Item{{Node: &tool.Node{Role: "textbox", Name: "Visit date", Ref: next()}},
		{Node: &tool.Node{Role: "navigation", Ref: next(), Kids: []tool.Item{{Node: &tool.Node{Role: "generic", Hint: "prev", Ref: next()}},
			{Node: &tool.Node{Role: "generic", Ref: next(), Kids: []tool.Item{{Text: month.Format("January,")}, {Text: month.Format("2006")}}}},
			{Node: &tool.Node{Role: "generic", Hint: "next", Ref: next()}}}}}}
	names := []string{"Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"}
	if oneLine {
		tree = append(tree, tool.Item{Text: strings.Join(names, " ")})
	} else {
		for _, n := range names {
			tree = append(tree, tool.Item{Node: &tool.Node{Group: 1, Kids: []tool.Item{{Text: n}}}})
		}
	}
	first := time.Date(month.Year(), month.Month(), 1, 12, 0, 0, 0, time.UTC)
	day := first.AddDate(0, 0, -int(first.Weekday()))
	for range 42 {
		tree = append(tree, tool.Item{Node: &tool.Node{Role: "generic", Ref: next(), Kids: []tool.Item{{Text: fmt.Sprint(day.Day())}}}})
		day = day.AddDate(0, 0, 1)
	}
	return &tool.Snap{URL: "https://visit.test/", Tree: tree}
}

// namedCalendar is a calendar of month whose days are buttons named with their dates, as
// react-datepicker names them, with buttons to turn its months.
func namedCalendar(month time.Time) *tool.Snap {
	s := &tool.Snap{URL: "https://book.test/", Tree: []tool.Item{{Node: &tool.Node{Role: "button", Name: "Previous month", Ref: "e1"}},
		{Node: &tool.Node{Role: "button", Name: "Next month", Ref: "e2"}}}}
	for d := 1; d <= 31; d++ {
		day := time.Date(month.Year(), month.Month(), d, 12, 0, 0, 0, time.UTC)
		if day.Month() == month.Month() {
			s.Tree = append(s.Tree, tool.Item{Node: &tool.Node{Role: "button", Name: "Choose " + day.Format("Monday, January 2, 2006") + " as your day", Ref: fmt.Sprintf("e%d", d+2)}})
		}
	}
	return s
}

// antdCalendar is month as Ant Design's DatePicker draws it: in a box under its field, Last
// year, Previous month, "Choose a month" and "Choose a year" (which show "Dec" and "2026"
// behind those names), Next month and Next year, each on a line, then a table whose cells
// are named by their titles, the days' dates ("2026-12-10"), from the month before's last
// Sunday on, six weeks.
func antdCalendar(month time.Time) *tool.Snap {
	ref := 0
	next := func() string { ref++; return fmt.Sprintf("e%d", ref) }
	button := func(name string) tool.Item {
		return tool.Item{Node: &tool.Node{Role: "button", Name: name, Ref: next()}}
	}
	field := tool.Item{Node: &tool.Node{Role: "textbox", Name: "Start date", Ref: next()}}
	box := &tool.Node{Role: "generic", Ref: next(), Kids: []tool.Item{button("Last year"), button("Previous month"),
		{Node: &tool.Node{Group: 1, Kids: []tool.Item{button("Choose a month"), button("Choose a year")}}}, button("Next month"), button("Next year")}}
	var cols []tool.Item
	for _, d := range []string{"Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"} {
		cols = append(cols, tool.Item{Text: d})
	}
	table := &tool.Node{Role: "table", Ref: next(), Kids: []tool.Item{{Node: &tool.Node{Role: "row", Kids: cols}}}}
	first := time.Date(month.Year(), month.Month(), 1, 12, 0, 0, 0, time.UTC)
	day := first.AddDate(0, 0, -int(first.Weekday()))
	for range 6 {
		row := &tool.Node{Role: "row"}
		for range 7 {
			row.Kids = append(row.Kids, tool.Item{Node: &tool.Node{Role: "cell", Name: day.Format("2006-01-02"), Ref: next()}})
			day = day.AddDate(0, 0, 1)
		}
		table.Kids = append(table.Kids, tool.Item{Node: row})
	}
	box.Kids = append(box.Kids, tool.Item{Node: table}, tool.Item{Node: &tool.Node{Role: "generic", Name: "Today", Ref: next()}})
	return &tool.Snap{URL: "https://plan.test/", Tree: []tool.Item{field, {Node: &tool.Node{Role: "button", Name: "Subscribe", Ref: next()}}, {Node: box}}}
}

// bootstrapCalendar is month as Bootstrap's datepicker draws it: one table whose head row
// holds «, the month and », whose days are cells the pointer clicks, named by their numbers,
// the grid's first and last rows drawing the days of the months beside it.
func bootstrapCalendar(month time.Time) *tool.Snap {
	ref := 0
	next := func() string { ref++; return fmt.Sprintf("e%d", ref) }
	head := &tool.Node{Role: "row", Kids: []tool.Item{{Node: &tool.Node{Role: "columnheader", Name: "«", Ref: next()}},
		{Node: &tool.Node{Role: "columnheader", Name: month.Format("January 2006"), Ref: next()}}, {Node: &tool.Node{Role: "columnheader", Name: "»", Ref: next()}}}}
	table := &tool.Node{Role: "table", Ref: next(), Kids: []tool.Item{{Node: head}}}
	first := time.Date(month.Year(), month.Month(), 1, 12, 0, 0, 0, time.UTC)
	day := first.AddDate(0, 0, -int(first.Weekday()))
	for range 6 {
		row := &tool.Node{Role: "row"}
		for range 7 {
			row.Kids = append(row.Kids, tool.Item{Node: &tool.Node{Role: "cell", Name: fmt.Sprint(day.Day()), Ref: next()}})
			day = day.AddDate(0, 0, 1)
		}
		table.Kids = append(table.Kids, tool.Item{Node: row})
	}
	return &tool.Snap{URL: "https://stay.test/", Tree: []tool.Item{{Node: &tool.Node{Role: "textbox", Name: "Arrival", Ref: next()}}, {Node: table}}}
}

func (p *pages) snap() *tool.Snap {
	if p.bootstrap {
		return bootstrapCalendar(p.month)
	}
	if p.named {
		return namedCalendar(p.month)
	}
	if p.antd {
		return antdCalendar(p.month)
	}
	if p.mui {
		return muiCalendar(p.month)
	}
	if p.gridless > 0 {
		return gridlessCalendar(p.month, p.gridless == 2)
	}
	s := calendar(p.month, p.others, p.wizard)
	if p.lang != "" {
		head := s.Tree[len(s.Tree)-1].Kids
		head[0].Name, head[1].Name = turnNames[p.lang][0], turnNames[p.lang][1]
		if p.lang == "ja" {
			head[2].Kids[0].Text, head[2].Kids[1].Text = p.month.Format("2006 年"), p.month.Format("1月") // (jQuery UI's: its year first)
		} else if p.lang == "hu" {
			head[2].Kids[0].Text, head[2].Kids[1].Text = p.month.Format("2006"), inTongue(p.month.Format("January"), "December", tongueOf("hu")) // 2026 December
		} else if p.lang == "zh" {
			head[2].Kids[0].Text, head[2].Kids[1].Text = p.month.Format("2006 年"), inTongue(p.month.Format("January"), "", tongueOf("zh")) // 2026 年 十二月, as its snapshot writes jQuery UI's
		} else {
			head[2].Kids[0].Text = inTongue(p.month.Format("January"), map[string]string{"it": "Dicembre", "pt": "Dezembro", "da": "December",
				"pl": "Grudzień", "ru": "Декабрь", "tr": "Aralık", "uk": "Грудень", "fi": "Joulukuu", "el": "Δεκέμβριος", "hr": "Prosinac"}[p.lang], tongueOf(p.lang))
		}
	}
	if p.bare {
		s.Tree[len(s.Tree)-1].Kids = s.Tree[len(s.Tree)-1].Kids[2:]
	}
	return s
}

// turnNames are the names jQuery UI gives its calendar's Prev and Next, in English and in each
// language of tongues.
var turnNames = map[string][2]string{"": {"Prev", "Next"}, "fr": {"Précédent", "Suivant"}, "de": {"Zurück", "Vor"}, "es": {"Ant", "Sig"},
	"it": {"Prec", "Succ"}, "pt": {"Anterior", "Seguinte"}, "nl": {"Vorig", "Volgende"}, "sv": {"Förra", "Nästa"}, "da": {"Forrige", "Næste"},
	"nb": {"Forrige", "Neste"}, "pl": {"Poprzedni", "Następny"}, "cs": {"Dříve", "Později"}, "ja": {"前", "次"}, "zh": {"上月", "下月"}, "ru": {"Пред", "След"}, "tr": {"geri", "ileri"},
	"uk": {"Попередній", "найближчий"}, "fi": {"Edellinen", "Seuraava"}, "hu": {"Vissza", "Előre"}, "el": {"Προηγούμενος", "Επόμενος"}, "hr": {"Prethodno", "Sljedeći"}}

func (p *pages) runner(w *Workflow, values map[string]string) *Runner {
	return &Runner{Workflow: w, Values: values, Wait: 1,
		Read: func(context.Context, int) (*tool.Snap, error) { return p.snap(), nil },
		Call: func(_ context.Context, _ int, args, _ json.RawMessage) Outcome {
			p.calls = append(p.calls, string(args))
			return Outcome{OK: true}
		},
		Aside: func(_ context.Context, _ int, tool string, args json.RawMessage) Outcome {
			var a struct{ Ref string }
			_ = json.Unmarshal(args, &a)
			s := p.snap()
			gridlessNext := "-"
			if p.gridless > 0 {
				gridlessNext = "e5" // (its arrow told by its code's "next")
			}
			switch a.Ref {
			case refOf2(s, `clickable "`+turnNames[p.lang][1]+`"`), refOf2(s, `button "Next month"`), refOf2(s, `columnheader "»"`), gridlessNext:
				p.month = p.month.AddDate(0, 1, 0)
			case refOf2(s, `clickable "`+turnNames[p.lang][0]+`"`), refOf2(s, `button "Previous month"`):
				p.month = p.month.AddDate(0, -1, 0)
			default:
				return Outcome{Kind: StopFailed, Text: "clicked " + a.Ref}
			}
			p.asides = append(p.asides, tool+" "+string(args))
			return Outcome{OK: true}
		}}
}

// A click on a day a calendar names only by its number ("2", under "December 2026") keeps the
// date as a value; a replay for another date clicks that date's day, turning the calendar with
// its own Next or Prev to the month it falls in (to January for the first of it, though the
// grid draws it in December's last row); a calendar with nothing to turn it, or a page whose
// only Next is far from the calendar (a form's own), stops the replay, never clicking the
// recorded day or that Next.
func TestADayNamedByItsNumberFollowsTheRunsDate(t *testing.T) {
	dec := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s := calendar(dec, false, false)
	seen := tool.Format(s, tool.SnapOptions{})
	require.Contains(t, seen, "December 2026\n")
	w := clickOn(t, "Visit", s, `link "2"`)
	w.CreatedAt = dec.UnixMilli()
	require.NoError(t, w.Check())
	assert.Equal(t, []Param{{Name: "date", Label: "date", Default: "December 2, 2026"}}, w.Params)
	assert.Equal(t, "December 2026", w.Steps[1].Targets[0].Month)
	assert.Equal(t, "click link “2” (the day of {{date}} on its calendar)", w.Steps[1].What)

	replay := func(p *pages, value string, now time.Time) (string, string, *Stop) {
		stop := p.runner(w, dated(t, w, map[string]string{"date": value}, now)).Run(context.Background(), 0)
		return strings.Join(p.calls, " "), strings.Join(p.asides, " "), stop
	}
	// The recorded day, and tomorrow's in the same month.
	calls, asides, stop := replay(&pages{month: dec}, "December 2, 2026", dec)
	require.Nil(t, stop)
	assert.Equal(t, `{"url":"https://visit.test/book"} {"ref":"`+refOf(t, s, `link "2"`)+`"}`, calls)
	assert.Empty(t, asides)
	p := &pages{month: dec}
	_, _, stop = replay(p, "{{today+1}}", time.Date(2026, 12, 16, 7, 0, 0, 0, time.UTC))
	require.Nil(t, stop)
	assert.Equal(t, `{"ref":"`+refOf(t, calendar(dec, false, false), `link "17"`)+`"}`, p.calls[1])
	// Tomorrow on the last day of the year: January's first, a turn of the month away.
	p = &pages{month: dec}
	_, asides, stop = replay(p, "{{today+1}}", time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC))
	require.Nil(t, stop)
	jan := time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC)
	assert.Equal(t, `click {"ref":"`+refOf(t, s, `clickable "Next"`)+`"}`, asides)
	assert.Equal(t, jan, p.month)
	assert.Equal(t, `{"ref":"`+refOf(t, calendar(jan, false, false), `link "1"`)+`"}`, p.calls[1])
	// Two months on, and one back.
	p = &pages{month: dec}
	_, _, stop = replay(p, "February 14, 2027", dec)
	require.Nil(t, stop)
	assert.Len(t, p.asides, 2)
	assert.Equal(t, `{"ref":"`+refOf(t, calendar(p.month, false, false), `link "14"`)+`"}`, p.calls[1])
	p = &pages{month: dec}
	_, _, stop = replay(p, "November 30, 2026", dec)
	require.Nil(t, stop)
	assert.Equal(t, []string{`click {"ref":"` + refOf(t, s, `clickable "Prev"`) + `"}`}, p.asides)
	assert.Equal(t, time.November, p.month.Month())

	// The grid draws the days of the months beside it: January's first in December's last
	// row is not December's, and the replay turns to January for it.
	p = &pages{month: dec, others: true}
	_, _, stop = replay(p, "January 1, 2027", dec)
	require.Nil(t, stop)
	assert.Equal(t, time.January, p.month.Month())
	assert.Equal(t, `{"ref":"`+refOf(t, calendar(jan, true, false), `link "1"`)+`"}`, p.calls[1], "January's first, not the 1 of the grid's last row")

	// With no Prev or Next the replay stops; a form's own Next, far from the calendar, is not
	// the calendar's.
	for _, wizard := range []bool{false, true} {
		p = &pages{month: dec, bare: true, wizard: wizard}
		_, asides, stop = replay(p, "January 5, 2027", dec)
		require.NotNil(t, stop)
		assert.Equal(t, "the calendar shows December 2026, not January 2027, and has nothing that turns its months", stop.Reason)
		assert.Empty(t, asides)
		assert.Len(t, p.calls, 1, "only the page was opened")
	}
	// A value that is no date stops it.
	b := &fakeBrowser{snap: s}
	stop = b.runner(w, map[string]string{"date": "soon"}).Run(context.Background(), 0)
	require.NotNil(t, stop)
	assert.Equal(t, "“soon” is not a date the calendar can show", stop.Reason)

	// A day drawn in a grid's last row from the month after is of that month; a link named
	// "2" that is in no calendar (a list's second page) is no date.
	o := calendar(dec, true, false)
	oseen := tool.Format(o, tool.SnapOptions{})
	lastOne := strings.LastIndex(oseen, `link "1" [`)
	ref := oseen[lastOne+len(`link "1" [`):]
	ref = ref[:strings.IndexByte(ref, ']')]
	d, _ := dateOfDay(oseen, ref, "link", 1, "")
	assert.Equal(t, "January 1, 2027", d)
	firstThirty := strings.Index(oseen, `link "29" [`)
	ref = oseen[firstThirty+len(`link "29" [`):]
	ref = ref[:strings.IndexByte(ref, ']')]
	d, _ = dateOfDay(oseen, ref, "link", 29, "")
	assert.Equal(t, "November 29, 2026", d)
	pager := &tool.Snap{URL: "https://blog.test/", Tree: []tool.Item{{Node: &tool.Node{Role: "heading", Level: 2, Name: "March 2024"}},
		{Text: "Posts of the month"}, {Node: &tool.Node{Role: "link", Name: "1", Ref: "e1"}}, {Node: &tool.Node{Role: "link", Name: "2", Ref: "e2"}}}}
	d, _ = dateOfDay(tool.Format(pager, tool.SnapOptions{}), "e2", "link", 2, "")
	assert.Empty(t, d, "pages of a list under a month's heading are no days")
}

// Dates in French words are counted from the day of the run and written in French as the
// recorded value was (in full, short, with "1er", with a capital); a French calendar's day named
// by its number under "décembre 2026" is a date, and its replay turns the calendar with its
// "Suivant". English short names that French shares ("Dec", "Nov") stay English.
func TestADateInFrenchWordsIsCountedAndWrittenInFrench(t *testing.T) {
	w := &Workflow{Params: []Param{{Name: "full", Default: "mercredi 2 décembre 2026"}, {Name: "short", Default: "2 déc. 2026"},
		{Name: "first", Default: "1er décembre 2026"}, {Name: "capital", Default: "Mercredi 2 décembre 2026"}, {Name: "en", Default: "Wed, 2 Dec 2026"}},
		CreatedAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).UnixMilli()}
	all := func(v string) map[string]string {
		return map[string]string{"full": v, "short": v, "first": v, "capital": v, "en": v}
	}
	assert.Equal(t, map[string]string{"full": "jeudi 17 décembre 2026", "short": "17 déc. 2026", "first": "17 décembre 2026", "capital": "Jeudi 17 décembre 2026", "en": "Thu, 17 Dec 2026"},
		dated(t, w, all("{{today+1}}"), time.Date(2026, 12, 16, 7, 0, 0, 0, time.UTC)))
	assert.Equal(t, map[string]string{"full": "vendredi 1 janvier 2027", "short": "1 janv. 2027", "first": "1er janvier 2027", "capital": "Vendredi 1 janvier 2027", "en": "Fri, 1 Jan 2027"},
		dated(t, w, all("{{today+1}}"), time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC)))
	assert.Equal(t, "mercredi 2 décembre 2026", dateIn("Choisissez mercredi 2 décembre 2026 comme date"))
	assert.Equal(t, "1er août 2027", dateIn("le 1er août 2027"))
	assert.Empty(t, dateIn("Mars attacks"))

	dec := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	fr := &pages{month: dec, lang: "fr"}
	s := fr.snap()
	seen := tool.Format(s, tool.SnapOptions{})
	require.Contains(t, seen, "décembre 2026\n")
	rec := clickOn(t, "Visite", s, `link "2"`)
	rec.CreatedAt = dec.UnixMilli()
	assert.Equal(t, []Param{{Name: "date", Label: "date", Default: "2 décembre 2026"}}, rec.Params)
	values := dated(t, rec, map[string]string{"date": "{{today+1}}"}, time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC))
	assert.Equal(t, "1 janvier 2027", values["date"])
	stop := fr.runner(rec, values).Run(context.Background(), 0)
	require.Nil(t, stop)
	assert.Equal(t, []string{`click {"ref":"` + refOf(t, s, `clickable "Suivant"`) + `"}`}, fr.asides)
	assert.Equal(t, time.January, fr.month.Month())
	fr = &pages{month: dec, lang: "fr", bare: true}
	stop = fr.runner(rec, values).Run(context.Background(), 0)
	require.NotNil(t, stop)
	assert.Equal(t, "the calendar shows décembre 2026, not janvier 2027, and has nothing that turns its months", stop.Reason)
}

// Dates in German, Spanish, Italian, Portuguese and Dutch words are read and written as French ones
// are, each in its own language and in the way it was recorded (a German day's dot, Spanish and
// Portuguese "de", Italian calendars' capitals, flatpickr's "Dezember 2, 2026"); their calendars,
// as jQuery UI writes them ("Dezember 2026" between "Zurück" and "Vor", "diciembre 2026"
// between "Ant" and "Sig"), are turned to the run's month.
func TestADateInOtherLanguagesIsCountedAndWrittenSo(t *testing.T) {
	recorded := map[string]string{
		"de": "Mittwoch, 2. Dezember 2026", "de_short": "2. Dez. 2026", "de_aria": "Dezember 2, 2026",
		"es": "miércoles, 2 de diciembre de 2026", "es_short": "2 dic 2026",
		"it": "mercoledì 2 dicembre 2026", "it_cap": "2 Dicembre 2026",
		"pt": "quarta-feira, 2 de dezembro de 2026", "pt_short": "2 dez 2026",
		"nl": "woensdag 2 december 2026", "nl_short": "2 mrt 2027",
		"sv": "onsdag 2 december 2026", "sv_short": "2 dec. 2026",
		"da": "onsdag den 2. december 2026", "da_short": "2. dec. 2026",
		"nb": "onsdag 2. desember 2026", "nb_short": "2. des. 2026",
		"pl": "środa, 2 grudnia 2026", "pl_short": "2 gru 2026", "pl_cal": "2 Grudzień 2026",
		"cs": "středa 2. prosince 2026", "cs_num": "2. 12. 2026",
		"ja": "2026年12月2日", "ja_zero": "2026年12月02日", "ja_cal": "2026 年 12月 2日", "ko": "2026년 12월 2일",
		"ja_week": "2026年12月2日水曜日", "ja_short": "2026年12月2日(水)", "ja_noyear": "12月2日（水）", "zh_week": "2026年12月2日 星期三",
		"zh_short": "12月2日 周三", "ko_week": "2026년 12월 2일 수요일", "ko_short": "2026년 12월 2일 (수)",
		"ja_fp": "12月 2, 2026", "ko_fp": "12월 2, 2026", "zh_fp": "十二月 2, 2026", // (flatpickr's)
		"ko_pm": "2026년 12월 2일 오후 3:00", "ja_am": "2026年12月2日午前9:30",
		"ja_num": "2026/12/02", "zh_num": "2026/12/2", "ko_num": "2026. 12. 2.", "hu_num": "2026. 12. 02.", "nl_num": "02-12-2026", "cs_zero": "02. 12. 2026",
		"ru": "среда, 2 декабря 2026 г.", "ru_short": "2 дек. 2026 г.", "ru_fp": "Декабрь 2, 2026", "ru_cal": "2 Декабрь 2026",
		"tr": "2 Aralık 2026 Çarşamba", "tr_short": "2 Ara 2026", "tr_num": "2.12.2026",
		"uk": "середа, 2 грудня 2026 р.", "uk_short": "2 груд. 2026 р.", "fi": "keskiviikko 2. joulukuuta 2026", "fi_num": "2.12.2026",
		"hu": "2026. december 2., szerda", "hu_short": "2026. dec. 2.", "el": "Τετάρτη 2 Δεκεμβρίου 2026", "el_short": "2 Δεκ 2026",
		"ro": "miercuri, 2 decembrie 2026", "id": "Rabu, 02 Desember 2026", "sk": "streda 2. decembra 2026", "bg": "сряда, 2 декември 2026 г.",
		"hr": "srijeda, 2. prosinca 2026.", "hr_short": "2. pro 2026.", "hr_num": "02.12.2026.", "hr_space": "02. 12. 2026.", "hr_nov": "2. studenog 2026.",
		"us_dot": "Dec. 2, 2026",
	}
	w := &Workflow{CreatedAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).UnixMilli()}
	all := map[string]string{}
	for name, v := range recorded {
		w.Params = append(w.Params, Param{Name: name, Default: v})
		all[name] = "{{today+1}}"
	}
	assert.Equal(t, map[string]string{
		"de": "Donnerstag, 17. Dezember 2026", "de_short": "17. Dez. 2026", "de_aria": "Dezember 17, 2026",
		"es": "jueves, 17 de diciembre de 2026", "es_short": "17 dic 2026",
		"it": "giovedì 17 dicembre 2026", "it_cap": "17 Dicembre 2026",
		"pt": "quinta-feira, 17 de dezembro de 2026", "pt_short": "17 dez 2026",
		"nl": "donderdag 17 december 2026", "nl_short": "17 dec 2026",
		"sv": "torsdag 17 december 2026", "sv_short": "17 dec. 2026",
		"da": "torsdag den 17. december 2026", "da_short": "17. dec. 2026",
		"nb": "torsdag 17. desember 2026", "nb_short": "17. des. 2026",
		"pl": "czwartek, 17 grudnia 2026", "pl_short": "17 gru 2026", "pl_cal": "17 Grudzień 2026",
		"cs": "čtvrtek 17. prosince 2026", "cs_num": "17. 12. 2026",
		"ja": "2026年12月17日", "ja_zero": "2026年12月17日", "ja_cal": "2026 年 12月 17日", "ko": "2026년 12월 17일",
		"ja_week": "2026年12月17日木曜日", "ja_short": "2026年12月17日(木)", "ja_noyear": "12月17日（木）", "zh_week": "2026年12月17日 星期四",
		"zh_short": "12月17日 周四", "ko_week": "2026년 12월 17일 목요일", "ko_short": "2026년 12월 17일 (목)",
		"ja_fp": "12月 17, 2026", "ko_fp": "12월 17, 2026", "zh_fp": "十二月 17, 2026",
		"ko_pm": "2026년 12월 17일 오후 3:00", "ja_am": "2026年12月17日午前9:30",
		"ja_num": "2026/12/17", "zh_num": "2026/12/17", "ko_num": "2026. 12. 17.", "hu_num": "2026. 12. 17.", "nl_num": "17-12-2026", "cs_zero": "17. 12. 2026",
		"ru": "четверг, 17 декабря 2026 г.", "ru_short": "17 дек. 2026 г.", "ru_fp": "Декабрь 17, 2026", "ru_cal": "17 Декабрь 2026",
		"tr": "17 Aralık 2026 Perşembe", "tr_short": "17 Ara 2026", "tr_num": "17.12.2026",
		"uk": "четвер, 17 грудня 2026 р.", "uk_short": "17 груд. 2026 р.", "fi": "torstai 17. joulukuuta 2026", "fi_num": "17.12.2026",
		"hu": "2026. december 17., csütörtök", "hu_short": "2026. dec. 17.", "el": "Πέμπτη 17 Δεκεμβρίου 2026", "el_short": "17 Δεκ 2026",
		"ro": "joi, 17 decembrie 2026", "id": "Kamis, 17 Desember 2026", "sk": "štvrtok 17. decembra 2026", "bg": "четвъртък, 17 декември 2026 г.",
		"hr": "četvrtak, 17. prosinca 2026.", "hr_short": "17. pro 2026.", "hr_num": "17.12.2026.", "hr_space": "17. 12. 2026.", "hr_nov": "17. prosinca 2026.",
		"us_dot": "Dec. 17, 2026",
	}, dated(t, w, all, time.Date(2026, 12, 16, 7, 0, 0, 0, time.UTC)))
	assert.Equal(t, map[string]string{
		"de": "Freitag, 1. Januar 2027", "de_short": "1. Jan. 2027", "de_aria": "Januar 1, 2027",
		"es": "viernes, 1 de enero de 2027", "es_short": "1 ene 2027",
		"it": "venerdì 1 gennaio 2027", "it_cap": "1 Gennaio 2027",
		"pt": "sexta-feira, 1 de janeiro de 2027", "pt_short": "1 jan 2027",
		"nl": "vrijdag 1 januari 2027", "nl_short": "1 jan 2027",
		"sv": "fredag 1 januari 2027", "sv_short": "1 jan. 2027",
		"da": "fredag den 1. januar 2027", "da_short": "1. jan. 2027",
		"nb": "fredag 1. januar 2027", "nb_short": "1. jan. 2027",
		"pl": "piątek, 1 stycznia 2027", "pl_short": "1 sty 2027", "pl_cal": "1 Styczeń 2027",
		"cs": "pátek 1. ledna 2027", "cs_num": "1. 1. 2027",
		"ja": "2027年1月1日", "ja_zero": "2027年01月01日", "ja_cal": "2027 年 1月 1日", "ko": "2027년 1월 1일",
		"ja_week": "2027年1月1日金曜日", "ja_short": "2027年1月1日(金)", "ja_noyear": "1月1日（金）", "zh_week": "2027年1月1日 星期五",
		"zh_short": "1月1日 周五", "ko_week": "2027년 1월 1일 금요일", "ko_short": "2027년 1월 1일 (금)",
		"ja_fp": "1月 1, 2027", "ko_fp": "1월 1, 2027", "zh_fp": "一月 1, 2027",
		"ko_pm": "2027년 1월 1일 오후 3:00", "ja_am": "2027年1月1日午前9:30",
		"ja_num": "2027/01/01", "zh_num": "2027/1/1", "ko_num": "2027. 1. 1.", "hu_num": "2027. 01. 01.", "nl_num": "01-01-2027", "cs_zero": "01. 01. 2027",
		"ru": "пятница, 1 января 2027 г.", "ru_short": "1 янв. 2027 г.", "ru_fp": "Январь 1, 2027", "ru_cal": "1 Январь 2027",
		"tr": "1 Ocak 2027 Cuma", "tr_short": "1 Oca 2027", "tr_num": "1.01.2027",
		"uk": "пʼятниця, 1 січня 2027 р.", "uk_short": "1 січ. 2027 р.", "fi": "perjantai 1. tammikuuta 2027", "fi_num": "1.01.2027",
		"hu": "2027. január 1., péntek", "hu_short": "2027. jan. 1.", "el": "Παρασκευή 1 Ιανουαρίου 2027", "el_short": "1 Ιαν 2027",
		"ro": "vineri, 1 ianuarie 2027", "id": "Jumat, 01 Januari 2027", "sk": "piatok 1. januára 2027", "bg": "петък, 1 януари 2027 г.",
		"hr": "petak, 1. siječnja 2027.", "hr_short": "1. sij 2027.", "hr_num": "01.01.2027.", "hr_space": "01. 01. 2027.", "hr_nov": "1. siječnja 2027.",
		"us_dot": "Jan. 1, 2027",
	}, dated(t, w, all, time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC)))
	n, ok := daysAfter("wtorek, 1 grudnia 2026", "5 gru 2026", "")
	assert.Equal(t, []any{4, true}, []any{n, ok}, "a Polish day, with its month's name after a day and short")
	assert.Equal(t, "miércoles, 2 de diciembre de 2026", dateIn("Elegir miércoles, 2 de diciembre de 2026 como fecha"))
	assert.Equal(t, "Mittwoch, 2. Dezember 2026", dateIn("Mittwoch, 2. Dezember 2026 auswählen"))
	// Marks a word is read without (bare) but for the words English and Turkish share ("paz"):
	// Polish's "paź" is October's, Czech's "čvc" July's.
	for v, want := range map[string]string{"2 paź 2026": "2 Oct 2026", "2. čvc 2026": "2 Jul 2026", "2 PAŹ 2026": "2 Oct 2026"} {
		en, tg := english(v)
		assert.Equal(t, want, en, v)
		assert.NotNil(t, tg, v)
	}
	n, ok = daysAfter("2. Dezember 2026", "05.12.2026", "")
	assert.Equal(t, []any{3, true}, []any{n, ok}, "a German day in words and in figures")
	for _, no := range []string{"Sold out 2026", "Set 2026", "2 years ago 2026", "Dom 2026", "Sie haben 2 Karten für 2026",
		"Liste des 2 prix 2026", "Man 2 2026", "Tor 2 2026", "Pro 2 2026", "2026年", "水曜日 2026年12月2日", "2026年12月2日 10:00 3番",
		"2026年12月2日月", "2026年12月(水)", "12月", "2026年12月2日(水", "Elo 2026", "Sal 2 2026"} {
		assert.False(t, isDate(no), no)
		_, tg := english(no)
		assert.Nil(t, tg, "%s: no other language's date words", no)
	}

	dec := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, lang := range []string{"de", "es", "it", "pt", "nl", "sv", "da", "nb", "pl", "cs", "ja", "zh", "ru", "tr", "uk", "fi", "hu", "el", "hr"} {
		// A page that says its language (lang="sv") and one that does not.
		for _, says := range []string{lang, ""} {
			p := &pages{month: dec, lang: lang}
			s := p.snap()
			rec := clickOnIn(t, "Visit", s, `link "2"`, says)
			rec.CreatedAt = dec.UnixMilli()
			require.Len(t, rec.Params, 1, lang)
			values := dated(t, rec, map[string]string{"date": "{{today+1}}"}, time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC))
			want := map[string]string{"de": "1. Januar 2027", "es": "1 de enero de 2027", "it": "1 Gennaio 2027", "pt": "1 de Janeiro de 2027",
				"nl": "1 januari 2027", "sv": "1 januari 2027", "da": "1. Januar 2027", "nb": "1. januar 2027", "pl": "1 stycznia 2027", "cs": "1. ledna 2027", "ja": "2027年1月1日", "zh": "2027年1月1日",
				"ru": "1 января 2027 г.", "tr": "1 Ocak 2027", "uk": "1 січня 2027 р.", "fi": "1. tammikuuta 2027", "hu": "2027. Január 1.", "el": "1 Ιανουαρίου 2027", "hr": "1. siječnja 2027.",
			}[lang]
			if says == "" && (lang == "nl" || lang == "sv" || lang == "da" || lang == "hu") {
				want = "January 1, 2027" // (their "december 2026" is English words too, and the page does not say)
			}
			assert.Equal(t, want, values["date"], "%s, the page saying %q", lang, says)
			require.Nil(t, p.runner(rec, values).Run(context.Background(), 0), lang)
			assert.Equal(t, time.January, p.month.Month(), lang)
			require.Len(t, p.asides, 1, lang)
		}
	}
}

// MUI's calendar writes its month twice (over the grid, and as the grid's name) and puts a
// button between the month and its Previous and Next: its days are found and turned to all the
// same.
func TestADayOfAnMUICalendarFollowsTheRunsDate(t *testing.T) {
	dec := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s := muiCalendar(dec)
	seen := tool.Format(s, tool.SnapOptions{})
	w := clickOn(t, "Party", s, `gridcell "2"`)
	assert.Equal(t, []Param{{Name: "date", Label: "date", Default: "December 2, 2026"}}, w.Params, seen)
	p := &pages{month: dec, mui: true}
	require.Nil(t, p.runner(w, map[string]string{"date": "December 9, 2026"}).Run(context.Background(), 0))
	assert.Equal(t, `{"ref":"`+refOf(t, s, `gridcell "9"`)+`"}`, p.calls[1])
	assert.Empty(t, p.asides)
	p = &pages{month: dec, mui: true}
	require.Nil(t, p.runner(w, map[string]string{"date": "January 5, 2027"}).Run(context.Background(), 0))
	assert.Equal(t, []string{`click {"ref":"` + refOf(t, s, `button "Next month"`) + `"}`}, p.asides)
	assert.Equal(t, `{"ref":"`+refOf(t, muiCalendar(p.month), `gridcell "5"`)+`"}`, p.calls[1])
}

// Bootstrap's datepicker writes its month between « and » in its table's head row, and draws
// the last days of the month before in its first row: a click on one is that month's day, and
// a replay turns with » to another month's day, not the one of its number drawn beside it.
func TestADayOfABootstrapCalendarFollowsTheRunsDate(t *testing.T) {
	dec := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s := bootstrapCalendar(dec)
	seen := tool.Format(s, tool.SnapOptions{})
	w := clickOn(t, "Stay", s, `cell "29"`) // the first row's: November's
	assert.Equal(t, []Param{{Name: "date", Label: "date", Default: "November 29, 2026"}}, w.Params, seen)
	p := &pages{month: dec, bootstrap: true}
	require.Nil(t, p.runner(w, map[string]string{"date": "January 3, 2027"}).Run(context.Background(), 0))
	assert.Equal(t, []string{`click {"ref":"` + refOf(t, s, `columnheader "»"`) + `"}`}, p.asides)
	jseen := tool.Format(bootstrapCalendar(p.month), tool.SnapOptions{})
	var got struct{ Ref string }
	require.NoError(t, json.Unmarshal([]byte(p.calls[1]), &got))
	d, _ := dateOfDay(jseen, got.Ref, "cell", 3, "")
	assert.Equal(t, "January 3, 2027", d, "the 3 it clicked is January's")
}

// Ant Design's calendar names its days by their titles, their dates: a day chosen there is the
// run's, a month on, its Next month found beside the grid in the box that holds them, though
// the lines between hold its year's buttons and those that show its month behind other names.
func TestADayOfAnAntDesignCalendarFollowsTheRunsDate(t *testing.T) {
	dec := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s := antdCalendar(dec)
	seen := tool.Format(s, tool.SnapOptions{})
	w := clickOn(t, "Subscribe", s, `cell "2026-12-10"`)
	require.Equal(t, []Param{{Name: "date", Label: "date", Default: "2026-12-10"}}, w.Params, seen)
	p := &pages{month: dec, antd: true}
	require.Nil(t, p.runner(w, map[string]string{"date": "2027-01-15"}).Run(context.Background(), 0))
	assert.Equal(t, []string{`click {"ref":"` + refOf(t, s, `button "Next month"`) + `"}`}, p.asides, seen)
	assert.Equal(t, `{"ref":"`+refOf(t, antdCalendar(p.month), `cell "2027-01-15"`)+`"}`, p.calls[1])
	p = &pages{month: dec, antd: true}
	require.Nil(t, p.runner(w, map[string]string{"date": "2026-11-03"}).Run(context.Background(), 0))
	assert.Equal(t, []string{`click {"ref":"` + refOf(t, s, `button "Previous month"`) + `"}`}, p.asides)
	// A grid written at the top of the text is in no box: nothing beside it is taken to turn it.
	bare := antdCalendar(dec)
	bare.Tree = append(bare.Tree[:2], bare.Tree[2].Kids...)
	p = &pages{month: dec}
	r := p.runner(w, map[string]string{"date": "2027-01-15"})
	r.Read = func(context.Context, int) (*tool.Snap, error) { return bare, nil }
	assert.NotNil(t, r.Run(context.Background(), 0), tool.Format(bare, tool.SnapOptions{}))
}

// A calendar drawn without a grid (air-datepicker's, vanillajs-datepicker's) is one all the
// same where the names of the days of the week stand between its month and its days: a day
// chosen there is the run's, a month or two on, and one of the month before drawn in its first
// row is that month's.
func TestADayOfACalendarWithoutAGridFollowsTheRunsDate(t *testing.T) {
	dec := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, oneLine := range []bool{false, true} {
		s := gridlessCalendar(dec, oneLine)
		seen := tool.Format(s, tool.SnapOptions{})
		w := clickOn(t, "Visit", s, `clickable "2"`)
		require.Equal(t, []Param{{Name: "date", Label: "date", Default: "December 2, 2026"}}, w.Params, seen)
		assert.Equal(t, "click generic “2” (the day of {{date}} on its calendar)", w.Steps[1].What)
		assert.Equal(t, "November 29, 2026", clickOn(t, "Visit", s, `clickable "29"`).Params[0].Default, "the first row's 29: November's")
		p := &pages{month: dec, gridless: 1 + map[bool]int{true: 1}[oneLine]}
		require.Nil(t, p.runner(w, map[string]string{"date": "January 5, 2027"}).Run(context.Background(), 0))
		assert.Equal(t, []string{`click {"ref":"e5"}`}, p.asides, "its next arrow")
		jan := tool.Format(gridlessCalendar(p.month, oneLine), tool.SnapOptions{})
		var got struct{ Ref string }
		require.NoError(t, json.Unmarshal([]byte(p.calls[1]), &got))
		d, _ := dateOfDay(jan, got.Ref, "clickable", 5, "")
		assert.Equal(t, "January 5, 2027", d)
	}
	// Without the days' names, a month above boxes named by numbers is no calendar.
	s := gridlessCalendar(dec, true)
	s.Tree = slices.Delete(s.Tree, 2, 3)
	w := clickOn(t, "Visit", s, `clickable "2"`)
	assert.Empty(t, w.Params)
}

// A calendar that writes its year in two figures over its days (Tempus Dominus' "December 26")
// shows that month where the days' names stand between; elsewhere "December 26" is a date
// without its year, not a month.
func TestACalendarsMonthWithItsYearInTwoFigures(t *testing.T) {
	head := "clickable \"Previous Month\" [e3]\nclickable \"Select Month\" [e4]: December 26\nclickable \"Next Month\" [e5]\n"
	days := "clickable \"29\" [e6]\nclickable \"30\" [e7]\nclickable \"1\" [e8]\nclickable \"2\" [e9]\n"
	d, label := dateOfDay(head+"Sun\nMon\nTue\nWed\nThu\nFri\nSat\n"+days, "e9", "clickable", 2, "")
	assert.Equal(t, []string{"December 2, 2026", "December 26"}, []string{d, label})
	d, _ = dateOfDay(head+"Sun\nMon\nTue\nWed\nThu\nFri\nSat\n"+days, "e6", "clickable", 29, "")
	assert.Equal(t, "November 29, 2026", d)
	d, _ = dateOfDay(head+days, "e9", "clickable", 2, "")
	assert.Empty(t, d, "no days' names between: no calendar")
	_, _, _, ok := monthOfLine("clickable \"Select Month\" [e4]: December 26")
	assert.False(t, ok, "not a month where a calendar is not sure to be")
}

// A nameless control turns a calendar by what its code calls it: next or prev, or the way its
// arrow points (js-datepicker's "qs-right", an icon's "chevron-left").
func TestANamelessArrowTurnsByItsCodesName(t *testing.T) {
	for _, c := range []struct {
		hint       string
		next, prev bool
	}{{"next", true, false}, {"button-previous-month", false, true}, {"qs-right", true, false}, {"chevron-left", false, true}, {"qs-arrow", false, false}} {
		assert.Equal(t, []bool{c.next, c.prev}, []bool{turns("", c.hint, true), turns("", c.hint, false)}, c.hint)
	}
	assert.False(t, turns("Pay right now", "qs-right", true), "a control with a name is told by it")
}

// A calendar's head that chooses its month and year from lists (jQuery UI's changeMonth and
// changeYear) says the month it shows; the month is chosen by the option that names it.
func TestACalendarsMonthInItsLists(t *testing.T) {
	line := `- combobox "Select month" [e7] value="Dec" options="Jan","Feb","Mar","Apr","May","Jun","Jul","Aug","Sep","Oct","Nov","Dec" combobox "Select year" [e8] value="2026" options="2025","2026","2027"`
	l, ok := monthLists(line)
	require.True(t, ok)
	assert.Equal(t, calendarLists{month: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), name: "Dec", monthRef: "e7", yearRef: "e8",
		names: []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}}, l)
	assert.Equal(t, []string{"Sep"}, l.monthNames(time.Date(2027, 9, 1, 0, 0, 0, 0, time.UTC)))
	m, label, layout, ok := monthOfLine(line)
	require.True(t, ok)
	assert.Equal(t, []any{time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "Dec 2026", "Jan 2006"}, []any{m, label, layout})

	// A month and its year each a button of its own (Ant Design's).
	m, label, layout, ok = monthOfLine(`  button "Dec" [e5] button "2026" [e6]`)
	require.True(t, ok)
	assert.Equal(t, []any{time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "Dec 2026", "Jan 2006"}, []any{m, label, layout})

	fr := `combobox "Mois" [e7] value="déc." combobox "Année" [e8] value="2026"`
	l, ok = monthLists(fr)
	require.True(t, ok)
	assert.Equal(t, []string{"janvier", "janv."}, l.monthNames(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)), "no options written: both names, in French")
	_, label, _, _ = monthOfLine(fr)
	assert.Equal(t, "déc. 2026", label)
	nb := `combobox "Måned" [e7] value="des." combobox "År" [e8] value="2026"`
	l, ok = monthLists(nb)
	require.True(t, ok)
	assert.Equal(t, []string{"januar", "jan."}, l.monthNames(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)), "Norwegian's \"des.\", no evidence alone")
	it := `combobox "Select month" [e7] value="Dic" options="Gen","Feb","Mar","Apr","Mag","Giu","Lug","Ago","Set","Ott","Nov","Dic" combobox "Select year" [e8] value="2026"`
	l, ok = monthLists(it)
	require.True(t, ok)
	assert.Equal(t, time.December, l.month.Month())
	assert.Equal(t, []string{"Gen"}, l.monthNames(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)), "Italian's short names, English words too")
	assert.Equal(t, []string{"Ott"}, l.monthNames(time.Date(2027, 10, 1, 0, 0, 0, 0, time.UTC)))
	m, label, layout, ok = monthOfLine(strings.ReplaceAll(strings.ReplaceAll(it, `"Dic"`, `"Gen"`), `"2026"`, `"2027"`))
	require.True(t, ok)
	assert.Equal(t, []any{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "Gen 2027", "Jan 2006"}, []any{m, label, layout}, "turned to January")

	for _, no := range []string{
		`combobox "Select month" [e7] value="Dec"`,                                     // no year's list
		`combobox "Size" [e7] value="Medium" combobox "Select year" [e8] value="2026"`, // no month's
		`textbox "Year" [e8] value="2026"`,
	} {
		_, ok := monthLists(no)
		assert.False(t, ok, no)
	}
}
