package workflow

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// A date chosen in parts (a day, a month and a year, each from a list or typed into a field of
// its own, as booking and travel forms ask) is one date parameter, which {{today+1}} may count
// from the day of the run: each part's value is written from it as the recorded one was
// ({{date:d}}, {{date:mmmm}}, {{date:yyyy}}, {{date:mm/yyyy}}).

// partTokens are the words of a part's pattern and the Go layout of each, longest first.
var partTokens = [...]struct{ tok, layout string }{
	{"yyyy", "2006"}, {"yy", "06"}, {"mmmm", "January"}, {"mmm", "Jan"}, {"mm", "01"}, {"m", "1"}, {"dd", "02"}, {"d", "2"}}

// partLayout is the Go layout of a part's pattern (yyyy-mm, mmmm yyyy, dd; ending ":fr" for
// months named in French, ":Fr" with a capital, ":de" in German…); false when it holds anything
// but its words and - / . , or spaces.
func partLayout(pattern string) (string, bool) {
	pattern, _, _ = tonguePart(pattern)
	var b strings.Builder
	for s := pattern; s != ""; {
		found := false
		for _, t := range partTokens {
			if strings.HasPrefix(s, t.tok) {
				b.WriteString(t.layout)
				s, found = s[len(t.tok):], true
				break
			}
		}
		if found {
			continue
		}
		switch s[0] {
		case '-', '/', '.', ',', ' ':
			b.WriteByte(s[0])
			s = s[1:]
			continue
		}
		return "", false
	}
	return b.String(), pattern != ""
}

// datePart is value, a date, written as pattern writes a part of it; false when value is no
// date.
func datePart(value, pattern string) (string, bool) {
	layout, ok := partLayout(pattern)
	if !ok {
		return "", false
	}
	day, ok := dayIn(value, "", "2006-01-02", time.Now())
	if !ok {
		return "", false
	}
	if _, tg, like := tonguePart(pattern); tg != nil {
		return inTongue(day.Format(layout), like, tg), true
	}
	return day.Format(layout), true
}

// tonguePart is pattern without its language's ending, the language its months are named in
// (nil: English), and words written as they are ("x", "X" with a capital).
func tonguePart(pattern string) (string, *tongue, string) {
	at := strings.LastIndexByte(pattern, ':')
	if at < 0 || len(pattern)-at != 3 {
		return pattern, nil, ""
	}
	code := pattern[at+1:]
	tg := tongueOf(strings.ToLower(code))
	if tg == nil {
		return pattern, nil, ""
	}
	return pattern[:at], tg, pick(code[0] >= 'A' && code[0] <= 'Z', "X", "x")
}

// A part a value is, as the recorder reads it.
const (
	partNone = iota
	partDay
	partMonth
	partYear
	partMonthYear
	partNumber // a day or a month, its field's name not saying which
)

// monthYears are the ways a month and its year are written in one value, and their patterns.
var monthYears = [...]struct{ layout, pattern string }{
	{"2006-01", "yyyy-mm"}, {"01/2006", "mm/yyyy"}, {"1/2006", "m/yyyy"}, {"01-2006", "mm-yyyy"}, {"01.2006", "mm.yyyy"},
	{"January 2006", "mmmm yyyy"}, {"Jan 2006", "mmm yyyy"}}

// partOf reads p's value as a part of a date: which part, its pattern, and the date it holds
// (its day, month or year set; the rest zero).
func partOf(p Param) (kind int, pattern string, n int, month time.Month) {
	kind, pattern, n, month = partOfValue(p)
	// A month named in another language ("décembre", "Déc.", "Dezember") is written so again.
	if _, tg := englishAs(p.Default, p.Lang); tg != nil && (kind == partMonth || kind == partMonthYear) {
		code := tg.code
		if unicode.IsUpper([]rune(strings.TrimSpace(p.Default))[0]) {
			code = strings.ToUpper(code[:1]) + code[1:]
		}
		pattern += ":" + code
	}
	return kind, pattern, n, month
}

func partOfValue(p Param) (kind int, pattern string, n int, month time.Month) {
	v, _ := english(strings.TrimSpace(p.Default))
	said := partNone // what the field's name says it is
	for _, w := range words(p.Label) {
		if k := partWord(w); k != partNone {
			said = k
		}
	}
	if said == partNone || said == partMonth {
		for _, m := range monthYears {
			if t, err := time.Parse(m.layout, v); err == nil {
				return partMonthYear, m.pattern, t.Year(), t.Month()
			}
		}
		if m, ok := monthNamed(v); ok {
			return partMonth, pick(len(strings.TrimSuffix(v, ".")) == 3 && v != "May", "mmm", "mmmm"), 0, m
		}
	}
	num, err := strconv.Atoi(v)
	if err != nil || num < 0 || strconv.Itoa(num) != strings.TrimLeft(v, "0") && v != "0" {
		return partNone, "", 0, 0
	}
	padded := len(v) == 2 && v[0] == '0'
	switch {
	case len(v) == 4 && num >= 1900 && num <= 2100 && (said == partNone || said == partYear):
		return partYear, "yyyy", num, 0
	case len(v) == 2 && said == partYear:
		return partYear, "yy", 2000 + num, 0
	case said == partDay && num >= 1 && num <= 31:
		return partDay, pick(padded, "dd", "d"), num, 0
	case said == partMonth && num >= 1 && num <= 12:
		return partMonth, pick(padded, "mm", "m"), 0, time.Month(num)
	case said == partNone && num >= 1 && num <= 31 && len(v) <= 2:
		return partNumber, pick(padded, "dd", "d"), num, 0
	}
	return partNone, "", 0, 0
}

// partWord is the part of a date a word of a field's name says the field holds, or partNone.
func partWord(w string) int {
	switch w {
	case "day", "jour", "tag", "día", "dia", "giorno", "dag", "dzień", "den", "день", "число", "gün", "päivä", "nap", "ημέρα", "μέρα", "zi", "ziua", "hari", "tanggal", "deň", "ден", "dan", "日", "일", "dd", "jj", "tt", "gg", "дд":
		return partDay
	case "month", "mois", "monat", "mes", "mês", "mese", "maand", "månad", "måned", "miesiąc", "měsíc", "месяц", "ay", "місяць", "kuukausi", "hónap", "μήνας", "luna", "bulan", "mesiac", "месец", "mjesec", "月", "월", "mm", "мм":
		return partMonth
	case "year", "année", "annee", "jahr", "año", "ano", "anno", "jaar", "år", "rok", "год", "yıl", "рік", "vuosi", "év", "έτος", "anul", "tahun", "година", "godina", "年", "년", "yyyy", "vvvv", "éééé", "aaaa", "jjjj", "åååå", "rrrr", "гггг", "yy":
		return partYear
	}
	return partNone
}

// partsLabel is what a date chosen in parts is called: its fields' one name ("Date of
// birth"), or the words their names share but for the parts' ("Departure" for "Departure day"
// and "Departure month"), or "date".
func partsLabel(group []Param) string {
	rest := func(label string) string {
		var kept []string
		for _, w := range strings.Fields(label) {
			if partWord(strings.ToLower(strings.Trim(w, ",.:()"))) == partNone {
				kept = append(kept, w)
			}
		}
		return strings.Join(kept, " ")
	}
	same, shared := true, rest(group[0].Label)
	for _, p := range group[1:] {
		same = same && p.Label == group[0].Label
		if rest(p.Label) != shared {
			shared = ""
		}
	}
	switch {
	case same && group[0].Label != "":
		return group[0].Label
	case shared != "":
		return shared
	}
	return "date"
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// partsDate reads params, chosen one after the other, as the parts of one date: a day, a month
// and a year, or a day and a month with its year, in any order, each named as such by its
// field or its value (a month's name, a year's four digits); a number its field does not name
// is the day when the others are the month and year and all three fields have one name (the
// form's "Date of birth"). It returns the date and each one's
// pattern.
func partsDate(params []Param) (time.Time, []string, bool) {
	var day, year int
	var month time.Month
	var kinds [partNumber + 1]int
	patterns := make([]string, len(params))
	for i, p := range params {
		if p.Secret || p.From != "" {
			return time.Time{}, nil, false
		}
		kind, pattern, n, m := partOf(p)
		switch kind {
		case partNone:
			return time.Time{}, nil, false
		case partDay, partNumber:
			day = n
		case partMonth:
			month = m
		case partYear:
			year = n
		case partMonthYear:
			year, month = n, m
		}
		kinds[kind]++
		patterns[i] = pattern
	}
	for _, p := range params {
		if kinds[partNumber] > 0 && p.Label != params[0].Label {
			return time.Time{}, nil, false // a number of its own ("Guests 2"), no day
		}
	}
	days := kinds[partDay] + kinds[partNumber]
	whole := days == 1 && (kinds[partMonth] == 1 && kinds[partYear] == 1 && kinds[partMonthYear] == 0 ||
		kinds[partMonthYear] == 1 && kinds[partMonth] == 0 && kinds[partYear] == 0)
	if !whole {
		return time.Time{}, nil, false
	}
	d := time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
	if d.Day() != day { // the 31st of a month of 30
		return time.Time{}, nil, false
	}
	return d, patterns, true
}

// dateParts makes each date the run chose in parts one date parameter, in the place of its
// first part, its steps writing each part from it ({{date:d}}). A part a step finds an element
// by, or an address is made for, stays as it is.
func (r *recorder) dateParts() {
	taken := map[string]bool{}
	for _, s := range r.w.Steps {
		for _, t := range s.Targets {
			taken[t.Param] = true
		}
		taken[s.For] = true
	}
	for i := 0; i < len(r.w.Params); i++ {
		for _, n := range [...]int{3, 2} {
			if i+n > len(r.w.Params) {
				continue
			}
			group := r.w.Params[i : i+n]
			free := true
			for _, p := range group {
				free = free && !taken[p.Name]
			}
			day, patterns, ok := partsDate(group)
			if !free || !ok {
				continue
			}
			label := partsLabel(group)
			parts := map[string]string{}
			for k, p := range group {
				parts[p.Name] = patterns[k]
			}
			name := paramName(label)
			for k := 2; r.w.find(name) >= 0 && parts[name] == ""; k++ {
				name = paramName(label) + "_" + strconv.Itoa(k)
			}
			p := Param{Name: name, Label: label, Default: day.Format("2006-01-02")}
			p.From, p.Days = after(r.w.Params[:i], p.Default, "")
			r.w.Params = append(append(append([]Param(nil), r.w.Params[:i]...), p), r.w.Params[i+n:]...)
			for k := range r.w.Steps {
				s := &r.w.Steps[k]
				s.Args = []byte(expand(string(s.Args), func(ref placeholder, _ string) string {
					if pattern, ok := parts[ref.name]; ok && ref.part == "" {
						ref = placeholder{name, pattern}
					}
					return ref.String()
				}))
				s.What = Describe(*s)
			}
			break
		}
	}
	// A date after a date now made of parts may count from it (the return chosen on a
	// calendar after a departure chosen in lists).
	for j, p := range r.w.Params {
		if p.From == "" && !p.Secret {
			r.w.Params[j].From, r.w.Params[j].Days = after(r.w.Params[:j], p.Default, p.Lang)
		}
	}
}
