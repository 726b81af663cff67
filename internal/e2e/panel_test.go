//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func TestAskAboutTheSelection(t *testing.T) {
	base := pages(t)
	srv := testkit.OpenAIText(t, "It means a standalone binary.", 8, 0)
	panel := browser.FreshPanel(t)
	Configure(t, panel, "openai", srv.URL, "sk-ask", "gpt-test")
	url := base + "/v8-blog/"
	browser.Tab(t, url)
	tab := JS[string](t, panel, fmt.Sprintf(`chrome.tabs.query({url: %s}).then(ts => JSON.stringify({windowId: ts[0].windowId, id: ts[0].id, url: ts[0].url, title: ts[0].title}))`, jsString(url)))

	// What Chrome calls when the user picks the context-menu entry (the menu itself is native
	// UI a headless browser cannot click).
	browser.WorkerJS(t, fmt.Sprintf(`askAboutSelection({menuItemId: "ask-selection", selectionText: "standalone WebAssembly binaries", pageUrl: %s}, %s)`, jsString(url), tab))
	var tabInfo struct{ Title string }
	_ = json.Unmarshal([]byte(tab), &tabInfo)
	WaitJS(t, panel, `document.getElementById("page-chip-text").textContent === `+jsString("Selection (31 characters) from "+tabInfo.Title))
	if p := JS[string](t, panel, `document.activeElement.id + "|" + document.activeElement.placeholder`); p != "input|Ask about the selected text…" {
		t.Errorf("focus %q", p)
	}
	Do(t, panel, chromedp.SendKeys("#input", "What does it mean?\r"))
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done"`)
	sys := system(srv.Posts(t)[0])
	if !strings.Contains(sys, "<selection>\nstandalone WebAssembly binaries\n</selection>") || !strings.Contains(sys, "URL: "+url) {
		t.Fatalf("system content:\n%.800s", sys)
	}
	// Used once: the chip is back to the page.
	WaitJS(t, panel, `document.getElementById("page-chip-text").textContent.startsWith(`+jsString(expectedTitle(t, "v8-blog")+" · ")+`)`)

	// The keyboard shortcut that opens the panel is registered with Chrome.
	cmds := JS[string](t, panel, `chrome.commands.getAll().then(cs => cs.map(c => c.name + "=" + c.shortcut).join(","))`)
	if !strings.Contains(cmds, "_execute_action=Alt+Shift+S") {
		t.Errorf("commands %q", cmds)
	}
}

// unnamed lists the focusable controls on screen that a screen reader would announce without
// a name, from Chrome's own accessibility tree.
func unnamed(t *testing.T, tab context.Context) []string {
	t.Helper()
	res, err := chromedp.Call(tab, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]bool{"button": true, "textbox": true, "combobox": true, "checkbox": true, "radio": true, "searchbox": true, "spinbutton": true, "link": true, "listbox": true}
	var bad []string
	for _, n := range res.Nodes {
		if n.Ignored || n.Role == nil {
			continue
		}
		var role, name string
		_ = json.Unmarshal(n.Role.Value, &role)
		if n.Name != nil {
			_ = json.Unmarshal(n.Name.Value, &name)
		}
		if roles[role] && strings.TrimSpace(name) == "" {
			bad = append(bad, fmt.Sprintf("%s (node %d)", role, n.BackendDOMNodeID))
		}
	}
	return bad
}

func TestKeyboardLabelsAndThemes(t *testing.T) {
	srv := testkit.OpenAIText(t, "Sure: **done**.", 8, 0)
	tab := browser.FreshPanel(t)
	Configure(t, tab, "openai", srv.URL, "sk-kb", "gpt-test")
	Do(t, tab, chromedp.Reload())
	WaitJS(t, tab, `document.body.dataset.ready === "1"`)

	// Keyboard only: Tab reaches the message box, Enter sends.
	JS[bool](t, tab, `(document.activeElement.blur(), true)`)
	for i := 0; i < 20 && JS[string](t, tab, `document.activeElement.id`) != "input"; i++ {
		Do(t, tab, chromedp.KeyEvent(kb.Tab))
	}
	if id := JS[string](t, tab, `document.activeElement.id`); id != "input" {
		t.Fatalf("Tab never reached the message box (at %q)", id)
	}
	Do(t, tab, chromedp.KeyEvent("first question"), chromedp.KeyEvent(kb.Enter))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	// Alt+N: a new chat, focus in the message box. Alt+H: history, focus in search; Tab and
	// Enter open a chat; Escape goes back.
	Do(t, tab, chromedp.KeyEvent("n", chromedp.KeyModifiers(kb.ModifierAlt)))
	WaitJS(t, tab, `document.querySelector("#messages .empty") && document.activeElement.id === "input"`)
	Do(t, tab, chromedp.KeyEvent("h", chromedp.KeyModifiers(kb.ModifierAlt)))
	WaitJS(t, tab, `document.body.dataset.view === "history" && document.activeElement.id === "search"`)
	WaitJS(t, tab, `document.querySelector("#session-list .session .open")`)
	for i := 0; i < 20 && !JS[bool](t, tab, `document.activeElement.classList.contains("open") && document.activeElement.textContent.startsWith("first question")`); i++ {
		Do(t, tab, chromedp.KeyEvent(kb.Tab))
	}
	Do(t, tab, chromedp.KeyEvent(kb.Enter))
	WaitJS(t, tab, `document.body.dataset.view === "chat" && document.querySelectorAll("#messages .msg").length === 2`)

	// Every control in every view has a name a screen reader can read.
	for _, view := range []string{"chat", "history", "memories", "settings"} {
		if view != "chat" {
			Do(t, tab, chromedp.Click("#"+view+"-toggle"))
			WaitJS(t, tab, `document.body.dataset.view === `+jsString(view))
		}
		if bad := unnamed(t, tab); len(bad) > 0 {
			t.Errorf("%s view: controls without a name: %v", view, bad)
		}
		if view != "chat" {
			Do(t, tab, chromedp.KeyEvent(kb.Escape))
			WaitJS(t, tab, `document.body.dataset.view === "chat"`)
		}
	}

	// Light and dark follow the system setting.
	for scheme, bg := range map[string]string{"light": "rgb(255, 255, 255)", "dark": "rgb(17, 17, 20)"} {
		if _, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
			t.Fatal(err)
		}
		if got := JS[string](t, tab, `getComputedStyle(document.body).backgroundColor`); got != bg {
			t.Errorf("%s: background %s, want %s", scheme, got, bg)
		}
	}
}

// The panel reads as it was drawn, at the side panel's narrowest: its text at the size set for
// it (Chrome gives an extension's pages a body at 75 %), a button's label never broken inside
// a word (a cut reply's six actions, in French), and the message box the panel's width with
// its buttons under it.
func TestThePanelReadsAtItsOwnSizeWhenNarrow(t *testing.T) {
	tab := browser.FreshPanel(t)
	viewport(t, tab, 320, 700)
	cut := testkit.Cut(t, "anthropic/text.sse", 6, true)
	Configure(t, tab, "anthropic", cut.URL, "sk-cut", "claude-sonnet-4-5")
	setLanguage(t, tab, "fr")
	defer setLanguage(t, tab, "en")
	SendMessage(t, tab, "raconte une histoire")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "error" && !!`+lastAssistant+`.querySelector(".m-actions .regenerate")`)

	if got := JS[string](t, tab, `[getComputedStyle(document.documentElement).fontSize, getComputedStyle(`+lastAssistant+`.querySelector(".content p")).fontSize].join(" ")`); got != "14px 14px" {
		t.Errorf("the page's and a reply's text size: %s, want 14px for both", got)
	}
	// A label on one line is one box of text: Range.getClientRects gives a box per line.
	broken := JS[[]string](t, tab, `[...`+lastAssistant+`.querySelectorAll(".m-actions button")].filter((b) => {
		const r = document.createRange(); r.selectNodeContents(b);
		return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
	}).map((b) => b.textContent)`)
	if n := JS[int](t, tab, lastAssistant+`.querySelectorAll(".m-actions button").length`); n < 5 || len(broken) > 0 {
		t.Errorf("%d actions; labels broken over lines: %q", n, broken)
	}
	if got := JS[string](t, tab, `(() => {
		const box = document.getElementById("input").getBoundingClientRect(), form = document.getElementById("composer").getBoundingClientRect();
		const send = document.getElementById("send").getBoundingClientRect();
		return [box.width >= form.width - 20, send.top >= box.bottom].join(" ");
	})()`); got != "true true" {
		t.Errorf("the message box does not take the panel's width with its buttons under it (width, under: %s)", got)
	}
}

// spilling is what the panel draws past its right edge, or past the edge of a view that then
// scrolls sideways (a control or words the user cannot see without scrolling them in), and a
// text field squeezed too narrow to type in. Code blocks, tables and text fields may scroll
// their own lines.
func spilling(t *testing.T, tab context.Context) []string {
	t.Helper()
	return JS[[]string](t, tab, `(() => {
		const w = document.documentElement.clientWidth, out = [];
		const own = "pre, table, textarea, input, select, code, .math-block";
		const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : e.className ? "." + String(e.className).split(" ")[0] : "");
		for (const e of document.body.querySelectorAll("*")) {
			const r = e.getBoundingClientRect();
			if (!r.width || !r.height || e.closest("[hidden]")) continue;
			if (e.matches("input:is([type=text], [type=search], [type=url], [type=password], :not([type])), textarea") && r.width < 80) { out.push(name(e) + " is a field " + Math.round(r.width) + " px wide"); continue; }
			if (e.closest(own)) continue;
			if (r.right > w + 1) { out.push(name(e) + " “" + e.textContent.trim().slice(0, 30) + "” to " + Math.round(r.right)); continue; }
			const o = getComputedStyle(e).overflowX;
			if ((o === "auto" || o === "scroll") && e.scrollWidth > e.clientWidth + 1) {
				const wide = [...e.querySelectorAll("*")].filter((c) => !c.closest(own) && c.getBoundingClientRect().right > r.right + 1).at(-1);
				out.push(name(e) + " scrolls sideways (" + e.scrollWidth + " > " + e.clientWidth + ")" + (wide ? ": " + name(wide) + " “" + wide.textContent.trim().slice(0, 30) + "”" : ""));
			}
		}
		return out;
	})()`)
}

// No view of the panel draws anything past its edge at the side panel's narrowest, with the
// long words real pages and workflows bring (an address, a name with no space).
func TestNoViewSpillsPastANarrowPanel(t *testing.T) {
	tab := browser.FreshPanel(t)
	viewport(t, tab, 320, 700)
	srv := testkit.OpenAIText(t, "See https://example.com/a/very/long/path/that/goes/on/and/on/without/any/space/at/all?query=1&and=2 for more.", 8, 0)
	Configure(t, tab, "openai", srv.URL, "sk-narrow", "gpt-test")
	SendMessage(t, tab, "Where_is_the_documentation_for_this_very_long_identifier_name_without_spaces?")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	check := func(view string) {
		t.Helper()
		if bad := spilling(t, tab); len(bad) > 0 {
			t.Errorf("%s: past the panel's edge, or too narrow to use: %q", view, bad)
		}
	}
	check("chat")
	// The chat's title is drawn wide enough to read, or not at all (not as "W…"), here and at
	// a side panel's usual width.
	for _, width := range []int64{320, 420} {
		viewport(t, tab, width, 700)
		if w := JS[float64](t, tab, `document.getElementById("title").getBoundingClientRect().width`); w > 1 && w < 48 {
			t.Errorf("at %d px, the chat's title is drawn %.0f px wide", width, w)
		}
	}
	viewport(t, tab, 320, 700)

	site := testkit.NewSite(t)
	withSecret, _ := reserveWorkflow(t, site)
	long := strings.ReplaceAll(withSecret, "/site/booking.html", "/site/booking.html?from=the-newsletter-of-the-week-with-a-very-long-campaign-name")
	JS[any](t, tab, `skiffTest.call("workflow.import", {data: `+jsString(long)+`})`)
	JS[any](t, tab, `skiffTest.call("permission.set", {tool: "*", origin: "https://a-very-long-subdomain-name.of-an-even-longer-domain-name.example.com", decision: "allow_always"})`)
	// In English, then in French, whose words are longer.
	for _, lang := range []string{"en", "fr"} {
		setLanguage(t, tab, lang)
		Do(t, tab, chromedp.Click("#workflows-toggle"))
		WaitJS(t, tab, `document.body.dataset.view === "workflows" && !!document.querySelector(".workflow .wf-edit")`)
		check(lang + ", workflows")
		Click(t, tab, `document.querySelector(".workflow .wf-schedule")`)
		Click(t, tab, `document.querySelector(".workflow .wf-edit")`)
		WaitJS(t, tab, `!!document.querySelector(".wf-edit-steps li")`)
		check(lang + ", a workflow's schedule and edit forms")
		for _, view := range []string{"history", "memories", "files", "permissions", "settings"} {
			Do(t, tab, chromedp.Click("#"+view+"-toggle"))
			WaitJS(t, tab, `document.body.dataset.view === `+jsString(view))
			check(lang + ", " + view)
		}
		Do(t, tab, chromedp.Click("#settings-toggle")) // back to the chat
		WaitJS(t, tab, `document.body.dataset.view === "chat"`)
		check(lang + ", chat")
	}
	setLanguage(t, tab, "en")
}

// A call that asks is shown whole, its answers in view, when the chat showed its end: the card
// opens with its arguments and the ask under it, taller than what "near the end" allows, and the
// chat follows it all the same (it stopped short, the answers below the fold).
func TestAnAskComesIntoView(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		calls(call("screenshot", nil)),
		clickOn(t, `button "Select"`),
	}}
	tab := agentPanel(t, "anthropic", testkit.NewModel(t, p.script))
	size(t, tab, "light")
	openTab(t, tab, site.Page("flights.html"))
	NewChat(t, tab)
	agentOn(t, tab)
	Do(t, tab, chromedp.SendKeys("#input", "Select a flight\r"))
	ask := `document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`
	WaitJS(t, tab, ask)
	// The chat follows what is drawn in the frame it is drawn: the answer's place is read after
	// the next frame.
	in := JS[bool](t, tab, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => {
		const b = `+ask+`.getBoundingClientRect(), c = document.getElementById("chat").getBoundingClientRect();
		r(b.top >= c.top && b.bottom <= c.bottom);
	})))`)
	if !in {
		t.Errorf("the ask's answers are out of view: button %s, chat %s", JS[string](t, tab, `JSON.stringify(`+ask+`.getBoundingClientRect())`), JS[string](t, tab, `JSON.stringify(document.getElementById("chat").getBoundingClientRect())`))
	}
	Click(t, tab, ask)
	WaitJS(t, tab, `document.getElementById("stop").hidden`)
}
