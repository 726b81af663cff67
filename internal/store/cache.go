package store

import (
	"bytes"
	"context"
	"hash/maphash"
	"sync"
)

// Cached is a KV that remembers what it read and wrote, so that the small keys every tool call
// reads (settings, policies, the journal, the audit head) cost no round trip to the browser.
// Writes go through at once. Someone else may write the same storage (a test clearing it, a
// second worker instance); whoever owns the KV tells the cache with Changed, and a change that
// is not what the cache holds drops the key, so the next read asks the storage again.
//
// A read that raced a write or a change is not remembered: each key has a generation, bumped by
// every write and change, and a read fills the cache only if its key's generation did not move
// while it was asking.
type Cached struct {
	kv KV
	// MaxValue is the largest value remembered (bigger ones, long chats, are read each time).
	MaxValue int

	mu   sync.Mutex
	vals map[string][]byte
	// sums are a hash of what the storage holds at each key the cache knows, its bytes kept
	// or not (too large, or dropped when the cache filled): a write of the same bytes again
	// (a long chat's earlier parts, at each save) is skipped all the same.
	sums map[string]uint64
	seed maphash.Seed
	miss map[string]bool // known absent
	gen  map[string]uint64
	size int
}

// MaxCached bounds the bytes a Cached holds in all; past it, it forgets everything and starts
// again (the hot keys come back on their next read).
const MaxCached = 4 << 20

// NewCached wraps kv.
func NewCached(kv KV) *Cached {
	return &Cached{kv: kv, MaxValue: 128 << 10, vals: map[string][]byte{}, sums: map[string]uint64{}, seed: maphash.MakeSeed(),
		miss: map[string]bool{}, gen: map[string]uint64{}}
}

var _ KV = (*Cached)(nil)

func (c *Cached) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(keys))
	var ask []string
	c.mu.Lock()
	for _, k := range keys {
		if v, ok := c.vals[k]; ok {
			out[k] = bytes.Clone(v)
		} else if !c.miss[k] {
			ask = append(ask, k)
		}
	}
	gens := make([]uint64, len(ask))
	for i, k := range ask {
		gens[i] = c.gen[k]
	}
	c.mu.Unlock()
	if len(ask) == 0 {
		return out, nil
	}
	got, err := c.kv.Get(ctx, ask...)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range ask {
		v, ok := got[k]
		if ok {
			out[k] = v
		}
		if c.gen[k] != gens[i] {
			continue // written or changed meanwhile: what was read may be old
		}
		if ok {
			c.keep(k, v)
		} else {
			c.miss[k] = true
		}
	}
	return out, nil
}

func (c *Cached) Set(ctx context.Context, items map[string][]byte) error {
	c.mu.Lock()
	// A value the storage already holds is not written again (a chat's index entry that did
	// not change, the chat the panel shows opened again): a write is a round trip to the
	// browser, and every instance's change event after it.
	changed := make(map[string][]byte, len(items))
	for k, v := range items {
		if !c.holds(k, v) {
			changed[k] = v
		}
	}
	if len(changed) == 0 {
		c.mu.Unlock()
		return nil
	}
	items = changed
	for k := range items {
		c.forget(k) // until the write is done, a read asks the storage
	}
	c.mu.Unlock()
	if err := c.kv.Set(ctx, items); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, v := range items {
		c.gen[k]++
		c.keep(k, bytes.Clone(v))
	}
	return nil
}

func (c *Cached) Delete(ctx context.Context, keys ...string) error {
	c.mu.Lock()
	// A key known to be absent is not deleted again (a chat's draft, dropped at every save).
	var present []string
	for _, k := range keys {
		if !c.miss[k] {
			present = append(present, k)
		}
	}
	if keys = present; len(keys) == 0 {
		c.mu.Unlock()
		return nil
	}
	for _, k := range keys {
		c.forget(k)
	}
	c.mu.Unlock()
	if err := c.kv.Delete(ctx, keys...); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range keys {
		c.gen[k]++
		c.miss[k] = true
	}
	return nil
}

// Changed tells the cache that key now holds value in the storage (removed: it is gone). A
// change the cache already holds (the echo of its own write) changes nothing.
func (c *Cached) Changed(key string, value []byte, removed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !removed && c.holds(key, value) {
		return
	}
	if removed && c.miss[key] {
		return
	}
	c.forget(key)
}

// holds says whether the storage is known to hold v at k; c.mu is held.
func (c *Cached) holds(k string, v []byte) bool {
	if old, ok := c.vals[k]; ok {
		return bytes.Equal(old, v)
	}
	sum, ok := c.sums[k]
	return ok && sum == maphash.Bytes(c.seed, v)
}

// forget drops key and moves its generation; c.mu is held.
func (c *Cached) forget(k string) {
	c.gen[k]++
	if v, ok := c.vals[k]; ok {
		c.size -= len(v)
		delete(c.vals, k)
	}
	delete(c.sums, k)
	delete(c.miss, k)
}

// keep remembers v for k if it is small enough; c.mu is held.
func (c *Cached) keep(k string, v []byte) {
	if old, ok := c.vals[k]; ok {
		c.size -= len(old)
		delete(c.vals, k)
	}
	delete(c.miss, k)
	c.sums[k] = maphash.Bytes(c.seed, v)
	if len(v) > c.MaxValue {
		return
	}
	if c.size+len(v) > MaxCached {
		for k2 := range c.vals {
			c.gen[k2]++
		}
		c.vals, c.size = map[string][]byte{}, 0
	}
	c.vals[k] = v
	c.size += len(v)
}
