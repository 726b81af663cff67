package chrome

import (
	"context"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/skiff-ai/skiff/internal/core"
	"github.com/skiff-ai/skiff/internal/i18n"
)

// Notifier implements core.Notifier: a count on Skiff's toolbar button while calls wait for
// the user, and, when no panel is open to show them, a notification. Its id carries the window
// to open the panel in: ext/sw.js opens it on a click (the click is the user gesture
// sidePanel.open needs) and clears the notification.
type Notifier struct{}

var _ core.Notifier = Notifier{}

// askPrefix starts the id of every notification that asks; sw.js knows it.
const askPrefix = "skiff-ask:"

func (Notifier) Asking(ctx context.Context, pending int, what i18n.Text, panelOpen bool, lang string) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	w := words(ctx, lang)
	action := chromeAPI("action")
	text := ""
	if pending > 0 {
		text = strconv.Itoa(pending)
	}
	_, _ = callAPI(ctx, action, "setBadgeBackgroundColor", map[string]any{"color": "#b3261e"})
	_, _ = callAPI(ctx, action, "setBadgeText", map[string]any{"text": text})
	if pending > 0 {
		_, _ = callAPI(ctx, action, "setTitle", map[string]any{"title": w.T("buttonWaiting", pending)})
	} else {
		_, _ = callAPI(ctx, action, "setTitle", map[string]any{"title": w.T("actionTitle")})
	}

	n := chromeAPI("notifications")
	if n.IsUndefined() {
		return
	}
	// Clear what asks already: answered, or about to be replaced.
	if all, err := callAPI(ctx, n, "getAll"); err == nil {
		keys := js.Global().Get("Object").Call("keys", all)
		for i := 0; i < keys.Length(); i++ {
			if id := keys.Index(i).String(); strings.HasPrefix(id, askPrefix) {
				_, _ = callAPI(ctx, n, "clear", id)
			}
		}
	}
	if pending == 0 || panelOpen {
		return
	}
	win := -2 // chrome.windows.WINDOW_ID_CURRENT
	if w, err := callAPI(ctx, chromeAPI("windows"), "getLastFocused"); err == nil && w.Get("id").Type() == js.TypeNumber {
		win = w.Get("id").Int()
	}
	msg := w.Say(what)
	if pending > 1 {
		msg += w.T("notifyAskMore", pending-1)
	}
	_, _ = callAPI(ctx, n, "create", askPrefix+strconv.Itoa(win), map[string]any{
		"type": "basic", "iconUrl": "icons/skiff-128.png", "title": w.T("notifyAskTitle"),
		"message": msg, "contextMessage": w.T("notifyAskContext"), "requireInteraction": true, "priority": 2,
	})
}
