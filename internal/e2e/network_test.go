//go:build !js

package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// network_requests lists what a page fetched since it loaded, from the browser's resource
// timing: what its scripts asked for with each status, what failed (a missing picture), and
// with all, the rest; a filter keeps the addresses that hold it.
func TestNetworkRequestsSayWhatThePageFetched(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")
	page := site.Page("network.html")
	callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": page}, "allow_always")
	callTool(t, panel, cs, "e2e-agent", "wait_for", map[string]any{"text": "All loaded"}, "allow_always")
	r := callTool(t, panel, cs, "e2e-agent", "network_requests", map[string]any{}, "")
	got := text(r)
	if r.IsError {
		t.Fatalf("network_requests: %s", got)
	}
	for _, want := range []string{
		"The page " + page + ": [200] in ",
		"Requests since it loaded (what its scripts asked for, and what failed): 4, of which 2 failed:",
		"- img " + site.URL + "/site/no-such-picture.png => [404], ",
		"- fetch " + site.URL + "/site/console.html => [200], ",
		"- fetch " + site.URL + "/api/orders/1042 => [404], ",
		"- xmlhttprequest " + site.URL + "/submit => [200], ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the requests lack %q:\n%s", want, got)
		}
	}
	// What actions sent, the debugger saw go: the method of each, a request no server answered,
	// one still out when the action ended.
	snap := text(callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, ""))
	for i, b := range []string{"Save order", "Sync stock", "Export all"} {
		ask := "allow_always" // for the first click: the others are allowed by it
		if i > 0 {
			ask = ""
		}
		m := regexp.MustCompile(`button "` + b + `" \[(e\d+)\]`).FindStringSubmatch(snap)
		if m == nil {
			t.Fatalf("no ref for %s in:\n%s", b, snap)
		}
		if r := callTool(t, panel, cs, "e2e-agent", "click", map[string]any{"ref": m[1]}, ask); r.IsError {
			t.Fatalf("click %s: %s", b, text(r))
		}
	}
	got = text(callTool(t, panel, cs, "e2e-agent", "network_requests", map[string]any{}, ""))
	for _, want := range []string{
		"- fetch POST " + site.URL + "/submit => [200], ",
		"- xmlhttprequest " + site.URL + "/submit => [200], ", // before the actions: no method known
		"- fetch GET http://127.0.0.1:2/stock => failed: net::ERR_",
		"- fetch GET " + site.URL + "/slow?ms=60000 => no answer while Skiff followed the page's requests (its outcome is not known)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("after the clicks, the requests lack %q:\n%s", want, got)
		}
	}
	got = text(callTool(t, panel, cs, "e2e-agent", "network_requests", map[string]any{"filter": "ORDERS"}, ""))
	if !strings.Contains(got, `Requests since it loaded (what its scripts asked for, and what failed) with "ORDERS" in the address: 1, of which 1 failed:`) || strings.Contains(got, "console.html") {
		t.Errorf("filtered:\n%s", got)
	}
}
