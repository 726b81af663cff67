package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoWindows is a browser with a tab in a normal window and one in an incognito window, the
// last focused.
type twoWindows struct{ Browser }

func (twoWindows) Tabs(context.Context, int) ([]Tab, error) {
	return []Tab{
		{ID: 1, WindowID: 10, URL: "https://kept.example/", Title: "Kept", Active: true},
		{ID: 2, WindowID: 20, URL: "https://secret.example/", Title: "Secret", Active: true, Incognito: true},
	}, nil
}

func (b twoWindows) Tab(ctx context.Context, id int) (Tab, error) {
	ts, _ := b.Tabs(ctx, 0)
	for _, t := range ts {
		if t.ID == id {
			return t, nil
		}
	}
	return Tab{}, ErrNoTab
}

func (b twoWindows) ActiveTab(ctx context.Context, w int) (Tab, error) {
	if w == 10 {
		return b.Tab(ctx, 1)
	}
	return b.Tab(ctx, 2)
}

// A run whose chat is kept on this computer, or an outside agent, has no incognito tab: it is
// not listed, a call naming it is refused, and the tab in front being incognito is refused too;
// a private chat's run has them all.
func TestIncognitoTabsAreOnlyForPrivateChats(t *testing.T) {
	ctx := context.Background()
	kept := NewEnv(twoWindows{}, 0, 0)
	r, err := tabsList(ctx, kept, &TabsListInput{}, nil)
	require.NoError(t, err)
	assert.Contains(t, r.Text, "kept.example")
	assert.NotContains(t, r.Text, "secret")
	_, err = kept.tab(ctx, 2)
	assert.ErrorIs(t, err, ErrIncognito)
	_, err = kept.tab(ctx, 0) // the last focused window is the incognito one
	assert.ErrorIs(t, err, ErrIncognito)
	assert.ErrorIs(t, kept.mine(ctx, 1, 2), ErrIncognito)
	_, err = tabSwitch(ctx, kept, &TabInput{TabID: 2}, nil)
	assert.ErrorIs(t, err, ErrIncognito)
	got, err := NewEnv(twoWindows{}, 0, 10).tab(ctx, 0)
	require.NoError(t, err)
	assert.Equal(t, 1, got.ID)

	private := NewEnv(twoWindows{}, 0, 0)
	private.Incognito = true
	r, err = tabsList(ctx, private, &TabsListInput{}, nil)
	require.NoError(t, err)
	assert.Contains(t, r.Text, "secret.example")
	got, err = private.tab(ctx, 0)
	require.NoError(t, err)
	assert.Equal(t, 2, got.ID)
	assert.NoError(t, private.mine(ctx, 2))
}

// replaced is a tab whose top document is being replaced as it is first asked (a navigation
// committing): Chrome answers "Frame with ID 0 was removed" that once.
type replaced struct {
	twoWindows
	asked int
}

func (b *replaced) Script(_ context.Context, s Script) ([]FrameResult, error) {
	b.asked++
	if b.asked == 1 {
		return nil, fmt.Errorf("%w (executeScript: Frame with ID 0 was removed.)", ErrNoFrame)
	}
	return []FrameResult{{FrameID: 0, Result: json.RawMessage(`{"url":"https://kept.example/","title":"Kept","text":"The page, read.","readable":true}`)}}, nil
}

// A page asked while its document was being replaced is asked again a moment later, and read.
func TestATabWhoseDocumentWasReplacedIsAskedAgain(t *testing.T) {
	b := &replaced{}
	r, err := NewEnv(b, 0, 0).Read(context.Background(), 1)
	require.NoError(t, err)
	assert.Equal(t, "The page, read.", r.Text)
	assert.Equal(t, 2, b.asked)
}

// closing is a browser whose tab 1 is still listed for the first lookups after a command in
// it failed, then gone: a window closing itself as the command was on its way.
type closing struct {
	twoWindows
	lookups int
}

func (b *closing) Tab(ctx context.Context, id int) (Tab, error) {
	if id == 1 && b.lookups <= 0 {
		return Tab{}, ErrNoTab
	}
	b.lookups--
	return b.twoWindows.Tab(ctx, id)
}

// A command on its way as its tab closes fails with the debugger coming off, not "no such
// tab": that is the tab closing once the tab is gone, and Skiff losing hold of it while it
// stays.
func TestATabClosingUnderACommandIsToldFromLosingIt(t *testing.T) {
	ctx := context.Background()
	detached := fmt.Errorf("%w (Detached while handling command.)", ErrDetached)
	assert.True(t, NewEnv(&closing{lookups: 3}, 0, 0).closedUnder(ctx, 1, detached))
	assert.True(t, NewEnv(&closing{}, 0, 0).closedUnder(ctx, 1, ErrNoTab))
	assert.False(t, NewEnv(&closing{lookups: 100}, 0, 0).closedUnder(ctx, 1, detached), "a tab that stays")
	assert.False(t, NewEnv(&closing{lookups: 1}, 0, 0).closedUnder(ctx, 1, ErrNoTab), "no such tab, but it is there")
	assert.False(t, NewEnv(&closing{}, 0, 0).closedUnder(ctx, 1, ErrNoFrame))
}
