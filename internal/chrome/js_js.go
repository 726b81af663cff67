package chrome

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
)

// jsCall runs f and turns a thrown JS exception into an error.
func jsCall(f func() js.Value) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			if je, ok := r.(js.Error); ok {
				err = errors.New(je.Error())
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	return f(), nil
}

// await waits for a Promise (as net/http's roundtrip_js does: two callbacks that release each
// other, a buffered channel, and ctx). It must not be called from a js.FuncOf callback.
func await(ctx context.Context, p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		catch.Release()
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- result{v: v}
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		catch.Release()
		msg := "promise rejected"
		if len(args) > 0 {
			msg = jsErrorString(args[0])
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	if _, err := jsCall(func() js.Value { return p.Call("then", then, catch) }); err != nil {
		then.Release()
		catch.Release()
		return js.Undefined(), err
	}
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		return js.Undefined(), ctx.Err()
	}
}

func jsErrorString(v js.Value) string {
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			return m.String()
		}
	}
	return js.Global().Call("String", v).String()
}

// callAPI calls a promise-returning chrome.* API and awaits it.
func callAPI(ctx context.Context, obj js.Value, method string, args ...any) (js.Value, error) {
	p, err := jsCall(func() js.Value { return obj.Call(method, args...) })
	if err != nil {
		return js.Undefined(), fmt.Errorf("%s: %w", method, err)
	}
	v, err := await(ctx, p)
	if err != nil {
		return v, fmt.Errorf("%s: %w", method, err)
	}
	return v, nil
}

func chromeAPI(path ...string) js.Value {
	v := js.Global().Get("chrome")
	for _, p := range path {
		v = v.Get(p)
	}
	return v
}

// ExtensionID is chrome.runtime.id.
func ExtensionID() string { return chromeAPI("runtime", "id").String() }
