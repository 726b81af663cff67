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

	"github.com/skiff-ai/skiff/internal/schedule"
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

// Deleting a workflow deletes the schedules that run it (left, they would wake the browser at
// each of their times to say the workflow is gone), and leaves the others; the alarm follows,
// and the panels are told.
func TestDeletingAWorkflowTakesItsSchedules(t *testing.T) {
	ctx := context.Background()
	c := New(ctx, store.NewMemKV(), nil, nil, nil)
	a := &alarms{}
	c.Alarms = a
	p := &panel{}
	c.Connect(p)
	ws, err := c.importWorkflows(ctx, WorkflowImport{Data: `{"name": "Open the site", "version": 1, "steps": [{"tool": "navigate", "args": {"url": "http://127.0.0.1:9/"}, "url": "http://127.0.0.1:9/", "origin": "http://127.0.0.1:9", "what": "open http://127.0.0.1:9/"}]}`})
	require.NoError(t, err)
	daily := schedule.Repeat{Every: schedule.Daily, Time: "08:00"}
	_, err = c.saveSchedule(ctx, ScheduleSave{schedule.Schedule{Workflow: ws[0].ID, Repeat: daily}})
	require.NoError(t, err)
	_, err = c.saveSchedule(ctx, ScheduleSave{schedule.Schedule{Workflow: ws[0].ID, Repeat: schedule.Repeat{Every: schedule.Hourly, Time: "00:15"}}})
	require.NoError(t, err)
	news, err := c.saveSchedule(ctx, ScheduleSave{schedule.Schedule{Name: "News", Prompt: "Summarise the news", Repeat: daily}})
	require.NoError(t, err)

	p.reset()
	p.callOK(t, c, "workflow.delete", obj{"id": ws[0].ID})
	p.waitFor(t, UpdateSchedules)
	left, err := c.Store.Schedules(ctx)
	require.NoError(t, err)
	require.Len(t, left, 1)
	assert.Equal(t, news.ID, left[0].ID)
	assert.Equal(t, news.NextAt, a.last(), "the alarm is at the schedule left")
}

// An edit that takes out the step that typed a value keeps the parameter the steps after it
// still go by: a result named after the search, an address made for its value.
func TestAnEditKeepsTheValuesLaterStepsGoBy(t *testing.T) {
	ctx := context.Background()
	c := New(ctx, store.NewMemKV(), nil, nil, nil)
	ws, err := c.importWorkflows(ctx, WorkflowImport{Data: `{"name": "Find", "version": 1, "params": [{"name": "search", "default": "Luigi"}, {"name": "city", "default": "Paris"}], "steps": [
		{"tool": "type", "args": {"ref": "@1", "text": "{{search}}"}, "targets": [{"role": "searchbox", "name": "Search"}], "url": "http://127.0.0.1:9/", "origin": "http://127.0.0.1:9"},
		{"tool": "click", "args": {"ref": "@1"}, "targets": [{"role": "link", "name": "Luigi's", "param": "search"}], "url": "http://127.0.0.1:9/", "origin": "http://127.0.0.1:9"},
		{"tool": "navigate", "args": {"url": "http://127.0.0.1:9/r/luigis"}, "for": "city", "url": "http://127.0.0.1:9/", "origin": "http://127.0.0.1:9"}]}`})
	require.NoError(t, err)
	w := ws[0]
	w.Steps = w.Steps[1:]
	got, err := c.updateWorkflow(ctx, WorkflowUpdate{Workflow: w})
	require.NoError(t, err)
	assert.Equal(t, []workflow.Param{{Name: "search", Default: "Luigi"}, {Name: "city", Default: "Paris"}}, got.Params)
}
