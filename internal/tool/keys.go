package tool

import (
	"strings"
	"unicode/utf8"
)

// key is a keyboard key as Chrome's Input.dispatchKeyEvent wants it.
type key struct {
	Key     string // the KeyboardEvent.key value
	Code    string // the KeyboardEvent.code value
	KeyCode int    // windowsVirtualKeyCode
	Text    string // what the key types, if anything
}

// Modifier bits of Input.dispatchKeyEvent.
const (
	modAlt   = 1
	modCtrl  = 2
	modMeta  = 4
	modShift = 8
)

var namedKeys = map[string]key{
	"enter":      {"Enter", "Enter", 13, "\r"},
	"tab":        {"Tab", "Tab", 9, ""},
	"escape":     {"Escape", "Escape", 27, ""},
	"backspace":  {"Backspace", "Backspace", 8, ""},
	"delete":     {"Delete", "Delete", 46, ""},
	"space":      {" ", "Space", 32, " "},
	"arrowup":    {"ArrowUp", "ArrowUp", 38, ""},
	"arrowdown":  {"ArrowDown", "ArrowDown", 40, ""},
	"arrowleft":  {"ArrowLeft", "ArrowLeft", 37, ""},
	"arrowright": {"ArrowRight", "ArrowRight", 39, ""},
	"home":       {"Home", "Home", 36, ""},
	"end":        {"End", "End", 35, ""},
	"pageup":     {"PageUp", "PageUp", 33, ""},
	"pagedown":   {"PageDown", "PageDown", 34, ""},
	"insert":     {"Insert", "Insert", 45, ""},
	"f1":         {"F1", "F1", 112, ""}, "f2": {"F2", "F2", 113, ""}, "f3": {"F3", "F3", 114, ""}, "f4": {"F4", "F4", 115, ""},
	"f5": {"F5", "F5", 116, ""}, "f6": {"F6", "F6", 117, ""}, "f7": {"F7", "F7", 118, ""}, "f8": {"F8", "F8", 119, ""},
	"f9": {"F9", "F9", 120, ""}, "f10": {"F10", "F10", 121, ""}, "f11": {"F11", "F11", 122, ""}, "f12": {"F12", "F12", 123, ""},
}

var keyAliases = map[string]string{"return": "enter", "esc": "escape", "del": "delete", "up": "arrowup", "down": "arrowdown",
	"left": "arrowleft", "right": "arrowright", "pgup": "pageup", "pgdn": "pagedown", " ": "space", "spacebar": "space"}

var modifierNames = map[string]int{"control": modCtrl, "ctrl": modCtrl, "alt": modAlt, "option": modAlt, "shift": modShift,
	"meta": modMeta, "cmd": modMeta, "command": modMeta, "super": modMeta, "controlormeta": modCtrl}

// parseChord reads "Enter", "a", "Control+A", "Shift+Tab", "Meta+Shift+K": modifiers joined by
// + with one key at the end.
func parseChord(s string) (key, int, error) {
	if s != "" && strings.TrimSpace(s) == "" {
		s = "Space" // " " is the space bar
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return key{}, 0, failf("say which key to press, such as Enter, Escape, Tab or Control+A")
	}
	parts := []string{s}
	if s != "+" && strings.Contains(s[:len(s)-1], "+") {
		last := strings.LastIndex(s[:len(s)-1], "+")
		parts = append(strings.Split(s[:last], "+"), s[last+1:])
	}
	mods := 0
	for _, m := range parts[:len(parts)-1] {
		bit, ok := modifierNames[strings.ToLower(strings.TrimSpace(m))]
		if !ok {
			return key{}, 0, failf("%q is not a modifier key; use Control, Alt, Shift or Meta", m)
		}
		mods |= bit
	}
	name := parts[len(parts)-1]
	lower := strings.ToLower(name)
	if a, ok := keyAliases[lower]; ok {
		lower = a
	}
	if k, ok := namedKeys[lower]; ok {
		if mods&(modCtrl|modAlt|modMeta) != 0 {
			k.Text = ""
		}
		return k, mods, nil
	}
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		k := key{Key: name, Text: name}
		switch {
		case r >= 'a' && r <= 'z':
			k.Code, k.KeyCode = "Key"+strings.ToUpper(name), int(r-'a'+'A')
		case r >= 'A' && r <= 'Z':
			k.Code, k.KeyCode = "Key"+name, int(r)
			if mods&modShift == 0 && mods != 0 {
				k.Key, k.Text = strings.ToLower(name), strings.ToLower(name)
			}
		case r >= '0' && r <= '9':
			k.Code, k.KeyCode = "Digit"+name, int(r)
		}
		if mods&(modCtrl|modAlt|modMeta) != 0 {
			k.Text = ""
		}
		return k, mods, nil
	}
	return key{}, 0, failf("%q is not a key Skiff knows; use a single character or a name such as Enter, Tab, Escape, Backspace, Delete, ArrowDown, PageDown, Home, End or F5", name)
}
