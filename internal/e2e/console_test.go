//go:build !js

package e2e

import (
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// console_messages reads a page's console since it loaded, as an outside agent debugging a web
// app reads it: what its scripts logged (format strings filled in, objects briefly), what they
// threw (uncaught, and in a promise), what the browser said of the page (a picture it could
// not load), each with where it came from; what the page logs after an action is there the
// next time; errors only when asked.
func TestConsoleMessagesAreReadAsDevToolsShowsThem(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")
	page := site.Page("console.html")
	callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": page}, "allow_always")
	r := callTool(t, panel, cs, "e2e-agent", "console_messages", map[string]any{}, "allow_always")
	got := text(r)
	if r.IsError {
		t.Fatalf("console_messages: %s", got)
	}
	for _, want := range []string{
		`since the page loaded: 9 messages (5 errors, 1 warning):`,
		`- [log] Page ready 42 {"user":"ada","items":[1,2]} (` + page + `:15:11)`,
		`- [info] Loaded 3 items in 12.5ms (` + page + `:16:11)`,
		`- [warning] Deprecated API used: document.write (`,
		`- [error] Could not save the cart: {"code":500} (`,
		`- [debug] debug detail (`,
		`- [error] Assertion failed: the total is wrong (`,
		`- [error] Failed to load resource: the server responded with a status of 404 (Not Found) (` + site.URL + `/site/missing-logo.png)`,
		`- [error] Uncaught ReferenceError: applyCoupon is not defined (` + page + `:22:5)`,
		`- [error] Uncaught (in promise) Error: the payment service did not answer (`,
		"<untrusted-",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the console lacks %q:\n%s", want, got)
		}
	}
	snap := text(callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, ""))
	callTool(t, panel, cs, "e2e-agent", "click", map[string]any{"ref": refOf(t, snap, `button "Pay now"`)}, "allow_once")
	got = text(callTool(t, panel, cs, "e2e-agent", "console_messages", map[string]any{"level": "error", "max": 2}, ""))
	for _, want := range []string{
		"10 messages (6 errors, 1 warning); the latest 2 of the 6 shown:",
		"- [error] Payment failed: card declined (code 51) (",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors after the click lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "[log]") || strings.Contains(got, "[warning]") {
		t.Errorf("errors only, but:\n%s", got)
	}
}
