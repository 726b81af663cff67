package core

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
)

// workspace is an outside client's own part of the browser: a tab group named after it. The
// client's tools see the browser through it: its "active tab" is the group's, tabs it opens
// join the group, tabs_list lists the group. A call that names a tab outside the group is not
// blocked here: the gate asks the user (permission.Request.Outside). A tab the user drags into the
// group becomes the client's.
type workspace struct {
	tool.Browser
	id, name string
	task     *agent.Task
	save     func(store.Workspace) // stores the workspace when its group or tab changes

	mu    sync.Mutex
	group int // -1 until the first tab
}

var groupColors = [...]string{"blue", "purple", "cyan", "green", "orange", "pink", "yellow", "red", "grey"}

// newWorkspace makes the workspace of client in b, as stored (a worker restart keeps a
// client's group and current tab); save stores it again whenever either changes.
func newWorkspace(b tool.Browser, client link.Client, stored store.Workspace, save func(store.Workspace)) *workspace {
	w := &workspace{Browser: b, id: client.ID, name: client.Name, group: -1, save: save}
	if stored.ClientID == client.ID {
		w.group = stored.Group
	}
	env := tool.NewEnv(w, stored.TabID, 0)
	w.task = agent.NewTask(permission.Caller{Kind: permission.KindClient, ID: client.ID, Name: client.Name}, env)
	w.task.Outside = w.outside
	env.Moved = func(int) { w.store() }
	return w
}

// PDFText reads a PDF the browser can read (the embedded Browser's method, which embedding
// the interface hides).
func (w *workspace) PDFText(ctx context.Context, url, data string) (tool.PDFText, error) {
	if pr, ok := w.Browser.(tool.PDFReader); ok {
		return pr.PDFText(ctx, url, data)
	}
	return tool.PDFText{}, errors.New("this browser cannot read PDFs")
}

// NetError says why a tab's page did not load (the embedded Browser's method, which embedding
// the interface hides).
func (w *workspace) NetError(tabID int, url string) string {
	if n, ok := w.Browser.(tool.NetErrorer); ok {
		return n.NetError(tabID, url)
	}
	return ""
}

// store saves the workspace's group and current tab.
func (w *workspace) store() {
	if w.save == nil {
		return
	}
	w.save(store.Workspace{ClientID: w.id, Name: w.name, Group: w.groupID(), TabID: w.task.Env.TabID(), UsedAt: time.Now().UnixMilli()})
}

func (w *workspace) color() string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(w.name))
	return groupColors[h.Sum32()%uint32(len(groupColors))]
}

func (w *workspace) groupID() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.group
}

// adopt puts a tab in the workspace's group (a new group when the old one is gone).
func (w *workspace) adopt(ctx context.Context, id int) error {
	g := w.groupID()
	gid, err := w.Browser.Group(ctx, []int{id}, g, w.name, w.color())
	if err != nil && g >= 0 {
		gid, err = w.Browser.Group(ctx, []int{id}, -1, w.name, w.color())
	}
	if err != nil {
		return err
	}
	w.mu.Lock()
	changed := w.group != gid
	w.group = gid
	w.mu.Unlock()
	if changed {
		w.store()
	}
	return nil
}

// Tabs lists the workspace's tabs only (in windowID, or in every window for 0).
func (w *workspace) Tabs(ctx context.Context, windowID int) ([]tool.Tab, error) {
	g := w.groupID()
	if g < 0 {
		return nil, nil
	}
	all, err := w.Browser.Tabs(ctx, windowID)
	if err != nil {
		return nil, err
	}
	byID := tabsByID(all)
	var out []tool.Tab
	for _, t := range all {
		if owns(g, t, byID) {
			out = append(out, t)
		}
	}
	return out, nil
}

func tabsByID(all []tool.Tab) map[int]tool.Tab {
	byID := make(map[int]tool.Tab, len(all))
	for _, t := range all {
		byID[t.ID] = t
	}
	return byID
}

// owns says whether t is the workspace's (of group g): in its group, or a tab no group holds
// that one of its tabs opened. A popup window a page opens (a "Sign in with…" or payment
// window) cannot join a tab group, and is the client's as much as a tab its link opened.
func owns(g int, t tool.Tab, byID map[int]tool.Tab) bool {
	for range 8 {
		if g < 0 {
			return false
		}
		if t.GroupID == g {
			return true
		}
		o, ok := byID[t.Opener]
		if t.GroupID >= 0 || t.Opener <= 0 || !ok {
			return false
		}
		t = o
	}
	return false
}

// ActiveTab is the group's active tab (or its first); with no tab yet, a new blank tab in a
// window of its own, so a client never starts working in (or over) the tab the user is looking
// at, and its tab is drawn (a background tab is not, and cannot be captured).
func (w *workspace) ActiveTab(ctx context.Context, _ int) (tool.Tab, error) {
	tabs, err := w.Tabs(ctx, 0)
	if err != nil {
		return tool.Tab{}, err
	}
	for _, t := range tabs {
		if t.Active {
			return t, nil
		}
	}
	if len(tabs) > 0 {
		return tabs[0], nil
	}
	return w.OpenTab(ctx, "about:blank", true, 0)
}

// OpenTab opens a tab in the workspace's group, in the window of its other tabs (a new one
// for the first).
func (w *workspace) OpenTab(ctx context.Context, url string, active bool, _ int) (tool.Tab, error) {
	win := tool.NewWindow
	if tabs, err := w.Tabs(ctx, 0); err == nil && len(tabs) > 0 {
		win = tabs[0].WindowID
	}
	t, err := w.Browser.OpenTab(ctx, url, active, win)
	if err != nil {
		return t, err
	}
	if err := w.adopt(ctx, t.ID); err != nil {
		return t, err
	}
	t.GroupID = w.groupID()
	return t, nil
}

// Front brings a tab of the workspace that is behind another (a tab its page opened came to
// the front) to the front of its window, when every tab in that window is the workspace's:
// the client's own window, which no user is looking at through. A tab in a window of the user's
// is left where it is, and the window is never focused.
func (w *workspace) Front(ctx context.Context, tabID int) bool {
	s, ok := w.Browser.(interface {
		SelectTab(ctx context.Context, id int) error
	})
	if !ok {
		return false
	}
	all, err := w.Browser.Tabs(ctx, 0)
	if err != nil {
		return false
	}
	g, byID := w.groupID(), tabsByID(all)
	t, ok := byID[tabID]
	if !ok || !owns(g, t, byID) {
		return false
	}
	for _, o := range all {
		if o.WindowID == t.WindowID && !owns(g, o, byID) {
			return false
		}
	}
	return s.SelectTab(ctx, tabID) == nil
}

// outside reports whether a call names a tab that is not in the workspace's group.
func (w *workspace) outside(ctx context.Context, _ tool.Tool, args json.RawMessage) bool {
	var a struct {
		TabID  int   `json:"tabId"`
		TabIDs []int `json:"tabIds"`
	}
	_ = json.Unmarshal(args, &a)
	ids := a.TabIDs
	if a.TabID > 0 {
		ids = append(ids, a.TabID)
	}
	if len(ids) == 0 {
		return false
	}
	g := w.groupID()
	all, err := w.Browser.Tabs(ctx, 0)
	if err != nil {
		return true
	}
	byID := tabsByID(all)
	for _, id := range ids {
		t, ok := byID[id]
		if !ok {
			continue // no such tab: the tool says so
		}
		if !owns(g, t, byID) {
			return true
		}
	}
	return false
}
