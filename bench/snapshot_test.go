//go:build !js

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/tool"
)

// npmTool is a command installed in bench/snapshot/node_modules (make bench runs npm ci there).
func npmTool(b *testing.B, name string) string {
	p := filepath.Join(e2e.RepoRoot(), "bench", "snapshot", "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s is not installed: run npm ci in bench/snapshot (make bench does)", name)
	}
	return p
}

// mcpServer starts an MCP server over stdio and connects the Go SDK's client to it.
func mcpServer(b *testing.B, args ...string) *mcp.ClientSession {
	client := mcp.NewClient(&mcp.Implementation{Name: "skiff-bench", Version: "1"}, nil)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = nil
	s, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatalf("start %s: %v", args[0], err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// callText calls a tool and returns the text of its result and how long it took.
func callText(b *testing.B, s *mcp.ClientSession, name string, args map[string]any) (string, time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	d := time.Since(start)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	var t strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			t.WriteString(tc.Text)
		}
	}
	if res.IsError {
		b.Fatalf("%s failed: %s", name, t.String())
	}
	return t.String(), d
}

// timedRuns is how many times each snapshot is timed; the median counts.
const timedRuns = 5

// timed calls a tool once to warm it up, then timedRuns times, and returns the last text and
// the median time.
func timed(b *testing.B, s *mcp.ClientSession, name string, args map[string]any) (string, time.Duration) {
	text, _ := callText(b, s, name, args)
	var ds []time.Duration
	for range timedRuns {
		var d time.Duration
		text, d = callText(b, s, name, args)
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return text, ds[len(ds)/2]
}

var interactiveRole = `(link|button|textbox|searchbox|checkbox|radio|combobox|listbox|option|slider|spinbutton|switch|tab|menuitem|menuitemcheckbox|menuitemradio|treeitem)`

var (
	playwrightRefs = regexp.MustCompile(`(?m)^\s*- ` + interactiveRole + `\b[^\n]*\[ref=`)
	devtoolsRefs   = regexp.MustCompile(`(?m)uid=\S+ ` + interactiveRole + `\b`)
)

// groundTruth lists the interactive elements a person can see on the page (the controls and
// links HTML and ARIA define, visible, not hidden from assistive technology, not cut away whole
// by an ancestor that hides its overflow, not outside the viewport in a fixed box, its own or
// an ancestor's): for each, the ref it got in Skiff's last snapshot ("" when none); with
// missing, the markup of those that got none.
const groundTruth = `(missing) => {
	const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [contenteditable=""], [contenteditable=true], [role=button], [role=link], [role=checkbox], [role=radio], [role=menuitem], [role=tab], [role=switch], [role=combobox], [role=textbox], [role=option]';
	const out = [];
	for (const el of document.querySelectorAll(sel)) {
		if (el.closest('[aria-hidden=true]')) continue;
		if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
		const r = el.getBoundingClientRect();
		if (r.width < 1 || r.height < 1) continue;
		if (r.right + scrollX <= 0 || r.bottom + scrollY <= 0) continue;
		// Cut away whole by an ancestor that hides its overflow (a carousel's next rows), or
		// fixed outside the viewport, where no scrolling brings it: no person sees it either.
		let cut = false, fixed = getComputedStyle(el).position === "fixed";
		for (let p = el.parentElement; p && p !== document.body && !cut; p = p.parentElement) {
			const s = getComputedStyle(p);
			if (s.position === "fixed") {
				fixed = true; // it moves with its fixed box, which no scrolling moves
				break;
			}
			if (!/hidden|clip/.test(s.overflowX + s.overflowY)) continue;
			const q = p.getBoundingClientRect();
			cut = r.bottom <= q.top || r.top >= q.bottom || r.right <= q.left || r.left >= q.right;
		}
		if (cut) continue;
		if (fixed && (r.left >= innerWidth || r.top >= innerHeight)) continue;
		const ref = globalThis.skiffPage.refFor(el);
		if (!missing) out.push(ref);
		else if (!ref) out.push(el.outerHTML.slice(0, 200).replace(/\s+/g, " ") + " @" + [r.x | 0, (r.y + scrollY) | 0, r.width | 0, r.height | 0].join(","));
	}
	return out;
}`

// reachable counts how many of refs the model can address from the snapshot at the default
// budget: in its text, or through the continuations it names (after=…), followed to the end.
func reachable(s *tool.Snap, refs []string) (inFirst, inAll int) {
	text := tool.Format(s, tool.SnapOptions{})
	all := text
	for i := 0; i < 200; i++ {
		j := strings.Index(text, `after="`)
		if j < 0 {
			break
		}
		k := strings.IndexByte(text[j+7:], '"')
		text = tool.Format(s, tool.SnapOptions{After: text[j+7 : j+7+k]})
		all += text
	}
	first := tool.Format(s, tool.SnapOptions{})
	for _, r := range refs {
		if r == "" {
			continue
		}
		if strings.Contains(first, "["+r+"]") {
			inFirst++
		}
		if strings.Contains(all, "["+r+"]") {
			inAll++
		}
	}
	return inFirst, inAll
}

type snapRow struct {
	page                string
	skiff, pw, dt       int // characters
	skiffMs, pwMs, dtMs float64
	truth               int
	skiffN, pwN, dtN    int // interactive elements with a ref
	first, reach        int // visible controls addressable at the default budget: in its text, and through its continuations
}

// BenchmarkSnapshot: the size (characters; tokens estimated as characters/4) and the time of a
// snapshot of each Readability test page (testdata/pages and testdata/readability), from Skiff (ext/page/skiff.js in the page, formatted
// by tool.Format with no budget), Playwright MCP's browser_snapshot and chrome-devtools-mcp's
// take_snapshot, all on the system Chromium, headless, the pages served the same way in the
// same run; and how many of the page's visible interactive elements each makes addressable.
func BenchmarkSnapshot(b *testing.B) {
	pw := mcpServer(b, npmTool(b, "playwright-mcp"), "--headless", "--isolated", "--no-sandbox", "--executable-path", mustChromium(b), "--viewport-size", "800x600")
	dt := mcpServer(b, npmTool(b, "chrome-devtools-mcp"), "--headless", "--isolated", "--executablePath", mustChromium(b), "--viewport", "800x600",
		"--chromeArg=--no-sandbox", "--chromeArg=--disable-background-networking", "--chromeArg=--disable-component-update", "--usageStatistics=false")
	pages, _ := callText(b, dt, "list_pages", map[string]any{})
	m := regexp.MustCompile(`(\d+):`).FindStringSubmatch(pages)
	if m == nil {
		b.Fatalf("no page id in %q", pages)
	}
	var pageID int
	fmt.Sscan(m[1], &pageID)
	base := testkit.Pages(b)
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	// 130 pages take longer than a test's panel lives: this one lives as long as the benchmark.
	panel := br.TabWithin(b, br.URL("panel/index.html"), 2*time.Hour)
	e2e.WaitJS(b, panel, `document.body.dataset.ready === "1"`)
	var rows []snapRow
	var skipped []string // pages stuck as they load, left out of every tool's figures
	// SKIFF_SNAP_PAGES (a regexp) limits the run to the pages it matches; SKIFF_SNAP_DUMP names a
	// folder where each tool's text of each page is written, to read them side by side.
	only := regexp.MustCompile(os.Getenv("SKIFF_SNAP_PAGES"))
	dump := func(name, tool, text string) {
		if dir := os.Getenv("SKIFF_SNAP_DUMP"); dir != "" {
			_ = os.MkdirAll(dir, 0o755)
			_ = os.WriteFile(filepath.Join(dir, name+"."+tool+".txt"), []byte(text), 0o644)
		}
	}
	for _, name := range testkit.AllPageNames(b) {
		if !only.MatchString(name) {
			continue
		}
		url := base + "/" + name + "/"
		row := snapRow{page: name}
		// Skiff, as the snapshot tool does it: the page-side code through chrome.scripting,
		// then Go formats.
		tab := e2e.JS[int](b, panel, fmt.Sprintf(`chrome.windows.create({url: %q, focused: true}).then(w => w.tabs[0].id)`, url))
		// A page may never finish loading (one opens an alert as it loads, and nothing runs in
		// it until someone answers): give it 5 s, then read it as it is, within 20 s, or leave
		// it out of every tool's figures.
		e2e.JS[bool](b, panel, fmt.Sprintf(`new Promise((done) => {
			const until = Date.now() + 5000;
			const poll = () => chrome.tabs.get(%d).then((t) => t.status === "complete" || Date.now() > until ? done(true) : setTimeout(poll, 50), () => done(true));
			poll(); })`, tab))
		var out struct {
			Ms  float64 `json:"ms"`
			Raw string  `json:"raw"`
		}
		// Each tool's snapshot is timed five times after a first that warms up the code it
		// injects (Playwright's navigate already takes one); the median counts.
		rctx, cancel := context.WithTimeout(panel, 20*time.Second)
		raw, err := chromedp.Run(rctx, chromedp.Evaluate[string](fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, files: ["page/skiff.js"]}).then(() => (async () => {
			const snap = () => chrome.scripting.executeScript({target: {tabId: %d}, func: () => globalThis.skiffPage.call("snapshot", "{}")});
			let r = await snap();
			const ms = [];
			for (let i = 0; i < %d; i++) {
				const t0 = performance.now();
				r = await snap();
				ms.push(performance.now() - t0);
			}
			ms.sort((a, b) => a - b);
			return JSON.stringify({ms: ms[ms.length >> 1], raw: JSON.stringify(r[0].result)}) })())`, tab, tab, timedRuns), chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			_, _ = chromedp.Run(panel, chromedp.Evaluate[any](fmt.Sprintf(`chrome.tabs.remove(%d).catch(() => 0)`, tab), chromedp.EvalAwaitPromise))
			skipped = append(skipped, name)
			continue
		}
		if err := json.Unmarshal([]byte(raw), &out); err != nil {
			b.Fatal(err)
		}
		var s tool.Snap
		if err := json.Unmarshal([]byte(out.Raw), &s); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		text := tool.Format(&s, tool.SnapOptions{MaxTokens: 1 << 30})
		row.skiffMs = out.Ms + float64(time.Since(t0).Microseconds())/1000
		row.skiff = len(text)
		dump(name, "skiff", text)
		refs := e2e.JS[[]string](b, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, func: %s}).then(r => r[0].result)`, tab, groundTruth))
		row.truth = len(refs)
		if os.Getenv("SKIFF_SNAP_DUMP") != "" {
			// The visible controls that got no ref, each with its markup and where it is.
			noref := e2e.JS[[]string](b, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, func: %s, args: [true]}).then(r => r[0].result)`, tab, groundTruth))
			dump(name, "noref", strings.Join(noref, "\n"))
		}
		for _, r := range refs {
			if r != "" {
				row.skiffN++
			}
		}
		row.first, row.reach = reachable(&s, refs)
		e2e.JS[bool](b, panel, fmt.Sprintf(`chrome.tabs.remove(%d).then(() => true)`, tab))

		callText(b, pw, "browser_navigate", map[string]any{"url": url})
		ptext, pd := timed(b, pw, "browser_snapshot", map[string]any{})
		dump(name, "playwright", ptext)
		row.pw, row.pwMs, row.pwN = len(ptext), float64(pd.Microseconds())/1000, len(playwrightRefs.FindAllString(ptext, -1))

		callText(b, dt, "navigate_page", map[string]any{"type": "url", "url": url, "pageId": pageID})
		dtext, dd := timed(b, dt, "take_snapshot", map[string]any{"pageId": pageID})
		dump(name, "devtools", dtext)
		row.dt, row.dtMs, row.dtN = len(dtext), float64(dd.Microseconds())/1000, len(devtoolsRefs.FindAllString(dtext, -1))
		rows = append(rows, row)
	}
	for range b.N {
	}
	med := func(f func(r snapRow) float64) float64 {
		xs := make([]float64, len(rows))
		for i, r := range rows {
			xs[i] = f(r)
		}
		sort.Float64s(xs)
		return xs[len(xs)/2]
	}
	fmt.Printf("%-40s %9s %9s %9s %8s %8s %8s %6s %6s %6s %6s %6s %6s\n", "page", "skiff", "playwr", "devtools", "skiff-ms", "pw-ms", "dt-ms", "truth", "skiffN", "pwN", "dtN", "first", "reach")
	var truth, sN, pN, dN, first, reach, short, unreached int
	for _, r := range rows {
		fmt.Printf("%-40s %9d %9d %9d %8.1f %8.1f %8.1f %6d %6d %6d %6d %6d %6d\n", r.page, r.skiff, r.pw, r.dt, r.skiffMs, r.pwMs, r.dtMs, r.truth, r.skiffN, r.pwN, r.dtN, r.first, r.reach)
		truth, sN, pN, dN, first, reach = truth+r.truth, sN+r.skiffN, pN+r.pwN, dN+r.dtN, first+r.first, reach+r.reach
		if r.first < r.truth {
			short++
		}
		if r.reach < r.truth {
			unreached++
		}
	}
	if len(skipped) > 0 {
		fmt.Printf("left out (stuck as they load, for Skiff's reader): %v\n", skipped)
	}
	fmt.Printf("at the default budget: %d of %d visible controls in the first snapshot text (%d of %d pages leave some to a continuation); %d reachable through continuations (%d pages leave some unreachable)\n",
		first, truth, short, len(rows), reach, unreached)
	ms, mp, md := med(func(r snapRow) float64 { return float64(r.skiff) }), med(func(r snapRow) float64 { return float64(r.pw) }), med(func(r snapRow) float64 { return float64(r.dt) })
	b.ReportMetric(ms, "skiff-median-chars")
	b.ReportMetric(mp, "playwright-median-chars")
	b.ReportMetric(md, "devtools-median-chars")
	b.ReportMetric(ms/min(mp, md), "size-ratio-vs-smaller")
	// The same, page by page: each page's size against the smaller of the other two on that page.
	b.ReportMetric(med(func(r snapRow) float64 { return float64(r.skiff) / float64(min(r.pw, r.dt)) }), "size-ratio-per-page-median")
	b.ReportMetric(med(func(r snapRow) float64 { return r.skiffMs }), "skiff-median-ms")
	b.ReportMetric(med(func(r snapRow) float64 { return r.pwMs }), "playwright-median-ms")
	b.ReportMetric(med(func(r snapRow) float64 { return r.dtMs }), "devtools-median-ms")
	fmt.Printf("interactive elements visible: %d; of them with a ref in Skiff's snapshot: %d; refs on interactive roles: playwright %d, devtools %d\n", truth, sN, pN, dN)
	fmt.Printf("median tokens (chars/4): skiff %.0f, playwright %.0f, devtools %.0f\n", ms/4, mp/4, md/4)
}

func mustChromium(b *testing.B) string {
	p, err := e2e.ChromiumPath()
	if err != nil {
		b.Skip(err)
	}
	return p
}
