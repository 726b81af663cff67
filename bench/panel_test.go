//go:build !js

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// longAnswer is about n bytes of the markdown a model writes: headings, paragraphs with inline
// markup and links, lists, tables and fenced code.
func longAnswer(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Section %d\n\nThe **parser** reads each `token` and [links](https://example.com/%d) it to the tree; "+
			"this paragraph is long enough to wrap twice in a narrow side panel, like real answers do.\n\n", i, i)
		fmt.Fprintf(&b, "- first point about item %d\n- second point, *emphasised*\n- third point\n\n", i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "```go\nfunc step%d(x int) int {\n\treturn x * %d\n}\n```\n\n", i, i)
		}
		if i%4 == 0 {
			fmt.Fprintf(&b, "| key | value |\n|-----|------:|\n| a%d | %d |\n| b%d | %d |\n\n", i, i, i, i*2)
		}
	}
	return b.String()
}

// sseText streams text in the OpenAI format, size bytes per event, pause apart.
func sseText(text string, size int, pause time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for rest := text; rest != ""; {
			n := min(size, len(rest))
			for n < len(rest) && !utf8.RuneStart(rest[n]) {
				n++
			}
			c, _ := json.Marshal(rest[:n])
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", c)
			w.(http.Flusher).Flush()
			rest = rest[n:]
			time.Sleep(pause)
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}
}

// taskMs is the panel's main-thread busy time so far (Performance.getMetrics TaskDuration).
func taskMs(b *testing.B, tab context.Context) float64 {
	res, err := chromedp.Call(tab, performance.GetMetrics, cdp.Empty{})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range res.Metrics {
		if m.Name == "TaskDuration" {
			return m.Value * 1000
		}
	}
	b.Fatal("no TaskDuration metric")
	return 0
}

// BenchmarkRender50KB: the panel's main-thread time for a 50 KB answer, streamed in 2,500
// events through the real chat path, against the same answer shown once at the end (the
// "streaming" setting off), measured in the same browser. Then, in the page, the renderer
// alone: incremental (flushing after every event, no frame coalescing) and naive (re-rendering
// the whole text after every event) against one render.
func BenchmarkRender50KB(b *testing.B) {
	renderBench(b, "render 50KB", longAnswer(50<<10), true)
}

// BenchmarkRenderBigTable: as BenchmarkRender50KB, for an answer that is one block the renderer
// draws again as it grows (a 1,500-row table, about 100 KB, no blank line in it): the block being
// written is drawn again at each render, so the cost of each grows with it.
func BenchmarkRenderBigTable(b *testing.B) {
	var t strings.Builder
	t.WriteString("| # | country | capital | population | area |\n|---|---|---|---:|---:|\n")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&t, "| %d | Country %d | City %d | %d | %d |\n", i, i, i*7, i*104729%9999991, i*7919%99991)
	}
	renderBench(b, "render big table", t.String(), false)
}

// renderBench measures the panel's main-thread time for answer text streamed and shown once
// (see BenchmarkRender50KB), and with alone the renderer alone (flushing after every event,
// which for one growing block costs minutes).
func renderBench(b *testing.B, name, text string, alone bool) {
	srv := httptest.NewServer(sseText(text, 20, time.Millisecond))
	defer srv.Close()
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	tab := br.Panel(b)
	if _, err := chromedp.Call(tab, performance.Enable, performance.EnableParams{}); err != nil {
		b.Fatal(err)
	}
	e2e.Configure(b, tab, "custom", srv.URL, "", "bench")
	const done = `document.querySelector('#messages .msg[data-role="assistant"]:last-of-type')?.dataset.status === "done"`
	run := func() float64 {
		t0 := taskMs(b, tab)
		e2e.SendMessage(b, tab, "write it")
		e2e.WaitJS(b, tab, done)
		return taskMs(b, tab) - t0
	}
	var streamed, once []float64
	for range 3 {
		streamed = append(streamed, run())
	}
	e2e.JS[bool](b, tab, `(() => { const s = structuredClone(skiffTest.state.settings); delete s.hasKey; s.streaming = false; return skiffTest.call("settings.save", {settings: s, keys: {}}).then(r => (skiffTest.state.settings = r, true)) })()`)
	for range 3 {
		once = append(once, run())
	}
	got := e2e.JS[int](b, tab, `document.querySelector('#messages .msg[data-role="assistant"]:last-of-type .content').textContent.length`)

	b.ReportMetric(float64(len(text)), "answer-bytes")
	b.ReportMetric(pct(streamed, .5), "streamed-ms")
	b.ReportMetric(pct(once, .5), "once-ms")
	b.ReportMetric(pct(streamed, .5)/pct(once, .5), "ratio")
	fmt.Printf("%s: panel main thread, streamed %v ms, once %v ms (text shown: %d chars)\n", name, rounded(streamed), rounded(once), got)
	for range b.N {
	}
	if !alone {
		return
	}
	// The renderer alone, in the page, on the same events.
	times := e2e.JS[[]float64](b, tab, fmt.Sprintf(`(() => {
		const text = %s, size = 20, chunks = [];
		for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
		const box = document.createElement("div"); document.body.append(box);
		let t = performance.now();
		const s = new skiffTest.markdown.Stream(box);
		for (const c of chunks) { s.text += c; s.flush(); }
		s.cancel();
		box.replaceChildren(skiffTest.markdown.render(text)); // what the panel does when the reply ends
		const incremental = performance.now() - t;
		t = performance.now();
		let acc = "";
		for (const c of chunks) { acc += c; box.replaceChildren(skiffTest.markdown.render(acc)); }
		const naive = performance.now() - t;
		t = performance.now();
		box.replaceChildren(skiffTest.markdown.render(text));
		const one = performance.now() - t;
		box.remove();
		return [incremental, naive, one];
	})()`, jsonString(text)))
	b.ReportMetric(times[0]/times[2], "render-incremental-ratio")
	b.ReportMetric(times[1]/times[2], "render-naive-ratio")
	fmt.Printf("renderer alone: incremental %.1f ms, naive %.1f ms, once %.1f ms\n", times[0], times[1], times[2])
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// seed replaces Skiff's storage with n sessions of m messages each, through the panel's own
// import (store.ExportJSON in, "session.import" through the core), and opens the newest one.
func seed(b *testing.B, tab context.Context, n, m int) {
	now := time.Now().UnixMilli()
	var sessions []store.Session
	for i := range n {
		id := fmt.Sprintf("s%05d", i)
		ses := store.Session{Header: store.Header{ID: id, Title: fmt.Sprintf("Chat number %d about topic %d", i, i*7%13),
			Provider: "custom", Model: "bench", CreatedAt: now - int64(i)*60000, UpdatedAt: now - int64(i)*60000}}
		for j := range m {
			msg := store.Message{ID: fmt.Sprintf("%sm%d", id, j), Role: "user", CreatedAt: now - int64(i)*60000 + int64(j),
				Content: fmt.Sprintf("Question %d of chat %d", j, i)}
			if j%2 == 1 {
				msg.Role = "assistant"
				msg.Content = fmt.Sprintf("## Answer %d\n\nSome **markdown** with a [link](https://example.com) and a list:\n\n- one\n- two\n\n```js\nconst x = %d;\n```\n", j, j)
			}
			ses.Messages = append(ses.Messages, msg)
		}
		sessions = append(sessions, ses)
	}
	data, err := store.ExportJSON(store.Export{Sessions: sessions}, now)
	if err != nil {
		b.Fatal(err)
	}
	e2e.JS[bool](b, tab, `chrome.storage.local.clear().then(() => true)`)
	e2e.JS[bool](b, tab, fmt.Sprintf(`skiffTest.call("session.import", {data: %s}).then(r => r.sessions === %d)`, jsonString(string(data)), n))
	if n > 0 {
		e2e.JS[bool](b, tab, `skiffTest.call("session.open", {sessionId: "s00000"}).then(() => true)`)
	}
}

// openMs opens the panel k times and returns, for each, the time from navigation to the active
// chat drawn (the "skiff-ready" mark) and then to the History list drawn after its button is
// clicked.
func openMs(b *testing.B, br *e2e.Browser, k int) (ready, history []float64) {
	for range k + 1 {
		tab := br.Tab(b, br.URL("panel/index.html"))
		e2e.WaitJS(b, tab, `document.body.dataset.ready === "1"`)
		r := e2e.JS[float64](b, tab, `performance.getEntriesByName("skiff-ready")[0].startTime`)
		h := e2e.JS[float64](b, tab, `new Promise((resolve) => {
			const t = performance.now();
			document.getElementById("history-toggle").click();
			const check = () => skiffTest.state.sessions.length === document.querySelectorAll("#session-list .session").length ? resolve(performance.now() - t) : requestAnimationFrame(check);
			check();
		})`)
		ready, history = append(ready, r), append(history, h)
	}
	return ready[1:], history[1:] // the first open compiles what later opens find cached
}

// BenchmarkPanelOpen: panel open to ready (active chat drawn) and to the History list drawn,
// with 200 stored sessions of 20 messages, against an empty store in the same browser.
func BenchmarkPanelOpen(b *testing.B) {
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	setup := br.Panel(b)
	seed(b, setup, 0, 0)
	emptyReady, emptyHist := openMs(b, br, 7)
	seed(b, setup, 200, 20)
	fullReady, fullHist := openMs(b, br, 7)
	n := e2e.JS[int](b, setup, `chrome.storage.local.getBytesInUse(null)`)
	for range b.N {
	}
	b.ReportMetric(float64(n), "stored-bytes")
	b.ReportMetric(pct(emptyReady, .5), "empty-ready-ms")
	b.ReportMetric(pct(fullReady, .5), "200-ready-ms")
	b.ReportMetric(pct(fullReady, .5)/pct(emptyReady, .5), "ready-ratio")
	b.ReportMetric(pct(fullHist, .5), "200-history-ms")
	fmt.Printf("panel open, empty: ready %v ms, history %v ms\npanel open, 200 sessions: ready %v ms, history %v ms\n",
		rounded(emptyReady), rounded(emptyHist), rounded(fullReady), rounded(fullHist))
}

// BenchmarkReplyInLongChat: the panel's main-thread time for one short streamed reply in a chat
// that already holds 200 messages, against the same reply in an empty chat (same browser).
// What it shows is whether finishing a reply costs the length of the conversation.
func BenchmarkReplyInLongChat(b *testing.B) {
	srv := httptest.NewServer(sseText("Short answer with **bold** text.", 8, time.Millisecond))
	defer srv.Close()
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	tab := br.Panel(b)
	if _, err := chromedp.Call(tab, performance.Enable, performance.EnableParams{}); err != nil {
		b.Fatal(err)
	}
	const done = `document.querySelector('#messages .msg[data-role="assistant"]:last-of-type')?.dataset.status === "done"`
	reply := func(long bool) float64 {
		if long {
			seed(b, tab, 1, 200)
		} else {
			seed(b, tab, 0, 0)
		}
		e2e.Configure(b, tab, "custom", srv.URL, "", "bench")
		e2e.Do(b, tab, chromedp.Reload())
		e2e.WaitJS(b, tab, `document.body.dataset.ready === "1"`)
		n := e2e.JS[int](b, tab, `document.querySelectorAll("#messages .msg").length`)
		t0 := taskMs(b, tab)
		e2e.Do(b, tab, chromedp.SendKeys("#input", "one more\r"))
		e2e.WaitJS(b, tab, fmt.Sprintf(`document.querySelectorAll("#messages .msg").length === %d && %s`, n+2, done))
		return taskMs(b, tab) - t0
	}
	var short, long []float64
	for range 5 {
		short = append(short, reply(false))
		long = append(long, reply(true))
	}
	for range b.N {
	}
	b.ReportMetric(pct(short, .5), "empty-chat-ms")
	b.ReportMetric(pct(long, .5), "200-msg-chat-ms")
	b.ReportMetric(pct(long, .5)/pct(short, .5), "ratio")
	fmt.Printf("reply, empty chat: %v ms; in a 200-message chat: %v ms\n", rounded(short), rounded(long))
}

// BenchmarkOverlayOpen: the chat on the page, from the shortcut's handler in the worker to the
// overlay drawn and ready for typing, on a fresh page each time, against the side panel page
// from its navigation to ready, in the same browser. (The key press to the command event is
// Chrome's and the same for both.) A page that never opens the overlay pays nothing: nothing is
// injected until it is asked for.
func BenchmarkOverlayOpen(b *testing.B) {
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>Page</title><h1>A page</h1><p>Some text to chat about.</p>")
	}))
	defer site.Close()
	setup := br.Panel(b)
	seed(b, setup, 0, 0)
	model := testkit.OpenAIText(b, "Hello from the bench model.", 8, 0)
	e2e.Configure(b, setup, "openai", model.URL, "sk-bench", "gpt-test")
	panelReady, _ := openMs(b, br, 7)
	// First token in the side panel: Send pressed to the reply's first words drawn.
	var panelFirst []float64
	for range 8 {
		e2e.NewChat(b, setup)
		panelFirst = append(panelFirst, e2e.JS[float64](b, setup, firstTokenJS))
	}
	panelFirst = panelFirst[1:]
	var overlay, overlayFirst []float64
	for i := range 8 {
		url := fmt.Sprintf("%s/?%d", site.URL, i)
		tab := br.Tab(b, url)
		e2e.WaitJS(b, tab, `document.readyState === "complete"`)
		// The times are the overlay's own marks from the moment the worker opens it, so the
		// wait for the frame to settle (Browser.Overlay) adds nothing to them.
		q, _ := json.Marshal(url)
		ov := br.Overlay(b, tab, `chrome.tabs.query({url: `+string(q)+`}).then(([tab]) => (globalThis.__benchOpened = performance.timeOrigin + performance.now(), tab))`)
		t0 := e2e.WorkerValue[float64](b, br, `globalThis.__benchOpened`)
		t1 := e2e.JS[float64](b, ov, `performance.timeOrigin + performance.getEntriesByName("skiff-ready")[0].startTime`)
		overlay = append(overlay, t1-t0)
		overlayFirst = append(overlayFirst, e2e.JS[float64](b, ov, firstTokenJS))
		e2e.JS[bool](b, tab, `(document.querySelector("skiff-overlay").remove(), true)`)
	}
	overlay, overlayFirst = overlay[1:], overlayFirst[1:] // the first open compiles what later opens find cached
	for range b.N {
	}
	b.ReportMetric(pct(overlay, .5), "overlay-ready-ms")
	b.ReportMetric(pct(panelReady, .5), "panel-ready-ms")
	b.ReportMetric(pct(overlay, .5)/pct(panelReady, .5), "overlay/panel")
	b.ReportMetric(pct(overlayFirst, .5), "overlay-first-token-ms")
	b.ReportMetric(pct(panelFirst, .5), "panel-first-token-ms")
	b.ReportMetric(pct(overlayFirst, .5)/pct(panelFirst, .5), "first-token-overlay/panel")
	fmt.Printf("overlay open to ready: %v ms; side panel page open to ready: %v ms\n", rounded(overlay), rounded(panelReady))
	fmt.Printf("first token, overlay: %v ms; side panel: %v ms\n", rounded(overlayFirst), rounded(panelFirst))
}

// firstTokenJS sends a message from the page's message box and times Send to the reply's first
// words in the DOM (a MutationObserver, not a frame callback: the moment they are inserted).
const firstTokenJS = `new Promise((resolve) => {
	const box = document.getElementById("input");
	box.value = "Say hello";
	const before = document.querySelectorAll('#messages .msg[data-role="assistant"]').length;
	const started = () => {
		const m = [...document.querySelectorAll('#messages .msg[data-role="assistant"]')];
		return m.length > before && m.at(-1).querySelector(".content")?.textContent.trim();
	};
	const obs = new MutationObserver(() => { if (started()) { obs.disconnect(); resolve(performance.now() - t0); } });
	obs.observe(document.getElementById("messages"), { childList: true, subtree: true, characterData: true });
	const t0 = performance.now();
	document.getElementById("send").click();
})`
