package store

import (
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A private chat (one started in an incognito window) and everything of it, its images, its
// queue, its draft, its calls in the audit log, the incognito panels' choice of chat, are kept
// in memory only: not one byte of them reaches the disk's storage, and ForgetPrivate (the last
// incognito window closing) leaves nothing of them. The kept chats beside them are untouched.
func TestPrivateChatsNeverReachTheDisk(t *testing.T) {
	disk, memory := NewMemKV(), NewMemKV()
	s, err := Open(ctx, Split{Disk: disk, Memory: memory})
	require.NoError(t, err)

	kept := &Session{Header: Header{ID: "k1", Title: "Kept chat", UpdatedAt: 1}, Messages: []Message{{ID: "m1", Role: "user", Content: "about a kept page"}}}
	require.NoError(t, s.SaveSession(ctx, kept))
	require.NoError(t, s.SetActive(ctx, "k1"))

	const secret = "incognito-secret-4411"
	id := PrivatePrefix + "p1"
	img := PrivatePrefix + "img1"
	require.NoError(t, s.SaveImage(ctx, img, StoredImage{Mime: "image/png", Data: []byte(secret)}))
	require.NoError(t, s.SaveOriginal(ctx, img, []byte(secret)))
	priv := &Session{Header: Header{ID: id, Title: "Chat about " + secret, UpdatedAt: 2}, Messages: []Message{{ID: "m2", Role: "user", Content: secret, Images: []string{img}}}}
	require.NoError(t, s.SaveSession(ctx, priv))
	require.NoError(t, s.SaveDraft(ctx, id, &Message{ID: "m3", Role: "assistant", Content: secret}))
	require.NoError(t, s.SetQueue(ctx, id, []Queued{{ID: "q1", Text: secret}}))
	require.NoError(t, s.AddOwnTab(ctx, id, 4411))
	require.NoError(t, s.SetActive(ctx, id))
	require.NoError(t, s.Audit(ctx, AuditEntry{At: 3, Tool: "click", What: "click " + secret, Origin: "https://" + secret, Private: true}))
	require.NoError(t, s.Audit(ctx, AuditEntry{At: 4, Tool: "navigate", What: "go to a kept page"}))
	require.NoError(t, s.SetPolicy(ctx, permission.Policy{Tool: "act:click", Origin: "https://" + secret + ".example", Decision: permission.AllowAlways, UpdatedAt: 5, Private: true}))
	require.NoError(t, s.SetPolicy(ctx, permission.Policy{Tool: "act:click", Origin: "https://kept.example", Decision: permission.AllowAlways, UpdatedAt: 6}))
	ps, err := s.Policies(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 2)
	assert.True(t, ps[1].Private)

	for k, v := range disk.m {
		assert.NotContains(t, k+string(v), secret, "on disk: %s", k)
		assert.NotContains(t, k, PrivatePrefix, "on disk: %s", k)
	}
	for k := range memory.m {
		assert.True(t, InMemory(k), "in memory: %s", k)
	}

	// Read back as one store: both chats listed, each panel's choice its own.
	idx, err := s.Sessions(ctx)
	require.NoError(t, err)
	require.Len(t, idx, 2)
	assert.Equal(t, id, idx[0].ID)
	got, err := s.Session(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, secret, got.Messages[0].Content)
	imgs, err := s.Images(ctx, img)
	require.NoError(t, err)
	assert.Equal(t, secret, string(imgs[img].Data))
	a, _ := s.Active(ctx, false)
	assert.Equal(t, "k1", a)
	a, _ = s.Active(ctx, true)
	assert.Equal(t, id, a)
	log, err := s.AuditLog(ctx, true)
	require.NoError(t, err)
	require.Len(t, log, 2)
	assert.Equal(t, "navigate", log[0].Tool)
	assert.True(t, log[1].Private)
	log, err = s.AuditLog(ctx, false)
	require.NoError(t, err)
	require.Len(t, log, 1, "a panel outside incognito windows sees the kept calls only")
	assert.Equal(t, "navigate", log[0].Tool)

	// A change under way in the private chat (a screenshot stored before its message) has
	// its note in memory, which goes too.
	_, err = s.Begin(ctx, Pending{Session: id, Images: []string{PrivatePrefix + "shot"}})
	require.NoError(t, err)
	require.NoError(t, s.ForgetPrivate(ctx))
	assert.Empty(t, memory.m, "left in memory")
	idx, err = s.Sessions(ctx)
	require.NoError(t, err)
	require.Len(t, idx, 1)
	assert.Equal(t, "k1", idx[0].ID)
	log, _ = s.AuditLog(ctx, true)
	assert.Len(t, log, 1)
	a, _ = s.Active(ctx, false)
	assert.Equal(t, "k1", a)
	ps, _ = s.Policies(ctx)
	require.Len(t, ps, 1)
	assert.Equal(t, "https://kept.example", ps[0].Origin)

	// A private chat exported while its window was open and imported is kept: the user chose.
	ex, err := ParseExport(mustExport(t, []Session{*priv}))
	require.NoError(t, err)
	n, _, err := s.Import(ctx, ex)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	for k := range disk.m {
		assert.False(t, strings.HasPrefix(k, MemoryPrefix), k)
	}
	_, err = s.Session(ctx, "p1")
	assert.NoError(t, err)
	assert.Empty(t, memory.m)
}

// The memory that keeps the private chats filling up is said as such, not as the disk's storage.
func TestAFullMemoryIsSaidAsSuch(t *testing.T) {
	disk, memory := NewMemKV(), NewMemKV()
	memory.Limit = 100
	s, err := Open(ctx, Split{Disk: disk, Memory: memory})
	require.NoError(t, err)
	big := &Session{Header: Header{ID: PrivatePrefix + "p1", Title: strings.Repeat("x", 200)}}
	err = s.SaveSession(ctx, big)
	assert.ErrorIs(t, err, ErrMemoryFull)
	assert.ErrorIs(t, err, ErrQuota)
	require.NoError(t, s.SaveSession(ctx, &Session{Header: Header{ID: "k1", Title: strings.Repeat("x", 200)}}))
}

func mustExport(t *testing.T, ses []Session) []byte {
	b, err := ExportJSON(Export{Sessions: ses}, 5)
	require.NoError(t, err)
	return b
}

// A decision taken in an incognito window sits beside a kept one for the same patterns, and
// never replaces it: when the window closes, the kept one holds as before. A panel outside
// incognito windows revokes and resets the kept ones only.
func TestAnIncognitoDecisionLeavesTheKeptOne(t *testing.T) {
	disk, memory := NewMemKV(), NewMemKV()
	s, err := Open(ctx, Split{Disk: disk, Memory: memory})
	require.NoError(t, err)
	const site = "https://bank.example"
	require.NoError(t, s.SetPolicy(ctx, permission.Policy{Tool: "act:*", Origin: site, Decision: permission.DenyAlways, UpdatedAt: 1}))
	require.NoError(t, s.SetPolicy(ctx, permission.Policy{Tool: "act:*", Origin: site, Decision: permission.AllowAlways, UpdatedAt: 2, Private: true}))
	ps, err := s.Policies(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 2, "the incognito Always replaced the kept Never")
	assert.Equal(t, []permission.Policy{{Tool: "act:*", Origin: site, Decision: permission.DenyAlways, UpdatedAt: 1}}, permission.Visible(ps, false))

	// Revoked from a panel outside incognito windows: the kept one goes, the other stays.
	require.NoError(t, s.RevokePolicy(ctx, "act:*", site, false))
	ps, _ = s.Policies(ctx)
	require.Len(t, ps, 1)
	assert.True(t, ps[0].Private)
	assert.ErrorIs(t, s.RevokePolicy(ctx, "act:*", site, false), ErrNoPolicy)

	// Reset there leaves the incognito windows' decisions; reset in one of them takes all.
	require.NoError(t, s.SetPolicy(ctx, permission.Policy{Tool: "*", Origin: "*", Decision: permission.AllowAlways, UpdatedAt: 3}))
	require.NoError(t, s.RevokePolicy(ctx, "", "", false))
	ps, _ = s.Policies(ctx)
	require.Len(t, ps, 1)
	assert.True(t, ps[0].Private)
	require.NoError(t, s.SetPolicy(ctx, permission.Policy{Tool: "*", Origin: "*", Decision: permission.AllowAlways, UpdatedAt: 4}))
	require.NoError(t, s.RevokePolicy(ctx, "", "", true))
	ps, _ = s.Policies(ctx)
	assert.Empty(t, ps)
	assert.Empty(t, memory.m)
}

// The tabs a chat's runs opened are kept while the browser runs (a tab's id names another tab
// once it starts again), never on the disk: each once, the last MaxOwnTabs of them, gone with
// the chat, and not noted again for a chat deleted meanwhile.
func TestAChatsTabsAreKeptWhileTheBrowserRuns(t *testing.T) {
	disk, memory := NewMemKV(), NewMemKV()
	s, err := Open(ctx, Split{Disk: disk, Memory: memory})
	require.NoError(t, err)
	require.NoError(t, s.SaveSession(ctx, &Session{Header: Header{ID: "k1", Title: "Kept", UpdatedAt: 1}, Messages: []Message{{ID: "m1", Role: "user", Content: "open tabs"}}}))
	none, err := s.OwnTabs(ctx, "k1")
	require.NoError(t, err)
	assert.Empty(t, none)
	for tab := range MaxOwnTabs + 3 {
		require.NoError(t, s.AddOwnTab(ctx, "k1", 100+tab))
		require.NoError(t, s.AddOwnTab(ctx, "k1", 100+tab))
	}
	tabs, err := s.OwnTabs(ctx, "k1")
	require.NoError(t, err)
	require.Len(t, tabs, MaxOwnTabs)
	assert.Equal(t, 103, tabs[0])
	assert.Equal(t, 100+MaxOwnTabs+2, tabs[MaxOwnTabs-1])
	on, err := memory.Get(ctx, BrowserPrefix+"tabs/k1")
	require.NoError(t, err)
	assert.Len(t, on, 1, "kept in memory")
	on, err = disk.Get(ctx, BrowserPrefix+"tabs/k1")
	require.NoError(t, err)
	assert.Empty(t, on, "not on the disk")

	require.NoError(t, s.DeleteSession(ctx, "k1"))
	tabs, err = s.OwnTabs(ctx, "k1")
	require.NoError(t, err)
	assert.Empty(t, tabs)
	assert.ErrorIs(t, s.AddOwnTab(ctx, "k1", 9), ErrNotFound)
	tabs, err = s.OwnTabs(ctx, "k1")
	require.NoError(t, err)
	assert.Empty(t, tabs)

	// An outside client's, until its session ends.
	require.NoError(t, s.AddOwnTab(ctx, "client/c1", 7))
	tabs, err = s.OwnTabs(ctx, "client/c1")
	require.NoError(t, err)
	assert.Equal(t, []int{7}, tabs)
	require.NoError(t, s.ForgetOwnTabs(ctx, "client/c1"))
	tabs, err = s.OwnTabs(ctx, "client/c1")
	require.NoError(t, err)
	assert.Empty(t, tabs)
}
