//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// A click that sets off a download says what came of it, as an outside agent sees it: the
// file's name, size and where it was saved (which the agent can then read), whether the page
// held the data, made it with a script, or the server sent it; a download the server cannot
// serve says why it failed; a click that downloads nothing says nothing of downloads; an
// address that is a file says so, and the tab stays where it was.
func TestActionsSayWhatTheyDownloaded(t *testing.T) {
	site := testkit.NewSite(t)
	dir := browser.Downloads(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")
	page := site.Page("downloads.html")
	callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": page}, "allow_always")
	snap := text(callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, "allow_always"))
	asked := false
	click := func(what string) string {
		t.Helper()
		decision := ""
		if !asked {
			decision, asked = "allow_always", true // clicks on this site, from now on
		}
		r := callTool(t, panel, cs, "e2e-agent", "click", map[string]any{"ref": refOf(t, snap, what)}, decision)
		if r.IsError {
			t.Fatalf("click %s: %s", what, text(r))
		}
		return text(r)
	}
	saved := func(name string) string { return filepath.Join(dir, name) }
	for _, c := range []struct{ what, says, file, body string }{
		{`link "Download the order"`, " It downloaded “order-1042.csv” (15 bytes), saved as " + saved("order-1042.csv") + ".", "order-1042.csv", "item,qty\ntea,2\n"},
		{`button "Export as JSON"`, " It downloaded “order-1042.json” (47 bytes), saved as " + saved("order-1042.json") + ".", "order-1042.json", `{"order":1042,"items":[{"item":"tea","qty":2}]}`},
		{`link "Get the invoice"`, " It downloaded “invoice-1042.pdf” (40.0 KB), saved as " + saved("invoice-1042.pdf") + ".", "invoice-1042.pdf", ""},
		// A link to a new tab whose address is a file: the browser closes the tab it opened.
		{`link "Read the terms"`, " It downloaded “terms-2026.pdf” (2.0 KB), saved as " + saved("terms-2026.pdf") + ".", "terms-2026.pdf", ""},
	} {
		got := click(c.what)
		if !strings.Contains(got, c.says) {
			t.Errorf("%s: want %q in %s", c.what, c.says, got)
		}
		b, err := os.ReadFile(saved(c.file))
		if err != nil {
			t.Errorf("%s: %v", c.what, err)
		} else if c.body != "" && string(b) != c.body {
			t.Errorf("%s saved %q", c.file, b)
		}
	}
	// The tab the link opened for the file is gone (the browser closed it).
	WaitJS(t, panel, `chrome.tabs.query({}).then(ts => !ts.some(x => /terms-2026/.test(x.url + " " + (x.pendingUrl || ""))))`)
	if got := click(`link "Get the receipt"`); !strings.Contains(got, " Its download of “receipt.pdf” failed: the server has no such file.") {
		t.Errorf("a download the server cannot serve: %s", got)
	}
	if got := click(`button "Download nothing"`); strings.Contains(got, "download") {
		t.Errorf("a click that downloads nothing: %s", got)
	}
	// A download that begins after its click's result came back (the script saves what a slow
	// server sent) is said by the next action's result, once.
	if got := click(`button "Export the yearly report"`); strings.Contains(got, "download") {
		t.Errorf("the report's download was said before it began: %s", got)
	}
	Eventually(t, 20e9, func() bool { _, err := os.Stat(saved("report-2026.csv")); return err == nil }, "the late report was not saved")
	want := " An earlier action downloaded “report-2026.csv” ("
	if got := click(`button "Download nothing"`); !strings.Contains(got, want) || !strings.Contains(got, "saved as "+saved("report-2026.csv")+".") {
		t.Errorf("the next action's result: want %q in %s", want, got)
	}
	if got := click(`button "Download nothing"`); strings.Contains(got, "download") {
		t.Errorf("said twice: %s", got)
	}
	// An address that is a file: the tab stays on the page.
	file := site.URL + "/file/statement-07.pdf?kb=3"
	r := callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": file}, "")
	want = file + " is a file, not a page: It downloaded “statement-07.pdf” (3.0 KB), saved as " + saved("statement-07.pdf") + ". The tab stays at " + page + "."
	if r.IsError || !strings.Contains(text(r), want) {
		t.Errorf("navigate to a file: want %q in %s", want, text(r))
	}
}
