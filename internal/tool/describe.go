package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/safety"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Description is a call as a person reads it before allowing it.
type Description struct {
	What string // "type “ada@example.com” into textbox “Email” [e4]"
	URL  string // the page it works on
	// Sensitive: it types into a password or payment field (the text is not shown).
	Sensitive bool
	// Irreversible: the words that make a click look like one that cannot be undone (the
	// element says "Delete", "Pay", "Send"…), or "". Such a call counts as destructive.
	Irreversible string
	// LeadsTo is where the call sends the browser, when the page says so in advance: the
	// address of a link it clicks, the action of a form it submits. "" when unknown.
	LeadsTo string
}

// Describe says what a call will do, in words a person reads on a tool card or before allowing
// it, the URL of the page it works on, and whether it types into a password or payment field.
// Elements are named by the page (a quick look, bounded by ctx); when the page does not answer,
// the arguments are described as given.
func Describe(ctx context.Context, e *Env, name string, args json.RawMessage) Description {
	var d Description
	d.What, d.URL = describe(ctx, e, name, args, &d)
	what := d.What
	switch name {
	case "click", "fill_form", "press_key", "tab_action":
		// The element's name, as described ("click button “Delete account” [e5]"): only what
		// the page calls it, never the verb Skiff put in front.
		if i := strings.Index(what, "“"); i >= 0 {
			d.Irreversible = safety.Irreversible(what[i:])
		}
	}
	return d
}

func describe(ctx context.Context, e *Env, name string, args json.RawMessage, d *Description) (what, url string) {
	var a struct {
		Target
		Submit                          bool
		Text, Key, URL, Code, Direction string
		Values                          []string
		Fields                          []FillField
		TabID                           int
		TabIDs                          []int
		Accept                          bool
		X, Y                            *float64
		StartTime, EndTime              int64
	}
	_ = json.Unmarshal(args, &a)
	var tab Tab
	if e != nil {
		if t, err := e.tab(ctx, a.TabID); err == nil {
			tab, url = t, t.URL
		}
	}
	el := func(t Target) string {
		if t.Ref == "" && t.Selector == "" {
			return ""
		}
		label := t.Ref
		if label == "" {
			label = fmt.Sprintf("the element %q", t.Selector)
		}
		if e == nil || tab.ID == 0 || !Scriptable(tab.URL) {
			return label
		}
		frame, pt, err := where(t)
		if err != nil {
			return label
		}
		var r struct {
			What     string `json:"what"`
			Password int    `json:"password"`
			Payment  int    `json:"payment"`
			Link     string `json:"link"`    // a link's address
			Submits  string `json:"submits"` // the form action a click on it sends
			Form     string `json:"form"`    // the form action Enter in it sends
		}
		if e.call(ctx, tab.ID, frame, pageFiles, "describe", map[string]any{"target": pt}, &r) != nil || r.What == "" {
			return label
		}
		if r.Password == 1 || r.Payment == 1 {
			d.Sensitive = true
			r.What = map[bool]string{true: "password field ", false: "payment field "}[r.Password == 1] + r.What
		}
		switch {
		case name == "click" && r.Link != "":
			d.LeadsTo = r.Link
		case name == "click" && r.Submits != "":
			d.LeadsTo = r.Submits
		case (name == "press_key" && a.Key == "Enter" || a.Submit) && r.Form != "":
			d.LeadsTo = r.Form
		}
		if t.Ref != "" {
			return r.What + " [" + t.Ref + "]"
		}
		return r.What
	}
	q := func(s string) string { return "“" + clip(oneLine(s), 120) + "”" }
	switch name {
	case "click":
		if a.Ref == "" && a.Selector == "" && a.X != nil && a.Y != nil {
			return fmt.Sprintf("click at (%.0f, %.0f)", *a.X, *a.Y), url
		}
		return "click " + el(a.Target), url
	case "hover":
		return "hover over " + el(a.Target), url
	case "type":
		target := el(a.Target)
		if d.Sensitive {
			return fmt.Sprintf("type %d characters into %s", len([]rune(a.Text)), target), url
		}
		return fmt.Sprintf("type %s into %s", q(a.Text), target), url
	case "select_option":
		return fmt.Sprintf("choose %s in %s", strings.Join(a.Values, ", "), el(a.Target)), url
	case "fill_form":
		var parts []string
		for _, f := range a.Fields {
			before := d.Sensitive
			d.Sensitive = false
			target := el(f.Target)
			if d.Sensitive {
				parts = append(parts, fmt.Sprintf("%s = %d characters", target, len([]rune(f.Value))))
			} else {
				parts = append(parts, fmt.Sprintf("%s = %s", target, q(f.Value)))
			}
			d.Sensitive = d.Sensitive || before
		}
		return "fill " + strings.Join(parts, "; "), url
	case "press_key":
		if target := el(a.Target); target != "" {
			return "press " + a.Key + " in " + target, url
		}
		return "press " + a.Key, url
	case "navigate", "tab_open":
		return "open " + a.URL, a.URL
	case "scroll":
		if a.Ref != "" || a.Selector != "" {
			return "scroll to " + el(a.Target), url
		}
		d := a.Direction
		if d == "" {
			d = "down"
		}
		return "scroll " + d, url
	case "dialog":
		if a.Accept {
			return "accept the page's dialog", url
		}
		return "dismiss the page's dialog", url
	case "tab_close":
		var names []string
		for i, id := range a.TabIDs {
			if i == 5 {
				names = append(names, fmt.Sprintf("and %d more", len(a.TabIDs)-5))
				break
			}
			if e != nil {
				if t, err := e.Browser.Tab(ctx, id); err == nil {
					where := weburl.Origin(t.URL)
					if where == "" {
						where = clip(t.URL, 60)
					}
					names = append(names, fmt.Sprintf("%s (%s)", q(clip(t.Title, 60)), where))
					continue
				}
			}
			names = append(names, fmt.Sprintf("tab %d", id))
		}
		return "close " + strings.Join(names, ", "), url
	case "history_delete_url":
		return "delete " + a.URL + " from the history", url
	case "history_delete_range":
		day := func(ms int64) string { return time.UnixMilli(ms).UTC().Format("2 Jan 2006 15:04 UTC") }
		return fmt.Sprintf("delete the browsing history from %s to %s", day(a.StartTime), day(a.EndTime)), url
	case "run_script":
		return "run a script: " + q(a.Code), url
	case "snapshot":
		if a.Ref != "" {
			return "look at " + el(a.Target), url
		}
		return "look at the page", url
	case "screenshot":
		return "take a picture of the tab", url
	case "read_text":
		return "read the page's text", url
	case "find_text":
		return "find " + q(a.Text), url
	case "links":
		return "list the links", url
	case "get_content":
		if a.Selector != "" {
			return fmt.Sprintf("read %q", a.Selector), url
		}
		return "read the page's text", url
	case "tabs_list":
		return "list the tabs", url
	case "wait_for":
		switch {
		case a.Selector != "":
			return fmt.Sprintf("wait for %q", a.Selector), url
		case a.Text != "":
			return "wait for " + q(a.Text), url
		}
		return "wait", url
	case "tab_switch":
		return fmt.Sprintf("switch to tab %d", a.TabID), url
	case "back", "forward":
		return "go " + name, url
	case "reload":
		return "reload the page", url
	}
	return "", url
}
