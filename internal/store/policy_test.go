package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/permission"
)

func TestPolicies(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, NewMemKV())
	require.NoError(t, err)
	require.NoError(t, st.SetPolicy(ctx, permission.Policy{Tool: "act:click", Origin: "https://a.com/", Decision: permission.AllowAlways, UpdatedAt: 1}))
	require.NoError(t, st.SetPolicy(ctx, permission.Policy{Tool: "tab_read:*", Origin: "*.b.com", Decision: permission.DenyAlways, UpdatedAt: 2}))
	require.NoError(t, st.SetPolicy(ctx, permission.Policy{Tool: "act:click", Origin: "https://a.com", Decision: permission.DenyAlways, UpdatedAt: 3}))
	ps, err := st.Policies(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 2, "the same patterns replace")
	assert.Equal(t, permission.Policy{Tool: "act:click", Origin: "https://a.com", Decision: permission.DenyAlways, UpdatedAt: 3}, ps[0])
	assert.Equal(t, "read:*", ps[1].Tool)
	assert.ErrorIs(t, st.SetPolicy(ctx, permission.Policy{Tool: "act:click", Origin: "a.com", Decision: permission.AllowAlways}), permission.ErrPattern)
	require.NoError(t, st.RevokePolicy(ctx, "act:click", "https://a.com", false))
	assert.ErrorIs(t, st.RevokePolicy(ctx, "act:click", "https://a.com", false), ErrNoPolicy)
	require.NoError(t, st.RevokePolicy(ctx, "", "", false))
	ps, _ = st.Policies(ctx)
	assert.Empty(t, ps)
}

// The audit log keeps the last AuditChunks*AuditChunk entries, and an entry costs one chunk.
func TestAuditIsBoundedAndCheap(t *testing.T) {
	ctx := context.Background()
	kv := NewMemKV()
	st, err := Open(ctx, kv)
	require.NoError(t, err)
	total := AuditChunk*AuditChunks + 120
	for i := range total {
		before := kv.Writes
		require.NoError(t, st.Audit(ctx, AuditEntry{At: int64(i), Tool: "click", What: fmt.Sprintf("call %d", i), OK: true}))
		assert.Less(t, kv.Writes-before, 12_000, "one append writes one chunk")
	}
	log, err := st.AuditLog(ctx, false)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(log), AuditChunk*AuditChunks)
	assert.GreaterOrEqual(t, len(log), AuditChunk*(AuditChunks-1))
	assert.Equal(t, fmt.Sprintf("call %d", total-1), log[0].What, "newest first")
	keys := 0
	for k := range kv.m {
		if len(k) > 6 && k[:6] == "audit/" {
			keys++
		}
	}
	assert.LessOrEqual(t, keys, AuditChunks+1, "old chunks are deleted")
}
