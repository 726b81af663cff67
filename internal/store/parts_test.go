package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A long chat is stored in parts, so a save writes what changed: a step of a long agent run
// writes its last messages, not every page it read before. What is read back is the chat as
// it was saved, whole; a chat cut short (an edit) drops the parts it no longer has; a deleted
// chat leaves none; a private chat's parts stay in memory with it.
func TestALongChatIsWrittenInParts(t *testing.T) {
	for _, private := range []bool{false, true} {
		t.Run(fmt.Sprint("private ", private), func(t *testing.T) {
			disk, memory := NewMemKV(), NewMemKV()
			s, err := Open(ctx, NewCached(Split{Disk: disk, Memory: memory}))
			require.NoError(t, err)
			id := "chat1"
			if private {
				id = PrivatePrefix + id
			}
			ses := &Session{Header: Header{ID: id, Title: "Long"}, Agent: true}
			read := strings.Repeat("a page read by the agent ", 600) // 15 KB, as a snapshot
			var perSave []int
			for k := range 60 {
				ses.Messages = append(ses.Messages, Message{ID: fmt.Sprintf("m%02d", k), Role: "tool", Content: fmt.Sprintf("%d %s", k, read)})
				before := disk.Writes + memory.Writes
				require.NoError(t, s.SaveSession(ctx, ses))
				perSave = append(perSave, disk.Writes+memory.Writes-before)
			}
			whole := 60 * len(read)
			for k, n := range perSave {
				assert.Less(t, n, 100_000, "save %d wrote %d bytes of a chat of %d", k, n, whole) // about 3 parts
			}
			got, err := s.Session(ctx, id)
			require.NoError(t, err)
			require.Len(t, got.Messages, 60)
			for k, m := range got.Messages {
				require.Equal(t, fmt.Sprintf("m%02d", k), m.ID)
				require.True(t, strings.HasPrefix(m.Content, fmt.Sprintf("%d a page read", k)))
			}
			all, err := s.AllSessions(ctx)
			require.NoError(t, err)
			require.Len(t, all, 1)
			assert.Equal(t, got.Messages, all[0].Messages)

			// Where the chat's keys are: a private chat's never reach the disk.
			keys := func(kv *MemKV) (n int) {
				for k := range kv.m {
					if strings.Contains(k, "chat1") {
						n++
					}
				}
				return n
			}
			if private {
				assert.Zero(t, keys(disk))
				assert.Greater(t, keys(memory), 10)
			} else {
				assert.Greater(t, keys(disk), 10)
			}

			// An edit cuts the chat to its first messages: the parts past them go.
			ses.Messages = ses.Messages[:3]
			require.NoError(t, s.SaveSession(ctx, ses))
			got, err = s.Session(ctx, id)
			require.NoError(t, err)
			assert.Len(t, got.Messages, 3)
			assert.LessOrEqual(t, keys(disk)+keys(memory), 3, "parts of the longer chat were left")

			ses.Messages = append(ses.Messages, Message{ID: "more", Role: "tool", Content: read}, Message{ID: "again", Role: "tool", Content: read + read + read})
			require.NoError(t, s.SaveSession(ctx, ses))
			require.NoError(t, s.DeleteSession(ctx, id))
			assert.Zero(t, keys(disk)+keys(memory), "a deleted chat left keys")
		})
	}
}

// A chat larger than the cache holds (MaxCached) still writes only its last parts: the cache
// keeps a hash of each part it wrote when it cannot keep the part's bytes.
func TestAChatLargerThanTheCacheStillWritesItsLastParts(t *testing.T) {
	kv := NewMemKV()
	s, err := Open(ctx, NewCached(kv))
	require.NoError(t, err)
	ses := &Session{Header: Header{ID: "big", Title: "Big"}, Agent: true}
	read := strings.Repeat("a long page read by the agent ", 1000) // 30 KB
	for k := range 150 {
		ses.Messages = append(ses.Messages, Message{ID: fmt.Sprintf("m%03d", k), Role: "tool", Content: read})
		before := kv.Writes
		require.NoError(t, s.SaveSession(ctx, ses))
		if n := kv.Writes - before; k > 0 && n > 100_000 {
			t.Fatalf("save %d of a chat of %d bytes wrote %d bytes", k, (k+1)*len(read), n)
		}
	}
	require.Greater(t, 150*len(read), MaxCached)
	got, err := s.Session(ctx, "big")
	require.NoError(t, err)
	require.Len(t, got.Messages, 150)
}

// The list of chats is kept in parts too: with hundreds of chats, saving one rewrites the
// part that lists it, not the whole list. The list reads back whole and in order of use after
// saves and deletions, a deletion leaves no part behind, and a list written as one array (by
// schema 1) is read.
func TestTheListOfManyChatsIsWrittenInParts(t *testing.T) {
	kv := NewMemKV()
	s, err := Open(ctx, NewCached(kv))
	require.NoError(t, err)
	const chats = 300
	for k := range chats {
		ses := &Session{Header: Header{ID: fmt.Sprintf("c%03d", k), Title: fmt.Sprintf("Chat number %d about something", k), UpdatedAt: int64(k)}}
		ses.Messages = []Message{{ID: "m", Role: "user", Content: "hi"}}
		require.NoError(t, s.SaveSession(ctx, ses))
	}
	// A chat in the middle of the list goes on: each save writes its chat and one part.
	ses, err := s.Session(ctx, "c150")
	require.NoError(t, err)
	for k := range 5 {
		ses.Messages = append(ses.Messages, Message{ID: fmt.Sprint(k), Role: "assistant", Content: "ok"})
		ses.UpdatedAt = int64(1000 + k)
		before := kv.Writes
		require.NoError(t, s.SaveSession(ctx, ses))
		assert.Less(t, kv.Writes-before, 15_000, "a save with %d chats", chats)
	}
	list, err := s.Sessions(ctx)
	require.NoError(t, err)
	require.Len(t, list, chats)
	assert.Equal(t, "c150", list[0].ID)
	assert.Equal(t, 6, list[0].Count)
	assert.Equal(t, "c299", list[1].ID)

	// Deleting all but a few leaves no part of the longer list.
	for k := range chats - 3 {
		require.NoError(t, s.DeleteSession(ctx, fmt.Sprintf("c%03d", k)))
	}
	list, err = s.Sessions(ctx)
	require.NoError(t, err)
	require.Len(t, list, 3)
	for k := range kv.m {
		assert.False(t, strings.HasPrefix(k, "sessions/"), "part %s of the longer list was left", k)
	}

	// Schema 1's list, one array.
	old := NewMemKV()
	require.NoError(t, old.Set(ctx, map[string][]byte{"schema": []byte("1"), "sessions": []byte(`[{"id":"a","title":"Old","updatedAt":5,"count":1}]`),
		"session/a": []byte(`{"id":"a","title":"Old","messages":[{"id":"m1","role":"user","content":"hello"}]}`)}))
	s, err = Open(ctx, old)
	require.NoError(t, err)
	list, err = s.Sessions(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "Old", list[0].Title)
}
