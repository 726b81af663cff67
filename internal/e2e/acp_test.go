//go:build !js

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/skiff-ai/skiff/internal/acphost"
	"github.com/skiff-ai/skiff/internal/daemon"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/testkit/acpagent"
)

// An ACP agent skiffd hosts is a chat backend in the panel, picked in the provider grid: its
// reply streams into the chat, its plan and tool cards show, its file write is asked in its
// chat (with the diff) and lands in the shared folder, its browser call reaches the gate
// named as the agent (asked above the composer like any outside caller, in its own tab
// group), and Stop cancels its turn.
func TestChatWithAnACPAgentThroughSkiffd(t *testing.T) {
	d, folder := skiffdWithAgent(t)
	site := testkit.NewSite(t)

	panel := browser.FreshPanel(t)
	browser.WorkerConsole(t)
	linkPanel(t, panel, d)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the chat: %s", JS[string](t, panel, `JSON.stringify(skiffTest.state.active && skiffTest.state.active.messages.map(m => [m.role, m.status, m.content, m.error, m.tool && m.tool.name]))`))
			t.Logf("stored: %s", JS[string](t, panel, `skiffTest.call("session.open", {sessionId: skiffTest.state.active.id}).then(s => JSON.stringify(s.messages.map(m => [m.role, m.status, m.content, m.error, m.tool && m.tool.name])), e => "error: " + e.message)`))
		}
	})
	// The provider grid lists skiffd's agents, and so does the model menu; picking one there
	// makes it the chat's backend.
	Do(t, panel, chromedp.Click("#settings-toggle"))
	WaitJS(t, panel, `document.querySelector('#provider-grid input[value="acp:test"]')`)
	Do(t, panel, chromedp.Click("#settings-toggle"))
	Click(t, panel, `document.getElementById("model-badge")`)
	WaitJS(t, panel, `[...document.querySelectorAll("#model-options li")].some(li => li.textContent === "Agents (via skiffd)")`)
	Do(t, panel, chromedp.SendKeys("#model-find", "test agent"))
	WaitJS(t, panel, `[...document.querySelectorAll('#model-options li[role="option"]')].map(li => li.textContent).join("|") === "Test Agent (via skiffd)"`)
	Do(t, panel, chromedp.KeyEvent(kb.Enter))
	WaitJS(t, panel, `document.getElementById("model-badge").textContent === "Test Agent (via skiffd)" && skiffTest.state.settings.provider === "acp:test"`)

	SendMessage(t, panel, "hello")
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("Hello from the test agent")`)
	WaitJS(t, panel, `document.querySelector('#messages .plan-card li[data-status="in_progress"]')?.textContent.includes("Answer")`)
	WaitJS(t, panel, `document.querySelector('#messages .msg.tool[data-tool="agent_read"] .file-chip')?.textContent === "notes.md"`)
	// The agent keeps its own history of the chat: nothing offers to branch it or go on from Skiff.
	if got := JS[int](t, panel, `document.querySelectorAll("#messages .branch-msg, #messages .continue-msg").length`); got != 0 {
		t.Errorf("a hosted agent's chat offers %d Branch or Continue buttons", got)
	}
	if title := JS[string](t, panel, `skiffTest.state.active.title`); title != "Greetings" {
		t.Errorf("the agent's session title did not reach the chat: %q", title)
	}
	// Details under the reply: the model and tokens the agent said the turn used, its timing,
	// and the chat's context window and cost so far (the shapes Claude's agent sends).
	Click(t, panel, lastAssistant+`.querySelector(".info-msg")`)
	WaitJS(t, panel, lastAssistant+`.querySelector(".m-info")`)
	// Opened under the last reply, they are scrolled into sight.
	WaitJS(t, panel, `(() => { const i = `+lastAssistant+`.querySelector(".m-info"), r = i.getBoundingClientRect(); return i.contains(document.elementFromPoint(r.left + 10, r.bottom - 4)) })()`)
	info := JS[string](t, panel, lastAssistant+`.querySelector(".m-info").textContent`)
	for _, want := range []string{"claude-test-model · tokens: 1,150 in, 42 out, 800 cached · first text after ", ", done after ",
		"\nthe agent's context window: 1,200 of 200,000 tokens used (1%)\nthis chat has cost $0.0123 so far, as the agent counts it"} {
		if !strings.Contains(info, want) {
			t.Errorf("the reply's Details say %q, without %q", info, want)
		}
	}
	if strings.Contains(info, "tokens/s") || strings.Contains(info, "model calls") {
		t.Errorf("a hosted turn's Details give a writing speed or count its cards as model calls: %q", info)
	}
	// The agent's slash commands are offered after a "/" in the message box: Tab completes
	// the chosen one, Escape closes the list and leaves the text.
	WaitJS(t, panel, `skiffTest.state.active.commands?.[0]?.name === "hello"`)
	JS[bool](t, panel, `(document.getElementById("input").value = "", true)`) // chromedp's Enter left a newline
	Do(t, panel, chromedp.SendKeys("#input", "/h"))
	WaitJS(t, panel, `!document.getElementById("slash-list").hidden`)
	if got := JS[string](t, panel, `document.querySelector('#slash-list [role="option"][aria-selected="true"]').textContent`); got != "/hello show every update kind" {
		t.Errorf("the command offered: %q", got)
	}
	if got := JS[string](t, panel, `document.getElementById("input").getAttribute("aria-activedescendant")`); got == "" {
		t.Error("the message box does not point at the chosen command")
	}
	Do(t, panel, chromedp.KeyEvent(kb.Tab))
	WaitJS(t, panel, `document.getElementById("input").value === "/hello " && document.getElementById("slash-list").hidden`)
	JS[bool](t, panel, `(document.getElementById("input").value = "", true)`)
	Do(t, panel, chromedp.SendKeys("#input", "/x"))
	if !JS[bool](t, panel, `document.getElementById("slash-list").hidden`) {
		t.Error("a list for a command the agent does not have")
	}
	Do(t, panel, chromedp.KeyEvent(kb.Backspace))
	WaitJS(t, panel, `!document.getElementById("slash-list").hidden`)
	Do(t, panel, chromedp.KeyEvent(kb.Escape))
	WaitJS(t, panel, `document.getElementById("slash-list").hidden && document.getElementById("input").value === "/" && document.body.dataset.view === "chat"`)
	JS[bool](t, panel, `(document.getElementById("input").value = "", true)`)

	// The agent's model is picked in the composer (its config option of category model).
	WaitJS(t, panel, `!document.getElementById("agent-model").hidden && document.getElementById("agent-model").value === "fast-1" && document.getElementById("agent-toggle").hidden`)
	JS[bool](t, panel, `(document.getElementById("agent-model").value = "deep-2", true)`)
	JS[bool](t, panel, `(document.getElementById("agent-model").dispatchEvent(new Event("change")), true)`)
	WaitJS(t, panel, `skiffTest.state.active.agentOptions?.[0]?.current === "deep-2"`)
	Do(t, panel, chromedp.SendKeys("#input", "model"+kb.Enter))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("model: deep-2")`)
	// And its mode (legacy session modes, as Gemini CLI sends them), beside the model; the
	// agent leaving plan mode by itself moves the picker back.
	WaitJS(t, panel, `!document.getElementById("agent-mode").hidden && document.getElementById("agent-mode").value === "default"`)
	// Each choice reads as the agent names it.
	if got := JS[string](t, panel, `[...document.querySelectorAll("#agent-model option, #agent-mode option")].map((o) => o.textContent).join()`); got != "Fast,Deep,Default,Plan" {
		t.Errorf("the pickers offer %q", got)
	}
	JS[bool](t, panel, `(document.getElementById("agent-mode").value = "plan", document.getElementById("agent-mode").dispatchEvent(new Event("change")), true)`)
	WaitJS(t, panel, `skiffTest.state.active.agentOptions?.find((o) => o.category === "mode")?.current === "plan"`)
	Do(t, panel, chromedp.SendKeys("#input", "mode"+kb.Enter))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("mode: plan")`)
	Do(t, panel, chromedp.SendKeys("#input", "leave-plan"+kb.Enter))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("left plan mode") && document.getElementById("agent-mode").value === "default"`)

	// A file write asks in the chat, with its diff; Allow writes it.
	path := filepath.Join(folder, "plan.md")
	Do(t, panel, chromedp.SendKeys("#input", "write "+path+" step one"+kb.Enter))
	ask := `document.querySelector('#messages .msg.tool[data-status="asking"]')`
	WaitJS(t, panel, ask+`?.querySelector(".ask-q")?.textContent === "Allow Test Agent to create plan.md?"`)
	if !JS[bool](t, panel, ask+`.querySelector(".diff .add")?.textContent === "+step one"`) {
		t.Errorf("the ask does not show the diff: %s", JS[string](t, panel, ask+`.textContent`))
	}
	Click(t, panel, ask+`.querySelector('button[data-decision="allow_once"]')`)
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("wrote ")`)
	if b, err := os.ReadFile(path); err != nil || string(b) != "step one" {
		t.Errorf("the allowed write did not land: %q %v", b, err)
	}
	WaitJS(t, panel, `[...document.querySelectorAll('#messages .msg.tool[data-tool="agent_write"] .diff-count.add')].some(n => n.textContent === "+1")`)

	// The Files view browses the shared folder through skiffd and opens what the agent wrote.
	Do(t, panel, chromedp.Click("#files-toggle"))
	WaitJS(t, panel, `document.querySelector('#file-list li.file[data-name="plan.md"] button')`)
	Click(t, panel, `document.querySelector('#file-list li.file[data-name="plan.md"] button')`)
	WaitJS(t, panel, `document.getElementById("file-view").textContent === "step one"`)
	Do(t, panel, chromedp.Click("#files-toggle"))
	WaitJS(t, panel, `document.body.dataset.view === "chat"`)

	// A denied write does not land.
	other := filepath.Join(folder, "nope.md")
	Do(t, panel, chromedp.SendKeys("#input", "write "+other+" no"+kb.Enter))
	WaitJS(t, panel, ask)
	Click(t, panel, ask+`.querySelector('button[data-decision="deny_once"]')`)
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("did not allow")`)
	if _, err := os.Stat(other); err == nil {
		t.Errorf("a denied write landed")
	}

	// The agent's browser call passes the gate named as the agent.
	page := site.Page("form.html")
	Do(t, panel, chromedp.SendKeys("#input", `browse navigate {"url": "`+page+`"}`+kb.Enter))
	sel := `#outside-asks .outside-ask[data-who="Test Agent"] button[data-decision="allow_once"]`
	WaitJS(t, panel, `document.querySelector(`+jsString(sel)+`)`)
	Click(t, panel, `document.querySelector(`+jsString(sel)+`)`)
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("browser: ")`)
	if txt := JS[string](t, panel, lastAssistant+`.textContent`); strings.Contains(txt, "tool error") {
		t.Errorf("the allowed browser call failed: %s", txt)
	}

	// Stop cancels the agent's turn.
	Do(t, panel, chromedp.SendKeys("#input", "slow"+kb.Enter))
	WaitJS(t, panel, lastAssistant+`?.textContent.includes("Working")`)
	Do(t, panel, chromedp.Click("#stop"))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "stopped"`)
	start := time.Now()
	Do(t, panel, chromedp.SendKeys("#input", "after"+kb.Enter))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("after")`)
	t.Logf("a turn after Stop answered in %v", time.Since(start))

	// A picture the user pastes goes to an agent that takes images (this one counts them).
	pastePicture(t, panel, 320, 200)
	JS[bool](t, panel, `(document.getElementById("input").value = "", true)`) // chromedp's Enter left a newline
	Do(t, panel, chromedp.SendKeys("#input", "hello"+kb.Enter))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("(1 images)")`)

	// The agent crashes: the chat says so, and Settings shows what it wrote before it died.
	JS[bool](t, panel, `(document.getElementById("input").value = "", true)`) // chromedp's Enter left a newline
	Do(t, panel, chromedp.SendKeys("#input", "crash"+kb.Enter))
	WaitJS(t, panel, `skiffTest.state.active.messages.at(-1)?.error?.message?.includes("Test Agent stopped")`)
	// skiffd says it as a sentence of the catalogs: in French, the panel says it in French
	// (the agent's own log stays as it wrote it).
	setLanguage(t, panel, "fr")
	WaitJS(t, panel, lastAssistant+`?.textContent.includes("Test Agent s’est arrêté (exit status 3). La fin de son journal :")`)
	setLanguage(t, panel, "en")
	WaitJS(t, panel, lastAssistant+`?.textContent.includes("Test Agent stopped (exit status 3). The end of its log:")`)
	Do(t, panel, chromedp.Click("#settings-toggle"))
	WaitJS(t, panel, `!document.getElementById("agent-log-row").hidden`)
	Click(t, panel, `document.getElementById("agent-log")`)
	WaitJS(t, panel, `!document.getElementById("agent-log-text").hidden && document.getElementById("agent-log-text").textContent.includes("test agent: crashing on purpose")`)
	// Under the agent's own words, what skiffd noted of the connection, under a heading in
	// the panel's language.
	setLanguage(t, panel, "fr")
	Click(t, panel, `document.getElementById("agent-log")`)
	WaitJS(t, panel, `(() => { const s = document.getElementById("agent-log-text").textContent; return s.indexOf("test agent: crashing on purpose") >= 0 && s.indexOf("test agent: crashing on purpose") < s.indexOf("--- Notes de Skiff sur la connexion ---") && !s.includes("Skiff's notes"); })()`)
	setLanguage(t, panel, "en")
	Do(t, panel, chromedp.Click("#settings-toggle"))

	// The chat goes on after the crash: skiffd starts the agent again, and it resumes the
	// chat's own session (the id Skiff kept with the chat), so it remembers the earlier turns.
	WaitJS(t, panel, `document.body.dataset.view === "chat"`)
	JS[bool](t, panel, `(document.getElementById("input").value = "", true)`)
	Do(t, panel, chromedp.SendKeys("#input", "recall"+kb.Enter))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("you said: hello")`)
	if n := JS[string](t, panel, `[...document.querySelectorAll("#messages .notice")].map(n => n.textContent).join(" | ")`); strings.Contains(n, "could not reopen") {
		t.Errorf("the agent started over: %s", n)
	}
}

// skiffdWithAgent serves a skiffd that hosts the scripted test agent, sharing a new folder.
func skiffdWithAgent(t *testing.T) (*skiffd, string) {
	t.Helper()
	cfg, folder := agentConfig(t)
	return serveSkiffd(t, cfg), folder
}

// agentConfig is skiffd's configuration with Skiff's test agent and a shared folder.
func agentConfig(t *testing.T) (*daemon.Config, string) {
	t.Helper()
	folder := t.TempDir()
	cfg, err := daemon.Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Port = 0 // serveSkiffd takes a free one
	cfg.AgentSettings = daemon.AgentSettings{Folder: folder, Agents: []acphost.Spec{{Name: "test", Title: "Test Agent", Command: []string{acpagent.Build(t)}, Env: []string{"SKIFF_TEST_AGENT_MODES=legacy"}}}}
	return cfg, folder
}

// The web client, in a plain browser tab: the one-time link pairs it (and leaves the address
// bar), it chats with the agent skiffd hosts, picks the agent's model and mode, answers the agent's
// question, lists the chats and browses the shared folder; the same link does not pair twice; a page on another origin
// reaches nothing.
func TestWebClientPairsAndChats(t *testing.T) {
	d, folder := skiffdWithAgent(t)
	if err := os.WriteFile(filepath.Join(folder, "notes.md"), []byte("# Notes\nbuy sails"), 0o644); err != nil {
		t.Fatal(err)
	}
	linkURL := pairingLink(t, d)
	tab := browser.Tab(t, linkURL)
	WaitJS(t, tab, `document.body.dataset.state === "connected"`)
	if h := JS[string](t, tab, `location.hash`); h != "" {
		t.Errorf("the code stayed in the address bar: %q", h)
	}
	WaitJS(t, tab, `[...document.querySelectorAll("#agent option")].some(o => o.value === "test")`)
	WaitJS(t, tab, `document.querySelector('#files li.file[data-name="notes.md"] button')`)
	Click(t, tab, `document.querySelector('#files li.file[data-name="notes.md"] button')`)
	WaitJS(t, tab, `document.getElementById("file").textContent === "# Notes\nbuy sails"`)

	JS[bool](t, tab, `(document.getElementById("agent").value = "test", true)`)
	Click(t, tab, `document.getElementById("new")`)
	WaitJS(t, tab, `document.querySelectorAll("#chats li.chat").length === 1`)
	Do(t, tab, chromedp.SendKeys("#input", "hello"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && [...document.querySelectorAll('#messages .msg[data-role="agent"]')].some(n => n.textContent.includes("Hello from the test agent"))`)
	WaitJS(t, tab, `document.querySelector("#chats li.chat")?.textContent.includes("Greetings")`)
	// Math as in the panel: skiffd serves KaTeX and its fonts with the renderer.
	JS[bool](t, tab, `import(new URL("markdown.js", location.href)).then((m) => { const d = document.createElement("div"); d.id = "math-check"; d.append(m.render("$x^2$")); document.getElementById("messages").append(d); return true })`)
	WaitJS(t, tab, `!!document.querySelector("#math-check .math[data-drawn] .katex")`)
	WaitJS(t, tab, `document.fonts.ready.then(() => [...document.fonts].some(f => f.family.replace(/"/g, "") === "KaTeX_Main" && f.status === "loaded"))`)
	JS[bool](t, tab, `(document.getElementById("math-check").remove(), true)`)
	// Read aloud, as in the panel: what reaches the browser's voice is the reply.
	JS[bool](t, tab, `(() => { window.said = []; speechSynthesis.speak = (u) => said.push(u); speechSynthesis.cancel = () => { for (const u of said.splice(0)) u.onerror && u.onerror({error: "interrupted"}); }; return true })()`)
	reply := `[...document.querySelectorAll('#messages .msg[data-role="agent"]')].find(n => n.textContent.includes("Hello from the test agent"))`
	Click(t, tab, reply+`.querySelector(".speak-msg")`)
	WaitJS(t, tab, `said.map(u => u.text).join(" ").includes("Hello from the test agent") && `+reply+`.querySelector(".speak-msg").textContent === "Stop reading"`)
	Click(t, tab, reply+`.querySelector(".speak-msg")`)
	WaitJS(t, tab, reply+`.querySelector(".speak-msg").textContent === "Read aloud"`)
	// Details, as in the panel: what the agent said the turn used, and of the chat.
	Click(t, tab, reply+`.querySelector(".info-msg")`)
	WaitJS(t, tab, reply+`.querySelector(".m-info")`)
	info := JS[string](t, tab, reply+`.querySelector(".m-info").textContent`)
	for _, want := range []string{"claude-test-model · tokens: 1,150 in, 42 out, 800 cached · first text after ",
		"\nthe agent's context window: 1,200 of 200,000 tokens used (1%)\nthis chat has cost $0.0123 so far, as the agent counts it"} {
		if !strings.Contains(info, want) {
			t.Errorf("the web client's Details say %q, without %q", info, want)
		}
	}
	Click(t, tab, reply+`.querySelector(".info-msg")`)
	WaitJS(t, tab, `!`+reply+`.querySelector(".m-info")`)
	// With the panel's cards: the plan with each entry's status, the tool call with its status
	// in words and its file, the thought folded.
	WaitJS(t, tab, `document.querySelector('#messages .plan-card li[data-status="in_progress"]')?.textContent.includes("Answer")`)
	WaitJS(t, tab, `[...document.querySelectorAll('#messages .msg[data-role="tool"]')].some(n => n.querySelector(".file-chip")?.textContent === "notes.md" && n.querySelector(".t-status").textContent === "done")`)
	WaitJS(t, tab, `document.querySelector('#messages .msg[data-role="thought"] details:not([open])')?.textContent.includes("The user greets me.")`)

	// The agent's slash commands are offered here too.
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`) // chromedp's Enter left a newline
	Do(t, tab, chromedp.SendKeys("#input", "/he"))
	WaitJS(t, tab, `document.querySelector('#slash-list:not([hidden]) [role="option"]')?.textContent === "/hello show every update kind"`)
	Do(t, tab, chromedp.KeyEvent(kb.Tab))
	WaitJS(t, tab, `document.getElementById("input").value === "/hello " && document.getElementById("slash-list").hidden`)
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)

	// The agent's model is picked here, as in the panel.
	WaitJS(t, tab, `!document.getElementById("agent-model").hidden && document.getElementById("agent-model").value === "fast-1"`)
	JS[bool](t, tab, `(document.getElementById("agent-model").value = "deep-2", document.getElementById("agent-model").dispatchEvent(new Event("change")), true)`)
	Do(t, tab, chromedp.SendKeys("#input", "model"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && [...document.querySelectorAll('#messages .msg[data-role="agent"]')].some(n => n.textContent.includes("model: deep-2"))`)
	if v := JS[string](t, tab, `document.getElementById("agent-model").value`); v != "deep-2" {
		t.Errorf("the model picker shows %q after the change", v)
	}
	// This agent names no model in the turn's answer: the reply's Details name the one the
	// picker is on, as the panel's do.
	modelReply := `[...document.querySelectorAll('#messages .msg[data-role="agent"]')].find(n => n.textContent.includes("model: deep-2"))`
	Click(t, tab, modelReply+`.querySelector(".info-msg")`)
	WaitJS(t, tab, modelReply+`.querySelector(".m-info")`)
	if info := JS[string](t, tab, modelReply+`.querySelector(".m-info").textContent`); !strings.HasPrefix(info, "Deep · first text after ") {
		t.Errorf("the Details of a reply whose agent named no model: %q", info)
	}
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)
	JS[bool](t, tab, `(document.getElementById("agent-mode").value = "plan", document.getElementById("agent-mode").dispatchEvent(new Event("change")), true)`)
	Do(t, tab, chromedp.SendKeys("#input", "mode"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && [...document.querySelectorAll('#messages .msg[data-role="agent"]')].some(n => n.textContent.includes("mode: plan"))`)
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)

	// The agent's own question is answered here.
	Do(t, tab, chromedp.SendKeys("#input", "ask edit"+kb.Enter))
	WaitJS(t, tab, `document.querySelector('#messages .ask button[data-answer="allow_always"]')`)
	Click(t, tab, `document.querySelector('#messages .ask button[data-answer="allow_always"]')`)
	WaitJS(t, tab, `document.body.dataset.turn === "done" && [...document.querySelectorAll('#messages .msg[data-role="agent"]')].some(n => n.textContent.includes("chose always"))`)

	// A file write asks with its diff and its counts, and what was written shows as a diff.
	Do(t, tab, chromedp.SendKeys("#input", "write "+filepath.Join(folder, "plan.md")+" step one"+kb.Enter))
	WaitJS(t, tab, `document.querySelector('#messages .ask .diff-card .diff-count.add')?.textContent === "+1"`)
	Click(t, tab, `[...document.querySelectorAll('#messages .ask button[data-answer="allow_once"]')].at(-1)`)
	WaitJS(t, tab, `document.body.dataset.turn === "done" && document.querySelector('#messages .msg[data-role="wrote"] .diff .add')?.textContent === "+step one"`)

	// In a French browser, the client speaks French (from the catalogs skiffd serves with it).
	ua := JS[string](t, tab, `navigator.userAgent`)
	Do(t, tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: "fr-FR,fr"})
		return err
	}))
	JS[bool](t, tab, `(location.reload(), true)`)
	WaitJS(t, tab, `document.body.dataset.state === "connected" && document.documentElement.lang === "fr"`)
	for expr, want := range map[string]string{
		`document.getElementById("status").textContent`: "Connecté à skiffd.",
		`document.getElementById("send").textContent`:   "Envoyer",
		`document.getElementById("input").placeholder`:  "Écrire à l’agent",
		`document.querySelector("h1").textContent`:      "Agents Skiff",
	} {
		if got := JS[string](t, tab, expr); got != want {
			t.Errorf("the web client in French: %s is %q, want %q", expr, got, want)
		}
	}

	// The link does not pair a second time (a fresh profile: no cookie).
	fresh := browser.Incognito(t, linkURL)
	WaitJS(t, fresh, `document.body.dataset.state === "refused" || document.body.dataset.state === "closed"`)

	// A page on another origin reaches neither the socket nor the file API.
	site := testkit.NewSite(t)
	other := browser.Tab(t, site.Page("form.html"))
	got := JS[string](t, other, `new Promise((resolve) => {
		const ws = new WebSocket("ws://127.0.0.1:`+strconv.Itoa(d.Cfg.Port)+`/app/ws");
		ws.onopen = () => resolve("open");
		ws.onerror = () => resolve("refused");
	})`)
	if got != "refused" {
		t.Errorf("a page on another origin opened the web client's socket")
	}
	got = JS[string](t, other, `fetch("http://127.0.0.1:`+strconv.Itoa(d.Cfg.Port)+`/app/pair", {method: "POST", body: "{}"}).then(r => String(r.status), e => "blocked")`)
	if got != "blocked" && got != "403" {
		t.Errorf("a page on another origin could post to the pairing endpoint: %s", got)
	}
}

// A session the agent keeps in the shared folder, started elsewhere (here: written where the
// test agent keeps its sessions, as a run of it in a terminal would), is listed in History
// through ACP session/list and goes on in the panel: the chat shows what the agent replays of
// it, the agent remembers it, and the list then opens that chat instead of a second copy.
func TestGoOnWithASessionTheAgentKept(t *testing.T) {
	d, folder := skiffdWithAgent(t)
	kept := filepath.Join(folder, ".skiff-test-agent")
	if err := os.MkdirAll(kept, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kept, "s-terminal.txt"), []byte("plan the trip\nbook the boat\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	panel := browser.FreshPanel(t)
	linkPanel(t, panel, d)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the chat: %s", JS[string](t, panel, `JSON.stringify(skiffTest.state.active && skiffTest.state.active.messages.map(m => [m.role, m.status, m.content, m.error]))`))
		}
	})

	Do(t, panel, chromedp.Click("#history-toggle"))
	show := `document.querySelector('#agent-sessions:not([hidden]) button.show-sessions[data-agent="test"]')`
	WaitJS(t, panel, show+`?.textContent === "Test Agent’s sessions"`)
	Click(t, panel, show)
	row := `document.querySelector('#agent-session-list .agent-session[data-id="s-terminal"]')`
	WaitJS(t, panel, row+`?.querySelector(".s-title").textContent === "plan the trip"`)
	if got := JS[string](t, panel, row+`.querySelector("button").textContent`); got != "Go on here" {
		t.Errorf("the session's button says %q", got)
	}
	Click(t, panel, row+`.querySelector("button")`)
	WaitJS(t, panel, `document.body.dataset.view === "chat" && skiffTest.state.active?.agentSession === "s-terminal"`)
	got := messages(t, panel)
	want := []string{"user:plan the trip", "assistant:(replayed) plan the trip", "user:book the boat", "assistant:(replayed) book the boat"}
	var shape []string
	for _, m := range got {
		shape = append(shape, m.Role+":"+m.Content)
	}
	if strings.Join(shape, "\n") != strings.Join(want, "\n") {
		t.Errorf("the continued chat shows:\n%s\nwant:\n%s", strings.Join(shape, "\n"), strings.Join(want, "\n"))
	}
	if title := JS[string](t, panel, `document.getElementById("title").textContent`); title != "plan the trip" {
		t.Errorf("the chat's title: %q", title)
	}
	if b := JS[string](t, panel, `document.getElementById("model-badge").textContent + " | " + skiffTest.state.settings.provider`); b != "Test Agent (via skiffd) | acp:test" {
		t.Errorf("the chat does not go on with the agent: the badge and provider are %q", b)
	}

	Do(t, panel, chromedp.SendKeys("#input", "recall"+kb.Enter))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.textContent.includes("you said: plan the trip | book the boat")`)

	// Listed again, it opens the chat that has it.
	id := JS[string](t, panel, `skiffTest.state.active.id`)
	Do(t, panel, chromedp.Click("#history-toggle"))
	WaitJS(t, panel, show)
	Click(t, panel, show)
	WaitJS(t, panel, row+`?.dataset.chat === `+jsString(id)+` && `+row+`.querySelector("button").textContent === "Open its chat"`)
	Click(t, panel, `document.getElementById("history-toggle")`)
	WaitJS(t, panel, `document.body.dataset.view === "chat"`)
	if n := JS[int](t, panel, `skiffTest.call("session.list").then(l => l.filter(s => s.provider === "acp:test").length)`); n != 1 {
		t.Errorf("%d chats with the agent, want the one continued", n)
	}
}

// lanCertFiles are the certificate and key the browser trusts for the LAN (TestMain).
var lanCertFiles [2]string

// The web client on a phone over the LAN: `skiffd serve --lan` and the QR code's link, in a
// phone-sized tab that trusts skiffd's certificate. It pairs over HTTPS (a secure context, the
// cookie out of the page's reach), chats with the agent over wss, and fits the phone's width;
// the link pairs once.
func TestWebClientOnAPhoneOverTheLAN(t *testing.T) {
	cfg, folder := agentConfig(t)
	if err := os.WriteFile(filepath.Join(folder, "notes.md"), []byte("# Notes\nbuy sails"), 0o644); err != nil {
		t.Fatal(err)
	}
	lan, err := daemon.ListenLAN(cfg, []string{"127.0.0.1"}, 0, lanCertFiles[0], lanCertFiles[1])
	if err != nil {
		t.Fatal(err)
	}
	d := serveSkiffdLAN(t, cfg, lan)
	code := pairingCode(t, d, true)
	if want := "https://127.0.0.1:" + strconv.Itoa(lan.Port) + "/app/#code="; !strings.HasPrefix(code.URL, want) {
		t.Fatalf("the QR code's link is %s, want it under %s", code.URL, want)
	}
	phone := browser.Tab(t, "about:blank")
	Do(t, phone, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 390, Height: 844, DeviceScaleFactor: 3, Mobile: true})
		return err
	}), chromedp.Navigate(code.URL))
	WaitJS(t, phone, `document.body.dataset.state === "connected"`)
	if !JS[bool](t, phone, `window.isSecureContext && location.protocol === "https:" && location.hash === ""`) {
		t.Error("the web client on the LAN is not a secure context, or the code stayed in the address bar")
	}
	if c := JS[string](t, phone, `document.cookie`); c != "" {
		t.Errorf("the pairing cookie is in the page's reach: %q", c)
	}
	WaitJS(t, phone, `document.querySelector('#files li.file[data-name="notes.md"] button')`)
	JS[bool](t, phone, `(document.getElementById("agent").value = "test", true)`)
	Click(t, phone, `document.getElementById("new")`)
	WaitJS(t, phone, `document.querySelectorAll("#chats li.chat").length === 1`)
	Do(t, phone, chromedp.SendKeys("#input", "hello"+kb.Enter))
	WaitJS(t, phone, `document.body.dataset.turn === "done" && [...document.querySelectorAll('#messages .msg[data-role="agent"]')].some(n => n.textContent.includes("Hello from the test agent"))`)
	if w := JS[[]int](t, phone, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
		t.Errorf("the web client is wider than the phone: %d px in %d", w[0], w[1])
	}
	if bad := spilling(t, phone); len(bad) > 0 {
		t.Errorf("past the phone's edge: %q", bad)
	}
	// The message box takes the phone's width, its buttons under it (it was a third of it).
	if got := JS[[]float64](t, phone, `[document.getElementById("input").getBoundingClientRect().width, document.getElementById("composer").clientWidth]`); got[0] < got[1]*0.8 {
		t.Errorf("the message box is %.0f px wide in a composer of %.0f", got[0], got[1])
	}

	// The sessions the agent keeps: the one this chat has open is this chat; one started
	// elsewhere goes on here, with its history.
	kept := filepath.Join(folder, ".skiff-test-agent")
	if err := os.WriteFile(filepath.Join(kept, "s-terminal.txt"), []byte("plan the trip\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	Click(t, phone, `document.getElementById("kept")`)
	WaitJS(t, phone, `document.querySelectorAll("#kept-list li.kept").length === 2`)
	if open := JS[string](t, phone, `[...document.querySelectorAll("#kept-list li.kept")].filter(li => li.dataset.open).map(li => li.textContent).join()`); open != "hello" {
		t.Errorf("the session open in this client's chat is listed as %q", open)
	}
	Click(t, phone, `document.querySelector('#kept-list li.kept[data-id="s-terminal"] button')`)
	WaitJS(t, phone, `document.querySelectorAll("#chats li.chat").length === 2 && document.querySelector('#messages .msg[data-role="user"]')?.textContent === "plan the trip" && document.querySelector('#messages .msg[data-role="agent"]')?.textContent.includes("(replayed) plan the trip")`)

	// The link pairs once.
	fresh := browser.Incognito(t, code.URL)
	WaitJS(t, fresh, `document.body.dataset.state === "refused"`)
}

// pairingCode asks skiffd for a one-time code and its link, for this computer or (lan) for a
// phone on the local network, as its owner does with `skiffd open [--lan]`.
func pairingCode(t *testing.T, d *skiffd, lan bool) daemon.CodeReply {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://127.0.0.1:"+strconv.Itoa(d.Cfg.Port)+"/app/code", strings.NewReader(`{"lan":`+strconv.FormatBool(lan)+`}`))
	resp, err := daemon.BearerClient(d.Cfg.MCPToken).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var code daemon.CodeReply
	if err := json.NewDecoder(resp.Body).Decode(&code); err != nil || code.URL == "" {
		t.Fatalf("skiffd gave no pairing link (%s): %v", resp.Status, err)
	}
	return code
}

// pairingLink asks skiffd for a one-time link that pairs a web client (what "skiffd open"
// prints), as its owner does, with the MCP token.
func pairingLink(t *testing.T, d *skiffd) string {
	t.Helper()
	return pairingCode(t, d, false).URL
}

// The web client attaches what the panel does: a picture, a text file, a PDF and a Word file
// chosen with Attach (the PDF read by pdf.js in the page, the Word file by office.js); each goes to the agent skiffd hosts (the
// picture as a picture, the files as their text), and the message shows them. A picture for
// an agent that takes none is refused at once with a sentence, and its files still go.
func TestWebClientAttachesPicturesAndFiles(t *testing.T) {
	cfg, _ := agentConfig(t)
	test := cfg.AgentSettings.Agents[0]
	cfg.AgentSettings.Agents = append(cfg.AgentSettings.Agents, acphost.Spec{Name: "blind", Title: "Blind Agent", Command: test.Command, Env: []string{"SKIFF_TEST_AGENT_IMAGES=none"}})
	d := serveSkiffd(t, cfg)
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(notes, []byte("# Notes\nNOTES-7e40: call the caterer.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A photo's worth of noise: larger than a WebSocket message is by default (32 KB).
	noise := image.NewRGBA(image.Rect(0, 0, 256, 256))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range noise.Pix {
		noise.Pix[i] = byte(r.Uint32())
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, noise); err != nil {
		t.Fatal(err)
	}
	photo := filepath.Join(dir, "photo.png")
	if err := os.WriteFile(photo, pic.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(RepoRoot(), "testdata", "attach", "report.pdf")

	tab := browser.Tab(t, pairingLink(t, d))
	WaitJS(t, tab, `document.body.dataset.state === "connected" && [...document.querySelectorAll("#agent option")].some(o => o.value === "blind")`)
	JS[bool](t, tab, `(document.getElementById("agent").value = "test", true)`)
	Click(t, tab, `document.getElementById("new")`)
	WaitJS(t, tab, `document.querySelectorAll("#chats li.chat").length === 1`)
	agentSaid := `[...document.querySelectorAll('#messages .msg[data-role="agent"]')].map((n) => n.textContent).join(" | ")`

	Do(t, tab, chromedp.SetUploadFiles("#attach-file", []string{photo}))
	WaitJS(t, tab, `document.querySelectorAll("#attachments .a-image img").length === 1`)
	Do(t, tab, chromedp.SendKeys("#input", "hello"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && `+agentSaid+`.includes("(1 images)")`)
	WaitJS(t, tab, `[...document.querySelectorAll('#messages .msg[data-role="user"] .u-attached img')].some((i) => i.complete && i.naturalWidth === 256)`)
	if JS[bool](t, tab, `!document.getElementById("attachments").hidden`) {
		t.Error("the picture stayed in the box after it went")
	}

	Do(t, tab, chromedp.SetUploadFiles("#attach-file", []string{notes, report, filepath.Join(RepoRoot(), "testdata", "attach", "office", "memo.docx")}))
	chips := `[...document.querySelectorAll("#attachments .a-file .file-chip")].map((c) => c.textContent)`
	WaitJS(t, tab, chips+`.length === 3 && `+chips+`.every((c) => c.includes("·"))`)
	Do(t, tab, chromedp.SendKeys("#input", "summarise"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && `+agentSaid+`.includes("PDF-91c0")`)
	said := JS[string](t, tab, agentSaid)
	for _, want := range []string{"echo: summarise", "NOTES-7e40", "[Page 1]", "PDF-33af", "[Page 2]", "of 2 pages", "DATA from that file", "WORD-4c1f", "WORD-9a27"} {
		if !strings.Contains(said, want) {
			t.Errorf("the agent did not get %q in:\n%s", want, said)
		}
	}
	shown := `[...document.querySelectorAll('#messages .msg[data-role="user"] .file-chip')].map((c) => c.textContent).join(" | ")`
	WaitJS(t, tab, shown+`.includes("report.pdf · 2 pages") && `+shown+`.includes("notes.md")`)

	// An agent that takes no pictures: the picture is refused where it is attached, the file goes.
	JS[bool](t, tab, `(document.getElementById("agent").value = "blind", true)`)
	Click(t, tab, `document.getElementById("new")`)
	WaitJS(t, tab, `document.querySelectorAll("#chats li.chat").length === 2`)
	Do(t, tab, chromedp.SetUploadFiles("#attach-file", []string{photo, notes}))
	WaitJS(t, tab, `document.getElementById("notice").textContent.includes("Blind Agent does not take pictures, so “photo.png” cannot go")`)
	WaitJS(t, tab, chips+`.length === 1 && `+chips+`[0].includes("notes.md ·")`)
	if n := JS[int](t, tab, `document.querySelectorAll("#attachments img").length`); n != 0 {
		t.Errorf("%d pictures wait to go to an agent that takes none", n)
	}
	Do(t, tab, chromedp.SendKeys("#input", "notes"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && `+agentSaid+`.includes("NOTES-7e40")`)
	if JS[bool](t, tab, `!document.getElementById("notice").hidden`) {
		t.Error("the refusal stayed after the message went")
	}
}

// The web client's link drops (a phone's Wi-Fi, a laptop that slept: here the socket is closed
// under it) while skiffd runs on: it says so, connects again by itself, and the chat goes on.
func TestWebClientConnectsAgain(t *testing.T) {
	d, _ := skiffdWithAgent(t)
	tab := browser.Tab(t, "about:blank")
	// Keep each WebSocket the page opens where the test can close it.
	Do(t, tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
			const WS = window.WebSocket;
			window.__sockets = [];
			window.WebSocket = function (...a) { const s = new WS(...a); window.__sockets.push(s); return s; };
			window.WebSocket.prototype = WS.prototype;
		})()`})
		return err
	}))
	Do(t, tab, chromedp.Navigate(pairingLink(t, d)))
	WaitJS(t, tab, `document.body.dataset.state === "connected" && [...document.querySelectorAll("#agent option")].some(o => o.value === "test")`)
	JS[bool](t, tab, `(document.getElementById("agent").value = "test", true)`)
	Click(t, tab, `document.getElementById("new")`)
	WaitJS(t, tab, `document.querySelectorAll("#chats li.chat").length === 1`)
	JS[bool](t, tab, `(window.__sockets.at(-1).close(), true)`)
	WaitJS(t, tab, `document.body.dataset.state === "reconnecting"`)
	WaitJS(t, tab, `document.body.dataset.state === "connected" && window.__sockets.length === 2`)
	Do(t, tab, chromedp.SendKeys("#input", "hello"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && [...document.querySelectorAll('#messages .msg[data-role="agent"]')].some(n => n.textContent.includes("Hello from the test agent"))`)
}

// The web client's pairing outlives skiffd (a laptop that rebooted): while skiffd is stopped the
// page says so and keeps trying; started again, skiffd still knows the browser, the page
// connects by itself, and the chat on screen goes on (skiffd opens it again with its agent). `skiffd unpair` forgets it: the page's link closes, and it says
// to pair again rather than trying forever.
func TestWebClientPairingOutlivesSkiffd(t *testing.T) {
	cfg, _ := agentConfig(t)
	d := serveSkiffd(t, cfg)
	tab := browser.Tab(t, pairingLink(t, d))
	WaitJS(t, tab, `document.body.dataset.state === "connected" && [...document.querySelectorAll("#agent option")].some(o => o.value === "test")`)
	JS[bool](t, tab, `(document.getElementById("agent").value = "test", true)`)
	Click(t, tab, `document.getElementById("new")`)
	WaitJS(t, tab, `document.querySelectorAll("#chats li.chat").length === 1`)
	Do(t, tab, chromedp.SendKeys("#input", "hello"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && document.querySelectorAll('#messages .msg[data-role="agent"]').length === 1`)
	d.Stop()
	WaitJS(t, tab, `document.body.dataset.state === "reconnecting" && document.getElementById("status").textContent.includes("skiffd serve")`)
	d = serveSkiffd(t, cfg)
	WaitJS(t, tab, `document.body.dataset.state === "connected"`)
	// The chat on screen, which the new skiffd does not hold, goes on: opened again first.
	Do(t, tab, chromedp.SendKeys("#input", "hello again"+kb.Enter))
	WaitJS(t, tab, `document.body.dataset.turn === "done" && document.querySelectorAll('#messages .msg[data-role="agent"]').length === 2 && document.querySelectorAll("#chats li.chat").length === 1`)
	// The test agent keeps its sessions: it took this one up (nothing says it forgot).
	if n := JS[int](t, tab, `document.querySelectorAll('#messages .msg[data-role="note"]').length`); n != 0 {
		t.Errorf("%d notes after the chat went on: %s", n, JS[string](t, tab, `document.getElementById("messages").textContent`))
	}

	req, _ := http.NewRequest("POST", "http://127.0.0.1:"+strconv.Itoa(cfg.Port)+"/app/unpair", nil)
	r, err := daemon.BearerClient(cfg.MCPToken).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	WaitJS(t, tab, `document.body.dataset.state === "closed" && document.getElementById("status").textContent.includes("skiffd open")`)
}

// The web client reads the agent's replies aloud as they come when its box is ticked (kept in
// the browser): the first paragraph while the agent is still writing, the rest when the turn
// ends, each once and in order; Stop ends the reading with the turn.
func TestWebClientReadsRepliesAsTheyCome(t *testing.T) {
	d, folder := skiffdWithAgent(t)
	tab := browser.Tab(t, pairingLink(t, d))
	WaitJS(t, tab, `document.body.dataset.state === "connected"`)
	WaitJS(t, tab, `[...document.querySelectorAll("#agent option")].some(o => o.value === "test")`)
	JS[bool](t, tab, speechWatched)
	WaitJS(t, tab, `!document.getElementById("read-row").hidden`)
	Click(t, tab, `document.getElementById("read-as-they-come")`)
	WaitJS(t, tab, `localStorage.getItem("skiff-read-as-they-come") === "1"`)
	JS[bool](t, tab, `(document.getElementById("agent").value = "test", true)`)
	Click(t, tab, `document.getElementById("new")`)
	WaitJS(t, tab, `document.querySelectorAll("#chats li.chat").length === 1`)

	goOn := filepath.Join(folder, "go-on")
	Do(t, tab, chromedp.SendKeys("#input", "story"+kb.Enter))
	WaitJS(t, tab, `said.length === 1`)
	if got := JS[string](t, tab, `said[0] + " / " + document.body.dataset.turn`); got != "The fox lives by the river. / running" {
		t.Errorf("read first: %q", got)
	}
	if err := os.WriteFile(goOn, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	WaitJS(t, tab, `document.body.dataset.turn === "done" && said.length === 3`)
	if got := JS[string](t, tab, `said.join("|")`); got != "The fox lives by the river.|It fishes at dawn.|That is all." {
		t.Errorf("read: %q", got)
	}
	JS[bool](t, tab, `(queue.splice(0).forEach((u) => u.onend()), true)`)

	// Stopped while the agent writes: nothing more is read.
	if err := os.Remove(goOn); err != nil {
		t.Fatal(err)
	}
	JS[bool](t, tab, speechWatched)
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`) // chromedp's Enter left a newline
	Do(t, tab, chromedp.SendKeys("#input", "story"+kb.Enter))
	WaitJS(t, tab, `said.length === 1 && !document.getElementById("stop").hidden`)
	Click(t, tab, `document.getElementById("stop")`)
	WaitJS(t, tab, `document.body.dataset.turn === "done" && cancels > 0`)
	if got := JS[[]string](t, tab, `said`); len(got) != 1 {
		t.Errorf("read after Stop: %q", got)
	}
}

// The web client offers the user's saved prompts after a "/", as the panel does: the panel's
// own while skiffd has no browser linked (or the user saved none), then the ones saved in the
// panel, with the date filled in and the first placeholder left selected to type over.
func TestWebClientOffersTheSavedPrompts(t *testing.T) {
	d, _ := skiffdWithAgent(t)
	tab := browser.Tab(t, pairingLink(t, d))
	WaitJS(t, tab, `document.body.dataset.state === "connected"`)
	WaitJS(t, tab, `[...document.querySelectorAll("#agent option")].some(o => o.value === "test")`)
	JS[bool](t, tab, `(document.getElementById("agent").value = "test", true)`)
	Click(t, tab, `document.getElementById("new")`)
	WaitJS(t, tab, `document.querySelectorAll("#chats li.chat").length === 1`)
	options := `[...document.querySelectorAll('#slash-list:not([hidden]) [role="option"]')].map(o => o.dataset.name).join()`
	Do(t, tab, chromedp.SendKeys("#input", "/"))
	WaitJS(t, tab, options+` === "hello,summarize,explain,translate"`)
	JS[bool](t, tab, `(document.getElementById("input").value = "", document.getElementById("input").blur(), true)`)

	// (Linked first: the Settings form linkPanel saves holds the prompts of before.)
	panel := browser.Panel(t)
	linkPanel(t, panel, d)
	const text = "Say hello to {{who}} on {{date}}."
	JS[bool](t, panel, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, prompts: [{name: "greet", text: `+jsString(text)+`}]}, keys: {}})).then(() => true)`)
	t.Cleanup(func() {
		JS[bool](t, panel, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, prompts: null}, keys: {}})).then(() => true)`)
	})
	// The box asks again each time it is used: the prompts saved meanwhile are offered.
	Eventually(t, 20*time.Second, func() bool {
		JS[bool](t, tab, `(document.getElementById("input").blur(), document.getElementById("input").focus(), true)`)
		JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)
		Do(t, tab, chromedp.SendKeys("#input", "/"))
		return JS[string](t, tab, options) == "hello,greet"
	}, "the web client did not offer the panel's saved prompt")
	Do(t, tab, chromedp.SendKeys("#input", "gr"+kb.Tab))
	WaitJS(t, tab, `document.getElementById("input").value.startsWith("Say hello to {{who}} on ") && !document.getElementById("input").value.includes("{{date}}")`)
	if sel := JS[string](t, tab, `(() => { const b = document.getElementById("input"); return b.value.slice(b.selectionStart, b.selectionEnd) })()`); sel != "{{who}}" {
		t.Errorf("selected after choosing the prompt: %q", sel)
	}
}
