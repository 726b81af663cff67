package store

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countKV counts the reads that reach the storage, and can hold a read until told.
type countKV struct {
	*MemKV
	mu    sync.Mutex
	reads int
	sets  []string // the keys of each write that reached the storage, and of each delete
	dels  []string
	hold  chan struct{} // when set, a Get waits on it after reading
	read  chan struct{} // when set, a Get says it has read
}

func (k *countKV) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	k.mu.Lock()
	k.reads++
	hold, read := k.hold, k.read
	k.mu.Unlock()
	got, err := k.MemKV.Get(ctx, keys...)
	if read != nil {
		read <- struct{}{}
	}
	if hold != nil {
		<-hold
	}
	return got, err
}

func (k *countKV) Set(ctx context.Context, items map[string][]byte) error {
	k.mu.Lock()
	for key := range items {
		k.sets = append(k.sets, key)
	}
	k.mu.Unlock()
	return k.MemKV.Set(ctx, items)
}

func (k *countKV) Delete(ctx context.Context, keys ...string) error {
	k.mu.Lock()
	k.dels = append(k.dels, keys...)
	k.mu.Unlock()
	return k.MemKV.Delete(ctx, keys...)
}

func (k *countKV) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.reads
}

func TestCachedReadsOnce(t *testing.T) {
	kv := &countKV{MemKV: NewMemKV()}
	require.NoError(t, kv.MemKV.Set(ctx, map[string][]byte{"a": []byte("1")}))
	c := NewCached(kv)
	for range 3 {
		got, err := c.Get(ctx, "a", "absent")
		require.NoError(t, err)
		assert.Equal(t, map[string][]byte{"a": []byte("1")}, got)
	}
	assert.Equal(t, 1, kv.count(), "a key read (or found absent) once is not asked again")

	require.NoError(t, c.Set(ctx, map[string][]byte{"absent": []byte("2")}))
	got, _ := c.Get(ctx, "absent")
	assert.Equal(t, "2", string(got["absent"]))
	require.NoError(t, c.Delete(ctx, "a"))
	got, _ = c.Get(ctx, "a")
	assert.Empty(t, got)
	assert.Equal(t, 1, kv.count(), "what the cache wrote or deleted it knows")

	// What it hands out is a copy.
	got, _ = c.Get(ctx, "absent")
	got["absent"][0] = 'x'
	got, _ = c.Get(ctx, "absent")
	assert.Equal(t, "2", string(got["absent"]))

	// Big values are not kept.
	c.MaxValue = 4
	require.NoError(t, c.Set(ctx, map[string][]byte{"big": []byte("12345")}))
	got, _ = c.Get(ctx, "big")
	assert.Equal(t, "12345", string(got["big"]))
	assert.Equal(t, 2, kv.count())
}

// A value the storage already holds is not written again, and a key known absent is not
// deleted again; anything else is.
func TestCachedWritesOnlyChanges(t *testing.T) {
	kv := &countKV{MemKV: NewMemKV()}
	c := NewCached(kv)
	require.NoError(t, c.Set(ctx, map[string][]byte{"a": []byte("1"), "b": []byte("2")}))
	require.NoError(t, c.Set(ctx, map[string][]byte{"a": []byte("1")}))
	require.NoError(t, c.Set(ctx, map[string][]byte{"a": []byte("1"), "b": []byte("3")}))
	assert.ElementsMatch(t, []string{"a", "b", "b"}, kv.sets, "an unchanged value costs no write")
	got, _ := kv.MemKV.Get(ctx, "a", "b")
	assert.Equal(t, map[string][]byte{"a": []byte("1"), "b": []byte("3")}, got)

	require.NoError(t, c.Delete(ctx, "draft"))
	require.NoError(t, c.Delete(ctx, "draft"))
	require.NoError(t, c.Delete(ctx, "draft", "b"))
	assert.Equal(t, []string{"draft", "b"}, kv.dels, "a key deleted once is known absent")

	// Someone else's write makes the cache write again, even the value it had.
	c.Changed("a", []byte("9"), false)
	require.NoError(t, c.Set(ctx, map[string][]byte{"a": []byte("1")}))
	c.Changed("draft", []byte("x"), false)
	require.NoError(t, c.Delete(ctx, "draft"))
	assert.Len(t, kv.sets, 4)
	assert.Equal(t, []string{"draft", "b", "draft"}, kv.dels)
}

// Someone else's write (a cleared storage) is seen once the owner says so; the echo of the
// cache's own write costs nothing; an echo of an older write of its own makes it ask again.
func TestCachedChanged(t *testing.T) {
	kv := &countKV{MemKV: NewMemKV()}
	c := NewCached(kv)
	require.NoError(t, c.Set(ctx, map[string][]byte{"k": []byte("A")}))
	c.Changed("k", []byte("A"), false) // the echo
	got, _ := c.Get(ctx, "k")
	assert.Equal(t, "A", string(got["k"]))
	assert.Equal(t, 0, kv.count())

	require.NoError(t, kv.MemKV.Set(ctx, map[string][]byte{"k": []byte("B")})) // someone else
	c.Changed("k", []byte("B"), false)
	got, _ = c.Get(ctx, "k")
	assert.Equal(t, "B", string(got["k"]))

	require.NoError(t, c.Set(ctx, map[string][]byte{"k": []byte("C")}))
	require.NoError(t, c.Set(ctx, map[string][]byte{"k": []byte("D")}))
	c.Changed("k", []byte("C"), false) // an old echo arriving late
	got, _ = c.Get(ctx, "k")
	assert.Equal(t, "D", string(got["k"]))

	require.NoError(t, kv.MemKV.Delete(ctx, "k"))
	c.Changed("k", nil, true)
	got, _ = c.Get(ctx, "k")
	assert.Empty(t, got)

	require.NoError(t, c.Set(ctx, map[string][]byte{"x": []byte("1")}))
	require.NoError(t, kv.MemKV.Delete(ctx, "x"))
	c.Changed("x", nil, true) // storage.clear() reports each key it removed
	got, _ = c.Get(ctx, "x")
	assert.Empty(t, got, "a cleared storage is read again")
}

// A read that was under way while the key was written does not put the old value back.
func TestCachedReadRacingAWrite(t *testing.T) {
	hold := make(chan struct{})
	kv := &countKV{MemKV: NewMemKV(), hold: hold, read: make(chan struct{})}
	require.NoError(t, kv.MemKV.Set(ctx, map[string][]byte{"k": []byte("old")}))
	c := NewCached(kv)
	done := make(chan map[string][]byte)
	go func() {
		got, _ := c.Get(ctx, "k")
		done <- got
	}()
	<-kv.read // the storage answered "old"; the answer is still on its way
	kv.mu.Lock()
	kv.hold, kv.read = nil, nil
	kv.mu.Unlock()
	require.NoError(t, c.Set(ctx, map[string][]byte{"k": []byte("new")}))
	close(hold)
	assert.Equal(t, "old", string((<-done)["k"]))
	got, _ := c.Get(ctx, "k")
	assert.Equal(t, "new", string(got["k"]), "the late read of the old value was kept")
}

// Read-modify-writes under the store's lock, from many goroutines, through the cache, end
// where the same writes straight to the storage end.
func TestCachedUnderTheStore(t *testing.T) {
	kv := NewMemKV()
	s, err := Open(ctx, NewCached(kv))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			require.NoError(t, s.MarkCall(ctx, fmt.Sprint("c", i), CallRunning, 1))
			require.NoError(t, s.Audit(ctx, AuditEntry{Tool: fmt.Sprint("t", i)}))
		})
	}
	wg.Wait()
	plain, err := Open(ctx, kv)
	require.NoError(t, err)
	log, err := plain.AuditLog(ctx, false)
	require.NoError(t, err)
	assert.Len(t, log, 40)
	for i := range 40 {
		st, err := plain.CallState(ctx, fmt.Sprint("c", i))
		require.NoError(t, err)
		assert.Equal(t, CallRunning, st)
	}
}
