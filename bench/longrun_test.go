//go:build !js

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// BenchmarkLongAgentRun: an agent run that reads a long article (a Readability test page, a
// 15 KB snapshot) step after step, with a scripted model that answers at once, and what each
// step costs Skiff between one call's end and the next call's start (the model's turn: the
// request, the reply, and the writes of the chat) early in the run and late in it. A chat is
// written at each step; what a write costs must not grow with all the chat read before.
// SKIFF_BASELINE_EXT names another build of ext/ run the same way in the same run.
func BenchmarkLongAgentRun(b *testing.B) {
	const reads = 22
	pages := testkit.Pages(b)
	page := pages + "/wikipedia-3/"
	model := testkit.NewModel(b, func(c *testkit.Conversation) testkit.Turn {
		switch s := c.Steps(); {
		case s == 0:
			return testkit.Turn{Calls: []testkit.Call{{Name: "navigate", Args: map[string]any{"url": page}}}}
		case s <= reads:
			return testkit.Turn{Calls: []testkit.Call{{Name: "snapshot", Args: map[string]any{}}}}
		}
		return testkit.Turn{Text: "Done."}
	})
	run := func(ext string) (early, late, total float64, size int) {
		br, stop, err := e2e.Launch(ext, func(string, ...any) {})
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		tab := br.Panel(b)
		e2e.Configure(b, tab, "openai", model.URL, "sk-bench", "gpt-test")
		e2e.JS[any](b, tab, fmt.Sprintf(`skiffTest.call("permission.set", {tool: "*", origin: %q, decision: "allow_always"})`, pages))
		e2e.JS[any](b, tab, fmt.Sprintf(`chrome.tabs.create({url: %q, active: true}).then(() => true)`, page))
		v := e2e.JS[[]any](b, tab, fmt.Sprintf(`(async () => {
			const win = (await chrome.windows.getCurrent()).id;
			const t0 = performance.now();
			const r = await skiffTest.call("chat.send", {text: "Read the article again and again.", agent: true, windowId: win});
			for (;;) {
				const s = await skiffTest.call("session.open", {sessionId: r.sessionId});
				const m = s.messages.at(-1);
				if (m.role === "assistant" && m.status !== "streaming" && s.messages.filter(x => x.tool).length > %d) {
					const tools = s.messages.filter(x => x.tool);
					const gaps = [];
					for (let k = 1; k < tools.length; k++) gaps.push(tools[k].createdAt - tools[k-1].createdAt - tools[k-1].tool.durationMs);
					return [gaps, m.createdAt - s.messages[0].createdAt, JSON.stringify(s).length];
				}
				await new Promise(r => setTimeout(r, 100));
			}
		})()`, reads))
		var gaps []float64
		for _, g := range v[0].([]any) {
			gaps = append(gaps, g.(float64))
		}
		if len(gaps) < 12 {
			b.Fatalf("%d steps", len(gaps))
		}
		// The first gaps are the run's start (the page loading, the first read); the early
		// ones are steps 3 to 7, the late ones the last five.
		return median(gaps[2:7]), median(gaps[len(gaps)-5:]), v[1].(float64), int(v[2].(float64))
	}
	early, late, total, size := run(filepath.Join(e2e.RepoRoot(), "ext"))
	fmt.Printf("long agent run, %d reads, chat of %d bytes: a step's own time early %.0f ms, late %.0f ms (%.2f×); the run %.0f ms\n", reads, size, early, late, late/early, total)
	b.ReportMetric(early, "early-step-ms")
	b.ReportMetric(late, "late-step-ms")
	b.ReportMetric(late/early, "late-vs-early")
	b.ReportMetric(total, "run-ms")
	if dir := os.Getenv("SKIFF_BASELINE_EXT"); dir != "" {
		be, bl, bt, _ := run(dir)
		fmt.Printf("baseline: early %.0f ms, late %.0f ms (%.2f×); the run %.0f ms\n", be, bl, bl/be, bt)
		b.ReportMetric(late/bl, "late-vs-baseline")
		b.ReportMetric(total/bt, "run-vs-baseline")
	}
	for range b.N {
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
