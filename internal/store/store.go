// Package store keeps Skiff's state (settings, sessions, the active session, memories) in a
// key-value store: chrome.storage.local in the extension, a map in tests.
//
// The layout makes a write cost what changed (seed 000 kept every session in one array, so each
// streamed delta rewrote the whole history):
//
//	schema              version of this layout (SchemaVersion)
//	settings            Settings
//	sessions            the index: the last entries ([]Meta), and how many parts hold the
//	                    others (sessions/<k>, indexPart entries each), so a save rewrites
//	                    the part that lists its chat, not the list of every chat
//	session/<id>        Session with its last messages, and how many parts hold the others
//	part/<id>/<k>       part k of session <id>'s earlier messages (see partSize)
//	draft/<id>          the assistant message being streamed into session <id>
//	active              id of the session the panel shows
//	memories            []Memory
//	image/<id>          a tool's image (a screenshot): {"mime", "data" (base64)}
//	policies            []permission.Policy, the user's standing decisions
//	audit, audit/<n>    the audit log: a counter, and chunks of AuditChunk entries
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// SchemaVersion is the layout version this code reads and writes. Version 2 keeps a chat's
// earlier messages in parts (part/<id>/<k>); it reads version 1's chats, whose messages are
// all in session/<id>, and an older Skiff refuses version 2's rather than show half a chat.
const SchemaVersion = 2

// KV is the storage the store needs. Implementations must be safe for concurrent use.
type KV interface {
	// Get returns the values of the keys that exist.
	Get(ctx context.Context, keys ...string) (map[string][]byte, error)
	// Set writes all items or fails.
	Set(ctx context.Context, items map[string][]byte) error
	Delete(ctx context.Context, keys ...string) error
}

// CorruptError is a stored value that cannot be decoded.
type CorruptError struct {
	What string // what it holds, for the user: "the settings", "the chat “Paris”"
	Key  string
	Err  error
}

func (e *CorruptError) Error() string { return "store: " + e.Key + " is corrupt: " + e.Err.Error() }
func (e *CorruptError) Unwrap() error { return e.Err }

// Store is Skiff's state over a KV. Its methods are safe for concurrent use; read-modify-write
// of the session index is serialized.
type Store struct {
	kv KV
	mu sync.Mutex // guards read-modify-write of "sessions" and "memories"
	// auditMu guards the audit log's: its writes (one after each call, of a chunk of up to
	// AuditChunk entries) never hold up a chat's.
	auditMu sync.Mutex
	// pendingMu guards the list of changes under way (Pending), and boot names this Store's
	// start in them.
	pendingMu sync.Mutex
	boot      string
	// deleted holds the chats deleted in this worker's life (guarded by mu). A run the delete
	// stopped may store its end only after the delete (a hosted agent slow to stop, a call
	// into a page that outlives the delete's wait): SaveSession, SaveDraft and SetQueue
	// refuse it, so the chat and its words do not come back. Import, which adds a chat under
	// its id on purpose, takes the id off.
	deleted map[string]bool
}

// Open checks the schema version and returns a Store. A fresh KV is stamped with
// SchemaVersion; data from a newer Skiff is refused rather than misread.
func Open(ctx context.Context, kv KV) (*Store, error) {
	got, err := kv.Get(ctx, "schema")
	if err != nil {
		return nil, err
	}
	if b, ok := got["schema"]; ok {
		var v int
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, &CorruptError{What: "the storage version", Key: "schema", Err: err}
		}
		if v > SchemaVersion {
			return nil, fmt.Errorf("%w (schema %d, this one reads %d)", ErrNewerSchema, v, SchemaVersion)
		}
		if v == SchemaVersion {
			return &Store{kv: kv, boot: newBoot()}, nil
		}
	}
	if err := kv.Set(ctx, map[string][]byte{"schema": []byte(fmt.Sprint(SchemaVersion))}); err != nil {
		return nil, err
	}
	return &Store{kv: kv, boot: newBoot()}, nil
}

// OpenNow returns a Store at once and checks the schema version meanwhile, as Open does: every
// read and write of the Store waits for the check and fails as it failed (ErrNewerSchema for a
// newer Skiff's data). A worker that wakes answers what needs no storage (a ping, the link's
// keepalive) without waiting on a storage round trip, and the check's round trip overlaps with
// what the first request does before it reads.
func OpenNow(ctx context.Context, kv KV) *Store {
	g := &gatedKV{kv: kv, done: make(chan struct{})}
	go func() {
		defer close(g.done)
		_, g.err = Open(ctx, kv)
	}()
	return &Store{kv: g, boot: newBoot()}
}

// gatedKV is a KV whose every use waits for the schema check, and fails as it did.
type gatedKV struct {
	kv   KV
	done chan struct{}
	err  error
}

func (g *gatedKV) wait(ctx context.Context) error {
	select {
	case <-g.done:
		return g.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gatedKV) Get(ctx context.Context, keys ...string) (map[string][]byte, error) {
	if err := g.wait(ctx); err != nil {
		return nil, err
	}
	return g.kv.Get(ctx, keys...)
}

func (g *gatedKV) Set(ctx context.Context, items map[string][]byte) error {
	if err := g.wait(ctx); err != nil {
		return err
	}
	return g.kv.Set(ctx, items)
}

func (g *gatedKV) Delete(ctx context.Context, keys ...string) error {
	if err := g.wait(ctx); err != nil {
		return err
	}
	return g.kv.Delete(ctx, keys...)
}

func (s *Store) get(ctx context.Context, key string, v any) (bool, error) {
	got, err := s.kv.Get(ctx, key)
	if err != nil {
		return false, err
	}
	b, ok := got[key]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return true, &CorruptError{What: "the " + key, Key: key, Err: err}
	}
	return true, nil
}

func (s *Store) set(ctx context.Context, items map[string]any) error {
	enc := make(map[string][]byte, len(items))
	for k, v := range items {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		enc[k] = b
	}
	return s.kv.Set(ctx, enc)
}

// Settings returns the saved settings merged over the defaults.
func (s *Store) Settings(ctx context.Context) (Settings, error) {
	st := DefaultSettings()
	_, err := s.get(ctx, "settings", &st)
	st.fill()
	return st, err
}

// SaveSettings validates and writes st.
func (s *Store) SaveSettings(ctx context.Context, st Settings) error {
	if err := st.Validate(); err != nil {
		return err
	}
	return s.set(ctx, map[string]any{"settings": st})
}

// Sessions returns the index, kept and private chats, most recently updated first.
func (s *Store) Sessions(ctx context.Context) ([]Meta, error) {
	idx, _, err := s.readIndex(ctx, "sessions")
	if err != nil {
		return nil, err
	}
	private, _, err := s.readIndex(ctx, twin("sessions", true))
	idx = append(idx, private...)
	sort.SliceStable(idx, func(i, j int) bool { return idx[i].UpdatedAt > idx[j].UpdatedAt })
	// Pins that cannot be read leave the chats in their order: a pin is not worth a History.
	pinned, _ := s.pins(ctx)
	pinFirst(idx, pinned)
	return idx, err
}

// index is the index that lists session id (the kept chats', or the private ones').
func (s *Store) index(ctx context.Context, id string) ([]Meta, error) {
	idx, _, err := s.readIndex(ctx, indexKey(id))
	return idx, err
}

// indexPart is how many entries of the index a part holds: about 10 KB. A chat keeps its
// place in the index (new ones are added at its end), so saving a chat rewrites the part
// that lists it, whatever the number of chats.
const indexPart = 64

// storedIndex is the index as its key holds it: its last entries, and how many parts of
// indexPart entries hold the ones before (an index written by schema 1 is a plain list).
type storedIndex struct {
	Parts int    `json:"parts"`
	List  []Meta `json:"list"`
}

func indexPartKey(key string, k int) string { return key + "/" + strconv.Itoa(k) }

// readIndex reads the index kept at key (kept chats', or its twin's), and how many parts it
// has in storage.
func (s *Store) readIndex(ctx context.Context, key string) ([]Meta, int, error) {
	got, err := s.kv.Get(ctx, key)
	if err != nil {
		return nil, 0, err
	}
	b, ok := got[key]
	if !ok {
		return nil, 0, nil
	}
	corrupt := func(k string, err error) error { return &CorruptError{What: "the list of chats", Key: k, Err: err} }
	var head storedIndex
	if len(b) > 0 && b[0] == '[' {
		err = json.Unmarshal(b, &head.List)
	} else {
		err = json.Unmarshal(b, &head)
	}
	if err != nil {
		return nil, 0, corrupt(key, err)
	}
	if head.Parts == 0 {
		return head.List, 0, nil
	}
	keys := make([]string, head.Parts)
	for k := range keys {
		keys[k] = indexPartKey(key, k)
	}
	parts, err := s.kv.Get(ctx, keys...)
	if err != nil {
		return nil, 0, err
	}
	var idx []Meta
	for _, k := range keys {
		var part []Meta
		pb, ok := parts[k]
		if !ok {
			return nil, 0, corrupt(k, errors.New("a part of the list is missing"))
		}
		if err := json.Unmarshal(pb, &part); err != nil {
			return nil, 0, corrupt(k, err)
		}
		idx = append(idx, part...)
	}
	return append(idx, head.List...), head.Parts, nil
}

// indexItems adds to items the index idx kept at key, in parts, and returns the keys of the
// parts of the index as it was (had parts) that it no longer has.
func indexItems(key string, idx []Meta, had int, items map[string]any) (gone []string) {
	n := len(idx) / indexPart
	for k := range n {
		items[indexPartKey(key, k)] = idx[k*indexPart : (k+1)*indexPart]
	}
	list := idx[n*indexPart:]
	if list == nil {
		list = []Meta{}
	}
	items[key] = storedIndex{Parts: n, List: list}
	for k := n; k < had; k++ {
		gone = append(gone, indexPartKey(key, k))
	}
	return gone
}

// Session returns a session with its messages. A draft left by a worker that died mid-stream
// is merged into its message (see Draft).
func (s *Store) Session(ctx context.Context, id string) (*Session, error) {
	got, err := s.kv.Get(ctx, sessionKey(id), draftKey(id))
	if err != nil {
		return nil, err
	}
	if err := s.getParts(ctx, got, id); err != nil {
		return nil, err
	}
	return decodeSession(id, got)
}

// storedSession is a session as session/<id> holds it: its last messages, and how many parts
// (part/<id>/<k>) hold the earlier ones.
type storedSession struct {
	Session
	Parts int `json:"parts,omitempty"`
}

// partSize is how many bytes of messages a part takes before the next one begins. A save
// writes only the parts whose bytes changed (Cached skips the others): as a chat goes on,
// that is its last messages, not the whole chat. Without parts, a long agent run rewrote all
// its page reads at each of its five writes a step (333 KB, 35–150 ms a write, measured).
const partSize = 32 << 10

func partKey(id string, k int) string { return keyOf("part", id) + "/" + strconv.Itoa(k) }

// sessionItems are the storage items that hold ses: its parts, then session/<id> with the
// messages after them. Each part takes messages until it holds partSize bytes, so where a
// part ends depends only on the messages before it, and a change to the last messages leaves
// the earlier parts as they were.
func sessionItems(ses *Session, items map[string]any) error {
	var part []json.RawMessage
	size, n, start := 0, 0, 0
	for i, m := range ses.Messages {
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		part = append(part, b)
		if size += len(b); size >= partSize {
			items[partKey(ses.ID, n)] = part
			part, size, n, start = nil, 0, n+1, i+1
		}
	}
	head := storedSession{Session: *ses, Parts: n}
	head.Messages = append([]Message{}, ses.Messages[start:]...)
	items[sessionKey(ses.ID)] = head
	return nil
}

// getParts reads into got the parts of the sessions ids whose heads got holds, in one read.
func (s *Store) getParts(ctx context.Context, got map[string][]byte, ids ...string) error {
	var keys []string
	for _, id := range ids {
		for k := range headParts(got[sessionKey(id)]) {
			keys = append(keys, partKey(id, k))
		}
	}
	if len(keys) == 0 {
		return nil
	}
	more, err := s.kv.Get(ctx, keys...)
	if err != nil {
		return err
	}
	for k, v := range more {
		got[k] = v
	}
	return nil
}

// AllSessions returns every session in the index order (most recent first), drafts merged, in
// one storage read. A session listed in the index but missing or corrupt is an error.
func (s *Store) AllSessions(ctx context.Context) ([]Session, error) {
	idx, err := s.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, 2*len(idx))
	for _, m := range idx {
		keys = append(keys, sessionKey(m.ID), draftKey(m.ID))
	}
	got, err := s.kv.Get(ctx, keys...)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(idx))
	for i, m := range idx {
		ids[i] = m.ID
	}
	if err := s.getParts(ctx, got, ids...); err != nil {
		return nil, err
	}
	out := make([]Session, 0, len(idx))
	for _, m := range idx {
		ses, err := decodeSession(m.ID, got)
		if err != nil {
			var ce *CorruptError
			if errors.As(err, &ce) {
				ce.What = "the chat “" + m.Title + "”"
			}
			return nil, err
		}
		out = append(out, *ses)
	}
	return out, nil
}

// decodeSession reads session id out of a Get result, merging its draft when the draft holds
// at least as much text as the message it belongs to.
func decodeSession(id string, got map[string][]byte) (*Session, error) {
	b, ok := got[sessionKey(id)]
	if !ok {
		return nil, ErrNotFound
	}
	var head storedSession
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, &CorruptError{What: "a chat", Key: sessionKey(id), Err: err}
	}
	ses := head.Session
	var earlier []Message
	for k := range head.Parts {
		var part []Message
		pb, ok := got[partKey(id, k)]
		if !ok {
			return nil, &CorruptError{What: "a chat", Key: partKey(id, k), Err: errors.New("a part of its messages is missing")}
		}
		if err := json.Unmarshal(pb, &part); err != nil {
			return nil, &CorruptError{What: "a chat", Key: partKey(id, k), Err: err}
		}
		earlier = append(earlier, part...)
	}
	if earlier != nil {
		ses.Messages = append(earlier, ses.Messages...)
	}
	if db, ok := got[draftKey(id)]; ok {
		var d Message
		if json.Unmarshal(db, &d) == nil {
			for i := range ses.Messages {
				if m := &ses.Messages[i]; m.ID == d.ID && len(d.Content)+len(d.Reasoning) >= len(m.Content)+len(m.Reasoning) {
					*m = d
				}
			}
		}
	}
	return &ses, nil
}

// SaveSession writes a session, updates its index entry and drops its draft: the session now
// holds everything the draft had.
func (s *Store) SaveSession(ctx context.Context, ses *Session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted[ses.ID] {
		return ErrNotFound
	}
	idx, had, err := s.readIndex(ctx, indexKey(ses.ID))
	if err != nil {
		return err
	}
	meta := ses.Meta()
	found := false
	for i := range idx {
		if idx[i].ID == ses.ID {
			idx[i], found = meta, true
		}
	}
	if !found {
		idx = append(idx, meta)
	}
	// The parts it had before: those past what it has now (an edit cut the chat) go.
	was, err := s.partsOf(ctx, ses.ID)
	if err != nil {
		return err
	}
	items := map[string]any{}
	gone := indexItems(indexKey(ses.ID), idx, had, items)
	if err := sessionItems(ses, items); err != nil {
		return err
	}
	var drop []string
	for k := range was {
		if _, kept := items[partKey(ses.ID, k)]; !kept {
			drop = append(drop, partKey(ses.ID, k))
		}
	}
	return s.trimmed(ctx, ses.ID, sessionKey(ses.ID), items, drop, append(gone, draftKey(ses.ID))...)
}

// partsOf is how many parts session id's stored head says it has (0: none stored).
func (s *Store) partsOf(ctx context.Context, id string) (int, error) {
	got, err := s.kv.Get(ctx, sessionKey(id))
	if err != nil {
		return 0, err
	}
	return headParts(got[sessionKey(id)]), nil
}

// headParts is how many parts a stored session head b says it has: none when there is no
// head, or it cannot be read (decodeSession says so; there are no parts to find or drop).
func headParts(b []byte) int {
	var head struct {
		Parts int `json:"parts"`
	}
	if b == nil || json.Unmarshal(b, &head) != nil {
		return 0
	}
	return head.Parts
}

// SaveDraft writes the message being streamed into session id, and nothing else. A deleted
// chat's is refused (ErrNotFound), as its save is: a reply that streams on past the delete
// does not put its words back on disk.
func (s *Store) SaveDraft(ctx context.Context, id string, m *Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted[id] {
		return ErrNotFound
	}
	return s.set(ctx, map[string]any{draftKey(id): m})
}

// DeleteSession removes a session, its draft, its queue, its images and its index entry. What
// it will remove is written first (Pending): a worker stopped half-way leaves the rest to the
// next one (Recover), never the chat's words on disk with no chat to show them.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	var keys []string
	if ses, err := s.Session(ctx, id); err == nil {
		for _, m := range ses.Messages {
			if m.Tool != nil && m.Tool.Image != "" {
				keys = append(keys, imageKey(m.Tool.Image))
			}
			for _, img := range m.Images {
				keys = append(keys, imageKey(img), originalKey(img))
			}
		}
	}
	if q, err := s.Queue(ctx, id); err == nil {
		for _, m := range q {
			for _, img := range m.Images {
				keys = append(keys, imageKey(img), originalKey(img))
			}
		}
	}
	parts, err := s.partsOf(ctx, id)
	if err != nil {
		return err
	}
	for k := range parts {
		keys = append(keys, partKey(id, k))
	}
	// And those past what the head counts: a save that made the chat shorter and was cut
	// before it dropped the parts it no longer needs left them.
	past := make([]string, 0, 64)
	for k := parts; k < parts+64; k++ {
		past = append(past, partKey(id, k))
	}
	left, err := s.kv.Get(ctx, past...)
	if err != nil {
		return err
	}
	for _, k := range past {
		if _, ok := left[k]; ok {
			keys = append(keys, k)
		}
	}
	c, err := s.Begin(ctx, Pending{Delete: true, Session: id, Keys: keys})
	if err != nil {
		return err
	}
	if err := s.deleteSession(ctx, id, keys); err != nil {
		return err // left to Recover
	}
	c.Done()
	return nil
}

// deleteSession removes session id's index entry and pin, then keys and its head, draft,
// queue and tabs: DeleteSession's writes, which Recover runs again for one cut half-way.
func (s *Store) deleteSession(ctx context.Context, id string, keys []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx, had, err := s.readIndex(ctx, indexKey(id))
	if err != nil {
		return err
	}
	out := idx[:0]
	for _, m := range idx {
		if m.ID != id {
			out = append(out, m)
		}
	}
	if err := s.setPin(ctx, id, false); err != nil {
		return err
	}
	items := map[string]any{}
	gone := indexItems(indexKey(id), out, had, items)
	if err := s.trimmed(ctx, id, indexKey(id), items, gone, slices.Concat(keys, []string{sessionKey(id), draftKey(id), queueKey(id), ownTabsKey(id)})...); err != nil {
		return err
	}
	if s.deleted == nil {
		s.deleted = map[string]bool{}
	}
	s.deleted[id] = true
	return nil
}

// StoredImage is an image a tool took, or one the user attached (with its file's name); or a
// file the user attached, as its text (Mime is the file's type, not an image's: see
// agent.IsDocument), with its count of pages and whether its text was cut to fit.
type StoredImage struct {
	Mime  string `json:"mime"`
	Data  []byte `json:"data"`
	Name  string `json:"name,omitempty"`
	Pages int    `json:"pages,omitempty"`
	Cut   bool   `json:"cut,omitempty"`
	// Original: the file itself is kept too (SaveOriginal), apart, so that reading a chat's
	// attachments for a model does not read it; upload_file gives it to a page.
	Original bool `json:"original,omitempty"`
}

// SaveOriginal stores the file an attachment's text was read from.
func (s *Store) SaveOriginal(ctx context.Context, id string, data []byte) error {
	return s.set(ctx, map[string]any{originalKey(id): data})
}

// Original is the file an attachment's text was read from, if it was kept.
func (s *Store) Original(ctx context.Context, id string) ([]byte, bool, error) {
	var b []byte
	ok, err := s.get(ctx, originalKey(id), &b)
	return b, ok, err
}

// SaveImage stores an image under id.
func (s *Store) SaveImage(ctx context.Context, id string, img StoredImage) error {
	return s.set(ctx, map[string]any{imageKey(id): img})
}

// DeleteImages removes the images ids (a queued message removed before it was sent).
func (s *Store) DeleteImages(ctx context.Context, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	keys := make([]string, 0, 2*len(ids))
	for _, id := range ids {
		keys = append(keys, imageKey(id), originalKey(id))
	}
	return s.kv.Delete(ctx, keys...)
}

// Images returns the stored images among ids (missing ones are left out).
func (s *Store) Images(ctx context.Context, ids ...string) (map[string]StoredImage, error) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = imageKey(id)
	}
	got, err := s.kv.Get(ctx, keys...)
	if err != nil {
		return nil, err
	}
	out := map[string]StoredImage{}
	for _, id := range ids {
		if b, ok := got[imageKey(id)]; ok {
			var img StoredImage
			if json.Unmarshal(b, &img) == nil {
				out[id] = img
			}
		}
	}
	return out, nil
}

// Active returns the id of the session the panel shows, "" if none: a panel in an incognito
// window's when private is set (one of the private chats), any other panel's else.
func (s *Store) Active(ctx context.Context, private bool) (string, error) {
	var id string
	_, err := s.get(ctx, twin("active", private), &id)
	return id, err
}

// SetActive records the session the panel shows: a private chat for the panels of incognito
// windows, a kept one for the others.
func (s *Store) SetActive(ctx context.Context, id string) error {
	return s.set(ctx, map[string]any{twin("active", Private(id)): id})
}

// ClearActive forgets the session the panels of its kind show, if it is id.
func (s *Store) ClearActive(ctx context.Context, id string) error {
	active, err := s.Active(ctx, Private(id))
	if err != nil || active != id {
		return err
	}
	return s.set(ctx, map[string]any{twin("active", Private(id)): ""})
}

// Memories returns the memories, newest first.
func (s *Store) Memories(ctx context.Context) ([]Memory, error) {
	var ms []Memory
	_, err := s.get(ctx, "memories", &ms)
	return ms, err
}

// SaveMemories replaces the memories.
func (s *Store) SaveMemories(ctx context.Context, ms []Memory) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.set(ctx, map[string]any{"memories": ms})
}

func sessionKey(id string) string  { return keyOf("session", id) }
func draftKey(id string) string    { return keyOf("draft", id) }
func imageKey(id string) string    { return keyOf("image", id) }
func originalKey(id string) string { return keyOf("original", id) }

// MemKV is an in-memory KV for tests and native tools. It stores copies.
type MemKV struct {
	mu sync.Mutex
	m  map[string][]byte
	// Writes counts bytes written, for tests of write cost.
	Writes int
	// Limit, when > 0, makes Set fail with ErrQuota once the total size would exceed it.
	Limit int
}

// NewMemKV returns an empty MemKV.
func NewMemKV() *MemKV { return &MemKV{m: map[string][]byte{}} }

func (k *MemKV) Get(_ context.Context, keys ...string) (map[string][]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := map[string][]byte{}
	for _, key := range keys {
		if v, ok := k.m[key]; ok {
			out[key] = append([]byte(nil), v...)
		}
	}
	return out, nil
}

func (k *MemKV) Set(_ context.Context, items map[string][]byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.Limit > 0 {
		size := 0
		for key, v := range k.m {
			if _, replaced := items[key]; !replaced {
				size += len(key) + len(v)
			}
		}
		for key, v := range items {
			size += len(key) + len(v)
		}
		if size > k.Limit {
			return fmt.Errorf("set %s: %w", strings.Join(keysOf(items), ", "), ErrQuota)
		}
	}
	for key, v := range items {
		k.m[key] = append([]byte(nil), v...)
		k.Writes += len(v)
	}
	return nil
}

func (k *MemKV) Delete(_ context.Context, keys ...string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, key := range keys {
		delete(k.m, key)
	}
	return nil
}

// SetLimit sets Limit while others may be writing (a test that fills the storage mid-run).
func (k *MemKV) SetLimit(n int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.Limit = n
}

// Keys lists every key k holds, sorted: what a test reads to find what was left behind.
func (k *MemKV) Keys() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return keysOf(k.m)
}

func keysOf(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
