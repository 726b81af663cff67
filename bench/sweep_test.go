//go:build !js

package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// BenchmarkSweep drives every real page of testdata (Readability's test pages, 130) through
// skiffd as an outside client would: navigate, snapshot, read_text, links, find_text of a word
// of the page, screenshot, scroll, typing into up to two of its fields, choosing in a list,
// hovering a link, get_content, then a click on up to three of its buttons, tabs and
// checkboxes (going back when a click left the page, closing a tab it opened). A call the gate
// asks about is denied from the panel, and counted. It judges nothing: it reports each tool's
// times and every error, ask and slow call, for a person to read (what an outside tester of
// Skiff would see on pages no test was written for). About 3 minutes here: run it with
// `make sweep` (SKIFF_SWEEP=1); SKIFF_SWEEP_OUT names a file for the whole report, and
// SKIFF_SWEEP_PAGES=a,b sweeps those pages only.
func BenchmarkSweep(b *testing.B) {
	if os.Getenv("SKIFF_SWEEP") == "" {
		b.Skip("set SKIFF_SWEEP=1 (make sweep): it takes about 3 minutes")
	}
	base := testkit.Pages(b)
	names := testkit.AllPageNames(b)
	if only := os.Getenv("SKIFF_SWEEP_PAGES"); only != "" { // some pages only: "wikia,yahoo-1"
		names = strings.Split(only, ",")
	}
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	skc, panel := linkedClient(b, br, base)
	if os.Getenv("SKIFF_TRACE") != "" {
		br.WorkerConsole(b)
	}

	type call struct {
		page, tool string
		ms         float64
		failed     bool
		asked      bool
		text       string
	}
	var calls []call
	do := func(page, tool string, args map[string]any) (string, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		type answer struct {
			r   *mcp.CallToolResult
			err error
		}
		ch := make(chan answer, 1)
		start := time.Now()
		go func() {
			r, err := skc.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
			ch <- answer{r, err}
		}()
		why := "" // what the panel asked, when it did
		var a answer
	wait:
		for {
			select {
			case a = <-ch:
				break wait
			case <-time.After(250 * time.Millisecond):
				// An ask (an irreversible click, a site the policy does not cover): denied.
				if w := e2e.JS[string](b, panel, `(a => a ? (a.querySelector('button[data-decision="deny_once"]').click(), a.textContent.replace(/\s+/g, " ")) : "")(document.querySelector('#outside-asks .outside-ask'))`); w != "" {
					why = w
				}
			}
		}
		c := call{page: page, tool: tool, ms: float64(time.Since(start).Microseconds()) / 1000, asked: why != ""}
		if a.err != nil {
			c.failed, c.text = true, a.err.Error()
		} else {
			for _, x := range a.r.Content {
				if tc, ok := x.(*mcp.TextContent); ok {
					c.text += tc.Text
				}
			}
			c.failed = a.r.IsError
		}
		if c.asked {
			c.text = "asked: " + why + " → " + c.text
		}
		calls = append(calls, c)
		return c.text, c.failed
	}
	control := regexp.MustCompile(`\b(button|tab|checkbox|switch|radio)(?: "[^"\n]*")? \[(e\d+)\]`)
	newTab := regexp.MustCompile(`opened a new tab \(tabId (\d+)\)`)
	word := regexp.MustCompile(`\p{L}{6,}`)
	for i, name := range names {
		page := base + "/" + name + "/"
		fmt.Fprintf(os.Stderr, "\rsweep %d/%d %-50s", i+1, len(names), name)
		if _, failed := do(name, "navigate", map[string]any{"url": page}); failed {
			continue
		}
		snap, _ := do(name, "snapshot", map[string]any{})
		text, _ := do(name, "read_text", map[string]any{})
		do(name, "links", map[string]any{})
		if w := word.FindString(text); w != "" {
			do(name, "find_text", map[string]any{"text": w})
		}
		do(name, "screenshot", map[string]any{})
		do(name, "scroll", map[string]any{"direction": "down"})
		field := regexp.MustCompile(`\b(textbox|searchbox|combobox)(?: "[^"\n]*")? \[(e\d+)\]`)
		for k, m := range field.FindAllStringSubmatch(snap, 2) {
			do(name, "type", map[string]any{"ref": m[2], "text": fmt.Sprintf("skiff sweep %d", k)})
		}
		// A list's second option, chosen; a link, hovered; the page's main content, read.
		if m := regexp.MustCompile(`\bcombobox(?: "[^"\n]*")? \[(e\d+)\][^\n]*options="[^"]*","([^"]*)"`).FindStringSubmatch(snap); m != nil {
			do(name, "select_option", map[string]any{"ref": m[1], "values": []string{m[2]}})
		}
		if m := regexp.MustCompile(`\blink "[^"\n]+" \[(e\d+)\]`).FindStringSubmatch(snap); m != nil {
			do(name, "hover", map[string]any{"ref": m[1]})
		}
		do(name, "get_content", map[string]any{})
		clicked := 0
		for _, m := range control.FindAllStringSubmatch(snap, -1) {
			if clicked == 3 {
				break
			}
			clicked++
			out, _ := do(name, "click", map[string]any{"ref": m[2]})
			if t := newTab.FindStringSubmatch(out); t != nil {
				var id int
				fmt.Sscan(t[1], &id)
				do(name, "tab_close", map[string]any{"tabIds": []int{id}})
			}
			if strings.Contains(out, "The page changed to") || strings.Contains(out, "The page loaded again") {
				do(name, "navigate", map[string]any{"url": page})
				break // its refs are gone
			}
		}
	}
	fmt.Fprintln(os.Stderr)
	for range b.N {
	}

	var out strings.Builder
	byTool := map[string][]call{}
	for _, c := range calls {
		byTool[c.tool] = append(byTool[c.tool], c)
	}
	tools := make([]string, 0, len(byTool))
	for t := range byTool {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	fmt.Fprintf(&out, "sweep of %d real pages through skiffd: %d calls\n", len(names), len(calls))
	fmt.Fprintf(&out, "  %-12s %6s %7s %6s %9s %9s %9s\n", "tool", "calls", "errors", "asked", "p50 ms", "p95 ms", "max ms")
	for _, t := range tools {
		cs := byTool[t]
		var ms []float64
		errs, asks := 0, 0
		for _, c := range cs {
			ms = append(ms, c.ms)
			if c.failed {
				errs++
			}
			if c.asked {
				asks++
			}
		}
		sort.Float64s(ms)
		fmt.Fprintf(&out, "  %-12s %6d %7d %6d %9.1f %9.1f %9.1f\n", t, len(cs), errs, asks, pct(ms, .5), pct(ms, .95), ms[len(ms)-1])
		b.ReportMetric(float64(errs), t+"-errors")
	}
	fmt.Print(out.String())
	out.WriteString("\nerrors, asks and calls slower than 3 s:\n")
	for _, c := range calls {
		if c.failed || c.asked || c.ms > 3000 {
			text := strings.Join(strings.Fields(c.text), " ")
			if len(text) > 300 {
				n := 300
				for n > 0 && !utf8.RuneStart(text[n]) {
					n--
				}
				text = text[:n] + "…"
			}
			fmt.Fprintf(&out, "  %-40s %-10s %7.0f ms error=%v asked=%v: %s\n", c.page, c.tool, c.ms, c.failed, c.asked, text)
		}
	}
	if f := os.Getenv("SKIFF_SWEEP_OUT"); f != "" {
		if err := os.WriteFile(f, []byte(out.String()), 0o644); err != nil {
			b.Error(err)
		}
	}
}
