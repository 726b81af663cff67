package store

import (
	"context"
	"errors"

	"github.com/skiff-ai/skiff/internal/permission"
	"strings"
)

// A chat started in an incognito window is private: Skiff keeps it while the browser has an
// incognito window open, in memory only, as Chrome keeps that window's history (Chrome asks an
// extension that runs in incognito not to keep what it sees there). Its id begins with
// PrivatePrefix, and so do the ids of the images and files it holds; every key of it begins
// with MemoryPrefix, which the extension's KV keeps in chrome.storage.session (memory, gone
// when the browser closes) and Split keeps apart from the rest.
const (
	PrivatePrefix = permission.PrivatePrefix
	MemoryPrefix  = "private/"
)

// Private reports whether id is a private chat's (or one of its images').
func Private(id string) bool { return strings.HasPrefix(id, PrivatePrefix) }

// keyOf is the key of kind ("session", "draft", "queue", "image", "original") for id: a
// private id's is kept in memory.
func keyOf(kind, id string) string {
	if Private(id) {
		return MemoryPrefix + kind + "/" + id
	}
	return kind + "/" + id
}

// twin is key, or (private) its twin in memory, which holds the private chats' part of what
// key holds: the index of chats, the incognito panels' choice, the policies decided there.
func twin(key string, private bool) string {
	if private {
		return MemoryPrefix + key
	}
	return key
}

// indexKey is the key of the index that lists session id.
func indexKey(id string) string { return twin("sessions", Private(id)) }

// bothLists reads the list kept at key and its twin in memory, in one read, and gives add
// each one's JSON, which add decodes and appends to its list.
func (s *Store) bothLists(ctx context.Context, key, what string, add func([]byte) error) error {
	got, err := s.kv.Get(ctx, key, twin(key, true))
	if err != nil {
		return err
	}
	for _, k := range []string{key, twin(key, true)} {
		if b, ok := got[k]; ok {
			if err := add(b); err != nil {
				return &CorruptError{What: what, Key: k, Err: err}
			}
		}
	}
	return nil
}

// InMemory reports whether key is one Skiff keeps in memory only (a private chat's, or one
// kept while the browser runs).
func InMemory(key string) bool {
	return strings.HasPrefix(key, MemoryPrefix) || strings.HasPrefix(key, BrowserPrefix)
}

// Split is a KV that keeps the keys InMemory reports in Memory and every other one in Disk.
type Split struct{ Disk, Memory KV }

var _ KV = Split{}

func (s Split) part(keys []string) (disk, memory []string) {
	for _, k := range keys {
		if InMemory(k) {
			memory = append(memory, k)
		} else {
			disk = append(disk, k)
		}
	}
	return disk, memory
}

func (s Split) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	disk, memory := s.part(keys)
	out := map[string][]byte{}
	if len(disk) > 0 {
		got, err := s.Disk.Get(ctx, disk...)
		if err != nil {
			return nil, err
		}
		out = got
	}
	if len(memory) > 0 {
		got, err := s.Memory.Get(ctx, memory...)
		if err != nil {
			return nil, err
		}
		for k, v := range got {
			out[k] = v
		}
	}
	return out, nil
}

func (s Split) Set(ctx context.Context, items map[string][]byte) error {
	disk, memory := map[string][]byte{}, map[string][]byte{}
	for k, v := range items {
		if InMemory(k) {
			memory[k] = v
		} else {
			disk[k] = v
		}
	}
	if len(memory) > 0 {
		if err := s.Memory.Set(ctx, memory); err != nil {
			if errors.Is(err, ErrQuota) {
				return ErrMemoryFull
			}
			return err
		}
	}
	if len(disk) > 0 {
		return s.Disk.Set(ctx, disk)
	}
	return nil
}

func (s Split) Delete(ctx context.Context, keys ...string) error {
	disk, memory := s.part(keys)
	if len(memory) > 0 {
		if err := s.Memory.Delete(ctx, memory...); err != nil {
			return err
		}
	}
	if len(disk) > 0 {
		return s.Disk.Delete(ctx, disk...)
	}
	return nil
}

// ForgetPrivate drops every private chat (with its draft, queue, images and files), their
// index and pins, and the incognito panels' choice of chat.
func (s *Store) ForgetPrivate(ctx context.Context) error {
	idx, err := s.index(ctx, PrivatePrefix)
	if err != nil {
		return err
	}
	for _, m := range idx {
		if err := s.DeleteSession(ctx, m.ID); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return s.kv.Delete(ctx, twin("sessions", true), twin("active", true), twin("audit", true), twin("policies", true), twin("pins", true), pendingKey(true))
}
