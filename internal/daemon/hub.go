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
	// Handlers are skiffd's methods the extension may call (link.Ping is always there).
	Handlers link.Handlers

	mu       sync.Mutex
	cur      *linked
	changed  chan struct{} // closed (and replaced) when cur changes
	next     int64
	instance string    // names this skiffd's calls: call ids never repeat across restarts
	refused  time.Time // when a link last presented a wrong token
	progress sync.Map  // call id → func(string), for the calls whose client asked for progress
}

type linked struct {
	peer    *link.Peer
	version string
	since   time.Time
}

// NewHub returns a hub that accepts links presenting token.
func NewHub(token string) *Hub {
	return &Hub{Token: token, Handlers: link.Handlers{}, changed: make(chan struct{}), instance: strconv.FormatInt(time.Now().UnixNano(), 36)}
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
// link.HelloTimeout), then requests both ways. A wrong token or protocol is refused with a
// reason.
func (h *Hub) Serve(ctx context.Context, c link.Conn) error {
	hctx, cancel := context.WithTimeout(ctx, link.HelloTimeout)
	b, err := c.Read(hctx)
	cancel()
	if err != nil {
		c.Close("no hello")
		return fmt.Errorf("the extension sent no hello: %w", err)
	}
	var hello link.Handshake
	if json.Unmarshal(b, &hello) != nil || hello.Type != link.Hello {
		c.Close("expected hello")
		return errors.New("the first message was not a hello")
	}
	refuse := func(why string) {
		msg, _ := json.Marshal(link.Handshake{Type: link.Refused, Message: why})
		_ = c.Write(ctx, msg)
		c.Close(why)
	}
	if !same(hello.Token, h.Token) {
		h.mu.Lock()
		h.refused = time.Now()
		h.mu.Unlock()
		refuse("the pairing token is not skiffd's: copy the one `skiffd pair` prints into Skiff's settings")
		return errors.New("refused a link with a wrong pairing token")
	}
	if hello.Protocol != link.Protocol {
		which := "skiffd is newer than the extension: update the extension"
		if hello.Protocol > link.Protocol {
			which = "the extension is newer than skiffd: update skiffd"
		}
		refuse(which)
		return errors.New("refused a link speaking another protocol version")
	}
	hs := link.Handlers{}
	for k, v := range h.Handlers {
		hs[k] = v
	}
	link.Ping.Handle(hs, func(context.Context, struct{}) (struct{}, error) { return struct{}{}, nil })
	link.CallProgress.Handle(hs, func(_ context.Context, p link.Progress) (struct{}, error) {
		if say, ok := h.progress.Load(p.CallID); ok {
			say.(func(string))(p.Message)
		}
		return struct{}{}, nil
	})
	l := &linked{peer: link.NewPeer(c, hs), version: hello.Version, since: time.Now()}
	welcome, _ := json.Marshal(link.Handshake{Type: link.Welcome, Version: Version, Protocol: link.Protocol})
	if err := c.Write(ctx, welcome); err != nil {
		return err
	}
	h.mu.Lock()
	old := h.cur
	h.setLink(l)
	h.mu.Unlock()
	if old != nil {
		old.peer.Close("replaced by a newer link")
	}
	defer func() {
		h.mu.Lock()
		if h.cur == l {
			h.setLink(nil)
		}
		h.mu.Unlock()
		c.Close("")
	}()
	// The extension pings every link.Keepalive; three missed pings end the link.
	return l.peer.Run(ctx, 3*link.Keepalive)
}

// Call runs a tool in the browser for client and waits for its result. The result of a call
// the user denied or a tool that failed has IsError; an error means the call never got an
// answer (no link came within LinkWait, ctx ended). A call whose link drops before its result
// (the worker restarted) is sent again on the next link with the same call id: the
// extension's journal answers for a call that had started.
func (h *Hub) Call(ctx context.Context, client link.Client, name string, args json.RawMessage) (*link.CallResult, error) {
	ctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	h.mu.Lock()
	h.next++
	p := link.CallParams{CallID: h.instance + "-" + strconv.FormatInt(h.next, 10), Client: client, Tool: name, Args: args}
	h.mu.Unlock()
	if say := progressOf(ctx); say != nil {
		h.progress.Store(p.CallID, say)
		defer h.progress.Delete(p.CallID)
	}
	if name == UploadTool {
		files, err := Uploads(args)
		if err != nil {
			return &link.CallResult{IsError: true, Text: err.Error()}, nil
		}
		p.Files = files
	}
	dropped := false
	for {
		l := h.link(ctx, LinkWait)
		switch {
		case l == nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case l == nil && dropped:
			return nil, errors.New("the browser's link dropped before the call finished and did not come back (the browser closed?); the call may have run: check the page before trying again")
		case l == nil:
			return nil, ErrNoBrowser
		}
		r, err := link.ToolCall.Call(ctx, l.peer, p)
		if errors.Is(err, link.ErrClosed) {
			dropped = true
			continue
		}
		if err != nil {
			return nil, err
		}
		return &r, nil
	}
}

// Probe measures a round trip to the extension's worker: a ping it must answer.
func (h *Hub) Probe(ctx context.Context) (time.Duration, error) {
	l := h.link(ctx, LinkWait)
	if l == nil {
		return 0, ErrNoBrowser
	}
	start := time.Now()
	_, err := link.Ping.Call(ctx, l.peer, struct{}{})
	return time.Since(start), err
}

// Notify sends a notification to the extension when it is linked (none: it is dropped).
func (h *Hub) Notify(ctx context.Context, method string, params any) error {
	h.mu.Lock()
	l := h.cur
	h.mu.Unlock()
	if l == nil {
		return ErrNoBrowser
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return l.peer.Notify(ctx, method, params)
}

// Bye tells the extension that a client's session ended (its workspace can go).
func (h *Hub) Bye(client link.Client) {
	_ = h.Notify(context.Background(), link.ClientBye.Name, client)
}

// Drop closes the current link (skiffd is stopping: hijacked WebSockets outlive the server).
func (h *Hub) Drop() {
	h.mu.Lock()
	l := h.cur
	h.mu.Unlock()
	if l != nil {
		l.peer.Close("skiffd is stopping")
	}
}

type progressKey struct{}

// WithProgress is ctx for a call whose client asked to hear how it gets on: say is told what
// the extension reports of it (waiting for the user's answer, running).
func WithProgress(ctx context.Context, say func(string)) context.Context {
	return context.WithValue(ctx, progressKey{}, say)
}

func progressOf(ctx context.Context) func(string) {
	say, _ := ctx.Value(progressKey{}).(func(string))
	return say
}
