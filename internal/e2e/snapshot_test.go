//go:build !js

package e2e

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/tool"
)

var update = flag.Bool("update", false, "record the snapshots of testdata/pages again (internal/tool/testdata/snapshots)")

// Parts of a snapshot that change from run to run: the line that depends on the window's size,
// and numbers pages make up as they load (webmd-1 writes Date.now() into the page, youth a
// random number).
var (
	scrollLine = regexp.MustCompile(`(?m)^Scrolled to .*\n`)
	timestamp  = regexp.MustCompile(`\d{6,}`)
)

func stable(s string) string {
	return timestamp.ReplaceAllString(scrollLine.ReplaceAllString(s, ""), "T")
}

// The snapshots of the real pages in testdata/pages, taken live by ext/page/skiff.js, are
// recorded in internal/tool/testdata/snapshots (<name>.json, what the page gives, and
// <name>.txt, what the model reads), where internal/tool's golden test formats the JSON
// natively. Here the live snapshot must still be what was recorded; -update records again.
func TestSnapshotRecordings(t *testing.T) {
	base := pages(t)
	panel := browser.FreshPanel(t)
	dir := filepath.Join(RepoRoot(), "internal", "tool", "testdata", "snapshots")
	for _, name := range testkit.PageNames(t) {
		t.Run(name, func(t *testing.T) {
			url := base + "/" + name + "/"
			tab := openTab(t, panel, url)
			// Pages change themselves in their load handlers (ietf-1 makes its headings then):
			// the recording is of the page after its load event has run.
			waitLoaded(t, panel, tab)
			JS[bool](t, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, files: ["page/skiff.js"]}).then(() => true)`, tab))
			raw := JS[string](t, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, func: () => globalThis.skiffPage.call("snapshot", "{}")}).then(r => JSON.stringify(r[0].result))`, tab))
			raw = strings.ReplaceAll(raw, base, "http://pages.test") // the server's port changes
			var s tool.Snap
			if err := json.Unmarshal([]byte(raw), &s); err != nil {
				t.Fatal(err)
			}
			text := tool.Format(&s, tool.SnapOptions{})
			// The interactive snapshot keeps every element the full one gives a ref to act on
			// (a clickable list item, a row, a picture), not only those of a control's role.
			rawOnly := JS[string](t, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, func: () => globalThis.skiffPage.call("snapshot", '{"interactive":true}')}).then(r => JSON.stringify(r[0].result))`, tab))
			var only tool.Snap
			if err := json.Unmarshal([]byte(rawOnly), &only); err != nil {
				t.Fatal(err)
			}
			kept := actable(only.Tree, nil)
			var lost []string
			for ref, role := range actable(s.Tree, nil) {
				if _, ok := kept[ref]; !ok {
					lost = append(lost, role+" "+ref)
				}
			}
			// One element to a line: without the text around them, controls are a list.
			for _, line := range strings.Split(tool.Format(&only, tool.SnapOptions{MaxTokens: 40000}), "\n") {
				if strings.Count(line, " [e") > 1 {
					t.Errorf("the interactive snapshot of %s has a line of several elements: %s", name, line)
					break
				}
			}
			if len(lost) > 0 {
				sort.Strings(lost)
				t.Errorf("the interactive snapshot of %s leaves out %d elements the full one gives a ref: %s", name, len(lost), strings.Join(lost[:min(len(lost), 10)], ", "))
			}
			if *update {
				if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(raw+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(filepath.Join(dir, name+".txt"))
			if err != nil {
				t.Fatalf("%v: record with go test ./internal/e2e -run TestSnapshotRecordings -update", err)
			}
			got, rec := stable(text), stable(string(want))
			if got != rec {
				t.Errorf("the live snapshot of %s is not the recorded one (record again with -update if the change is meant):\n%s", name, diff(rec, got))
			}
		})
	}
}

// actable is the refs of the elements of a snapshot tree that can be acted on, with their roles
// (the landmarks and tables a ref is given to so that a snapshot can start there are not).
func actable(items []tool.Item, out map[string]string) map[string]string {
	if out == nil {
		out = map[string]string{}
	}
	for _, it := range items {
		if n := it.Node; n != nil {
			if n.Ref != "" && !placeOnly.MatchString(n.Role) {
				out[n.Ref] = n.Role
			}
			actable(n.Kids, out)
		}
	}
	return out
}

var placeOnly = regexp.MustCompile(`^(dialog|form|table|main|navigation|region|search|complementary)$`)

// diff shows the first lines where two texts differ.
func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			lo := max(0, i-2)
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, strings.Join(al[lo:min(len(al), i+3)], "\n- "), strings.Join(bl[lo:min(len(bl), i+3)], "\n+ "))
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}
