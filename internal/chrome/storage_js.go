package chrome

import (
	"context"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/store"
)

// Storage is a store.KV over chrome.storage.local (or, with Memory, chrome.storage.session:
// memory, gone when the browser closes). Values are stored as JSON strings.
type Storage struct{ Memory bool }

var _ store.KV = Storage{}

// CachedStorage is Storage behind a store.Cached that follows chrome.storage.onChanged, so a
// change made elsewhere (a test clearing the storage, another instance of the worker) is seen.
// The listener only serves this instance: it need not be registered in the worker's first turn.
// A private chat's keys (store.MemoryPrefix) are kept in chrome.storage.session.
func CachedStorage() *store.Cached {
	c := store.NewCached(store.Split{Disk: Storage{}, Memory: Storage{Memory: true}})
	chromeAPI("storage", "onChanged").Call("addListener", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 {
			return nil
		}
		if area := args[1].String(); area != "local" && area != "session" {
			return nil
		}
		changes := args[0]
		keys := js.Global().Get("Object").Call("keys", changes)
		for i := range keys.Length() {
			k := keys.Index(i).String()
			if store.InMemory(k) != (args[1].String() == "session") {
				continue // the panel's own keys in chrome.storage.session are not the store's
			}
			nv := changes.Get(k).Get("newValue")
			if nv.Type() == js.TypeString {
				c.Changed(k, []byte(nv.String()), false)
			} else if nv.IsUndefined() {
				c.Changed(k, nil, true)
			} else {
				c.Changed(k, nil, false) // not a value Skiff wrote: read it again
			}
		}
		return nil
	}))
	return c
}

func (s Storage) area() js.Value {
	if s.Memory {
		return chromeAPI("storage", "session")
	}
	return chromeAPI("storage", "local")
}

func keysArray(keys []string) js.Value {
	a := js.Global().Get("Array").New(len(keys))
	for i, k := range keys {
		a.SetIndex(i, k)
	}
	return a
}

func (s Storage) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	v, err := callAPI(ctx, s.area(), "get", keysArray(keys))
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, k := range keys {
		if x := v.Get(k); x.Type() == js.TypeString {
			out[k] = []byte(x.String())
		}
	}
	return out, nil
}

func (s Storage) Set(ctx context.Context, items map[string][]byte) error {
	o := js.Global().Get("Object").New()
	for k, v := range items {
		o.Set(k, string(v))
	}
	_, err := callAPI(ctx, s.area(), "set", o)
	if err != nil && strings.Contains(strings.ToUpper(err.Error()), "QUOTA") {
		return fmt.Errorf("%v: %w", err, store.ErrQuota)
	}
	return err
}

func (s Storage) Delete(ctx context.Context, keys ...string) error {
	_, err := callAPI(ctx, s.area(), "remove", keysArray(keys))
	return err
}
