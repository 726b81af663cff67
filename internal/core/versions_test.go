package core

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// Regenerate keeps the reply it replaces as a version of the new one: the user can go back to
// an earlier version, which is then the one the model reads, in every panel; only the last
// reply's versions are shown, not while the chat runs, and ten at most are kept.
func TestRegenerateKeepsVersions(t *testing.T) {
	n := 0
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		n++
		return testkit.Turn{Text: fmt.Sprintf("Answer %d.", n)}
	})
	c := newCore(t, store.NewMemKV(), "openai", model.URL)
	ctx := context.Background()
	p := &panel{}
	c.Connect(p)
	sid := p.callOK(t, c, "chat.send", obj{"text": "Name a boat."}).(map[string]any)["sessionId"].(string)
	p.waitFor(t, "chat.done")
	for range 2 {
		p.reset()
		p.callOK(t, c, "chat.regenerate", obj{"sessionId": sid})
		p.waitFor(t, "chat.done")
	}
	ses, err := c.Store.Session(ctx, sid)
	require.NoError(t, err)
	require.Len(t, ses.Messages, 2)
	reply := ses.Messages[1]
	assert.Equal(t, "Answer 3.", reply.Content)
	require.Len(t, reply.Versions, 2)
	assert.Equal(t, []string{"Answer 1.", "Answer 2."}, []string{reply.Versions[0].Content, reply.Versions[1].Content})
	assert.Equal(t, 2, reply.Version)

	// Back to the first: every panel is told, and the model reads it from then on.
	p.reset()
	m := p.callOK(t, c, "chat.version", obj{"sessionId": sid, "messageId": reply.ID, "version": 0}).(map[string]any)
	assert.Equal(t, "Answer 1.", m["content"])
	assert.Equal(t, reply.ID, m["id"])
	assert.Nil(t, m["version"], "the first version is at 0")
	pushed := p.waitFor(t, "chat.message")["message"].(map[string]any)
	assert.Equal(t, "Answer 1.", pushed["content"])
	// A regenerate from there keeps all three and adds the fourth last.
	p.reset()
	p.callOK(t, c, "chat.regenerate", obj{"sessionId": sid})
	p.waitFor(t, "chat.done")
	ses, err = c.Store.Session(ctx, sid)
	require.NoError(t, err)
	var order []string
	for _, v := range ses.Messages[1].Versions {
		order = append(order, v.Content)
	}
	assert.Equal(t, []string{"Answer 1.", "Answer 2.", "Answer 3."}, order, "the versions in the order they were written")
	assert.Equal(t, "Answer 4.", ses.Messages[1].Content)
	p.callOK(t, c, "chat.version", obj{"sessionId": sid, "messageId": ses.Messages[1].ID, "version": 1})
	p.reset()
	p.callOK(t, c, "chat.send", obj{"sessionId": sid, "text": "Another?"})
	p.waitFor(t, "chat.done")
	convs := model.Conversations()
	asked := convs[len(convs)-1].Messages
	require.Len(t, asked, 3)
	assert.Equal(t, "Answer 2.", asked[1].Text, "the model read another version than the one shown")

	// Not an earlier reply's, not one out of range.
	r := p.call(t, c, "chat.version", obj{"sessionId": sid, "messageId": ses.Messages[1].ID, "version": 0})
	require.NotNil(t, r["error"], "an earlier reply's version was shown: %v", r)
	assert.Equal(t, "errNoVersions", r["error"].(map[string]any)["text"].(map[string]any)["key"])
	ses, err = c.Store.Session(ctx, sid)
	require.NoError(t, err)
	last := ses.Messages[len(ses.Messages)-1]
	r = p.call(t, c, "chat.version", obj{"sessionId": sid, "messageId": last.ID, "version": 3})
	require.NotNil(t, r["error"], "a version that is not there: %v", r)

	// At most ten are kept.
	for range 12 {
		p.reset()
		p.callOK(t, c, "chat.regenerate", obj{"sessionId": sid})
		p.waitFor(t, "chat.done")
	}
	ses, err = c.Store.Session(ctx, sid)
	require.NoError(t, err)
	last = ses.Messages[len(ses.Messages)-1]
	assert.Len(t, last.Versions, 9)
	assert.Equal(t, 9, last.Version)
}
