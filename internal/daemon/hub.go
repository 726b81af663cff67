package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/link"
)

// ErrNoBrowser: no extension is linked.
var ErrNoBrowser = errors.New("Skiff's browser extension is not connected to skiffd. Open Chrome with Skiff, then in Skiff's Settings › Outside agents turn the link on with the pairing token from `skiffd pair`; `skiffd doctor` checks every step")

// CallTimeout bounds a call: the user may take up to the ask timeout to answer (120 s by
// default, at most an hour), then the tool runs.
var CallTimeout = 65 * time.Minute

// Hub holds the extension's link (one at a time: a newer one replaces it) and relays calls.
type Hub struct {
	Token string // the pairing token the extension must present

	mu      sync.Mutex
	cur     *linked
	next    int64
	refused time.Time // when a link last presented a wrong token
}

type linked struct {
	conn    link.Conn
	version string
	since   time.Time
	wmu     sync.Mutex
	// pending are the calls and probes waiting for their answer, by id (a probe's answer, a
	// pong, carries no result).
	pending map[int64]chan *link.CallResult
	done    chan struct{}
}

// NewHub returns a hub that accepts links presenting token.
func NewHub(token string) *Hub {
	return &Hub{Token: token}
}

// Status is the link as doctor and /status report it.
type Status struct {
	Connected bool   `json:"connected"`
	Version   string `json:"version,omitempty"` // the extension's
	Since     int64  `json:"since,omitempty"`   // unix ms
	// Refused is when a link last presented a wrong pairing token (unix ms).
	Refused int64 `json:"refused,omitempty"`
	// RoundTripMs is a probe's round trip to the extension's worker (status?probe=1).
	RoundTripMs float64 `json:"roundTripMs,omitempty"`
}

// Status reports the link.
func (h *Hub) Status() Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	var st Status
	if !h.refused.IsZero() {
		st.Refused = h.refused.UnixMilli()
	}
	if h.cur != nil {
		st.Connected, st.Version, st.Since = true, h.cur.version, h.cur.since.UnixMilli()
	}
	return st
}

// Serve runs one link until it closes: the hello with the pairing token first (within
// link.HelloTimeout), then results and pings. A wrong token is refused with a reason.
func (h *Hub) Serve(ctx context.Context, c link.Conn) error {
	hctx, cancel := context.WithTimeout(ctx, link.HelloTimeout)
	b, err := c.Read(hctx)
	cancel()
	if err != nil {
		c.Close("no hello")
		return fmt.Errorf("the extension sent no hello: %w", err)
	}
	var hello link.Msg
	if json.Unmarshal(b, &hello) != nil || hello.Type != link.Hello {
		c.Close("expected hello")
		return errors.New("the first message was not a hello")
	}
	if !same(hello.Token, h.Token) {
		h.mu.Lock()
		h.refused = time.Now()
		h.mu.Unlock()
		msg, _ := json.Marshal(link.Msg{Type: link.Refused, Message: "the pairing token is not skiffd's: copy the one `skiffd pair` prints into Skiff's settings"})
		_ = c.Write(ctx, msg)
		c.Close("wrong pairing token")
		return errors.New("refused a link with a wrong pairing token")
	}
	l := &linked{conn: c, version: hello.Version, since: time.Now(), pending: map[int64]chan *link.CallResult{}, done: make(chan struct{})}
	welcome, _ := json.Marshal(link.Msg{Type: link.Welcome, Version: Version})
	if err := c.Write(ctx, welcome); err != nil {
		return err
	}
	h.mu.Lock()
	old := h.cur
	h.cur = l
	h.mu.Unlock()
	if old != nil {
		old.conn.Close("replaced by a newer link")
	}
	defer func() {
		h.mu.Lock()
		if h.cur == l {
			h.cur = nil
		}
		h.mu.Unlock()
		close(l.done)
		c.Close("")
	}()
	for {
		// The extension pings every link.Keepalive; three missed pings end the link.
		rctx, cancel := context.WithTimeout(ctx, 3*link.Keepalive)
		b, err := c.Read(rctx)
		cancel()
		if err != nil {
			return err
		}
		var m link.Msg
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		switch m.Type {
		case link.Ping:
			pong, _ := json.Marshal(link.Msg{Type: link.Pong})
			if err := l.write(ctx, pong); err != nil {
				return err
			}
		case link.Result, link.Pong:
			l.wmu.Lock()
			ch := l.pending[m.ID]
			delete(l.pending, m.ID)
			l.wmu.Unlock()
			if ch != nil && (m.Result != nil || m.Type == link.Pong) {
				ch <- m.Result
			}
		}
	}
}

func (l *linked) write(ctx context.Context, b []byte) error {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	return l.conn.Write(ctx, b)
}

// Call runs a tool in the browser for client and waits for its result. The result of a call
// the user denied or a tool that failed has IsError; an error means the call never got an
// answer (no link, the link dropped, ctx ended).
func (h *Hub) Call(ctx context.Context, client link.Client, name string, args json.RawMessage) (*link.CallResult, error) {
	ctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	r, err := h.ask(ctx, link.Msg{Type: link.Call, Client: &client, Tool: name, Args: args})
	if errors.Is(err, errDropped) {
		return nil, errors.New("the browser's link dropped before the call finished (the browser closed, or its worker restarted); the call may have run: check the page before trying again")
	}
	return r, err
}

// Probe measures a round trip to the extension's worker: a ping it must answer.
func (h *Hub) Probe(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	_, err := h.ask(ctx, link.Msg{Type: link.Ping})
	return time.Since(start), err
}

var errDropped = errors.New("the link dropped")

// ask sends m, numbered, over the current link and waits for the answer with its number.
func (h *Hub) ask(ctx context.Context, m link.Msg) (*link.CallResult, error) {
	h.mu.Lock()
	l := h.cur
	h.next++
	m.ID = h.next
	h.mu.Unlock()
	if l == nil {
		return nil, ErrNoBrowser
	}
	ch := make(chan *link.CallResult, 1)
	l.wmu.Lock()
	l.pending[m.ID] = ch
	l.wmu.Unlock()
	defer func() {
		l.wmu.Lock()
		delete(l.pending, m.ID)
		l.wmu.Unlock()
	}()
	b, _ := json.Marshal(m)
	if err := l.write(ctx, b); err != nil {
		return nil, fmt.Errorf("the message could not reach the browser: %w", err)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-l.done:
		return nil, errDropped
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Bye tells the extension that a client's session ended (its workspace can go).
func (h *Hub) Bye(client link.Client) {
	h.mu.Lock()
	l := h.cur
	h.mu.Unlock()
	if l == nil {
		return
	}
	b, _ := json.Marshal(link.Msg{Type: link.Bye, Client: &client})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = l.write(ctx, b)
}

// Drop closes the current link (skiffd is stopping: hijacked WebSockets outlive the server).
func (h *Hub) Drop() {
	h.mu.Lock()
	l := h.cur
	h.mu.Unlock()
	if l != nil {
		l.conn.Close("skiffd is stopping")
	}
}
