package workflow

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/tool"
)

// partsForm is a form whose date is chosen in parts, each a list named as labels name them,
// and a button.
func partsForm(labels ...string) *tool.Snap {
	s := &tool.Snap{URL: "https://fly.test/"}
	for i, l := range labels {
		s.Tree = append(s.Tree, tool.Item{Node: &tool.Node{Role: "combobox", Name: l, Ref: fmt.Sprintf("e%d", i+1)}})
	}
	s.Tree = append(s.Tree, tool.Item{Node: &tool.Node{Role: "button", Name: "Search", Ref: fmt.Sprintf("e%d", len(labels)+1)}})
	return s
}

// recordParts records a run that chose values in partsForm(labels...)'s lists, in order, and
// pressed Search.
func recordParts(t *testing.T, labels []string, values ...string) *Workflow {
	t.Helper()
	form := partsForm(labels...)
	seen := tool.Format(form, tool.SnapOptions{})
	calls := choices(form, values...)
	ref := fmt.Sprintf("e%d", len(labels)+1)
	calls = append(calls, Call{Tool: "click", Args: json.RawMessage(`{"ref":"` + ref + `"}`), URL: form.URL, Seen: seen,
		Elements: []tool.Element{{Ref: ref, Role: "button", Name: "Search", Origin: site(form.URL)}}})
	w, err := Record("Fly", "", calls)
	require.NoError(t, err)
	require.NoError(t, w.Check())
	return w
}

// choices are the calls that choose values in form's lists, one each, in order.
func choices(form *tool.Snap, values ...string) []Call {
	seen := tool.Format(form, tool.SnapOptions{})
	var calls []Call
	for i, v := range values {
		ref := fmt.Sprintf("e%d", i+1)
		b, _ := json.Marshal(map[string]any{"ref": ref, "values": []string{v}})
		calls = append(calls, Call{Tool: "select_option", Args: b, URL: form.URL, Seen: seen,
			Elements: []tool.Element{{Ref: ref, Role: "combobox", Name: form.Tree[i].Node.Name, Origin: site(form.URL)}}})
	}
	return calls
}

// chosen is what each select_option step of w chooses with values.
func chosen(t *testing.T, w *Workflow, values map[string]string) []string {
	t.Helper()
	var out []string
	for _, s := range w.Steps {
		if s.Tool != "select_option" {
			continue
		}
		args, err := Fill(s.Args, values)
		require.NoError(t, err)
		var in struct{ Values []string }
		require.NoError(t, json.Unmarshal(args, &in))
		out = append(out, in.Values...)
	}
	return out
}

// A date chosen in parts (a day, a month, a year, each from its own list) is one date value:
// a run for {{today+1}} chooses the parts of the day after the run's, each written as the
// recorded part was (9 or 09, December or Dec or 12, 2026-12 for a month and its year). A
// stay's second date so chosen counts from its first. Lists whose values only look like parts
// ("Guests 2") stay values of their own.
func TestADateChosenInPartsIsOneDate(t *testing.T) {
	now := time.Date(2026, 12, 31, 7, 0, 0, 0, time.UTC)
	w := recordParts(t, []string{"Day", "Month", "Year"}, "9", "December", "2026")
	assert.Equal(t, []Param{{Name: "date", Label: "date", Default: "2026-12-09"}}, w.Params)
	assert.JSONEq(t, `{"ref":"@1","values":["{{date:d}}"]}`, string(w.Steps[1].Args))
	assert.Equal(t, "choose {{date:mmmm}} in combobox “Month”", w.Steps[2].What)
	assert.Equal(t, []string{"9", "December", "2026"}, chosen(t, w, map[string]string{"date": "2026-12-09"}), "its recorded value: the recorded choices")
	assert.Equal(t, []string{"1", "January", "2027"}, chosen(t, w, dated(t, w, map[string]string{"date": "{{today+1}}"}, now)))

	w = recordParts(t, []string{"Year", "Month", "Day"}, "2026", "03", "09")
	assert.Equal(t, []string{"2027", "01", "01"}, chosen(t, w, dated(t, w, map[string]string{"date": "{{today+1}}"}, now)), "zeros kept, in its order")
	w = recordParts(t, []string{"Jour", "Mois", "Année"}, "9", "Dec", "2026")
	assert.Equal(t, []string{"15", "Mar", "2027"}, chosen(t, w, map[string]string{"date": "2027-03-15"}))
	// Months named in French are written in French, with a capital where the recorded had one.
	w = recordParts(t, []string{"Jour", "Mois", "Année"}, "9", "décembre", "2026")
	assert.Equal(t, []string{"1", "janvier", "2027"}, chosen(t, w, dated(t, w, map[string]string{"date": "{{today+1}}"}, now)))
	w = recordParts(t, []string{"Jour", "Mois", "Année"}, "9", "Déc.", "2026")
	assert.Equal(t, []string{"15", "Févr.", "2027"}, chosen(t, w, map[string]string{"date": "2027-02-15"}))
	w = recordParts(t, []string{"Jour", "Mois"}, "09", "Décembre 2026")
	assert.JSONEq(t, `{"ref":"@1","values":["{{date:mmmm yyyy:Fr}}"]}`, string(w.Steps[2].Args))
	assert.Equal(t, []string{"01", "Janvier 2027"}, chosen(t, w, dated(t, w, map[string]string{"date": "{{today+1}}"}, now)))
	// And in German, Spanish, Italian, Portuguese, Dutch, Swedish, Norwegian, Polish, Czech,
	// Russian, Turkish, as each writes its months.
	for _, c := range []struct{ labels, recorded, want []string }{
		{[]string{"Tag", "Monat", "Jahr"}, []string{"9", "Dezember", "2026"}, []string{"1", "Januar", "2027"}},
		{[]string{"Tag", "Monat", "Jahr"}, []string{"9", "Dez.", "2026"}, []string{"1", "Jan.", "2027"}},
		{[]string{"Día", "Mes", "Año"}, []string{"9", "diciembre", "2026"}, []string{"1", "enero", "2027"}},
		{[]string{"Giorno", "Mese", "Anno"}, []string{"9", "Dicembre", "2026"}, []string{"1", "Gennaio", "2027"}},
		{[]string{"Dia", "Mês", "Ano"}, []string{"9", "dezembro", "2026"}, []string{"1", "janeiro", "2027"}},
		{[]string{"Dia", "Mês", "Ano"}, []string{"09", "12", "2026"}, []string{"01", "1", "2027"}},
		{[]string{"Dag", "Maand", "Jaar"}, []string{"9", "mrt", "2026"}, []string{"1", "jan", "2027"}},
		{[]string{"Dag", "Månad", "År"}, []string{"9", "maj", "2026"}, []string{"1", "januari", "2027"}},
		{[]string{"Dag", "Måned", "År"}, []string{"9", "desember", "2026"}, []string{"1", "januar", "2027"}},
		{[]string{"Dzień", "Miesiąc", "Rok"}, []string{"9", "Grudzień", "2026"}, []string{"1", "Styczeń", "2027"}},
		{[]string{"Den", "Měsíc", "Rok"}, []string{"9", "prosinec", "2026"}, []string{"1", "leden", "2027"}},
		{[]string{"День", "Месяц", "Год"}, []string{"9", "Декабрь", "2026"}, []string{"1", "Январь", "2027"}},
		{[]string{"Gün", "Ay", "Yıl"}, []string{"9", "Aralık", "2026"}, []string{"1", "Ocak", "2027"}},
		{[]string{"日", "月", "年"}, []string{"09", "12", "2026"}, []string{"01", "1", "2027"}},
	} {
		w = recordParts(t, c.labels, c.recorded...)
		require.Len(t, w.Params, 1, "%v", c.recorded)
		assert.Equal(t, c.want, chosen(t, w, dated(t, w, map[string]string{"date": "{{today+1}}"}, now)), "%v", c.recorded)
	}

	// A day and a month with its year, then the return the same way: the return counts from
	// the departure.
	w = recordParts(t, []string{"Departure day", "Departure month", "Return day", "Return month"}, "9", "2026-12", "12", "2026-12")
	assert.Equal(t, []Param{{Name: "departure", Label: "Departure", Default: "2026-12-09"},
		{Name: "return", Label: "Return", Default: "2026-12-12", From: "departure", Days: 3}}, w.Params, "named by what their fields' names share")
	values, err := w.WithDefaults(map[string]string{"departure": "{{today+1}}"})
	require.NoError(t, err)
	assert.Equal(t, []string{"1", "2027-01", "4", "2027-01"}, chosen(t, w, dated(t, w, values, now)))
	// A return typed as a date after a departure chosen in parts counts from it.
	w, err = Record("Fly", "", choices(partsForm("Day", "Month", "Year", "Return"), "9", "December", "2026", "2026-12-12"))
	require.NoError(t, err)
	assert.Equal(t, []Param{{Name: "date", Label: "date", Default: "2026-12-09"}, {Name: "return", Label: "Return", Default: "2026-12-12", From: "date", Days: 3}}, w.Params)

	// The same name on all three lists (the form's "Date of birth"): the number is the day.
	w = recordParts(t, []string{"Date of birth", "Date of birth", "Date of birth"}, "14", "July", "1990")
	assert.Equal(t, []Param{{Name: "date_of_birth", Label: "Date of birth", Default: "1990-07-14"}}, w.Params)

	// Not dates: numbers a field does not name as a day, two numbers either could be, a day
	// the month has not, a month with no year.
	for _, c := range []struct{ labels, values []string }{
		{[]string{"Guests", "Month", "Year"}, []string{"2", "December", "2026"}},
		{[]string{"Date", "Date", "Date"}, []string{"10", "12", "2026"}},
		{[]string{"Day", "Month", "Year"}, []string{"31", "November", "2026"}},
		{[]string{"Day", "Month", "Guests"}, []string{"9", "December", "2"}},
		{[]string{"Adults", "Children", "Rooms"}, []string{"2", "1", "1"}},
	} {
		w := recordParts(t, c.labels, c.values...)
		assert.Len(t, w.Params, 3, "%v", c)
	}

	// A value that is no date, for a date written in parts: said, not chosen.
	w = recordParts(t, []string{"Day", "Month", "Year"}, "9", "December", "2026")
	_, err = Fill(w.Steps[1].Args, map[string]string{"date": "soon"})
	assert.EqualError(t, err, "“soon”, the value of date, is no date to write {{date:d}} from")
	_, err = Fill(json.RawMessage(`{"text":"{{date:q}} {{date:}}"}`), map[string]string{"date": "2026-12-09"})
	require.NoError(t, err, "not placeholders: text as it is")
}

// What a page or a value gives the readers of dates, of results' addresses and of calendars'
// lists is anyone's text: none of them panics on it.
func FuzzTheDateReaders(f *testing.F) {
	f.Add("https://a.test/p/luigi-12/book?x=1", "Luigi", "https://a.test/p/chez-ana-13?y=2", "Chez Ana")
	f.Add(`combobox "M" [e7] value="Dec" options="Jan","Dec" combobox "Y" [e8] value="2026"`, "2026-12-09", "] value=", "mmmm yyyy:Fr")
	f.Add("Mittwoch, 2. Dezember 2026", "2 de diciembre de 2026", "Gen 2027", "dd.mm:de")
	f.Add("onsdag den 2. december 2026", "środa, 2 grudnia 2026", "Dec. 2, 2026 at 7:30 p.m.", "2. des. 2026")
	f.Add("2026 年 12月", "2026年12月02日", "2026년 12월 2일", "水曜日 2026年12月2日")
	f.Add("12月2日(水)", "2026年12月2日 星期三", "2026년 12월 2일 (수)", "2026年12月2日（水）")
	f.Add("среда, 2 декабря 2026 г.", "2026. december 2., szerda", "2026년 12월 2일 오후 3:00", "Τετάρτη 2 Δεκεμβρίου 2026")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, raw, was, href, now string) {
		monthOfLine(raw)
		if l, _, ok := cjkLayout(was); ok {
			// (a day of the week is written as the date's own, which may not be the one written)
			v := cjkEnglish(was)
			if d, err := time.Parse(l, v); err != nil || d.Format(l) != v && !strings.Contains(l, "Monday") {
				t.Errorf("%q read with %q: %v, written again %q", was, l, err, d.Format(l))
			}
		}
		calendarWords(was)
		lang := tongues[len(raw)%len(tongues)].code // (the page's language, one of them)
		dayWritten(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), href, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), lang)
		written(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "January 2006", now, lang)
		englishAs(was, lang)
		if en, tg := english(raw); tg != nil {
			inTongue(en, was, tg)
		}
		monthIn(href)
		dateIn(was)
		resultShape(raw, was)
		sameResult(raw, was, href, now)
		partLayout(now)
		datePart(was, now)
		dayWord(now)
		daysAfter(raw, href, lang)
		monthLists(raw)
		optionsAfter(href)
		partOf(Param{Label: raw, Default: was})
		countedFrom(href)
	})
}
