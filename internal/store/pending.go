package store

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// A change of several writes (deleting a chat, storing a message's attachments before the
// message, copying a chat's attachments for a branch) can be cut between two of them: Chrome
// stops a worker when it likes, and a user can close the browser. What such a cut leaves must
// not outlive it: a deleted chat's words on disk, or copies no chat holds, which nothing shows
// and nothing would ever remove (the extension's storage is unlimited). So each such change
// first writes what it is about to do (Pending), and drops it once done; Recover, when the
// next worker starts, finishes or undoes what a stopped one left.
//
// Pending is one such change, as it is written before its first write.
type Pending struct {
	ID string `json:"id"`
	// Boot names the worker that wrote it: Recover leaves the changes of its own worker alone
	// (they are under way, not cut).
	Boot string `json:"boot"`
	// Delete: chat Session is being deleted, and Keys are its keys to remove (its head and
	// parts, draft, queue, images and files). Recover deletes it all.
	Delete bool     `json:"delete,omitempty"`
	Keys   []string `json:"keys,omitempty"`
	// Images (ids) were written for chat Session ("": a chat not made yet): Recover keeps each
	// one a message or queued message of that chat (of any chat, for "") holds, and deletes
	// the others.
	Images  []string `json:"images,omitempty"`
	Session string   `json:"session,omitempty"`
	// Trim: a write is making the list whose head is at this key shorter (chat Session's
	// messages, or the list of chats), and Keys are the parts past its new end. Recover
	// deletes each one the stored head does not count (a head not written yet counts them).
	Trim string `json:"trim,omitempty"`
}

// pendingKey holds the changes under way: a private chat's in memory, with the chat.
func pendingKey(private bool) string { return twin("pending", private) }

var boots atomic.Int64

// newBoot names a Store: a worker's start.
func newBoot() string {
	return strconv.FormatInt(time.Now().UnixNano(), 36) + "." + strconv.FormatInt(boots.Add(1), 36)
}

func (p *Pending) private() bool {
	return Private(p.Session) || len(p.Images) > 0 && Private(p.Images[0])
}

// Change is a change under way, as Begin noted it. Its methods do nothing on a nil Change (a
// change with nothing to note).
type Change struct {
	s   *Store
	ctx context.Context
	key string
	p   Pending
}

// Begin writes p (its ID and Boot set here) before the change it names starts.
func (s *Store) Begin(ctx context.Context, p Pending) (*Change, error) {
	p.ID, p.Boot = newBoot(), s.boot
	c := &Change{s: s, ctx: context.WithoutCancel(ctx), key: pendingKey(p.private()), p: p}
	if err := s.updatePending(ctx, c.key, func(l []Pending) []Pending { return append(l, p) }); err != nil {
		return nil, err
	}
	return c, nil
}

// Done drops the note once the change is done (a note left behind is only finished again,
// harmlessly, by the next worker).
func (c *Change) Done() {
	if c == nil {
		return
	}
	_ = c.s.updatePending(c.ctx, c.key, func(l []Pending) []Pending {
		return slices.DeleteFunc(l, func(q Pending) bool { return q.ID == c.p.ID })
	})
}

// Settle ends a change as Recover would: a delete is finished, and of the pictures and files
// it named, those its chat no longer holds are deleted (a change that dropped the messages
// holding them, once stored); then the note goes. What cannot be done now keeps its note.
func (c *Change) Settle() {
	if c == nil {
		return
	}
	if c.s.recover(c.ctx, c.p) == nil {
		c.Done()
	}
}

// Abandon undoes a change that failed before the message holding its pictures and files was
// stored: they are deleted, then the note goes. What cannot be deleted now keeps its note, for
// the next worker.
func (c *Change) Abandon() {
	if c == nil {
		return
	}
	if c.s.DeleteImages(c.ctx, c.p.Images...) == nil {
		c.Done()
	}
}

func (s *Store) updatePending(ctx context.Context, key string, f func([]Pending) []Pending) error {
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	var l []Pending
	var ce *CorruptError
	if _, err := s.get(ctx, key, &l); errors.As(err, &ce) {
		l = nil // a list that cannot be read is written again: it never stops a delete or a send
	} else if err != nil {
		return err
	}
	l = f(l)
	if len(l) == 0 {
		return s.kv.Delete(ctx, key)
	}
	return s.set(ctx, map[string]any{key: l})
}

// Recover finishes or undoes the changes a stopped worker left under way (Pending), and says
// how many. A change it cannot finish now (the storage failing) stays for the next start.
func (s *Store) Recover(ctx context.Context) (int, error) {
	got, err := s.kv.Get(ctx, pendingKey(false), pendingKey(true)) // one read at each start
	if err != nil {
		return 0, err
	}
	n := 0
	for _, private := range []bool{false, true} {
		key := pendingKey(private)
		b, ok := got[key]
		if !ok {
			continue
		}
		var l []Pending
		if json.Unmarshal(b, &l) != nil {
			// Unreadable: what it named cannot be finished; it goes, so that it is not read at
			// every start.
			if err := s.kv.Delete(ctx, key); err != nil {
				return n, err
			}
			continue
		}
		for _, p := range l {
			if p.Boot == s.boot {
				continue
			}
			if err := s.recover(ctx, p); err != nil {
				return n, err
			}
			if err := s.updatePending(ctx, key, func(l []Pending) []Pending {
				return slices.DeleteFunc(l, func(q Pending) bool { return q.ID == p.ID })
			}); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

func (s *Store) recover(ctx context.Context, p Pending) error {
	switch {
	case p.Delete:
		return s.deleteSession(ctx, p.Session, p.Keys)
	case p.Trim != "":
		s.mu.Lock() // a save of the same list meanwhile may write those parts again
		defer s.mu.Unlock()
		return s.dropUncounted(ctx, p.Trim, p.Keys)
	}
	return s.deleteUnheld(ctx, p.Session, p.Images...)
}

// trimmed writes items, which make the list whose head is at key shorter (chat id's messages,
// or the list of chats), then deletes drop, the parts past its new end, with more (keys the
// write no longer needs). A worker stopped between the two would leave the parts on disk
// for good, with the words they hold: they are noted first (Pending.Trim). The caller holds
// s.mu.
func (s *Store) trimmed(ctx context.Context, id, key string, items map[string]any, drop []string, more ...string) error {
	var c *Change
	if len(drop) > 0 {
		var err error
		if c, err = s.Begin(ctx, Pending{Trim: key, Session: id, Keys: drop}); err != nil {
			return err
		}
	}
	if err := s.set(ctx, items); err != nil {
		c.Done() // nothing written: the head still counts every part
		return err
	}
	if err := s.kv.Delete(ctx, slices.Concat(drop, more)...); err != nil {
		return err // the note stays, for the next worker
	}
	c.Done()
	return nil
}

// dropUncounted deletes those of keys, parts of the list whose head is at key, that the
// stored head does not count. The caller holds s.mu.
func (s *Store) dropUncounted(ctx context.Context, key string, keys []string) error {
	got, err := s.kv.Get(ctx, key)
	if err != nil {
		return err
	}
	n := headParts(got[key])
	var gone []string
	for _, k := range keys {
		if i, err := strconv.Atoi(k[strings.LastIndexByte(k, '/')+1:]); err == nil && i >= n {
			gone = append(gone, k)
		}
	}
	return s.kv.Delete(ctx, gone...)
}

// ImagesOf is every picture, file and screenshot messages hold.
func ImagesOf(ms []Message) []string {
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.Images...)
		if m.Tool != nil && m.Tool.Image != "" {
			ids = append(ids, m.Tool.Image)
		}
	}
	return ids
}

// deleteUnheld deletes the images (and files) ids that no message or queued message of chat
// session holds (of any chat, for ""): those stored for a message that was never stored, or
// that were held by messages a change dropped. A chat it cannot read deletes nothing.
func (s *Store) deleteUnheld(ctx context.Context, session string, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	held := map[string]bool{}
	hold := func(ses *Session, q []Queued) {
		for _, id := range ImagesOf(ses.Messages) {
			held[id] = true
		}
		for _, m := range q {
			for _, id := range m.Images {
				held[id] = true
			}
		}
	}
	var chats []string
	if session != "" {
		chats = []string{session}
	} else {
		idx, err := s.Sessions(ctx)
		if err != nil {
			return err
		}
		for _, m := range idx {
			chats = append(chats, m.ID)
		}
	}
	for _, id := range chats {
		ses, err := s.Session(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return err // unreadable: nothing is deleted on a guess
		}
		q, err := s.Queue(ctx, id)
		if err != nil {
			return err
		}
		hold(ses, q)
	}
	var gone []string
	for _, id := range ids {
		if !held[id] {
			gone = append(gone, id)
		}
	}
	return s.DeleteImages(ctx, gone...)
}
