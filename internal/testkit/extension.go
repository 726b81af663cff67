//go:build !js

package testkit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/link/wslink"
)

// Extension links to a skiffd as Skiff's worker does (the extension's origin, the pairing
// token, the typed link) and records what skiffd sends it: tool calls (answered with
// CallText), agent events, and agent questions (answered with Answer).
type Extension struct {
	Peer     *link.Peer
	CallText string
	Answer   string

	mu     sync.Mutex
	events []link.AgentEvent
	calls  []link.CallParams
	asks   []link.AgentQuestion
	got    chan struct{}
}

// LinkExtension dials base's /ext from origin with the pairing token and serves the link
// until ctx ends.
func LinkExtension(t testing.TB, ctx context.Context, base, origin, token string) *Extension {
	t.Helper()
	h := http.Header{}
	h.Set("Origin", origin)
	ws, _, err := websocket.Dial(ctx, strings.Replace(base, "http://", "ws://", 1)+link.Path, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(64 << 20)
	b, _ := json.Marshal(link.Handshake{Type: link.Hello, Token: token, Protocol: link.Protocol})
	if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	if _, msg, err := ws.Read(ctx); err != nil || !strings.Contains(string(msg), link.Welcome) {
		t.Fatalf("skiffd did not welcome the extension: %s %v", msg, err)
	}
	x := &Extension{got: make(chan struct{}, 1), Answer: "allow_once", CallText: "[1] Example Domain"}
	hs := link.Handlers{}
	link.Ping.Handle(hs, func(context.Context, struct{}) (struct{}, error) { return struct{}{}, nil })
	link.ToolCall.Handle(hs, func(_ context.Context, p link.CallParams) (link.CallResult, error) {
		x.mu.Lock()
		x.calls = append(x.calls, p)
		text := x.CallText
		x.mu.Unlock()
		return link.CallResult{Text: text}, nil
	})
	link.AgentEvents.Handle(hs, func(_ context.Context, e link.AgentEvent) (struct{}, error) {
		x.mu.Lock()
		x.events = append(x.events, e)
		x.mu.Unlock()
		select {
		case x.got <- struct{}{}:
		default:
		}
		return struct{}{}, nil
	})
	link.AgentAsk.Handle(hs, func(_ context.Context, q link.AgentQuestion) (string, error) {
		x.mu.Lock()
		defer x.mu.Unlock()
		x.asks = append(x.asks, q)
		return x.Answer, nil
	})
	x.Peer = link.NewPeer(wslink.Conn(ws), hs)
	go func() { _ = x.Peer.Run(ctx, 0) }()
	return x
}

// Text is what the agent said in session so far.
func (x *Extension) Text(session string) string {
	x.mu.Lock()
	defer x.mu.Unlock()
	var b strings.Builder
	for _, e := range x.events {
		if e.Session == session && e.Kind == "text" {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// WaitText waits until session's text is want (events may trail the prompt's answer).
func (x *Extension) WaitText(ctx context.Context, session, want string) error {
	return x.waitText(ctx, session, want, func(s string) bool { return s == want })
}

// WaitTextHas waits until session's text holds part.
func (x *Extension) WaitTextHas(ctx context.Context, session, part string) error {
	return x.waitText(ctx, session, "… "+part+" …", func(s string) bool { return strings.Contains(s, part) })
}

func (x *Extension) waitText(ctx context.Context, session, want string, ok func(string) bool) error {
	for !ok(x.Text(session)) {
		select {
		case <-x.got:
		case <-ctx.Done():
			return fmt.Errorf("the text of %s is %q, not %q", session, x.Text(session), want)
		}
	}
	return nil
}

// Calls are the tool calls skiffd sent; Asks the agents' questions.
func (x *Extension) Calls() []link.CallParams {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]link.CallParams(nil), x.calls...)
}

func (x *Extension) Asks() []link.AgentQuestion {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]link.AgentQuestion(nil), x.asks...)
}
