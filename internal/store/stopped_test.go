package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// A chat being deleted when the worker stops, at any of the delete's writes: the next worker
// finishes it. Nothing of the chat stays on disk (its words in its parts, its pictures and
// files, its queue, its pin), and the other chat is as it was.
func TestADeleteCutByAStoppedWorkerIsFinished(t *testing.T) {
	ctx := context.Background()
	for _, private := range []bool{false, true} {
		id, img, doc, queued := "gone", "img1", "doc-1", "img2"
		if private {
			id, img, doc, queued = store.PrivatePrefix+id, store.PrivatePrefix+img, store.PrivatePrefix+doc, store.PrivatePrefix+queued
		}
		start := func(s *store.Store) {
			long := strings.Repeat("secret words ", 6000) // several parts
			require.NoError(t, s.SaveSession(ctx, &store.Session{Header: store.Header{ID: "kept", Title: "kept"}, Messages: []store.Message{{ID: "k", Role: "user", Content: "hello"}}}))
			require.NoError(t, s.SaveSession(ctx, &store.Session{Header: store.Header{ID: id, Title: "gone"}, Messages: []store.Message{
				{ID: "1", Role: "user", Content: long, Images: []string{img, doc}},
				{ID: "2", Role: "assistant", Content: long},
				{ID: "3", Role: "user", Content: long},
			}}))
			require.NoError(t, s.SaveImage(ctx, img, store.StoredImage{Mime: "image/png", Data: []byte("png")}))
			require.NoError(t, s.SaveImage(ctx, doc, store.StoredImage{Mime: "application/pdf", Data: []byte("text"), Original: true}))
			require.NoError(t, s.SaveOriginal(ctx, doc, []byte("%PDF")))
			require.NoError(t, s.SaveImage(ctx, queued, store.StoredImage{Mime: "image/png", Data: []byte("png2")}))
			require.NoError(t, s.SetQueue(ctx, id, []store.Queued{{ID: "q", Text: "next", Images: []string{queued}}}))
			require.NoError(t, s.SaveDraft(ctx, id, &store.Message{ID: "4", Role: "assistant", Content: "draft"}))
			require.NoError(t, s.Pin(ctx, id, true))
		}
		stops := testkit.EveryStop(t, start, func(s *store.Store) error { return s.DeleteSession(ctx, id) }, func(t *testing.T, kv *store.MemKV, stopped bool) {
			assert.Empty(t, testkit.Unheld(t, kv), "left behind")
			s, err := store.Open(ctx, kv)
			require.NoError(t, err)
			idx, err := s.Sessions(ctx)
			require.NoError(t, err)
			kept, err := s.Session(ctx, "kept")
			require.NoError(t, err)
			assert.Equal(t, "hello", kept.Messages[0].Content)
			if len(idx) == 2 {
				return // stopped before the delete began: the chat is whole (Unheld checked its parts)
			}
			require.Len(t, idx, 1)
			for _, k := range kv.Keys() {
				assert.NotContains(t, k, "gone", "a key of the deleted chat")
				b, _ := kv.Get(ctx, k)
				assert.False(t, strings.Contains(string(b[k]), "secret words"), "%s holds the deleted chat's words", k)
				assert.False(t, strings.Contains(string(b[k]), id), "%s names the deleted chat", k)
			}
		})
		assert.Greater(t, stops, 3)
	}
}

// A save that made a long chat shorter, cut before it dropped the parts it no longer needs,
// leaves them past what the chat's head counts: deleting the chat deletes them too.
func TestADeletedChatTakesThePartsACutSaveLeft(t *testing.T) {
	ctx := context.Background()
	disk := store.NewMemKV()
	s, err := store.Open(ctx, disk)
	require.NoError(t, err)
	long := strings.Repeat("secret words ", 6000)
	ses := &store.Session{Header: store.Header{ID: "c", Title: "c"}, Messages: []store.Message{
		{ID: "1", Role: "user", Content: long}, {ID: "2", Role: "assistant", Content: long}, {ID: "3", Role: "user", Content: long},
	}}
	require.NoError(t, s.SaveSession(ctx, ses))
	ses.Messages = ses.Messages[:1]
	cut, err := store.Open(ctx, &testkit.StoppingKV{Disk: disk, Left: 1})
	require.NoError(t, err)
	require.Error(t, cut.SaveSession(ctx, ses))
	require.Contains(t, disk.Keys(), "part/c/1", "the cut save left no part behind: nothing to test")
	require.NoError(t, s.DeleteSession(ctx, "c"))
	for _, k := range disk.Keys() {
		b, _ := disk.Get(ctx, k)
		assert.False(t, strings.Contains(string(b[k]), "secret words"), "%s holds the deleted chat's words", k)
	}
}

// A list of changes under way that cannot be read never stops a delete: it is written again,
// and a start drops it.
func TestAnUnreadableListOfChangesStopsNothing(t *testing.T) {
	ctx := context.Background()
	disk := store.NewMemKV()
	s, err := store.Open(ctx, disk)
	require.NoError(t, err)
	require.NoError(t, s.SaveSession(ctx, &store.Session{Header: store.Header{ID: "c", Title: "c"}}))
	require.NoError(t, disk.Set(ctx, map[string][]byte{"pending": []byte("{not json")}))
	require.NoError(t, s.DeleteSession(ctx, "c"))
	assert.Empty(t, testkit.Unheld(t, disk))

	require.NoError(t, disk.Set(ctx, map[string][]byte{"pending": []byte("[1, 2")}))
	next, err := store.Open(ctx, disk)
	require.NoError(t, err)
	_, err = next.Recover(ctx)
	require.NoError(t, err)
	assert.NotContains(t, disk.Keys(), "pending")
}

// A change ends three ways, each leaving no note: Done keeps what it stored, Abandon deletes
// it (the message that was to hold it was not stored), Settle deletes what its chat does not
// hold.
func TestAChangeEndsWithoutItsNote(t *testing.T) {
	ctx := context.Background()
	disk := store.NewMemKV()
	s, err := store.Open(ctx, disk)
	require.NoError(t, err)
	pic := store.StoredImage{Mime: "image/png", Data: []byte("png")}
	require.NoError(t, s.SaveSession(ctx, &store.Session{Header: store.Header{ID: "c", Title: "c"}, Messages: []store.Message{{ID: "1", Role: "user", Content: "look", Images: []string{"held"}}}}))
	for _, id := range []string{"held", "gone", "kept", "abandoned"} {
		require.NoError(t, s.SaveImage(ctx, id, pic))
	}
	has := func(id string) bool { got, _ := s.Images(ctx, id); _, ok := got[id]; return ok }

	c, err := s.Begin(ctx, store.Pending{Session: "c", Images: []string{"kept"}})
	require.NoError(t, err)
	c.Done()
	assert.True(t, has("kept"))
	c, err = s.Begin(ctx, store.Pending{Session: "c", Images: []string{"abandoned"}})
	require.NoError(t, err)
	c.Abandon()
	assert.False(t, has("abandoned"))
	c, err = s.Begin(ctx, store.Pending{Session: "c", Images: []string{"held", "gone"}})
	require.NoError(t, err)
	c.Settle()
	assert.True(t, has("held"), "the chat holds it")
	assert.False(t, has("gone"))
	assert.NotContains(t, disk.Keys(), "pending")
	var none *store.Change // a change with nothing to note
	none.Done()
	none.Abandon()
	none.Settle()
}

// A save that makes a long chat shorter (an Edit or a Regenerate early in it), cut by a
// stopped worker at any of its writes: the chat reads as it was or as it is now, and no part
// it no longer counts stays on disk with the dropped messages' words.
func TestASaveThatShortensAChatLeavesNoPartBehind(t *testing.T) {
	ctx := context.Background()
	for _, private := range []bool{false, true} {
		id := "c"
		if private {
			id = store.PrivatePrefix + id
		}
		kept, cut := strings.Repeat("kept words ", 6000), strings.Repeat("cut words ", 6000)
		ses := func(n int) *store.Session {
			all := []store.Message{{ID: "1", Role: "user", Content: kept}, {ID: "2", Role: "assistant", Content: cut}, {ID: "3", Role: "user", Content: cut}}
			return &store.Session{Header: store.Header{ID: id, Title: "c"}, Messages: all[:n]}
		}
		start := func(s *store.Store) { require.NoError(t, s.SaveSession(ctx, ses(3))) }
		stops := testkit.EveryStop(t, start, func(s *store.Store) error { return s.SaveSession(ctx, ses(1)) }, func(t *testing.T, kv *store.MemKV, stopped bool) {
			assert.Empty(t, testkit.Unheld(t, kv), "left behind")
			s, err := store.Open(ctx, kv)
			require.NoError(t, err)
			got, err := s.Session(ctx, id)
			require.NoError(t, err)
			if len(got.Messages) == 3 {
				require.True(t, stopped)
				return // stopped before the new head was written: the chat is as it was
			}
			require.Len(t, got.Messages, 1)
			assert.Equal(t, kept, got.Messages[0].Content)
			for _, k := range kv.Keys() {
				b, _ := kv.Get(ctx, k)
				assert.False(t, strings.Contains(string(b[k]), "cut words"), "%s holds a dropped message's words", k)
			}
		})
		assert.Greater(t, stops, 2)
	}
}

// Deleting a chat from a list of chats long enough to be kept in parts, cut at any of its
// writes: no part of the list past what its head counts stays, with the deleted chat's title.
func TestADeleteThatShortensTheListLeavesNoPartBehind(t *testing.T) {
	ctx := context.Background()
	start := func(s *store.Store) {
		for i := range 63 {
			require.NoError(t, s.SaveSession(ctx, &store.Session{Header: store.Header{ID: fmt.Sprintf("c%02d", i), Title: fmt.Sprintf("chat %d", i)}}))
		}
		require.NoError(t, s.SaveSession(ctx, &store.Session{Header: store.Header{ID: "gone", Title: "a secret title"}}))
	}
	stops := testkit.EveryStop(t, start, func(s *store.Store) error { return s.DeleteSession(ctx, "gone") }, func(t *testing.T, kv *store.MemKV, stopped bool) {
		assert.Empty(t, testkit.Unheld(t, kv), "left behind")
		s, err := store.Open(ctx, kv)
		require.NoError(t, err)
		idx, err := s.Sessions(ctx)
		require.NoError(t, err)
		if len(idx) == 64 {
			return // stopped before the delete began
		}
		require.Len(t, idx, 63)
		for _, k := range kv.Keys() {
			b, _ := kv.Get(ctx, k)
			assert.False(t, strings.Contains(string(b[k]), "a secret title"), "%s holds the deleted chat's title", k)
		}
	})
	assert.Greater(t, stops, 2)
}
