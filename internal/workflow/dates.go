package workflow

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/ascii"
)

// A value given to a run may be a date counted from the day it runs, as a schedule needs
// ("every morning, book for tomorrow"): {{today}}, {{today+1}}, {{today-7}}. It is written as
// the parameter's recorded value was (2026-12-02, 02/12/2026, 12/02/2026, 02.12.2026, and in
// words: December 2, 2026, Wed, 2 Dec 2026, Dec 2, mercredi 2 décembre 2026, 2. Dezember 2026),
// the ISO way when that was no date.

// dateLayouts are the ways a date is typed into a page that Dated writes again. Where day and
// month could be either way round (02/12/2026), the reading nearer to the day the workflow was
// recorded is the one meant. A year in two figures is read in figures only, with its day and
// month in two where dots or dashes join them ("12/2/26", "02.12.26"; "1.2.26" is a version
// as often as a date), and only in what was typed: a name that holds one (a link's "Invoice
// 12/02/26") is no calendar's day (dateIn).
var dateLayouts = []string{"2006-01-02", "02/01/2006", "01/02/2006", "02.01.2006", "2.01.2006", "2.1.2006", "02. 01. 2006", "2. 1. 2006", "2/1/2006", "1/2/2006",
	"02.01.2006.", "02. 01. 2006.", "2. 1. 2006.", "01/02/06", "02/01/06", "1/2/06", "2/1/06", "02.01.06", "02-01-06", "2006/01/02", "2006/1/2", "2006. 01. 02.", "2006. 1. 2.", "02-01-2006", "2-1-2006",
	"January 2, 2006", "Jan 2, 2006", "2 January 2006", "02 January 2006", "2 Jan 2006", "Monday, January 2, 2006", "Mon, Jan 2, 2006",
	"Monday 2 January 2006", "Monday, 2 January 2006", "Monday, 02 January 2006", "Mon, 2 Jan 2006", "Mon 2 Jan 2006", "2 January 2006 Monday",
	"2006. January 2.", "2006. Jan 2.", "2006. January 2., Monday", "January 2", "Jan 2", "2 January", "2 Jan"}

// MaxDays bounds how far from today a value may count.
const MaxDays = 3660

// Dated is values with each date counted from today (now, in the browser's time zone), or from
// another parameter's date ({{check_in+3}}: a stay's last day counted from its first), written
// out, as is a date said in words for a date ("tomorrow", "demain"); the others as they are. A value that counts from a parameter of the workflow that holds
// no date in this run is an error in words.
func Dated(w *Workflow, values map[string]string, now time.Time) (map[string]string, error) {
	out := make(map[string]string, len(values))
	for k, v := range values {
		out[k] = v
	}
	recorded := time.UnixMilli(w.CreatedAt)
	if w.CreatedAt <= 0 { // an import that says nothing of it: the nearer reading to today
		recorded = now
	}
	y, m, d := now.Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	days := map[string]time.Time{"today": today} // the day each parameter holds, once known
	type counted struct {
		p    Param
		from string
		n    int
	}
	var left []counted
	params := slices.Clone(w.Params)
	for k := range values {
		if w.find(k) < 0 {
			params = append(params, Param{Name: k})
		}
	}
	for _, p := range params {
		v, ok := values[p.Name]
		if !ok {
			continue
		}
		if from, n, ok := countedFrom(v); ok && (from == "today" || w.find(from) >= 0) {
			left = append(left, counted{p, from, n})
		} else if n, ok := dayWord(v); ok && isDateAs(p.Default, p.Lang) {
			left = append(left, counted{p, "today", n})
		} else if day, ok := dayIn(v, p.Lang, layoutOf(p.Default, p.Lang, recorded), now); ok {
			days[p.Name] = day
		}
	}
	// One counted from another counted one waits for it: at most one round per value.
	for len(left) > 0 {
		var still []counted
		for _, c := range left {
			base, ok := days[c.from]
			if !ok {
				still = append(still, c)
				continue
			}
			day := base.AddDate(0, 0, c.n)
			days[c.p.Name] = day
			out[c.p.Name] = dayWritten(day, c.p.Default, recorded, c.p.Lang)
		}
		if len(still) == len(left) {
			c := still[0]
			return nil, sayCountsFromNoDate.Error(c.p.Name, values[c.p.Name], c.from)
		}
		left = still
	}
	return out, nil
}

// dayWord reads a day said in words from today ("tomorrow", "demain", "morgen", "mañana"): how
// many days on.
func dayWord(v string) (int, bool) {
	switch strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(v, "’", "'")), " ")) {
	case "today", "aujourd'hui", "heute", "hoy", "oggi", "hoje", "vandaag", "idag", "i dag", "dziś", "dzisiaj", "dnes", "сегодня", "bugün", "сьогодні", "tänään", "ma", "σήμερα", "astăzi", "azi", "hari ini", "днес", "danas":
		return 0, true
	case "tomorrow", "demain", "morgen", "mañana", "domani", "amanhã", "imorgon", "i morgon", "i morgen", "jutro", "zítra", "завтра", "yarın", "huomenna", "holnap", "αύριο", "mâine", "besok", "zajtra", "утре", "sutra":
		return 1, true
	case "the day after tomorrow", "day after tomorrow", "après-demain", "apres-demain", "übermorgen", "pasado mañana",
		"dopodomani", "depois de amanhã", "overmorgen", "i övermorgon", "i overmorgen", "pojutrze", "pozítří", "послезавтра", "öbür gün", "yarından sonra", "післязавтра", "ylihuomenna", "holnapután", "μεθαύριο", "poimâine", "lusa", "pozajtra", "вдругиден", "prekosutra":
		return 2, true
	case "yesterday", "hier", "gestern", "ayer", "ieri", "ontem", "gisteren", "igår", "i går", "wczoraj", "včera", "вчера", "dün", "вчора", "eilen", "tegnap", "χθες", "kemarin", "jučer":
		return -1, true
	}
	return 0, false
}

// dayWritten is day written as value was, a date recorded by the workflow (ISO when it is none).
func dayWritten(day time.Time, value string, recorded time.Time, lang string) string {
	value, clock := timeAfter(value)
	if !isDateAs(value, lang) {
		if l, ok := monthYearOf(value); ok { // a month field's: the day's month
			return written(day, l, value, lang)
		}
		if w, ok := weekWritten(day, value); ok { // a week field's: the day's week
			return w
		}
	}
	s := written(day, layoutOf(value, lang, recorded), value, lang)
	if _, nth := unordinal(value); nth {
		s = ordinal(s, day.Day())
	}
	if _, dot := undotted(value); dot {
		s = dotShortMonths(s)
	}
	return s + clock
}

// undotted is a date with an English month's short name written without the dot after it ("Dec.
// 2, 2026", "Sept. 2", as American papers write: "Dec 2, 2026"), and whether it had one.
func undotted(s string) (string, bool) {
	words := strings.Fields(s)
	found := false
	for i, w := range words {
		m, ok := strings.CutSuffix(w, ".")
		if !ok {
			continue
		}
		if strings.EqualFold(m, "sept") {
			m = m[:3]
		}
		if len(m) == 3 && isMonth(m) {
			words[i], found = m, true
		}
	}
	if !found {
		return s, false
	}
	return strings.Join(words, " "), true
}

// dotShortMonths is date with the dot after each English month's short name ("Dec" is "Dec.",
// "May" has none).
func dotShortMonths(date string) string {
	words := strings.Fields(date)
	for i, w := range words {
		if len(w) == 3 && isMonth(w) && !strings.EqualFold(w, "May") {
			words[i] = w + "."
		}
	}
	return strings.Join(words, " ")
}

// monthYearOf is the way value writes a month and its year (2026-12, 12/2026, December 2026,
// diciembre 2026), as a month field takes it; false when it is none.
func monthYearOf(value string) (string, bool) {
	v := strings.TrimSpace(value)
	for _, m := range monthYears {
		if _, err := time.Parse(m.layout, v); err == nil {
			return m.layout, true
		}
	}
	if _, l, ok := monthIn(v); ok {
		return l, true
	}
	return "", false
}

// weekWritten is day's ISO week written as value writes one (2026-W48, as a week field takes
// it); false when value is none.
func weekWritten(day time.Time, value string) (string, bool) {
	y, w, ok := strings.Cut(strings.TrimSpace(value), "-W")
	if !ok {
		return "", false
	}
	if _, err := strconv.Atoi(y); err != nil || len(y) != 4 {
		return "", false
	}
	if n, err := strconv.Atoi(w); err != nil || len(w) != 2 || n < 1 || n > 53 {
		return "", false
	}
	year, week := day.ISOWeek()
	return strconv.Itoa(year) + "-W" + string(rune('0'+week/10)) + string(rune('0'+week%10)), true
}

// timeAfter cuts a time of day off the end of value, as a date and time field takes it
// ("2026-12-02T19:30", "12/02/2026 7:30 PM", "December 2, 2026 at 7:30 PM", "2 décembre 2026 à
// 19h30"): the date, and the time with what joins it to the date (value and "" when it ends in
// none). A run's date keeps the recorded time.
func timeAfter(value string) (date, clock string) {
	v := strings.TrimRight(value, " ")
	end := len(v)
	if l := ascii.Lower(strings.ReplaceAll(v, ".", "")); strings.HasSuffix(l, "am") || strings.HasSuffix(l, "pm") {
		end = strings.LastIndexAny(ascii.Lower(v), "ap") // (each byte where it was in v)
		end = len(strings.TrimRight(v[:end], " "))
	}
	start := end
	for start > 0 && strings.IndexByte("0123456789:h.", v[start-1]) >= 0 {
		start--
	}
	if !isClock(v[start:end]) {
		return value, ""
	}
	d := v[:start]
	// (the half of the day before a Korean, Japanese or Chinese clock: "2026년 12월 2일 오후 3:00")
	for _, half := range [...]string{"오전", "오후", "午前", "午後", "上午", "下午"} {
		if before, ok := strings.CutSuffix(strings.TrimRight(d, " "), half); ok && strings.TrimSpace(before) != "" {
			d = strings.TrimRight(before, " ") + " "
			break
		}
	}
	for _, join := range [...]string{"T", " at ", " à ", " um ", " a las ", " alle ", " às ", " om ", ", ", " - ", " "} {
		if before, ok := strings.CutSuffix(d, join); ok && strings.TrimSpace(before) != "" {
			return before, value[len(before):]
		}
	}
	return value, ""
}

// isClock says whether s is a time of day as hours and minutes (and seconds): 7:30, 19:30:00,
// 19h30, 19.30.
func isClock(s string) bool {
	h, m, ok := strings.Cut(s, ":")
	if !ok {
		if h, m, ok = strings.Cut(s, "h"); !ok {
			h, m, ok = strings.Cut(s, ".")
		}
	}
	if !ok || len(h) < 1 || len(h) > 2 {
		return false
	}
	m, sec, hasSec := strings.Cut(m, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || len(m) != 2 || hh > 23 || mm > 59 || h[0] == '+' || h[0] == '-' {
		return false
	}
	if hasSec {
		ss, err := strconv.Atoi(sec)
		return err == nil && len(sec) == 2 && ss <= 59
	}
	return true
}

// dayIn is the day value holds, read the way layout writes a date or else the reading nearest
// to now; a date written without its year is the one of that day nearest to now.
func dayIn(value, lang, layout string, now time.Time) (time.Time, bool) {
	var day time.Time
	read, found := "", false
	readings(value, lang, func(t time.Time, l string) bool {
		if l == layout || !found {
			day, read, found = t, l, true
		}
		return l != layout
	})
	layout = read
	if !found {
		return time.Time{}, false
	}
	if !writesYear(layout) {
		y, m, d := now.Date()
		near := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		day = time.Date(y, day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
		if day.Sub(near) > 183*24*time.Hour {
			day = day.AddDate(-1, 0, 0)
		} else if near.Sub(day) > 183*24*time.Hour {
			day = day.AddDate(1, 0, 0)
		}
	}
	return day, true
}

// daysAfter is how many days date b is after date a (before it: fewer than 0), each read the
// way that puts them nearest where there are two (02/12/2026 and 05/12/2026: 3 days; a
// calendar's "December 2, 2026" and a field's 05/12/2026: 3 too); a day written without its
// year is in the other's year, or the next such day when neither has one.
func daysAfter(a, b, lang string) (int, bool) {
	best, found := 0, false
	readings(a, lang, func(ta time.Time, la string) bool {
		readings(b, lang, func(tb time.Time, lb string) bool {
			ya, yb := writesYear(la), writesYear(lb)
			switch {
			case ya && !yb:
				tb = time.Date(ta.Year(), tb.Month(), tb.Day(), 0, 0, 0, 0, time.UTC)
			case yb && !ya:
				ta = time.Date(tb.Year(), ta.Month(), ta.Day(), 0, 0, 0, 0, time.UTC)
			case !ya && !yb && tb.Before(ta):
				tb = tb.AddDate(1, 0, 0)
			}
			n := int(tb.Sub(ta) / (24 * time.Hour))
			if !found || max(n, -n) < max(best, -best) {
				best, found = n, true
			}
			return true
		})
		return true
	})
	return best, found
}

// countedFrom reads {{today}}, {{today+N}}, {{today-N}}, and the same counted from a
// parameter's date ({{check_in+3}}): what it counts from, and how many days.
func countedFrom(v string) (from string, days int, ok bool) {
	s, ok := strings.CutPrefix(strings.TrimSpace(v), "{{")
	if !ok {
		return "", 0, false
	}
	s, ok = strings.CutSuffix(s, "}}")
	if !ok {
		return "", 0, false
	}
	at := strings.IndexAny(s, "+-")
	if at < 0 {
		at = len(s)
	}
	from, s = s[:at], s[at:]
	if !paramOK(from) {
		return "", 0, false
	}
	if s == "" {
		return from, 0, true
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 0 || n > MaxDays || s[1:] != strconv.Itoa(n) {
		return "", 0, false
	}
	if s[0] == '-' {
		n = -n
	}
	return from, n, true
}

// dateIn is the date name holds as some of its words, written one of the ways Dated writes
// (the longest such: "Wednesday, December 2, 2026" in "Choose Wednesday, December 2, 2026 as
// your day"), or "".
func dateIn(name string) string {
	words := strings.Fields(name)
	best := ""
	for i := range words {
		// (up to the longest of dateLayouts' and two words that join a date's parts: "2 de
		// diciembre de 2026")
		for n := 1; n <= 6 && i+n <= len(words); n++ {
			d := strings.Trim(strings.Join(words[i:i+n], " "), ",.;:!?()")
			if len(d) > len(best) && strings.ContainsAny(d, "0123456789") && isDate(d) && !yearShort(d) {
				best = d
			}
		}
	}
	return best
}

// writesYear says whether a layout writes a date's year, in four figures or two.
func writesYear(layout string) bool { return strings.Contains(layout, "06") }

// yearShort says whether value reads as a date only with its year in two figures ("12/02/26").
func yearShort(value string) bool {
	short := false
	readings(value, "", func(_ time.Time, l string) bool {
		short = writesYear(l) && !strings.Contains(l, "2006")
		return short
	})
	return short
}

// isDate says whether value is a date written one of the ways Dated writes.
func isDate(value string) bool { return isDateAs(value, "") }

// isDateAs is isDate on a page whose words are in lang (Param.Lang): "2 mag 2026" is one on an
// Italian page ("mag" is an English word too).
func isDateAs(value, lang string) bool {
	found := false
	readings(value, lang, func(time.Time, string) bool { found = true; return false })
	return found
}

// readings calls f with each reading of value as a date written one of the ways Dated writes
// (in English words or another language's, with an ordinal day or not) and the layout it is read with, in
// the order of dateLayouts; f returns false to stop.
func readings(value, lang string, f func(t time.Time, layout string) bool) {
	value, _ = timeAfter(value)
	value, _ = unordinal(strings.TrimSpace(value))
	value, _ = englishAs(value, lang)
	value, _ = undotted(strings.TrimSpace(value))
	if l, day, ok := cjkLayout(value); ok && day {
		if t, err := time.Parse(l, cjkEnglish(value)); err == nil && !f(t, l) {
			return
		}
	}
	// The readings that write value again as it is first ("02 December 2026" is "02 January
	// 2006"'s, though "2 January 2006" reads it too), then up to four others (a wrong day of
	// the week).
	var later [4]struct {
		t time.Time
		l string
	}
	n := 0
	for _, l := range dateLayouts {
		t, err := time.Parse(l, value)
		switch {
		case err != nil:
		case strings.EqualFold(t.Format(l), value):
			if !f(t, l) {
				return
			}
		case n < len(later):
			later[n].t, later[n].l = t, l
			n++
		}
	}
	for _, r := range later[:n] {
		if !f(r.t, r.l) {
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
func layoutOf(value, lang string, recorded time.Time) string {
	best, gap := "2006-01-02", time.Duration(-1)
	// (A month of two figures with a dot, "2.12.2026", is written "1.1.2027" where the page's
	// language writes no zero before a month, "1.01.2027" else, as Turkish and Polish do.)
	tg := tongueOf(pageTongue(lang))
	noZero := tg != nil && tg.bareMonth
	readings(value, lang, func(t time.Time, l string) bool {
		if g := max(t.Sub(recorded), recorded.Sub(t)); gap < 0 || g < gap || g == gap && noZero && best == "2.01.2006" && l == "2.1.2006" {
			best, gap = l, g
		}
		return true
	})
	return best
}
