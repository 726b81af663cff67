//go:build !js

package e2e

import (
	"context"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/testkit"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var screenshots = flag.String("screenshots", "", "write README screenshots of each panel view into this directory (make screenshots)")

const shotAnswer = "Here is what the page says about **WebAssembly outside the web**:\n\n" +
	"1. Emscripten can emit a *standalone* `.wasm` file with no JavaScript.\n" +
	"2. It runs in runtimes such as Wasmtime and Wasmer.\n\n" +
	"| Runtime | Needs JS |\n|---|---|\n| Browser | yes |\n| Wasmtime | no |\n\n" +
	"```sh\nemcc -O3 hello.c -o hello.wasm\nwasmtime hello.wasm\n```\n\n" +
	"A module of $n$ functions compiles in $O(n)$ time.\n\n" +
	"More in the [V8 blog](https://v8.dev/blog/emscripten-standalone-wasm).\n"

// TestScreenshots drives the real panel through each view and saves what it shows. It runs only
// with -screenshots DIR (make screenshots), which the README's images come from.
func TestScreenshots(t *testing.T) {
	dir := shotsDir(t)
	chat := testkit.OpenAIText(t, shotAnswer, 12, 5*time.Millisecond)
	srv := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/models") {
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"gpt-5.4"},{"id":"gpt-5.4-mini"},{"id":"gpt-4.1"}]}`)
			return
		}
		chat.Config.Handler.ServeHTTP(w, r)
	})
	base := pages(t)

	// First run: nothing configured, nothing running locally.
	tab := browser.FreshPanel(t)
	size(t, tab, "light")
	WaitJS(t, tab, `document.getElementById("welcome-text").textContent.startsWith("No local model")`)
	shot(t, tab, dir, "first-run")

	Configure(t, tab, "openai", srv.URL, "sk-screens", "gpt-5.4")
	browser.Tab(t, base+"/v8-blog/")
	WaitJS(t, tab, `document.getElementById("page-chip").dataset.state === "attached"`)
	for _, q := range []string{"Compare Rust and Go for a CLI tool", "Plan a 3-day trip to Lisbon", "Explain CRDTs simply"} {
		SendMessage(t, tab, q)
		WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	}
	SendMessage(t, tab, "What is this page about?")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	JS[bool](t, tab, `(document.getElementById("chat").scrollTop = 0, true)`)
	shot(t, tab, "", "") // settle fonts
	shot(t, tab, dir, "chat")

	for _, m := range []string{"I prefer metric units", "My team writes Go and TypeScript", "Answer in British English"} {
		JS[bool](t, tab, `skiffTest.call("memory.add", {content: `+jsString(m)+`}).then(() => true)`)
	}
	Do(t, tab, chromedp.Click("#memories-toggle"))
	WaitJS(t, tab, `document.querySelectorAll("#memory-list .memory").length === 3`)
	shot(t, tab, dir, "memories")
	Do(t, tab, chromedp.Click("#history-toggle"))
	WaitJS(t, tab, `document.querySelectorAll("#session-list .session").length === 4`)
	Do(t, tab, chromedp.SendKeys("#search", "lisbon"))
	WaitJS(t, tab, `document.querySelectorAll("#session-list .session").length === 1`)
	TypeInto(t, tab, "#search", "")
	WaitJS(t, tab, `document.querySelectorAll("#session-list .session").length === 4`)
	shot(t, tab, dir, "history")
	Do(t, tab, chromedp.Click("#settings-toggle"))
	WaitJS(t, tab, `document.getElementById("models-note").textContent !== "Loading the model list…"`)
	shot(t, tab, dir, "settings")
	Do(t, tab, chromedp.Click("#settings-toggle"))
	size(t, tab, "dark")
	shot(t, tab, dir, "chat-dark")
}

// shotsDir is where the README images go: -screenshots DIR (make screenshots). Without it the
// screenshot tests are skipped.
func shotsDir(t *testing.T) string {
	t.Helper()
	if *screenshots == "" {
		t.Skip("run `make screenshots` to write the README images")
	}
	dir, err := filepath.Abs(*screenshots)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// viewport shows tab at w×h px, as a panel (or a window) of that size, until the test ends.
func viewport(t *testing.T, tab context.Context, w, h int64) {
	t.Helper()
	if _, err := chromedp.Call(tab, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: w, Height: h, DeviceScaleFactor: 1}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = chromedp.Call(tab, emulation.ClearDeviceMetricsOverride, cdp.Empty{}) })
}

func size(t *testing.T, tab context.Context, scheme string) {
	t.Helper()
	viewport(t, tab, 420, 760)
	if _, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		t.Fatal(err)
	}
}

func shot(t *testing.T, tab context.Context, dir, name string) {
	t.Helper()
	time.Sleep(300 * time.Millisecond)
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScreenshotsAgent shows an agent run: tool cards, a screenshot thumbnail, and a call that
// asks. Like TestScreenshots, it runs only with -screenshots DIR.
func TestScreenshotsAgent(t *testing.T) {
	dir := shotsDir(t)
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		calls(call("screenshot", nil)),
		clickOn(t, `button "Select"`),
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("fill_form", obj{"fields": []obj{
				{"ref": refIn(t, c, `textbox "Full name"`), "value": "Ada Lovelace"},
				{"ref": refIn(t, c, `textbox "Email"`), "value": "ada@example.com"},
			}})}
		},
	}}
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		turn := p.script(c)
		if turn.Text != "" {
			turn.Text = "I selected the **TAP TP433** flight (the first listed) and filled in your name and email. The form is ready: press *Book now* when you have checked it."
		}
		return turn
	})
	tab := agentPanel(t, "anthropic", m)
	size(t, tab, "light")
	openTab(t, tab, site.Page("flights.html"))
	NewChat(t, tab)
	agentOn(t, tab)
	Do(t, tab, chromedp.SendKeys("#input", "Select a flight and fill the booking form with my details\r"))
	WaitJS(t, tab, `document.querySelector(".msg.tool .ask .allow-once")`)
	shot(t, tab, dir, "agent-ask")
	for i := 0; i < 2; i++ {
		WaitJS(t, tab, `document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`)
		Click(t, tab, `document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`)
	}
	WaitJS(t, tab, `document.getElementById("stop").hidden && `+lastAssistant+`?.textContent.includes("Book now")`)
	Click(t, tab, `document.querySelectorAll(".msg.tool .tool-card summary")[2]`) // open the click's card
	shot(t, tab, dir, "agent")

	// The same run in French, switched without a reload: the cards' words (what each call did,
	// how the gate decided, what came of it) follow; the model's words stay as it wrote them.
	Do(t, tab, chromedp.Click("#settings-toggle"))
	JS[bool](t, tab, `(document.getElementById("language").value = "fr", true)`)
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.documentElement.lang === "fr"`)
	Do(t, tab, chromedp.Click("#settings-toggle"))
	WaitJS(t, tab, `document.querySelectorAll(".msg.tool .tool-card summary")[2]?.closest(".msg").textContent.includes("autoris")`)
	if !JS[bool](t, tab, `!!document.querySelectorAll(".msg.tool .tool-card")[2].open`) {
		Click(t, tab, `document.querySelectorAll(".msg.tool .tool-card summary")[2]`) // drawn again in French, closed
	}
	shot(t, tab, "", "") // settle fonts
	shot(t, tab, dir, "agent-fr")
}

// An ACP agent's chat in the panel (plan, tool card with its file, an ask with its diff) and
// skiffd's web client, for the README.
func TestScreenshotsACP(t *testing.T) {
	dir := shotsDir(t)
	d, folder := skiffdWithAgent(t)
	if err := os.WriteFile(filepath.Join(folder, "plan.md"), []byte("# Trip\n- book the ferry\n- pack\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	panel := browser.FreshPanel(t)
	size(t, panel, "light")
	linkPanel(t, panel, d)
	Do(t, panel, chromedp.Click("#settings-toggle"))
	WaitJS(t, panel, `document.querySelector('#provider-grid input[value="acp:test"]')`)
	Do(t, panel, chromedp.Click(`#provider-grid label:has(input[value="acp:test"])`))
	Do(t, panel, chromedp.Click("#save"))
	WaitJS(t, panel, `document.getElementById("settings-status").textContent === "Saved."`)
	Do(t, panel, chromedp.Click("#settings-toggle"))
	SendMessage(t, panel, "hello")
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done"`)
	Do(t, panel, chromedp.SendKeys("#input", "write "+filepath.Join(folder, "plan.md")+" # Trip: book the ferry, pack the sails, check the wind"+kb.Enter))
	WaitJS(t, panel, `document.querySelector('#messages .msg.tool[data-status="asking"] .diff')`)
	JS[bool](t, panel, `(document.querySelector('#messages .msg.tool[data-status="asking"]').scrollIntoView({block: "end"}), true)`)
	shot(t, panel, "", "")
	shot(t, panel, dir, "acp-chat")
	Click(t, panel, `document.querySelector('#messages .msg.tool[data-status="asking"] button[data-decision="allow_once"]')`)
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done"`)

	web := browser.Tab(t, pairingLink(t, d))
	viewport(t, web, 900, 600)
	WaitJS(t, web, `document.body.dataset.state === "connected" && document.querySelector('#files li.file')`)
	JS[bool](t, web, `(document.getElementById("agent").value = "test", true)`)
	Click(t, web, `document.getElementById("new")`)
	WaitJS(t, web, `document.querySelectorAll("#chats li.chat").length >= 1`)
	Do(t, web, chromedp.SendKeys("#input", "hello"+kb.Enter))
	WaitJS(t, web, `document.body.dataset.turn === "done"`)
	Click(t, web, `document.querySelector('#files li.file[data-name="plan.md"] button')`)
	WaitJS(t, web, `!document.getElementById("file").hidden`)
	shot(t, web, "", "")
	shot(t, web, dir, "web-client")
}

// TestScreenshotsQueue shows messages waiting while a reply is being written. Like
// TestScreenshots, it runs only with -screenshots DIR.
func TestScreenshotsQueue(t *testing.T) {
	dir := shotsDir(t)
	srv, _ := testkit.Held(t, "openai/text_usage.sse")
	tab := browser.FreshPanel(t)
	size(t, tab, "light")
	Configure(t, tab, "openai", srv.URL, "sk-screens", "gpt-5.4")
	SendMessage(t, tab, "What is the weather in San Francisco today?")
	WaitJS(t, tab, `!document.getElementById("stop").hidden`)
	for i, q := range []string{"And tomorrow?", "Then give both in Celsius, in a table"} {
		JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)
		Do(t, tab, chromedp.SendKeys("#input", q+kb.Enter))
		WaitJS(t, tab, `document.querySelectorAll("#queue-list .queued").length === `+string(rune('1'+i)))
	}
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)
	shot(t, tab, "", "") // settle fonts
	shot(t, tab, dir, "queue")
}

// TestScreenshotsOverlay shows the chat on a page: a real article, the overlay in its corner
// with a reply about it. Like TestScreenshots, it runs only with -screenshots DIR.
func TestScreenshotsOverlay(t *testing.T) {
	dir := shotsDir(t)
	pages := testkit.Pages(t)
	srv := testkit.Replay(t, "anthropic/text.sse", 5*time.Millisecond)
	panel := browser.FreshPanel(t)
	Configure(t, panel, "anthropic", srv.URL, "sk-screens", "claude-sonnet-4-5")
	url := pages + "/wikipedia/"
	tab := browser.Tab(t, url)
	viewport(t, tab, 1100, 720)
	WaitJS(t, tab, `document.readyState === "complete"`)
	ov := openOverlay(t, tab, url)
	onNode(t, ov, "type: ", chromedp.SendKeys("#input", "Say hi in Portuguese"+kb.Enter))
	WaitJS(t, ov, overlayReply+`?.dataset.status === "done"`)
	JS[bool](t, ov, `(document.getElementById("input").value = "", true)`)
	shot(t, tab, "", "") // settle fonts
	shot(t, tab, dir, "overlay")
}

// TestScreenshotsFrench shows the chat in French beside the English one: the same answer
// (the model's text stays as the model wrote it), with the panel's own words in French.
func TestScreenshotsFrench(t *testing.T) {
	dir := shotsDir(t)
	srv := testkit.OpenAIText(t, shotAnswer, 12, 5*time.Millisecond)
	tab := browser.FreshPanel(t)
	size(t, tab, "light")
	Configure(t, tab, "openai", srv.URL, "sk-screens", "gpt-5.4")
	Do(t, tab, chromedp.Click("#settings-toggle"))
	JS[bool](t, tab, `(document.getElementById("language").value = "fr", true)`)
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.documentElement.lang === "fr"`)
	Do(t, tab, chromedp.Click("#settings-toggle"))
	browser.Tab(t, pages(t)+"/v8-blog/")
	WaitJS(t, tab, `document.getElementById("page-chip").dataset.state === "attached"`)
	SendMessage(t, tab, "De quoi parle cette page ?")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	JS[bool](t, tab, `(document.getElementById("chat").scrollTop = 0, document.getElementById("input").value = "", true)`)
	shot(t, tab, "", "") // settle fonts
	shot(t, tab, dir, "chat-fr")
}

// TestScreenshotsWorkflows shows what issue 18 added: a plan waiting for approval, and the
// Workflows view with a saved workflow (its steps, its values) and a daily schedule.
func TestScreenshotsWorkflows(t *testing.T) {
	dir := shotsDir(t)
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		calls(call("propose_plan", obj{"steps": []string{"Fill in the restaurant and the number of people", "Type the account password (you will be asked)", "Press Book a table"},
			"sites": []string{site.URL}, "kinds": []string{"fill"}})),
	}}
	tab := agentPanel(t, "openai", testkit.NewModel(t, p.script))
	size(t, tab, "light")
	openTab(t, tab, site.Page("booking.html"))
	NewChat(t, tab)
	agentOn(t, tab)
	Do(t, tab, chromedp.Click("#plan-toggle"))
	WaitJS(t, tab, `document.getElementById("plan-toggle").getAttribute("aria-pressed") === "true"`)
	Do(t, tab, chromedp.SendKeys("#input", "Book a table at Luigi for 4\r"))
	WaitJS(t, tab, `!!document.querySelector(".msg.tool .plan-card .ask .allow-once:not([disabled])") || !!document.querySelector(".plan-card")`)
	shot(t, tab, "", "") // settle fonts
	shot(t, tab, dir, "plan")
	Do(t, tab, chromedp.Click("#stop"))
	WaitJS(t, tab, `document.getElementById("stop").hidden`)

	withSecret, without := reserveWorkflow(t, site)
	JS[any](t, tab, `skiffTest.call("workflow.import", {data: `+jsString(withSecret)+`})`)
	JS[any](t, tab, `skiffTest.call("workflow.import", {data: `+jsString(without)+`}).then(ws => skiffTest.call("schedule.save", {name: "Lunch on weekdays", workflow: ws[0].id, values: {restaurant: "Chez Anna"}, repeat: {every: "weekdays", time: "12:00"}}))`)
	JS[any](t, tab, `skiffTest.call("schedule.save", {name: "Morning news", prompt: "Summarise the front page of the news site I read", repeat: {every: "daily", time: "08:00"}})`)
	Do(t, tab, chromedp.Click("#workflows-toggle"))
	WaitJS(t, tab, `document.querySelectorAll(".workflow").length === 2 && document.querySelectorAll("#schedule-list .schedule").length === 2`)
	shot(t, tab, "", "")
	shot(t, tab, dir, "workflows")
}
