package core

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/tool"
)

// internalLooking is how a Go error reads when it leaks: "pkg: lower-case detail".
var internalLooking = regexp.MustCompile(`^[a-z]+: |: [a-z]+: `)

func TestErrorsReachThePanelAsSentences(t *testing.T) {
	srv := testkit.Replay(t, "openai/text_usage.sse", 30*time.Millisecond)
	c := newCore(t, store.NewMemKV(), "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	sid := p.callOK(t, c, "chat.send", obj{"text": "weather?"}).(map[string]any)["sessionId"].(string)

	tests := []struct {
		typ    string
		params any
		want   string
	}{
		{"session.open", obj{"sessionId": "nope"}, "This chat no longer exists; it may have been deleted in another window."},
		{"chat.regenerate", obj{"sessionId": "nope"}, "This chat no longer exists; it may have been deleted in another window."},
		{"queue.edit", obj{"sessionId": sid, "id": "nope", "text": "x"}, "That message is no longer waiting: it has been sent or removed."},
		{"queue.send", obj{"sessionId": sid}, "Skiff is still replying in this chat; the waiting messages are sent when it finishes."},
		{"chat.send", obj{"text": "   "}, "Type a message first."},
		{"memory.update", obj{"memoryId": "nope", "content": "x"}, "This memory no longer exists; it may have been deleted in another window."},
		{"session.export", obj{"format": "pdf"}, "Skiff cannot export as “pdf”; choose JSON or Markdown."},
		{"session.fly", nil, "Skiff's panel asked for “session.fly”, which this version of the core does not know. Reload the panel."},
		{"session.open", []int{1}, "Skiff's panel sent a request the core cannot read"},
		{"settings.save", obj{}, "Skiff's panel sent no settings to save. Reload the panel."},
	}
	for _, tt := range tests {
		r := p.call(t, c, tt.typ, tt.params)
		require.Equal(t, false, r["ok"], "%s %v", tt.typ, tt.params)
		e := r["error"].(map[string]any)
		msg := e["message"].(string)
		assert.Contains(t, msg, tt.want, tt.typ)
		assert.NotRegexp(t, internalLooking, msg, tt.typ)
		// The panel renders the same sentence in the user's language: a key the catalogs hold.
		text, _ := e["text"].(map[string]any)
		require.NotNil(t, text, tt.typ)
		key, _ := text["key"].(string)
		_, ok := catalogs(t)["fr"][key]
		assert.True(t, ok, "%s: the catalogs have no %q", tt.typ, key)
	}
}

func TestSentence(t *testing.T) {
	tests := []struct {
		err      error
		msg, fld string
	}{
		{&store.FieldError{Field: "temperature", Message: "must be between 0 and 2"}, "must be between 0 and 2", "temperature"},
		{errors.Join(errors.New("set session/x"), store.ErrQuota), "Skiff's storage is full. Delete old chats in History (export them first if you want to keep them) and try again.", ""},
		{store.ErrMemoryFull, "Skiff keeps the chats of incognito windows in memory, and that memory is full (10 MB). Delete some of them in History, or close the incognito windows, which drops them all.", ""},
		{&store.CorruptError{What: "the settings", Key: "settings", Err: errors.New("bad")}, "Part of Skiff's saved data (the settings) is damaged and cannot be read.", ""},
		{context.DeadlineExceeded, "That took too long, so Skiff stopped waiting.", ""},
		{errors.New("something odd"), "Skiff could not do that: something odd.", ""},
	}
	for _, tt := range tests {
		msg, fld := Sentence(tt.err)
		assert.Equal(t, tt.msg, msg)
		assert.Equal(t, tt.fld, fld)
	}
	// A corrupt session names the chat.
	kv := store.NewMemKV()
	st, err := store.Open(context.Background(), kv)
	require.NoError(t, err)
	require.NoError(t, st.SaveSession(context.Background(), &store.Session{Header: store.Header{ID: "a", Title: "Paris"}}))
	require.NoError(t, kv.Set(context.Background(), map[string][]byte{"session/a": []byte("{")}))
	_, err = st.AllSessions(context.Background())
	msg, _ := Sentence(err)
	assert.Equal(t, "Part of Skiff's saved data (the chat “Paris”) is damaged and cannot be read.", msg)
}

// The page chip on a file:// page Skiff may not read says how to allow it.
func TestAFilePageChipSaysHowToAllowIt(t *testing.T) {
	assert.Equal(t, sayNoFileAccess.English, pageProblem(fmt.Errorf("%w (Cannot access contents of url \"file:///x.html\")", tool.ErrNoFileAccess)).English())
	assert.Equal(t, sayRestricted.English, pageProblem(fmt.Errorf("%w (chrome://version)", tool.ErrRestricted)).English())
}

// Storage that fills up while a reply streams stops the reply, and the reply says why as a
// sentence (in the user's language), never as the store's own words.
func TestAFullStorageIsSaidOnTheReply(t *testing.T) {
	srv := testkit.Replay(t, "openai/text_usage.sse", 30*time.Millisecond)
	disk := store.NewMemKV()
	c := newCore(t, disk, "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	p.callOK(t, c, "chat.send", obj{"text": "weather?"})
	for len(p.find("chat.delta")) < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	disk.SetLimit(1)
	msg := p.waitFor(t, "chat.done")["message"].(map[string]any)
	assert.Equal(t, "error", msg["status"])
	e := msg["error"].(map[string]any)
	assert.Equal(t, "storage", e["kind"])
	assert.Equal(t, "Could not save the reply: Skiff's storage is full. Delete old chats in History (export them first if you want to keep them) and try again.", e["message"])
	assert.NotRegexp(t, internalLooking, e["message"])
	text := e["text"].(map[string]any)
	assert.Equal(t, "errSaveReply", text["key"])
	assert.Equal(t, "errStorageFull", text["args"].([]any)[0].(map[string]any)["key"], "the storage's sentence goes in as a sentence, for the panel to say in French")
	assert.NotEmpty(t, msg["content"], "the words that came are still shown")
}
