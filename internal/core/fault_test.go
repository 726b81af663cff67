package core

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
)

// faultyKV stands in for a bug below a request (a panic): its reads panic while on.
type faultyKV struct {
	store.KV
	on atomic.Bool
}

func (k *faultyKV) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	if k.on.Load() {
		panic("a bug in reading")
	}
	return k.KV.Get(ctx, keys...)
}

// A fault of Skiff's own under a request from the panel (a plain one, and one that streams)
// fails that request with a sentence, not the worker: the next requests are answered.
func TestAFaultFailsTheRequestNotTheWorker(t *testing.T) {
	kv := &faultyKV{KV: store.NewMemKV()}
	c := newCore(t, kv, "openai", "http://127.0.0.1:1")
	p := &panel{}
	c.Connect(p)
	kv.on.Store(true)
	for _, typ := range []string{"session.list", "chat.send"} {
		r := p.call(t, c, typ, obj{"text": "hi"})
		assert.Equal(t, false, r["ok"], typ)
		e, _ := r["error"].(map[string]any)
		require.NotNil(t, e, typ)
		assert.Equal(t, "Skiff ran into a fault of its own (a bug in reading) and did not finish this. Nothing else was lost; please report it.", e["message"], typ)
	}
	kv.on.Store(false)
	r := p.call(t, c, "session.list", nil)
	assert.Equal(t, true, r["ok"], "the worker answers again: %v", r)
}
