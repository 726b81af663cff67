package store

import (
	"context"
	"slices"

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
