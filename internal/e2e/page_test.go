//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/skiff-ai/skiff/internal/testkit"

	"github.com/chromedp/chromedp"
)

func pages(t *testing.T) string { return testkit.Pages(t) }

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
	codeRE    = regexp.MustCompile("(?s)```.*?```|`[^`]*`")
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
	for _, want := range []string{"URL: " + base + "/v8-blog/", "Title: " + title, "not instructions", "<page-"} {
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
	if sys := system(srv.Posts(t)[1]); strings.Contains(sys, "<page-") {
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
	if s := chip(t, panel); s != "Skiff can't read this page (browser pages are off limits)." {
		t.Errorf("chip on chrome://version: %q", s)
	}
	Do(t, panel, chromedp.SendKeys("#input", "and this one?\r"))
	WaitJS(t, panel, `document.querySelectorAll('#messages .msg[data-role="assistant"]').length === 4 && `+lastAssistant+`.dataset.status === "done"`)
	if sys := system(srv.Posts(t)[3]); strings.Contains(sys, "<page-") {
		t.Errorf("a page was attached from chrome://version")
	}
}

// words is the set of words of at least three letters in a text, lowercased: what is compared
// between what Skiff reads of a page and what Readability's own suite says the article is.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 3 {
			out[w] = true
		}
	}
	return out
}

func overlap(a, b map[string]bool) float64 {
	if len(a) == 0 {
		return 1
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// read_text on every real page of testdata/pages, through the agent as a model uses it: the
// title is the one Readability's suite expects, the text holds the expected article (recall)
// and little else (precision), and no markup is left.
func TestReadablePageText(t *testing.T) {
	base := pages(t)
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if c.Steps() == 0 {
			return testkit.Turn{Calls: []testkit.Call{{Name: "read_text", Args: map[string]any{"maxChars": 200000}}}}
		}
		return testkit.Turn{Text: "Read."}
	})
	panel := agentPanel(t, "openai", m)
	for _, name := range testkit.PageNames(t) {
		t.Run(name, func(t *testing.T) {
			tab := openTab(t, panel, base+"/"+name+"/")
			_ = tab
			cards := runAgent(t, panel, "read the page")
			convs := m.Conversations()
			res := convs[len(convs)-1].Results()
			if len(res) != 1 || res[0].Error {
				t.Fatalf("read_text: %s", cardsString(cards))
			}
			got := res[0].Text
			if title := expectedTitle(t, name); !strings.Contains(got, "Title: "+strings.Join(strings.Fields(title), " ")+"\n") {
				t.Errorf("title: want %q in\n%.300s", title, got)
			}
			exp, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "pages", name, "expected.html"))
			if err != nil {
				t.Fatal(err)
			}
			want := words(html.UnescapeString(tagRE.ReplaceAllString(string(exp), " ")))
			body := got[strings.Index(got, "\n\n")+2:] // the header lines are not the article's words
			have := words(plain(body))
			if testing.Verbose() {
				var missing []string
				for w := range want {
					if !have[w] {
						missing = append(missing, w)
					}
				}
				if len(missing) > 0 {
					t.Logf("%s: missing %d words, e.g. %.300v", name, len(missing), missing)
				}
			}
			recall, precision := overlap(want, have), overlap(have, want)
			t.Logf("%s: recall %.2f precision %.2f (%d expected words, %d read)", name, recall, precision, len(want), len(have))
			if recall < minRecall || precision < minPrecision {
				t.Errorf("%s: the text read differs from the article: recall %.2f, precision %.2f\n%.1500s", name, recall, precision, got)
			}
			// Turndown keeps what it cannot convert as raw HTML blocks (tables without a header
			// row did, before the plainTables rule); a page may show "<script" as text, though.
			if prose := codeRE.ReplaceAllString(got, ""); strings.Contains(prose, "<div") || strings.Contains(prose, "<table") || strings.Contains(prose, "<tr") {
				t.Errorf("markup left in the text:\n%.600s", got)
			}
		})
	}
}

// What read_text must hold of Readability's expected article, and how much else it may hold
// (the header lines, alt texts and link targets are extra words that are not in expected.html).
const (
	minRecall    = 0.9
	minPrecision = 0.8
)
