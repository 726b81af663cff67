//go:build !js

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// Saved prompts as a user meets them: a "/" in the message box lists the panel's own (the user
// never saved any), Tab puts the chosen one's text in the box to edit, and it goes to the model
// as typed; in Settings the user adds one, deletes one and saves, and "/name" with Enter puts the
// new one's text in the box without sending it; a name of two words is refused under the list,
// and nothing is saved.
func TestSavedPromptsFillTheMessageBox(t *testing.T) {
	m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "Done."} })
	tab := browser.FreshPanel(t)
	Configure(t, tab, "openai", m.URL, "sk-test", "gpt-test")
	NewChat(t, tab)

	Do(t, tab, chromedp.SendKeys("#input", "/"))
	WaitJS(t, tab, `!document.getElementById("slash-list").hidden`)
	if got := JS[string](t, tab, `[...document.querySelectorAll('#slash-list [role="option"] .slash-name')].map(n => n.textContent).join(" ")`); got != "/summarize /explain /translate" {
		t.Errorf("the prompts offered: %q", got)
	}
	if got := JS[string](t, tab, `document.getElementById("slash-list").getAttribute("aria-label")`); got != "Saved prompts" {
		t.Errorf("the list is named %q", got)
	}
	// The focus leaving the box and coming back at once (a click elsewhere, then typing) keeps
	// the list: it closes only when the focus stays away.
	if !JS[bool](t, tab, `(() => { const i = document.getElementById("input"); i.blur(); i.focus(); return new Promise((r) => setTimeout(() => r(!document.getElementById("slash-list").hidden), 400)) })()`) {
		t.Error("the list closed though the focus came back to the message box")
	}
	Do(t, tab, chromedp.SendKeys("#input", "su"))
	Do(t, tab, chromedp.KeyEvent(kb.Tab))
	const summarize = "Summarize this page in five bullet points, the most important first."
	WaitJS(t, tab, `document.getElementById("input").value === `+jsString(summarize)+` && document.getElementById("slash-list").hidden`)
	Do(t, tab, chromedp.SendKeys("#input", " Keep it short."+kb.Enter))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	convs := m.Conversations()
	if got := convs[len(convs)-1].Last().Text; !strings.Contains(got, summarize+" Keep it short.") {
		t.Errorf("the model got %q", got)
	}

	// Settings: the panel's three, as rows; one added, one deleted, saved.
	Do(t, tab, chromedp.Click("#settings-toggle"))
	WaitJS(t, tab, `document.querySelectorAll("#prompt-list .prompt-row").length === 3`)
	Do(t, tab, chromedp.Click(`#prompt-list .prompt-row:nth-child(3) .prompt-delete`))
	Do(t, tab, chromedp.Click("#add-prompt"))
	WaitJS(t, tab, `document.activeElement.matches("#prompt-list .prompt-row:last-child .prompt-name")`)
	const bug = "Write a bug report for what I describe: steps, what I expected, what happened."
	Do(t, tab, chromedp.SendKeys("#prompt-list .prompt-row:last-child .prompt-name", "bug"))
	Do(t, tab, chromedp.SendKeys("#prompt-list .prompt-row:last-child .prompt-text", bug))
	// Another provider looked at before saving: the form is drawn again, the edits stay.
	Do(t, tab, chromedp.Click(`#provider-grid label:has(input[value="anthropic"])`))
	WaitJS(t, tab, `document.querySelector('#provider-grid input[value="anthropic"]').checked`)
	Do(t, tab, chromedp.Click(`#provider-grid label:has(input[value="openai"])`))
	WaitJS(t, tab, `document.querySelector('#provider-grid input[value="openai"]').checked`)
	if got := JS[string](t, tab, `[...document.querySelectorAll("#prompt-list .prompt-name")].map(n => n.value).join(" ")`); got != "summarize explain bug" {
		t.Errorf("the prompts being edited, after another provider was looked at: %q", got)
	}
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("settings-status").textContent === "Saved."`)
	if got := storedPrompts(t, tab); got != "summarize explain bug" {
		t.Errorf("stored prompts: %q", got)
	}

	// A name of two words: refused beside the list, and the stored ones stay.
	Do(t, tab, chromedp.Click("#add-prompt"))
	Do(t, tab, chromedp.SendKeys("#prompt-list .prompt-row:last-child .prompt-name", "two words"))
	Do(t, tab, chromedp.SendKeys("#prompt-list .prompt-row:last-child .prompt-text", "Anything."))
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("prompts-error").textContent.includes("“two words” is not")`)
	if got := JS[string](t, tab, `document.getElementById("settings-status").textContent`); got != "Not saved: see above." {
		t.Errorf("the status after a refused save: %q", got)
	}
	if got := storedPrompts(t, tab); got != "summarize explain bug" {
		t.Errorf("stored prompts after a refused save: %q", got)
	}
	Do(t, tab, chromedp.Click(`#prompt-list .prompt-row:last-child .prompt-delete`))
	Do(t, tab, chromedp.Click("#settings-toggle"))

	// The new prompt, typed in full, then Enter: its text is in the box, not sent.
	asked := len(m.Conversations())
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)
	Do(t, tab, chromedp.SendKeys("#input", "/bug"))
	WaitJS(t, tab, `!document.getElementById("slash-list").hidden`)
	Do(t, tab, chromedp.KeyEvent(kb.Enter))
	// (chromedp sends Enter's character as an event of its own, after the keydown the panel
	// took: a newline a real key, whose keydown was taken, does not type.)
	WaitJS(t, tab, `document.getElementById("input").value.trimEnd() === `+jsString(bug))
	if len(m.Conversations()) != asked || len(messages(t, tab)) != 2 {
		t.Error("Enter on a prompt's name sent it")
	}
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)
	Do(t, tab, chromedp.SendKeys("#input", "/"))
	WaitJS(t, tab, `!document.getElementById("slash-list").hidden`)
	if got := JS[string](t, tab, `[...document.querySelectorAll('#slash-list [role="option"] .slash-name')].map(n => n.textContent).join(" ")`); got != "/summarize /explain /bug" {
		t.Errorf("the prompts offered after the save: %q", got)
	}
}

// A saved prompt's placeholders as a user meets them: the ones the panel knows are filled in
// when the prompt is chosen (the date, the page in front's title and address), the others are
// left in the box with the first one selected; typing replaces it, Tab goes to the next one and
// Shift+Tab back, and once none is left Tab leaves the box as it always does.
func TestAPromptsPlaceholdersAreFilledOrLeftToType(t *testing.T) {
	site := testkit.NewSite(t)
	m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "Done."} })
	tab := browser.FreshPanel(t)
	Configure(t, tab, "openai", m.URL, "sk-test", "gpt-test")
	const text = "On {{date}}, about “{{ Title }}” ({{url}}): write to {{person}} that {{what to say}}."
	JS[bool](t, tab, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, prompts: [{name: "write", text: `+jsString(text)+`}]}, keys: {}})).then(() => true)`)
	Do(t, tab, chromedp.Reload())
	WaitJS(t, tab, `document.body.dataset.ready === "1"`)
	page := site.Page("form.html")
	openTab(t, tab, page)
	NewChat(t, tab)

	selected := `(() => { const n = document.getElementById("input"); return n.value.slice(n.selectionStart, n.selectionEnd) })()`
	Do(t, tab, chromedp.SendKeys("#input", "/wr"))
	WaitJS(t, tab, `!document.getElementById("slash-list").hidden`)
	Do(t, tab, chromedp.KeyEvent(kb.Tab))
	filled := fmt.Sprintf("On %s, about “Contact form” (%s): write to {{person}} that {{what to say}}.", time.Now().Format("January 2, 2006"), page)
	WaitJS(t, tab, `document.getElementById("input").value === `+jsString(filled))
	if got := JS[string](t, tab, selected); got != "{{person}}" {
		t.Fatalf("selected after the prompt was chosen: %q", got)
	}
	Do(t, tab, chromedp.KeyEvent(kb.Tab))
	WaitJS(t, tab, selected+` === "{{what to say}}"`)
	Do(t, tab, chromedp.KeyEvent(kb.Shift+kb.Tab))
	WaitJS(t, tab, selected+` === "{{person}}"`)
	Do(t, tab, chromedp.SendKeys("#input", "Ada"))
	Do(t, tab, chromedp.KeyEvent(kb.Tab))
	WaitJS(t, tab, selected+` === "{{what to say}}"`)
	Do(t, tab, chromedp.SendKeys("#input", "the form works"))
	// None left: Tab leaves the message box.
	Do(t, tab, chromedp.KeyEvent(kb.Tab))
	WaitJS(t, tab, `document.activeElement !== document.getElementById("input")`)
	want := strings.NewReplacer("{{person}}", "Ada", "{{what to say}}", "the form works").Replace(filled)
	if got := JS[string](t, tab, `document.getElementById("input").value`); got != want {
		t.Fatalf("the box holds %q, want %q", got, want)
	}
	Do(t, tab, chromedp.SendKeys("#input", kb.Enter))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	convs := m.Conversations()
	if got := convs[len(convs)-1].Last().Text; !strings.Contains(got, want) {
		t.Errorf("the model got %q", got)
	}
}

// storedPrompts are the names of the prompts the core keeps, as it gives them to the panel.
func storedPrompts(t *testing.T, tab context.Context) string {
	t.Helper()
	return JS[string](t, tab, `skiffTest.call("core.hello").then(st => (st.settings.prompts || []).map(p => p.name).join(" "))`)
}

// A user who never saved prompts gets the panel's own in their language: in French, their
// names are French words, and so are their texts.
func TestThePanelsOwnPromptsSpeakTheUsersLanguage(t *testing.T) {
	tab := browser.FreshPanel(t)
	setLanguage(t, tab, "fr")
	defer setLanguage(t, tab, "en") // the tests after this one read English
	NewChat(t, tab)
	Do(t, tab, chromedp.SendKeys("#input", "/"))
	WaitJS(t, tab, `!document.getElementById("slash-list").hidden`)
	if got := JS[string](t, tab, `[...document.querySelectorAll('#slash-list [role="option"] .slash-name')].map(n => n.textContent).join(" ")`); got != "/résumer /expliquer /traduire" {
		t.Errorf("the prompts offered in French: %q", got)
	}
	Do(t, tab, chromedp.KeyEvent(kb.Tab))
	WaitJS(t, tab, `document.getElementById("input").value === "Résume cette page en cinq points, le plus important d’abord."`)
	// The language a text is translated into is the user's ({{language}}).
	JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)
	Do(t, tab, chromedp.SendKeys("#input", "/trad"))
	WaitJS(t, tab, `!document.getElementById("slash-list").hidden`)
	Do(t, tab, chromedp.KeyEvent(kb.Tab))
	WaitJS(t, tab, `document.getElementById("input").value === "Traduis le texte sélectionné en français, en gardant son sens et son ton."`)
	if got := storedPrompts(t, tab); got != "" {
		t.Errorf("the panel's own prompts were stored: %q", got)
	}
}
