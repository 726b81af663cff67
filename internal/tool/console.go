package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ConsoleInput is console_messages's input.
type ConsoleInput struct {
	Level string `json:"level,omitempty" jsonschema:"enum=all,enum=warning,enum=error" jsonschema_description:"Which messages: all (the default), warnings and errors, or errors only."`
	Max   int    `json:"max,omitempty" jsonschema:"minimum=1,maximum=200" jsonschema_description:"At most this many, the latest (50 by default)."`
	TabID int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// consoleLine is one message of a page's console as a person reads it in DevTools.
type consoleLine struct {
	Level string  // "error", "warning", "info", "log", "debug"
	Text  string  // what it says
	Where string  // the script and line that logged it, or the resource it is about
	At    float64 // when, in ms since the epoch (to put the page's and the browser's in order)
}

// consoleRank orders levels from the least to the most serious.
var consoleRank = map[string]int{"debug": 0, "log": 1, "info": 1, "warning": 2, "error": 3}

func consoleTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*ConsoleInput)
	return e.tabEffect(ctx, in.TabID, "console", whatConsole.With())
}

// consoleMessages reads the page's console since it loaded: what its scripts logged and what
// they threw (V8 keeps them, and hands them to a debugger that turns Runtime on), and what the
// browser said of the page (a resource that failed to load, a request it blocked: Log). The
// debugger is turned on for the read and off again.
func consoleMessages(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*ConsoleInput)
	ctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	if d, ok := e.Browser.Dialog(t.ID); ok {
		return nil, &DialogError{Dialog: d}
	}
	ctx = unpinned(ctx)
	since := time.Now()
	if _, err := e.Browser.Debug(ctx, t.ID, "Runtime.enable", nil); err != nil {
		if errors.Is(err, ErrNoDebugger) {
			return nil, failf("the console cannot be read on this tab: Chrome does not let Skiff's debugger attach to it (DevTools may be open on it)")
		}
		return nil, err
	}
	defer e.undo(t.ID, "Runtime.disable", nil)
	if _, err := e.Browser.Debug(ctx, t.ID, "Log.enable", nil); err == nil {
		defer e.undo(t.ID, "Log.disable", nil)
	}
	// The events a domain hands over come before its answer; one more round trip makes sure
	// the last of them arrived.
	_, _ = e.Browser.Debug(ctx, t.ID, "Runtime.evaluate", map[string]any{"expression": "0"})
	evs := e.Browser.Console(t.ID, since)
	lines := consoleLines(evs, e.objectsSeen(ctx, t.ID, evs))
	tab, _ := e.Browser.Tab(ctx, t.ID)
	return (&Result{Text: consoleSays(lines, in.Level, in.Max, tab), URL: t.URL, Untrusted: true}).Summed(sumConsole.With(len(lines))), nil
}

// objectsJS is what an object logged without a preview says of itself: JSON, clipped; what
// JSON cannot write (a node, a cycle), as the page's own words for it.
const objectsJS = `function () {
  let s;
  try { s = JSON.stringify(this); } catch (e) { s = undefined; }
  if (typeof s !== "string") s = Object.prototype.toString.call(this);
  return s.length > 300 ? s.slice(0, 299) + "…" : s;
}`

// objectsSeen asks the page what the objects its console messages logged hold, when the
// debugger handed them over without a preview (messages logged before it was turned on):
// otherwise they read as a bare "Object". At most 40 of them, the latest.
func (e *Env) objectsSeen(ctx context.Context, tabID int, evs []ConsoleEvent) map[string]string {
	var ids []string
	for _, ev := range evs {
		if ev.Method != "Runtime.consoleAPICalled" {
			continue
		}
		var p struct {
			Args []remoteObject `json:"args"`
		}
		if json.Unmarshal(ev.Params, &p) != nil {
			continue
		}
		for _, a := range p.Args {
			if a.Type == "object" && a.ObjectID != "" && a.Preview == nil && a.Subtype != "null" && a.Subtype != "error" && a.Subtype != "node" {
				ids = append(ids, a.ObjectID)
			}
		}
	}
	if len(ids) > 40 {
		ids = ids[len(ids)-40:]
	}
	seen := map[string]string{}
	for _, id := range ids {
		raw, err := e.Browser.Debug(ctx, tabID, "Runtime.callFunctionOn", map[string]any{"objectId": id, "functionDeclaration": objectsJS, "returnByValue": true})
		var r struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		if err == nil && json.Unmarshal(raw, &r) == nil && r.Result.Value != "" {
			seen[id] = r.Result.Value
		}
	}
	return seen
}

// consoleSays writes the lines of level and above (all, warning, error), the latest max.
func consoleSays(lines []consoleLine, level string, max int, tab Tab) string {
	if max <= 0 {
		max = 50
	}
	min := consoleRank[level]
	if level == "" || level == "all" {
		min = 0
	}
	var kept []consoleLine
	count := map[string]int{}
	for _, l := range lines {
		count[l.Level]++
		if consoleRank[l.Level] >= min {
			kept = append(kept, l)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The console of %q (%s) since the page loaded: %s", oneLine(tab.Title), tab.URL, plural(len(lines), "message"))
	var parts []string
	for _, lv := range []string{"error", "warning"} {
		if count[lv] > 0 {
			parts = append(parts, plural(count[lv], lv))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	switch {
	case len(lines) == 0:
		b.WriteString(".\n")
		return b.String()
	case len(kept) == 0:
		fmt.Fprintf(&b, "; none is a%s.\n", map[string]string{"warning": " warning or an error", "error": "n error"}[level])
		return b.String()
	case len(kept) > max:
		fmt.Fprintf(&b, "; the latest %d of the %d shown:\n", max, len(kept))
		kept = kept[len(kept)-max:]
	case len(kept) < len(lines):
		fmt.Fprintf(&b, "; the %d that are %s:\n", len(kept), map[string]string{"warning": "warnings or errors", "error": "errors"}[level])
	default:
		b.WriteString(":\n")
	}
	for _, l := range kept {
		fmt.Fprintf(&b, "- [%s] %s", l.Level, l.Text)
		if l.Where != "" {
			fmt.Fprintf(&b, " (%s)", l.Where)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// remoteObject is a value the page logged, as the debugger describes it (Runtime.RemoteObject).
type remoteObject struct {
	ObjectID            string          `json:"objectId"`
	Type                string          `json:"type"`
	Subtype             string          `json:"subtype"`
	Value               json.RawMessage `json:"value"`
	UnserializableValue string          `json:"unserializableValue"`
	Description         string          `json:"description"`
	Preview             *struct {
		Subtype    string `json:"subtype"`
		Overflow   bool   `json:"overflow"`
		Properties []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Value string `json:"value"`
		} `json:"properties"`
	} `json:"preview"`
}

// text is the value as DevTools prints it in a line: strings as they are, objects briefly
// (as JSON when the page was asked for it: seen, a map by object id).
func (o remoteObject) text(seen map[string]string) string {
	if s, ok := seen[o.ObjectID]; ok && o.ObjectID != "" {
		return s
	}
	switch {
	case o.Type == "string":
		var s string
		_ = json.Unmarshal(o.Value, &s)
		return s
	case o.Type == "undefined":
		return "undefined"
	case o.UnserializableValue != "":
		return o.UnserializableValue
	case o.Subtype == "null":
		return "null"
	case o.Subtype == "error", o.Subtype == "node":
		return firstLine(o.Description) // "TypeError: …", "div#main.card"
	case o.Preview != nil && (o.Type == "object"):
		var parts []string
		for _, p := range o.Preview.Properties {
			v := p.Value
			if p.Type == "string" {
				v = strconv.Quote(v)
			}
			if o.Preview.Subtype == "array" {
				parts = append(parts, v)
			} else {
				parts = append(parts, p.Name+": "+v)
			}
		}
		if o.Preview.Overflow {
			parts = append(parts, "…")
		}
		if o.Preview.Subtype == "array" {
			return "[" + strings.Join(parts, ", ") + "]"
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case len(o.Value) > 0:
		return string(o.Value)
	}
	return firstLine(o.Description)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

type callFrame struct {
	URL    string `json:"url"`
	Line   int    `json:"lineNumber"`
	Column int    `json:"columnNumber"`
}

// at is a place in a script as DevTools shows it (lines and columns from 1).
func at(url string, line, col int) string {
	if url == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", url, line+1, col+1)
}

// consoleLines reads the debugger's console events into lines, oldest first; seen holds what
// the page said of the objects logged without a preview (by object id).
func consoleLines(evs []ConsoleEvent, seen map[string]string) []consoleLine {
	var out []consoleLine
	for _, ev := range evs {
		switch ev.Method {
		case "Runtime.consoleAPICalled":
			var p struct {
				Type       string         `json:"type"`
				Args       []remoteObject `json:"args"`
				Timestamp  float64        `json:"timestamp"`
				StackTrace *struct {
					CallFrames []callFrame `json:"callFrames"`
				} `json:"stackTrace"`
			}
			if json.Unmarshal(ev.Params, &p) != nil {
				continue
			}
			level := "log"
			switch p.Type {
			case "error", "assert":
				level = "error"
			case "warning":
				level = "warning"
			case "info", "debug":
				level = p.Type
			case "endGroup", "clear", "profile", "profileEnd":
				continue
			}
			where := ""
			if p.StackTrace != nil && len(p.StackTrace.CallFrames) > 0 {
				c := p.StackTrace.CallFrames[0]
				where = at(c.URL, c.Line, c.Column)
			}
			text := formatted(p.Args, seen)
			if p.Type == "assert" {
				text = "Assertion failed: " + text
			}
			out = append(out, consoleLine{Level: level, Text: clip(text, 500), Where: where, At: p.Timestamp})
		case "Runtime.exceptionThrown":
			var p struct {
				Timestamp float64 `json:"timestamp"`
				Details   struct {
					Text      string        `json:"text"`
					URL       string        `json:"url"`
					Line      int           `json:"lineNumber"`
					Column    int           `json:"columnNumber"`
					Exception *remoteObject `json:"exception"`
				} `json:"exceptionDetails"`
			}
			if json.Unmarshal(ev.Params, &p) != nil {
				continue
			}
			text := p.Details.Text
			if x := p.Details.Exception; x != nil {
				if what := x.text(nil); what != "" && !strings.Contains(text, what) {
					text = strings.TrimSpace(text + " " + what)
				}
			}
			out = append(out, consoleLine{Level: "error", Text: clip(text, 500), Where: at(p.Details.URL, p.Details.Line, p.Details.Column), At: p.Timestamp})
		case "Log.entryAdded":
			var p struct {
				Entry struct {
					Source    string  `json:"source"`
					Level     string  `json:"level"`
					Text      string  `json:"text"`
					URL       string  `json:"url"`
					Timestamp float64 `json:"timestamp"`
				} `json:"entry"`
			}
			if json.Unmarshal(ev.Params, &p) != nil || p.Entry.Level == "verbose" {
				continue
			}
			level := p.Entry.Level
			if _, ok := consoleRank[level]; !ok {
				level = "info"
			}
			out = append(out, consoleLine{Level: level, Text: clip(p.Entry.Text, 500), Where: p.Entry.URL, At: p.Entry.Timestamp})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}

// formatted is a console call's arguments as the console prints them: a first string's %s, %d,
// %i, %f, %o, %O and %c take the arguments after it in turn (%c styles, and prints nothing),
// and the rest follow, separated by spaces.
func formatted(args []remoteObject, seen map[string]string) string {
	if len(args) == 0 {
		return ""
	}
	rest := args[1:]
	first := args[0].text(seen)
	if args[0].Type == "string" && strings.Contains(first, "%") {
		var b strings.Builder
		for i := 0; i < len(first); i++ {
			c := first[i]
			if c != '%' || i+1 >= len(first) {
				b.WriteByte(c)
				continue
			}
			switch first[i+1] {
			case 's', 'd', 'i', 'f', 'o', 'O', 'c':
				if len(rest) == 0 {
					b.WriteByte(c)
					continue
				}
				if first[i+1] != 'c' {
					v := rest[0].text(seen)
					if first[i+1] == 'd' || first[i+1] == 'i' {
						if n, err := strconv.ParseFloat(v, 64); err == nil {
							v = strconv.FormatInt(int64(n), 10)
						}
					}
					b.WriteString(v)
				}
				rest = rest[1:]
				i++
			case '%':
				b.WriteByte('%')
				i++
			default:
				b.WriteByte(c)
			}
		}
		first = b.String()
	}
	parts := []string{first}
	for _, a := range rest {
		parts = append(parts, a.text(seen))
	}
	return strings.Join(parts, " ")
}
