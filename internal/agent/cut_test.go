package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// A replay a worker restart cut off while its second step asked, read by the next worker: the
// step that asked is stopped (no one said no, and it did not run), the replay's last word says
// where it stopped and why, once however often the chat is read, and no answer can resume it.
func TestAReplayCutByARestartEndsOnceWithItsReason(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.NewMemKV())
	require.NoError(t, err)
	e := New(st, testkit.Doer{})
	w := &workflow.Workflow{ID: "w1", Name: "Book", Version: 2, Steps: []workflow.Step{
		{Tool: "navigate", Args: json.RawMessage(`{"url": "https://example.com/book"}`), What: "open https://example.com/book"},
		{Tool: "click", Args: json.RawMessage(`{"ref": "@1"}`), Targets: []workflow.Target{{Role: "button", Name: "Book"}}, What: "click button “Book”"},
		{Tool: "click", Args: json.RawMessage(`{"ref": "@1"}`), Targets: []workflow.Target{{Role: "button", Name: "Pay"}}, What: "click button “Pay”"},
	}}
	require.NoError(t, st.SaveWorkflow(ctx, w))
	cut := func(id string, version int) {
		require.NoError(t, st.SaveSession(ctx, &store.Session{Header: store.Header{ID: id, Title: "▶ Book"}, Agent: true,
			Workflow: &store.WorkflowRun{ID: "w1", Name: "Book", Version: version, Next: 1},
			Messages: []store.Message{
				{ID: "u", Role: "user", Content: "Run the workflow “Book” (3 steps)."},
				{ID: "t1", Role: "tool", Content: "Loaded.", Tool: &store.ToolRun{Name: "navigate", CallID: "c1"}},
				{ID: "t2", Role: "tool", Status: store.StatusAsking, Tool: &store.ToolRun{Name: "click", CallID: "c2", AskedAt: e.now()}},
			}}))
	}
	cut("s1", 2)
	for range 2 {
		ses, err := e.Session(ctx, "s1")
		require.NoError(t, err)
		require.Len(t, ses.Messages, 4)
		assert.Equal(t, store.StatusStopped, ses.Messages[2].Status)
		assert.True(t, ses.Messages[2].Tool.IsError)
		end := ses.Messages[3]
		assert.Equal(t, "assistant", end.Role)
		assert.Equal(t, "Stopped at step 2 of 3 (click button “Book”): Skiff's worker restarted during this step, so the replay stopped there (the step may not have run); check the page, then run the workflow again.", end.Content)
		assert.Equal(t, end.Content, ses.Workflow.Stop)
	}
	assert.ErrorIs(t, e.Resume(ctx, "s1", "t2", func(Update) {}), ErrNotAsking)
	// A workflow changed since (another version): where it stopped, without its steps' words.
	cut("s2", 1)
	ses, err := e.Session(ctx, "s2")
	require.NoError(t, err)
	assert.Equal(t, "Stopped at step 2: Skiff's worker restarted during it, so the replay stopped there (the step may not have run). Check the page, then run the workflow again.", ses.Messages[len(ses.Messages)-1].Content)
}

// A replay's start is its own words, which no model answered: it is not edited or answered
// again as a message to a model, and the chat's words stay as they were. A message the user
// writes after it is the model's, as in any chat.
func TestAReplaysStartIsNotAMessageToAModel(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.NewMemKV())
	require.NoError(t, err)
	e := New(st, testkit.Doer{})
	replay := []store.Message{
		{ID: "u", Role: "user", Content: "Run the workflow “Book” (1 step)."},
		{ID: "t1", Role: "tool", Content: "Loaded.", Tool: &store.ToolRun{Name: "navigate", CallID: "c1", Args: json.RawMessage(`{}`)}},
		{ID: "a", Role: "assistant", Content: "The workflow “Book” ran all 1 steps."},
	}
	require.NoError(t, st.SaveSession(ctx, &store.Session{Header: store.Header{ID: "s1", Title: "▶ Book"}, Agent: true,
		Workflow: &store.WorkflowRun{ID: "w1", Name: "Book", Version: 1, Next: 1, Done: true}, Messages: replay}))
	noop := func(Update) {}
	assert.ErrorIs(t, e.Regenerate(ctx, Input{SessionID: "s1"}, noop), ErrReplayStart)
	assert.ErrorIs(t, e.Edit(ctx, Input{SessionID: "s1", Text: "Book it for me"}, noop), ErrReplayStart)
	got, err := st.Session(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, replay, got.Messages, "a refused regenerate or edit changed the replay's chat")

	// After a message of the user's, that message is the one answered again.
	later := append(append([]store.Message{}, replay...), store.Message{ID: "u2", Role: "user", Content: "Thanks. What did it book?"})
	assert.False(t, replayStart(&store.Session{Workflow: &store.WorkflowRun{}, Messages: later}, 3))
	assert.True(t, replayStart(&store.Session{Workflow: &store.WorkflowRun{}, Messages: later}, 0))
	assert.False(t, replayStart(&store.Session{Messages: later}, 0), "a chat that is no replay")
}
