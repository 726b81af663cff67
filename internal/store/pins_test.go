package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pinned chat comes first in the list and in a search, whatever its age; a save of the chat
// (a run going on in it) keeps the pin; unpinning puts it back in its place; a deleted chat
// leaves no pin; a private chat's pin stays in memory with it; a chat that is not there cannot
// be pinned, and a damaged list of pins neither hides the chats nor refuses a new pin.
func TestPinnedChatsComeFirst(t *testing.T) {
	disk, memory := NewMemKV(), NewMemKV()
	s, err := Open(ctx, NewCached(Split{Disk: disk, Memory: memory}))
	require.NoError(t, err)
	for i, id := range []string{"old", "mid", "new", PrivatePrefix + "p"} {
		require.NoError(t, s.SaveSession(ctx, &Session{Header: Header{ID: id, Title: "harbour " + id, UpdatedAt: int64(i + 1)},
			Messages: []Message{{ID: "m", Role: "user", Content: "the harbour"}}}))
	}
	order := func() []string {
		idx, err := s.Sessions(ctx)
		require.NoError(t, err)
		var out []string
		for _, m := range idx {
			id := m.ID
			if m.Pinned {
				id += "*"
			}
			out = append(out, id)
		}
		return out
	}
	private := PrivatePrefix + "p"
	assert.Equal(t, []string{private, "new", "mid", "old"}, order())

	require.NoError(t, s.Pin(ctx, "old", true))
	require.NoError(t, s.Pin(ctx, "old", true)) // twice is once
	assert.Equal(t, []string{"old*", private, "new", "mid"}, order())
	hits, err := s.Search(ctx, "harbour")
	require.NoError(t, err)
	require.Len(t, hits, 4)
	assert.Equal(t, "old", hits[0].ID)
	assert.True(t, hits[0].Pinned)

	// A run saving the chat keeps its pin.
	ses, err := s.Session(ctx, "old")
	require.NoError(t, err)
	ses.UpdatedAt = 0
	require.NoError(t, s.SaveSession(ctx, ses))
	assert.Equal(t, []string{"old*", private, "new", "mid"}, order())

	// A private chat's pin is kept in memory only.
	require.NoError(t, s.Pin(ctx, private, true))
	assert.Equal(t, []string{private + "*", "old*", "new", "mid"}, order())
	onDisk, err := disk.Get(ctx, "pins")
	require.NoError(t, err)
	assert.JSONEq(t, `["old"]`, string(onDisk["pins"]))
	inMemory, err := memory.Get(ctx, MemoryPrefix+"pins")
	require.NoError(t, err)
	assert.JSONEq(t, `["`+private+`"]`, string(inMemory[MemoryPrefix+"pins"]))

	require.NoError(t, s.Pin(ctx, "old", false))
	assert.Equal(t, []string{private + "*", "new", "mid", "old"}, order())
	require.NoError(t, s.Pin(ctx, "mid", true))
	require.NoError(t, s.DeleteSession(ctx, "mid"))
	onDisk, err = disk.Get(ctx, "pins")
	require.NoError(t, err)
	assert.JSONEq(t, `[]`, string(onDisk["pins"]))
	assert.ErrorIs(t, s.Pin(ctx, "gone", true), ErrNotFound)

	// A damaged list: the chats are listed, and a pin writes it again.
	require.NoError(t, disk.Set(ctx, map[string][]byte{"pins": []byte("{not json")}))
	s, err = Open(ctx, NewCached(Split{Disk: disk, Memory: memory}))
	require.NoError(t, err)
	assert.Equal(t, []string{private + "*", "new", "old"}, order())
	require.NoError(t, s.Pin(ctx, "new", true))
	assert.Equal(t, []string{private + "*", "new*", "old"}, order())
}
