package workflow

import (
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Dates in words of another language than English ("mercredi 2 décembre 2026", "2. Dezember
// 2026", "2 de diciembre de 2026", "woensdag 2 december 2026", "onsdag den 2. december 2026",
// "2 grudnia 2026", "2. prosince 2026", "2 декабря 2026 г.", "2 Aralık 2026 Çarşamba", a
// calendar's "dicembre 2026", flatpickr's "十二月 2, 2026") are read as their English words are,
// word for word, and a value recorded so is written again in its own language.

// tongue is a language dates are written in words in, as its calendars write them (jQuery UI's
// and the browsers' own names).
//
// A short name may be written more ways than one, between "|" ("lut|lu": the browsers' and
// jQuery UI's): each is read, the first is written.
type tongue struct {
	code    string        // the language's code, which a date part's pattern ends with (":de")
	months  [12][2]string // in full and short, from January (time.Month)
	of      [12]string    // a month's full name after its day, where it is another ("2 grudnia", of "grudzień"), or ""; its ways between "|"
	days    [7][2]string  // in full and short, from Sunday (time.Weekday)
	first   string        // the first of a month as a word of its own ("1er"), or ""
	join    string        // the word between a date's day, month and year ("2 de diciembre de 2026"), or ""
	before  string        // a word that may be written before a date's day ("onsdag den 2."), or ""
	year    string        // a word that may be written after a date's year ("2026 г."), or ""
	layout  string        // how it writes a day ("2006. January 2."), when not as "2 January 2006"
	dotDay  bool          // a day may be written with a dot before its month ("2. Dezember")
	yearDot bool          // its year is written with a dot after it ("2. prosinca 2026.")
	// bareMonth: its dates in figures write a month without a zero ("1.1.2027", not "1.01.2027")
	bareMonth bool
}

// tongues are the languages read besides English; where a date's words could be two of them,
// the first.
var tongues = [...]tongue{
	{code: "fr", first: "1er",
		months: [12][2]string{{"janvier", "janv."}, {"février", "févr."}, {"mars", "mars"}, {"avril", "avr."}, {"mai", "mai"}, {"juin", "juin"},
			{"juillet", "juil."}, {"août", "août"}, {"septembre", "sept."}, {"octobre", "oct."}, {"novembre", "nov."}, {"décembre", "déc."}},
		days: [7][2]string{{"dimanche", "dim."}, {"lundi", "lun."}, {"mardi", "mar."}, {"mercredi", "mer."}, {"jeudi", "jeu."}, {"vendredi", "ven."}, {"samedi", "sam."}}},
	{code: "de", bareMonth: true, dotDay: true,
		months: [12][2]string{{"Januar", "Jan."}, {"Februar", "Feb."}, {"März", "Mär."}, {"April", "Apr."}, {"Mai", "Mai"}, {"Juni", "Jun."},
			{"Juli", "Jul."}, {"August", "Aug."}, {"September", "Sep."}, {"Oktober", "Okt."}, {"November", "Nov."}, {"Dezember", "Dez."}},
		days: [7][2]string{{"Sonntag", "So."}, {"Montag", "Mo."}, {"Dienstag", "Di."}, {"Mittwoch", "Mi."}, {"Donnerstag", "Do."}, {"Freitag", "Fr."}, {"Samstag", "Sa."}}},
	{code: "es", join: "de",
		months: [12][2]string{{"enero", "ene"}, {"febrero", "feb"}, {"marzo", "mar"}, {"abril", "abr"}, {"mayo", "may"}, {"junio", "jun"},
			{"julio", "jul"}, {"agosto", "ago"}, {"septiembre", "sept"}, {"octubre", "oct"}, {"noviembre", "nov"}, {"diciembre", "dic"}},
		days: [7][2]string{{"domingo", "dom"}, {"lunes", "lun"}, {"martes", "mar"}, {"miércoles", "mié"}, {"jueves", "jue"}, {"viernes", "vie"}, {"sábado", "sáb"}}},
	{code: "it",
		months: [12][2]string{{"gennaio", "gen"}, {"febbraio", "feb"}, {"marzo", "mar"}, {"aprile", "apr"}, {"maggio", "mag"}, {"giugno", "giu"},
			{"luglio", "lug"}, {"agosto", "ago"}, {"settembre", "set"}, {"ottobre", "ott"}, {"novembre", "nov"}, {"dicembre", "dic"}},
		days: [7][2]string{{"domenica", "dom"}, {"lunedì", "lun"}, {"martedì", "mar"}, {"mercoledì", "mer"}, {"giovedì", "gio"}, {"venerdì", "ven"}, {"sabato", "sab"}}},
	{code: "nl",
		months: [12][2]string{{"januari", "jan"}, {"februari", "feb"}, {"maart", "mrt"}, {"april", "apr"}, {"mei", "mei"}, {"juni", "jun"},
			{"juli", "jul"}, {"augustus", "aug"}, {"september", "sep"}, {"oktober", "okt"}, {"november", "nov"}, {"december", "dec"}},
		days: [7][2]string{{"zondag", "zo"}, {"maandag", "ma"}, {"dinsdag", "di"}, {"woensdag", "wo"}, {"donderdag", "do"}, {"vrijdag", "vr"}, {"zaterdag", "za"}}},
	{code: "pt", join: "de",
		months: [12][2]string{{"janeiro", "jan"}, {"fevereiro", "fev"}, {"março", "mar"}, {"abril", "abr"}, {"maio", "mai"}, {"junho", "jun"},
			{"julho", "jul"}, {"agosto", "ago"}, {"setembro", "set"}, {"outubro", "out"}, {"novembro", "nov"}, {"dezembro", "dez"}},
		days: [7][2]string{{"domingo", "dom"}, {"segunda-feira", "seg"}, {"terça-feira", "ter"}, {"quarta-feira", "qua"}, {"quinta-feira", "qui"}, {"sexta-feira", "sex"}, {"sábado", "sáb"}}},
	{code: "sv",
		months: [12][2]string{{"januari", "jan."}, {"februari", "feb."}, {"mars", "mars"}, {"april", "apr."}, {"maj", "maj"}, {"juni", "juni"},
			{"juli", "juli"}, {"augusti", "aug."}, {"september", "sep."}, {"oktober", "okt."}, {"november", "nov."}, {"december", "dec."}},
		days: [7][2]string{{"söndag", "sön"}, {"måndag", "mån"}, {"tisdag", "tis"}, {"onsdag", "ons"}, {"torsdag", "tors|tor"}, {"fredag", "fre"}, {"lördag", "lör"}}},
	{code: "da", bareMonth: true, dotDay: true, before: "den",
		months: [12][2]string{{"januar", "jan."}, {"februar", "feb."}, {"marts", "mar."}, {"april", "apr."}, {"maj", "maj"}, {"juni", "jun."},
			{"juli", "jul."}, {"august", "aug."}, {"september", "sep."}, {"oktober", "okt."}, {"november", "nov."}, {"december", "dec."}},
		days: [7][2]string{{"søndag", "søn."}, {"mandag", "man."}, {"tirsdag", "tirs.|tir."}, {"onsdag", "ons."}, {"torsdag", "tors.|tor."}, {"fredag", "fre."}, {"lørdag", "lør."}}},
	{code: "nb", bareMonth: true, dotDay: true,
		months: [12][2]string{{"januar", "jan."}, {"februar", "feb."}, {"mars", "mars|mar."}, {"april", "apr."}, {"mai", "mai"}, {"juni", "juni|jun."},
			{"juli", "juli|jul."}, {"august", "aug."}, {"september", "sep."}, {"oktober", "okt."}, {"november", "nov."}, {"desember", "des."}},
		days: [7][2]string{{"søndag", "søn."}, {"mandag", "man."}, {"tirsdag", "tir."}, {"onsdag", "ons."}, {"torsdag", "tor."}, {"fredag", "fre."}, {"lørdag", "lør."}}},
	{code: "pl",
		months: [12][2]string{{"styczeń", "sty"}, {"luty", "lut|lu"}, {"marzec", "mar"}, {"kwiecień", "kwi|kw"}, {"maj", "maj"}, {"czerwiec", "cze"},
			{"lipiec", "lip"}, {"sierpień", "sie"}, {"wrzesień", "wrz"}, {"październik", "paź|pa"}, {"listopad", "lis"}, {"grudzień", "gru"}},
		of:   [12]string{"stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia"},
		days: [7][2]string{{"niedziela", "niedz.|nie"}, {"poniedziałek", "pon.|pn"}, {"wtorek", "wt."}, {"środa", "śr."}, {"czwartek", "czw."}, {"piątek", "pt."}, {"sobota", "sob.|so"}}},
	{code: "cs", dotDay: true,
		months: [12][2]string{{"leden", "led"}, {"únor", "úno"}, {"březen", "bře"}, {"duben", "dub"}, {"květen", "kvě"}, {"červen", "čvn|čer"},
			{"červenec", "čvc"}, {"srpen", "srp"}, {"září", "zář"}, {"říjen", "říj"}, {"listopad", "lis"}, {"prosinec", "pro"}},
		of:   [12]string{"ledna", "února", "března", "dubna", "května", "června", "července", "srpna", "září", "října", "listopadu", "prosince"},
		days: [7][2]string{{"neděle", "ne"}, {"pondělí", "po"}, {"úterý", "út"}, {"středa", "st"}, {"čtvrtek", "čt"}, {"pátek", "pá"}, {"sobota", "so"}}},
	{code: "ru", year: "г.",
		months: [12][2]string{{"январь", "янв.|янв"}, {"февраль", "февр.|фев"}, {"март", "мар.|мар"}, {"апрель", "апр.|апр"}, {"май", "май"}, {"июнь", "июн.|июн"},
			{"июль", "июл.|июл"}, {"август", "авг.|авг"}, {"сентябрь", "сент.|сен"}, {"октябрь", "окт.|окт"}, {"ноябрь", "нояб.|ноя"}, {"декабрь", "дек.|дек"}},
		of:   [12]string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"},
		days: [7][2]string{{"воскресенье", "вс|вск"}, {"понедельник", "пн|пнд"}, {"вторник", "вт|втр"}, {"среда", "ср|срд"}, {"четверг", "чт|чтв"}, {"пятница", "пт|птн"}, {"суббота", "сб|сбт"}}},
	{code: "tr",
		months: [12][2]string{{"Ocak", "Oca"}, {"Şubat", "Şub"}, {"Mart", "Mar"}, {"Nisan", "Nis"}, {"Mayıs", "May"}, {"Haziran", "Haz"},
			{"Temmuz", "Tem"}, {"Ağustos", "Ağu"}, {"Eylül", "Eyl"}, {"Ekim", "Eki"}, {"Kasım", "Kas"}, {"Aralık", "Ara"}},
		days: [7][2]string{{"Pazar", "Paz"}, {"Pazartesi", "Pzt"}, {"Salı", "Sal"}, {"Çarşamba", "Çar"}, {"Perşembe", "Per"}, {"Cuma", "Cum"}, {"Cumartesi", "Cmt"}}},
	{code: "uk", year: "р.",
		months: [12][2]string{{"січень", "січ.|січ"}, {"лютий", "лют.|лют"}, {"березень", "бер.|бер"}, {"квітень", "квіт.|кві"}, {"травень", "трав.|тра"}, {"червень", "черв.|чер"},
			{"липень", "лип.|лип"}, {"серпень", "серп.|сер"}, {"вересень", "вер.|вер"}, {"жовтень", "жовт.|жов"}, {"листопад", "лист.|лис"}, {"грудень", "груд.|гру"}},
		of:   [12]string{"січня", "лютого", "березня", "квітня", "травня", "червня", "липня", "серпня", "вересня", "жовтня", "листопада", "грудня"},
		days: [7][2]string{{"неділя", "нд"}, {"понеділок", "пн"}, {"вівторок", "вт"}, {"середа", "ср"}, {"четвер", "чт"}, {"пʼятниця", "пт"}, {"субота", "сб"}}},
	{code: "fi", bareMonth: true, dotDay: true,
		months: [12][2]string{{"tammikuu", "tammi"}, {"helmikuu", "helmi"}, {"maaliskuu", "maalis"}, {"huhtikuu", "huhti"}, {"toukokuu", "touko"}, {"kesäkuu", "kesä"},
			{"heinäkuu", "heinä"}, {"elokuu", "elo"}, {"syyskuu", "syys"}, {"lokakuu", "loka"}, {"marraskuu", "marras"}, {"joulukuu", "joulu"}},
		of: [12]string{"tammikuuta", "helmikuuta", "maaliskuuta", "huhtikuuta", "toukokuuta", "kesäkuuta", "heinäkuuta", "elokuuta", "syyskuuta", "lokakuuta",
			"marraskuuta", "joulukuuta"},
		days: [7][2]string{{"sunnuntai", "su"}, {"maanantai", "ma"}, {"tiistai", "ti"}, {"keskiviikko", "ke"}, {"torstai", "to"}, {"perjantai", "pe"}, {"lauantai", "la"}}},
	// (Hungarian writes its year first: "2026. december 2.", dateLayouts)
	{code: "hu", layout: "2006. January 2.",
		months: [12][2]string{{"január", "jan."}, {"február", "febr.|feb"}, {"március", "márc.|már"}, {"április", "ápr.|ápr"}, {"május", "máj.|máj"}, {"június", "jún.|jún"},
			{"július", "júl.|júl"}, {"augusztus", "aug."}, {"szeptember", "szept.|szep"}, {"október", "okt."}, {"november", "nov."}, {"december", "dec."}},
		days: [7][2]string{{"vasárnap", "V"}, {"hétfő", "H"}, {"kedd", "K"}, {"szerda", "Sze"}, {"csütörtök", "Cs"}, {"péntek", "P"}, {"szombat", "Szo"}}},
	{code: "el",
		months: [12][2]string{{"Ιανουάριος", "Ιαν"}, {"Φεβρουάριος", "Φεβ"}, {"Μάρτιος", "Μαρ"}, {"Απρίλιος", "Απρ"}, {"Μάιος", "Μαΐ|Μαι"}, {"Ιούνιος", "Ιουν"},
			{"Ιούλιος", "Ιουλ"}, {"Αύγουστος", "Αυγ"}, {"Σεπτέμβριος", "Σεπ"}, {"Οκτώβριος", "Οκτ"}, {"Νοέμβριος", "Νοε"}, {"Δεκέμβριος", "Δεκ"}},
		of: [12]string{"Ιανουαρίου", "Φεβρουαρίου", "Μαρτίου", "Απριλίου", "Μαΐου", "Ιουνίου", "Ιουλίου", "Αυγούστου", "Σεπτεμβρίου", "Οκτωβρίου",
			"Νοεμβρίου", "Δεκεμβρίου"},
		days: [7][2]string{{"Κυριακή", "Κυρ"}, {"Δευτέρα", "Δευ"}, {"Τρίτη", "Τρί"}, {"Τετάρτη", "Τετ"}, {"Πέμπτη", "Πέμ"}, {"Παρασκευή", "Παρ"}, {"Σάββατο", "Σάβ"}}},
	{code: "sk", dotDay: true,
		months: [12][2]string{{"január", "jan"}, {"február", "feb"}, {"marec", "mar"}, {"apríl", "apr"}, {"máj", "máj"}, {"jún", "jún"},
			{"júl", "júl"}, {"august", "aug"}, {"september", "sep"}, {"október", "okt"}, {"november", "nov"}, {"december", "dec"}},
		of:   [12]string{"januára", "februára", "marca", "apríla", "mája", "júna", "júla", "augusta", "septembra", "októbra", "novembra", "decembra"},
		days: [7][2]string{{"nedeľa", "ne"}, {"pondelok", "po"}, {"utorok", "ut"}, {"streda", "st"}, {"štvrtok", "št"}, {"piatok", "pi"}, {"sobota", "so"}}},
	// (after Polish and Czech, whose "listopad" is November: a page saying lang="hr", or a day
	// with its dot before "listopada", tells)
	{code: "hr", dotDay: true, yearDot: true,
		months: [12][2]string{{"siječanj", "sij"}, {"veljača", "velj"}, {"ožujak", "ožu"}, {"travanj", "tra"}, {"svibanj", "svi"}, {"lipanj", "lip"},
			{"srpanj", "srp"}, {"kolovoz", "kol"}, {"rujan", "ruj"}, {"listopad", "lis"}, {"studeni", "stu"}, {"prosinac", "pro"}},
		of: [12]string{"siječnja", "veljače", "ožujka", "travnja", "svibnja", "lipnja", "srpnja", "kolovoza", "rujna", "listopada",
			"studenoga|studenog", "prosinca"},
		days: [7][2]string{{"nedjelja", "ned"}, {"ponedjeljak", "pon"}, {"utorak", "uto"}, {"srijeda", "sri"}, {"četvrtak", "čet"}, {"petak", "pet"}, {"subota", "sub"}}},
	{code: "bg", year: "г.",
		months: [12][2]string{{"януари", "яну"}, {"февруари", "фев"}, {"март", "мар"}, {"април", "апр"}, {"май", "май"}, {"юни", "юни"},
			{"юли", "юли"}, {"август", "авг"}, {"септември", "сеп"}, {"октомври", "окт"}, {"ноември", "ное"}, {"декември", "дек"}},
		days: [7][2]string{{"неделя", "нд"}, {"понеделник", "пн"}, {"вторник", "вт"}, {"сряда", "ср"}, {"четвъртък", "чт"}, {"петък", "пт"}, {"събота", "сб"}}},
	{code: "ro",
		months: [12][2]string{{"ianuarie", "ian."}, {"februarie", "feb."}, {"martie", "mar."}, {"aprilie", "apr."}, {"mai", "mai"}, {"iunie", "iun."},
			{"iulie", "iul."}, {"august", "aug."}, {"septembrie", "sept.|sep"}, {"octombrie", "oct."}, {"noiembrie", "nov."}, {"decembrie", "dec."}},
		days: [7][2]string{{"duminică", "dum."}, {"luni", "lun."}, {"marți", "mar."}, {"miercuri", "mie."}, {"joi", "joi"}, {"vineri", "vin."}, {"sâmbătă", "sâm."}}},
	// (after Dutch and Norwegian, whose "januari", "mei", "desember" it shares: a page saying
	// lang="id" tells)
	{code: "id",
		months: [12][2]string{{"Januari", "Jan"}, {"Februari", "Feb"}, {"Maret", "Mar"}, {"April", "Apr"}, {"Mei", "Mei"}, {"Juni", "Jun"},
			{"Juli", "Jul"}, {"Agustus", "Agu|Agus"}, {"September", "Sep"}, {"Oktober", "Okt"}, {"November", "Nov|Nop"}, {"Desember", "Des"}},
		days: [7][2]string{{"Minggu", "Min"}, {"Senin", "Sen"}, {"Selasa", "Sel"}, {"Rabu", "Rab"}, {"Kamis", "Kam"}, {"Jumat", "Jum"}, {"Sabtu", "Sab"}}},
	// Chinese months named in its numerals (flatpickr's "十二月 2, 2026", jQuery UI's "2026年
	// 十二月"); its days of the week are read after a date's marks (cjkWeekdays).
	{code: "zh",
		months: [12][2]string{{"一月", "一月"}, {"二月", "二月"}, {"三月", "三月"}, {"四月", "四月"}, {"五月", "五月"}, {"六月", "六月"},
			{"七月", "七月"}, {"八月", "八月"}, {"九月", "九月"}, {"十月", "十月"}, {"十一月", "十一月"}, {"十二月", "十二月"}}},
}

// tongueOf is the language of code, or nil.
func tongueOf(code string) *tongue {
	for i := range tongues {
		if tongues[i].code == code {
			return &tongues[i]
		}
	}
	return nil
}

// bare is a word as it may be written: in small letters, without its accents or its final dot.
func bare(w string) string {
	w = strings.TrimSuffix(strings.ToLower(w), ".")
	if !strings.ContainsFunc(w, func(r rune) bool { return r > unicode.MaxASCII }) {
		return w
	}
	var b strings.Builder
	for _, r := range w {
		b.WriteRune(unmarked(r))
	}
	return b.String()
}

// namesOf is, for each language of tongues, what the name of a month or a day of the week,
// bare, stands for: its English name, in full or short; and the English names, bare (made when
// first needed: nothing runs as the worker starts).
var namesOf = sync.OnceValues(func() ([len(tongues)]map[string]string, map[string]bool) {
	var out [len(tongues)]map[string]string
	en := map[string]bool{"sept": true}
	for i := range 12 {
		m := time.Month(i + 1).String()
		en[bare(m)], en[bare(m[:3])] = true, true
	}
	for i := range 7 {
		d := time.Weekday(i).String()
		en[bare(d)], en[bare(d[:3])] = true, true
	}
	for t, tg := range tongues {
		m := map[string]string{}
		put := func(names [2]string, of, e string) {
			if names[0] == "" {
				return // (a language whose days are not in its row)
			}
			for n := range strings.SplitSeq(names[1], "|") {
				m[bare(n)] = e[:3]
			}
			m[bare(names[0])] = e
			for n := range strings.SplitSeq(of, "|") {
				if n != "" {
					m[bare(n)] = e
				}
			}
		}
		for i, names := range tg.months {
			put(names, tg.of[i], time.Month(i+1).String())
		}
		for i, names := range tg.days {
			put(names, "", time.Weekday(i).String())
		}
		out[t] = m
	}
	return out, en
})

// notEvidence are names of months or days short in another language that are English words
// too ("out", "set", "ago", "man") or common words of another ("des"): alone they make no text
// another language's.
var notEvidence = [...]string{"out", "set", "sex", "gen", "mag", "ago", "ven", "dom", "ter", "qua", "qui", "sab", "seg",
	"man", "son", "tor", "ons", "des", "lip", "sob", "sie", "nie", "led", "dub", "pro", "per", "cum", "paz", "sal", "tem", "elo",
	"pet", "sub", "stu", "tra", "kol"}

// english is s with each name of a month or a day of the week of the language it is written in
// written as its English one (full or short as it was: "déc." is "Dec"), its first of a month
// ("1er"), a day's dot ("2.") and the words that join its parts ("de", "den") left out, and
// the language, or nil when s is English or no date's words: that with the most of its words
// that are its names and no English ones ("décembre", "déc.", "Dezember"; not "Dec", "Nov" or
// "Mar"), its way of writing a day counting a little too ("2. dec." is Danish).
func english(s string) (string, *tongue) {
	words := strings.Fields(s)
	names, en := namesOf()
	var score [len(tongues)]int
	best := -1
	count := func(t, n int) {
		score[t] += n
		if best < 0 || score[t] > score[best] {
			best = t
		}
	}
	for i, w := range words {
		core := strings.TrimRight(w, ",;")
		b := bare(core)
		// A day's dot before one of a language's names, the word before a day: its way of
		// writing a date ("2. dec." is Danish, "den 2." too; "2 dec." Swedish or English).
		if i+1 < len(words) {
			next := ""
			for t := range tongues {
				tg := &tongues[t]
				if tg.before != "" && strings.EqualFold(core, tg.before) && isDay(words[i+1]) {
					count(t, 1)
				}
				if tg.dotDay && dotted(core) {
					if next == "" {
						next = bare(strings.TrimRight(words[i+1], ",;"))
					}
					if names[t][next] != "" {
						count(t, 1)
					}
				}
			}
		}
		if i > 0 && i == len(words)-1 && yearDotted(core) {
			// A year's dot at the end, after a language's names ("2. pro 2026." is Croatian,
			// "2. pro 2026" Czech).
			for t := range tongues {
				if tongues[t].yearDot && score[t] > 0 {
					count(t, 1)
				}
			}
		}
		if len(b) < 3 || slices.Contains(notEvidence[:], strings.TrimSuffix(strings.ToLower(core), ".")) {
			continue
		}
		if en[strings.TrimSuffix(strings.ToLower(core), ".")] {
			continue // (an English name: "Dec"; "déc." is French)
		}
		for t := range tongues {
			if _, ok := names[t][b]; ok || core == tongues[t].first {
				n := 2
				if tongues[t].writes(core) {
					n++ // (written as the language writes it: "dez" is Portuguese, "Dez." German)
				}
				count(t, n)
			}
		}
	}
	if best < 0 {
		return s, nil
	}
	return tongues[best].english(words, names[best]), &tongues[best]
}

// englishAs is english(s) where the page says its words are in lang (Target.Lang, Param.Lang):
// s is read as lang's where each of its names is one of lang's as lang writes them, though they
// are English words too or another language's as well ("december 2026" on a Swedish page, "maj"
// on a Polish one), and is not written as English writes a date ("December 2, 2026").
func englishAs(s, lang string) (string, *tongue) {
	en, tg := english(s)
	l := tongueOf(lang)
	if l == nil || tg == l || !l.speaks(s) {
		return en, tg
	}
	return l.english(strings.Fields(s), namesIn(l)), l
}

// speaks says whether each name of a month or a day in s is one of tg's as tg writes it, and
// there is one, and s is no date in English's order ("December 2, 2026").
func (tg *tongue) speaks(s string) bool {
	names, en := namesOf()
	words := strings.Fields(s)
	some := false
	for i, w := range words {
		core := strings.TrimRight(w, ",;")
		b := bare(core)
		english := en[strings.TrimSuffix(strings.ToLower(core), ".")]
		name := english
		for t := range names {
			_, ok := names[t][b]
			name = name || ok
		}
		if !name {
			continue
		}
		if !tg.writes(core) {
			return false
		}
		if english && i > 0 && isDay(words[i-1]) && !dotted(words[i-1]) && tg.lower() && unicode.IsUpper([]rune(core)[0]) {
			// "2 December 2026": English's capital after a day, where tg writes "december".
			// (A calendar's title may write it so: jQuery UI's Danish "December 2026".)
			return false
		}
		if i+1 < len(words) && isDay(words[i+1]) && strings.HasSuffix(words[i+1], ",") {
			return false // (a month, its day and a comma: English's order)
		}
		some = true
	}
	return some
}

// lower says whether tg writes its months' names without a capital ("december").
func (tg *tongue) lower() bool {
	r := []rune(tg.months[0][0])
	return len(r) > 0 && unicode.IsLower(r[0])
}

// english is words, a date in tg's words, in English's (names, namesIn(tg)), as english says.
func (tg *tongue) english(words []string, names map[string]string) string {
	out := words[:0:0]
	for i, w := range words {
		core := strings.TrimRight(w, ",;")
		tail := w[len(core):]
		switch {
		case core == tg.first && tg.first != "":
			out = append(out, "1"+tail)
		case tg.join != "" && strings.ToLower(w) == tg.join:
			// (left out)
		case tg.year != "" && w == tg.year && i > 0 && len(words[i-1]) == 4 && digits(words[i-1]):
			// (left out: "2026 г.")
		case tg.before != "" && strings.ToLower(w) == tg.before && i+1 < len(words) && isDay(words[i+1]):
			// (left out)
		case tg.dotDay && dotted(core) && i+1 < len(words) && names[bare(strings.TrimRight(words[i+1], ",;"))] != "":
			out = append(out, core[:len(core)-1]+tail)
		case tg.yearDot && yearDotted(core):
			out = append(out, core[:4]+tail) // 2026.
		default:
			if e, ok := names[bare(core)]; ok {
				// A name a month and a day share ("mar": marzo and martes) in a month's
				// place, after a day or before a year, is the month's.
				year := i+1 < len(words) && digits(strings.TrimRight(words[i+1], ",.")) && len(strings.TrimRight(words[i+1], ",.")) == 4
				if !isMonth(e) && (i > 0 && isDay(words[i-1]) || year) {
					if m, ok := tg.month(bare(core)); ok {
						e = m
					}
				}
				w = e + tail
			}
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// month is the English name of tg's month whose name, bare, is b (in full, or short), if one is.
func (tg *tongue) month(b string) (string, bool) {
	for i, names := range tg.months {
		e := time.Month(i + 1).String()
		if bare(names[0]) == b || tg.of[i] != "" && slices.ContainsFunc(strings.Split(tg.of[i], "|"), func(n string) bool { return bare(n) == b }) {
			return e, true
		}
		for n := range strings.SplitSeq(names[1], "|") {
			if bare(n) == b {
				return e[:3], true
			}
		}
	}
	return "", false
}

// pageTongue is the code of the language of tongues a page's lang names ("sv"; Norwegian's
// "no" and "nn" are "nb"), or "".
func pageTongue(lang string) string {
	if lang == "no" || lang == "nn" {
		lang = "nb"
	}
	if tongueOf(lang) == nil {
		return ""
	}
	return lang
}

// namesIn is namesOf's for tg.
func namesIn(tg *tongue) map[string]string {
	names, _ := namesOf()
	for i := range tongues {
		if &tongues[i] == tg {
			return names[i]
		}
	}
	return nil
}

// writes says whether w is one of tg's names of a month or a day as tg writes it, but for its
// capitals.
func (tg *tongue) writes(w string) bool {
	is := func(names string) bool { // (one name, or its ways between "|")
		for names != "" {
			var n string
			n, names, _ = strings.Cut(names, "|")
			if strings.EqualFold(n, w) {
				return true
			}
		}
		return false
	}
	for _, names := range tg.months {
		if is(names[0]) || is(names[1]) {
			return true
		}
	}
	for _, names := range tg.days {
		if is(names[0]) || is(names[1]) {
			return true
		}
	}
	return slices.ContainsFunc(tg.of[:], is)
}

// short is a short name as tg writes it (the first of its ways).
func short(name string) string {
	n, _, _ := strings.Cut(name, "|")
	return n
}

// isDay says whether w is a day of a month in figures ("2", "02", "2."), but for a comma after it.
func isDay(w string) bool {
	n := strings.TrimSuffix(strings.TrimRight(w, ","), ".")
	return len(n) > 0 && len(n) <= 2 && strings.Trim(n, "0123456789") == ""
}

// dotted says whether w is a day of a month written with a dot ("2.").
func dotted(w string) bool { return strings.HasSuffix(w, ".") && isDay(w) }

// yearDotted says whether w is a year written with a dot after it ("2026.").
func yearDotted(w string) bool {
	y, ok := strings.CutSuffix(w, ".")
	return ok && len(y) == 4 && digits(y)
}

// inTongue is date, written in English words, in tg's words as recorded wrote its own: its first
// letter in capitals when recorded's was, the first of a month, a day's dot and the words that
// join its parts when recorded wrote them; a day as the language writes one where recorded
// wrote none (a calendar's "diciembre 2026": "1 de enero de 2027").
func inTongue(date, recorded string, tg *tongue) string {
	rec := strings.Fields(recorded)
	natural := !slices.ContainsFunc(rec, isDay) && slices.ContainsFunc(strings.Fields(date), isDay)
	first := tg.first != "" && (slices.Contains(rec, tg.first) || natural)
	dot := tg.dotDay && (slices.ContainsFunc(rec, dotted) || natural)
	join := tg.join != "" && (slices.ContainsFunc(rec, func(w string) bool { return strings.ToLower(w) == tg.join }) || natural)
	before := tg.before != "" && slices.ContainsFunc(rec, func(w string) bool { return strings.ToLower(w) == tg.before })
	year := tg.year != "" && (slices.Contains(rec, tg.year) || natural)
	yearDot := tg.yearDot && (slices.ContainsFunc(rec, func(w string) bool { return yearDotted(strings.TrimRight(w, ",;")) }) || natural)
	// A month's name after its day in the form the language writes there ("1 stycznia", "1
	// января"; in capitals where recorded wrote one so), unless recorded wrote it otherwise
	// after a day ("2 maj 2027"): a calendar's "Grudzień 2026" has a day written so.
	isOf := func(w string) bool {
		b := bare(strings.TrimRight(w, ",;"))
		return slices.ContainsFunc(tg.of[:], func(of string) bool {
			return of != "" && slices.ContainsFunc(strings.Split(of, "|"), func(n string) bool { return bare(n) == b })
		})
	}
	of, capOf := tg.of[0] != "", false
	for i, w := range rec {
		if isOf(w) {
			capOf = capOf || unicode.IsUpper([]rune(w)[0])
		} else if i > 0 && isDay(rec[i-1]) && slices.ContainsFunc(tg.months[:], func(n [2]string) bool { return bare(n[0]) == bare(strings.TrimRight(w, ",;")) }) {
			of = false
		}
	}
	// Names in capitals where recorded wrote one so: a month's anywhere (Italian calendars'
	// "Dicembre 2026"), a day's but as the first word ("Mercredi 2 décembre").
	names := namesIn(tg)
	var capMonth, capDay bool
	for i, w := range rec {
		if e, ok := names[bare(strings.TrimRight(w, ",;"))]; ok && unicode.IsUpper([]rune(w)[0]) {
			if _, err := time.Parse("Jan", e[:3]); err == nil {
				capMonth = true
			} else if i > 0 {
				capDay = true
			}
		}
	}
	title := func(w string, yes bool) string {
		if r := []rune(w); yes && len(r) > 0 {
			r[0] = unicode.ToUpper(r[0])
			return string(r)
		}
		return w
	}
	var out []string
	month := -1 // the index in out of the last month's name written
	for _, w := range strings.Fields(date) {
		core := strings.TrimRight(w, ",")
		tail := w[len(core):]
		isMonth := false
		afterDay := len(out) > 0 && isDay(out[len(out)-1])
		for m := range 12 {
			switch core {
			case time.Month(m + 1).String():
				w, isMonth = title(tg.months[m][0], capMonth)+tail, true
				if of && afterDay && tg.of[m] != "" {
					w = title(short(tg.of[m]), capOf) + tail // 2 grudnia
				}
			case time.Month(m + 1).String()[:3]:
				w, isMonth = title(short(tg.months[m][1]), capMonth)+tail, true
			}
		}
		for d := range 7 {
			switch core {
			case time.Weekday(d).String():
				w = title(tg.days[d][0], capDay) + tail
			case time.Weekday(d).String()[:3]:
				w = title(short(tg.days[d][1]), capDay) + tail
			}
		}
		number := core != "" && strings.Trim(core, "0123456789") == ""
		switch {
		case number && core == "1" && first:
			w = tg.first + tail
		case number && len(core) == 4 && join && month == len(out)-1 && month >= 0:
			out = append(out, tg.join) // diciembre de 2026
		}
		if isMonth && len(out) > 0 {
			if prev := out[len(out)-1]; strings.Trim(strings.TrimSuffix(prev, "."), "0123456789") == "" && prev != "" {
				if dot && !strings.HasSuffix(prev, ".") {
					out[len(out)-1] = prev + "." // 2. Dezember
				}
				if before {
					out = slices.Insert(out, len(out)-1, tg.before) // den 2. december
				}
				if join {
					out = append(out, tg.join) // 2 de diciembre
				}
			}
		}
		if isMonth {
			month = len(out)
		}
		if yearDot && number && len(core) == 4 && tail == "" {
			w += "." // 2026.
		}
		out = append(out, w)
		if year && number && len(core) == 4 && tail == "" {
			out = append(out, tg.year) // 2026 г.
		}
	}
	s := strings.Join(out, " ")
	if r := []rune(strings.TrimSpace(recorded)); len(r) > 0 && unicode.IsUpper(r[0]) && s != "" {
		o := []rune(s)
		o[0] = unicode.ToUpper(o[0])
		s = string(o)
	}
	return s
}
