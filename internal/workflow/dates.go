package workflow

import (
	"strconv"
	"strings"
	"time"
)

// A value given to a run may be a date counted from the day it runs, as a schedule needs
// ("every morning, book for tomorrow"): {{today}}, {{today+1}}, {{today-7}}. It is written as
// the parameter's recorded value was (2026-12-02, 02/12/2026, 12/02/2026, 02.12.2026, and in
// English words: December 2, 2026, Wed, 2 Dec 2026, Dec 2), the ISO way when that was no date.

// dateLayouts are the ways a date is typed into a page that Dated writes again. Where day and
// month could be either way round (02/12/2026), the reading nearer to the day the workflow was
// recorded is the one meant.
var dateLayouts = []string{"2006-01-02", "02/01/2006", "01/02/2006", "02.01.2006", "2/1/2006", "1/2/2006",
	"January 2, 2006", "Jan 2, 2006", "2 January 2006", "2 Jan 2006", "Monday, January 2, 2006", "Mon, Jan 2, 2006",
	"Monday 2 January 2006", "Mon, 2 Jan 2006", "Mon 2 Jan 2006", "January 2", "Jan 2", "2 January", "2 Jan"}

// MaxDays bounds how far from today a value may count.
const MaxDays = 3660

// Dated is values with each date counted from today (now, in the browser's time zone) written
// out; the others as they are.
func Dated(w *Workflow, values map[string]string, now time.Time) map[string]string {
	out := make(map[string]string, len(values))
	recorded := time.UnixMilli(w.CreatedAt)
	if w.CreatedAt <= 0 { // an import that says nothing of it: the nearer reading to today
		recorded = now
	}
	for k, v := range values {
		out[k] = v
		days, ok := countedDays(v)
		if !ok {
			continue
		}
		layout, nth := "2006-01-02", false
		for _, p := range w.Params {
			if p.Name == k {
				layout = layoutOf(p.Default, recorded)
				_, nth = unordinal(p.Default)
			}
		}
		y, m, d := now.Date()
		day := time.Date(y, m, d+days, 12, 0, 0, 0, now.Location())
		out[k] = day.Format(layout)
		if nth {
			out[k] = ordinal(out[k], day.Day())
		}
	}
	return out
}

// countedDays reads {{today}}, {{today+N}} or {{today-N}}.
func countedDays(v string) (int, bool) {
	s, ok := strings.CutPrefix(strings.TrimSpace(v), "{{today")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, "}}")
	if !ok {
		return 0, false
	}
	if s == "" {
		return 0, true
	}
	if s[0] != '+' && s[0] != '-' {
		return 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 0 || n > MaxDays || s[1:] != strconv.Itoa(n) {
		return 0, false
	}
	if s[0] == '-' {
		n = -n
	}
	return n, true
}

// dateIn is the date name holds as some of its words, written one of the ways Dated writes
// (the longest such: "Wednesday, December 2, 2026" in "Choose Wednesday, December 2, 2026 as
// your day"), or "".
func dateIn(name string) string {
	words := strings.Fields(name)
	best := ""
	for _, l := range dateLayouts {
		n := strings.Count(l, " ") + 1
		for i := 0; i+n <= len(words); i++ {
			d := strings.Trim(strings.Join(words[i:i+n], " "), ",.;:!?()")
			if len(d) > len(best) && isDate(d) {
				best = d
			}
		}
	}
	return best
}

// isDate says whether value is a date written one of the ways Dated writes.
func isDate(value string) bool {
	value, _ = unordinal(value)
	for _, l := range dateLayouts {
		if _, err := time.Parse(l, strings.TrimSpace(value)); err == nil {
			return true
		}
	}
	return false
}

// unordinal is a date with its day written as a number ("December 2nd, 2026", as
// react-datepicker names its days: "December 2, 2026"), and whether it was written as an
// ordinal.
func unordinal(s string) (string, bool) {
	words := strings.Fields(s)
	for i, w := range words {
		n := strings.TrimRight(w, ",.")
		if len(n) < 3 || len(n) > 4 {
			continue
		}
		digits, suffix := n[:len(n)-2], strings.ToLower(n[len(n)-2:])
		if _, err := strconv.Atoi(digits); err == nil && (suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th") {
			words[i] = digits + w[len(n):]
			return strings.Join(words, " "), true
		}
	}
	return s, false
}

// ordinal is date with its day, day, written as an English ordinal (3rd).
func ordinal(date string, day int) string {
	suffix := "th"
	if day/10 != 1 {
		switch day % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	words := strings.Fields(date)
	d := strconv.Itoa(day)
	for i, w := range words {
		if strings.TrimRight(w, ",.") == d {
			words[i] = d + suffix + w[len(d):]
			return strings.Join(words, " ")
		}
	}
	return date
}

// layoutOf is the way value writes a date ("2006-01-02" when it is none), the reading nearest to
// recorded when it could be read two ways.
func layoutOf(value string, recorded time.Time) string {
	value, _ = unordinal(value)
	best, gap := "2006-01-02", time.Duration(-1)
	for _, l := range dateLayouts {
		t, err := time.Parse(l, strings.TrimSpace(value))
		if err != nil {
			continue
		}
		g := t.Sub(recorded)
		if g < 0 {
			g = -g
		}
		if gap < 0 || g < gap {
			best, gap = l, g
		}
	}
	return best
}
