package store

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
)

// Pinned chats come first in History. The pins are kept apart from the chats, in a list of
// ids ("pins", and its twin in memory for the private chats): a run that saves its chat while
// the user pins it cannot undo the pin, and a pin costs one small write.

// pinsKey is the key of the list that holds chat id's pin.
func pinsKey(id string) string { return twin("pins", Private(id)) }

// pins is the set of pinned chats, kept and private, read in one call.
func (s *Store) pins(ctx context.Context) (map[string]bool, error) {
	out := map[string]bool{}
	got, err := s.kv.Get(ctx, "pins", twin("pins", true))
	for _, b := range got {
		for _, id := range pinIDs(b) {
			out[id] = true
		}
	}
	return out, err
}

// pinList is the list of pinned ids kept at key.
func (s *Store) pinList(ctx context.Context, key string) ([]string, error) {
	got, err := s.kv.Get(ctx, key)
	return pinIDs(got[key]), err
}

// pinIDs reads a list of pins; one that cannot be read pins nothing (the next pin writes it
// again whole: pins are worth less than a refusal).
func pinIDs(b []byte) []string {
	var ids []string
	if b != nil && json.Unmarshal(b, &ids) != nil {
		return nil
	}
	return ids
}

// Pin pins chat id (on) or unpins it. A chat that is not there is ErrNotFound.
func (s *Store) Pin(ctx context.Context, id string, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx, _, err := s.readIndex(ctx, indexKey(id))
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(idx, func(m Meta) bool { return m.ID == id }) {
		return ErrNotFound
	}
	return s.setPin(ctx, id, on)
}

// setPin writes id's pin; the caller holds s.mu.
func (s *Store) setPin(ctx context.Context, id string, on bool) error {
	key := pinsKey(id)
	ids, err := s.pinList(ctx, key)
	if err != nil {
		return err
	}
	had := slices.Contains(ids, id)
	switch {
	case on && !had:
		ids = append(ids, id)
	case !on && had:
		ids = slices.DeleteFunc(ids, func(x string) bool { return x == id })
	default:
		return nil
	}
	return s.set(ctx, map[string]any{key: ids})
}

// pinFirst marks the pinned chats of idx and puts them first, each part in the order it had.
func pinFirst(idx []Meta, pinned map[string]bool) {
	for i := range idx {
		idx[i].Pinned = pinned[idx[i].ID]
	}
	sort.SliceStable(idx, func(i, j int) bool { return idx[i].Pinned && !idx[j].Pinned })
}
