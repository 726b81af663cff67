package chrome

import (
	"context"
	"sync"
	"syscall/js"
	"time"

	"github.com/skiff-ai/skiff/internal/core"
	"github.com/skiff-ai/skiff/internal/i18n"
)

// Alarms implements core.Alarms with chrome.alarms (which wakes a stopped worker: sw.js calls
// skiffCore.due() on the alarm) and chrome.notifications.
type Alarms struct {
	mu   sync.Mutex
	busy int
	stop chan struct{}
}

var _ core.Alarms = (*Alarms)(nil)

// Wall resolves a wall-clock time with the browser's Date, which knows the user's zone and its
// daylight-saving changes (Go's js/wasm port knows only the offset at start): schedule.Wall.
func Wall(y int, mo time.Month, d, h, m int, loc *time.Location) time.Time {
	ms := js.Global().Get("Date").New(y, int(mo)-1, d, h, m).Call("getTime").Float()
	return time.UnixMilli(int64(ms)).In(loc)
}

// scheduleAlarm is the alarm of the next scheduled run; sw.js knows its name.
const scheduleAlarm = "skiff-schedule"

// runPrefix starts the id of a notification that tells how a run went; sw.js knows it.
const runPrefix = "skiff-run:"

func (*Alarms) Set(ctx context.Context, at int64) {
	a := chromeAPI("alarms")
	if a.IsUndefined() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if at <= 0 {
		_, _ = callAPI(ctx, a, "clear", scheduleAlarm)
		return
	}
	_, _ = callAPI(ctx, a, "create", scheduleAlarm, map[string]any{"when": float64(at)})
}

// Busy keeps the worker running during a scheduled run: Chrome stops a worker that made no
// extension call for 30 s, and a run that waits for the user's answer makes none. A cheap call
// every 20 s resets that timer while any run goes on.
func (a *Alarms) Busy(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if on {
		a.busy++
		if a.busy == 1 {
			a.stop = make(chan struct{})
			go keepAwake(a.stop)
		}
		return
	}
	if a.busy > 0 {
		a.busy--
		if a.busy == 0 {
			close(a.stop)
		}
	}
}

func keepAwake(stop chan struct{}) {
	t := time.NewTicker(20 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, _ = callAPI(ctx, chromeAPI("runtime"), "getPlatformInfo")
			cancel()
		}
	}
}

func (*Alarms) Ran(ctx context.Context, chat, title string, outcome i18n.Text, ok bool, lang string) {
	n := chromeAPI("notifications")
	if n.IsUndefined() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	w := words(ctx, lang)
	head := w.T("notifyRunDone", title)
	if !ok {
		head = w.T("notifyRunStopped", title)
	}
	message := w.Say(outcome)
	if len([]rune(message)) > 250 {
		message = string([]rune(message)[:250]) + "…"
	}
	_, _ = callAPI(ctx, n, "create", runPrefix+chat, map[string]any{
		"type": "basic", "iconUrl": "icons/skiff-128.png", "title": head, "message": message,
		"contextMessage": w.T("notifyRunContext"), "priority": 1,
	})
}
