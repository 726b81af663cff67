package workflow

import (
	"strings"
	"unicode/utf8"
)

// Dates and months written with Japanese, Chinese and Korean markers ("2026年12月2日",
// "2026년 12월 2일", a jQuery UI calendar's "2026 年 12月") are read with a layout made from
// the text itself, each number by the marker after it, so that a date written again keeps
// the text's spacing and zeros.

// cjkMarks are what follows a year, a month and a day's number.
var cjkMarks = [3]string{"年년", "月월", "日일"}

// cjkLayout is the layout of s as a Go time layout ("2006 年 1月", "2006年01月02日"), and
// whether s is a year and a month, or a year, a month and a day, written so (day says which it
// holds). It is no layout where s holds anything but the numbers, their markers and spaces (a
// day of the week: "水曜日" is no date a run can write again).
func cjkLayout(s string) (layout string, day, ok bool) {
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
	return b.String(), seen == 3, seen >= 2
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
