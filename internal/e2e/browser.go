//go:build !js

// Package e2e runs Skiff as a user does: the built extension loaded in headless Chromium, its
// panel page driven through the DOM, its providers pointed at local servers that speak their
// wire formats. Later features reuse this harness: Launch once per test package, a tab per test.
package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Browser is a Chromium with the extension in ext/ loaded, in a throwaway profile.
type Browser struct {
	ctx   context.Context // the browser's first tab; its Browser is shared by every tab
	ExtID string
	Dir   string // the extension directory
}

// RepoRoot is the module root (where go.mod is).
func RepoRoot() string { return testkit.RepoRoot() }

// ChromiumPath finds the browser: $CHROMIUM, then the usual names.
func ChromiumPath() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", errors.New("e2e: no Chromium found; install Debian's chromium (.ci/run does) or set $CHROMIUM")
}

// CheckFresh fails when the built extension is older than the sources it is built from, so a
// test never passes against a stale build.
func CheckFresh(root string) error {
	wasm, err := os.Stat(filepath.Join(root, "ext", "core.wasm"))
	if err != nil {
		return fmt.Errorf("e2e: ext/core.wasm is missing: run make build (%w)", err)
	}
	var stale []string
	check := func(dir string, built time.Time, keep func(string) bool) {
		_ = filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !keep(p) {
				return nil
			}
			if info, err := d.Info(); err == nil && info.ModTime().After(built) {
				stale = append(stale, p)
			}
			return nil
		})
	}
	goSrc := func(p string) bool { return strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") }
	check("wasm", wasm.ModTime(), goSrc)
	check("internal", wasm.ModTime(), func(p string) bool {
		return goSrc(p) && !strings.Contains(p, "/e2e/") && !strings.Contains(p, "/testkit/")
	})
	if panel, err := os.Stat(filepath.Join(root, "ext", "panel", "main.js")); err == nil {
		check("ui", panel.ModTime(), func(string) bool { return true })
	} else {
		stale = append(stale, "ext/panel (missing)")
	}
	if len(stale) > 0 {
		return fmt.Errorf("e2e: the built extension is older than %s: run make build", strings.Join(stale, ", "))
	}
	return nil
}

// Launch starts Chromium with the extension in dir loaded and waits for its worker; extra
// options come after the house's.
func Launch(dir string, logf func(string, ...any), extra ...chromedp.ExecAllocatorOption) (*Browser, context.CancelFunc, error) {
	exe, err := ChromiumPath()
	if err != nil {
		return nil, nil, err
	}
	profile, err := os.MkdirTemp("", "skiff-profile-")
	if err != nil {
		return nil, nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("disable-extensions", false),
		chromedp.Flag("load-extension", dir),
		chromedp.Flag("disable-extensions-except", dir),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-gpu", true),
		// The omnibox's WebUI popups: headless Chromium 156 preloads one per window, hidden, and
		// their renderer then keeps about half a core busy for as long as the browser runs (3 s
		// idle with a panel open: 1.27 s of CPU on its thread pool). On a 2-core machine that is
		// a quarter of it taken from every test and every measurement. The first two are
		// chromedp's own defaults, which this list replaces.
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"),
	)
	// SKIFF_JS_FLAGS passes flags to V8 (a diagnosis: "--liftoff-only" takes the optimizing
	// compiler's background work out of a measurement).
	if f := os.Getenv("SKIFF_JS_FLAGS"); f != "" {
		opts = append(opts, chromedp.Flag("js-flags", f))
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	// SKIFF_CHROMIUM_LOG names a file for what Chromium itself writes (a diagnosis: why it
	// aborted).
	if f := os.Getenv("SKIFF_CHROMIUM_LOG"); f != "" {
		if w, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			opts = append(opts, chromedp.CombinedOutput(w))
		}
	}
	opts = append(opts, extra...)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithLogf(logf))
	stop := func() {
		cancel()
		acancel()
		_ = os.RemoveAll(profile)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		stop()
		return nil, nil, fmt.Errorf("e2e: start %s: %w", exe, err)
	}
	b := &Browser{ctx: ctx, Dir: dir}
	deadline := time.Now().Add(20 * time.Second)
	for b.ExtID == "" && time.Now().Before(deadline) {
		if w, ok := b.worker(); ok {
			b.ExtID = strings.Split(strings.TrimPrefix(w.URL, "chrome-extension://"), "/")[0]
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if b.ExtID == "" {
		stop()
		return nil, nil, errors.New("e2e: the extension's service worker never started (is ext/ built and valid?)")
	}
	return b, stop, nil
}

func (b *Browser) worker() (*target.Info, bool) {
	infos, err := chromedp.Targets(b.ctx)
	if err != nil {
		return nil, false
	}
	for _, in := range infos {
		if in.Type == "service_worker" && strings.HasPrefix(in.URL, "chrome-extension://") && strings.HasSuffix(in.URL, "/sw.js") {
			if b.ExtID == "" || strings.Contains(in.URL, b.ExtID) {
				return in, true
			}
		}
	}
	return nil, false
}

// awake is the extension's service worker, once there is one: Chrome stops it after 30 s idle
// (a busy machine's previous test may have left it so, or stopped it) and starts it again when
// something wants it, an open panel's port or the link's alarm.
func (b *Browser) awake(t testing.TB) *target.Info {
	t.Helper()
	var w *target.Info
	Eventually(t, 30*time.Second, func() bool {
		var ok bool
		w, ok = b.worker()
		return ok
	}, "no service worker")
	return w
}

// WorkerRunning reports whether the extension's service worker is alive.
func (b *Browser) WorkerRunning() bool {
	_, ok := b.worker()
	return ok
}

// StopWorker kills the extension's service worker, as Chrome does after 30 s idle, and returns
// once that instance is gone. Chrome starts a new one at once when something wants it (an open
// panel's port, the link's alarm), so absence is not what proves the stop: the instance is
// marked before it is closed, and the stop is proven when no worker target is left that
// carries the mark (there is none, or there is a new instance).
func (b *Browser) StopWorker(t testing.TB) {
	t.Helper()
	w := b.awake(t)
	mark := fmt.Sprintf("stopped-%d", time.Now().UnixNano())
	b.workerEval(t, w, fmt.Sprintf("globalThis.__skiffTestMark = %q", mark))
	if _, err := chromedp.CallBrowser(b.ctx, target.CloseTarget, target.CloseTargetParams{TargetID: w.TargetID}); err != nil {
		t.Fatalf("e2e: close worker: %v", err)
	}
	Eventually(t, 30*time.Second, func() bool {
		nw, ok := b.worker()
		if !ok {
			return true
		}
		// A new instance may come back under the same target id: the mark tells them apart.
		got, err := b.tryWorkerEval(nw, "globalThis.__skiffTestMark || ''")
		return err == nil && got != mark
	}, "the worker did not stop")
}

// RestartWorker stops the worker with panel open, and returns once the panel has reconnected
// to a new instance and drawn the core's state again (its connection count went up).
func (b *Browser) RestartWorker(t testing.TB, panel context.Context) {
	t.Helper()
	before := JS[int](t, panel, `+(document.body.dataset.connections || 0)`)
	b.StopWorker(t)
	WaitJS(t, panel, fmt.Sprintf(`+(document.body.dataset.connections || 0) > %d`, before))
}

func (b *Browser) workerEval(t testing.TB, w *target.Info, expr string) {
	t.Helper()
	if _, err := b.tryWorkerEval(w, expr); err != nil {
		t.Fatalf("e2e: worker eval %s: %v", expr, err)
	}
}

func (b *Browser) tryWorkerEval(w *target.Info, expr string) (string, error) {
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(w.TargetID), chromedp.WithDetachOnCancel())
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Second)
	defer cancelT()
	return chromedp.Run(ctx, chromedp.Evaluate[string]("String("+expr+")"))
}

// WorkerConsole forwards the service worker's console to t.Logf until the test ends.
func (b *Browser) WorkerConsole(t testing.TB) {
	t.Helper()
	w := b.awake(t)
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(w.TargetID), chromedp.WithDetachOnCancel())
	t.Cleanup(cancel)
	if err := chromedp.Listen(ctx, func(ev any) { logEvent(t, "worker ", ev) }); err != nil {
		t.Logf("e2e: worker console: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("true")); err != nil {
		t.Logf("e2e: attach to worker: %v", err)
	}
}

func logEvent(t testing.TB, prefix string, ev any) {
	switch e := ev.(type) {
	case *cdpruntime.EventConsoleAPICalled:
		var parts []string
		for _, a := range e.Args {
			if len(a.Value) > 0 {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		t.Logf("%sconsole.%s: %s", prefix, e.Type, strings.Join(parts, " "))
	case *cdpruntime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		if d.URL != "" {
			msg += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
		}
		t.Logf("%suncaught: %s", prefix, msg)
	}
}

// URL returns the address of an extension page.
func (b *Browser) URL(path string) string { return "chrome-extension://" + b.ExtID + "/" + path }

// Tab opens a new tab at url; its console and uncaught exceptions go to t.Logf. The tab closes
// when the test ends, and gives up after 3 minutes.
func (b *Browser) Tab(t testing.TB, url string) context.Context {
	t.Helper()
	return b.TabWithin(t, url, 3*time.Minute)
}

// TabWithin is Tab for a test that needs the tab longer than 3 minutes.
func (b *Browser) TabWithin(t testing.TB, url string, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, d)
	t.Cleanup(cancelT)
	if err := chromedp.Listen(ctx, func(ev any) {
		logEvent(t, "", ev)
	}); err != nil {
		t.Fatalf("e2e: listen: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("e2e: open %s: %v", url, err)
	}
	return ctx
}

// Incognito opens url in a tab of a new browser context: no cookies, no storage of the others
// (a second person, or a second device).
func (b *Browser) Incognito(t testing.TB, url string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelT)
	if err := chromedp.Listen(ctx, func(ev any) { logEvent(t, "incognito ", ev) }); err != nil {
		t.Fatalf("e2e: listen: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("e2e: open %s: %v", url, err)
	}
	return ctx
}

// Panel opens the side panel page in a tab and waits until it has drawn its state.
func (b *Browser) Panel(t testing.TB) context.Context {
	t.Helper()
	// A panel lives as long as its test (the injection corpus takes minutes on a busy
	// machine); every wait in it is bounded on its own.
	ctx := b.TabWithin(t, b.URL("panel/index.html"), 20*time.Minute)
	WaitJS(t, ctx, `document.body.dataset.ready === "1"`)
	return ctx
}

// Overlay opens Skiff's chat on the page in tab as the shortcut does (the worker's
// skiffToggleOverlay on the tab that tabExpr, a promise evaluated in the worker, gives; DevTools
// cannot press an extension's command), and returns a context on the overlay's frame in that
// tab once it has drawn itself. The context detaches when the test ends.
//
// Looking inside the frame while it still loads or draws trips a data race in chromedp: its
// attach walks the frame's document while its event loop applies the frame's changes to the
// same map, and a DOMContentLoaded during the attach sends it a new document. So the overlay is
// attached only once it has said, to its page, that it is settled (ui/overlay.js posts
// "settled" to its parent, once: an overlay hidden and shown again keeps its frame, which is
// still settled). This is the one way into its frame.
func (b *Browser) Overlay(t testing.TB, tab context.Context, tabExpr string) context.Context {
	t.Helper()
	JS[bool](t, tab, `(window.__skiffSettled ??= new Promise(ok => addEventListener("message", e => e.data && e.data.skiff === "settled" && ok(true))), true)`)
	b.WorkerJS(t, `Promise.resolve(`+tabExpr+`).then((tab) => skiffToggleOverlay(tab))`)
	JS[bool](t, tab, `window.__skiffSettled`)
	page := chromedp.FromContext(tab).Target.TargetID
	ctx := b.attach(t, func(in *target.Info) bool {
		return in.Type == "iframe" && in.ParentID == page && strings.HasSuffix(in.URL, "/panel/overlay.html")
	}, "the overlay's frame")
	if err := chromedp.Listen(ctx, func(ev any) { logEvent(t, "overlay ", ev) }); err != nil {
		t.Fatalf("e2e: listen: %v", err)
	}
	WaitJS(t, ctx, `document.body.dataset.ready === "1"`)
	return ctx
}

// Page attaches to the tab already open at url: one that DevTools did not open, as a window
// the extension created. The context detaches when the test ends.
func (b *Browser) Page(t testing.TB, url string) context.Context {
	t.Helper()
	ctx := b.attach(t, func(in *target.Info) bool { return in.Type == "page" && in.URL == url }, "a tab at "+url)
	if err := chromedp.Listen(ctx, func(ev any) { logEvent(t, "", ev) }); err != nil {
		t.Fatalf("e2e: listen: %v", err)
	}
	return ctx
}

// attach finds the target that is (what), once it appears, and returns a context on it that
// detaches when the test ends and gives up after 3 minutes.
func (b *Browser) attach(t testing.TB, is func(*target.Info) bool, what string) context.Context {
	t.Helper()
	var id target.ID
	Eventually(t, 30*time.Second, func() bool {
		infos, err := chromedp.Targets(b.ctx)
		if err != nil {
			return false
		}
		for _, in := range infos {
			if is(in) {
				id = in.TargetID
				return true
			}
		}
		return false
	}, "no "+what+" appeared")
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelT)
	return ctx
}

// Eventually polls cond until it holds or d passes.
func Eventually(t testing.TB, d time.Duration, cond func() bool, msg string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("e2e: %s (after %v)", msg, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// JS evaluates expr in the tab (awaiting a Promise) and decodes the result into T.
func JS[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("e2e: eval %s: %v", expr, err)
	}
	return v
}

// WaitJS polls a JS expression until it is truthy, for up to 30 s (a bound for a busy machine,
// not a time anything is expected to take).
func WaitJS(t testing.TB, ctx context.Context, expr string) {
	t.Helper()
	// A promise is awaited: its value is the condition, not the promise (which is always truthy).
	// Each try is bounded, so one that never settles fails that try, not the whole run.
	attach(t, ctx)
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for {
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ok, err := chromedp.Run(ectx, chromedp.Evaluate[bool]("Promise.resolve("+expr+").then((v) => !!v)", chromedp.EvalAwaitPromise))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		if time.Now().After(deadline) {
			t.Fatalf("e2e: waiting for %s (after 30s; last error: %v)\nthe page shows: %s", expr, last, shows(ctx))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// shows is what a page shows, for a failure to say: its text, with the values of its fields.
func shows(ctx context.Context) string {
	ectx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ectx, chromedp.Evaluate[string](`(() => {
		const fields = [...document.querySelectorAll("input, textarea")].filter((f) => f.value && !["hidden", "password", "checkbox", "radio"].includes(f.type)).map((f) => (f.id || f.className) + "=" + JSON.stringify(f.value));
		return document.body.innerText.slice(0, 3000) + (fields.length ? "\nfields: " + fields.join(", ") : "") + "\nfocus: " + (document.activeElement ? document.activeElement.outerHTML.slice(0, 200) : "none");
	})()`))
	if err != nil {
		return "(could not be read: " + err.Error() + ")"
	}
	return s
}

// actWithin bounds an action in a tab: chromedp waits as long as its context lives for the
// element an action names to be there and shown, and a test whose element never comes (a
// button hidden in that state) would otherwise hang the whole run until its own timeout.
const actWithin = 60 * time.Second

// Do runs chromedp actions in the tab, failing the test on error.
// One action that finds a node is run again if the page replaced the node before it was used
// (see onNode).
func Do(t testing.TB, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if len(actions) == 1 {
		onNode(t, ctx, "", actions[0])
		return
	}
	attach(t, ctx)
	if err := act(ctx, actions...); err != nil {
		failed(t, ctx, "", err)
	}
}

// attach attaches to the tab under its own context. The first use of a tab's context attaches
// under the context it is given, and a shorter one's (a bounded try's), cancelled after it,
// would detach it: so a bounded use attaches first.
func attach(t testing.TB, tab context.Context) {
	t.Helper()
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("e2e: attach: %v", err)
	}
}

// act runs actions in an attached tab, for no longer than actWithin.
func act(tab context.Context, actions ...chromedp.Action[chromedp.Void]) error {
	actx, cancel := context.WithTimeout(tab, actWithin)
	defer cancel()
	return chromedp.Do(actx, actions...)
}

// failed fails the test on an action's error (what says which action), with what the page shows.
func failed(t testing.TB, tab context.Context, what string, err error) {
	t.Helper()
	if errors.Is(err, context.DeadlineExceeded) && tab.Err() == nil {
		t.Fatalf("e2e: %snot done within %s: its element never came, or is not shown\nthe page shows: %s", what, actWithin, shows(tab))
	}
	t.Fatalf("e2e: %s%v\nthe page shows: %s", what, err, shows(tab))
}

// Configure fills the settings form as a user would and saves it.
func Configure(t testing.TB, tab context.Context, providerID, baseURL, key, model string) {
	t.Helper()
	if JS[bool](t, tab, `document.getElementById("settings").hidden`) {
		Do(t, tab, chromedp.Click("#settings-toggle"))
	}
	Do(t, tab, chromedp.Click(fmt.Sprintf(`#provider-grid label:has(input[value=%q])`, providerID)))
	WaitJS(t, tab, fmt.Sprintf(`document.querySelector('#provider-grid input[value=%q]').checked`, providerID))
	TypeInto(t, tab, "#baseURL", baseURL)
	TypeInto(t, tab, "#model", model)
	if key != "" {
		Do(t, tab, chromedp.SendKeys("#apiKey", key))
	}
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("settings-status").textContent === "Saved."`)
	Do(t, tab, chromedp.Click("#settings-toggle"))
}

// TypeInto replaces the text of an input by selecting all of it and typing over it.
func TypeInto(t testing.TB, tab context.Context, sel, text string) {
	t.Helper()
	JS[bool](t, tab, fmt.Sprintf(`(() => { const n = document.querySelector(%q); n.focus(); n.select(); return true })()`, sel))
	Do(t, tab, chromedp.SendKeys(sel, kb.Delete))
	if text != "" {
		Do(t, tab, chromedp.SendKeys(sel, text))
	}
	if got := JS[string](t, tab, fmt.Sprintf(`document.querySelector(%q).value`, sel)); got != text {
		t.Fatalf("typed %q into %s, it holds %q", text, sel, got)
	}
}

// NewChat starts a new chat as a user clicks New, and returns once the panel shows it (a new
// active session, empty); a click a busy panel did not take is made again.
func NewChat(t testing.TB, tab context.Context) {
	t.Helper()
	before := JS[string](t, tab, `skiffTest.state.active ? skiffTest.state.active.id : ""`)
	shown := `!!(skiffTest.state.active && skiffTest.state.active.id !== ` + jsString(before) + ` && document.querySelector("#messages .empty"))`
	Eventually(t, 30*time.Second, func() bool {
		Do(t, tab, chromedp.Click("#new"))
		for i := 0; i < 50; i++ {
			if JS[bool](t, tab, shown) {
				return true
			}
			time.Sleep(100 * time.Millisecond)
		}
		return false
	}, "the panel did not start a new chat")
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// SendMessage starts a new chat and types text, then Enter.
func SendMessage(t testing.TB, tab context.Context, text string) {
	t.Helper()
	NewChat(t, tab)
	onNode(t, tab, "type the message: ", chromedp.SendKeys("#input", text+kb.Enter))
	WaitJS(t, tab, `document.querySelector('.msg[data-role="user"]')`)
}

// NothingLeftBehind fails when the extension's storage holds what no chat holds: a deleted
// chat's parts, a picture or file no message holds, a change left under way (testkit.Unheld
// over what chrome.storage holds now, disk and the private chats' memory). A test that began
// with FreshPanel calls it once nothing runs.
func NothingLeftBehind(t testing.TB, tab context.Context) {
	t.Helper()
	all := JS[map[string]string](t, tab, `Promise.all([chrome.storage.local.get(null), chrome.storage.session.get(null)]).then(([disk, memory]) => {
		const out = {};
		for (const [k, v] of Object.entries(disk)) if (typeof v === "string") out[k] = v;
		for (const [k, v] of Object.entries(memory)) if (k.startsWith("private/") && typeof v === "string") out[k] = v;
		return out;
	})`)
	kv := store.NewMemKV()
	items := map[string][]byte{}
	for k, v := range all {
		items[k] = []byte(v)
	}
	if err := kv.Set(context.Background(), items); err != nil {
		t.Fatal(err)
	}
	if left := testkit.Unheld(t, kv); len(left) > 0 {
		t.Errorf("e2e: the storage holds what no chat holds: %v", left)
	}
}

// FreshPanel opens the panel on empty storage, as on a new install (the extension's worker
// keeps nothing that matters in memory, so clearing storage is a fresh start).
func (b *Browser) FreshPanel(t testing.TB) context.Context {
	t.Helper()
	tab := b.Panel(t)
	JS[bool](t, tab, `chrome.storage.local.clear().then(() => chrome.storage.session.clear()).then(() => true)`)
	Do(t, tab, chromedp.Reload())
	WaitJS(t, tab, `document.body.dataset.ready === "1"`)
	return tab
}

// Downloads makes the browser save downloads into a new directory and returns it.
func (b *Browser) Downloads(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatalf("e2e: downloads: %v", err)
	}
	return dir
}

// WaitFile waits for a complete file named name in dir and returns its contents.
func WaitFile(t testing.TB, dir, name string) []byte {
	t.Helper()
	var b []byte
	Eventually(t, 10*time.Second, func() bool {
		var err error
		b, err = os.ReadFile(filepath.Join(dir, name))
		return err == nil && len(b) > 0
	}, "no download "+name+" in "+dir)
	return b
}

// Click clicks the element a JS expression gives, as a user would (mouse events at its centre).
func Click(t testing.TB, tab context.Context, expr string) {
	t.Helper()
	onNode(t, tab, "click: ", chromedp.Click(chromedp.JSPath(expr)))
}

// onNode runs an action that finds its node and then uses it by its node id. A panel that
// replaced the node in between (a redraw on a busy machine) makes the second step fail before
// anything reached the page; the action is then run again, finding the node anew.
func onNode(t testing.TB, tab context.Context, what string, a chromedp.Action[chromedp.Void]) {
	t.Helper()
	attach(t, tab)
	for try := 0; ; try++ {
		err := act(tab, a)
		if err == nil {
			return
		}
		if try >= 2 || !strings.Contains(err.Error(), "Could not find node") && !strings.Contains(err.Error(), "not attached") {
			failed(t, tab, what, err)
		}
	}
}

// WorkerJS evaluates expr in the extension's service worker (awaiting a Promise).
func (b *Browser) WorkerJS(t testing.TB, expr string) {
	t.Helper()
	WorkerValue[any](t, b, expr)
}

// WorkerValue evaluates expr in the extension's service worker (awaiting a Promise) and
// returns its value.
func WorkerValue[T any](t testing.TB, b *Browser, expr string) T {
	t.Helper()
	w := b.awake(t)
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(w.TargetID), chromedp.WithDetachOnCancel())
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("e2e: worker eval %s: %v", expr, err)
	}
	return v
}
