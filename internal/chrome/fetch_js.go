package chrome

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/provider"
)

// Fetch is a provider.Doer over the worker's fetch. The body streams from the ReadableStream,
// read ahead of the consumer (see streamBody). It costs a fraction of net/http's client in
// core.wasm.
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
	body := &streamBody{ctx: ctx, ac: ac, ready: make(chan struct{}, 1)}
	if b := resp.Get("body"); b.Truthy() {
		body.reader = b.Call("getReader")
		body.pump()
	} else {
		body.err = io.EOF
	}
	return &provider.HTTPResponse{Status: resp.Get("status").Int(), Header: hdr, Body: body}, nil
}

// streamBody is a response body read ahead: a read of the ReadableStream is always pending
// (a new one starts as each chunk arrives), so no chunk ever waits in the stream's queue. That
// matters when the connection drops mid-reply: a stream that errors throws away what is queued
// in it, which was the end of the reply the user had been reading. Chunks wait here instead, up
// to maxAhead bytes; past that the reading pauses until the consumer catches up.
type streamBody struct {
	ctx    context.Context
	ac     js.Value
	reader js.Value
	ready  chan struct{} // signalled when a chunk or the end arrives

	mu       sync.Mutex
	chunks   [][]byte
	queued   int
	err      error // what ends the body (io.EOF, a network error), after the chunks
	paused   bool
	inFlight bool // a read of the stream is pending: its callbacks must outlive it
	released bool
	onChunk  js.Func
	onFail   js.Func
}

const maxAhead = 8 << 20

func (s *streamBody) pump() {
	s.onChunk = js.FuncOf(func(_ js.Value, args []js.Value) any {
		s.mu.Lock()
		s.inFlight = false
		ended := s.err
		s.mu.Unlock()
		if ended != nil {
			s.end(ended) // closed while this read was pending: let the callbacks go now
			return nil
		}
		res := args[0]
		if res.Get("done").Bool() {
			s.end(io.EOF)
			return nil
		}
		v := res.Get("value")
		buf := make([]byte, v.Get("length").Int())
		js.CopyBytesToGo(buf, v)
		s.mu.Lock()
		s.chunks = append(s.chunks, buf)
		s.queued += len(buf)
		more := s.queued < maxAhead && s.err == nil
		s.paused = !more && s.err == nil
		s.mu.Unlock()
		s.signal()
		if more {
			s.next()
		}
		return nil
	})
	s.onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		s.mu.Lock()
		s.inFlight = false
		s.mu.Unlock()
		msg := "the connection failed"
		if len(args) > 0 {
			msg = jsErrorString(args[0])
		}
		s.end(errors.New(msg))
		return nil
	})
	s.next()
}

func (s *streamBody) next() {
	s.mu.Lock()
	if s.err != nil || s.inFlight {
		s.mu.Unlock()
		return
	}
	s.inFlight = true
	s.mu.Unlock()
	if _, err := jsCall(func() js.Value { return s.reader.Call("read").Call("then", s.onChunk, s.onFail) }); err != nil {
		s.mu.Lock()
		s.inFlight = false
		s.mu.Unlock()
		s.end(err)
	}
}

// end records what ends the body (the first time), and lets the callbacks go once no read is
// pending (an aborted read still calls back: it lets them go then).
func (s *streamBody) end(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	release := !s.inFlight && !s.released
	s.released = s.released || release
	s.mu.Unlock()
	if release {
		s.onChunk.Release()
		s.onFail.Release()
	}
	s.signal()
}

func (s *streamBody) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

func (s *streamBody) Read(p []byte) (int, error) {
	for {
		s.mu.Lock()
		if len(s.chunks) > 0 {
			n := copy(p, s.chunks[0])
			if n == len(s.chunks[0]) {
				s.chunks = s.chunks[1:]
			} else {
				s.chunks[0] = s.chunks[0][n:]
			}
			s.queued -= n
			resume := s.paused && s.queued < maxAhead/2
			if resume {
				s.paused = false
			}
			s.mu.Unlock()
			if resume {
				s.next()
			}
			return n, nil
		}
		err := s.err
		s.mu.Unlock()
		if err != nil {
			return 0, err
		}
		select {
		case <-s.ready:
		case <-s.ctx.Done():
			s.ac.Call("abort")
			s.end(s.ctx.Err())
		}
	}
}

func (s *streamBody) Close() error {
	s.mu.Lock()
	open := s.err == nil
	s.mu.Unlock()
	if open {
		s.end(errors.New("chrome: body closed"))
		s.ac.Call("abort")
	}
	return nil
}
