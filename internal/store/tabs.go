package store

import (
	"context"
	"slices"
)

// BrowserPrefix begins the keys Skiff keeps only while the browser runs (the extension's KV
// keeps them, as a private chat's, in chrome.storage.session): what names a tab, whose id
// means another tab once the browser starts again.
const BrowserPrefix = "browser/"

// MaxOwnTabs bounds the tabs kept for a chat (the last ones opened).
const MaxOwnTabs = 64

func ownTabsKey(id string) string {
	if Private(id) {
		return MemoryPrefix + "tabs/" + id
	}
	return BrowserPrefix + "tabs/" + id
}

// OwnTabs lists the tabs the runs of chat id opened themselves (tab_open, a link its click
// opened in a new tab) in this browser session: a worker restarted mid-run, or the next
// message of the chat, still knows them for its own.
func (s *Store) OwnTabs(ctx context.Context, id string) ([]int, error) {
	var tabs []int
	if _, err := s.get(ctx, ownTabsKey(id), &tabs); err != nil {
		return nil, err
	}
	return tabs, nil
}

// AddOwnTab notes that a run of chat id opened tab. A deleted chat's is not noted.
func (s *Store) AddOwnTab(ctx context.Context, id string, tab int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted[id] {
		return ErrNotFound
	}
	var tabs []int
	if _, err := s.get(ctx, ownTabsKey(id), &tabs); err != nil {
		return err
	}
	if slices.Contains(tabs, tab) {
		return nil
	}
	tabs = append(tabs, tab)
	if len(tabs) > MaxOwnTabs {
		tabs = tabs[len(tabs)-MaxOwnTabs:]
	}
	return s.set(ctx, map[string]any{ownTabsKey(id): tabs})
}

// ForgetOwnTabs drops what AddOwnTab noted for id (an outside client whose session ended).
func (s *Store) ForgetOwnTabs(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kv.Delete(ctx, ownTabsKey(id))
}
