package core

import (
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
