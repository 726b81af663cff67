//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/testkit"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func TestTypingRegenerateAndEdit(t *testing.T) {
	reply := testkit.OpenAIText(t, "An answer.", 4, 10*time.Millisecond)
	// The provider thinks for a moment before its first token: the panel shows it is waiting.
	srv := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(600 * time.Millisecond)
		reply.Config.Handler.ServeHTTP(w, r)
	})
	tab := browser.FreshPanel(t)
	Configure(t, tab, "openai", srv.URL, "sk-act", "gpt-test")
	SendMessage(t, tab, "first try")
	WaitJS(t, tab, lastAssistant+`?.querySelector(".typing[aria-label='Skiff is typing']") && !document.getElementById("stop").hidden && document.getElementById("send").hidden`)
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	if JS[bool](t, tab, `!!document.querySelector("#messages .typing")`) {
		t.Fatal("typing indicator left after the reply")
	}

	// Regenerate: a new reply to the same message, still one exchange.
	Click(t, tab, lastAssistant+`.querySelector(".regenerate")`)
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "streaming"`)
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	if ms := messages(t, tab); len(ms) != 2 || ms[0].Content != "first try" || ms[1].Content != "An answer." {
		t.Fatalf("after regenerate %+v", ms)
	}
	posts := srv.Posts(t)
	if len(posts) != 2 {
		t.Fatalf("%d requests", len(posts))
	}

	// Edit the last message and resend: the old exchange is replaced.
	Click(t, tab, `document.querySelector('.msg[data-role="user"] .edit')`)
	WaitJS(t, tab, `document.activeElement.matches(".edit-box textarea")`)
	TypeInto(t, tab, ".edit-box textarea", "second try")
	Do(t, tab, chromedp.KeyEvent("\r"))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done" && document.querySelector('.msg[data-role="user"] .content')?.textContent === "second try"`)
	if ms := messages(t, tab); len(ms) != 2 || ms[1].Content != "An answer." {
		t.Fatalf("after edit %+v", ms)
	}
	last := srv.Posts(t)[2]["messages"].([]any)
	if got := last[len(last)-1].(map[string]any)["content"]; got != "second try" {
		t.Fatalf("edited request ends with %v", got)
	}
	if title := JS[string](t, tab, `document.getElementById("title").textContent`); title != "second try" {
		t.Errorf("title after editing the first message: %q", title)
	}
	// Escape cancels an edit and keeps the message.
	Click(t, tab, `document.querySelector('.msg[data-role="user"] .edit')`)
	WaitJS(t, tab, `document.activeElement.matches(".edit-box textarea")`)
	Do(t, tab, chromedp.KeyEvent("\x1b"))
	WaitJS(t, tab, `!document.querySelector(".edit-box") && document.querySelector('.msg[data-role="user"] .content').textContent === "second try"`)
	NothingLeftBehind(t, tab)
}

// Regenerate keeps the reply it replaces: under the new one, ‹ 2 / 2 › goes back to the first
// (the buttons say which way, the count which one), and the next message goes to the model with
// the version shown.
func TestRegeneratedRepliesKeepTheirVersions(t *testing.T) {
	n := 0
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		n++
		return testkit.Turn{Text: fmt.Sprintf("Answer %d.", n)}
	})
	tab := browser.FreshPanel(t)
	Configure(t, tab, "openai", model.URL, "sk-test", "gpt-test")
	SendMessage(t, tab, "Name a boat.")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done" && !document.querySelector("#messages .versions")`)
	Click(t, tab, lastAssistant+`.querySelector(".regenerate")`)
	shown := lastAssistant + `.querySelector(".content").textContent.trim() + " " + ` + lastAssistant + `.querySelector(".version-at")?.textContent`
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done" && `+shown+` === "Answer 2. 2 / 2"`)
	if got := JS[string](t, tab, lastAssistant+`.querySelector(".versions").getAttribute("aria-label") + "|" + [...`+lastAssistant+`.querySelectorAll(".version-go")].map(b => b.getAttribute("aria-label") + (b.disabled ? " (off)" : "")).join("|")`); got != "Version 2 of 2|Earlier version|Later version (off)" {
		t.Errorf("the switch reads %q", got)
	}
	Click(t, tab, lastAssistant+`.querySelector('.version-go[aria-label="Earlier version"]')`)
	WaitJS(t, tab, shown+` === "Answer 1. 1 / 2"`)
	onNode(t, tab, "type the message: ", chromedp.SendKeys("#input", "Another?"+kb.Enter))
	WaitJS(t, tab, `document.querySelectorAll("#messages .msg").length === 4 && `+lastAssistant+`.dataset.status === "done"`)
	convs := model.Conversations()
	if last := convs[len(convs)-1].Messages; len(last) != 3 || last[1].Text != "Answer 1." {
		t.Errorf("the model read %+v", last)
	}
	if JS[bool](t, tab, `!!document.querySelector("#messages .versions")`) {
		t.Error("an earlier reply still offers its versions")
	}
}
