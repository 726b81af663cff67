//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"

	"github.com/chromedp/chromedp"
)

// pages serves testdata/pages: /<name>/ is that page's source.html.
func pages(t *testing.T) string {
	dir := filepath.Join(RepoRoot(), "testdata", "pages")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Trim(r.URL.Path, "/")
		b, err := os.ReadFile(filepath.Join(dir, filepath.Base(name), "source.html"))
		if err != nil || strings.Contains(name, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// No network here: refuse the page's images, fonts and scripts from the web at once
		// rather than wait for each to fail.
		w.Header().Set("Content-Security-Policy", "default-src 'self' 'unsafe-inline'")
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

type pageMeta struct {
	Title string `json:"title"`
}

func expectedTitle(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "pages", name, "expected-metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m pageMeta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m.Title
}

var (
	tagRE     = regexp.MustCompile(`(?s)<[^>]*>`)
	paraRE    = regexp.MustCompile(`(?s)<(p|pre)[ >].*?</(p|pre)>`)
	mdLinkRE  = regexp.MustCompile(`\]\([^)]*\)`)
	mdPunctRE = regexp.MustCompile("[*_\\[\\]#>`|\\\\]")
)

// expectedPhrase is the first ten words of the first paragraph of at least twelve words in
// what Readability's own test suite says the article is.
func expectedPhrase(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "pages", name, "expected.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paraRE.FindAllString(string(b), -1) {
		words := strings.Fields(html.UnescapeString(tagRE.ReplaceAllString(p, " ")))
		if len(words) >= 12 {
			return strings.Join(words[:10], " ")
		}
	}
	t.Fatalf("%s: no paragraph in expected.html", name)
	return ""
}

// plain turns extracted markdown into words as they read: link targets and markup dropped.
func plain(md string) string {
	return strings.Join(strings.Fields(mdPunctRE.ReplaceAllString(mdLinkRE.ReplaceAllString(md, " "), " ")), " ")
}

func flatPunct(s string) string {
	return strings.Join(strings.Fields(mdPunctRE.ReplaceAllString(s, " ")), " ")
}

func chip(t *testing.T, tab context.Context) string {
	return JS[string](t, tab, `document.getElementById("page-chip").hidden ? "(hidden)" : document.getElementById("page-chip-text").textContent`)
}

func TestPageContextFollowsTheTabAndReachesTheModel(t *testing.T) {
	base := pages(t)
	srv := testkit.OpenAIText(t, "It is about WebAssembly.", 8, 0)
	panel := browser.FreshPanel(t)
	Configure(t, panel, "openai", srv.URL, "sk-page", "gpt-test")

	page := browser.Tab(t, base+"/v8-blog/")
	title := expectedTitle(t, "v8-blog")
	WaitJS(t, panel, `document.getElementById("page-chip-text").textContent.startsWith(`+jsString(title+" · ")+`)`)
	if s := chip(t, panel); !strings.HasSuffix(s, " words") {
		t.Fatalf("chip %q", s)
	}

	SendMessage(t, panel, "What is this page about?")
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "done"`)
	sys := system(srv.Posts(t)[0])
	for _, want := range []string{"URL: " + base + "/v8-blog/", "Title: " + title, "not instructions", "<page>"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system content lacks %q", want)
		}
	}
	if phrase := expectedPhrase(t, "v8-blog"); !strings.Contains(plain(sys), flatPunct(phrase)) {
		t.Errorf("system content lacks the article (%q)", phrase)
	}
	if a := JS[string](t, panel, `document.querySelector('.msg[data-role="user"] .attached').textContent`); a != "Attached page: "+title {
		t.Errorf("attachment line %q", a)
	}

	// Removed from the next message only.
	Do(t, panel, chromedp.Click("#page-chip-remove"))
	WaitJS(t, panel, `document.getElementById("page-chip").dataset.state === "removed"`)
	Do(t, panel, chromedp.SendKeys("#input", "And in general?\r"))
	WaitJS(t, panel, `document.querySelectorAll('#messages .msg[data-role="assistant"]').length === 2 && `+lastAssistant+`.dataset.status === "done"`)
	if sys := system(srv.Posts(t)[1]); strings.Contains(sys, "<page>") {
		t.Errorf("page sent after it was removed:\n%s", sys)
	}
	WaitJS(t, panel, `document.getElementById("page-chip").dataset.state === "attached"`)

	// The selection goes along, read when the message is sent.
	sel := JS[string](t, page, `(() => { const p = [...document.querySelectorAll("article p, p")].find(p => p.textContent.trim().split(/\s+/).length > 12); getSelection().selectAllChildren(p); return String(getSelection()).trim() })()`)
	Do(t, panel, chromedp.SendKeys("#input", "Explain the selection\r"))
	WaitJS(t, panel, `document.querySelectorAll('#messages .msg[data-role="assistant"]').length === 3 && `+lastAssistant+`.dataset.status === "done"`)
	if sys := system(srv.Posts(t)[2]); !strings.Contains(sys, "<selection>\n"+sel+"\n</selection>") {
		t.Errorf("selection %q not in:\n%s", sel, sys[:min(len(sys), 600)])
	}

	// Another tab: the chip follows it.
	other := browser.Tab(t, base+"/mozilla-2/")
	WaitJS(t, panel, `document.getElementById("page-chip-text").textContent.startsWith(`+jsString(expectedTitle(t, "mozilla-2")+" · ")+`)`)

	// A browser page cannot be read: the chip says so and nothing is attached.
	Do(t, other, chromedp.Navigate("chrome://version"))
	WaitJS(t, panel, `document.getElementById("page-chip").dataset.state === "unavailable"`)
	if s := chip(t, panel); s != "Skiff can't read this page (browser pages are off limits)" {
		t.Errorf("chip on chrome://version: %q", s)
	}
	Do(t, panel, chromedp.SendKeys("#input", "and this one?\r"))
	WaitJS(t, panel, `document.querySelectorAll('#messages .msg[data-role="assistant"]').length === 4 && `+lastAssistant+`.dataset.status === "done"`)
	if sys := system(srv.Posts(t)[3]); strings.Contains(sys, "<page>") {
		t.Errorf("a page was attached from chrome://version")
	}
}

// Readability in the page, then markdown, on real pages: the article's title and its first
// paragraph come through.
func TestReadablePageText(t *testing.T) {
	base := pages(t)
	panel := browser.FreshPanel(t)
	names := []string{"mozilla-2", "medium-2", "v8-blog", "ietf-1", "wikipedia", "nytimes-1", "lemonde-1", "rtl-1", "hidden-nodes", "table-style-attributes", "gitlab-blog"}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			url := base + "/" + name + "/"
			browser.Tab(t, url)
			raw := JS[string](t, panel, fmt.Sprintf(`chrome.tabs.query({url: %s}).then(ts => skiffTest.extract(ts[0].id)).then(JSON.stringify)`, jsString(url)))
			var got struct {
				URL, Title, Text string
				Readable         bool
			}
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatal(err)
			}
			if got.Title != expectedTitle(t, name) || !got.Readable {
				t.Errorf("title %q (readable %v), want %q", got.Title, got.Readable, expectedTitle(t, name))
			}
			if phrase := flatPunct(expectedPhrase(t, name)); !strings.Contains(plain(got.Text), phrase) {
				t.Errorf("text lacks %q:\n%.600s", phrase, got.Text)
			}
			if strings.Contains(got.Text, "<script") || strings.Contains(got.Text, "<div") {
				t.Errorf("markup left in the text:\n%.600s", got.Text)
			}
		})
	}
}
