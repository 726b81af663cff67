package agent

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// A run of page reads goes back with its latest three whole; tight (a model whose window the
// usual did not fit) keeps only the latest one, and says of the others that they were dropped.
func TestTightHistoryKeepsOnePageRead(t *testing.T) {
	e, _ := hostedEngine(t)
	ms := []store.Message{{Role: "user", Content: "read them"}}
	for i := range 4 {
		id := "c" + strconv.Itoa(i)
		ms = append(ms,
			store.Message{Role: "assistant", ToolCalls: []provider.ToolCall{{ID: id, Name: "read_text", Args: json.RawMessage(`{}`)}}},
			store.Message{ID: "r" + id, Role: "tool", Content: strings.Repeat("page text ", 300), Tool: &store.ToolRun{CallID: id, Name: "read_text", StartedAt: 1}})
	}
	whole := func(tight bool) int {
		out, err := e.history(context.Background(), ms, false, true, tight)
		require.NoError(t, err)
		n := 0
		for _, m := range out {
			if m.Role == "tool" && !strings.Contains(m.Content, "dropped to save room") {
				n++
			}
		}
		return n
	}
	assert.Equal(t, keepReads, whole(false))
	assert.Equal(t, 1, whole(true))
}
