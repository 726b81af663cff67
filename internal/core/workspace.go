package core

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"sync"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/tool"
)

// workspace is an outside client's own part of the browser: a tab group named after it. The
// client's tools see the browser through it: its "active tab" is the group's, tabs it opens
// join the group, tabs_list lists the group. A call that names a tab outside the group is not
// blocked here: the gate asks the user (agent.Call.Outside). A tab the user drags into the
// group becomes the client's.
type workspace struct {
	tool.Browser
	name string
	task *agent.Task

	mu    sync.Mutex
	group int // -1 until the first tab
}

var groupColors = [...]string{"blue", "purple", "cyan", "green", "orange", "pink", "yellow", "red", "grey"}

func newWorkspace(b tool.Browser, name string) *workspace {
	w := &workspace{Browser: b, name: name, group: -1}
	w.task = &agent.Task{Who: name, Env: tool.NewEnv(w, 0, 0), Outside: w.outside}
	return w
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
	w.group = gid
	w.mu.Unlock()
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
	var out []tool.Tab
	for _, t := range all {
		if t.GroupID == g {
			out = append(out, t)
		}
	}
	return out, nil
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
	g := w.groupID()
	for _, id := range ids {
		t, err := w.Browser.Tab(ctx, id)
		if err != nil {
			continue // no such tab: the tool says so
		}
		if g < 0 || t.GroupID != g {
			return true
		}
	}
	return false
}
