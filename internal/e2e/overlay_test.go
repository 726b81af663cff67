//go:build !js

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// openOverlay opens Skiff's chat on the page at pageURL, in a tab opened with Browser.Tab
// (DevTools lists the frames of the tabs it opened): see Browser.Overlay.
func openOverlay(t *testing.T, tab context.Context, pageURL string) context.Context {
	t.Helper()
	return browser.Overlay(t, tab, `chrome.tabs.query({url: `+jsString(pageURL)+`}).then(([tab]) => tab)`)
}

// atOverlay is where, in the page's viewport, the element sel of the overlay's frame is: the
// page knows where its <skiff-overlay> is, the frame where its element is inside it.
func atOverlay(t *testing.T, tab, ov context.Context, sel string) (x, y float64) {
	t.Helper()
	host := JS[[]float64](t, tab, `(r => [r.left, r.bottom])(document.querySelector("skiff-overlay").getBoundingClientRect())`)
	in := JS[[]float64](t, ov, `(r => [r.left + r.width / 2, r.top + r.height / 2, innerHeight])(document.querySelector(`+jsString(sel)+`).getBoundingClientRect())`)
	return host[0] + 1 + in[0], host[1] - 1 - in[2] + in[1]
}

const overlayReply = `[...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1)`

// The chat on a page that fights it: a strict CSP that allows no frames, Trusted Types
// required, a modal dialog open, a cover re-appended with the top z-index, rules hiding every
// iframe, hotkeys, a script reading all it can. The overlay shows on top all the same; the
// user clicks into it and types as on any page (the page's hotkeys do not fire), gets the
// streamed reply about this page (not the tab in front), and the page reads nothing of it.
// Escape closes it; opened again it shows the same chat in the same place.
func TestOverlayOnAHostilePage(t *testing.T) {
	site := testkit.NewSite(t)
	srv := testkit.Replay(t, "anthropic/text.sse", 5*time.Millisecond)
	panel := browser.FreshPanel(t)
	Configure(t, panel, "anthropic", srv.URL, "sk-ant", "claude-sonnet-4-5")
	url := site.Page("hostile.html")
	tab := browser.Tab(t, url)
	WaitJS(t, tab, `document.readyState === "complete" && document.getElementById("newsletter").open`)
	ov := openOverlay(t, tab, url)
	// Another tab comes to the front of the overlay's window: the overlay's chat is still
	// about its own page.
	other := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(url)+`}).then(([t]) => chrome.tabs.create({windowId: t.windowId, url: `+jsString(site.Page("long.html"))+`, active: true})).then(t => t.id)`)
	t.Cleanup(func() { JS[any](t, panel, fmt.Sprintf(`chrome.tabs.remove(%d).catch(() => 0)`, other)) })
	waitLoaded(t, panel, other)
	if !JS[bool](t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.active)`, other)) {
		t.Fatal("the other tab is not in front")
	}

	// On top of everything: the topmost element at the overlay's message box is the overlay.
	x, y := atOverlay(t, tab, ov, "#input")
	if got := JS[string](t, tab, fmt.Sprintf(`document.elementFromPoint(%f, %f)?.localName`, x, y)); got != "skiff-overlay" {
		t.Fatalf("the element on top at the overlay's message box is %q", got)
	}
	// A click where the box is takes the focus there. The box is aimed at again before each
	// try: the debugger's bar that an earlier test's tab leaves (or takes away) moves the page.
	// Its window is brought to the front first, as the user's is: a window an earlier test
	// left open may hold the focus.
	JS[any](t, panel, `chrome.tabs.query({url: `+jsString(url)+`}).then(([t]) => chrome.windows.update(t.windowId, {focused: true}))`)
	Eventually(t, 30*time.Second, func() bool {
		x, y := atOverlay(t, tab, ov, "#input")
		Do(t, tab, chromedp.MouseClickXY(x, y))
		return JS[bool](t, ov, `new Promise((r) => setTimeout(() => r(document.hasFocus() && document.activeElement.id === "input"), 100))`)
	}, "a click on the overlay's message box did not give it the focus")
	Do(t, tab, chromedp.KeyEvent("Say hi in Portuguese"))
	if got := JS[string](t, ov, `document.getElementById("input").value`); got != "Say hi in Portuguese" {
		t.Fatalf("typed into the overlay: %q", got)
	}
	Do(t, tab, chromedp.KeyEvent(kb.Enter))
	WaitJS(t, ov, overlayReply+`?.dataset.status === "done"`)
	reply := JS[string](t, ov, overlayReply+`.textContent`)
	if !strings.Contains(reply, "Olá") {
		t.Fatalf("the overlay's reply: %q", reply)
	}
	if got := JS[string](t, ov, `skiffTest.state.active.messages[0].page?.url || ""`); got != url {
		t.Errorf("the page sent with the overlay's message: %q", got)
	}
	if n := JS[int](t, tab, `window.keys`); n != 0 {
		t.Errorf("the page's hotkeys saw %d key events typed into the overlay", n)
	}
	JS[bool](t, tab, `(steal(), true)`)
	if got := JS[string](t, tab, `JSON.stringify([window.seen, window.msgs])`); strings.Contains(got, "Olá") || strings.Contains(got, "Portuguese") {
		t.Errorf("the page read the chat: %.400s", got)
	}

	// Escape closes it; the page is back under the pointer.
	Do(t, ov, chromedp.KeyEvent(kb.Escape))
	WaitJS(t, tab, fmt.Sprintf(`document.elementFromPoint(%f, %f)?.localName !== "skiff-overlay"`, x, y))
	ov = openOverlay(t, tab, url)
	WaitJS(t, ov, overlayReply+`?.dataset.status === "done"`)
	if x2, y2 := atOverlay(t, tab, ov, "#input"); x2 != x || y2 != y {
		t.Errorf("opened again at (%v, %v), was at (%v, %v)", x2, y2, x, y)
	}
}

// An agent run from the chat on a page: its snapshot does not contain the overlay; the call
// that asks is answered in the side panel (the overlay has no answer to click, and says where
// to answer); then "Open in the side panel" moves the chat there with the draft.
func TestOverlayAgentAsksInThePanel(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Like"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	url := site.Page("counter.html")
	page := browser.Tab(t, url)
	WaitJS(t, page, `document.readyState === "complete"`) // DevTools sees frames only in tabs it opened
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(url)+`}).then(([t]) => t.id)`)
	ov := openOverlay(t, page, url)
	agentOn(t, ov)
	onNode(t, ov, "type: ", chromedp.SendKeys("#input", "press Like"+kb.Enter))

	WaitJS(t, ov, `!!document.querySelector(".msg.tool .ask-elsewhere")`)
	if JS[bool](t, ov, `!!document.querySelector("button[data-decision]")`) {
		t.Error("the overlay offers an answer to the ask")
	}
	allow := `document.querySelector('#chat-asks .chat-ask[data-tool="click"] button[data-decision="allow_once"]')`
	WaitJS(t, panel, allow)
	Click(t, panel, allow)
	waitTab(t, panel, tab, `document.getElementById("count-like").textContent === "1"`)
	WaitJS(t, ov, `document.getElementById("stop").hidden && `+overlayReply+`?.dataset.status === "done"`)
	WaitJS(t, panel, `document.getElementById("chat-asks").hidden`)
	snaps := p.results("snapshot")
	if len(snaps) != 1 || !strings.Contains(snaps[0].Text, `button "Like"`) {
		t.Fatalf("the snapshot: %s", p.all())
	}
	for _, s := range []string{"Skiff", "skiff", "overlay", "chrome-extension"} {
		if strings.Contains(snaps[0].Text, s) {
			t.Errorf("the snapshot shows the overlay (%q):\n%s", s, snaps[0].Text)
		}
	}

	// The hand-off: the side panel shows this chat, with what was being typed.
	sid := JS[string](t, ov, `skiffTest.state.active.id`)
	JS[bool](t, ov, `(document.getElementById("input").value = "", true)`) // chromedp's Enter left a newline
	onNode(t, ov, "type: ", chromedp.SendKeys("#input", "and now the Star"))
	Click(t, ov, `document.getElementById("to-panel")`)
	WaitJS(t, panel, `skiffTest.state.active && skiffTest.state.active.id === `+jsString(sid)+` && document.getElementById("input").value === "and now the Star"`)
	if got := len(messages(t, panel)); got < 3 {
		t.Errorf("the side panel shows %d messages of the overlay's chat", got)
	}
	waitTab(t, panel, tab, `getComputedStyle(document.querySelector("skiff-overlay")).display === "none"`)
	if b := JS[string](t, ov, `document.getElementById("banner").textContent`); b != "" {
		t.Errorf("the overlay says: %s", b)
	}
}

// The shortcut on a page no extension may script (the Web Store, Chrome's own pages, a file
// Skiff was not allowed to read) opens the side panel at once, while the key press still counts
// as the user's gesture: sidePanel.open is called before anything is awaited, and no script is
// tried. A look-alike host is a web page like any other.
func TestShortcutOnAPageSkiffCannotScriptOpensThePanel(t *testing.T) {
	browser.Panel(t) // a worker to ask
	files := WorkerValue[bool](t, browser, `chrome.extension.isAllowedFileSchemeAccess()`)
	got := WorkerValue[string](t, browser, `(() => {
		const open = chrome.sidePanel.open, exec = chrome.scripting.executeScript;
		const seen = [];
		chrome.sidePanel.open = (o) => (seen.push("panel:" + o.tabId), Promise.resolve());
		chrome.scripting.executeScript = () => (seen.push("script"), new Promise(() => {}));
		try {
			for (const url of ["https://chromewebstore.google.com/detail/abc", "https://chrome.google.com/webstore/category/extensions", "chrome://settings/", "file:///tmp/x.html", "https://chromewebstore.google.com.example/"]) {
				seen.push(url);
				skiffToggleOverlay({ id: 7, url });
			}
		} finally {
			chrome.sidePanel.open = open;
			chrome.scripting.executeScript = exec;
		}
		return seen.join(" ");
	})()`)
	file := "panel:7" // without file access; Chromium grants it to one loaded from the command line
	if files {
		file = "script"
	}
	want := "https://chromewebstore.google.com/detail/abc panel:7 https://chrome.google.com/webstore/category/extensions panel:7 chrome://settings/ panel:7 file:///tmp/x.html " + file + " https://chromewebstore.google.com.example/ script"
	if got != want {
		t.Errorf("the shortcut did:\n%s\nwant:\n%s", got, want)
	}
}

// A page Chrome turns out not to let Skiff into (here a real error page: the address does not
// answer) fails the overlay's injection after the shortcut's gesture is gone, so the side panel
// cannot open in its place either: a notification says so, and clicking it opens the panel.
func TestShortcutOnAnErrorPageSaysWhy(t *testing.T) {
	panel := browser.Panel(t)
	dead := "http://127.0.0.1:9/skiff-dead"
	openTabNoWait(t, panel, dead)
	WaitJS(t, panel, `chrome.tabs.query({url: `+jsString(dead)+`}).then(([t]) => !!t && t.status === "complete")`)
	id := WorkerValue[string](t, browser, `chrome.tabs.query({url: `+jsString(dead)+`}).then(([tab]) => (skiffToggleOverlay(tab), "skiff-noverlay:" + tab.windowId))`)
	WaitJS(t, panel, `chrome.notifications.getAll().then(n => `+jsString(id)+` in n)`)
	JS[bool](t, panel, `chrome.notifications.clear(`+jsString(id)+`).then(() => true)`)
}

// The chat on a page queues what is sent while it replies, as the side panel does: the message
// waits above the overlay's box, and goes out by itself when the reply ends.
func TestOverlayQueuesWhileItReplies(t *testing.T) {
	site := testkit.NewSite(t)
	srv, release := testkit.Held(t, "openai/text_usage.sse")
	panel := browser.FreshPanel(t)
	Configure(t, panel, "openai", srv.URL, "sk-q", "gpt-4o-mini")
	url := site.Page("counter.html")
	page := browser.Tab(t, url)
	WaitJS(t, page, `document.readyState === "complete"`)
	ov := openOverlay(t, page, url)
	onNode(t, ov, "type: ", chromedp.SendKeys("#input", "one"+kb.Enter))
	WaitJS(t, ov, `!document.getElementById("stop").hidden`)
	JS[bool](t, ov, `(document.getElementById("input").value = "", true)`) // chromedp's Enter left a newline
	onNode(t, ov, "type: ", chromedp.SendKeys("#input", "two"+kb.Enter))
	WaitJS(t, ov, `document.querySelectorAll("#queue-list .queued").length === 1 && !document.getElementById("queue").hidden`)
	if got := JS[[]string](t, ov, queued); !slices.Equal(got, []string{"two"}) {
		t.Fatalf("the overlay's queue: %v", got)
	}
	close(release)
	WaitJS(t, ov, `document.getElementById("queue").hidden && document.querySelectorAll('#messages .msg[data-role="user"]').length === 2 && `+overlayReply+`?.dataset.status === "done" && document.querySelectorAll('#messages .msg[data-role="assistant"]').length === 2`)
	if got := srv.UserTexts(t); !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("the model got: %v", got)
	}
}

// The chat on a page asks; a side panel opened afterwards (as the notification opens one)
// lists the call with its chat's name whichever chat it shows, and answering it there runs it.
func TestAPanelOpenedLaterListsTheChatAsk(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Star"`),
	}}
	m := testkit.NewModel(t, p.script)
	agentPanel(t, "openai", m)
	url := site.Page("counter.html")
	page := browser.Tab(t, url)
	WaitJS(t, page, `document.readyState === "complete"`)
	ov := openOverlay(t, page, url)
	agentOn(t, ov)
	onNode(t, ov, "type: ", chromedp.SendKeys("#input", "star this page"+kb.Enter))
	WaitJS(t, ov, `!!document.querySelector(".msg.tool .ask-elsewhere")`)

	// The panel opens on the newest chat, the one asking, which shows its ask in place; the
	// user starts another chat, and the ask stays within reach above the message box.
	later := browser.Panel(t)
	sid := JS[string](t, ov, `skiffTest.state.active.id`)
	WaitJS(t, later, `skiffTest.state.active?.id === `+jsString(sid))
	Click(t, later, `document.getElementById("new")`)
	WaitJS(t, later, `skiffTest.state.active?.id !== `+jsString(sid))
	ask := `document.querySelector('#chat-asks .chat-ask[data-tool="click"]')`
	WaitJS(t, later, ask)
	if got := JS[string](t, later, ask+`.textContent`); !strings.Contains(got, "star this page") {
		t.Errorf("the ask does not name its chat: %q", got)
	}
	Click(t, later, ask+`.querySelector('button[data-decision="allow_once"]')`)
	WaitJS(t, page, `document.getElementById("count-star").textContent === "1"`)
	WaitJS(t, later, `document.getElementById("chat-asks").hidden`)
}

// A screenshot the agent takes with the chat open on the page shows the page, not Skiff: the
// pixels where the overlay sits are the page's own (as captured before it opened), and the
// overlay is back, in its place, once the screenshot is taken.
func TestScreenshotLeavesTheOverlayOut(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{calls(call("screenshot", obj{"format": "png"}))}}
	m := testkit.NewModel(t, p.script)
	agentPanel(t, "openai", m)
	url := site.Page("counter.html")
	page := browser.Tab(t, url)
	WaitJS(t, page, `document.readyState === "complete"`)
	before := capture(t, page)
	ov := openOverlay(t, page, url)
	rect := JS[[]float64](t, page, `(r => [r.left, r.top, r.right, r.bottom].map(v => v * devicePixelRatio))(document.querySelector("skiff-overlay").getBoundingClientRect())`)
	agentOn(t, ov)
	onNode(t, ov, "type: ", chromedp.SendKeys("#input", "what does the page look like?"+kb.Enter))
	WaitJS(t, ov, `document.getElementById("stop").hidden && `+overlayReply+`?.dataset.status === "done"`)
	shots := p.results("screenshot")
	if len(shots) != 1 || len(shots[0].Pictures) != 1 {
		t.Fatalf("screenshots: %s", p.all())
	}
	shot, err := png.Decode(bytes.NewReader(shots[0].Pictures[0]))
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	if shot.Bounds() != before.Bounds() {
		t.Fatalf("the screenshot is %v, the tab %v", shot.Bounds(), before.Bounds())
	}
	area := image.Rect(int(rect[0]), int(rect[1]), int(rect[2]), int(rect[3])).Intersect(shot.Bounds())
	if area.Dx() < 100 || area.Dy() < 100 {
		t.Fatalf("the overlay is at %v", area)
	}
	if d := differing(before, shot, area); d > area.Dx()*area.Dy()/200 {
		t.Errorf("%d of %d pixels where the overlay is differ from the page's: the screenshot shows the overlay", d, area.Dx()*area.Dy())
	}
	if got := JS[string](t, page, `getComputedStyle(document.querySelector("skiff-overlay")).visibility`); got != "visible" {
		t.Errorf("after the screenshot the overlay is %q", got)
	}
}

// capture is what the tab shows now, as a PNG from DevTools.
func capture(t *testing.T, tab context.Context) image.Image {
	t.Helper()
	b, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	return img
}

// differing counts the pixels of area that differ between a and b (beyond a small tolerance).
func differing(a, b image.Image, area image.Rectangle) int {
	n := 0
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) {
				n++
			}
		}
	}
	return n
}

func far(a, b uint32) bool { return max(a, b)-min(a, b) > 8<<8 }

// French, chosen in Settings, applies at once to the open panel (no reload: a marker set in
// the page survives) and to the chat on a page; the queue's plural follows it; "Automatic"
// goes back to the browser's English.
func TestLanguageSwitchesAtOnce(t *testing.T) {
	site := testkit.NewSite(t)
	srv := testkit.Replay(t, "anthropic/text.sse", 0)
	panel := browser.FreshPanel(t)
	Configure(t, panel, "anthropic", srv.URL, "sk-ant", "claude-sonnet-4-5")
	language := func(l string) {
		if JS[bool](t, panel, `document.getElementById("settings").hidden`) {
			Do(t, panel, chromedp.Click("#settings-toggle"))
		}
		JS[bool](t, panel, `(s => (s.value = `+jsString(l)+`, s.dispatchEvent(new Event("change")), true))(document.getElementById("language"))`)
		Do(t, panel, chromedp.Click("#save"))
	}
	JS[bool](t, panel, `(window.__sameDocument = true)`)
	language("fr")
	WaitJS(t, panel, `document.documentElement.lang === "fr" && document.getElementById("send").textContent === "Envoyer"`)
	if !JS[bool](t, panel, `window.__sameDocument === true`) {
		t.Fatal("the panel reloaded")
	}
	for expr, want := range map[string]string{
		`document.getElementById("new").title`:                               "Nouvelle discussion (Alt+N)",
		`document.getElementById("input").placeholder`:                       "Posez votre question (Entrée pour envoyer, Maj+Entrée pour aller à la ligne)",
		`document.querySelector("#settings-h").textContent`:                  "Réglages",
		`document.querySelector('label[for="model"]').textContent`:           "Modèle",
		`document.getElementById("settings-status").textContent`:             "Enregistré.",
		`document.querySelector('span[data-i18n="sStreaming"]').textContent`: "Afficher les réponses au fil de l’écriture",
	} {
		if got := JS[string](t, panel, expr); got != want {
			t.Errorf("%s: %q, want %q", expr, got, want)
		}
	}
	if got := JS[string](t, panel, `import("./i18n.js").then(m => [m.t("queueWaiting", 1), m.t("queueWaiting", 2), m.t("otherChatAsks", "Météo")].join(" | "))`); got != "1 message sera envoyé à la fin de la réponse | 2 messages seront envoyés à la fin de la réponse | Dans la discussion « Météo » :" {
		t.Errorf("plurals and placeholders: %q", got)
	}

	ask := JS[string](t, panel, `import("./tools.js").then(m => m.askBox({id: "x", tool: {name: "click", what: "click “Like”", risk: "act", origin: "https://a.test"}}, "").textContent)`)
	for _, want := range []string{"Autoriser le modèle de cette discussion à click “Like” ?", "Risqueagit sur la page", "Autoriser une fois", "Toujours sur ce site", "Refuser", "Jamais"} {
		if !strings.Contains(ask, want) {
			t.Errorf("the ask card in French: %q lacks %q", ask, want)
		}
	}

	url := site.Page("counter.html") + "?fr"
	tab := browser.Tab(t, url)
	WaitJS(t, tab, `document.readyState === "complete"`)
	ov := openOverlay(t, tab, url)
	WaitJS(t, ov, `document.documentElement.lang === "fr" && document.getElementById("send").textContent === "Envoyer"`)
	if got := JS[string](t, ov, `document.querySelector("#messages .empty").textContent`); got != "Posez une question sur cette page. La page ne peut pas voir cette discussion." {
		t.Errorf("the overlay's empty chat: %q", got)
	}
	if left := englishShown(t, ov); len(left) > 0 {
		t.Errorf("the chat on the page shows English to a French user: %q", left)
	}

	language("auto")
	WaitJS(t, panel, `document.documentElement.lang === "en" && document.getElementById("send").textContent === "Send"`)
}
