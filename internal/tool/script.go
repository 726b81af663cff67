package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// movedMark starts what run_script's guard throws when the tab is no longer on the site the
// script was approved for (the page's origin follows).
const movedMark = "\x00skiff:moved:"

func runScript(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*RunScriptInput)
	if in.Code == "" {
		return nil, failf("give the code to run")
	}
	pctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	if d, ok := e.Browser.Dialog(t.ID); ok {
		return nil, &DialogError{Dialog: d}
	}
	// The code runs only on the site it was approved for: a tab that has moved on since
	// refuses it (the check runs in the page, as the code's first statement).
	guard := ""
	if p, ok := pctx.Value(pinKey{}).(pin); ok {
		guard = fmt.Sprintf("if (location.origin !== %q) throw %q + location.origin;\n", p.origin, movedMark)
	}
	// Runtime.evaluate works whatever the page's Content-Security-Policy says (a page that
	// forbids eval still runs this), in the page's own world, with a timeout. In REPL mode, as
	// in the DevTools console, the value is that of the last expression and await works at the
	// top level; code with a top-level return runs as the body of an async function.
	params := map[string]any{"expression": guard + in.Code, "replMode": true, "awaitPromise": true, "returnByValue": true,
		"timeout": e.timeout().Milliseconds(), "userGesture": true}
	out, err := e.Browser.Debug(ctx, t.ID, "Runtime.evaluate", params)
	if err == nil && strings.Contains(string(out), "Illegal return statement") {
		params["expression"] = guard + "(async () => {\n" + in.Code + "\n})()"
		delete(params, "replMode")
		out, err = e.Browser.Debug(ctx, t.ID, "Runtime.evaluate", params)
	}
	if errors.Is(err, ErrNoDebugger) {
		return nil, failf("Skiff cannot run scripts in this tab now (DevTools or another debugger is attached to it)")
	}
	if err != nil {
		return nil, err
	}
	var r struct {
		Result struct {
			Type        string          `json:"type"`
			Value       json.RawMessage `json:"value"`
			Description string          `json:"description"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string          `json:"description"`
				Value       json.RawMessage `json:"value"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return nil, err
	}
	if x := r.ExceptionDetails; x != nil {
		var thrown string
		if x.Exception != nil && json.Unmarshal(x.Exception.Value, &thrown) == nil && strings.HasPrefix(thrown, movedMark) {
			return nil, movedOn(strings.TrimPrefix(thrown, movedMark))
		}
		msg := x.Text
		if x.Exception != nil && x.Exception.Description != "" {
			msg = x.Exception.Description
		}
		return nil, failf("the script threw: %s", clip(msg, 1000))
	}
	val := string(r.Result.Value)
	if val == "" {
		val = r.Result.Type
		if r.Result.Description != "" {
			val = r.Result.Description
		}
	}
	return (&Result{Text: clip(val, 20000), Untrusted: true, URL: t.URL}).Summed(sumScript.With(len(val), r.Result.Type)), nil
}
