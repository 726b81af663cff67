//go:build !js

package e2e

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/daemon"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/testkit/acpagent"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var browser *Browser

func TestMain(m *testing.M) {
	root := RepoRoot()
	if err := CheckFresh(root); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// skiffd's LAN certificate for the web client's test on the "LAN": the browser trusts
	// that one key (as a phone does once its user accepted it), and nothing else.
	lanCertDir, err := os.MkdirTemp("", "skiff-lan-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cert, err := daemon.LANCert(lanCertDir, []string{"127.0.0.1"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lanCertFiles = [2]string{filepath.Join(lanCertDir, "lan-cert.pem"), filepath.Join(lanCertDir, "lan-key.pem")}
	leaf, _ := x509.ParseCertificate(cert.Certificate[0])
	spki := sha256.Sum256(leaf.RawSubjectPublicKeyInfo)
	b, stop, err := Launch(root+"/ext", func(f string, a ...any) {},
		chromedp.Flag("ignore-certificate-errors-spki-list", base64.StdEncoding.EncodeToString(spki[:])))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	browser = b
	code := m.Run()
	stop()
	os.RemoveAll(lanCertDir)
	acpagent.Cleanup()
	os.Exit(code)
}

type shown struct {
	Role, Status, Content, Notice string
}

// messages reads the conversation as it is on screen.
func messages(t *testing.T, tab context.Context) []shown {
	t.Helper()
	raw := JS[string](t, tab, `JSON.stringify([...document.querySelectorAll("#messages .msg")].map(n => ({
		Role: n.dataset.role, Status: n.dataset.status,
		Content: (n.querySelector(".content") || n).textContent.replace(/\s+/g, " ").trim(),
		Notice: (n.querySelector(".notice") || {}).textContent || ""})))`)
	var out []shown
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// flat is text as the messages helper reads it from the screen: whitespace runs as one space.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

const lastAssistant = `[...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1)`

func TestChatStreamsFromEachWireFormat(t *testing.T) {
	tests := []struct {
		provider, file, model, want string
		check                       func(t *testing.T, s *testkit.Server)
		tokens                      string // the reply's Details, as the provider counted
	}{
		{"openai", "openai/text_usage.sse", "gpt-4o",
			"I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.",
			func(t *testing.T, s *testkit.Server) {
				r, body := s.Last()
				if r.URL.Path != "/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-openai-test" {
					t.Errorf("request %s %q", r.URL.Path, r.Header.Get("Authorization"))
				}
				if !strings.Contains(body, `"stream":true`) || !strings.Contains(body, `"model":"gpt-4o"`) {
					t.Errorf("body %s", body)
				}
			}, "tokens: 14 in, 30 out"},
		{"anthropic", "anthropic/text.sse", "claude-sonnet-4-20250514",
			"Olá! (That's \"hi\" in Portuguese)\n\nYou could also say \"Oi!\" which is a more casual way to say hi in Portuguese.",
			func(t *testing.T, s *testkit.Server) {
				r, _ := s.Last()
				if r.URL.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != "sk-anthropic-test" ||
					r.Header.Get("Anthropic-Dangerous-Direct-Browser-Access") != "true" || r.Header.Get("Anthropic-Version") != "2023-06-01" {
					t.Errorf("request %s %v", r.URL.Path, r.Header)
				}
			}, "tokens: 16 in, 38 out"},
		{"google", "gemini/text.sse", "gemini-2.0-flash",
			"The capital of France is Paris.\n",
			func(t *testing.T, s *testkit.Server) {
				r, _ := s.Last()
				if r.URL.Path != "/models/gemini-2.0-flash:streamGenerateContent" || r.URL.Query().Get("alt") != "sse" ||
					r.Header.Get("X-Goog-Api-Key") != "sk-google-test" {
					t.Errorf("request %s %v", r.URL, r.Header)
				}
			}, "tokens: 13 in, 8 out"},
		// OpenRouter says what it billed, in dollars.
		{"openrouter", "openrouter/text_keepalive_usage.sse", "openai/gpt-4o-mini", "Hello!",
			func(t *testing.T, s *testkit.Server) {
				if r, _ := s.Last(); r.URL.Path != "/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-openrouter-test" {
					t.Errorf("request %s %v", r.URL.Path, r.Header)
				}
			}, "tokens: 254 in, 5 out · cost $0.000837"},
	}
	for _, tc := range tests {
		t.Run(tc.provider, func(t *testing.T) {
			srv := testkit.Replay(t, tc.file, 5*time.Millisecond)
			tab := browser.Panel(t)
			Configure(t, tab, tc.provider, srv.URL, "sk-"+tc.provider+"-test", tc.model)
			SendMessage(t, tab, "hello")
			WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
			ms := messages(t, tab)
			if len(ms) != 2 || ms[0].Content != "hello" || ms[1].Content != flat(tc.want) || ms[1].Notice != "" {
				t.Fatalf("on screen: %+v", ms)
			}
			tc.check(t, srv)
			// Details: the model, the tokens the provider counted, and the reply's timing.
			Click(t, tab, lastAssistant+`.querySelector(".info-msg")`)
			WaitJS(t, tab, lastAssistant+`.querySelector(".m-info") !== null`)
			info := JS[string](t, tab, lastAssistant+`.querySelector(".m-info").textContent`)
			if !regexp.MustCompile(`^` + regexp.QuoteMeta(tc.model+" · "+tc.tokens) + ` · first text after \d+\.\d+ s, done after \d+\.\d+ s( · \d+ tokens/s)?$`).MatchString(info) {
				t.Errorf("the reply's details: %q", info)
			}
			if got := JS[string](t, tab, lastAssistant+`.querySelector(".info-msg").getAttribute("aria-expanded")`); got != "true" {
				t.Errorf("Details is aria-expanded=%q when open", got)
			}
			// The key was sent to its provider and nowhere else: not to the panel.
			if JS[bool](t, tab, `JSON.stringify(document.body.innerHTML).includes("sk-`+tc.provider+`-test")`) {
				t.Error("the API key is in the panel's DOM")
			}
		})
	}
}

// Stop mid-stream keeps the partial reply, on screen and after the panel is reopened.
func TestStopKeepsPartialReply(t *testing.T) {
	srv := testkit.Replay(t, "deepseek/reasoning.sse", 60*time.Millisecond)
	tab := browser.Panel(t)
	Configure(t, tab, "deepseek", srv.URL, "sk-ds", "deepseek-chat")
	SendMessage(t, tab, "What is 17 * 23?")
	WaitJS(t, tab, lastAssistant+`?.querySelector(".content").textContent.length > 3`)
	WaitJS(t, tab, `!document.getElementById("stop").hidden`)
	Do(t, tab, chromedp.Click("#stop"))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "stopped"`)
	got := messages(t, tab)[1]
	full := "The product of 17 and 23 is 391."
	if got.Content == "" || got.Content == full || !strings.HasPrefix(full, got.Content) || got.Notice != "Stopped." {
		t.Fatalf("after stop: %+v", got)
	}
	reopened := browser.Panel(t)
	WaitJS(t, reopened, lastAssistant)
	if again := messages(t, reopened)[1]; again.Content != got.Content || again.Status != "stopped" {
		t.Fatalf("reopened: %+v, want %+v", again, got)
	}
}

// Browsing does not start the core: Chrome wakes the worker at every page load of every tab
// (its tab listeners), and the worker drops those events instead of compiling and running
// core.wasm for them. The core starts when something needs it (here, the panel), and then
// follows the tabs. In a browser of its own, with nothing else that wants the core.
func TestBrowsingDoesNotStartTheCore(t *testing.T) {
	b, stop, err := Launch(RepoRoot()+"/ext", t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	site := testkit.NewSite(t)
	tab := b.Tab(t, site.Page("long.html"))
	for i := 0; i < 3; i++ {
		Do(t, tab, chromedp.Navigate(site.Page(fmt.Sprintf("long.html?n=%d", i))))
	}
	Eventually(t, 20*time.Second, b.WorkerRunning, "the worker did not wake for the page loads")
	if WorkerValue[bool](t, b, "started") {
		t.Fatal("the core started for page loads")
	}
	panel := b.Panel(t)
	WaitJS(t, panel, `+(document.body.dataset.connections || 0) > 0`)
	if !WorkerValue[bool](t, b, "started") {
		t.Fatal("the panel connected without the core")
	}
}

// Why a tab's page did not load is known to a core that was not running when it failed:
// Chrome says it once, as the load fails, to a worker it woke for that alone (a tab the user
// browses does not start the core), and the worker keeps it for the core. An agent's snapshot
// of that error page, from a panel opened afterwards, says why ("net::ERR_NAME_NOT_RESOLVED"),
// as it does for a page that failed under a running core. In a browser of its own, with
// nothing else that wants the core.
func TestAnErrorPageSeenBeforeTheCoreRanSaysWhy(t *testing.T) {
	b, stop, err := Launch(RepoRoot()+"/ext", t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	const away = "http://unreachable.invalid/"
	_, _ = chromedp.Run(b.Tab(t, "about:blank"), chromedp.Navigate(away)) // it fails: that is the point
	kept := `chrome.storage.session.get("netErrors").then(v => Object.values(v.netErrors || {}).some(e => e.url === "` + away + `" && e.error === "net::ERR_NAME_NOT_RESOLVED"))`
	Eventually(t, 20*time.Second, func() bool { return b.WorkerRunning() && WorkerValue[bool](t, b, kept) }, "the worker did not keep why the page did not load")
	if WorkerValue[bool](t, b, "started") {
		t.Fatal("the core started for a page that did not load")
	}
	tab := 0
	p := &plan{steps: []step{func(*testkit.Conversation) []testkit.Call { return []testkit.Call{call("snapshot", obj{"tabId": tab})} }}}
	m := testkit.NewModel(t, p.script)
	panel := b.Panel(t)
	Configure(t, panel, "openai", m.URL, "sk-agent", "gpt-test")
	tab = JS[int](t, panel, `chrome.tabs.query({url: "`+away+`"}).then(t => t[0].id)`)
	runAgent(t, panel, "why does this page not load?")
	if s := p.results("snapshot"); len(s) != 1 || !strings.Contains(s[0].Text, away+" could not be loaded (net::ERR_NAME_NOT_RESOLVED)") {
		t.Errorf("the snapshot of the error page: %s", p.all())
	}
	// Heard, it is the core's: the worker keeps it no longer.
	Eventually(t, 10*time.Second, func() bool { return !WorkerValue[bool](t, b, kept) }, "the worker still keeps what the core heard")
}

// The worker killed mid-stream: the panel reconnects (waking a new worker) and the conversation
// is intact, the partial reply marked as interrupted.
func TestWorkerKilledMidStream(t *testing.T) {
	srv := testkit.Replay(t, "mistral/thinking_content_array.sse", 25*time.Millisecond)
	tab := browser.Panel(t)
	browser.WorkerConsole(t)
	Configure(t, tab, "mistral", srv.URL, "sk-mistral", "magistral-medium-latest")
	SendMessage(t, tab, "How do I cross the street?")
	// Let the reply run past a draft flush (500 ms) with visible text.
	WaitJS(t, tab, lastAssistant+`?.querySelector(".content").textContent.length > 20`)
	time.Sleep(700 * time.Millisecond) // past one more flush interval: the bound the design promises
	// What the panel had received (the raw text: the screen shows it rendered as Markdown).
	onScreen := JS[string](t, tab, `skiffTest.state.active.messages[1].content`)
	browser.RestartWorker(t, tab)
	reopened := browser.Panel(t)
	WaitJS(t, reopened, lastAssistant+`?.dataset.status === "interrupted"`)
	ms := messages(t, reopened)
	if len(ms) != 2 || ms[0].Content != "How do I cross the street?" {
		t.Fatalf("conversation after restart: %+v", ms)
	}
	stored := JS[string](t, reopened, `skiffTest.state.active.messages[1].content`)
	if stored == "" || !strings.HasPrefix(onScreen, stored[:min(len(stored), len(onScreen))]) {
		t.Fatalf("partial reply after restart %q; on screen before %q", stored, onScreen)
	}
	if !strings.Contains(ms[1].Notice, "Interrupted") {
		t.Fatalf("notice %q", ms[1].Notice)
	}
	// The restarted core still works: the next message streams.
	srv2 := testkit.Replay(t, "openai/text_include_usage_obfuscation.sse", 0)
	Configure(t, reopened, "openai", srv2.URL, "sk-o", "gpt-4o-mini")
	SendMessage(t, reopened, "hi again")
	WaitJS(t, reopened, lastAssistant+`?.dataset.status === "done"`)
	if got := messages(t, reopened)[1].Content; got != "Olá!" {
		t.Fatalf("after restart: %q", got)
	}
}

// The worker compiles core.wasm from its copy in the Cache API (ext/sw.js). The copy belongs
// to one build, and a damaged one costs a wake nothing: the core starts from the file, and
// the next wake keeps a good copy of this build's core again, and nothing else.
func TestADamagedCachedCoreStillWakes(t *testing.T) {
	tab := browser.Panel(t)
	const keys = `caches.open("skiff-core").then((c) => c.keys()).then((ks) => ks.map((k) => k.url).join(" "))`
	want := "https://skiff.invalid/core.wasm?" + WorkerValue[string](t, browser, "globalThis.skiffCoreBuild")
	// A worker that woke before the panel opened may have put the copy already: wake one more
	// to be sure the cache has seen this build.
	browser.RestartWorker(t, tab)
	Eventually(t, 30*time.Second, func() bool { return WorkerValue[string](t, browser, keys) == want }, "the core was not cached under its build")
	browser.WorkerJS(t, `caches.open("skiff-core").then(async (c) => {
		await c.put("`+want+`", new Response("not wasm", { headers: { "Content-Type": "application/wasm" } }));
		await c.put("https://skiff.invalid/core.wasm?an-older-build", new Response("old"));
	})`)
	browser.RestartWorker(t, tab) // proven by the panel drawing the new instance's state
	if got := JS[string](t, tab, `skiffTest.call("core.ping", {})`); got != "pong" {
		t.Fatalf("ping after a damaged copy: %q", got)
	}
	browser.RestartWorker(t, tab)
	Eventually(t, 30*time.Second, func() bool { return WorkerValue[string](t, browser, keys) == want }, "the copy was not replaced")
	size := WorkerValue[float64](t, browser, `caches.open("skiff-core").then((c) => c.match("`+want+`")).then((r) => r.arrayBuffer()).then((b) => b.byteLength)`)
	file, err := os.Stat(filepath.Join(RepoRoot(), "ext", "core.wasm"))
	if err != nil || int64(size) != file.Size() {
		t.Fatalf("cached copy is %v bytes, core.wasm %v (%v)", size, file.Size(), err)
	}
	// A wake compiles the copy as it streams out of the cache (ext/sw.js): a copy stored without
	// wasm's type would make every wake fall back to the file.
	if got := WorkerValue[string](t, browser, `caches.open("skiff-core").then((c) => c.match("`+want+`")).then((r) => WebAssembly.compileStreaming(r)).then((m) => WebAssembly.Module.exports(m).map((e) => e.name).join(" "), (e) => String(e))`); !strings.Contains(got, "resume") {
		t.Fatalf("the cached copy does not stream into the compiler: %s", got)
	}
}

// The panel keeps the core compiled (ui/connection.js holdCore), so that a worker woken while
// it is open finds core.wasm's code in the process (make bench: BenchmarkWake); so does the
// chat on a page. Each holds Go's module, and a worker woken meanwhile answers.
func TestThePanelKeepsTheCoreCompiled(t *testing.T) {
	tab := browser.Panel(t)
	holdsTheCore(t, tab)
	browser.RestartWorker(t, tab)
	if got := JS[string](t, tab, `skiffTest.call("core.ping", {})`); got != "pong" {
		t.Fatalf("ping after a wake: %q", got)
	}
	site := testkit.NewSite(t)
	url := site.Page("counter.html")
	page := browser.Tab(t, url)
	WaitJS(t, page, `document.readyState === "complete"`)
	holdsTheCore(t, openOverlay(t, page, url))
}

func holdsTheCore(t *testing.T, ctx context.Context) {
	t.Helper()
	WaitJS(t, ctx, `skiffTest.heldCore() !== null`)
	exports := JS[string](t, ctx, `skiffTest.heldCore().then((m) => m ? WebAssembly.Module.exports(m).map((e) => e.name).join(" ") : "")`)
	for _, want := range []string{"run", "resume"} {
		if !slices.Contains(strings.Fields(exports), want) {
			t.Fatalf("%s holds no Go module (exports %q)", JS[string](t, ctx, `location.pathname`), exports)
		}
	}
}

// unauthorized is OpenAI refusing a wrong key, as recorded.
func unauthorized(t *testing.T) *testkit.Server {
	body := testkit.Recorded(t, "openai/error_401_invalid_api_key.json")
	return testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(401)
		_, _ = w.Write(body)
	})
}

func TestUnauthorizedShowsClearError(t *testing.T) {
	srv := unauthorized(t)
	tab := browser.Panel(t)
	Configure(t, tab, "openai", srv.URL, "bad-key-test", "gpt-4o")
	SendMessage(t, tab, "hi")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "error"`)
	ms := messages(t, tab)
	if ms[0].Content != "hi" {
		t.Fatalf("the user's message is gone: %+v", ms)
	}
	want := "OpenAI: the API key was rejected or is missing; check it in Settings (HTTP 401). Incorrect API key provided"
	if !strings.HasPrefix(ms[1].Notice, want) {
		t.Fatalf("notice %q", ms[1].Notice)
	}
}

// A provider that is busy for a moment (a 429 that says when to come back) is waited for, and
// the wait shows under the reply while it lasts, in words, then goes when the reply comes.
func TestAProvidersPauseShowsUnderTheReply(t *testing.T) {
	limited := testkit.Recorded(t, "anthropic/error_429_rate_limit_error.json")
	text := testkit.Recorded(t, "anthropic/text.sse")
	var asked atomic.Int32 // each request is served on its own goroutine
	srv := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r) // the model list Settings asks for
			return
		}
		if asked.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(429)
			_, _ = w.Write(limited)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(text)
	})
	tab := browser.Panel(t)
	Configure(t, tab, "anthropic", srv.URL, "sk-ant-test", "claude-sonnet-4-5-20250929")
	// Every notice the reply shows, as it shows it: the pause is seen whatever the machine's pace.
	JS[any](t, tab, `(() => {
		window.seenNotices = [];
		new MutationObserver(() => {
			for (const n of document.querySelectorAll("#messages .msg[data-role=assistant] .notice")) {
				const seen = n.closest(".msg").dataset.status + ": " + n.textContent;
				if (!seenNotices.includes(seen)) seenNotices.push(seen);
			}
		}).observe(document.getElementById("messages"), {subtree: true, childList: true, characterData: true});
		return true;
	})()`)
	SendMessage(t, tab, "hi")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	seen := JS[[]string](t, tab, `seenNotices`)
	if len(seen) != 1 || seen[0] != "streaming: Anthropic is busy; Skiff asks again in 2 s…" {
		t.Fatalf("notices shown under the reply: %q", seen)
	}
	ms := messages(t, tab)
	if ms[1].Notice != "" || ms[1].Content == "" {
		t.Fatalf("the reply: %+v", ms[1])
	}
}

// A reasoning model whose chat template opened its thoughts (DeepSeek-R1's distills on LM
// Studio, vLLM) writes them and then only "</think>": the panel shows them folded above the
// answer, not as the reply's first paragraphs.
func TestThoughtsTheTemplateOpenedShowFolded(t *testing.T) {
	m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn {
		return testkit.Turn{Text: "Okay, the user says hi.\nI should greet them back warmly.\n</think>\n\nHello! How can I help?", Delay: 20 * time.Millisecond}
	})
	tab := browser.Panel(t)
	Configure(t, tab, "lmstudio", m.URL, "", "deepseek-r1-distill-qwen-7b")
	SendMessage(t, tab, "hi")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	ms := messages(t, tab)
	if ms[1].Content != "Hello! How can I help?" {
		t.Errorf("the reply shows %q", ms[1].Content)
	}
	if got := JS[string](t, tab, lastAssistant+`.querySelector("details .reasoning")?.textContent ?? ""`); got != "Okay, the user says hi.\nI should greet them back warmly." {
		t.Errorf("the folded thoughts: %q", got)
	}
}

// Ollama rejects the extension's origin unless OLLAMA_ORIGINS is set; Skiff's
// declarativeNetRequest rule drops Origin on its own requests to the local server, its chat
// and its /api/ps alike. Ollama loaded the model with a window too small for the message
// (256 tokens): the reply says so under it, with how to give the model more room.
func TestOllamaWithoutOllamaOrigins(t *testing.T) {
	srv := testkit.Ollama(t, "groq/text.sse", map[string]int{"gpt-oss:20b": 256})
	tab := browser.Panel(t)
	Configure(t, tab, "ollama", srv.URL+"/v1", "", "gpt-oss:20b")
	SendMessage(t, tab, "weather in Florence? "+strings.Repeat("Here is what I know of the city. ", 30))
	WaitJS(t, tab, `["done", "error", "stopped"].includes(`+lastAssistant+`?.dataset.status)`)
	ms := messages(t, tab)
	var paths []string
	for _, r := range srv.Requests() {
		paths = append(paths, r.Method+" "+r.URL.Path)
		if o := r.Header.Get("Origin"); o != "" {
			t.Errorf("the server saw Origin %q on %s %s", o, r.Method, r.URL.Path)
		}
	}
	if !slices.Contains(paths, "POST /v1/chat/completions") || !slices.Contains(paths, "GET /api/ps") {
		t.Fatalf("the requests the server got: %q", paths)
	}
	if ms[1].Status != "done" {
		t.Fatalf("reply: %+v", ms[1])
	}
	if !strings.HasPrefix(ms[1].Notice, "Ollama runs gpt-oss:20b with a context window of 256 tokens, and this conversation takes about ") {
		t.Errorf("the notice under the reply: %q", ms[1].Notice)
	}
	rules := JS[string](t, tab, `chrome.declarativeNetRequest.getSessionRules().then(r => JSON.stringify(r))`)
	if !strings.Contains(rules, strings.TrimPrefix(srv.URL, "http://")) {
		t.Errorf("no rule for the server: %s", rules)
	}
}

// A reply cut off mid-stream (the connection dropped, or the stream ended without its finish
// marker) keeps every word that arrived, in each wire format, and says it was cut and why; the
// same in an agent run after a tool call.
func TestCutStreamKeepsItsText(t *testing.T) {
	tab := browser.Panel(t)
	for _, c := range []struct {
		provider, file, model string
		n                     int
	}{
		{"openai", "openai/text_include_usage_obfuscation.sse", "gpt-4o-mini", 3},
		{"anthropic", "anthropic/text.sse", "claude-sonnet-4-5-20250929", 6},
		{"google", "gemini/text.sse", "gemini-2.5-flash", 2},
	} {
		for _, abort := range []bool{true, false} {
			srv := testkit.Cut(t, c.file, c.n, abort)
			Configure(t, tab, c.provider, srv.URL, "sk-cut", c.model)
			SendMessage(t, tab, "tell me")
			WaitJS(t, tab, lastAssistant+`?.dataset.status === "error"`)
			ms := messages(t, tab)
			stored := JS[string](t, tab, `skiffTest.state.active.messages[1].content`)
			if stored == "" || ms[1].Content == "" {
				t.Errorf("%s (abort %v): the text that arrived is gone: stored %q, shown %q", c.provider, abort, stored, ms[1].Content)
			}
			// A dropped connection says so; a stream that just ends, that the reply stopped.
			cut := map[bool]string{true: "the connection dropped before the model finished", false: "the reply stopped before the model finished"}[abort]
			if !strings.Contains(ms[1].Notice, cut) || !strings.Contains(ms[1].Notice, "kept") {
				t.Errorf("%s (abort %v): the notice does not say the reply was cut: %q", c.provider, abort, ms[1].Notice)
			}
			if m := regexp.MustCompile(`[.;:] ?[.;]|\. [a-z]`).FindString(ms[1].Notice); m != "" {
				t.Errorf("%s (abort %v): the notice does not read as sentences (%q): %q", c.provider, abort, m, ms[1].Notice)
			}
			t.Logf("%s (abort %v): kept %q, notice %q", c.provider, abort, stored, ms[1].Notice)
		}
	}
}

func TestCutStreamInAnAgentRunKeepsItsText(t *testing.T) {
	site := testkit.NewSite(t)
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if c.Steps() == 0 {
			return testkit.Turn{Calls: []testkit.Call{{Name: "snapshot", Args: map[string]any{}}}}
		}
		return testkit.Turn{Text: "The page shows a shop with a Buy button and a cookie banner that covers it.", CutAfter: 4}
	})
	panel := agentPanel(t, "anthropic", m)
	openTab(t, panel, site.Page("overlay.html"))
	runAgent(t, panel, "what is on the page?")
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "error"`)
	msgs := JS[string](t, panel, `JSON.stringify(skiffTest.state.active.messages.filter(m => m.role === "assistant").map(m => m.content))`)
	if !strings.Contains(msgs, "The page shows") {
		t.Errorf("the cut reply's text is gone: %s", msgs)
	}
}

// A gateway or server that ignores stream:true and answers each turn with the whole reply as
// one JSON body: an agent run on it calls its tool and ends with the reply shown, in each wire
// format, as it would on a stream.
func TestAWholeReplyIsReadAsAStream(t *testing.T) {
	site := testkit.NewSite(t)
	for _, id := range []string{"openai", "anthropic", "google"} {
		m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
			if c.Steps() == 0 {
				return testkit.Turn{Calls: []testkit.Call{{Name: "snapshot", Args: map[string]any{}}}, Whole: true}
			}
			return testkit.Turn{Text: "The page shows a shop with a Buy button.", Whole: true}
		})
		panel := agentPanel(t, id, m)
		openTab(t, panel, site.Page("overlay.html"))
		cards := runAgent(t, panel, "what is on the page?")
		if len(cards) != 1 || cards[0].Tool != "snapshot" || cards[0].Status != "done" {
			t.Errorf("%s: the call in the whole reply did not run: %+v", id, cards)
		}
		WaitJS(t, panel, lastAssistant+`?.dataset.status === "done"`)
		if got := JS[string](t, panel, lastAssistant+`.querySelector(".content").textContent`); !strings.Contains(got, "a shop with a Buy button") {
			t.Errorf("%s: the reply shown is %q", id, got)
		}
	}
}

// An agent run on a model that cannot use tools (a local model Ollama runs without them) says
// so, and what to do, not "the request was rejected"; the user's message stays.
func TestAModelWithoutToolsSaysSoInAgentMode(t *testing.T) {
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		return testkit.Turn{Status: 400, Body: `{"error":{"message":"registry.ollama.ai/library/gemma3:4b does not support tools","type":"api_error","param":null,"code":null}}`}
	})
	panel := agentPanel(t, "openai", m)
	runAgent(t, panel, "what is on the page?")
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "error"`)
	ms := messages(t, panel)
	if ms[0].Content != "what is on the page?" {
		t.Fatalf("the user's message is gone: %+v", ms)
	}
	if !strings.Contains(ms[1].Notice, "this model cannot use tools, which agent mode needs; pick a model that can, or turn agent mode off") {
		t.Fatalf("notice %q", ms[1].Notice)
	}
}

// A local model whose server sends its calls as its text (Ollama with qwen2.5-coder: the JSON
// of the call, finish "stop"): the panel shows the call's card, not the JSON, and the run goes
// on with what the call read.
func TestCallsALocalModelWritesAsTextRunInThePanel(t *testing.T) {
	site := testkit.NewSite(t)
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if c.Steps() == 0 {
			return testkit.Turn{Text: "{\n  \"name\": \"snapshot\",\n  \"arguments\": {}\n}"}
		}
		return testkit.Turn{Text: "It is a review form."}
	})
	panel := agentPanel(t, "openai", m)
	openTab(t, panel, site.Page("review.html"))
	cards := runAgent(t, panel, "what is on the page?")
	if len(cards) != 1 || cards[0].Tool != "snapshot" || cards[0].Status != "done" {
		t.Fatalf("cards: %+v", cards)
	}
	for _, msg := range messages(t, panel) {
		if strings.Contains(msg.Content, `"name"`) {
			t.Errorf("the call's JSON is shown as words: %+v", msg)
		}
	}
	if got := JS[string](t, panel, lastAssistant+`.querySelector(".content").textContent.trim()`); got != "It is a review form." {
		t.Errorf("the last reply: %q", got)
	}
	if convs := m.Conversations(); len(convs) != 2 || !strings.Contains(convs[1].Last().Text, "Helpful") {
		t.Errorf("the model did not get the snapshot: %+v", convs)
	}
}

// Continue under a reply cut off by Stop, or at the length limit, goes on with it: the button
// is offered under that reply only, the model's next words are added to the same reply, which
// then reads whole, and the button is gone.
func TestContinueACutReply(t *testing.T) {
	tab := browser.FreshPanel(t)
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		switch last := c.Last().Text; {
		case strings.Contains(last, "cut off"):
			return testkit.Turn{Text: " and the boats come home."}
		case strings.Contains(last, "tide"):
			return testkit.Turn{Text: "The tide turns", Length: true}
		}
		return testkit.Turn{Text: "One two three four five six seven eight nine ten eleven twelve", Delay: 400 * time.Millisecond}
	})
	Configure(t, tab, "openai", model.URL, "sk-test", "gpt-test")
	SendMessage(t, tab, "Count slowly.")
	WaitJS(t, tab, lastAssistant+`?.querySelector(".content").textContent.length > 3`)
	Do(t, tab, chromedp.Click("#stop"))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "stopped" && document.querySelectorAll("#messages .continue-msg").length === 1`)
	content := lastAssistant + `.querySelector(".content").textContent.trim()`
	partial := JS[string](t, tab, content)
	Click(t, tab, lastAssistant+`.querySelector(".continue-msg")`)
	WaitJS(t, tab, lastAssistant+`.dataset.status === "done" && `+content+` === `+jsString(partial+" and the boats come home.")+` && !document.querySelector("#messages .continue-msg")`)
	if n := JS[float64](t, tab, `document.querySelectorAll("#messages .msg").length`); n != 2 {
		t.Errorf("%v messages after Continue: it added a reply instead of going on with it", n)
	}

	// At the length limit too: its notice says so, Continue goes on, the notice is gone.
	onNode(t, tab, "type the message: ", chromedp.SendKeys("#input", "When does the tide turn?"+kb.Enter))
	WaitJS(t, tab, `document.querySelectorAll("#messages .msg").length === 4 && `+lastAssistant+`.dataset.status === "done" && !!`+lastAssistant+`.querySelector(".continue-msg") && !!`+lastAssistant+`.querySelector(".notice")`)
	if JS[float64](t, tab, `document.querySelectorAll("#messages .continue-msg").length`) != 1 {
		t.Error("Continue is offered under more than the last reply")
	}
	Click(t, tab, lastAssistant+`.querySelector(".continue-msg")`)
	WaitJS(t, tab, lastAssistant+`.dataset.status === "done" && `+content+` === "The tide turns and the boats come home." && !`+lastAssistant+`.querySelector(".notice") && !document.querySelector("#messages .continue-msg")`)
}
