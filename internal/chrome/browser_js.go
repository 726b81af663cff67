package chrome

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/skiff-ai/skiff/internal/tool"
)

// Browser implements tool.Browser over chrome.tabs, scripting, tabGroups, webNavigation,
// history and debugger. It follows the events the worker shim forwards (Event): dialogs pages
// report, the debugger's events and detaches, closed tabs.
type Browser struct {
	mu       sync.Mutex
	attached map[int]bool                 // tabs Skiff's debugger is attached to, with Page events on
	dialogs  map[int]tool.Dialog          // the dialog each tab is showing
	kept     map[int]time.Time            // tabs left attached after their run for the dialog they show, since (Release)
	docs     map[int]string               // the document each tab's main frame last committed (its documentId)
	left     map[int][]string             // the last documents each tab's main frame left
	choosers map[int]tool.Chooser         // the file chooser each tab's page last asked for while Skiff intercepted them
	requests map[int]map[string]time.Time // each tab's fetch and XHR requests under way while followed, by id: when each began
	loads    []tool.Download              // the downloads begun in the last minutes, oldest first
	console  map[int][]tool.ConsoleEvent  // each tab's console events while Skiff reads them (the latest)
	commits  map[int]time.Time            // when each tab's main frame last committed a navigation
	navs     map[int]time.Time            // when each tab's main frame last set out for another document
	stopped  map[int]time.Time            // when a navigation of each tab's main frame last failed or was called off
	// openedBy is the tab whose page opened each tab (a link to a new tab, window.open), as
	// webNavigation tells it: Chrome's openerTabId names the window's active tab instead when
	// the page that opened it is in a background tab.
	openedBy map[int]int
	netlog   map[int][]tool.NetRequest // each tab's requests seen while followed (the latest 200)
	netOff   map[int]time.Time         // when Skiff last stopped following each tab's requests
	netErrs  map[int][2]string         // why each tab's page last failed to load: its address and Chrome's error
}

var _ tool.Browser = (*Browser)(nil)

// NewBrowser returns a Browser.
func NewBrowser() *Browser {
	return &Browser{attached: map[int]bool{}, dialogs: map[int]tool.Dialog{}, kept: map[int]time.Time{}, docs: map[int]string{}, left: map[int][]string{}, choosers: map[int]tool.Chooser{}, console: map[int][]tool.ConsoleEvent{}, commits: map[int]time.Time{}, navs: map[int]time.Time{}, stopped: map[int]time.Time{}, openedBy: map[int]int{}, requests: map[int]map[string]time.Time{},
		netlog: map[int][]tool.NetRequest{}, netOff: map[int]time.Time{}, netErrs: map[int][2]string{}}
}

func tabs() js.Value { return chromeAPI("tabs") }

func toTab(v js.Value) tool.Tab {
	t := tool.Tab{ID: v.Get("id").Int(), WindowID: v.Get("windowId").Int(), GroupID: -1, Index: v.Get("index").Int(),
		Active: v.Get("active").Truthy(), Status: str(v.Get("status")), Incognito: v.Get("incognito").Truthy()}
	if g := v.Get("groupId"); g.Type() == js.TypeNumber {
		t.GroupID = g.Int()
	}
	if o := v.Get("openerTabId"); o.Type() == js.TypeNumber {
		t.Opener = o.Int()
	}
	t.URL = str(v.Get("url"))
	t.Pending = str(v.Get("pendingUrl"))
	if t.URL == "" {
		t.URL = t.Pending
	}
	if t.Pending == t.URL {
		t.Pending = ""
	}
	t.Title = str(v.Get("title"))
	if a := v.Get("lastAccessed"); a.Type() == js.TypeNumber {
		t.LastAccessed = int64(a.Float())
	}
	return t
}

// toTab is a tab as Chrome describes it, with the tab that opened it as its page said.
func (b *Browser) toTab(v js.Value) tool.Tab {
	t := toTab(v)
	b.mu.Lock()
	if o, ok := b.openedBy[t.ID]; ok {
		t.Opener = o
	}
	b.mu.Unlock()
	return t
}

func str(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// apiError turns a chrome.* error message into one of tool's errors where one applies.
func apiError(err error) error {
	if err == nil {
		return nil
	}
	m := err.Error()
	switch {
	case strings.Contains(m, "No tab with id"), strings.Contains(m, "No tab with given id"):
		return fmt.Errorf("%w (%v)", tool.ErrNoTab, err)
	case strings.Contains(m, "No frame with id"), strings.Contains(m, "Frame with ID") && strings.Contains(m, "was removed"):
		return fmt.Errorf("%w (%v)", tool.ErrNoFrame, err)
	case strings.Contains(m, "showing error page"):
		return fmt.Errorf("%w (%v)", tool.ErrErrorPage, err)
	case strings.Contains(m, "Cannot access") && strings.Contains(m, `"file:`):
		return fmt.Errorf("%w (%v)", tool.ErrNoFileAccess, err)
	case strings.Contains(m, "Cannot access"), strings.Contains(m, "cannot be scripted"), strings.Contains(m, "chrome://"),
		strings.Contains(m, "chrome-extension://"), strings.Contains(m, "Cannot attach to this target"), strings.Contains(m, "devtools://"):
		return fmt.Errorf("%w (%v)", tool.ErrRestricted, err)
	}
	return err
}

func (b *Browser) query(ctx context.Context, q map[string]any) ([]tool.Tab, error) {
	v, err := callAPI(ctx, tabs(), "query", js.ValueOf(q))
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]tool.Tab, 0, v.Length())
	for i := 0; i < v.Length(); i++ {
		out = append(out, b.toTab(v.Index(i)))
	}
	return out, nil
}

func (b *Browser) Tabs(ctx context.Context, windowID int) ([]tool.Tab, error) {
	q := map[string]any{}
	if windowID > 0 {
		q["windowId"] = windowID
	}
	return b.query(ctx, q)
}

func (b *Browser) Tab(ctx context.Context, id int) (tool.Tab, error) {
	v, err := callAPI(ctx, tabs(), "get", id)
	if err != nil {
		return tool.Tab{}, apiError(err)
	}
	return b.toTab(v), nil
}

func ours(t tool.Tab) bool {
	return strings.HasPrefix(t.URL, "chrome-extension://"+ExtensionID()+"/")
}

func (b *Browser) ActiveTab(ctx context.Context, windowID int) (tool.Tab, error) {
	q := map[string]any{"active": true, "lastFocusedWindow": true}
	if windowID > 0 {
		q = map[string]any{"active": true, "windowId": windowID}
	}
	for _, query := range []map[string]any{q, {"active": true}} {
		ts, err := b.query(ctx, query)
		if err != nil {
			return tool.Tab{}, err
		}
		for _, t := range ts {
			if !ours(t) {
				return t, nil
			}
		}
	}
	return tool.Tab{}, fmt.Errorf("%w: no tab is open", tool.ErrNoTab)
}

func (b *Browser) OpenTab(ctx context.Context, url string, active bool, windowID int) (tool.Tab, error) {
	if windowID == tool.NewWindow {
		w, err := callAPI(ctx, chromeAPI("windows"), "create", js.ValueOf(map[string]any{"url": url, "focused": false}))
		if err != nil {
			return tool.Tab{}, apiError(err)
		}
		return toTab(w.Get("tabs").Index(0)), nil
	}
	p := map[string]any{"url": url, "active": active}
	if windowID > 0 {
		p["windowId"] = windowID
	}
	v, err := callAPI(ctx, tabs(), "create", js.ValueOf(p))
	if err != nil {
		return tool.Tab{}, apiError(err)
	}
	return toTab(v), nil
}

func intArray(ids []int) js.Value {
	a := js.Global().Get("Array").New(len(ids))
	for i, id := range ids {
		a.SetIndex(i, id)
	}
	return a
}

func (b *Browser) CloseTabs(ctx context.Context, ids []int) error {
	_, err := callAPI(ctx, tabs(), "remove", intArray(ids))
	return apiError(err)
}

func (b *Browser) ActivateTab(ctx context.Context, id int) error {
	v, err := callAPI(ctx, tabs(), "update", id, js.ValueOf(map[string]any{"active": true}))
	if err != nil {
		return apiError(err)
	}
	_, err = callAPI(ctx, chromeAPI("windows"), "update", v.Get("windowId"), js.ValueOf(map[string]any{"focused": true}))
	return err
}

// SelectTab makes a tab the active one of its window, leaving which window has the focus as it is.
func (b *Browser) SelectTab(ctx context.Context, id int) error {
	_, err := callAPI(ctx, tabs(), "update", id, js.ValueOf(map[string]any{"active": true}))
	return apiError(err)
}

// Navigate sends the tab to url. Chrome rejects a navigation it cannot start at that moment
// ("Navigation rejected.": seen in test runs, as a page that alerts as it loads was being
// left, its first alert open before Skiff took the tab): it is asked again, five times in a
// second at most, then through the debugger (Page.navigate), which starts the navigation from
// the page's frame rather than from the tab.
func (b *Browser) Navigate(ctx context.Context, id int, url string) error {
	for try := 1; ; try++ {
		_, err := callAPI(ctx, tabs(), "update", id, js.ValueOf(map[string]any{"url": url}))
		if err == nil || !strings.Contains(err.Error(), "Navigation rejected") {
			return apiError(err)
		}
		if try == 5 {
			dctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			raw, err := b.Debug(dctx, id, "Page.navigate", map[string]any{"url": url})
			cancel()
			var r struct {
				ErrorText string `json:"errorText"`
			}
			if err == nil && json.Unmarshal(raw, &r) == nil && r.ErrorText == "" {
				return nil
			}
			return errors.New("Chrome would not start the navigation (the page may be showing a dialog, or leaving); try again")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Back and Forward move through the tab's history with the debugger when it is available:
// chrome.tabs.goBack skips entries of pages that never got a user gesture (Chrome's history
// manipulation intervention), which is every page an agent only read.
func (b *Browser) Back(ctx context.Context, id int) error { return b.move(ctx, id, -1, "goBack") }

func (b *Browser) Forward(ctx context.Context, id int) error { return b.move(ctx, id, 1, "goForward") }

func (b *Browser) move(ctx context.Context, id, delta int, api string) error {
	raw, err := b.Debug(ctx, id, "Page.getNavigationHistory", nil)
	if err == nil {
		var h struct {
			CurrentIndex int `json:"currentIndex"`
			Entries      []struct {
				ID int `json:"id"`
			} `json:"entries"`
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			return err
		}
		i := h.CurrentIndex + delta
		if i < 0 || i >= len(h.Entries) {
			return errors.New("Cannot find a next page in history.")
		}
		_, err = b.Debug(ctx, id, "Page.navigateToHistoryEntry", map[string]int{"entryId": h.Entries[i].ID})
		return err
	}
	if !errors.Is(err, tool.ErrNoDebugger) {
		return err
	}
	_, err = callAPI(ctx, tabs(), api, id)
	return apiError(err)
}

func (b *Browser) Reload(ctx context.Context, id int) error {
	_, err := callAPI(ctx, tabs(), "reload", id)
	return apiError(err)
}

func (b *Browser) Group(ctx context.Context, ids []int, groupID int, title, color string) (int, error) {
	opt := js.ValueOf(map[string]any{})
	opt.Set("tabIds", intArray(ids))
	if groupID >= 0 {
		opt.Set("groupId", groupID)
	} else if len(ids) > 0 {
		// A new group: in the first tab's window (Chrome's default, the focused window, would
		// move the tabs there).
		if t, err := b.Tab(ctx, ids[0]); err == nil {
			opt.Set("createProperties", js.ValueOf(map[string]any{"windowId": t.WindowID}))
		}
	}
	v, err := callAPI(ctx, tabs(), "group", opt)
	if err != nil {
		return 0, apiError(err)
	}
	gid := v.Int()
	upd := map[string]any{}
	if title != "" {
		upd["title"] = title
	}
	if color != "" {
		upd["color"] = color
	}
	if len(upd) > 0 {
		if _, err := callAPI(ctx, chromeAPI("tabGroups"), "update", gid, js.ValueOf(upd)); err != nil {
			return gid, err
		}
	}
	return gid, nil
}

func (b *Browser) Ungroup(ctx context.Context, ids []int) error {
	_, err := callAPI(ctx, tabs(), "ungroup", intArray(ids))
	return apiError(err)
}

func (b *Browser) Frames(ctx context.Context, tabID int) ([]tool.Frame, error) {
	v, err := callAPI(ctx, chromeAPI("webNavigation"), "getAllFrames", js.ValueOf(map[string]any{"tabId": tabID}))
	if err != nil {
		return nil, apiError(err)
	}
	if !v.Truthy() {
		return nil, tool.ErrNoTab
	}
	var out []tool.Frame
	for i := 0; i < v.Length(); i++ {
		f := v.Index(i)
		id := f.Get("frameId").Int()
		out = append(out, tool.Frame{ID: id, ParentID: f.Get("parentFrameId").Int(), URL: str(f.Get("url")), Failed: id != 0 && f.Get("errorOccurred").Truthy()})
	}
	return out, nil
}

const missing = "__skiff_missing__"

func (b *Browser) execute(ctx context.Context, target js.Value, world tool.World, call, args, origin string) ([]tool.FrameResult, []int, error) {
	opt := js.ValueOf(map[string]any{"world": string(world)})
	opt.Set("target", target)
	opt.Set("func", js.Global().Get("skiffPageCall"))
	opt.Set("args", js.ValueOf([]any{call, args, origin}))
	v, err := callAPI(ctx, chromeAPI("scripting"), "executeScript", opt)
	if err != nil {
		return nil, nil, apiError(err)
	}
	var out []tool.FrameResult
	var need []int
	for i := 0; i < v.Length(); i++ {
		r := v.Index(i)
		fid := r.Get("frameId").Int()
		res := r.Get("result")
		if res.Type() == js.TypeString && res.String() == missing {
			need = append(need, fid)
			continue
		}
		if e := r.Get("error"); e.Truthy() {
			out = append(out, tool.FrameResult{FrameID: fid, Result: errorJSON(jsErrorString(e))})
			continue
		}
		out = append(out, tool.FrameResult{FrameID: fid, Result: json.RawMessage(jsonString(res))})
	}
	return out, need, nil
}

func errorJSON(msg string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"error": msg})
	return b
}

// jsonString is JSON.stringify(v), "null" for undefined.
func jsonString(v js.Value) string {
	if v.IsUndefined() {
		return "null"
	}
	s := js.Global().Get("JSON").Call("stringify", v)
	if s.Type() != js.TypeString {
		return "null"
	}
	return s.String()
}

func (b *Browser) Script(ctx context.Context, s tool.Script) ([]tool.FrameResult, error) {
	world := s.World
	if world == "" {
		world = tool.Isolated
	}
	args, err := json.Marshal(s.Args)
	if err != nil {
		return nil, err
	}
	target := func(frames []int) js.Value {
		t := js.ValueOf(map[string]any{"tabId": s.TabID})
		switch {
		case frames != nil:
			a := make([]any, len(frames))
			for i, f := range frames {
				a[i] = f
			}
			t.Set("frameIds", js.ValueOf(a))
		case s.AllFrames:
			t.Set("allFrames", true)
		}
		return t
	}
	out, need, err := b.execute(ctx, target(s.Frames), world, s.Call, string(args), s.Origin)
	if err != nil || len(need) == 0 {
		return out, err
	}
	// First use in these documents: inject the page-side code, then call again there.
	files := make([]any, len(s.Files))
	for i, f := range s.Files {
		files[i] = f
	}
	inj := js.ValueOf(map[string]any{"world": string(world), "files": files})
	inj.Set("target", target(need))
	if _, err := callAPI(ctx, chromeAPI("scripting"), "executeScript", inj); err != nil {
		return out, apiError(err)
	}
	more, still, err := b.execute(ctx, target(need), world, s.Call, string(args), s.Origin)
	if err != nil {
		return out, err
	}
	for _, f := range still {
		more = append(more, tool.FrameResult{FrameID: f, Result: errorJSON("Skiff's page code could not be loaded in this frame")})
	}
	return append(out, more...), nil
}

func (b *Browser) Capture(ctx context.Context, tabID int, format string, quality int) ([]byte, error) {
	if format != "png" {
		format = "jpeg"
	}
	b.mu.Lock()
	attached := b.attached[tabID]
	b.mu.Unlock()
	t, err := b.Tab(ctx, tabID)
	if err != nil {
		return nil, err
	}
	if !t.Active {
		// Chrome does not draw a background tab: a capture would wait for a frame that never comes.
		return nil, tool.ErrBackgroundShot
	}
	if !attached {
		opt := map[string]any{"format": format}
		if format == "jpeg" {
			opt["quality"] = quality
		}
		v, err := callAPI(ctx, tabs(), "captureVisibleTab", t.WindowID, js.ValueOf(opt))
		if err == nil {
			return decodeDataURL(v.String())
		}
	}
	params := map[string]any{"format": format}
	if format == "jpeg" {
		params["quality"] = quality
	}
	return tool.DebugShot(ctx, b, tabID, params)
}

func decodeDataURL(u string) ([]byte, error) {
	i := strings.Index(u, ";base64,")
	if i < 0 {
		return nil, errors.New("chrome: the screenshot is not a base64 data URL")
	}
	return base64.StdEncoding.DecodeString(u[i+len(";base64,"):])
}

func debuggee(tabID int) js.Value { return js.ValueOf(map[string]any{"tabId": tabID}) }

// attach attaches the debugger to a tab and turns on Page events (for dialogs). Page.enable
// does not answer while a dialog blocks the page; then the dialog is marked unanswerable.
func (b *Browser) attach(ctx context.Context, tabID int) error {
	b.mu.Lock()
	done := b.attached[tabID]
	delete(b.kept, tabID) // a run takes it up: released at its end
	b.mu.Unlock()
	if done {
		return nil
	}
	if _, err := callAPI(ctx, chromeAPI("debugger"), "attach", debuggee(tabID), "1.3"); err != nil {
		if strings.Contains(err.Error(), "Another debugger") || strings.Contains(err.Error(), "already attached") {
			b.mu.Lock()
			already := b.attached[tabID]
			b.mu.Unlock()
			if already {
				return nil
			}
			return fmt.Errorf("%w (%v)", tool.ErrNoDebugger, err)
		}
		if errors.Is(apiError(err), tool.ErrRestricted) || errors.Is(apiError(err), tool.ErrNoTab) {
			return apiError(err)
		}
		return fmt.Errorf("%w (%v)", tool.ErrNoDebugger, err)
	}
	b.mu.Lock()
	b.attached[tabID] = true
	b.mu.Unlock()
	ectx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := callAPI(ectx, chromeAPI("debugger"), "sendCommand", debuggee(tabID), "Page.enable")
	if err != nil && ctx.Err() == nil {
		b.mu.Lock()
		if d, ok := b.dialogs[tabID]; ok {
			d.Answerable = false
			b.dialogs[tabID] = d
		}
		b.mu.Unlock()
	}
	return nil
}

func (b *Browser) Debug(ctx context.Context, tabID int, method string, params any) (json.RawMessage, error) {
	if err := b.attach(ctx, tabID); err != nil {
		return nil, err
	}
	if method == "Network.disable" {
		b.mu.Lock()
		b.netOff[tabID] = time.Now() // what is out now ends unseen (NetLog)
		b.mu.Unlock()
	}
	p := js.Undefined()
	if params != nil {
		raw, err := json.Marshal(params)
		if err != nil {
			return nil, err
		}
		p = js.Global().Get("JSON").Call("parse", string(raw))
	}
	v, err := callAPI(ctx, chromeAPI("debugger"), "sendCommand", debuggee(tabID), method, p)
	if err != nil {
		if strings.Contains(err.Error(), "not attached") || strings.Contains(err.Error(), "Detached") {
			b.mu.Lock()
			delete(b.attached, tabID)
			b.mu.Unlock()
		}
		if strings.Contains(err.Error(), "Detached while handling command") {
			return nil, fmt.Errorf("%w (%v)", tool.ErrDetached, err)
		}
		return nil, apiError(err)
	}
	return json.RawMessage(jsonString(v)), nil
}

// NetError is Chrome's reason ("net::ERR_NAME_NOT_RESOLVED") the tab's page at url last failed
// to load, or "" when it did not, or Skiff did not see it.
func (b *Browser) NetError(tabID int, url string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.netErrs[tabID]; ok && e[0] == url {
		return e[1]
	}
	return ""
}

// Release detaches the debugger from a tab (the "Skiff is debugging this browser" bar goes
// away when no tab is attached).
func (b *Browser) Release(ctx context.Context, tabID int) {
	b.mu.Lock()
	was := b.attached[tabID]
	if d, open := b.dialogs[tabID]; was && open && d.Answerable {
		// Detached, the tab's dialog could no longer be answered by Skiff: the debugger does
		// not see a dialog already open when it attaches (Page.enable waits for it to close),
		// and a navigation cannot leave a page whose scripts alert again once it closes one.
		// The tab stays attached until the dialog closes (the next run can still answer it),
		// or keptForDialog has passed.
		at := time.Now()
		b.kept[tabID] = at
		b.mu.Unlock()
		time.AfterFunc(keptForDialog, func() { b.releaseKept(tabID, at) })
		return
	}
	delete(b.attached, tabID)
	delete(b.kept, tabID)
	b.mu.Unlock()
	if was {
		_, _ = callAPI(ctx, chromeAPI("debugger"), "detach", debuggee(tabID))
	}
}

// keptForDialog bounds how long a tab stays attached after its run for the dialog it shows
// (the "started debugging this browser" bar shows as long).
const keptForDialog = 5 * time.Minute

// releaseKept detaches a tab kept attached for its dialog since at (Release), unless a run
// took it up since.
func (b *Browser) releaseKept(tabID int, at time.Time) {
	b.mu.Lock()
	if k, ok := b.kept[tabID]; !ok || !k.Equal(at) {
		b.mu.Unlock()
		return
	}
	delete(b.kept, tabID)
	delete(b.attached, tabID)
	if d, open := b.dialogs[tabID]; open {
		d.Answerable = false // (by the user only, now)
		b.dialogs[tabID] = d
	}
	b.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = callAPI(ctx, chromeAPI("debugger"), "detach", debuggee(tabID))
	}()
}

func (b *Browser) Dialog(tabID int) (tool.Dialog, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	d, ok := b.dialogs[tabID]
	return d, ok
}

func (b *Browser) FileChooser(tabID int, t time.Time) (tool.Chooser, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c, ok := b.choosers[tabID]
	return c, ok && !c.At.Before(t)
}

func (b *Browser) Console(tabID int, t time.Time) []tool.ConsoleEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []tool.ConsoleEvent
	for _, c := range b.console[tabID] {
		if !c.At.Before(t) {
			out = append(out, c)
		}
	}
	return out
}

func (b *Browser) NetLog(tabID int) ([]tool.NetRequest, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]tool.NetRequest(nil), b.netlog[tabID]...), b.netOff[tabID]
}

// netRequest is the request id of tab's log, or nil (b.mu held).
func (b *Browser) netRequest(tabID int, id string) *tool.NetRequest {
	l := b.netlog[tabID]
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].ID == id {
			return &l[i]
		}
	}
	return nil
}

func (b *Browser) RequestsSince(tabID int, t time.Time) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, at := range b.requests[tabID] {
		if !at.Before(t) {
			n++
		}
	}
	return n
}

func (b *Browser) DownloadsSince(t time.Time) []tool.Download {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []tool.Download
	for _, d := range b.loads {
		if !d.At.Before(t) {
			out = append(out, d)
		}
	}
	return out
}

func (b *Browser) CommittedSince(tabID int, t time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	at, ok := b.commits[tabID]
	return ok && !at.Before(t)
}

func (b *Browser) NavigatedSince(tabID int, t time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	nav, ok := b.navs[tabID]
	commit, done := b.commits[tabID]
	return ok && !nav.Before(t) || done && !commit.Before(t)
}

// Arriving: the tab's main frame set out after it last committed or stopped (a download, a
// 204, a network error or a stop end a navigation without a commit).
func (b *Browser) Arriving(tabID int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	nav, ok := b.navs[tabID]
	return ok && nav.After(b.commits[tabID]) && nav.After(b.stopped[tabID])
}

func (b *Browser) Download(ctx context.Context, id int) (tool.Download, error) {
	v, err := callAPI(ctx, chromeAPI("downloads"), "search", js.ValueOf(map[string]any{"id": id}))
	if err != nil {
		return tool.Download{}, err
	}
	if v.Length() == 0 {
		return tool.Download{}, fmt.Errorf("chrome: no download %d", id)
	}
	d := v.Index(0)
	url := str(d.Get("finalUrl"))
	if url == "" {
		url = str(d.Get("url"))
	}
	return tool.Download{ID: id, URL: url, Referrer: str(d.Get("referrer")), Filename: str(d.Get("filename")),
		State: str(d.Get("state")), Error: str(d.Get("error")), Danger: str(d.Get("danger")),
		Received: int64(num(d.Get("bytesReceived"))), Total: int64(num(d.Get("totalBytes")))}, nil
}

func (b *Browser) AnswerDialog(ctx context.Context, tabID int, accept bool, promptText string) error {
	d, ok := b.Dialog(tabID)
	if !ok {
		return errors.New("chrome: the page is not showing a dialog")
	}
	if !d.Answerable {
		return tool.ErrDialogNotAnswerable
	}
	p := map[string]any{"accept": accept}
	if d.Type == "prompt" && accept {
		p["promptText"] = promptText
	}
	if _, err := b.Debug(ctx, tabID, "Page.handleJavaScriptDialog", p); err != nil {
		return err
	}
	b.mu.Lock()
	delete(b.dialogs, tabID)
	b.mu.Unlock()
	return nil
}

func history() js.Value { return chromeAPI("history") }

func (b *Browser) SearchHistory(ctx context.Context, q tool.HistoryQuery) ([]tool.HistoryItem, error) {
	p := map[string]any{"text": q.Text, "startTime": float64(q.StartMs)}
	if q.EndMs > 0 {
		p["endTime"] = float64(q.EndMs)
	}
	if q.MaxResults > 0 {
		p["maxResults"] = q.MaxResults
	}
	v, err := callAPI(ctx, history(), "search", js.ValueOf(p))
	if err != nil {
		return nil, err
	}
	out := make([]tool.HistoryItem, 0, v.Length())
	for i := 0; i < v.Length(); i++ {
		h := v.Index(i)
		out = append(out, tool.HistoryItem{URL: str(h.Get("url")), Title: str(h.Get("title")), LastVisitTime: num(h.Get("lastVisitTime")),
			VisitCount: int(num(h.Get("visitCount"))), TypedCount: int(num(h.Get("typedCount")))})
	}
	return out, nil
}

func num(v js.Value) float64 {
	if v.Type() == js.TypeNumber {
		return v.Float()
	}
	return 0
}

func (b *Browser) Visits(ctx context.Context, url string) ([]tool.Visit, error) {
	v, err := callAPI(ctx, history(), "getVisits", js.ValueOf(map[string]any{"url": url}))
	if err != nil {
		return nil, err
	}
	out := make([]tool.Visit, 0, v.Length())
	for i := 0; i < v.Length(); i++ {
		h := v.Index(i)
		out = append(out, tool.Visit{VisitTime: num(h.Get("visitTime")), Transition: str(h.Get("transition"))})
	}
	return out, nil
}

func (b *Browser) DeleteURL(ctx context.Context, url string) error {
	_, err := callAPI(ctx, history(), "deleteUrl", js.ValueOf(map[string]any{"url": url}))
	return err
}

func (b *Browser) DeleteRange(ctx context.Context, startMs, endMs int64) error {
	_, err := callAPI(ctx, history(), "deleteRange", js.ValueOf(map[string]any{"startTime": float64(startMs), "endTime": float64(endMs)}))
	return err
}

// Event handles a browser event the worker shim forwarded: kind, its data as JSON, and for
// runtime messages the sender. Only reports from this extension's own content scripts count.
func (b *Browser) Event(kind string, data []byte, sender js.Value) {
	switch kind {
	case "message":
		if !sender.Truthy() || str(sender.Get("id")) != ExtensionID() || sender.Get("tabId").Int() < 0 {
			return
		}
		var m struct {
			Type, Dialog, Message, DefaultPrompt, URL string
			Open                                      bool
		}
		if json.Unmarshal(data, &m) != nil || m.Type != "page.dialog" {
			return
		}
		tabID := sender.Get("tabId").Int()
		b.mu.Lock()
		// A report from a document the tab has left (it opened another alert as the
		// navigation was committing, and its report came after the commit, from a frame
		// Chrome no longer numbers 0) is stale: kept, it said the new page was stuck in a
		// dialog, for good.
		if m.Open && slices.Contains(b.left[tabID], str(sender.Get("documentId"))) {
			b.mu.Unlock()
			return
		}
		if m.Open {
			if _, known := b.dialogs[tabID]; !known { // the debugger's own report is better
				b.dialogs[tabID] = tool.Dialog{Type: m.Dialog, Message: m.Message, DefaultPrompt: m.DefaultPrompt, URL: m.URL, Answerable: b.attached[tabID]}
			}
		} else {
			delete(b.dialogs, tabID)
		}
		b.mu.Unlock()
	case "debugger.event":
		var e struct {
			TabID  int    `json:"tabId"`
			Method string `json:"method"`
			Params struct {
				Type          string `json:"type"`
				Message       string `json:"message"`
				DefaultPrompt string `json:"defaultPrompt"`
				URL           string `json:"url"`
				RequestID     string `json:"requestId"`
				Mode          string `json:"mode"`
				BackendNodeID int    `json:"backendNodeId"`
				Request       struct {
					URL    string `json:"url"`
					Method string `json:"method"`
				} `json:"request"`
				Response struct {
					Status int `json:"status"`
				} `json:"response"`
				ErrorText     string `json:"errorText"`
				Canceled      bool   `json:"canceled"`
				BlockedReason string `json:"blockedReason"`
			} `json:"params"`
		}
		if json.Unmarshal(data, &e) != nil {
			return
		}
		b.mu.Lock()
		switch e.Method {
		case "Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded":
			var raw struct {
				Params json.RawMessage `json:"params"`
			}
			if json.Unmarshal(data, &raw) == nil {
				c := append(b.console[e.TabID], tool.ConsoleEvent{Method: e.Method, Params: raw.Params, At: time.Now()})
				if len(c) > 1200 { // V8 keeps 1,000 messages a page; Log, its own
					c = c[len(c)-1200:]
				}
				b.console[e.TabID] = c
			}
		case "Page.javascriptDialogOpening":
			b.dialogs[e.TabID] = tool.Dialog{Type: e.Params.Type, Message: e.Params.Message, DefaultPrompt: e.Params.DefaultPrompt, URL: e.Params.URL, Answerable: true}
		case "Page.javascriptDialogClosed":
			delete(b.dialogs, e.TabID)
			if at, ok := b.kept[e.TabID]; ok {
				go b.releaseKept(e.TabID, at) // (b.mu is held)
			}
		case "Page.fileChooserOpened":
			b.choosers[e.TabID] = tool.Chooser{At: time.Now(), BackendNodeID: e.Params.BackendNodeID, Multiple: e.Params.Mode == "selectMultiple"}
		case "Network.requestWillBeSent":
			if q := b.netRequest(e.TabID, e.Params.RequestID); q != nil {
				q.URL, q.Method = e.Params.Request.URL, e.Params.Request.Method // redirected
			} else {
				l := append(b.netlog[e.TabID], tool.NetRequest{ID: e.Params.RequestID, URL: e.Params.Request.URL, Method: e.Params.Request.Method, Type: e.Params.Type, At: time.Now()})
				if len(l) > 200 {
					l = l[len(l)-200:]
				}
				b.netlog[e.TabID] = l
			}
			// Only what a script asks for: a page's beacons, images and event streams are not
			// what an action waits on, and a redirect sends the same id again.
			if e.Params.Type == "XHR" || e.Params.Type == "Fetch" {
				m := b.requests[e.TabID]
				if m == nil {
					m = map[string]time.Time{}
					b.requests[e.TabID] = m
				}
				now := time.Now()
				for id, at := range m {
					if now.Sub(at) > 2*time.Minute { // one whose end came after Network was turned off
						delete(m, id)
					}
				}
				if _, ok := m[e.Params.RequestID]; !ok {
					m[e.Params.RequestID] = now
				}
			}
		case "Network.responseReceived":
			if q := b.netRequest(e.TabID, e.Params.RequestID); q != nil {
				q.Status = e.Params.Response.Status
			}
		case "Network.loadingFinished", "Network.loadingFailed":
			delete(b.requests[e.TabID], e.Params.RequestID)
			if q := b.netRequest(e.TabID, e.Params.RequestID); q != nil {
				q.Done = true
				switch {
				case e.Params.BlockedReason != "":
					q.Failed = "blocked (" + e.Params.BlockedReason + ")"
				case e.Params.Canceled:
					q.Failed = "canceled"
				default:
					q.Failed = e.Params.ErrorText
				}
			}
		}
		b.mu.Unlock()
	case "debugger.detach":
		var e struct {
			TabID int `json:"tabId"`
		}
		if json.Unmarshal(data, &e) == nil {
			b.mu.Lock()
			delete(b.attached, e.TabID)
			delete(b.kept, e.TabID)
			delete(b.requests, e.TabID)
			b.netOff[e.TabID] = time.Now()
			if d, ok := b.dialogs[e.TabID]; ok {
				d.Answerable = false
				b.dialogs[e.TabID] = d
			}
			b.mu.Unlock()
		}
	case "download.created":
		var e struct {
			ID       int    `json:"id"`
			URL      string `json:"url"`
			Referrer string `json:"referrer"`
		}
		if json.Unmarshal(data, &e) == nil {
			now := time.Now()
			b.mu.Lock()
			for len(b.loads) > 0 && (len(b.loads) >= 50 || now.Sub(b.loads[0].At) > 5*time.Minute) {
				b.loads = b.loads[1:]
			}
			b.loads = append(b.loads, tool.Download{ID: e.ID, URL: e.URL, Referrer: e.Referrer, At: now})
			b.mu.Unlock()
		}
	case "tab.removed":
		var e struct {
			TabID int `json:"tabId"`
		}
		if json.Unmarshal(data, &e) == nil {
			b.mu.Lock()
			delete(b.attached, e.TabID)
			delete(b.kept, e.TabID)
			delete(b.docs, e.TabID)
			delete(b.left, e.TabID)
			delete(b.dialogs, e.TabID)
			delete(b.requests, e.TabID)
			delete(b.console, e.TabID)
			delete(b.commits, e.TabID)
			delete(b.navs, e.TabID)
			delete(b.stopped, e.TabID)
			delete(b.openedBy, e.TabID)
			delete(b.netlog, e.TabID)
			delete(b.netOff, e.TabID)
			delete(b.netErrs, e.TabID)
			b.mu.Unlock()
		}
	case "tab.neterror":
		var e struct {
			TabID int    `json:"tabId"`
			URL   string `json:"url"`
			Error string `json:"error"`
		}
		if json.Unmarshal(data, &e) == nil {
			b.mu.Lock()
			b.stopped[e.TabID] = time.Now()
			if e.Error != "net::ERR_ABORTED" {
				b.netErrs[e.TabID] = [2]string{e.URL, e.Error}
			}
			b.mu.Unlock()
		}
	case "tab.navigating":
		var e struct {
			TabID int `json:"tabId"`
		}
		if json.Unmarshal(data, &e) == nil {
			b.mu.Lock()
			b.navs[e.TabID] = time.Now()
			b.mu.Unlock()
		}
	case "tab.opened":
		var e struct {
			TabID  int `json:"tabId"`
			Source int `json:"sourceTabId"`
		}
		if json.Unmarshal(data, &e) == nil && e.Source > 0 {
			b.mu.Lock()
			b.openedBy[e.TabID] = e.Source
			b.mu.Unlock()
		}
	case "tab.committed":
		var e struct {
			TabID      int    `json:"tabId"`
			FrameID    int    `json:"frameId"`
			DocumentID string `json:"documentId"`
		}
		if json.Unmarshal(data, &e) == nil && e.FrameID == 0 {
			b.mu.Lock()
			if was := b.docs[e.TabID]; was != "" && was != e.DocumentID {
				b.left[e.TabID] = append(b.left[e.TabID][max(len(b.left[e.TabID])-3, 0):], was) // the last 4
			}
			b.docs[e.TabID] = e.DocumentID
			delete(b.dialogs, e.TabID) // a new document: the old one's dialog is gone
			if at, ok := b.kept[e.TabID]; ok {
				go b.releaseKept(e.TabID, at) // (b.mu is held)
			}
			delete(b.netErrs, e.TabID) // and it loaded (Chrome's error page says onErrorOccurred, not this)
			b.commits[e.TabID] = time.Now()
			b.mu.Unlock()
		}
	}
}
