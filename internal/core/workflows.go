package core

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/schedule"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// Workflows: a finished agent run saved as steps that replay without a model
// (internal/workflow), listed, renamed, deleted, exported and imported, and run from the panel.

// WorkflowSave is workflow.save's request: the chat to make a workflow of, and its name.
type WorkflowSave struct {
	SessionID string `json:"sessionId"`
	Name      string `json:"name"`
}

// WorkflowRef names a workflow.
type WorkflowRef struct {
	ID string `json:"id"`
}

// WorkflowRun is workflow.run's request: the values of its parameters, and the window it runs in.
type WorkflowRun struct {
	ID       string            `json:"id"`
	Values   map[string]string `json:"values"`
	WindowID int               `json:"windowId"`
	// Repair: if the page changed, the model may finish the run.
	Repair bool `json:"repair,omitempty"`
}

// WorkflowFinish is workflow.finish's request: the chat of a replay that stopped because the
// page changed, and the values of the workflow's secrets (kept nowhere, so given again).
type WorkflowFinish struct {
	SessionID string            `json:"sessionId"`
	Values    map[string]string `json:"values"`
	WindowID  int               `json:"windowId"`
}

func (c *Core) finishWorkflow(ctx context.Context, p WorkflowFinish, emit func(agent.Update)) error {
	return c.Engine.FinishReplay(ctx, agent.FinishInput{SessionID: p.SessionID, Secrets: p.Values, WindowID: p.WindowID}, emit)
}

// WorkflowImport is workflow.import's request: the text of an exported file.
type WorkflowImport struct {
	Data string `json:"data"`
}

func (c *Core) listWorkflows(ctx context.Context, _ struct{}) ([]workflow.Workflow, error) {
	ws, err := c.Store.Workflows(ctx)
	if ws == nil {
		ws = []workflow.Workflow{}
	}
	for i := range ws {
		for j := range ws[i].Steps {
			t := workflow.Says(ws[i].Steps[j])
			ws[i].Steps[j].WhatText = &t
		}
	}
	return ws, err
}

func (c *Core) saveWorkflow(ctx context.Context, p WorkflowSave) (*workflow.Workflow, error) {
	if c.Engine.Busy(ctx, p.SessionID) {
		return nil, problemf(saySaveBusy)
	}
	if store.Private(p.SessionID) {
		return nil, problemf(sayPrivateWorkflow)
	}
	return c.Engine.SaveWorkflow(ctx, p.SessionID, p.Name)
}

// WorkflowUpdate is workflow.update's request: a workflow as the user edited it in the view
// (its name, its parameters' labels, defaults and secrecy, its steps removed or reordered).
type WorkflowUpdate struct {
	Workflow workflow.Workflow `json:"workflow"`
}

// updateWorkflow saves the user's edit of a workflow as its next version, checked whole first.
// A parameter no step uses any more is dropped; a secret keeps no value.
func (c *Core) updateWorkflow(ctx context.Context, p WorkflowUpdate) (*workflow.Workflow, error) {
	old, err := c.Store.Workflow(ctx, p.Workflow.ID)
	if err != nil {
		return nil, err
	}
	w := p.Workflow
	w.Name = strings.TrimSpace(w.Name)
	unworded(&w)
	// A parameter is used by a step's values, by an element it finds by the run's value (a
	// result named after the search), and by an address made for its recorded value.
	used := map[string]bool{}
	for _, s := range w.Steps {
		for _, name := range s.Params() {
			used[name] = true
		}
		for _, t := range s.Targets {
			if t.Param != "" {
				used[t.Param] = true
			}
		}
		if s.For != "" {
			used[s.For] = true
		}
	}
	var params []workflow.Param
	for _, prm := range w.Params {
		if !used[prm.Name] {
			continue
		}
		if prm.Secret {
			prm.Default = ""
		}
		params = append(params, prm)
	}
	w.Params = params
	w.Unfollow()
	w.Version, w.From, w.CreatedAt, w.UpdatedAt = old.Version+1, old.From, old.CreatedAt, c.Engine.Now().UnixMilli()
	if err := w.Check(); err != nil {
		return nil, problemf(sayEditWorkflow, err)
	}
	return &w, c.Store.SaveWorkflow(ctx, &w)
}

// unworded drops the words the panel was given with a workflow's steps (listWorkflows): they
// are made again for each list, in the language of the day, and never stored.
func unworded(w *workflow.Workflow) {
	for i := range w.Steps {
		w.Steps[i].WhatText = nil
	}
}

// deleteWorkflow deletes a workflow and the schedules that run it: left, they would wake the
// browser at each of their times to say the workflow is gone.
func (c *Core) deleteWorkflow(ctx context.Context, p WorkflowRef) (struct{}, error) {
	if err := c.Store.DeleteWorkflow(ctx, p.ID); err != nil {
		return struct{}{}, err
	}
	list, n, err := c.Store.DeleteSchedules(ctx, func(sc schedule.Schedule) bool { return sc.Workflow == p.ID })
	if err != nil || n == 0 {
		return struct{}{}, err
	}
	c.setAlarm(ctx, list)
	c.schedulesChanged()
	return struct{}{}, nil
}

// importWorkflows reads an exported file (one workflow or a list) and saves them, only if every
// one of them is whole: a file with one broken workflow writes nothing. An imported workflow
// gets an id of its own (it never overwrites one of the user's).
func (c *Core) importWorkflows(ctx context.Context, p WorkflowImport) ([]workflow.Workflow, error) {
	var ws []workflow.Workflow
	data := strings.TrimSpace(p.Data)
	if strings.HasPrefix(data, "{") {
		var w workflow.Workflow
		if err := json.Unmarshal([]byte(data), &w); err != nil {
			return nil, problemf(sayNotWorkflow, err)
		}
		ws = []workflow.Workflow{w}
	} else if err := json.Unmarshal([]byte(data), &ws); err != nil {
		return nil, problemf(sayNotWorkflow, err)
	}
	if len(ws) == 0 {
		return nil, problemf(sayNoWorkflowInFile)
	}
	for i := range ws {
		unworded(&ws[i])
		if err := ws[i].Check(); err != nil {
			return nil, problemf(sayImportWorkflow, i+1, err)
		}
	}
	now := c.Engine.Now().UnixMilli()
	for i := range ws {
		ws[i].ID, ws[i].UpdatedAt = agent.NewID(), now
		if ws[i].Version < 1 {
			ws[i].Version = 1
		}
	}
	// In one write: a file that does not fit (the bound on workflows kept, the storage's quota)
	// writes nothing, as one with a broken workflow does.
	if err := c.Store.SaveWorkflows(ctx, ws); err != nil {
		return nil, err
	}
	return ws, nil
}

func (c *Core) runWorkflow(ctx context.Context, p WorkflowRun, emit func(agent.Update)) error {
	tab := placedIn(ctx, &p.WindowID)
	_, err := c.Engine.RunWorkflow(ctx, agent.WorkflowInput{ID: p.ID, Values: p.Values, WindowID: p.WindowID, TabID: tab, Repair: p.Repair, Private: c.incognito(ctx, p.WindowID, tab)}, emit)
	return err
}

// listWorkflows is workflow_list for an outside client: each workflow with its steps in words,
// its sites, and the schema of the values workflow_run takes for it.
func (l *linker) listWorkflows(ctx context.Context) *link.CallResult {
	ws, err := l.c.Store.Workflows(ctx)
	if err != nil {
		msg, _ := Sentence(err)
		return &link.CallResult{IsError: true, Text: msg}
	}
	out := make([]link.WorkflowInfo, 0, len(ws))
	for i := range ws {
		w := &ws[i]
		info := link.WorkflowInfo{ID: w.ID, Name: w.Name, Sites: w.Sites(), Values: w.Schema()}
		for _, s := range w.Steps {
			info.Steps = append(info.Steps, s.What)
		}
		out = append(out, info)
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	text := string(b)
	if len(out) == 0 {
		text = "The user has no saved workflows. (A workflow is saved from a finished agent run in Skiff's panel.)"
	}
	return &link.CallResult{Text: text}
}

// saveWorkflow is workflow_save for an outside client: the calls it made (since it connected, or
// last saved) as a workflow of the user's, once the user allows it.
func (l *linker) saveWorkflow(ctx context.Context, ws *workspace, id string, raw json.RawMessage) *link.CallResult {
	fail := func(s string) *link.CallResult { return &link.CallResult{IsError: true, Text: s} }
	var a link.WorkflowSaveArgs
	if len(raw) > 0 && json.Unmarshal(raw, &a) != nil || strings.TrimSpace(a.Name) == "" {
		return fail("workflow_save takes {\"name\": the workflow's name, \"task\": what the user asked, in their words}.")
	}
	w, err := workflow.Record(a.Name, a.Task, ws.task.Steps())
	if err != nil {
		msg, _ := Sentence(err)
		return fail("What your calls did cannot be saved as a workflow: " + strings.TrimSuffix(msg, ".") + ".")
	}
	pc, ruling, refused := l.c.clientAsk(ctx, ws, id, link.WorkflowSaveTool, "workflow:save", fmt.Sprintf("save the %d steps it took as the workflow “%s”", len(w.Steps), w.Name))
	if refused != "" {
		return fail(refused)
	}
	now := l.c.Engine.Now().UnixMilli()
	w.ID, w.CreatedAt, w.UpdatedAt = agent.NewID(), now, now
	if err := l.c.Store.SaveWorkflow(ctx, w); err != nil {
		msg, _ := Sentence(err)
		return fail(msg)
	}
	l.c.gate.Record(context.WithoutCancel(ctx), pc, ruling, saySavedWorkflow.With(), true)
	ws.task.ForgetSteps()
	var steps []string
	for _, s := range w.Steps {
		steps = append(steps, s.What)
	}
	values, _ := json.Marshal(w.Schema())
	return &link.CallResult{Text: fmt.Sprintf("Saved as the workflow “%s” (id %s), in the user's Workflows in Skiff: %s. workflow_run runs it with these values: %s", w.Name, w.ID, strings.Join(steps, "; "), values)}
}

// runWorkflow is workflow_run for an outside client: the replay works in the client's tab group
// and every step passes the gate as the client's own call. The replay is a chat in the panel,
// like any run.
func (l *linker) runWorkflow(ctx context.Context, ws *workspace, raw json.RawMessage) *link.CallResult {
	fail := func(s string) *link.CallResult { return &link.CallResult{IsError: true, Text: s} }
	failed := func(err error) *link.CallResult { msg, _ := Sentence(err); return fail(msg) }
	var a link.WorkflowRunArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return fail("workflow_run takes {\"workflow\": its id or name, \"values\": {name: value}}: " + err.Error() + ".")
		}
	}
	all, err := l.c.Store.Workflows(ctx)
	if err != nil {
		return failed(err)
	}
	var w *workflow.Workflow
	for i := range all {
		if all[i].ID == a.Workflow || w == nil && strings.EqualFold(strings.TrimSpace(all[i].Name), strings.TrimSpace(a.Workflow)) {
			w = &all[i]
		}
	}
	if w == nil {
		return fail(fmt.Sprintf("There is no workflow “%s”: workflow_list names the ones there are.", a.Workflow))
	}
	ses, err := l.c.Engine.RunWorkflow(ctx, agent.WorkflowInput{ID: w.ID, Values: a.Values, Task: ws.task},
		func(u agent.Update) { l.c.broadcast(u) })
	if err != nil {
		return failed(err)
	}
	end := ses.Messages[len(ses.Messages)-1].Content
	text := end + fmt.Sprintf(" Each step is in the chat “%s” in Skiff's panel; take a snapshot to see the page it ended on.", ses.Title)
	return &link.CallResult{Text: text, IsError: !ses.Workflow.Done}
}
