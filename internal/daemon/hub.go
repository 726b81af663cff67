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

// Conn is the extension's side of a link: a WebSocket or a native messaging pipe.
type Conn interface {
	Read(ctx context.Context) ([]byte, error)
	Write(ctx context.Context, b []byte) error
	Close(reason string)
}

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
	changed chan struct{} // closed and replaced whenever the link comes or goes
	refused time.Time     // when a link last presented a wrong token
}

type linked struct {
	conn    Conn
	version string
	since   time.Time
	wmu     sync.Mutex
	pending map[int64]chan *link.CallResult
	probes  map[int64]chan struct{}
	done    chan struct{}
}

// NewHub returns a hub that accepts links presenting token.
func NewHub(token string) *Hub {
	return &Hub{Token: token, changed: make(chan struct{})}
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

// Changed is closed when the link next comes or goes.
func (h *Hub) Changed() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

func (h *Hub) signal() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// Serve runs one link until it closes: the hello with the pairing token first (within
// link.HelloTimeout), then results and pings. A wrong token is refused with a reason.
func (h *Hub) Serve(ctx context.Context, c Conn) error {
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
	l := &linked{conn: c, version: hello.Version, since: time.Now(), pending: map[int64]chan *link.CallResult{}, probes: map[int64]chan struct{}{}, done: make(chan struct{})}
	welcome, _ := json.Marshal(link.Msg{Type: link.Welcome, Version: Version})
	if err := c.Write(ctx, welcome); err != nil {
		return err
	}
	h.mu.Lock()
	old := h.cur
	h.cur = l
	h.signal()
	h.mu.Unlock()
	if old != nil {
		old.conn.Close("replaced by a newer link")
	}
	defer func() {
		h.mu.Lock()
		if h.cur == l {
			h.cur = nil
			h.signal()
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
		case link.Pong:
			l.wmu.Lock()
			if ch := l.probes[m.ID]; ch != nil {
				close(ch)
				delete(l.probes, m.ID)
			}
			l.wmu.Unlock()
		case link.Result:
			l.wmu.Lock()
			ch := l.pending[m.ID]
			delete(l.pending, m.ID)
			l.wmu.Unlock()
			if ch != nil && m.Result != nil {
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
	h.mu.Lock()
	l := h.cur
	h.next++
	id := h.next
	h.mu.Unlock()
	if l == nil {
		return nil, ErrNoBrowser
	}
	ch := make(chan *link.CallResult, 1)
	l.wmu.Lock()
	l.pending[id] = ch
	l.wmu.Unlock()
	defer func() {
		l.wmu.Lock()
		delete(l.pending, id)
		l.wmu.Unlock()
	}()
	b, _ := json.Marshal(link.Msg{Type: link.Call, ID: id, Client: &client, Tool: name, Args: args})
	if err := l.write(ctx, b); err != nil {
		return nil, fmt.Errorf("the call could not reach the browser: %w", err)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-l.done:
		return nil, errors.New("the browser's link dropped before the call finished (the browser closed, or its worker restarted); the call may have run: check the page before trying again")
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

// Probe measures a round trip to the extension's worker: a ping it must answer.
func (h *Hub) Probe(ctx context.Context) (time.Duration, error) {
	h.mu.Lock()
	l := h.cur
	h.next++
	id := h.next
	h.mu.Unlock()
	if l == nil {
		return 0, ErrNoBrowser
	}
	ch := make(chan struct{})
	l.wmu.Lock()
	l.probes[id] = ch
	l.wmu.Unlock()
	b, _ := json.Marshal(link.Msg{Type: link.Ping, ID: id})
	start := time.Now()
	if err := l.write(ctx, b); err != nil {
		return 0, err
	}
	select {
	case <-ch:
		return time.Since(start), nil
	case <-l.done:
		return 0, errors.New("the link dropped")
	case <-ctx.Done():
		return 0, errors.New("the extension's worker did not answer a ping within " + time.Until(start).String())
	}
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
