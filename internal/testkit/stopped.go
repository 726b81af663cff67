package testkit

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/skiff-ai/skiff/internal/store"
)

// StoppingKV is a store.KV over Disk whose worker stops after Left more writes: every write
// from then on changes nothing and fails, as the writes a stopped worker never made. Reads
// still answer (the code under test reads on its way to the error it returns). It is how a
// test stops a worker between any two of a change's writes, each in turn.
type StoppingKV struct {
	Disk *store.MemKV
	mu   sync.Mutex
	Left int
	// Stopped: a write was refused.
	Stopped bool
}

var errStopped = errors.New("the worker stopped")

func (k *StoppingKV) write() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.Left <= 0 {
		k.Stopped = true
		return errStopped
	}
	k.Left--
	return nil
}

func (k *StoppingKV) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	return k.Disk.Get(ctx, keys...)
}

func (k *StoppingKV) Set(ctx context.Context, items map[string][]byte) error {
	if err := k.write(); err != nil {
		return err
	}
	return k.Disk.Set(ctx, items)
}

func (k *StoppingKV) Delete(ctx context.Context, keys ...string) error {
	if err := k.write(); err != nil {
		return err
	}
	return k.Disk.Delete(ctx, keys...)
}

// EveryStop runs change over a copy of what start stored, once for each point a worker can
// stop at (before its first write, after it, … until the change ends without stopping), then
// opens the store again as the next worker does, recovers, and hands check the storage. It
// returns how many stops it tried.
func EveryStop(t *testing.T, start func(*store.Store), change func(*store.Store) error, check func(t *testing.T, kv *store.MemKV, stopped bool)) int {
	t.Helper()
	ctx := context.Background()
	for n := 0; ; n++ {
		disk := store.NewMemKV()
		s, err := store.Open(ctx, disk)
		if err != nil {
			t.Fatal(err)
		}
		start(s)
		kv := &StoppingKV{Disk: disk, Left: n}
		s, err = store.Open(ctx, kv)
		if err != nil {
			t.Fatal(err)
		}
		_ = change(s)
		next, err := store.Open(ctx, disk)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := next.Recover(ctx); err != nil {
			t.Fatalf("stopped after %d writes: recovering: %v", n, err)
		}
		t.Run("", func(t *testing.T) { check(t, disk, kv.Stopped) })
		if t.Failed() {
			t.Fatalf("stopped after %d writes", n)
		}
		if !kv.Stopped {
			return n + 1
		}
	}
}

// Unheld lists the keys in kv that no listed chat holds: a chat's head, parts, draft or queue
// when the chat is not in the list, a part of a chat or of the list of chats past what its
// head counts, an image or file no message or queued message holds, and a change left under
// way (store.Pending).
func Unheld(t testing.TB, kv *store.MemKV) []string {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, kv)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := s.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	listed, held := map[string]bool{}, map[string]bool{}
	for _, m := range idx {
		listed[m.ID] = true
		ses, err := s.Session(ctx, m.ID)
		if err != nil {
			t.Fatalf("chat %s is listed and cannot be read: %v", m.ID, err)
		}
		q, err := s.Queue(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ses.Messages {
			for _, id := range m.Images {
				held[id] = true
			}
			if m.Tool != nil && m.Tool.Image != "" {
				held[m.Tool.Image] = true
			}
		}
		for _, m := range q {
			for _, id := range m.Images {
				held[id] = true
			}
		}
	}
	// counted says whether the head at key counts part n (a chat's head, or the list of
	// chats': each says how many parts hold what comes before it).
	counted := func(key, n string) bool {
		got, _ := kv.Get(ctx, key)
		var head struct {
			Parts int `json:"parts"`
		}
		k, err := strconv.Atoi(n)
		return err == nil && json.Unmarshal(got[key], &head) == nil && k < head.Parts
	}
	var out []string
	for _, k := range kv.Keys() {
		private := strings.HasPrefix(k, store.MemoryPrefix)
		prefix := ""
		if private {
			prefix = store.MemoryPrefix
		}
		bare := strings.TrimPrefix(k, store.MemoryPrefix)
		kind, id, _ := strings.Cut(bare, "/")
		switch kind {
		case "session", "draft", "queue":
			if !listed[id] {
				out = append(out, k)
			}
		case "part":
			id, n, _ := strings.Cut(id, "/")
			if !listed[id] || !counted(prefix+"session/"+id, n) {
				out = append(out, k)
			}
		case "sessions":
			if id != "" && !counted(prefix+"sessions", id) {
				out = append(out, k)
			}
		case "image", "original":
			if !held[id] {
				out = append(out, k)
			}
		case "pending":
			out = append(out, k)
		}
	}
	return out
}
