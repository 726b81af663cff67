package workflow

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// A value given to a run may be a date counted from the day it runs, as a schedule needs
// ("every morning, book for tomorrow"): {{today}}, {{today+1}}, {{today-7}}. It is written as
// the parameter's recorded value was (2026-12-02, 02/12/2026, 12/02/2026, 02.12.2026, and in
// English or French words: December 2, 2026, Wed, 2 Dec 2026, Dec 2, mercredi 2 décembre 2026),
// the ISO way when that was no date.

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
		layout, nth, def := "2006-01-02", false, ""
		for _, p := range w.Params {
			if p.Name == k {
				layout, def = layoutOf(p.Default, recorded), p.Default
				_, nth = unordinal(p.Default)
			}
		}
		y, m, d := now.Date()
		day := time.Date(y, m, d+days, 12, 0, 0, 0, now.Location())
		out[k] = day.Format(layout)
		if nth {
			out[k] = ordinal(out[k], day.Day())
		}
		if _, fr := english(def); fr {
			out[k] = inFrench(out[k], def)
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
	found := false
	readings(value, func(time.Time, string) bool { found = true; return false })
	return found
}

// readings calls f with each reading of value as a date written one of the ways Dated writes
// (in English or French words, with an ordinal day or not) and the layout it is read with, in
// the order of dateLayouts; f returns false to stop.
func readings(value string, f func(t time.Time, layout string) bool) {
	value, _ = unordinal(strings.TrimSpace(value))
	value, _ = english(value)
	value = strings.TrimSpace(value)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, value); err == nil && !f(t, l) {
			return
		}
	}
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
	best, gap := "2006-01-02", time.Duration(-1)
	readings(value, func(t time.Time, l string) bool {
		if g := max(t.Sub(recorded), recorded.Sub(t)); gap < 0 || g < gap {
			best, gap = l, g
		}
		return true
	})
	return best
}

// Dates in French words ("mercredi 2 décembre 2026", "2 déc. 2026", a calendar's "décembre
// 2026") are read as their English words are, word for word, and a value recorded so is written
// again in French.

// frMonths and frDays are the French names of the months and days of the week, in full and
// short, in the order of time.Month (from January) and time.Weekday (from Sunday).
var (
	frMonths = [12][2]string{{"janvier", "janv."}, {"février", "févr."}, {"mars", "mars"}, {"avril", "avr."}, {"mai", "mai"}, {"juin", "juin"},
		{"juillet", "juil."}, {"août", "août"}, {"septembre", "sept."}, {"octobre", "oct."}, {"novembre", "nov."}, {"décembre", "déc."}}
	frDays = [7][2]string{{"dimanche", "dim."}, {"lundi", "lun."}, {"mardi", "mar."}, {"mercredi", "mer."}, {"jeudi", "jeu."}, {"vendredi", "ven."}, {"samedi", "sam."}}
)

// bare is a French word as it may be written without its accents or its final dot.
func bare(w string) string {
	w = strings.TrimSuffix(strings.ToLower(w), ".")
	if !strings.ContainsAny(w, "éèêû") {
		return w
	}
	var b strings.Builder
	for _, r := range w {
		switch r {
		case 'é', 'è', 'ê':
			r = 'e'
		case 'û':
			r = 'u'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// frName is what a French name of a month or a day of the week, bare, stands for: its English
// name, in full or short (made when first needed: nothing runs as the worker starts).
var frName = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for i, names := range frMonths {
		en := time.Month(i + 1).String()
		m[bare(names[1])], m[bare(names[0])] = en[:3], en
	}
	for i, names := range frDays {
		en := time.Weekday(i).String()
		m[bare(names[1])], m[bare(names[0])] = en[:3], en
	}
	return m
})

// english is s with each French name of a month or a day of the week written as its English
// one (full or short as it was: "déc." is "Dec"), and "1er" as "1"; french says whether s is
// French: one of its words is French only ("décembre", "déc.", "mer.", "1er"), as "nov." or
// "sept." alone are not.
func english(s string) (out string, french bool) {
	words := strings.Fields(s)
	for _, w := range words {
		core := strings.TrimRight(w, ",;")
		if core == "1er" || frenchOnly(core) {
			french = true
			break
		}
	}
	if !french {
		return s, false
	}
	names := frName()
	for i, w := range words {
		core := strings.TrimRight(w, ",;")
		tail := w[len(core):]
		if core == "1er" {
			words[i] = "1" + tail
			continue
		}
		if en, ok := names[bare(core)]; ok {
			words[i] = en + tail
		}
	}
	return strings.Join(words, " "), true
}

// frenchOnly says whether w is the name of a month or a day of the week in French that is no
// English one: a name in full, or short but for "nov.", "oct.", "sept.", "déc" written "dec"
// and "mar." (March's, or mardi's).
func frenchOnly(w string) bool {
	b := bare(w)
	switch b {
	case "nov", "oct", "sept", "mar":
		return false
	case "dec":
		return strings.Contains(strings.ToLower(w), "é")
	}
	if len(b) < 3 || !strings.ContainsAny(b[:1], "adfjlmnosv") {
		return false
	}
	_, ok := frName()[b]
	return ok
}

// inFrench is date, written in English words, in French words as recorded wrote its own: its
// first letter in capitals when recorded's was, the first of the month as "1er" when recorded
// wrote one so.
func inFrench(date, recorded string) string {
	words := strings.Fields(date)
	for i, w := range words {
		core := strings.TrimRight(w, ",")
		tail := w[len(core):]
		for m := range 12 {
			switch core {
			case time.Month(m + 1).String():
				words[i] = frMonths[m][0] + tail
			case time.Month(m + 1).String()[:3]:
				words[i] = frMonths[m][1] + tail
			}
		}
		for d := range 7 {
			switch core {
			case time.Weekday(d).String():
				words[i] = frDays[d][0] + tail
			case time.Weekday(d).String()[:3]:
				words[i] = frDays[d][1] + tail
			}
		}
		if core == "1" && slices.Contains(strings.Fields(recorded), "1er") {
			words[i] = "1er" + tail
		}
	}
	out := strings.Join(words, " ")
	if r := []rune(strings.TrimSpace(recorded)); len(r) > 0 && unicode.IsUpper(r[0]) {
		o := []rune(out)
		o[0] = unicode.ToUpper(o[0])
		out = string(o)
	}
	return out
}
