package core

import (
	"context"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/schedule"
	"github.com/skiff-ai/skiff/internal/store"
)

// Scheduled runs: a workflow or a prompt that starts by itself (internal/schedule). One browser
// alarm is set at the earliest time one is due; it wakes the worker (the panel may be closed),
// which runs what is due, each in a tab group and window of its own, every step through the
// gate as "⏰ name". A run that asks waits for the answer (badge and notification) and goes no
// further without it; each run leaves a chat and a notification with its outcome.

// Alarms is what schedules need of the browser.
type Alarms interface {
	// Set wakes the worker at at (unix ms); 0 clears the alarm.
	Set(ctx context.Context, at int64)
	// Busy keeps the worker from being stopped while a scheduled run goes on (true) and lets it
	// go again (false).
	Busy(on bool)
	// Ran tells the user how a run went; chat is the chat it left; lang is the language
	// setting.
	Ran(ctx context.Context, chat, title string, outcome i18n.Text, ok bool, lang string)
}

// RunTimeout bounds a scheduled run, its waits for answers included.
const RunTimeout = time.Hour

// ScheduleSave is schedule.save's request: a new schedule (no id) or a changed one.
type ScheduleSave struct {
	schedule.Schedule
}

// ScheduleRef names a schedule.
type ScheduleRef struct {
	ID string `json:"id"`
}

func (c *Core) listSchedules(ctx context.Context, _ struct{}) ([]schedule.Schedule, error) {
	list, err := c.Store.Schedules(ctx)
	if list == nil {
		list = []schedule.Schedule{}
	}
	return list, err
}

// saveSchedule checks a schedule, works out when it runs next and sets the alarm. A workflow
// that types a secret cannot be scheduled: the secret would have to be stored.
func (c *Core) saveSchedule(ctx context.Context, p ScheduleSave) (*schedule.Schedule, error) {
	sc := p.Schedule
	sc.Name, sc.Prompt = strings.TrimSpace(sc.Name), strings.TrimSpace(sc.Prompt)
	if sc.Workflow != "" {
		w, err := c.Store.Workflow(ctx, sc.Workflow)
		if err != nil {
			return nil, err
		}
		for _, prm := range w.Params {
			if prm.Secret {
				return nil, store.FieldSays("schedule", sayScheduleSecret.With(w.Name, prm.Label))
			}
		}
		values, err := agent.WorkflowValues(w, sc.Values)
		if err != nil {
			return nil, err
		}
		sc.Values = values
		if sc.Name == "" {
			sc.Name = w.Name
		}
	}
	now := c.Engine.Now()
	var old *schedule.Schedule
	if sc.ID == "" {
		sc.ID, sc.CreatedAt = agent.NewID(), now.UnixMilli()
	} else if list, err := c.Store.Schedules(ctx); err == nil {
		for i := range list {
			if list[i].ID == sc.ID {
				old = &list[i]
			}
		}
		if old == nil {
			return nil, store.ErrNoSchedule
		}
		sc.CreatedAt, sc.Last, sc.Running, sc.RunningChat = old.CreatedAt, old.Last, old.Running, old.RunningChat
	}
	sc.Now = old != nil && old.Now // asked for by Run now only
	if sc.Repeat.Every == schedule.Once && sc.Repeat.At <= now.UnixMilli() && (old == nil || old.Repeat != sc.Repeat) {
		return nil, store.FieldSays("schedule", sayTimePassed.With())
	}
	sc.NextAt = 0
	if n := sc.Repeat.Next(now); !n.IsZero() {
		sc.NextAt = n.UnixMilli()
	}
	if err := c.Store.SaveSchedule(ctx, &sc); err != nil {
		return nil, err
	}
	c.arm(ctx)
	return &sc, nil
}

// runScheduleNow starts a run of a schedule at once, as its time would (its own window, its
// asks waiting for the user), whatever its times and even paused: the user tries it out, or
// wants it done today before its time. A worker stopped before it starts starts it as it
// starts (Core.Start calls Due).
func (c *Core) runScheduleNow(ctx context.Context, p ScheduleRef) (struct{}, error) {
	var running string
	found := false
	_, err := c.Store.UpdateSchedules(ctx, func(list []schedule.Schedule) bool {
		for i := range list {
			if list[i].ID != p.ID {
				continue
			}
			found = true
			if list[i].Running != 0 {
				running = list[i].Name
				return false
			}
			list[i].Now = true
			return true
		}
		return false
	})
	switch {
	case err != nil:
		return struct{}{}, err
	case !found:
		return struct{}{}, store.ErrNoSchedule
	case running != "":
		return struct{}{}, store.FieldSays("schedule", sayRunningAlready.With(running))
	}
	c.schedulesChanged()
	go agent.Safe("the scheduled runs", func() { c.Due(context.WithoutCancel(ctx)) })
	return struct{}{}, nil
}

func (c *Core) deleteSchedule(ctx context.Context, p ScheduleRef) (struct{}, error) {
	err := c.Store.DeleteSchedule(ctx, p.ID)
	c.arm(ctx)
	return struct{}{}, err
}

// arm sets the alarm at the earliest time a schedule is due (or clears it).
func (c *Core) arm(ctx context.Context) {
	if list, err := c.Store.Schedules(ctx); err == nil {
		c.setAlarm(ctx, list)
	}
}

func (c *Core) setAlarm(ctx context.Context, list []schedule.Schedule) {
	if c.Alarms != nil {
		c.Alarms.Set(ctx, schedule.Earliest(list))
	}
}

// Due runs the schedules whose time has come, one after another, and sets the alarm for the
// next. The worker's alarm calls it; so does the worker's start (a time missed while the browser
// was closed runs once). A run marked as going since before this worker started was cut when
// the worker stopped: it is not started again (it may have acted), and its outcome says so.
// The store is written only when something changed: a start with nothing due writes nothing.
func (c *Core) Due(ctx context.Context) {
	for {
		now := c.Engine.Now()
		var next *schedule.Schedule
		var cut []schedule.Schedule
		list, err := c.Store.UpdateSchedules(ctx, func(list []schedule.Schedule) bool {
			changed := false
			cut = cut[:0]
			for i := range list {
				sc := &list[i]
				if sc.Running != 0 && sc.Running < c.bootAt {
					said := sayRunCut
					if sc.RunningChat == "" {
						said = sayRunCutAtStart
					}
					sc.Last = schedule.Ended(sc.Running, sc.RunningChat, false, said.With())
					sc.Running, sc.RunningChat, changed = 0, "", true
					cut = append(cut, *sc)
				}
				if next == nil && sc.Due(now) {
					sc.Running, sc.NextAt, sc.Now = now.UnixMilli(), 0, false
					if n := sc.Repeat.Next(now); !n.IsZero() {
						sc.NextAt = n.UnixMilli()
					}
					cp := *sc
					next, changed = &cp, true
				}
			}
			return changed
		})
		if err == nil && c.Alarms != nil {
			// The user hears of a cut run as of one that ended: it did not do what it was for.
			for _, sc := range cut {
				c.Alarms.Ran(context.WithoutCancel(ctx), sc.Last.Chat, "⏰ "+sc.Name, *sc.Last.OutcomeText, false, c.language(ctx))
			}
		}
		if err != nil || len(list) == 0 {
			return // no schedules: no alarm (deleting the last one cleared it)
		}
		if next == nil {
			c.setAlarm(ctx, list)
			return
		}
		c.schedulesChanged()
		c.runSchedule(ctx, *next)
	}
}

// schedulesChanged tells the panels to read the schedules again.
func (c *Core) schedulesChanged() {
	c.broadcastPanels(struct {
		Type string `json:"type"`
	}{UpdateSchedules})
}

// UpdateSchedules is the push that tells panels the schedules changed: {"type": "schedules.changed"}.
const UpdateSchedules = "schedules.changed"

// runSchedule runs one schedule to its end and records how it went.
func (c *Core) runSchedule(ctx context.Context, sc schedule.Schedule) {
	if c.Alarms != nil {
		c.Alarms.Busy(true)
		defer c.Alarms.Busy(false)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), RunTimeout)
	defer cancel()
	rctx = agent.WithAskWait(rctx, RunTimeout) // its asks wait as long as the run may
	title := "⏰ " + sc.Name
	if sc.Last != nil {
		c.closeLeft(rctx, *sc.Last)
	}
	ws := newWorkspace(c.Browser, link.Client{ID: "schedule-" + sc.ID, Name: title}, store.Workspace{}, nil)
	chat, ok, outcome := c.runScheduled(rctx, sc, ws)
	for _, id := range ws.task.Env.Used() {
		c.Browser.Release(context.WithoutCancel(ctx), id)
	}
	var left []schedule.LeftTab // the run's tab group, and what its pages opened
	if c.Browser != nil {
		tabs, _ := ws.Tabs(context.WithoutCancel(ctx), 0)
		for _, t := range tabs {
			left = append(left, schedule.LeftTab{ID: t.ID, URL: t.URL})
		}
	}
	_, _ = c.Store.UpdateSchedules(context.WithoutCancel(ctx), func(list []schedule.Schedule) bool {
		for i := range list {
			if list[i].ID == sc.ID {
				list[i].Running, list[i].RunningChat = 0, ""
				list[i].Last = schedule.Ended(c.Engine.Now().UnixMilli(), chat, ok, outcome)
				list[i].Last.Left = left
				return true
			}
		}
		return false // deleted while it ran
	})
	c.schedulesChanged()
	if c.Alarms != nil {
		c.Alarms.Ran(context.WithoutCancel(ctx), chat, title, outcome, ok, c.language(ctx))
	}
}

// closeLeft closes the tabs the run that ended as last left open, as the schedule's next run
// begins: those still showing the page it left them at that the user has not gone to since
// (a tab the user took up is theirs). A window all of whose tabs close closes with them.
func (c *Core) closeLeft(ctx context.Context, last schedule.Last) {
	if c.Browser == nil || len(last.Left) == 0 {
		return
	}
	var ids []int
	for _, l := range last.Left {
		t, err := c.Browser.Tab(ctx, l.ID)
		if err != nil || t.URL != l.URL || t.LastAccessed > last.At || t.Incognito {
			continue
		}
		ids = append(ids, t.ID)
	}
	if len(ids) > 0 {
		_ = c.Browser.CloseTabs(ctx, ids) // one that went meanwhile is no reason to stop the run
	}
}

// runningChat notes the chat run sc writes in, so that a worker stopped during the run leaves
// the chat as the cut run's.
func (c *Core) runningChat(ctx context.Context, sc schedule.Schedule, chat string) {
	_, _ = c.Store.UpdateSchedules(context.WithoutCancel(ctx), func(list []schedule.Schedule) bool {
		for i := range list {
			if list[i].ID == sc.ID && list[i].Running == sc.Running {
				list[i].RunningChat = chat
				return true
			}
		}
		return false
	})
}

// runScheduled is the run itself, in the workspace ws: the workflow's replay, or the prompt as
// an agent run. It returns the chat it left, whether it finished, and its outcome in a sentence.
func (c *Core) runScheduled(ctx context.Context, sc schedule.Schedule, ws *workspace) (chat string, ok bool, outcome i18n.Text) {
	if c.Browser == nil {
		return "", false, sayNoBrowserToRun.With()
	}
	emit := func(u agent.Update) {
		if chat == "" && u.SessionID != "" {
			chat = u.SessionID
			c.runningChat(ctx, sc, chat)
		}
		c.broadcast(u)
	}
	failed := func(err error) (string, bool, i18n.Text) {
		said, _ := Say(err)
		return chat, false, said
	}
	if sc.Workflow != "" {
		ses, err := c.Engine.RunWorkflow(ctx, agent.WorkflowInput{ID: sc.Workflow, Values: sc.Values, Task: ws.task}, emit)
		if err != nil {
			return failed(err)
		}
		end := ses.Messages[len(ses.Messages)-1]
		if end.ContentText != nil {
			return chat, ses.Workflow.Done, *end.ContentText
		}
		return chat, ses.Workflow.Done, i18n.Verbatim(end.Content)
	}
	on := true
	if err := c.Engine.Send(ctx, agent.Input{Text: sc.Prompt, Agent: &on, Task: ws.task}, emit); err != nil {
		return failed(err)
	}
	ses, err := c.Store.Session(ctx, chat)
	if err != nil || len(ses.Messages) == 0 {
		return chat, false, sayRunNoChat.With()
	}
	last := ses.Messages[len(ses.Messages)-1]
	switch {
	case last.Error != nil:
		return chat, false, i18n.Or(last.Error.Text, last.Error.Message)
	case last.Status == store.StatusStopped:
		return chat, false, sayRunStopped.With()
	case last.Status != "":
		return chat, false, sayRunEnded.With(last.Status)
	}
	text := strings.TrimSpace(last.Content)
	if r := []rune(text); len(r) > 300 {
		text = string(r[:300]) + "…"
	}
	if text == "" {
		return chat, true, sayRunFinished.With()
	}
	return chat, true, i18n.Verbatim(text) // the model's last words, as it wrote them
}

// How a scheduled run went, and why one cannot be saved (their French is in ui/_locales).
var (
	sayScheduleSecret = i18n.Sentence{Key: "scErrSecret", English: "“$1” types a password or card number ($2), which Skiff never stores, so it cannot run on a schedule."}
	sayTimePassed     = i18n.Sentence{Key: "scErrPassed", English: "That time has passed: choose a time to come."}
	sayRunningAlready = i18n.Sentence{Key: "scErrRunning", English: "“$1” is running already."}
	sayRunCut         = i18n.Sentence{Key: "scRunCut", English: "The run was cut when Skiff's worker stopped; it was not started again. Its chat shows how far it got."}
	sayRunCutAtStart  = i18n.Sentence{Key: "scRunCutAtStart", English: "The run was cut when Skiff's worker stopped, before it began; it was not started again."}
	sayNoBrowserToRun = i18n.Sentence{Key: "scRunNoBrowser", English: "Skiff has no browser to run in."}
	sayRunNoChat      = i18n.Sentence{Key: "scRunNoChat", English: "The run left no chat."}
	sayRunStopped     = i18n.Sentence{Key: "scRunStopped", English: "The run was stopped."}
	sayRunEnded       = i18n.Sentence{Key: "scRunEnded", English: "The run ended: $1."}
	sayRunFinished    = i18n.Sentence{Key: "scRunFinished", English: "The run finished."}
)
