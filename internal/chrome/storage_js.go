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
