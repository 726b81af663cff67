//go:build !js

package e2e

import (
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/skiff-ai/skiff/internal/testkit"
)

const queued = `[...document.querySelectorAll("#queue-list .queued-text")].map(n => n.textContent)`

// TestQueueThroughThePanel: three messages typed while a reply is being written wait above the
// box; one is edited there and one removed; the worker is killed mid-reply, and the queue is
// still there when the panel reconnects; Send now sends what waits, in order, each after the
// reply before it.
func TestQueueThroughThePanel(t *testing.T) {
	srv, _ := testkit.Held(t, "openai/text_usage.sse")
	tab := browser.Panel(t)
	Configure(t, tab, "openai", srv.URL, "sk-q", "gpt-4o-mini")
	SendMessage(t, tab, "one")
	WaitJS(t, tab, `!document.getElementById("stop").hidden`)
	for i, text := range []string{"two", "three", "four"} {
		// (chromedp's Enter also types a line break after the page took the keydown: cleared)
		JS[bool](t, tab, `(document.getElementById("input").value = "", true)`)
		Do(t, tab, chromedp.SendKeys("#input", text+kb.Enter))
		WaitJS(t, tab, fmt.Sprintf(`document.querySelectorAll("#queue-list .queued").length === %d`, i+1))
	}
	if got := JS[[]string](t, tab, queued); !slices.Equal(got, []string{"two", "three", "four"}) {
		t.Fatalf("queue: %v", got)
	}
	// Edit the second, remove the third, as a person does.
	Do(t, tab, chromedp.Click(`#queue-list li:nth-child(2) .queued-actions button:nth-child(1)`))
	JS[bool](t, tab, `(document.querySelector(".queued-input").select(), true)`)
	Do(t, tab, chromedp.SendKeys(`.queued-input`, "three, edited"+kb.Enter))
	WaitJS(t, tab, `!document.querySelector(".queued-input")`)
	Do(t, tab, chromedp.Click(`#queue-list li:nth-child(3) .queued-actions button:nth-child(2)`))
	WaitJS(t, tab, `document.querySelectorAll("#queue-list .queued").length === 2`)
	if got := JS[[]string](t, tab, queued); !slices.Equal(got, []string{"two", "three, edited"}) {
		t.Fatalf("queue after the edit and the removal: %v", got)
	}

	// The worker dies mid-reply: the queue waits for the user, and says so.
	browser.RestartWorker(t, tab)
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "interrupted"`)
	WaitJS(t, tab, `document.querySelectorAll("#queue-list .queued").length === 2 && !document.getElementById("queue-send").hidden`)
	if got := JS[[]string](t, tab, queued); !slices.Equal(got, []string{"two", "three, edited"}) {
		t.Fatalf("queue after the worker restarted: %v", got)
	}
	Do(t, tab, chromedp.Click("#queue-send"))
	// Each sent message has its reply, the last one finished (between a reply's end and the
	// next message's, the last reply shown is the one before).
	WaitJS(t, tab, `document.getElementById("queue").hidden && document.querySelectorAll('#messages .msg[data-role="user"]').length === 3 && document.querySelectorAll('#messages .msg[data-role="assistant"]').length === 3 && `+lastAssistant+`?.dataset.status === "done"`)

	var users []string
	for _, m := range messages(t, tab) {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if !slices.Equal(users, []string{"one", "two", "three, edited"}) {
		t.Errorf("the chat: %v", users)
	}
	// "one" got no reply (the worker died before a word): it goes with "two" as one user turn,
	// since some models refuse two in a row.
	if got := srv.UserTexts(t); !slices.Equal(got, []string{"one", "one\n\ntwo", "three, edited"}) {
		t.Errorf("the model got: %q", got)
	}
}
