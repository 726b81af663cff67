package agent

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/skiff-ai/skiff/internal/store"
)

// MaxQueued is how many messages may wait in one chat.
const MaxQueued = 20

// Errors of the queue, each a sentence for the user (core/errors.go).
var (
	ErrQueueFull     = errors.New("agent: the queue is full")
	ErrNotQueued     = errors.New("agent: that message is no longer queued")
	ErrQueueRunning  = errors.New("agent: a run is going; the queue is sent when it ends")
	ErrNothingQueued = errors.New("agent: nothing is queued")
)

// Enqueue keeps text to send in session id once its run ends, if a run is going there; it
// reports false, and keeps nothing, when no run is going (the caller sends it).
func (e *Engine) Enqueue(ctx context.Context, id, text string, images []string) ([]store.Queued, bool, error) {
	if strings.TrimSpace(text) == "" && len(images) == 0 {
		return nil, false, ErrEmpty
	}
	e.qmu.Lock()
	defer e.qmu.Unlock()
	if !e.Running(id) {
		return nil, false, nil
	}
	q, err := e.Store.Queue(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if len(q) >= MaxQueued {
		return nil, false, ErrQueueFull
	}
	q = append(q, store.Queued{ID: NewID(), Text: text, CreatedAt: e.now(), Images: images})
	return q, true, e.Store.SetQueue(ctx, id, q)
}

// EditQueued changes the text of a waiting message; an empty text removes it.
func (e *Engine) EditQueued(ctx context.Context, id, msgID, text string) ([]store.Queued, error) {
	e.qmu.Lock()
	defer e.qmu.Unlock()
	q, err := e.Store.Queue(ctx, id)
	if err != nil {
		return nil, err
	}
	i := indexQueued(q, msgID)
	if i < 0 {
		return q, ErrNotQueued
	}
	var dropped []string // the images of a message removed
	if strings.TrimSpace(text) == "" {
		dropped = q[i].Images
		q = append(q[:i:i], q[i+1:]...)
	} else {
		q[i].Text = text
	}
	finish, err := e.dropping(ctx, id, dropped)
	if err != nil {
		return q, err
	}
	defer finish()
	return q, e.Store.SetQueue(ctx, id, q)
}

func indexQueued(q []store.Queued, id string) int {
	for i, m := range q {
		if m.ID == id {
			return i
		}
	}
	return -1
}

// dequeue ends a run that went well: the first waiting message becomes the session's next
// user message (stored, and reported, before it leaves the queue, so a worker that dies in
// between loses nothing), or, when nothing waits, the run gives up its hold in the same step,
// so nothing is queued behind a run that is over.
func (e *Engine) dequeue(ctx context.Context, ses *store.Session, finish func(), emit func(Update)) (string, bool) {
	e.qmu.Lock()
	defer e.qmu.Unlock()
	q, err := e.Store.Queue(ctx, ses.ID)
	if err != nil {
		finish()
		return "", false
	}
	// The message keeps its id in the chat: one a stopped worker stored and did not take off
	// the queue is in the chat already. Answered, it only leaves the queue; the last one, with
	// no reply yet, is run without being stored twice.
	at := func(id string) int {
		return slices.IndexFunc(ses.Messages, func(m store.Message) bool { return m.ID == id })
	}
	sent := 0 // answered already
	for ; sent < len(q); sent++ {
		if i := at(q[sent].ID); i < 0 || i == len(ses.Messages)-1 {
			break
		}
	}
	if sent == len(q) {
		if sent > 0 {
			_ = e.Store.SetQueue(ctx, ses.ID, nil)
			emit(Update{Type: UpdateQueue, SessionID: ses.ID, Queue: []store.Queued{}})
		}
		finish()
		return "", false
	}
	q = q[sent:]
	if at(q[0].ID) < 0 {
		ses.Messages = append(ses.Messages, store.Message{ID: q[0].ID, Role: "user", Content: q[0].Text, CreatedAt: e.now(), Images: q[0].Images})
		ses.UpdatedAt = e.now()
		if err := e.Store.SaveSession(ctx, ses); err != nil {
			ses.Messages = ses.Messages[:len(ses.Messages)-1]
			finish()
			return "", false
		}
	}
	emit(Update{Type: UpdateSession, SessionID: ses.ID, Session: ses})
	if err := e.Store.SetQueue(ctx, ses.ID, q[1:]); err != nil {
		finish() // it was sent and is still listed: the user sees both and can remove it
		return "", false
	}
	emit(Update{Type: UpdateQueue, SessionID: ses.ID, Queue: q[1:]})
	return q[0].Text, true
}

// SendQueued sends the first waiting message of in.SessionID now, when no run is going (after
// Stop, an error, or a worker that died): the rest follow it as after any run.
func (e *Engine) SendQueued(ctx context.Context, in Input, emit func(Update)) error {
	ses, err := e.Session(ctx, in.SessionID)
	if err != nil {
		return err
	}
	ctx, finish, err := e.take(ctx, ses.ID)
	if errors.Is(err, ErrBusy) {
		return ErrQueueRunning
	} else if err != nil {
		return err
	}
	text, ok := e.dequeue(ctx, ses, finish, emit)
	if !ok {
		return ErrNothingQueued
	}
	in.Text = text
	return e.drive(ctx, finish, ses, in, nil, emit)
}
