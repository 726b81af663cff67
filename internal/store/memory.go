package store

import (
	"context"
	"sort"
	"strings"
)

func checkMemory(content string) (string, error) {
	content = strings.TrimSpace(content)
	if content == "" {
		return "", fieldError("memory", sayMemoryEmpty)
	}
	if len(content) > MaxMemory {
		return "", fieldError("memory", sayMemoryLong)
	}
	return content, nil
}

// AddMemory stores a new memory with the given id and source ("user", "auto" or "agent").
func (s *Store) AddMemory(ctx context.Context, m Memory) (Memory, error) {
	var err error
	if m.Content, err = checkMemory(m.Content); err != nil {
		return m, err
	}
	switch m.Source {
	case SourceUser, SourceAuto, SourceAgent:
	default:
		return m, &FieldError{Field: "source", Message: "unknown memory source " + m.Source}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ms, err := s.Memories(ctx)
	if err != nil {
		return m, err
	}
	ms = append([]Memory{m}, ms...)
	return m, s.set(ctx, map[string]any{"memories": ms})
}

// UpdateMemory changes the text of memory id. Its source is kept: the badge says who first
// wrote it.
func (s *Store) UpdateMemory(ctx context.Context, id, content string, now int64) (Memory, error) {
	content, err := checkMemory(content)
	if err != nil {
		return Memory{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ms, err := s.Memories(ctx)
	if err != nil {
		return Memory{}, err
	}
	for i := range ms {
		if ms[i].ID == id {
			ms[i].Content, ms[i].UpdatedAt = content, now
			return ms[i], s.set(ctx, map[string]any{"memories": ms})
		}
	}
	return Memory{}, ErrNoMemory
}

// DeleteMemory removes memory id.
func (s *Store) DeleteMemory(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms, err := s.Memories(ctx)
	if err != nil {
		return err
	}
	out := ms[:0]
	for _, m := range ms {
		if m.ID != id {
			out = append(out, m)
		}
	}
	if len(out) == len(ms) {
		return ErrNoMemory
	}
	return s.set(ctx, map[string]any{"memories": out})
}

// TopMemories returns the n memories to put before the model: the most recently written or
// edited first.
func TopMemories(ms []Memory, n int) []Memory {
	out := append([]Memory(nil), ms...)
	at := func(m Memory) int64 { return max(m.CreatedAt, m.UpdatedAt) }
	sort.SliceStable(out, func(i, j int) bool { return at(out[i]) > at(out[j]) })
	if len(out) > n {
		out = out[:max(n, 0)]
	}
	return out
}
