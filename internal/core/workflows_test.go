package core

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// bookingWorkflow is testdata's booking workflow (three steps, a password among its values) on
// an address where nothing answers.
func bookingWorkflow(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "workflows", "booking.json"))
	require.NoError(t, err)
	return strings.ReplaceAll(string(raw), "SITE", "http://127.0.0.1:9")
}

// An import is all or nothing: a file whose workflows are each whole but do not fit beside the
// ones kept writes none of them (it wrote the first ones, then failed), and says why.
func TestAnImportThatDoesNotFitWritesNothing(t *testing.T) {
	ctx := context.Background()
	c := New(ctx, store.NewMemKV(), nil, nil, nil)
	one := bookingWorkflow(t)
	var w workflow.Workflow
	require.NoError(t, json.Unmarshal([]byte(one), &w))
	kept := make([]workflow.Workflow, store.MaxWorkflows-2)
	for i := range kept {
		kept[i] = w
		kept[i].ID = fmt.Sprintf("kept%d", i)
	}
	require.NoError(t, c.Store.SaveWorkflows(ctx, kept))

	three := "[" + one + "," + one + "," + one + "]"
	_, err := c.importWorkflows(ctx, WorkflowImport{Data: three})
	msg, _ := Sentence(err)
	assert.Equal(t, fmt.Sprintf("Skiff keeps at most %d workflows: delete one first.", store.MaxWorkflows), msg)
	ws, err := c.Store.Workflows(ctx)
	require.NoError(t, err)
	assert.Equal(t, store.MaxWorkflows-2, len(ws), "nothing of the file was written")

	two := "[" + one + "," + one + "]"
	got, err := c.importWorkflows(ctx, WorkflowImport{Data: two})
	require.NoError(t, err)
	require.Len(t, got, 2)
	ws, err = c.Store.Workflows(ctx)
	require.NoError(t, err)
	assert.Equal(t, store.MaxWorkflows, len(ws))
	assert.Equal(t, got[0].ID, ws[0].ID, "the file's workflows first, in its order")
	assert.Equal(t, got[1].ID, ws[1].ID)
}
