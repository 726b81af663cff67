package i18n

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Languages are the user's languages Skiff speaks (ui/_locales).
var Languages = []string{"en", "fr"}

// Text is a sentence for the user as a catalog key and its arguments. The core builds it; the
// panel renders it in the language chosen in Settings when it shows it (a switch re-renders a
// stored chat's texts), and anything without a catalog at hand (an export, an audit entry,
// an old panel) reads its English.
type Text struct {
	Key  string `json:"key"`
	Args []any  `json:"args,omitempty"`
	// En is the English of a text that is an argument of another (where a text is stored,
	// its English is stored beside it).
	En      string `json:"en,omitempty"`
	english string
}

// Sentence is one of the core's sentences for the user: its catalog key and its English, with
// $1, $2… where the arguments go (as in the catalogs). One, when set, is the English for a count
// of 1 (the first argument): the catalogs then hold key_one and key_other. Sentences are
// package-level literals (static data, no work at start-up); a test finds every one in the
// source and holds it to the catalogs.
type Sentence struct {
	Key, English, One string
}

// Verbatim is words for the user that exist only as they came (skiffd's, an agent's, a page's
// own, a field check's): no catalog has them, and every language shows them as they are.
func Verbatim(s string) Text { return Text{english: s} }

// With is the sentence with its arguments, as a Text.
func (s Sentence) With(args ...any) Text {
	for i, a := range args {
		switch v := a.(type) {
		case string, int, int64, float64:
		case Text:
			args[i] = nested(v)
		case List:
			for j, x := range v {
				if t, ok := x.(Text); ok {
					v[j] = nested(t)
				}
			}
		case error:
			// An error already written for the user goes in as its sentence, so it reads in
			// the user's language inside this one too.
			var ie *Error
			if errors.As(v, &ie) {
				args[i] = nested(ie.Text)
			} else {
				args[i] = v.Error()
			}
		default:
			args[i] = fmt.Sprint(v)
		}
	}
	msg := s.English
	if s.One != "" && len(args) > 0 && count(args[0]) == 1 {
		msg = s.One
	}
	return Text{Key: s.Key, Args: args, english: Fill(msg, args)}
}

// nested is a text as an argument of another: a verbatim one is its words; one with a key keeps
// its English for a catalog that lacks the key.
func nested(t Text) any {
	if t.Key == "" {
		return t.english
	}
	t.En = t.english
	return t
}

// List is texts (or strings) shown one after the other, separated by "; ".
type List []any

// Error is the sentence as an error whose message is its English.
func (s Sentence) Error(args ...any) error { return &Error{Text: s.With(args...)} }

// English is the text in English (empty for a text read back from JSON: where it is stored,
// its English is stored beside it).
func (t Text) English() string { return t.english }

// MarshalJSON writes a text with no sentence (nothing, or verbatim words) as null: where it is
// stored or sent, the English beside it is what a reader shows, not an empty key.
func (t Text) MarshalJSON() ([]byte, error) {
	if t.Key == "" && t.En == "" && len(t.Args) == 0 {
		return []byte("null"), nil
	}
	type plain Text // without this method
	return json.Marshal(plain(t))
}

// Read is a text read back from JSON (its key and arguments) with its English, which JSON does
// not carry, given back: a text another process wrote and sent beside its English.
func (t Text) Read(english string) Text {
	t.english = english
	return t
}

// Or is t, when there is one, with english as its English (a text read back from JSON lacks
// it); else english, verbatim: the words of something kept both as a sentence and as its English.
func Or(t *Text, english string) Text {
	if t == nil || t.IsZero() {
		return Verbatim(english)
	}
	return t.Read(english)
}

// IsZero reports whether t holds no sentence (nothing, or verbatim words).
func (t Text) IsZero() bool { return t.Key == "" }

// Fill puts args in place of $1, $2… in msg.
func Fill(msg string, args []any) string {
	for i := len(args); i >= 1; i-- { // $10 before $1
		msg = strings.ReplaceAll(msg, "$"+strconv.Itoa(i), arg(args[i-1]))
	}
	return msg
}

// arg is how an argument reads in English: a whole number as one (JSON gives numbers back as
// float64), a text as its English.
func arg(a any) string {
	switch v := a.(type) {
	case float64:
		if v == float64(int64(v)) {
			return strconv.FormatInt(int64(v), 10)
		}
	case Text:
		return v.english
	case List:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = arg(x)
		}
		return strings.Join(parts, "; ")
	}
	return fmt.Sprint(a)
}

// count is a as a count, or -1.
func count(a any) int64 {
	switch v := a.(type) {
	case int:
		return int64(v)
	case int64:
		return v
	case float64:
		if v == float64(int64(v)) {
			return int64(v)
		}
	}
	return -1
}

// Error is an error whose text is already written for the user, as a Text.
type Error struct{ Text Text }

func (e *Error) Error() string { return e.Text.English() }

// Said is err as the user reads it: the sentence it carries, however it was wrapped, or else
// its words as they are.
func Said(err error) Text {
	var ie *Error
	if errors.As(err, &ie) {
		return ie.Text
	}
	return Verbatim(err.Error())
}
