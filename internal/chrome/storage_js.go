package chrome

import (
	"context"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/store"
)

// Storage is a store.KV over chrome.storage.local. Values are stored as JSON strings.
type Storage struct{}

var _ store.KV = Storage{}

// CachedStorage is Storage behind a store.Cached that follows chrome.storage.onChanged, so a
// change made elsewhere (a test clearing the storage, another instance of the worker) is seen.
// The listener only serves this instance: it need not be registered in the worker's first turn.
func CachedStorage() *store.Cached {
	c := store.NewCached(Storage{})
	chromeAPI("storage", "onChanged").Call("addListener", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 || args[1].String() != "local" {
			return nil
		}
		changes := args[0]
		keys := js.Global().Get("Object").Call("keys", changes)
		for i := range keys.Length() {
			k := keys.Index(i).String()
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

func local() js.Value { return chromeAPI("storage", "local") }

func keysArray(keys []string) js.Value {
	a := js.Global().Get("Array").New(len(keys))
	for i, k := range keys {
		a.SetIndex(i, k)
	}
	return a
}

func (Storage) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	v, err := callAPI(ctx, local(), "get", keysArray(keys))
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

func (Storage) Set(ctx context.Context, items map[string][]byte) error {
	o := js.Global().Get("Object").New()
	for k, v := range items {
		o.Set(k, string(v))
	}
	_, err := callAPI(ctx, local(), "set", o)
	if err != nil && strings.Contains(strings.ToUpper(err.Error()), "QUOTA") {
		return fmt.Errorf("%v: %w", err, store.ErrQuota)
	}
	return err
}

func (Storage) Delete(ctx context.Context, keys ...string) error {
	_, err := callAPI(ctx, local(), "remove", keysArray(keys))
	return err
}
