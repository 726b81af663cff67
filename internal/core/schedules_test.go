package core

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/schedule"
	"github.com/skiff-ai/skiff/internal/store"
)

// countingKV counts the store's writes.
type countingKV struct {
	store.KV
	writes int
}

func (k *countingKV) Set(ctx context.Context, items map[string][]byte) error {
	k.writes++
	return k.KV.Set(ctx, items)
}

type alarms struct {
	mu   sync.Mutex
	set  []int64
	ran  []string    // "chat|title|ok|message" of each run the user was told of
	said []i18n.Text // their outcomes, as the notification words them
}

func (a *alarms) Set(_ context.Context, at int64) {
	a.mu.Lock()
	a.set = append(a.set, at)
	a.mu.Unlock()
}
func (a *alarms) Busy(bool) {}
func (a *alarms) Ran(_ context.Context, chat, title string, outcome i18n.Text, ok bool, _ string) {
	a.mu.Lock()
	a.ran = append(a.ran, fmt.Sprintf("%s|%s|%v|%s", chat, title, ok, outcome.English()))
	a.said = append(a.said, outcome)
	a.mu.Unlock()
}

func (a *alarms) last() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.set) == 0 {
		return -1
	}
	return a.set[len(a.set)-1]
}

// Saving a schedule works out when it runs and sets the alarm there; a workflow that types a
// secret is refused; a time that has passed is refused; deleting the last one clears the alarm.
// A run marked as going when the worker starts was cut: it is not run again, and says so.
func TestSchedulesSetTheAlarmAndSurviveAStoppedWorker(t *testing.T) {
	ctx := context.Background()
	kv := &countingKV{KV: store.NewMemKV()}
	c := New(ctx, kv, nil, nil, nil)
	a := &alarms{}
	c.Alarms = a
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.Local)
	c.Engine.Now = func() time.Time { return now }
	ws, err := c.importWorkflows(ctx, WorkflowImport{Data: bookingWorkflow(t)})
	require.NoError(t, err)

	_, err = c.saveSchedule(ctx, ScheduleSave{schedule.Schedule{Workflow: ws[0].ID, Repeat: schedule.Repeat{Every: schedule.Daily, Time: "08:00"}}})
	require.Error(t, err)
	msg, _ := Sentence(err)
	assert.Contains(t, msg, "cannot run on a schedule")

	_, err = c.saveSchedule(ctx, ScheduleSave{schedule.Schedule{Name: "News", Prompt: "Summarise the news", Repeat: schedule.Repeat{Every: schedule.Once, At: now.Add(-time.Minute).UnixMilli()}}})
	msg, _ = Sentence(err)
	assert.Equal(t, "That time has passed: choose a time to come.", msg)

	// A schedule the store refuses says why in the user's language, inside the store's sentence.
	_, err = c.saveSchedule(ctx, ScheduleSave{schedule.Schedule{Name: "News", Prompt: "Summarise the news", Repeat: schedule.Repeat{Every: schedule.Daily, Time: "8h"}}})
	said, field := Say(err)
	assert.Equal(t, "schedule", field)
	assert.Equal(t, "This schedule cannot be saved: “8h” is not a time of day like 08:00.", said.English())
	frw := i18n.Words{Lang: "fr", Catalog: catalogs(t)["fr"], English: catalogs(t)["en"]}
	assert.Equal(t, "Cette planification ne peut pas être enregistrée : « 8h » n’est pas une heure comme 08:00.", frw.Say(said))

	sc, err := c.saveSchedule(ctx, ScheduleSave{schedule.Schedule{Name: " News ", Prompt: "Summarise the news", Repeat: schedule.Repeat{Every: schedule.Weekdays, Time: "08:00"}}})
	require.NoError(t, err)
	assert.Equal(t, "News", sc.Name)
	want := time.Date(2026, 11, 25, 8, 0, 0, 0, time.Local).UnixMilli()
	assert.Equal(t, want, sc.NextAt)
	assert.Equal(t, want, a.last(), "the alarm is set at the next run")

	// Paused: no alarm for it.
	sc.Paused = true
	_, err = c.saveSchedule(ctx, ScheduleSave{*sc})
	require.NoError(t, err)
	assert.Equal(t, int64(0), a.last())

	// A wake with nothing due writes nothing.
	kv.writes = 0
	c.Due(ctx)
	assert.Zero(t, kv.writes, "a wake with nothing due wrote the store")

	// A worker stopped during a run: the next one does not run it again. A run this worker
	// started is left alone.
	_, err = c.Store.UpdateSchedules(ctx, func(l []schedule.Schedule) bool {
		l[0].Running, l[0].Paused = now.Add(-time.Minute).UnixMilli(), false
		return true
	})
	require.NoError(t, err)
	c.bootAt = now.Add(-time.Hour).UnixMilli()
	c.Due(ctx)
	list, err := c.Store.Schedules(ctx)
	require.NoError(t, err)
	assert.NotZero(t, list[0].Running, "a run of this worker's was taken for a cut one")
	c.bootAt = now.UnixMilli() // the next worker
	c.Due(ctx)
	list, err = c.Store.Schedules(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Zero(t, list[0].Running)
	require.NotNil(t, list[0].Last)
	assert.False(t, list[0].Last.OK)
	assert.Contains(t, list[0].Last.Outcome, "not started again")
	b, _ := json.Marshal(list)
	assert.NotContains(t, string(b), "chat", "nothing ran")
	assert.Equal(t, []string{"|⏰ News|false|The run was cut when Skiff's worker stopped, before it began; it was not started again."}, a.ran,
		"the user is told of a cut run as of one that ended")
	fr := i18n.Words{Lang: "fr", Catalog: catalogs(t)["fr"], English: catalogs(t)["en"]}
	assert.Equal(t, "L’exécution a été coupée quand le service de Skiff s’est arrêté, avant de commencer ; elle n’a pas été relancée.", fr.Say(a.said[0]),
		"in the user's language")
	require.NotNil(t, list[0].Last.OutcomeText)
	assert.Equal(t, "scRunCutAtStart", list[0].Last.OutcomeText.Key, "the list shows it in the user's language too")

	// Cut once it had its chat: the outcome leads there.
	_, err = c.Store.UpdateSchedules(ctx, func(l []schedule.Schedule) bool {
		l[0].Running = now.Add(-time.Minute).UnixMilli()
		return true
	})
	require.NoError(t, err)
	c.runningChat(ctx, schedule.Schedule{ID: sc.ID, Running: now.Add(-time.Minute).UnixMilli()}, "chat-1")
	c.bootAt = now.Add(time.Minute).UnixMilli() // the worker after that one
	c.Due(ctx)
	list, err = c.Store.Schedules(ctx)
	require.NoError(t, err)
	assert.Zero(t, list[0].Running)
	assert.Empty(t, list[0].RunningChat)
	assert.Equal(t, "chat-1", list[0].Last.Chat)
	require.Len(t, a.ran, 2)
	assert.True(t, strings.HasPrefix(a.ran[1], "chat-1|⏰ News|false|The run was cut"), a.ran[1])

	_, err = c.deleteSchedule(ctx, ScheduleRef{ID: sc.ID})
	require.NoError(t, err)
	assert.Equal(t, int64(0), a.last(), "no schedule: no alarm")
}

// Run now starts a run at once, as its time would, even of a paused schedule, and leaves its
// times as they were; a second press while it runs is refused, in words.
func TestRunNowRunsAScheduleAtOnce(t *testing.T) {
	ctx := context.Background()
	c := New(ctx, store.NewMemKV(), nil, nil, nil)
	a := &alarms{}
	c.Alarms = a
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.Local)
	c.Engine.Now = func() time.Time { return now }
	sc, err := c.saveSchedule(ctx, ScheduleSave{schedule.Schedule{Name: "News", Prompt: "Summarise the news", Paused: true, Repeat: schedule.Repeat{Every: schedule.Daily, Time: "08:00"}}})
	require.NoError(t, err)
	next := sc.NextAt

	_, err = c.runScheduleNow(ctx, ScheduleRef{ID: sc.ID})
	require.NoError(t, err)
	done := func() bool {
		list, err := c.Store.Schedules(ctx)
		return err == nil && list[0].Last != nil && list[0].Running == 0
	}
	require.Eventually(t, done, 10*time.Second, 10*time.Millisecond, "Run now ran nothing")
	list, err := c.Store.Schedules(ctx)
	require.NoError(t, err)
	assert.False(t, list[0].Now)
	assert.True(t, list[0].Paused, "still paused")
	assert.Equal(t, next, list[0].NextAt, "its times as they were")
	assert.Equal(t, []string{"|⏰ News|false|Skiff has no browser to run in."}, a.ran, "it ran as at its time")

	_, err = c.Store.UpdateSchedules(ctx, func(l []schedule.Schedule) bool { l[0].Running = now.UnixMilli(); return true })
	require.NoError(t, err)
	_, err = c.runScheduleNow(ctx, ScheduleRef{ID: sc.ID})
	msg, _ := Sentence(err)
	assert.Contains(t, msg, "“News” is running already.")
	_, err = c.runScheduleNow(ctx, ScheduleRef{ID: "gone"})
	require.Error(t, err)
}
