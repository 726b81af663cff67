package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// A model that loops writes one call dozens of times in a reply: the first MaxCallsPerTurn run,
// the rest are answered as not run (the provider gets a result for every call), and the model
// reads why in its next turn.
func TestAReplyRunsAtMostSoManyCalls(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, accountPage(), actingAllowed(site), allow)
	const n = MaxCallsPerTurn + 5
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if c.Steps() > 0 {
			return testkit.Turn{Text: "Done."}
		}
		calls := make([]testkit.Call, n)
		for i := range calls {
			calls[i] = testkit.Call{Name: "click", Args: map[string]any{"ref": "e2"}}
		}
		return testkit.Turn{Calls: calls}
	})
	useModel(t, h.st, model)
	on := true
	var sid string
	require.NoError(t, h.e.Send(ctx, Input{Text: "press Save", Agent: &on, Task: h.task}, func(u Update) { sid = u.SessionID }))

	ses, err := h.st.Session(ctx, sid)
	require.NoError(t, err)
	ran, notRun := 0, 0
	for _, m := range ses.Messages {
		switch {
		case m.Role != "tool":
		case m.Status == "":
			ran++
		case m.Status == store.StatusError && strings.HasPrefix(m.Content, "Not run: one reply runs at most"):
			notRun++
		default:
			t.Errorf("a call ended %q: %s", m.Status, m.Content)
		}
	}
	assert.Equal(t, MaxCallsPerTurn, ran)
	assert.Equal(t, 5, notRun)
	clicks := 0
	for _, c := range h.page.Calls() {
		if strings.HasPrefix(c, "click") {
			clicks++
		}
	}
	assert.Equal(t, MaxCallsPerTurn, clicks, "the page got only the calls that ran: %v", h.page.Calls())
	convs := model.Conversations()
	require.Len(t, convs, 2)
	results := 0
	for _, m := range convs[1].Messages {
		if m.Role == "tool" {
			results++
		}
	}
	assert.Equal(t, n, results, "the model got a result for every call it made")
	assert.Equal(t, "Done.", ses.Messages[len(ses.Messages)-1].Content)
}
