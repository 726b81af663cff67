package core

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// Which extension page a connection comes from decides its role; any other page has none.
func TestPageRole(t *testing.T) {
	for path, want := range map[string]Role{
		"/panel/index.html": RolePanel, "/panel/index.html?tab=1": RolePanel, "/panel/overlay.html#x": RoleOverlay,
		"/panel/other.html": "", "/panel/index.htm": "", "https://evil.test/panel/index.html": "", "": "",
	} {
		got, ok := PageRole(path)
		assert.Equal(t, want, got, path)
		assert.Equal(t, want != "", ok, path)
	}
	for name := range overlayMay {
		_, ok := methodFor(name)
		assert.True(t, ok, "overlayMay names %q, which is not a method", name)
	}
}

// The overlay lives in a frame a hostile page embeds: it chats (a real stream, stored) and is
// refused everything else, with a sentence; it is not told the chats, the outside questions or
// the link, and no question is pushed to it.
func TestOverlayMayOnlyChat(t *testing.T) {
	srv := testkit.Replay(t, "anthropic/text.sse", 0)
	c := newCore(t, store.NewMemKV(), "anthropic", srv.URL)
	side, over := &panel{}, &panel{role: RoleOverlay}
	c.Connect(side)
	c.Connect(over)
	r := side.call(t, c, "chat.send", obj{"text": "an earlier chat"})
	require.Equal(t, true, r["ok"], r)
	side.waitFor(t, "chat.done")

	for _, m := range []struct {
		name   string
		params any
	}{
		{"tool.decide", obj{"id": "x", "decision": "allow_always"}},
		{"settings.save", obj{"settings": obj{}}},
		{"permission.set", obj{"tool": "*", "origin": "https://evil.test", "decision": "allow_always"}},
		{"permission.list", nil}, {"audit.export", nil}, {"asks.list", nil},
		{"session.list", nil}, {"session.search", obj{"query": "earlier"}}, {"session.export", obj{"format": "json"}},
		{"session.delete", obj{"sessionId": "x"}}, {"memory.list", nil}, {"files.list", obj{}}, {"link.retry", nil},
	} {
		r := over.call(t, c, m.name, m.params)
		assert.Equal(t, false, r["ok"], m.name)
		if e, ok := r["error"].(map[string]any); assert.True(t, ok, m.name) {
			assert.Equal(t, "This can only be done in Skiff's side panel. Open it from the toolbar's Skiff button.", e["message"], m.name)
		}
	}
	pol, err := c.Store.Policies(context.Background())
	require.NoError(t, err)
	assert.Empty(t, pol, "a refused permission.set changed the policies")

	st := over.call(t, c, "core.hello", nil)["result"].(map[string]any)
	assert.Nil(t, st["sessions"])
	assert.Nil(t, st["asks"])
	assert.Nil(t, st["active"])
	assert.NotContains(t, mustJSON(st), "an earlier chat")
	full := side.call(t, c, "core.hello", nil)["result"].(map[string]any)
	assert.Len(t, full["sessions"], 1)

	r = over.call(t, c, "chat.send", obj{"text": "Say hi in Portuguese"})
	require.Equal(t, true, r["ok"], r)
	done := over.waitFor(t, "chat.done")
	assert.True(t, strings.HasPrefix(done["message"].(map[string]any)["content"].(string), "Olá!"))

	(*askers)(c).Questions(context.Background(), []permission.Question{{ID: "q1", Tool: "click"}})
	side.waitFor(t, UpdateAsks)
	assert.Empty(t, over.find(UpdateAsks), "a question was pushed to the overlay")
	assert.Equal(t, 1, c.panels(), "the overlay counts as a panel that can answer")
}

// Each panel's permissions view reads a list, in an incognito window's panel too, with no
// policy at all; an Always set there is that window's, and the other panels do not see it.
func TestPermissionsAsEachWindowSeesThem(t *testing.T) {
	c := newCore(t, store.NewMemKV(), "openai", "http://127.0.0.1:1")
	p := &panel{}
	c.Connect(p)
	for _, private := range []bool{false, true} {
		r := p.callOK(t, c, "permission.list", obj{"private": private}).(map[string]any)
		assert.Equal(t, []any{}, r["policies"], "private %v", private)
	}
	p.callOK(t, c, "permission.set", obj{"tool": "act:*", "origin": "https://shop.example", "decision": "allow_always", "private": true})
	kept := p.callOK(t, c, "permission.list", nil).(map[string]any)
	assert.Equal(t, []any{}, kept["policies"])
	seen := p.callOK(t, c, "permission.list", obj{"private": true}).(map[string]any)
	require.Len(t, seen["policies"], 1)
	assert.Equal(t, true, seen["policies"].([]any)[0].(map[string]any)["private"])
}
