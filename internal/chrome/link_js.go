package chrome

import (
	"context"
	"errors"
	"strings"
	"sync"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/core"
	"github.com/skiff-ai/skiff/internal/link"
)

// Linker implements core.Dialer: a WebSocket to skiffd on loopback (the worker's WebSocket;
// its traffic keeps the worker alive), or, for "native:", Chrome native messaging to skiffd
// as a registered host.
type Linker struct{}

var _ core.Dialer = Linker{}

// socket turns JS events into a channel of messages the core reads.
type socket struct {
	in     chan []byte
	mu     sync.Mutex
	closed bool
	reason string
	send   func(string) error
	close  func()
	funcs  []js.Func
}

func newSocket() *socket { return &socket{in: make(chan []byte, 64)} }

func (s *socket) push(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	select {
	case s.in <- b:
	default:
		// The core reads as fast as messages come; a full buffer means it is stuck: drop the link.
		s.closeLocked("too many unread messages")
	}
}

func (s *socket) closeLocked(reason string) {
	if s.closed {
		return
	}
	s.closed, s.reason = true, reason
	close(s.in)
}

func (s *socket) ended(reason string) {
	s.mu.Lock()
	s.closeLocked(reason)
	s.mu.Unlock()
}

func (s *socket) Read(ctx context.Context) ([]byte, error) {
	select {
	case b, ok := <-s.in:
		if !ok {
			return nil, errors.New("closed: " + s.reason)
		}
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *socket) Write(_ context.Context, b []byte) error {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return errors.New("closed: " + s.reason)
	}
	return s.send(string(b))
}

func (s *socket) Close(string) {
	s.ended("closed by Skiff")
	s.close()
	for _, f := range s.funcs {
		f.Release()
	}
	s.funcs = nil
}

func (s *socket) fn(f func(args []js.Value)) js.Func {
	jf := js.FuncOf(func(_ js.Value, args []js.Value) any { f(args); return nil })
	s.funcs = append(s.funcs, jf)
	return jf
}

// ExtensionVersion is the version in the extension's manifest.
func ExtensionVersion() string {
	v, err := jsCall(func() js.Value { return chromeAPI("runtime").Call("getManifest").Get("version") })
	if err != nil || v.Type() != js.TypeString {
		return "unknown"
	}
	return v.String()
}

// wakeAlarm is the alarm that wakes the worker while a link is wanted; sw.js knows its name.
const wakeAlarm = "skiff-link"

// Wake sets or clears the alarm (every 30 s, Chrome's shortest) that brings a stopped worker
// back to retry the link.
func (Linker) Wake(ctx context.Context, on bool) {
	alarms := chromeAPI("alarms")
	if alarms.IsUndefined() {
		return
	}
	if on {
		_, _ = callAPI(ctx, alarms, "create", wakeAlarm, map[string]any{"periodInMinutes": 0.5})
		return
	}
	_, _ = callAPI(ctx, alarms, "clear", wakeAlarm)
}

func (Linker) Dial(ctx context.Context, url string) (link.Conn, error) {
	if url == "native:" {
		return dialNative()
	}
	if !strings.HasPrefix(url, "ws://127.0.0.1:") {
		return nil, errors.New("skiffd links only on loopback")
	}
	ws, err := jsCall(func() js.Value { return js.Global().Get("WebSocket").New(url) })
	if err != nil {
		return nil, err
	}
	s := newSocket()
	opened := make(chan error, 1)
	s.send = func(m string) error {
		_, err := jsCall(func() js.Value { ws.Call("send", m); return js.Undefined() })
		return err
	}
	s.close = func() { _, _ = jsCall(func() js.Value { ws.Call("close"); return js.Undefined() }) }
	ws.Set("onopen", s.fn(func([]js.Value) {
		select {
		case opened <- nil:
		default:
		}
	}))
	ws.Set("onmessage", s.fn(func(args []js.Value) {
		if len(args) > 0 {
			if d := args[0].Get("data"); d.Type() == js.TypeString {
				s.push([]byte(d.String()))
			}
		}
	}))
	ws.Set("onclose", s.fn(func(args []js.Value) {
		reason := "the connection closed"
		if len(args) > 0 {
			if r := args[0].Get("reason"); r.Type() == js.TypeString && r.String() != "" {
				reason = r.String()
			}
		}
		select {
		case opened <- errors.New(reason):
		default:
		}
		s.ended(reason)
	}))
	select {
	case err := <-opened:
		if err != nil {
			s.Close("")
			return nil, err
		}
		return s, nil
	case <-ctx.Done():
		s.Close("")
		return nil, ctx.Err()
	}
}

// dialNative connects to skiffd as Chrome's native messaging host. Chrome starts the host
// process; messages are JSON objects both ways.
func dialNative() (link.Conn, error) {
	port, err := jsCall(func() js.Value { return chromeAPI("runtime").Call("connectNative", link.NativeHost) })
	if err != nil {
		return nil, err
	}
	s := newSocket()
	json := js.Global().Get("JSON")
	s.send = func(m string) error {
		_, err := jsCall(func() js.Value { port.Call("postMessage", json.Call("parse", m)); return js.Undefined() })
		return err
	}
	s.close = func() { _, _ = jsCall(func() js.Value { port.Call("disconnect"); return js.Undefined() }) }
	port.Get("onMessage").Call("addListener", s.fn(func(args []js.Value) {
		if len(args) > 0 {
			s.push([]byte(json.Call("stringify", args[0]).String()))
		}
	}))
	port.Get("onDisconnect").Call("addListener", s.fn(func([]js.Value) {
		reason := "skiffd's native host ended"
		if le := chromeAPI("runtime").Get("lastError"); le.Type() == js.TypeObject {
			reason = jsErrorString(le)
		}
		s.ended(reason)
	}))
	return s, nil
}
