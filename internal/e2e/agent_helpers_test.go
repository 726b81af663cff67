//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skiff-ai/skiff/internal/daemon"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// clickOn is a step that clicks the element a snapshot line names (`button "Like"`).
func clickOn(t *testing.T, what string) step {
	return func(c *testkit.Conversation) []testkit.Call {
		return []testkit.Call{call("click", obj{"ref": refIn(t, c, what)})}
	}
}

// allowSite answers "always allow" for every tool on origin, as a user who trusts the site
// does, so that a test's calls there do not ask.
func allowSite(t *testing.T, panel context.Context, origin string) {
	t.Helper()
	JS[any](t, panel, `skiffTest.call("permission.set", {tool: "*", origin: `+jsString(origin)+`, decision: "allow_always"})`)
}

// openTab opens url in a new focused window the way a user does (no DevTools session on it, so
// the page's dialogs and the debugger behave as for a user) and waits for it to load. It returns
// the tab id. The window is the last focused one, where a panel opened as a tab looks for the
// page (in the side panel it would be the panel's own window).
func openTab(t *testing.T, panel context.Context, url string) int {
	t.Helper()
	id := openTabNoWait(t, panel, url)
	WaitJS(t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.status === "complete")`, id))
	return id
}

// openTabNoWait opens url as openTab does, without waiting for it to load (a page stuck in a
// dialog never finishes loading).
func openTabNoWait(t *testing.T, panel context.Context, url string) int {
	t.Helper()
	id := JS[int](t, panel, fmt.Sprintf(`chrome.windows.create({url: %s, focused: true}).then(w => w.tabs[0].id)`, jsString(url)))
	t.Cleanup(func() {
		_, _ = chromedp.Run(panel, chromedp.Evaluate[any](fmt.Sprintf(`chrome.tabs.remove(%d).catch(() => 0)`, id), chromedp.EvalAwaitPromise))
	})
	return id
}

// waitLoaded waits until a tab's page has run its load handlers (pages change themselves there),
// in Skiff's isolated world, which a page's CSP does not restrict.
func waitLoaded(t *testing.T, panel context.Context, tabID int) {
	t.Helper()
	if !loadedWithin(panel, tabID, 15*time.Second) {
		t.Fatal("e2e: the page did not finish loading (after 15s)")
	}
}

// loadedWithin waits up to d for a tab's page to run its load handlers, and says whether it did.
func loadedWithin(panel context.Context, tabID int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		// Each probe is bounded: a page stuck in a dialog never answers a script.
		pctx, cancel := context.WithTimeout(panel, time.Until(deadline))
		ok, err := chromedp.Run(pctx, chromedp.Evaluate[bool](fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, func: () => (performance.getEntriesByType("navigation")[0] || {}).loadEventEnd > 0}).then(r => r[0].result === true).catch(() => false)`, tabID), chromedp.EvalAwaitPromise))
		cancel()
		if err == nil && ok {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// inTab evaluates expr in a tab's page (main world) from the panel, and decodes its JSON value.
func inTab[T any](t *testing.T, panel context.Context, tabID int, expr string) T {
	t.Helper()
	raw := JS[string](t, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, world: "MAIN", func: (e) => JSON.stringify(eval(e)), args: [%s]}).then(r => r[0].result)`, tabID, jsString(expr)))
	var v T
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("inTab %s: %v (%s)", expr, err, raw)
	}
	return v
}

// waitTab polls a page expression until it is true.
func waitTab(t *testing.T, panel context.Context, tabID int, expr string) {
	t.Helper()
	Eventually(t, 15*time.Second, func() bool {
		raw, err := chromedp.Run(panel, chromedp.Evaluate[string](fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, world: "MAIN", func: (e) => JSON.stringify(!!eval(e)), args: [%s]}).then(r => r[0].result).catch(e => "false")`, tabID, jsString(expr)), chromedp.EvalAwaitPromise))
		return err == nil && raw == "true"
	}, "waiting in the tab for "+expr)
}

// agentPanel opens a fresh panel set up for provider id at the scripted model, in agent mode.
func agentPanel(t *testing.T, id string, m *testkit.Model) context.Context {
	t.Helper()
	panel := browser.FreshPanel(t)
	model := map[string]string{"openai": "gpt-test", "anthropic": "claude-sonnet-4-5-20250929", "google": "gemini-2.5-flash"}[id]
	Configure(t, panel, id, m.URL, "sk-agent", model)
	return panel
}

// agentOn turns agent mode on for the chat on screen, as a user clicks the switch. A session
// the panel draws again (a reconnection, a run of the chat before ending) shows that chat's
// stored mode, so the switch is clicked again until it holds.
func agentOn(t *testing.T, panel context.Context) {
	t.Helper()
	const pressed = `document.getElementById("agent-toggle").getAttribute("aria-pressed") === "true"`
	Eventually(t, 15*time.Second, func() bool {
		if JS[bool](t, panel, pressed) {
			return true
		}
		Do(t, panel, chromedp.Click("#agent-toggle"))
		return JS[bool](t, panel, pressed)
	}, "agent mode did not turn on")
}

// runAgent sends text from the panel, allows every call that asks (as a user clicking Allow),
// and waits until the run is over. It returns the tool messages as shown.
func runAgent(t *testing.T, panel context.Context, text string) []toolCard {
	t.Helper()
	cards, _ := runAgentAsks(t, panel, text)
	return cards
}

// runAgentAsks is runAgent, which also says how many asks it answered.
func runAgentAsks(t *testing.T, panel context.Context, text string) ([]toolCard, int) {
	t.Helper()
	NewChat(t, panel)
	agentOn(t, panel)
	// The chip has said what goes with the message (a page attached is the user's consent to
	// read it): the asks a task costs do not depend on how fast the chip was.
	WaitJS(t, panel, `(c => c.hidden || c.dataset.state === "attached" || c.dataset.state === "unavailable")(document.getElementById("page-chip"))`)
	Do(t, panel, chromedp.SendKeys("#input", text+"\r"))
	WaitJS(t, panel, `document.querySelector('.msg[data-role="user"]')`)
	asks := untilDone(t, panel, `document.getElementById("stop").hidden && !!document.querySelector('.msg[data-role="user"]')`)
	cards := toolCards(t, panel)
	countAsks(t, asks, len(cards))
	return cards, asks
}

// untilDone answers every ask of the run on screen with Allow once until done (a JS
// expression) holds, and returns how many it answered.
func untilDone(t *testing.T, panel context.Context, done string) int {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	asks := 0
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the run did not end; cards: %+v", toolCards(t, panel))
		}
		if JS[bool](t, panel, `!!document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`) {
			Click(t, panel, `document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`)
			asks++
			continue
		}
		if JS[bool](t, panel, done) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return asks
}

// countAsks reports how many times a finished task asked the user (each answered Allow once),
// for the asks-per-task figure: in the test log, and appended to $SKIFF_ASKS_REPORT when set.
func countAsks(t *testing.T, asks, calls int) {
	t.Helper()
	t.Logf("asks: %d for %d calls", asks, calls)
	if out := os.Getenv("SKIFF_ASKS_REPORT"); out != "" {
		f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%s\t%d\t%d\n", t.Name(), asks, calls)
			f.Close()
		}
	}
}

type toolCard struct {
	Tool, Status, What, Result string
}

func toolCards(t *testing.T, panel context.Context) []toolCard {
	t.Helper()
	raw := JS[string](t, panel, `JSON.stringify([...document.querySelectorAll("#messages .msg.tool")].map(n => ({
		Tool: n.dataset.tool, Status: n.dataset.status, What: n.querySelector(".t-what").textContent,
		Result: (n.querySelector(".t-result pre") || {}).textContent || ""})))`)
	var out []toolCard
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func cardsString(cs []toolCard) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "\n[%s %s] %s\n%s", c.Tool, c.Status, c.What, c.Result)
	}
	return b.String()
}

// runOn plays p as the model of an agent run on page of site, with the site allowed (as a user
// who trusts it has), asked task; it returns the panel, the page's tab and the model.
func (p *plan) runOn(t *testing.T, site *testkit.Site, page, task string) (context.Context, int, *testkit.Model) {
	t.Helper()
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page(page))
	allowSite(t, panel, site.URL)
	runAgent(t, panel, task)
	return panel, tab, m
}

// takeDebugger makes the debugger unavailable to Skiff's worker on a tab, as DevTools open on
// it does: the panel (the same extension, another context) takes the tab's debugger, and the
// worker, if it held it, hears that it lost it, as Chrome tells it when DevTools takes a tab.
// Its actions there fall back to DOM events until the test ends.
func takeDebugger(t *testing.T, panel context.Context, tab int) {
	t.Helper()
	JS[bool](t, panel, fmt.Sprintf(`chrome.debugger.detach({tabId: %d}).catch(() => 0).then(() => chrome.debugger.attach({tabId: %d}, "1.3")).then(() => true)`, tab, tab))
	browser.WorkerJS(t, fmt.Sprintf(`forward("debugger.detach", {tabId: %d, reason: "replaced_with_devtools"})`, tab))
	t.Cleanup(func() {
		_, _ = chromedp.Run(panel, chromedp.Evaluate[any](fmt.Sprintf(`chrome.debugger.detach({tabId: %d}).catch(() => 0)`, tab), chromedp.EvalAwaitPromise))
	})
}

// launchWithAccess starts a browser of its own (closed when the test ends) whose extension has
// the access chrome://extensions toggles ("fileAccess", "incognitoAccess") turned to on, as
// the user's toggle does it.
func launchWithAccess(t *testing.T, access string, on bool) *Browser {
	t.Helper()
	b, stop, err := Launch(RepoRoot()+"/ext", t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	ext := b.Tab(t, "chrome://extensions")
	id := fmt.Sprintf("%q", daemon.ExtensionID)
	JS[bool](t, ext, fmt.Sprintf(`chrome.developerPrivate.updateExtensionConfiguration({extensionId: %s, %s: %v}).then(() => true)`, id, access, on))
	// Chrome reloads the extension for it, and switches off one a command line loaded: on again.
	WaitJS(t, ext, fmt.Sprintf(`chrome.developerPrivate.getExtensionInfo(%s).then(i => !i.disableReasons.reloading && i.%s.isActive === %v)`, id, access, on))
	JS[bool](t, ext, `chrome.management.setEnabled(`+id+`, true).then(() => true)`)
	WaitJS(t, ext, `chrome.developerPrivate.getExtensionInfo(`+id+`).then(i => i.state === "ENABLED")`)
	return b
}

// locateFor is what the page says of clicking the element selector names, as a click asks it
// before acting: where to aim, or why not yet ("lasting" when what is in the way will not go
// by itself).
func locateFor(t *testing.T, panel context.Context, tab int, selector string) string {
	t.Helper()
	return locateAs(t, panel, tab, selector, "click")
}

// locateAs is what the page says of action ("click", "type"…) on the element selector names.
func locateAs(t *testing.T, panel context.Context, tab int, selector, action string) string {
	t.Helper()
	return JS[string](t, panel, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, files: ["page/skiff.js"]}).then(() =>
		chrome.scripting.executeScript({target: {tabId: %d}, func: (s, a) => globalThis.skiffPage.call("locate", JSON.stringify({target: {selector: s}, action: a})), args: [%s, %s]})).then(r => JSON.stringify(r[0].result))`, tab, tab, jsString(selector), jsString(action)))
}
