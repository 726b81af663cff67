package chrome

import (
	"context"
	"errors"
	"io"
	"strings"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/provider"
)

// Fetch is a provider.Doer over the worker's fetch. The body streams: each Read awaits one
// chunk of the ReadableStream. It costs a fraction of net/http's client in core.wasm.
type Fetch struct{}

var _ provider.Doer = Fetch{}

func (Fetch) Do(ctx context.Context, r *provider.HTTPRequest) (*provider.HTTPResponse, error) {
	ac := js.Global().Get("AbortController").New()
	opt := js.Global().Get("Object").New()
	opt.Set("method", r.Method)
	h := js.Global().Get("Object").New()
	for k, v := range r.Header {
		h.Set(k, v)
	}
	opt.Set("headers", h)
	if len(r.Body) > 0 {
		b := js.Global().Get("Uint8Array").New(len(r.Body))
		js.CopyBytesToJS(b, r.Body)
		opt.Set("body", b)
	}
	opt.Set("signal", ac.Get("signal"))
	opt.Set("credentials", "omit") // never send the user's cookies for provider hosts
	opt.Set("cache", "no-store")

	p, err := jsCall(func() js.Value { return js.Global().Call("fetch", r.URL, opt) })
	if err != nil {
		return nil, err
	}
	resp, err := await(ctx, p)
	if err != nil {
		ac.Call("abort")
		return nil, err
	}
	hdr := map[string]string{}
	it := resp.Get("headers").Call("entries")
	for {
		n := it.Call("next")
		if n.Get("done").Bool() {
			break
		}
		kv := n.Get("value")
		hdr[strings.ToLower(kv.Index(0).String())] = kv.Index(1).String()
	}
	body := &streamBody{ctx: ctx, ac: ac}
	if b := resp.Get("body"); b.Truthy() {
		body.reader = b.Call("getReader")
	}
	return &provider.HTTPResponse{Status: resp.Get("status").Int(), Header: hdr, Body: body}, nil
}

// streamBody reads a ReadableStream chunk by chunk.
type streamBody struct {
	ctx     context.Context
	ac      js.Value
	reader  js.Value
	pending []byte
	err     error
}

func (s *streamBody) Read(p []byte) (int, error) {
	for len(s.pending) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		if s.reader.IsUndefined() || s.reader.IsNull() {
			s.err = io.EOF
			continue
		}
		res, err := await(s.ctx, s.reader.Call("read"))
		if err != nil {
			if s.ctx.Err() != nil {
				s.ac.Call("abort")
				err = s.ctx.Err()
			}
			s.err = err
			continue
		}
		if res.Get("done").Bool() {
			s.err = io.EOF
			continue
		}
		v := res.Get("value")
		buf := make([]byte, v.Get("length").Int())
		js.CopyBytesToGo(buf, v)
		s.pending = buf
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

func (s *streamBody) Close() error {
	if s.err == nil {
		s.err = errors.New("chrome: body closed")
		s.ac.Call("abort")
	}
	return nil
}
