//go:build !js

// Package bench measures what a user feels: how big core.wasm is, how long a stopped worker
// takes to answer (against a bare-JS worker measured in the same run), and how long streamed
// text takes from the server's flush to the panel's DOM. Run with `make bench`; it is not part
// of `make test` or CI, and asserts nothing about time.
package bench

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/skiff-ai/skiff/internal/e2e"
)

func BenchmarkCoreWasmSize(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join(e2e.RepoRoot(), "ext", "core.wasm"))
	if err != nil {
		b.Fatal(err)
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = w.Write(raw)
	_ = w.Close()
	for range b.N {
	}
	b.ReportMetric(float64(len(raw)), "raw-bytes")
	b.ReportMetric(float64(gz.Len()), "gzip-bytes")
}

// wakeJS connects to a stopped worker and times its answer to a ping.
const wakeJS = `(async () => {
	const t0 = performance.now();
	const p = chrome.runtime.connect({ name: "bench" });
	await new Promise((resolve, reject) => {
		p.onMessage.addListener((raw) => { const m = JSON.parse(raw); if (m.type === "reply" && m.id === 1) resolve(); });
		p.onDisconnect.addListener(() => reject(new Error("disconnected")));
		p.postMessage(JSON.stringify({ id: 1, type: "core.ping" }));
	});
	const dt = performance.now() - t0;
	p.disconnect();
	return dt;
})()`

// How a wake is timed: from a plain page of the extension, from a Skiff panel (which keeps the
// core compiled, ui/connection.js holdCore), or from a Skiff panel that cannot keep it (how a
// wake fares with nothing holding the core's code: the panel and the page's chat closed).
type wakeFrom int

const (
	fromPage wakeFrom = iota
	fromPanel
	fromPanelUnheld
)

// waker is a browser with one extension loaded, whose worker it stops and wakes from its page.
type waker struct {
	br   *e2e.Browser
	tab  context.Context
	stop context.CancelFunc
	ms   []float64
}

// newWaker launches dir's extension and opens page. A Skiff panel holds a port that wakes a
// stopped worker at once: it lets go of it first, or every wake would be timed on a worker
// already awake. The first wake is not timed: it also compiles code Chrome caches afterwards.
func newWaker(b *testing.B, dir, page string, from wakeFrom) *waker {
	br, stop, err := e2e.Launch(dir, func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	w := &waker{br: br, stop: stop, tab: br.TabWithin(b, br.URL(page), 30*time.Minute)} // the browsers take turns for the whole run
	if from == fromPanelUnheld {
		// The panel is Skiff's own, but its page cannot compile: its hold fails (and says so
		// in its console), and nothing in the process keeps the core's code.
		if _, err := chromedp.Call(w.tab, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `WebAssembly.compile = () => Promise.reject(new Error("the wake benchmark keeps this panel from holding the core"))`}); err != nil {
			b.Fatal(err)
		}
		e2e.Do(b, w.tab, chromedp.Reload())
	}
	if from != fromPage {
		e2e.WaitJS(b, w.tab, `document.body.dataset.ready === "1"`)
		e2e.JS[bool](b, w.tab, `(skiffTest.disconnect(), true)`)
		// The panel keeps the core compiled once the core answered it: wait for it, or the
		// first wakes would be timed without it. A build from before it (SKIFF_BASELINE_EXT)
		// has no heldCore.
		e2e.WaitJS(b, w.tab, `!skiffTest.heldCore || skiffTest.heldCore() !== null`)
		held := e2e.JS[bool](b, w.tab, `!!skiffTest.heldCore && skiffTest.heldCore().then((m) => m instanceof WebAssembly.Module)`)
		if want := from == fromPanel && e2e.JS[bool](b, w.tab, `!!skiffTest.heldCore`); held != want {
			b.Fatalf("the panel holds the core: %v, want %v", held, want)
		}
	}
	br.StopWorker(b)
	e2e.JS[float64](b, w.tab, wakeJS)
	if _, err := os.Stat(filepath.Join(dir, "core-build.js")); err == nil {
		// A worker that keeps core.wasm in the Cache API (ext/sw.js) writes its copy after it
		// answered; a real worker lives 30 s after its last event, this one is stopped at once:
		// wait for the copy, as a user's next wake would find it.
		e2e.Eventually(b, 30*time.Second, func() bool {
			return e2e.JS[bool](b, w.tab, `caches.open("skiff-core").then((c) => c.keys()).then((ks) => ks.length === 1)`)
		}, "core.wasm was not cached")
	}
	return w
}

// once stops the worker, wakes it and keeps the time of the wake.
func (w *waker) once(b *testing.B) {
	w.br.StopWorker(b)
	w.ms = append(w.ms, e2e.JS[float64](b, w.tab, wakeJS))
}

func pct(xs []float64, p float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// buildHello builds bench/gohello (a Go hello-world worker) into its extension folder, with
// the same flags as core.wasm.
func buildHello(b *testing.B) string {
	root := e2e.RepoRoot()
	dir := filepath.Join(root, "bench", "gohello", "ext")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "hello.wasm"), "./bench/gohello")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build gohello: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatal(err)
	}
	wasmExec, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), wasmExec, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkWake: a stopped worker's time to answer a ping, for a bare-JS worker, a Go
// hello-world worker (the floor for any Go core: the Go runtime's start) and Skiff, in the
// same run. Skiff is timed from its panel, which keeps the core's code in the process (the
// wake a user waits on: the panel open, or the chat on a page), and again from a panel that
// cannot, as a wake with both closed (an alarm's, a page's dialog report) finds it.
func BenchmarkWake(b *testing.B) {
	const n = 15
	root := e2e.RepoRoot()
	bare := newWaker(b, filepath.Join(root, "bench", "barejs"), "page.html", fromPage)
	hello := newWaker(b, buildHello(b), "page.html", fromPage)
	skiff := newWaker(b, filepath.Join(root, "ext"), "panel/index.html", fromPanel)
	unheld := newWaker(b, filepath.Join(root, "ext"), "panel/index.html", fromPanelUnheld)
	all := []*waker{bare, hello, skiff, unheld}
	// SKIFF_BASELINE_EXT names another build of ext/ (an earlier commit's, built with
	// build.sh in a worktree) to wake in the same run: how a change moved the wake time.
	var base *waker
	if dir := os.Getenv("SKIFF_BASELINE_EXT"); dir != "" {
		base = newWaker(b, dir, "panel/index.html", fromPanel)
		all = append(all, base)
	}
	for _, w := range all {
		defer w.stop()
	}
	// The browsers take turns, one wake each: a machine whose speed drifts over the run (a
	// busy neighbour, a laptop's clock) slows each of them alike, not the one timed then.
	for range n {
		for _, w := range all {
			w.once(b)
		}
	}
	for range b.N {
	}
	if base != nil {
		b.ReportMetric(pct(base.ms, .5), "baseline-p50-ms")
		b.ReportMetric(pct(skiff.ms, .5)/pct(base.ms, .5), "ratio-vs-baseline-p50")
		fmt.Printf("wake ms, baseline: %v\n", rounded(base.ms))
	}
	b.ReportMetric(pct(bare.ms, .5), "bare-p50-ms")
	b.ReportMetric(pct(hello.ms, .5), "gohello-p50-ms")
	b.ReportMetric(pct(skiff.ms, .5), "skiff-p50-ms")
	b.ReportMetric(pct(skiff.ms, .95), "skiff-p95-ms")
	b.ReportMetric(pct(skiff.ms, .5)/pct(bare.ms, .5), "ratio-vs-bare-p50")
	b.ReportMetric(pct(skiff.ms, .5)/pct(hello.ms, .5), "ratio-vs-gohello-p50")
	b.ReportMetric(pct(unheld.ms, .5), "skiff-unheld-p50-ms")
	b.ReportMetric(pct(unheld.ms, .5)/pct(hello.ms, .5), "unheld-ratio-vs-gohello-p50")
	fmt.Printf("wake ms, bare JS:   %v\nwake ms, Go hello: %v\nwake ms, skiff:    %v\nwake ms, skiff with nothing holding its code: %v\n",
		rounded(bare.ms), rounded(hello.ms), rounded(skiff.ms), rounded(unheld.ms))
}

func rounded(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(int(x*10)) / 10
	}
	return out
}

// BenchmarkStreamOverhead: a local OpenAI-compatible server flushes n small events; the panel
// records when each one's text is in the DOM (a MutationObserver); latency = DOM time - flush time,
// both wall clocks of this machine. Three replies in one run: the first of the first worker
// (cold: V8 compiles the core's hot functions, on background threads, while the reply streams),
// the second (warm), and the first of a worker stopped and woken again.
//
// SKIFF_STREAM_DUMP=1 prints the first reply's late events, as the panel's page saw them and as
// a second port saw them (a stall there is in the worker, not the panel); SKIFF_JSFLAGS passes
// V8 flags to Chromium (--no-wasm-dynamic-tiering compiles every function with TurboFan at
// once, and makes the stalls of the first reply longer: they are the optimizing compiler's).
func BenchmarkStreamOverhead(b *testing.B) {
	const n, token = 400, "w0000 "
	var mu sync.Mutex
	flushed := make([]float64, n) // unix ms, of the reply under way
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range n {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"w%04d \"}}]}\n\n", i)
			w.(http.Flusher).Flush()
			mu.Lock()
			flushed[i] = float64(time.Now().UnixMicro()) / 1000
			mu.Unlock()
			time.Sleep(3 * time.Millisecond)
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()

	var extra []chromedp.ExecAllocatorOption
	if f := os.Getenv("SKIFF_JSFLAGS"); f != "" {
		extra = append(extra, chromedp.Flag("js-flags", f))
	}
	br, tab, stop := benchPanel(b, "custom", srv.URL, "", "bench", extra...)
	defer stop()
	reply := func() []float64 {
		mu.Lock()
		flushed = make([]float64, n)
		mu.Unlock()
		e2e.JS[bool](b, tab, `(() => {
			window.__seen = [];
			window.__watch?.disconnect();
			window.__watch = new MutationObserver(() => {
				const c = document.querySelector('#messages .msg[data-role="assistant"]:last-of-type .content');
				if (c) window.__seen.push([performance.timeOrigin + performance.now(), c.textContent.length]);
			});
			window.__watch.observe(document.getElementById("messages"), { subtree: true, childList: true, characterData: true });
			window.__port?.disconnect();
			window.__arr = [];
			if (`+strconv.Quote(os.Getenv("SKIFF_STREAM_DUMP"))+`) {
				// A second panel's port, to tell a stall in the worker from one in the panel.
				window.__port = chrome.runtime.connect({ name: "panel" });
				window.__port.onMessage.addListener((raw) => { const m = JSON.parse(raw); if (m.type === "chat.delta") window.__arr.push([performance.timeOrigin + performance.now(), (m.text || "").length]); });
			}
			return true })()`)
		e2e.SendMessage(b, tab, "go")
		e2e.WaitJS(b, tab, `document.querySelector('#messages .msg[data-role="assistant"]:last-of-type')?.dataset.status === "done"`)
		seen := e2e.JS[[][2]float64](b, tab, `window.__seen`)
		if os.Getenv("SKIFF_STREAM_DUMP") != "" {
			arr := e2e.JS[[][2]float64](b, tab, `window.__arr`)
			mu.Lock()
			fmt.Printf("events reaching a second port later than 8 ms (event:ms): ")
			for i := 0; i < len(arr) && i < n; i++ {
				if d := arr[i][0] - flushed[i]; d > 8 {
					fmt.Printf("%d:%.1f ", i, d)
				}
			}
			fmt.Println()
			mu.Unlock()
		}
		var lat []float64
		j := 0
		mu.Lock()
		defer mu.Unlock()
		for i := range n {
			want := float64((i+1)*len(token) - 1) // the last space is trimmed by the paragraph
			for j < len(seen) && seen[j][1] < want {
				j++
			}
			if j == len(seen) {
				b.Fatalf("event %d never reached the DOM", i)
			}
			lat = append(lat, seen[j][0]-flushed[i])
		}
		return lat
	}
	cold := reply()
	if os.Getenv("SKIFF_STREAM_DUMP") != "" {
		fmt.Printf("events reaching the panel's page later than 8 ms (event:ms): ")
		for i, l := range cold {
			if l > 8 {
				fmt.Printf("%d:%.1f ", i, l)
			}
		}
		fmt.Println()
	}
	e2e.NewChat(b, tab)
	warm := reply()
	// A worker Chrome stopped and woke again, as a user's first reply after a pause begins (the
	// browser has run the core before: what V8 keeps of it between workers, it uses).
	br.RestartWorker(b, tab)
	e2e.NewChat(b, tab)
	woken := reply()
	for range b.N {
	}
	b.ReportMetric(pct(cold, .5), "p50-ms")
	b.ReportMetric(pct(cold, .95), "p95-ms")
	b.ReportMetric(pct(woken, .5), "woken-p50-ms")
	b.ReportMetric(pct(woken, .95), "woken-p95-ms")
	b.ReportMetric(pct(warm, .5), "warm-p50-ms")
	b.ReportMetric(pct(warm, .95), "warm-p95-ms")
}

// benchPanel launches Chromium with the built extension and returns it, its panel set up for
// provider at url with key and model, and what closes it. SKIFF_TRACE=1 prints the worker's
// console.
func benchPanel(b *testing.B, provider, url, key, model string, extra ...chromedp.ExecAllocatorOption) (*e2e.Browser, context.Context, func()) {
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {}, extra...)
	if err != nil {
		b.Fatal(err)
	}
	tab := br.Panel(b)
	if os.Getenv("SKIFF_TRACE") != "" {
		br.WorkerConsole(b)
	}
	e2e.Configure(b, tab, provider, url, key, model)
	return br, tab, stop
}
