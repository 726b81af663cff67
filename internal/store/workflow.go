package store

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/skiff-ai/skiff/internal/workflow"
)

// MaxWorkflows bounds how many workflows are kept; saving one more than that is refused (the
// user deletes one first: a workflow is work, never dropped behind their back).
const MaxWorkflows = 200

// Workflows returns the saved workflows, most recently changed first.
func (s *Store) Workflows(ctx context.Context) ([]workflow.Workflow, error) {
	var ws []workflow.Workflow
	_, err := s.get(ctx, "workflows", &ws)
	return ws, err
}

// Workflow returns one saved workflow.
func (s *Store) Workflow(ctx context.Context, id string) (*workflow.Workflow, error) {
	ws, err := s.Workflows(ctx)
	if err != nil {
		return nil, err
	}
	for i := range ws {
		if ws[i].ID == id {
			return &ws[i], nil
		}
	}
	return nil, ErrNoWorkflow
}

// SaveWorkflow stores w (checked whole first), replacing the one with its id, and puts it first.
func (s *Store) SaveWorkflow(ctx context.Context, w *workflow.Workflow) error {
	return s.SaveWorkflows(ctx, []workflow.Workflow{*w})
}

// SaveWorkflows stores ws in one write, all of them or none (each checked whole first, and the
// bound on how many are kept checked for them together), each replacing the one with its id,
// first in the order given.
func (s *Store) SaveWorkflows(ctx context.Context, ws []workflow.Workflow) error {
	for i := range ws {
		if err := ws[i].Check(); err != nil {
			return fieldError("workflow", sayWorkflowBad, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept, err := s.Workflows(ctx)
	if err != nil {
		return err
	}
	kept = slices.DeleteFunc(kept, func(o workflow.Workflow) bool {
		return slices.ContainsFunc(ws, func(w workflow.Workflow) bool { return w.ID == o.ID })
	})
	if len(kept)+len(ws) > MaxWorkflows {
		return fieldError("workflow", sayWorkflowMax, MaxWorkflows)
	}
	return s.set(ctx, map[string]any{"workflows": append(slices.Clone(ws), kept...)})
}

// DeleteWorkflow removes workflow id.
func (s *Store) DeleteWorkflow(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.Workflows(ctx)
	if err != nil {
		return err
	}
	n := len(ws)
	ws = slices.DeleteFunc(ws, func(o workflow.Workflow) bool { return o.ID == id })
	if len(ws) == n {
		return ErrNoWorkflow
	}
	return s.set(ctx, map[string]any{"workflows": ws})
}

// An outside client's steps (what its calls did, which workflow_save records) are kept while
// the browser runs (BrowserPrefix: in chrome.storage.session, never on disk), so a worker that
// Chrome stops and starts again between the calls and the save forgets nothing: each step under
// a key of its own (a call adds one, whatever came before), and one index of the clients'.
const stepsKey = BrowserPrefix + "steps"

type stepsOf struct {
	First  int   `json:"first"` // the number of the oldest step kept
	Next   int   `json:"next"`
	UsedAt int64 `json:"usedAt"` // unix ms
}

func stepKey(owner string, n int) string { return stepsKey + "/" + owner + "/" + strconv.Itoa(n) }

// AddStep keeps step as the next of owner's, at now (unix ms), and at most keep of them (the
// last); the steps of the least recently seen owners beyond MaxWorkspaces go.
func (s *Store) AddStep(ctx context.Context, owner string, step workflow.Call, keep int, now int64) error {
	return s.keepStep(ctx, owner, now, func(o *stepsOf, items map[string]any) (gone []string) {
		items[stepKey(owner, o.Next)] = step
		o.Next++
		for ; o.Next-o.First > keep; o.First++ {
			gone = append(gone, stepKey(owner, o.First))
		}
		return gone
	})
}

// Read is what an outside client last read of a page: the snapshot its next calls' refs come
// from, and the links whose names tell what an address it goes to is for.
type Read struct {
	Snapshot string
	Links    string
}

// KeepRead keeps the last text owner read with tool: a snapshot (where the refs of its next
// calls come from) or the page's links (the names of the addresses it may go to).
func (s *Store) KeepRead(ctx context.Context, owner, tool, text string, now int64) error {
	return s.keepStep(ctx, owner, now, func(_ *stepsOf, items map[string]any) []string {
		items[readKey(owner, tool)] = text
		return nil
	})
}

// readTools are the tools whose last text an owner read is kept (Read's fields, in order).
var readTools = [...]string{"snapshot", "links"}

func readKey(owner, tool string) string { return stepsKey + "/" + owner + "/read/" + tool }

// keepStep changes owner's part of the index and the items change adds, in one write, and
// deletes what change and the bound on owners leave behind.
func (s *Store) keepStep(ctx context.Context, owner string, now int64, change func(*stepsOf, map[string]any) []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx := map[string]stepsOf{}
	if _, err := s.get(ctx, stepsKey, &idx); err != nil {
		return err
	}
	o := idx[owner]
	items := map[string]any{}
	gone := change(&o, items)
	o.UsedAt = now
	idx[owner] = o
	for len(idx) > MaxWorkspaces {
		oldest := ""
		for id, x := range idx {
			if oldest == "" || x.UsedAt < idx[oldest].UsedAt {
				oldest = id
			}
		}
		gone = append(gone, ownerKeys(oldest, idx[oldest], true)...)
		delete(idx, oldest)
	}
	items[stepsKey] = idx
	if err := s.set(ctx, items); err != nil {
		return err
	}
	if len(gone) > 0 {
		return s.kv.Delete(ctx, gone...)
	}
	return nil
}

// ownerKeys are the keys of owner's steps, and with read of what it read (its Read's).
func ownerKeys(owner string, o stepsOf, read bool) []string {
	var keys []string
	for n := o.First; n < o.Next; n++ {
		keys = append(keys, stepKey(owner, n))
	}
	if read {
		for _, t := range readTools {
			keys = append(keys, readKey(owner, t))
		}
	}
	return keys
}

// Steps returns owner's kept steps, oldest first, and what it read last.
func (s *Store) Steps(ctx context.Context, owner string) ([]workflow.Call, Read, error) {
	idx := map[string]stepsOf{}
	if _, err := s.get(ctx, stepsKey, &idx); err != nil {
		return nil, Read{}, err
	}
	o, ok := idx[owner]
	if !ok {
		return nil, Read{}, nil
	}
	steps := ownerKeys(owner, o, false)
	got, err := s.kv.Get(ctx, ownerKeys(owner, o, true)...)
	if err != nil {
		return nil, Read{}, err
	}
	var read Read
	for i, to := range [...]*string{&read.Snapshot, &read.Links} {
		key := readKey(owner, readTools[i])
		if b, ok := got[key]; ok {
			if err := json.Unmarshal(b, to); err != nil {
				return nil, Read{}, &CorruptError{What: "a page an outside client read", Key: key, Err: err}
			}
		}
	}
	out := make([]workflow.Call, 0, len(steps))
	for _, k := range steps {
		b, ok := got[k]
		if !ok {
			continue // written by a worker that stopped between two writes: the rest stand
		}
		var c workflow.Call
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, Read{}, &CorruptError{What: "a step of an outside client's", Key: k, Err: err}
		}
		out = append(out, c)
	}
	return out, read, nil
}

// ForgetSteps drops owner's kept steps (saved as a workflow); all drops what it read too (its
// session ended).
func (s *Store) ForgetSteps(ctx context.Context, owner string, all bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx := map[string]stepsOf{}
	if _, err := s.get(ctx, stepsKey, &idx); err != nil {
		return err
	}
	o, ok := idx[owner]
	if !ok {
		return nil
	}
	gone := ownerKeys(owner, o, all)
	if all {
		delete(idx, owner)
	} else {
		o.First = o.Next
		idx[owner] = o
	}
	if err := s.set(ctx, map[string]any{stepsKey: idx}); err != nil {
		return err
	}
	if len(gone) == 0 {
		return nil
	}
	return s.kv.Delete(ctx, gone...)
}
