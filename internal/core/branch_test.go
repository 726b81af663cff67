package core

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// Branch goes on from a reply in a new chat: a copy of the chat up to that reply, which the
// model then reads as the history, while the chat itself stays as it was. Its pictures are
// copies (deleting the chat leaves the branch's), a private chat's branch is private, an
// earlier message edited goes to a branch too, and what cannot be branched says why.
func TestBranchGoesOnFromAReply(t *testing.T) {
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		return testkit.Turn{Text: "About " + c.Messages[len(c.Messages)-1].Text + "."}
	})
	c := newCore(t, store.NewMemKV(), "openai", model.URL)
	ctx := context.Background()
	p := &panel{}
	c.Connect(p)
	sid := p.callOK(t, c, "chat.send", obj{"text": "first", "images": []obj{{"name": "square.png", "mime": "image/png", "data": pngBytes}}}).(map[string]any)["sessionId"].(string)
	p.waitFor(t, "chat.done")
	p.reset()
	p.callOK(t, c, "chat.send", obj{"sessionId": sid, "text": "second"})
	p.waitFor(t, "chat.done")
	src, err := c.Store.Session(ctx, sid)
	require.NoError(t, err)
	require.Len(t, src.Messages, 4)

	p.reset()
	b := p.callOK(t, c, "session.branch", obj{"sessionId": sid, "messageId": src.Messages[1].ID}).(map[string]any)
	p.waitFor(t, "sessions.changed")
	bid := b["id"].(string)
	assert.NotEqual(t, sid, bid)
	assert.Equal(t, "↳ "+src.Title, b["title"])
	assert.Equal(t, map[string]any{"id": sid, "title": src.Title}, b["branchOf"], "the branch names the chat it came from")
	msgs := b["messages"].([]any)
	require.Len(t, msgs, 2, "the branch holds the chat up to the reply")
	assert.Equal(t, "About first.", msgs[1].(map[string]any)["content"])
	st := p.callOK(t, c, "core.hello", nil).(map[string]any)
	assert.Equal(t, bid, st["active"].(map[string]any)["id"], "the branch is the chat shown")

	// Its picture is a copy: the chat's deleted, the branch's is still there.
	branched, err := c.Store.Session(ctx, bid)
	require.NoError(t, err)
	require.Len(t, branched.Messages[0].Images, 1)
	assert.NotEqual(t, src.Messages[0].Images[0], branched.Messages[0].Images[0])
	assert.NotEqual(t, src.Messages[0].ID, branched.Messages[0].ID)

	// The model reads the branch's history, and the chat it came from is as it was.
	p.reset()
	p.callOK(t, c, "chat.send", obj{"sessionId": bid, "text": "another way"})
	p.waitFor(t, "chat.done")
	convs := model.Conversations()
	last := convs[len(convs)-1].Messages
	var said []string
	for _, m := range last {
		said = append(said, m.Role+": "+strings.TrimSpace(m.Text))
	}
	require.Len(t, last, 3, "%q", said)
	assert.Contains(t, said[0], "first")
	assert.Equal(t, 1, last[0].Images, "the picture went with the branch's first message")
	assert.Equal(t, "assistant: About first.", said[1])
	assert.Contains(t, said[2], "another way")
	src2, err := c.Store.Session(ctx, sid)
	require.NoError(t, err)
	assert.Len(t, src2.Messages, 4)

	p.callOK(t, c, "session.delete", obj{"sessionId": sid})
	img := p.callOK(t, c, "tool.image", obj{"imageId": branched.Messages[0].Images[0]}).(map[string]any)
	assert.Equal(t, "image/png", img["mime"])

	// An earlier message of the user's, edited: a branch of the messages before it and the new
	// words, which chat.regenerate answers; its picture goes with it, the title follows.
	p.reset()
	e := p.callOK(t, c, "session.branch", obj{"sessionId": bid, "messageId": branched.Messages[0].ID, "text": "first, said otherwise"}).(map[string]any)
	eid := e["id"].(string)
	require.Len(t, e["messages"].([]any), 1)
	assert.Equal(t, "↳ first, said otherwise", e["title"])
	p.callOK(t, c, "chat.regenerate", obj{"sessionId": eid})
	p.waitFor(t, "chat.done")
	convs = model.Conversations()
	last = convs[len(convs)-1].Messages
	require.Len(t, last, 1, "%+v", last)
	assert.Contains(t, last[0].Text, "first, said otherwise")
	assert.Equal(t, 1, last[0].Images)
	edited, err := c.Store.Session(ctx, eid)
	require.NoError(t, err)
	require.Len(t, edited.Messages, 2)
	assert.Equal(t, "About first, said otherwise.", edited.Messages[1].Content)
	b2, err := c.Store.Session(ctx, bid)
	require.NoError(t, err)
	assert.Len(t, b2.Messages, 4, "the chat it came from changed")
	assert.Equal(t, "first", b2.Messages[0].Content)

	// What cannot be branched: a message that is not a reply, one that is gone, a chat that is.
	refused := func(params obj, key string) {
		t.Helper()
		r := p.call(t, c, "session.branch", params)
		e, ok := r["error"].(map[string]any)
		require.True(t, ok, "branched: %v", r)
		if key != "" {
			assert.Equal(t, key, e["text"].(map[string]any)["key"], e)
		}
	}
	refused(obj{"sessionId": bid, "messageId": branched.Messages[0].ID}, "") // a message of the user's without new words
	r := p.callOK(t, c, "session.list", nil).([]any)
	assert.Len(t, r, 2, "a refused branch left a chat")
	tool := b2.Messages[1]
	tool.Role, tool.ID = "tool", "t1"
	b2.Messages = append(b2.Messages, tool)
	require.NoError(t, c.Store.SaveSession(ctx, b2))
	refused(obj{"sessionId": bid, "messageId": "t1"}, "errBranchNotAReply")
	refused(obj{"sessionId": bid, "messageId": "gone"}, "errBranchNoReply")
	refused(obj{"sessionId": sid, "messageId": src.Messages[1].ID}, "")

	// A chat with an agent skiffd hosts: the agent keeps its own history, which a copy would not.
	hosted, err := c.Store.Session(ctx, bid)
	require.NoError(t, err)
	hosted.Provider = "acp:gemini"
	require.NoError(t, c.Store.SaveSession(ctx, hosted))
	refused(obj{"sessionId": bid, "messageId": hosted.Messages[1].ID}, "errBranchHosted")

	// A private chat's branch is private.
	priv := p.callOK(t, c, "session.new", obj{"private": true}).(map[string]any)["id"].(string)
	require.True(t, store.Private(priv))
	p.reset()
	p.callOK(t, c, "chat.send", obj{"sessionId": priv, "text": "secret"})
	p.waitFor(t, "chat.done")
	ps, err := c.Store.Session(ctx, priv)
	require.NoError(t, err)
	pb := p.callOK(t, c, "session.branch", obj{"sessionId": priv, "messageId": ps.Messages[1].ID}).(map[string]any)
	assert.True(t, store.Private(pb["id"].(string)), "a private chat's branch was kept: %v", pb["id"])
}
