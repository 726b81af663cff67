package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ctx = context.Background()

func TestSchema(t *testing.T) {
	kv := NewMemKV()
	_, err := Open(ctx, kv)
	require.NoError(t, err)
	got, _ := kv.Get(ctx, "schema")
	assert.Equal(t, fmt.Sprint(SchemaVersion), string(got["schema"]))

	require.NoError(t, kv.Set(ctx, map[string][]byte{"schema": []byte(fmt.Sprint(SchemaVersion + 1))}))
	_, err = Open(ctx, kv)
	assert.ErrorIs(t, err, ErrNewerSchema)

	// Version 1's data (a chat's messages all in session/<id>) is read as it is, and stamped
	// with this version, whose chats an older Skiff must not half read.
	old := NewMemKV()
	require.NoError(t, old.Set(ctx, map[string][]byte{"schema": []byte("1"), "sessions": []byte(`[{"id":"a","title":"Old"}]`),
		"session/a": []byte(`{"id":"a","title":"Old","messages":[{"id":"m1","role":"user","content":"hello"},{"id":"m2","role":"assistant","content":"hi"}]}`)}))
	s, err := Open(ctx, old)
	require.NoError(t, err)
	got, _ = old.Get(ctx, "schema")
	assert.Equal(t, fmt.Sprint(SchemaVersion), string(got["schema"]))
	ses, err := s.Session(ctx, "a")
	require.NoError(t, err)
	require.Len(t, ses.Messages, 2)
	assert.Equal(t, "hi", ses.Messages[1].Content)
}

// OpenNow does not wait for the check, and what it returns reads and writes only once the check
// has passed: a newer Skiff's data is refused on every use, and a fresh KV is stamped before the
// first write lands.
func TestOpenNowChecksBeforeAnyUse(t *testing.T) {
	kv := &heldKV{MemKV: NewMemKV(), release: make(chan struct{})}
	s := OpenNow(ctx, kv) // returns while the check's read is held back
	// A write while the check is held waits for it: with its context already done, it gives up
	// without writing (one that did not wait would land at once).
	done, cancel := context.WithCancel(ctx)
	cancel()
	assert.ErrorIs(t, s.SaveSettings(done, DefaultSettings()), context.Canceled)
	got, _ := kv.MemKV.Get(ctx, "settings", "schema")
	assert.Empty(t, got, "a write went through before the schema check")
	close(kv.release)
	require.NoError(t, s.SaveSettings(ctx, DefaultSettings()))
	got, _ = kv.MemKV.Get(ctx, "schema")
	assert.Equal(t, fmt.Sprint(SchemaVersion), string(got["schema"]))

	newer := NewMemKV()
	require.NoError(t, newer.Set(ctx, map[string][]byte{"schema": []byte(fmt.Sprint(SchemaVersion + 1)), "settings": []byte(`{"provider":"x"}`)}))
	s = OpenNow(ctx, newer)
	_, err := s.Settings(ctx)
	assert.ErrorIs(t, err, ErrNewerSchema)
	assert.ErrorIs(t, s.SaveSettings(ctx, DefaultSettings()), ErrNewerSchema)
	b, _ := newer.Get(ctx, "settings")
	assert.Equal(t, `{"provider":"x"}`, string(b["settings"]), "a newer Skiff's data was overwritten")
}

// heldKV holds its first Get until release is closed.
type heldKV struct {
	*MemKV
	release chan struct{}
	once    sync.Once
}

func (k *heldKV) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	k.once.Do(func() { <-k.release })
	return k.MemKV.Get(ctx, keys...)
}

// Streaming into one session of many costs what the draft weighs, not what history weighs.
func TestDraftWriteCostIsTheMessage(t *testing.T) {
	kv := NewMemKV()
	s, err := Open(ctx, kv)
	require.NoError(t, err)
	big := strings.Repeat("x", 10_000)
	for i := range 20 {
		ses := &Session{Header: Header{ID: string(rune('a' + i)), Title: "t"}, Messages: []Message{{ID: "m", Role: "user", Content: big}}}
		require.NoError(t, s.SaveSession(ctx, ses))
	}
	before := kv.Writes
	draft := &Message{ID: "d", Role: "assistant", Content: "partial", Status: StatusStreaming}
	require.NoError(t, s.SaveDraft(ctx, "a", draft))
	assert.Less(t, kv.Writes-before, 200, "a draft write rewrote more than the draft")

	// The draft is merged on read and dropped when the session is saved.
	ses, err := s.Session(ctx, "a")
	require.NoError(t, err)
	ses.Messages = append(ses.Messages, Message{ID: "d", Role: "assistant", Status: StatusStreaming})
	require.NoError(t, s.SaveSession(ctx, ses))
	require.NoError(t, s.SaveDraft(ctx, "a", &Message{ID: "d", Role: "assistant", Content: "partial text", Status: StatusStreaming}))
	ses, err = s.Session(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, "partial text", ses.Messages[1].Content)
	require.NoError(t, s.SaveSession(ctx, ses))
	got, _ := kv.Get(ctx, "draft/a")
	assert.Empty(t, got)
}

func TestQuotaIsAClearErrorAndLosesNothing(t *testing.T) {
	kv := NewMemKV()
	s, err := Open(ctx, kv)
	require.NoError(t, err)
	require.NoError(t, s.SaveSession(ctx, &Session{Header: Header{ID: "keep", Title: "keep"}, Messages: []Message{{ID: "1", Role: "user", Content: "hello"}}}))
	kv.Limit = 400
	err = s.SaveSession(ctx, &Session{Header: Header{ID: "big", Title: "big"}, Messages: []Message{{ID: "1", Role: "user", Content: strings.Repeat("y", 1000)}}})
	require.True(t, errors.Is(err, ErrQuota), "%v", err)
	ses, err := s.Session(ctx, "keep")
	require.NoError(t, err)
	assert.Equal(t, "hello", ses.Messages[0].Content)
	idx, _ := s.Sessions(ctx)
	assert.Len(t, idx, 1)
}

func TestDeleteSession(t *testing.T) {
	s, _ := Open(ctx, NewMemKV())
	require.NoError(t, s.SaveSession(ctx, &Session{Header: Header{ID: "a", UpdatedAt: 1}}))
	require.NoError(t, s.SaveSession(ctx, &Session{Header: Header{ID: "b", UpdatedAt: 2}}))
	require.NoError(t, s.DeleteSession(ctx, "a"))
	idx, _ := s.Sessions(ctx)
	require.Len(t, idx, 1)
	assert.Equal(t, "b", idx[0].ID)
	_, err := s.Session(ctx, "a")
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestTitleFrom(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Hello   world \n second line", "Hello world"},
		{"", "New chat"},
		{strings.Repeat("word ", 20), strings.TrimSpace(strings.Repeat("word ", 10)) + "…"},
		{strings.Repeat("é", 60), strings.Repeat("é", 50) + "…"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, TitleFrom(tc.in), tc.in)
	}
}

func TestSettingsValidate(t *testing.T) {
	s := DefaultSettings()
	require.NoError(t, s.Validate())
	s.BaseURLs["custom"] = "ftp://x"
	var fe *FieldError
	require.True(t, errors.As(s.Validate(), &fe))
	assert.Equal(t, "baseURL.custom", fe.Field)
	s = DefaultSettings()
	for _, l := range []string{"", "auto", "en", "fr"} {
		s.Language = l
		require.NoError(t, s.Validate(), l)
	}
	s.Language = "de"
	require.True(t, errors.As(s.Validate(), &fe))
	assert.Equal(t, "language", fe.Field)
	// Read aloud's speed: the voice's own (0), or 0.5 to 2 times it; a voice's name is short.
	s = DefaultSettings()
	for _, r := range []float64{0, 0.5, 1.25, 2} {
		s.Speech = Speech{Voice: "Google français", Rate: r}
		require.NoError(t, s.Validate(), r)
	}
	for _, r := range []float64{0.4, 2.5, -1} {
		s.Speech.Rate = r
		require.True(t, errors.As(s.Validate(), &fe), r)
		assert.Equal(t, "speechRate", fe.Field)
	}
	s.Speech = Speech{Voice: strings.Repeat("v", MaxVoice+1)}
	require.True(t, errors.As(s.Validate(), &fe))
	assert.Equal(t, "speechVoice", fe.Field)
	s = DefaultSettings()
	s.Provider = "custom"
	_, _, _, err := s.Resolve()
	assert.ErrorContains(t, err, "needs a base URL")
}

// Saved prompts: one word each (it is typed after a "/"), in any script, unique case aside,
// with text, not too many or too long; never saved (nil) and none (empty) stay apart through
// storage, so the panel offers its own only to whoever never saved theirs.
func TestSavedPromptsAreChecked(t *testing.T) {
	s := DefaultSettings()
	s.Prompts = []Prompt{{Name: "summarize", Text: "Summarize the page."}, {Name: "résumer", Text: "Résume la page."}, {Name: "bug_report-2", Text: "Write it up."}}
	require.NoError(t, s.Validate())
	bad := []struct {
		prompts []Prompt
		says    string
	}{
		{[]Prompt{{Name: "two words", Text: "x"}}, "“two words” is not"},
		{[]Prompt{{Name: "", Text: "x"}}, "a prompt has no name"},
		{[]Prompt{{Name: "/slash", Text: "x"}}, "“/slash” is not"},
		{[]Prompt{{Name: strings.Repeat("a", 33), Text: "x"}}, "at most 32 characters"},
		{[]Prompt{{Name: "Same", Text: "x"}, {Name: "same", Text: "y"}}, "two prompts are named “same”"},
		{[]Prompt{{Name: "empty", Text: " \n "}}, "the prompt “empty” has no text"},
		{[]Prompt{{Name: "long", Text: strings.Repeat("é", MaxPromptText+1)}}, "the prompt “long” is longer than 8000 characters"},
		{slices.Repeat([]Prompt{{Name: "a", Text: "x"}}, MaxPrompts+1), "at most 50 prompts"},
	}
	for _, tc := range bad {
		s.Prompts = tc.prompts
		var fe *FieldError
		require.True(t, errors.As(s.Validate(), &fe), tc.says)
		assert.Equal(t, "prompts", fe.Field)
		assert.Contains(t, fe.Message, tc.says)
	}
	for _, tc := range []struct {
		prompts []Prompt
		json    string
	}{{nil, ""}, {[]Prompt{}, `"prompts":[]`}} {
		s.Prompts = tc.prompts
		b, err := json.Marshal(s)
		require.NoError(t, err)
		if tc.json == "" {
			assert.NotContains(t, string(b), `"prompts"`)
		} else {
			assert.Contains(t, string(b), tc.json)
		}
		var back Settings
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, tc.prompts == nil, back.Prompts == nil)
	}
}

// A chat stored when slash commands were kept as bare names reads as commands without
// descriptions; one stored now keeps them.
func TestCommandsReadOldAndNew(t *testing.T) {
	var old Session
	require.NoError(t, json.Unmarshal([]byte(`{"id":"s","messages":[],"commands":["hello","plan"]}`), &old))
	assert.Equal(t, Commands{{Name: "hello"}, {Name: "plan"}}, old.Commands)
	b, err := json.Marshal(Session{Commands: Commands{{Name: "hello", Description: "say hi"}}})
	require.NoError(t, err)
	var now Session
	require.NoError(t, json.Unmarshal(b, &now))
	assert.Equal(t, Commands{{Name: "hello", Description: "say hi"}}, now.Commands)
}

// A chat a backup gives no times (a file another program wrote) takes its messages' times, else
// the file's, so History does not list it as 56 years old.
func TestAnImportedChatWithoutTimesTakesItsMessagesTimes(t *testing.T) {
	ex, err := ParseExport([]byte(`{"format": "skiff.sessions", "version": 1, "exportedAt": 1795000000000, "sessions": [
		{"id": "a", "title": "with messages", "messages": [{"id": "m1", "role": "user", "content": "hi", "createdAt": 1794000000000}, {"id": "m2", "role": "assistant", "content": "hello", "createdAt": 1794000005000}]},
		{"id": "b", "title": "empty", "messages": []},
		{"id": "c", "title": "dated", "createdAt": 1700000000000, "updatedAt": 1700000001000, "messages": []}]}`))
	require.NoError(t, err)
	assert.Equal(t, [2]int64{1794000000000, 1794000005000}, [2]int64{ex.Sessions[0].CreatedAt, ex.Sessions[0].UpdatedAt})
	assert.Equal(t, [2]int64{1795000000000, 1795000000000}, [2]int64{ex.Sessions[1].CreatedAt, ex.Sessions[1].UpdatedAt})
	assert.Equal(t, [2]int64{1700000000000, 1700000001000}, [2]int64{ex.Sessions[2].CreatedAt, ex.Sessions[2].UpdatedAt}, "times it has are kept")
}

// A branch's note of where it came from is kept through a backup, on one line; a bad one (an
// id that is not one, a title too long) is dropped, not the chat.
func TestImportKeepsOrDropsWhereABranchCameFrom(t *testing.T) {
	ex, err := ParseExport([]byte(`{"format": "skiff.sessions", "version": 2, "exportedAt": 1795000000000, "sessions": [
		{"id": "b1", "title": "↳ Boats", "createdAt": 1, "updatedAt": 2, "messages": [], "branchOf": {"id": "s1", "title": "Boats\nand tides"}},
		{"id": "b2", "title": "↳ Bad", "createdAt": 1, "updatedAt": 2, "messages": [], "branchOf": {"id": "../../x", "title": "x"}}]}`))
	require.NoError(t, err)
	require.Len(t, ex.Sessions, 2)
	assert.Equal(t, &BranchOf{ID: "s1", Title: "Boats and tides"}, ex.Sessions[0].BranchOf)
	assert.Nil(t, ex.Sessions[1].BranchOf)
}

// A chat deleted is not written again by what still holds it (a run that stores its end, or
// streams a draft, after the delete; a second window that queues a message into it): until
// the user brings it back from a backup, which they can continue as ever.
func TestADeletedChatIsNotSavedAgainUntilImported(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, NewMemKV())
	require.NoError(t, err)
	ses := &Session{Header: Header{ID: "s1", Title: "Boats", CreatedAt: 1, UpdatedAt: 1}, Messages: []Message{{ID: "m1", Role: "user", Content: "tides?", CreatedAt: 1}}}
	require.NoError(t, st.SaveSession(ctx, ses))
	require.NoError(t, st.DeleteSession(ctx, "s1"))
	ses.Messages = append(ses.Messages, Message{ID: "m2", Role: "assistant", Content: "Stopped.", CreatedAt: 2})
	require.ErrorIs(t, st.SaveSession(ctx, ses), ErrNotFound)
	require.ErrorIs(t, st.SaveDraft(ctx, "s1", &ses.Messages[1]), ErrNotFound)
	require.ErrorIs(t, st.SetQueue(ctx, "s1", []Queued{{ID: "q1", Text: "and the moon?"}}), ErrNotFound)
	list, err := st.Sessions(ctx)
	require.NoError(t, err)
	assert.Empty(t, list)
	for _, k := range st.kv.(*MemKV).Keys() {
		assert.NotContains(t, k, "s1", "the deleted chat left a key")
	}

	_, _, err = st.Import(ctx, &Export{Sessions: []Session{*ses}})
	require.NoError(t, err)
	ses.Messages = append(ses.Messages, Message{ID: "m3", Role: "user", Content: "and now?", CreatedAt: 3})
	require.NoError(t, st.SaveSession(ctx, ses))
	require.NoError(t, st.SetQueue(ctx, "s1", []Queued{{ID: "q1", Text: "and the moon?"}}))
	got, err := st.Session(ctx, "s1")
	require.NoError(t, err)
	assert.Len(t, got.Messages, 3)
}
