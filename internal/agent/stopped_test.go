package agent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/tool"
)

// heldExist fails when a listed chat holds an image or file that is not stored.
func heldExist(t *testing.T, kv *store.MemKV) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, kv)
	require.NoError(t, err)
	idx, err := s.Sessions(ctx)
	require.NoError(t, err)
	for _, m := range idx {
		ses, err := s.Session(ctx, m.ID)
		require.NoError(t, err)
		ids := store.ImagesOf(ses.Messages)
		got, err := s.Images(ctx, ids...)
		require.NoError(t, err)
		for _, id := range ids {
			assert.Contains(t, got, id, "chat %s holds %s, which is not stored", m.ID, id)
		}
	}
}

// The changes that store attachments apart from the message that holds them, or drop messages
// that hold some, stopped by the worker at each of their writes: what the next worker finds
// holds every attachment a chat shows, and none that no chat holds (nothing shows those, and
// nothing would remove them from the extension's unlimited storage).
func TestAttachmentsOutliveNoChangeAStoppedWorkerCut(t *testing.T) {
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\n rest of a picture")
	picture := store.StoredImage{Mime: "image/png", Data: png}
	clean := func(t *testing.T, kv *store.MemKV, _ bool) {
		assert.Empty(t, testkit.Unheld(t, kv), "left behind")
		heldExist(t, kv)
	}
	model := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "Again."} })
	// A chat whose first message holds a picture and a file, and whose agent run took a
	// screenshot.
	chat := func(s *store.Store) {
		useModel(t, s, model)
		require.NoError(t, s.SaveImage(ctx, "pic", picture))
		require.NoError(t, s.SaveImage(ctx, docID+"cv", store.StoredImage{Mime: "application/pdf", Data: []byte("[Page 1]\nAda"), Original: true}))
		require.NoError(t, s.SaveOriginal(ctx, docID+"cv", []byte("%PDF-1.4")))
		require.NoError(t, s.SaveImage(ctx, "shot", picture))
		require.NoError(t, s.SaveSession(ctx, &store.Session{Header: store.Header{ID: "c", Title: "c", Provider: "openai"}, Messages: []store.Message{
			{ID: "1", Role: "user", Content: "look", Images: []string{"pic", docID + "cv"}},
			{ID: "2", Role: "assistant", ToolCalls: []provider.ToolCall{{ID: "call1", Name: "screenshot", Args: json.RawMessage(`{}`)}}},
			{ID: "3", Role: "tool", Content: "A screenshot.", Tool: &store.ToolRun{CallID: "call1", Name: "screenshot", Args: json.RawMessage(`{}`), Image: "shot"}},
			{ID: "4", Role: "assistant", Content: "I see it."},
		}}))
	}
	noop := func(Update) {}

	t.Run("branch", func(t *testing.T) {
		n := testkit.EveryStop(t, chat, func(s *store.Store) error {
			_, err := New(s, testkit.Doer{}).Branch(ctx, "c", "4", "")
			return err
		}, clean)
		assert.Greater(t, n, 3)
	})
	t.Run("regenerate after a run's calls", func(t *testing.T) {
		testkit.EveryStop(t, chat, func(s *store.Store) error {
			return New(s, testkit.Doer{}).Regenerate(ctx, Input{SessionID: "c"}, noop)
		}, func(t *testing.T, kv *store.MemKV, stopped bool) {
			clean(t, kv, stopped)
			if !stopped {
				got, _ := kv.Get(ctx, "image/shot")
				assert.Empty(t, got, "the run replaced kept its screenshot")
			}
		})
	})
	t.Run("edit", func(t *testing.T) {
		testkit.EveryStop(t, chat, func(s *store.Store) error {
			return New(s, testkit.Doer{}).Edit(ctx, Input{SessionID: "c", Text: "look again"}, noop)
		}, clean)
	})
	t.Run("remove a queued message", func(t *testing.T) {
		queued := func(s *store.Store) {
			chat(s)
			require.NoError(t, s.SaveImage(ctx, "q", picture))
			require.NoError(t, s.SetQueue(ctx, "c", []store.Queued{{ID: "m", Text: "then this", Images: []string{"q"}}}))
		}
		testkit.EveryStop(t, queued, func(s *store.Store) error {
			_, err := New(s, testkit.Doer{}).EditQueued(ctx, "c", "m", "")
			return err
		}, clean)
	})
	t.Run("an agent run's screenshot", func(t *testing.T) {
		page := accountPage()
		model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
			if c.Steps() == 0 {
				return testkit.Turn{Calls: []testkit.Call{{Name: "screenshot", Args: map[string]any{}}}}
			}
			return testkit.Turn{Text: "Done."}
		})
		shots := 0
		testkit.EveryStop(t, func(s *store.Store) {
			useModel(t, s, model)
			for _, p := range actingAllowed(site) {
				require.NoError(t, s.SetPolicy(ctx, p))
			}
		}, func(s *store.Store) error {
			e := New(s, testkit.Doer{})
			e.Browser = testkit.Browser(page, camera(func() { shots++ }))
			g := &permission.Gate{Policies: s, Timeout: func(context.Context) time.Duration { return 5 * time.Second }}
			g.Asker = &user{gate: g, answer: allow}
			e.Gate = g
			task := NewTask(PanelCaller(""), tool.NewEnv(e.Browser, 1, 0))
			task.allowed(origin(page.URL), tool.Read)
			on := true
			return e.Send(ctx, Input{Text: "look at the page", Agent: &on, Task: task}, noop)
		}, clean)
		assert.Positive(t, shots, "no screenshot was taken")
	})
	t.Run("attachments of a message never stored", func(t *testing.T) {
		for _, session := range []string{"c", ""} {
			testkit.EveryStop(t, chat, func(s *store.Store) error {
				_, _, err := New(s, testkit.Doer{}).SaveImages(ctx, []Attached{{Name: "a.png", Data: png}, {Name: "b.png", Data: png}}, false, session)
				return err // and the worker stops before the message is stored
			}, clean)
		}
	})
}

// camera is a tool.Capturer whose every screenshot is the same small PNG; took counts them.
type camera func()

func (c camera) Capture(context.Context, int, string, int) ([]byte, error) {
	c()
	return []byte("\x89PNG\r\n\x1a\n a screenshot"), nil
}

// A queued message sent when the worker stops at any of the send's writes is in the chat
// once, whatever the user does next (the send again, from the queue still listing it), and
// answered once sent again (a stop in the reply itself leaves it as any cut run).
func TestAQueuedMessageIsSentOnceWhereverTheWorkerStopped(t *testing.T) {
	ctx := context.Background()
	model := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "Answered."} })
	start := func(s *store.Store) {
		useModel(t, s, model)
		require.NoError(t, s.SaveSession(ctx, &store.Session{Header: store.Header{ID: "c", Title: "c", Provider: "openai"}, Messages: []store.Message{
			{ID: "1", Role: "user", Content: "first"}, {ID: "2", Role: "assistant", Content: "One."},
		}}))
		require.NoError(t, s.SetQueue(ctx, "c", []store.Queued{{ID: "q1", Text: "then this"}}))
	}
	n := testkit.EveryStop(t, start, func(s *store.Store) error {
		return New(s, testkit.Doer{}).SendQueued(ctx, Input{SessionID: "c"}, func(Update) {})
	}, func(t *testing.T, kv *store.MemKV, stopped bool) {
		s, err := store.Open(ctx, kv)
		require.NoError(t, err)
		e := New(s, testkit.Doer{})
		again := false
		if q, _ := s.Queue(ctx, "c"); len(q) > 0 {
			again = true
			// The next worker's panel still lists it: the user sends it again.
			err := e.SendQueued(ctx, Input{SessionID: "c"}, func(Update) {})
			if err != nil {
				require.ErrorIs(t, err, ErrNothingQueued)
			}
		}
		ses, err := s.Session(ctx, "c")
		require.NoError(t, err)
		var said []string
		for _, m := range ses.Messages {
			said = append(said, m.Role+": "+m.Content)
		}
		times := 0
		for _, x := range said {
			if x == "user: then this" {
				times++
			}
		}
		assert.Equal(t, 1, times, "the queued message, in %q", said)
		if again || !stopped {
			assert.Equal(t, "assistant: Answered.", said[len(said)-1], "%q", said)
		} // else the worker stopped in the reply, as any run can be cut: Regenerate answers it
		q, err := s.Queue(ctx, "c")
		require.NoError(t, err)
		assert.Empty(t, q)
	})
	assert.Greater(t, n, 2)
}

// useModel points the store's settings at the scripted model, over OpenAI's wire format.
func useModel(t *testing.T, s *store.Store, m *testkit.Model) {
	t.Helper()
	useServer(t, s, m.URL)
}

// useServer points the store's settings at a server in OpenAI's wire format.
func useServer(t *testing.T, s *store.Store, url string) {
	t.Helper()
	ctx := context.Background()
	st, err := s.Settings(ctx)
	require.NoError(t, err)
	st.Provider, st.BaseURLs["openai"], st.APIKeys["openai"], st.Models["openai"] = "openai", url, "sk-test", "gpt-test"
	require.NoError(t, s.SaveSettings(ctx, st))
}
