// Package i18n words what the worker itself shows the user, outside the panel (notifications,
// the toolbar button's title), in the language chosen in Settings, from the same catalogs the
// panel reads: ui/_locales/<l>/messages.json, in Chrome's shape. Chrome's own
// chrome.i18n.getMessage only knows the browser's language, which the setting may override.
package i18n

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Catalog is one locale's messages.json.
type Catalog map[string]Entry

// Entry is one message, with its named placeholders ($COUNT$ is placeholders["count"]).
type Entry struct {
	Message      string `json:"message"`
	Placeholders map[string]struct {
		Content string `json:"content"`
	} `json:"placeholders"`
}

// Parse reads a messages.json.
func Parse(b []byte) (Catalog, error) {
	var c Catalog
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("i18n: %w", err)
	}
	return c, nil
}

// Lang is the language a setting means: one Skiff speaks, else the browser's (browser is its
// UI language, as "fr-FR"), else English.
func Lang(pref, browser string) string {
	for _, l := range Languages {
		if pref == l {
			return l
		}
	}
	b := strings.ToLower(browser)
	for _, l := range Languages {
		if strings.HasPrefix(b, l) {
			return l
		}
	}
	return "en"
}

// Words formats messages in one language, falling back to English for a key its catalog
// lacks (and to the key itself).
type Words struct {
	Lang             string
	Catalog, English Catalog
}

// T is key's message with args in place ($1, $2…). An int first picks the plural form the
// catalog has for it (key_one, key_other), by the language's rule.
func (w Words) T(key string, args ...any) string {
	if len(args) > 0 {
		if n := count(args[0]); n >= 0 {
			form := key + "_other"
			if n == 1 || w.Lang == "fr" && n == 0 {
				form = key + "_one"
			}
			if _, ok := w.entry(form); ok {
				key = form
			}
		}
	}
	e, ok := w.entry(key)
	if !ok {
		return key
	}
	s := e.Message
	for name, p := range e.Placeholders {
		s = replaceFold(s, "$"+name+"$", p.Content)
	}
	for i := len(args); i >= 1; i-- { // $10 before $1
		s = strings.ReplaceAll(s, "$"+strconv.Itoa(i), w.arg(args[i-1]))
	}
	return s
}

// Say is t in w's language, the texts inside it too; a text no catalog has reads as its English.
func (w Words) Say(t Text) string {
	_, known := w.entry(t.Key)
	_, plural := w.entry(t.Key + "_other")
	if t.Key == "" || !known && !plural {
		if t.english != "" {
			return t.english
		}
		return t.En
	}
	return w.T(t.Key, t.Args...)
}

// arg is how an argument reads in w's language: a text inside a text is said too.
func (w Words) arg(a any) string {
	switch v := a.(type) {
	case Text:
		return w.Say(v)
	case List:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = w.arg(x)
		}
		return strings.Join(parts, "; ")
	}
	return arg(a)
}

// replaceFold replaces old (ASCII) in s whatever its case: Chrome's placeholder names are.
func replaceFold(s, old, repl string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+len(old) <= len(s) && strings.EqualFold(s[i:i+len(old)], old) {
			b.WriteString(repl)
			i += len(old)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func (w Words) entry(key string) (Entry, bool) {
	if e, ok := w.Catalog[key]; ok {
		return e, true
	}
	e, ok := w.English[key]
	return e, ok
}
