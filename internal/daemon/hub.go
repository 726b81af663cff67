package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/link"
)

// ErrNoBrowser: no extension is linked.
var ErrNoBrowser = errors.New("Skiff's browser extension is not connected to skiffd. Open Chrome with Skiff, then in Skiff's Settings › Outside agents turn the link on with the pairing token from `skiffd pair`; `skiffd doctor` checks every step")

// CallTimeout bounds a call: the user may take up to the ask timeout to answer (120 s by
// default, at most an hour), then the tool runs.
var CallTimeout = 65 * time.Minute

// LinkWait is how long a call waits for the extension's link when there is none: the worker
// Chrome restarts links again within a second or two, and a call then goes through instead of
// failing.
var LinkWait = 10 * time.Second

// Hub holds the extension's link (one at a time: a newer one replaces it) and relays calls.
// A call that finds no link waits LinkWait for one; a call whose link drops before its result
// (the worker restarted) is sent again, with the same call id, on the next link.
type Hub struct {
	Token string // the pairing token the extension must present

	mu       sync.Mutex
	cur      *linked
	changed  chan struct{} // closed (and replaced) when cur changes
	next     int64
	instance string    // names this skiffd's calls: call ids never repeat across restarts
	refused  time.Time // when a link last presented a wrong token
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
	return &Hub{Token: token, changed: make(chan struct{}), instance: strconv.FormatInt(time.Now().UnixNano(), 36)}
}

// setLink makes l the current link (nil: none) and wakes the calls waiting for one.
func (h *Hub) setLink(l *linked) {
	h.cur = l
	close(h.changed)
	h.changed = make(chan struct{})
}

// link is the current link, waiting up to d for one.
func (h *Hub) link(ctx context.Context, d time.Duration) *linked {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		h.mu.Lock()
		l, changed := h.cur, h.changed
		h.mu.Unlock()
		if l != nil {
			return l
		}
		select {
		case <-changed:
		case <-deadline.C:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
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
	h.setLink(l)
	h.mu.Unlock()
	if old != nil {
		old.conn.Close("replaced by a newer link")
	}
	defer func() {
		h.mu.Lock()
		if h.cur == l {
			h.setLink(nil)
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
// answer (no link came within LinkWait, ctx ended).
func (h *Hub) Call(ctx context.Context, client link.Client, name string, args json.RawMessage) (*link.CallResult, error) {
	ctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	r, err := h.ask(ctx, link.Msg{Type: link.Call, Client: &client, Tool: name, Args: args})
	if errors.Is(err, errDropped) {
		return nil, errors.New("the browser's link dropped before the call finished and did not come back (the browser closed?); the call may have run: check the page before trying again")
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

// ask sends m, numbered, over the link (waiting LinkWait for one) and waits for the answer
// with its number. A call (not a probe) whose link drops is sent again on the next link with
// the same id: the extension's journal answers for a call that had started.
func (h *Hub) ask(ctx context.Context, m link.Msg) (*link.CallResult, error) {
	h.mu.Lock()
	h.next++
	m.ID = h.next
	if m.Type == link.Call {
		m.CallID = h.instance + "-" + strconv.FormatInt(m.ID, 10)
	}
	h.mu.Unlock()
	dropped := false
	for {
		l := h.link(ctx, LinkWait)
		switch {
		case l == nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case l == nil && dropped:
			return nil, errDropped
		case l == nil:
			return nil, ErrNoBrowser
		}
		r, err := l.send(ctx, m)
		if errors.Is(err, errDropped) && m.Type == link.Call {
			dropped = true
			continue
		}
		return r, err
	}
}

// send sends m over l and waits for its answer.
func (l *linked) send(ctx context.Context, m link.Msg) (*link.CallResult, error) {
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
		select {
		case <-l.done:
			return nil, errDropped
		default:
		}
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
