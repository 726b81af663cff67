package link

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// Handlers are one end's methods, by name: each decodes its params and returns its result.
type Handlers map[string]func(ctx context.Context, params json.RawMessage) (any, error)

// ErrClosed: the link ended before the answer came.
var ErrClosed = errors.New("the link closed")

// WriteTimeout bounds one write: a peer that stops reading does not hold a writer forever.
const WriteTimeout = 10 * time.Second

// Peer is one end of a link after the handshake: it numbers requests and matches their
// answers, runs the other end's requests on their own goroutines (a slow handler never holds
// the link), and answers each exactly once.
type Peer struct {
	conn     Conn
	handlers Handlers

	wmu     sync.Mutex // one writer at a time
	mu      sync.Mutex
	next    int64
	pending map[int64]chan Frame
	serving map[int64]context.CancelFunc // the other end's requests running here, by id
	done    chan struct{}
	err     error
	notes   chan Frame // notifications, handled one at a time in the order they came
}

// NewPeer makes a peer on conn answering with hs (nil: none). Run reads it.
func NewPeer(conn Conn, hs Handlers) *Peer {
	return &Peer{conn: conn, handlers: hs, pending: map[int64]chan Frame{}, serving: map[int64]context.CancelFunc{}, done: make(chan struct{}), notes: make(chan Frame, 256)}
}

// Done is closed when Run returned: the link is over.
func (p *Peer) Done() <-chan struct{} { return p.done }

// Run reads frames until the connection fails or ctx ends, or a read waits longer than idle
// (0: no limit). Requests it reads run in handlers on their own goroutines, whose contexts end
// with the link.
func (p *Peer) Run(ctx context.Context, idle time.Duration) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for {
			select {
			case f := <-p.notes:
				if f.Method == "" {
					p.answer(f)
				} else {
					p.serve(ctx, f)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	err := p.read(ctx, idle)
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
	close(p.done)
	return err
}

func (p *Peer) read(ctx context.Context, idle time.Duration) error {
	for {
		rctx, cancel := ctx, context.CancelFunc(func() {})
		if idle > 0 {
			rctx, cancel = context.WithTimeout(ctx, idle)
		}
		b, err := p.conn.Read(rctx)
		cancel()
		if err != nil {
			return err
		}
		var f Frame
		if json.Unmarshal(b, &f) != nil {
			continue // not ours: ignore rather than end the link
		}
		switch {
		case f.Method == cancelMethod:
			// The other end no longer waits for one of its requests: it stops here too (a
			// question it waits on is taken back).
			var c cancelParams
			_ = json.Unmarshal(f.Params, &c)
			p.mu.Lock()
			stop := p.serving[c.ID]
			p.mu.Unlock()
			if stop != nil {
				stop()
			}
		case f.Method != "" && f.ID != 0:
			// A request: on its own, a slow one never holds the link.
			sctx, stop := context.WithCancel(ctx)
			p.mu.Lock()
			p.serving[f.ID] = stop
			p.mu.Unlock()
			go func() {
				p.serve(sctx, f)
				p.mu.Lock()
				delete(p.serving, f.ID)
				p.mu.Unlock()
				stop()
			}()
		case f.Method != "" || f.ID != 0:
			// Notifications and answers keep the order they were sent in, one at a time: a
			// stream of events is handled in order, and an answer is seen only after every
			// event sent before it (a turn's last words before its end). So a notification
			// handler must not wait on a call over this link. A full queue holds the reader,
			// which holds the sender.
			select {
			case p.notes <- f:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// answer hands an answer to the call waiting for it.
func (p *Peer) answer(f Frame) {
	p.mu.Lock()
	ch := p.pending[f.ID]
	delete(p.pending, f.ID)
	p.mu.Unlock()
	if ch != nil {
		ch <- f
	}
}

func (p *Peer) serve(ctx context.Context, f Frame) {
	h := p.handlers[f.Method]
	var res any
	var err error
	if h == nil {
		err = fmt.Errorf("this side of the link does not know %q (an older version?)", f.Method)
	} else {
		res, err = h(ctx, f.Params)
	}
	if f.ID == 0 {
		return // a notification
	}
	out := Frame{ID: f.ID}
	if err != nil {
		out.Error = err.Error()
		var ie *i18n.Error
		if errors.As(err, &ie) && !ie.Text.IsZero() && ie.Text.English() == out.Error {
			out.Text = &ie.Text // the sentence is the whole error (none wrapped it in more words)
		}
	} else if out.Result, err = json.Marshal(res); err != nil {
		out.Result, out.Error = nil, err.Error()
	}
	_ = p.write(ctx, out)
}

func (p *Peer) write(ctx context.Context, f Frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, WriteTimeout)
	defer cancel()
	p.wmu.Lock()
	defer p.wmu.Unlock()
	return p.conn.Write(wctx, b)
}

// Call sends a request and decodes its answer into result (a pointer, or nil). An error is
// the other end's (a sentence), ErrClosed when the link ended first, or ctx's.
func (p *Peer) Call(ctx context.Context, method string, params, result any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	ch := make(chan Frame, 1)
	p.mu.Lock()
	p.next++
	id := p.next
	p.pending[id] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.pending, id)
		p.mu.Unlock()
	}()
	if err := p.write(ctx, Frame{ID: id, Method: method, Params: raw}); err != nil {
		select {
		case <-p.done:
			return ErrClosed
		default:
			return err
		}
	}
	select {
	case f := <-ch:
		if f.Text != nil && !f.Text.IsZero() {
			return &i18n.Error{Text: f.Text.Read(f.Error)}
		}
		if f.Error != "" {
			return errors.New(f.Error)
		}
		if result != nil && len(f.Result) > 0 {
			return json.Unmarshal(f.Result, result)
		}
		return nil
	case <-p.done:
		return ErrClosed
	case <-ctx.Done():
		// No one waits for the answer any more: the other end stops working on it (a tool
		// call must not go on in the browser, nor its question wait for an answer that would
		// make it run).
		_ = p.Notify(context.WithoutCancel(ctx), cancelMethod, cancelParams{ID: id})
		return ctx.Err()
	}
}

// cancelMethod is the notification that takes back a request: its params name the request's id.
const cancelMethod = "link.cancel"

type cancelParams struct {
	ID int64 `json:"id"`
}

// Notify sends a notification.
func (p *Peer) Notify(ctx context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return p.write(ctx, Frame{Method: method, Params: raw})
}

// Close closes the connection (Run then returns).
func (p *Peer) Close(reason string) { p.conn.Close(reason) }
