//go:build !js

package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/testkit"

	"github.com/chromedp/chromedp"
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
}
