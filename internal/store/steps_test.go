package store

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/skiff-ai/skiff/internal/workflow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An outside client's steps are kept in memory storage only (a new Store over the same storage,
// as after a worker restart, reads them back), the last ones up to the bound, until they are
// forgotten; the steps of clients long gone do not pile up.
func TestAClientsStepsOutliveTheWorker(t *testing.T) {
	disk, memory := NewMemKV(), NewMemKV()
	s, err := Open(ctx, NewCached(Split{Disk: disk, Memory: memory}))
	require.NoError(t, err)
	step := func(n int) workflow.Call {
		return workflow.Call{Tool: "click", Args: json.RawMessage(fmt.Sprintf(`{"ref":"e%d"}`, n)), URL: "https://a.test/", Seen: "button [e1]\n"}
	}
	for n := range 5 {
		require.NoError(t, s.AddStep(ctx, "claude", step(n), 3, int64(n)))
	}
	require.NoError(t, s.AddStep(ctx, "cursor", step(9), 3, 10))
	require.NoError(t, s.KeepRead(ctx, "claude", "snapshot", "button \"Like\" [e1]\n", 11))
	require.NoError(t, s.KeepRead(ctx, "claude", "links", "- [e3] \"Luigi's\" https://a.test/r/8\n", 12))

	again, err := Open(ctx, NewCached(Split{Disk: disk, Memory: memory}))
	require.NoError(t, err)
	got, seen, err := again.Steps(ctx, "claude")
	require.NoError(t, err)
	require.Len(t, got, 3, "the last three")
	assert.Equal(t, Read{Snapshot: "button \"Like\" [e1]\n", Links: "- [e3] \"Luigi's\" https://a.test/r/8\n"}, seen)
	assert.Equal(t, step(2), got[0])
	assert.Equal(t, step(4), got[2])
	for _, k := range disk.Keys() {
		assert.NotContains(t, k, "steps", "steps are never on disk")
	}

	require.NoError(t, again.ForgetSteps(ctx, "claude", false))
	got, seen, err = again.Steps(ctx, "claude")
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.NotEmpty(t, seen.Snapshot, "saved, its refs still come from what it read")
	assert.NotEmpty(t, seen.Links, "saved, the addresses it goes to are still named by its links")
	got, _, err = again.Steps(ctx, "cursor")
	require.NoError(t, err)
	assert.Equal(t, []workflow.Call{step(9)}, got, "another client's stay")
	require.NoError(t, again.AddStep(ctx, "claude", step(7), 3, 11))
	got, _, err = again.Steps(ctx, "claude")
	require.NoError(t, err)
	assert.Equal(t, []workflow.Call{step(7)}, got, "saved, then one more call: that one")
	require.NoError(t, again.ForgetSteps(ctx, "claude", true))
	got, seen, err = again.Steps(ctx, "claude")
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Empty(t, seen, "its session ended: nothing of it is left")
	for _, k := range memory.Keys() {
		assert.NotContains(t, k, "/claude/", "its session ended: no key of it is left")
	}

	for n := range MaxWorkspaces + 5 {
		require.NoError(t, again.AddStep(ctx, fmt.Sprintf("gone-%d", n), step(n), 3, int64(100+n)))
	}
	got, _, err = again.Steps(ctx, "cursor")
	require.NoError(t, err)
	assert.Empty(t, got, "the least recently seen client's steps went")
	n := 0
	for _, k := range memory.Keys() {
		if len(k) > len(stepsKey) && k[:len(stepsKey)+1] == stepsKey+"/" {
			n++
		}
	}
	assert.Equal(t, MaxWorkspaces, n, "one step for each client kept, none of the others'")
}
