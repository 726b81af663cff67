package core

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// waitIdle waits until session sid has n messages and no run: the session is read after
// seeing no run (read first, it could be a snapshot from before the run's last save).
func waitIdle(t *testing.T, c *Core, sid string, n int) *store.Session {
	t.Helper()
	var ses *store.Session
	require.Eventually(t, func() bool {
		if c.Engine.Running(sid) {
			return false
		}
		s, err := c.Engine.Session(context.Background(), sid)
		ses = s
		return err == nil && !c.Engine.Running(sid) && len(s.Messages) >= n
	}, 10*time.Second, 5*time.Millisecond)
	return ses
}

// TestQueuedMessagesGoInOrder: messages sent while a reply is being written wait in the chat's
// queue, can be changed or removed there, and are sent one after another, in order, each after
// the reply before it; the queue is kept in storage, so a worker that restarts still has it.
func TestQueuedMessagesGoInOrder(t *testing.T) {
	srv, release := testkit.Held(t, "openai/text_usage.sse")
	kv := store.NewMemKV()
	c := newCore(t, kv, "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	sid := p.callOK(t, c, "chat.send", obj{"text": "one"}).(map[string]any)["sessionId"].(string)
	for _, text := range []string{"two", "three", "four"} {
		r := p.callOK(t, c, "chat.send", obj{"sessionId": sid, "text": text}).(map[string]any)
		require.Equal(t, true, r["queued"], text)
	}
	q := p.callOK(t, c, "queue.list", obj{"sessionId": sid}).([]any)
	require.Len(t, q, 3)
	id := func(i int) string { return q[i].(map[string]any)["id"].(string) }
	p.callOK(t, c, "queue.edit", obj{"sessionId": sid, "id": id(1), "text": "three, edited"})
	left := p.callOK(t, c, "queue.edit", obj{"sessionId": sid, "id": id(2), "text": ""}).([]any)
	require.Len(t, left, 2)
	assert.NotEmpty(t, p.find("chat.queue"), "the panels are told what waits")

	// A worker that restarts finds the queue where it was.
	again := New(context.Background(), kv, testkit.Doer{}, nil, nil)
	kept, err := again.Store.Queue(context.Background(), sid)
	require.NoError(t, err)
	require.Len(t, kept, 2)
	assert.Equal(t, "three, edited", kept[1].Text)

	close(release)
	ses := waitIdle(t, c, sid, 6)
	var users []string
	for _, m := range ses.Messages {
		if m.Role == "user" {
			users = append(users, m.Content)
		} else {
			assert.Empty(t, m.Status, "reply %q", m.Content)
		}
	}
	assert.Equal(t, []string{"one", "two", "three, edited"}, users)
	assert.Equal(t, []string{"one", "two", "three, edited"}, srv.UserTexts(t))
	empty := p.callOK(t, c, "queue.list", obj{"sessionId": sid}).([]any)
	assert.Empty(t, empty)
}

// TestStopKeepsTheQueue: after Stop nothing waiting is sent on its own; the user sends it (or
// removes it), and what follows goes on in order.
func TestStopKeepsTheQueue(t *testing.T) {
	srv, _ := testkit.Held(t, "openai/text_usage.sse")
	c := newCore(t, store.NewMemKV(), "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	sid := p.callOK(t, c, "chat.send", obj{"text": "one"}).(map[string]any)["sessionId"].(string)
	p.callOK(t, c, "chat.send", obj{"sessionId": sid, "text": "two"})
	p.callOK(t, c, "chat.send", obj{"sessionId": sid, "text": "three"})
	r := p.call(t, c, "queue.send", obj{"sessionId": sid})
	assert.Equal(t, false, r["ok"], "queue.send while a reply is being written")
	p.callOK(t, c, "chat.stop", obj{"sessionId": sid})
	ses := waitIdle(t, c, sid, 2)
	require.Len(t, ses.Messages, 2)
	assert.Equal(t, store.StatusStopped, ses.Messages[1].Status)
	q, err := c.Store.Queue(context.Background(), sid)
	require.NoError(t, err)
	require.Len(t, q, 2, "Stop sent the queue")

	started := p.callOK(t, c, "queue.send", obj{"sessionId": sid}).(map[string]any)
	assert.Nil(t, started["queued"], "queue.send started a run; it queued nothing")
	ses = waitIdle(t, c, sid, 6)
	assert.Equal(t, []string{"one", "two", "three"}, srv.UserTexts(t))
	assert.Len(t, ses.Messages, 6)
	q, _ = c.Store.Queue(context.Background(), sid)
	assert.Empty(t, q)
}

// A message that waits in the queue keeps the file attached to it: it reaches the model with
// the message when its turn comes.
func TestAQueuedMessageKeepsItsFile(t *testing.T) {
	srv, release := testkit.Held(t, "openai/text_usage.sse")
	c := newCore(t, store.NewMemKV(), "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	sid := p.callOK(t, c, "chat.send", obj{"text": "one"}).(map[string]any)["sessionId"].(string)
	r := p.callOK(t, c, "chat.send", obj{"sessionId": sid, "text": "two", "images": []obj{{"name": "plan.txt", "mime": "text/plain", "data": []byte("QUEUED-5e0a: the plan")}}}).(map[string]any)
	require.Equal(t, true, r["queued"])
	close(release)
	waitIdle(t, c, sid, 4)
	texts := srv.UserTexts(t)
	require.Len(t, texts, 2)
	assert.Equal(t, "one", texts[0])
	assert.Contains(t, texts[1], "two")
	assert.Contains(t, texts[1], "QUEUED-5e0a: the plan")
	assert.Contains(t, texts[1], `name="plan.txt"`)
}
