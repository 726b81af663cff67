package store

import (
	"context"

	"github.com/skiff-ai/skiff/internal/permission"
)

// What outside callers (MCP clients through skiffd) leave in storage, so a worker Chrome
// stops and starts again carries on where it was: each client's workspace, the questions
// still waiting for the user, and a journal of the calls that started running (a call skiffd
// sends again after a restart never runs twice).

// Workspace is an outside client's part of the browser: its tab group, the tab it works in.
type Workspace struct {
	ClientID string `json:"clientId"`
	Name     string `json:"name"`
	Group    int    `json:"group"`
	TabID    int    `json:"tabId,omitempty"`
	UsedAt   int64  `json:"usedAt"` // unix ms
}

// MaxWorkspaces bounds the workspaces kept (the least recently used go first).
const MaxWorkspaces = 32

// Workspaces returns the stored workspaces by client id.
func (s *Store) Workspaces(ctx context.Context) (map[string]Workspace, error) {
	ws := map[string]Workspace{}
	_, err := s.get(ctx, "workspaces", &ws)
	return ws, err
}

// SaveWorkspace stores w (nil Group below 0 and no tab removes nothing: it is kept as given).
func (s *Store) SaveWorkspace(ctx context.Context, w Workspace) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.Workspaces(ctx)
	if err != nil {
		return err
	}
	ws[w.ClientID] = w
	for len(ws) > MaxWorkspaces {
		oldest := ""
		for id, x := range ws {
			if oldest == "" || x.UsedAt < ws[oldest].UsedAt {
				oldest = id
			}
		}
		delete(ws, oldest)
	}
	return s.set(ctx, map[string]any{"workspaces": ws})
}

// DeleteWorkspace forgets a client's workspace (its session ended).
func (s *Store) DeleteWorkspace(ctx context.Context, clientID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.Workspaces(ctx)
	if err != nil {
		return err
	}
	if _, ok := ws[clientID]; !ok {
		return nil
	}
	delete(ws, clientID)
	return s.set(ctx, map[string]any{"workspaces": ws})
}

// Questions returns the outside callers' calls that were waiting for the user's answer.
func (s *Store) Questions(ctx context.Context) ([]permission.Question, error) {
	var qs []permission.Question
	_, err := s.get(ctx, "questions", &qs)
	return qs, err
}

// SaveQuestions stores the outside callers' calls waiting for an answer now.
func (s *Store) SaveQuestions(ctx context.Context, qs []permission.Question) error {
	if qs == nil {
		qs = []permission.Question{}
	}
	return s.set(ctx, map[string]any{"questions": qs})
}

// Call states in the journal.
const (
	CallRunning = "running"
	CallDone    = "done"
)

// JournalSpan is how long the journal remembers a call (skiffd gives up on a call long before).
const JournalSpan = 70 * 60 * 1000 // ms

// CallState is what the journal knows of an outside call: "", CallRunning or CallDone.
func (s *Store) CallState(ctx context.Context, id string) (string, error) {
	j := map[string]journalEntry{}
	_, err := s.get(ctx, "journal", &j)
	return j[id].State, err
}

type journalEntry struct {
	State string `json:"state"`
	At    int64  `json:"at"`
}

// MarkCall records an outside call's state at now (unix ms); entries older than JournalSpan
// are dropped.
func (s *Store) MarkCall(ctx context.Context, id, state string, now int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := map[string]journalEntry{}
	if _, err := s.get(ctx, "journal", &j); err != nil {
		return err
	}
	for k, e := range j {
		if now-e.At > JournalSpan {
			delete(j, k)
		}
	}
	j[id] = journalEntry{State: state, At: now}
	return s.set(ctx, map[string]any{"journal": j})
}
