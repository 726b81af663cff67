package store

import "context"

// Queued is a message the user sent while a run was going in its chat. It waits, kept under
// its own key (a run saving its session never writes over the queue), and is sent in order
// when the run ends well; after Stop, an error or a worker that died, it waits for the user.
type Queued struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	CreatedAt int64  `json:"createdAt"`
	// Images are the ids of the images attached to the message (stored already).
	Images []string `json:"images,omitempty"`
}

func queueKey(id string) string { return keyOf("queue", id) }

// Queue returns the messages waiting in session id, oldest first (none: an empty list).
func (s *Store) Queue(ctx context.Context, id string) ([]Queued, error) {
	q := []Queued{}
	if _, err := s.get(ctx, queueKey(id), &q); err != nil {
		return nil, err
	}
	return q, nil
}

// SetQueue stores the messages waiting in session id (none: the key is removed). A deleted
// chat's is refused (ErrNotFound): a second window that still shows it cannot queue into it.
func (s *Store) SetQueue(ctx context.Context, id string, q []Queued) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted[id] {
		return ErrNotFound
	}
	if len(q) == 0 {
		return s.kv.Delete(ctx, queueKey(id))
	}
	return s.set(ctx, map[string]any{queueKey(id): q})
}
