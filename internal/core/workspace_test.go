package core

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/skiff-ai/skiff/internal/tool"
)

// A client's tabs are its group's, and the windows no group can hold that they opened (a
// sign-in popup, and what that popup opened); a tab of another group, or one the user opened,
// is not, whoever opened it.
func TestAWorkspaceOwnsThePopupsItsTabsOpen(t *testing.T) {
	tabs := []tool.Tab{
		{ID: 1, GroupID: 7},
		{ID: 2, GroupID: -1, Opener: 1},  // a popup its tab opened
		{ID: 3, GroupID: -1, Opener: 2},  // a window the popup opened
		{ID: 4, GroupID: -1},             // the user's own tab
		{ID: 5, GroupID: 9, Opener: 1},   // moved to another group
		{ID: 6, GroupID: -1, Opener: 4},  // opened by the user's tab
		{ID: 7, GroupID: -1, Opener: 99}, // its opener is gone
		{ID: 8, GroupID: -1, Opener: 8},  // a loop
	}
	byID := map[int]tool.Tab{}
	for _, tb := range tabs {
		byID[tb.ID] = tb
	}
	want := map[int]bool{1: true, 2: true, 3: true}
	for _, tb := range tabs {
		assert.Equal(t, want[tb.ID], owns(7, tb, byID), "tab %d", tb.ID)
		assert.False(t, owns(-1, tb, byID), "tab %d with no group yet", tb.ID)
	}
}

// tabsOnly is a browser of fixed tabs that records which tab it brought to the front.
type tabsOnly struct {
	tool.Browser
	tabs     []tool.Tab
	selected []int
}

func (b *tabsOnly) Tabs(context.Context, int) ([]tool.Tab, error) { return b.tabs, nil }

func (b *tabsOnly) SelectTab(_ context.Context, id int) error {
	b.selected = append(b.selected, id)
	return nil
}

// A client's tab behind another is brought to the front for it only in a window that is all
// the client's: a tab of its in a window of the user's stays behind (the user is looking at
// that window), and a tab that is not the client's is never brought forward.
func TestAWorkspaceBringsItsTabForwardOnlyInItsOwnWindow(t *testing.T) {
	b := &tabsOnly{tabs: []tool.Tab{
		{ID: 1, WindowID: 10, GroupID: 7},
		{ID: 2, WindowID: 10, GroupID: 7, Active: true, Opener: 1},
		{ID: 3, WindowID: 20, GroupID: 7}, // dragged into the user's window, group and all
		{ID: 4, WindowID: 20, GroupID: -1, Active: true},
		{ID: 5, WindowID: 30, GroupID: -1},
	}}
	w := &workspace{Browser: b, group: 7}
	ctx := context.Background()
	assert.True(t, w.Front(ctx, 1))
	assert.False(t, w.Front(ctx, 3), "a tab in the user's window")
	assert.False(t, w.Front(ctx, 5), "the user's tab")
	assert.False(t, w.Front(ctx, 99), "no such tab")
	assert.Equal(t, []int{1}, b.selected)
}
