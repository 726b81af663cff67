package workflow

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Dates and months written with Japanese, Chinese and Korean markers ("2026年12月2日",
// "2026년 12월 2일", a jQuery UI calendar's "2026 年 12月") are read with a layout made from
// the text itself, each number by the marker after it, so that a date written again keeps
// the text's spacing and zeros.

// cjkMarks are what follows a year, a month and a day's number.
var cjkMarks = [3]string{"年년", "月월", "日일"}

// cjkWeekdays are the days of the week as Japanese, Chinese and Korean write them after a date,
// from Sunday, in full ("水曜日", "星期三", "수요일") and short ("水", "周三", "수"); some only
// between brackets ("2026年12月2日(水)").
var cjkWeekdays = [...]struct {
	days      [7]string
	bracketed bool
}{
	{[7]string{"日曜日", "月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日"}, false},
	{[7]string{"星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"}, false},
	{[7]string{"일요일", "월요일", "화요일", "수요일", "목요일", "금요일", "토요일"}, false},
	{[7]string{"周日", "周一", "周二", "周三", "周四", "周五", "周六"}, false},
	{[7]string{"週日", "週一", "週二", "週三", "週四", "週五", "週六"}, false},
	{[7]string{"日", "月", "火", "水", "木", "金", "土"}, true},
	{[7]string{"일", "월", "화", "수", "목", "금", "토"}, true},
}

// cjkWeekday finds the day of the week s ends with, written after a date's day as cjkWeekdays
// write it ("…2日水曜日", "…2日 星期三", "…2일 (수)", "…2日（水）"): where it is in s
// (s[at:end]), which of cjkWeekdays writes it, and the day.
func cjkWeekday(s string) (at, end, table int, day time.Weekday, ok bool) {
	if s == "" || s[len(s)-1] < utf8.RuneSelf && s[len(s)-1] != ')' {
		return 0, 0, 0, 0, false // (most text: read fast)
	}
	end = len(s)
	closed := false
	for _, c := range [...]string{")", "）"} {
		if t, found := strings.CutSuffix(s, c); found {
			end, closed = len(t), true
		}
	}
	for t, w := range cjkWeekdays {
		for d, name := range w.days {
			if !strings.HasSuffix(s[:end], name) {
				continue
			}
			at = end - len(name)
			before := strings.TrimRight(s[:at], " ")
			open := strings.HasSuffix(before, "(") || strings.HasSuffix(before, "（")
			if open != closed || w.bracketed && !open {
				continue
			}
			if open {
				before = strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(before, "("), "（"), " ")
			}
			// (after a day's marker only: "月" alone is a month's)
			if !strings.HasSuffix(before, "日") && !strings.HasSuffix(before, "일") {
				continue
			}
			return at, end, t, time.Weekday(d), true
		}
	}
	return 0, 0, 0, 0, false
}

// cjkEnglish is s with the day of the week it ends with (cjkWeekday) written in English
// ("2026年12月2日Wednesday"), as its layout reads it.
func cjkEnglish(s string) string {
	if at, end, _, d, ok := cjkWeekday(s); ok {
		return s[:at] + d.String() + s[end:]
	}
	return s
}

// cjkLayout is the layout of s as a Go time layout ("2006 年 1月", "2006年01月02日",
// "2006年1月2日(Monday)", "1月2日"), and whether s is a year and a month, or a day of a month
// (its year, and its day of the week after it, or not), written so (day says which it holds).
// It is no layout where s holds anything else but spaces.
func cjkLayout(s string) (layout string, day, ok bool) {
	// flatpickr's name of a day in Japanese or Korean ("12月 2, 2026": its "F j, Y", the month
	// named with its marker).
	if m, rest, found := strings.Cut(s, " "); found && len(m) > 3 && len(m) <= 5 && m[0] != '0' && digits(m[:len(m)-3]) && (strings.HasSuffix(m, "月") || strings.HasSuffix(m, "월")) {
		if d, y, found := strings.Cut(rest, ", "); found && len(d) <= 2 && digits(d) && d[0] != '0' && len(y) == 4 && digits(y) {
			return "1" + m[len(m)-3:] + " 2, 2006", true, true
		}
	}
	var week string // (the layout of a day of the week after the date: "(Monday)")
	if at, end, _, _, found := cjkWeekday(s); found {
		head := strings.TrimRight(s[:at], " (（")
		week = s[len(head):at] + "Monday" + s[end:]
		s = head
	}
	// (a month or a day written with its zero, "02日": both are)
	zero := false
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '0' && s[i+1] >= '0' && s[i+1] <= '9' && (i == 0 || s[i-1] < '0' || s[i-1] > '9') {
			zero = true
		}
	}
	var b strings.Builder
	seen := 0 // the parts written, in order: 1 a year, 2 and a month, 3 and a day
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			b.WriteByte(' ')
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i || j-i > 4 {
			return "", false, false
		}
		num := s[i:j]
		for j < len(s) && s[j] == ' ' {
			j++
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		if seen == 0 && len(num) <= 2 && strings.ContainsRune(cjkMarks[1], r) {
			seen = 1 // (a day without its year: "12月2日")
		}
		if seen == 3 || !strings.ContainsRune(cjkMarks[seen], r) {
			return "", false, false
		}
		switch {
		case seen == 0 && len(num) == 4:
			b.WriteString("2006")
		case seen > 0 && len(num) <= 2:
			if zero {
				b.WriteByte('0')
			}
			b.WriteByte("12"[seen-1]) // (a month's 1, a day's 2)
		default:
			return "", false, false
		}
		b.WriteString(s[i+len(num) : j+n])
		seen++
		i = j + n
	}
	year := strings.Contains(b.String(), "2006")
	if seen != 3 && (week != "" || !year) {
		return "", false, false
	}
	return b.String() + week, seen == 3, seen >= 2
}

// cjkDayLayout is the layout a day of a calendar whose month is written in layout (a year and
// a month) is kept in: its day's number and marker after its month's, as the language writes
// it ("2006年1月2日", "2006년 1월 2일"), or "" when layout is none such.
func cjkDayLayout(layout string) string {
	switch {
	case strings.Contains(layout, "年"):
		return "2006年1月2日"
	case strings.Contains(layout, "년"):
		return "2006년 1월 2일"
	}
	return ""
}

// digits says whether s is made of digits only, and not empty.
func digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
