package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Describe says what a call will do, in words a person reads on a tool card or before allowing
// it ("type “ada@example.com” into textbox “Email”"), and the URL of the page it works on.
// Elements are named by the page (a quick look, bounded by ctx); when the page does not answer,
// the arguments are described as given.
func Describe(ctx context.Context, e *Env, name string, args json.RawMessage) (what, url string) {
	var a struct {
		Target
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
		var d struct {
			What string `json:"what"`
		}
		if e.call(ctx, tab.ID, frame, pageFiles, "describe", map[string]any{"target": pt}, &d) != nil || d.What == "" {
			return label
		}
		if t.Ref != "" {
			return d.What + " [" + t.Ref + "]"
		}
		return d.What
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
		return fmt.Sprintf("type %s into %s", q(a.Text), el(a.Target)), url
	case "select_option":
		return fmt.Sprintf("choose %s in %s", strings.Join(a.Values, ", "), el(a.Target)), url
	case "fill_form":
		var parts []string
		for _, f := range a.Fields {
			parts = append(parts, fmt.Sprintf("%s = %s", el(f.Target), q(f.Value)))
		}
		return "fill " + strings.Join(parts, "; "), url
	case "press_key":
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
		return fmt.Sprintf("close tabs %v", a.TabIDs), url
	case "history_delete_url":
		return "delete " + a.URL + " from the history", url
	case "history_delete_range":
		return fmt.Sprintf("delete the history from %d to %d", a.StartTime, a.EndTime), url
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
