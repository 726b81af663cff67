package store

import (
	"context"
	"errors"
	"slices"

	"github.com/skiff-ai/skiff/internal/workflow"
)

// ErrNoWorkflow is returned for a workflow id that does not exist.
var ErrNoWorkflow = errors.New("store: no such workflow")

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
	if err := w.Check(); err != nil {
		return fieldError("workflow", sayWorkflowBad, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.Workflows(ctx)
	if err != nil {
		return err
	}
	ws = slices.DeleteFunc(ws, func(o workflow.Workflow) bool { return o.ID == w.ID })
	if len(ws) >= MaxWorkflows {
		return fieldError("workflow", sayWorkflowMax, MaxWorkflows)
	}
	ws = append([]workflow.Workflow{*w}, ws...)
	return s.set(ctx, map[string]any{"workflows": ws})
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
