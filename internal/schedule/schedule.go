// Package schedule says when a scheduled run is due: a saved workflow or a plain prompt that runs
// once at a time, every hour, every day or on weekdays at a time of day. It is plain Go over
// time.Time: the core keeps the schedules in the store, sets one browser alarm at the earliest
// time one is due, and runs what is due when the alarm wakes the worker.
package schedule

import (
	"strconv"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// How often a schedule runs.
const (
	Once     = "once"
	Hourly   = "hourly"
	Daily    = "daily"
	Weekdays = "weekdays"
)

// Max bounds how many schedules are kept.
const Max = 50

// Schedule is a run that starts by itself: a workflow (with the values of its parameters; a
// workflow that needs a secret cannot be scheduled) or a prompt to the agent.
type Schedule struct {
	ID       string            `json:"id"`
	Name     string            `json:"name"`
	Workflow string            `json:"workflow,omitempty"`
	Values   map[string]string `json:"values,omitempty"`
	Prompt   string            `json:"prompt,omitempty"`
	Repeat   Repeat            `json:"repeat"`
	// NextAt is when it runs next (unix ms); 0: never again (a run once that ran).
	NextAt int64 `json:"nextAt"`
	// Running is the start of the run in progress (unix ms), 0 when none; RunningChat the chat
	// it writes in, once it has one (a run a stopped worker cut leaves it as its outcome's).
	Running     int64  `json:"running,omitempty"`
	RunningChat string `json:"runningChat,omitempty"`
	Last        *Last  `json:"last,omitempty"`
	Paused      bool   `json:"paused,omitempty"`
	// CreatedAt is when the user made it (unix ms).
	CreatedAt int64 `json:"createdAt"`
	// Now: the user asked for a run at once (Run now), besides its times, paused or not.
	Now bool `json:"now,omitempty"`
}

// Last is how the last run went.
type Last struct {
	At      int64  `json:"at"`
	Chat    string `json:"chat,omitempty"` // the chat the run left
	OK      bool   `json:"ok"`
	Outcome string `json:"outcome"` // in English
	// OutcomeText is Outcome as the panel shows it, in the user's language.
	OutcomeText *i18n.Text `json:"outcomeText,omitempty"`
	// Left are the tabs the run opened that were still open when it ended: the schedule's
	// next run closes the ones the user has not gone to since, so that a schedule that runs
	// every hour leaves one window, its last run's, not one a run.
	Left []LeftTab `json:"left,omitempty"`
}

// LeftTab is a tab a run left open: its id, and the address it showed (a tab id is only
// the same tab while the browser runs; one it gives again after a restart shows another page).
type LeftTab struct {
	ID  int    `json:"id"`
	URL string `json:"url"`
}

// Ended is how a run went: at, in chat, ok or not, said as outcome.
func Ended(at int64, chat string, ok bool, outcome i18n.Text) *Last {
	return &Last{At: at, Chat: chat, OK: ok, Outcome: outcome.English(), OutcomeText: &outcome}
}

// Repeat is when a schedule runs: Every is Once (at At, a unix ms time), Hourly (at the minute
// of Time), Daily or Weekdays (at Time, "HH:MM" in the browser's time zone).
type Repeat struct {
	Every string `json:"every"`
	Time  string `json:"time,omitempty"`
	At    int64  `json:"at,omitempty"`
}

// What is wrong with a schedule, in words for the user (their French is in ui/_locales).
var (
	sayNotClock         = i18n.Sentence{Key: "scNotClock", English: "“$1” is not a time of day like 08:00"}
	sayOnceNeedsAt      = i18n.Sentence{Key: "scOnceNeedsAt", English: "a run once needs its date and time"}
	sayNotEvery         = i18n.Sentence{Key: "scNotEvery", English: "“$1” is not how often a schedule runs (once, hourly, daily or weekdays)"}
	sayNeedsName        = i18n.Sentence{Key: "scNeedsName", English: "a schedule needs a name"}
	sayWorkflowOrPrompt = i18n.Sentence{Key: "scWorkflowOrPrompt", English: "a schedule runs either a workflow or a prompt"}
)

// clock reads "HH:MM".
func clock(s string) (h, m int, err error) {
	hs, ms, ok := strings.Cut(strings.TrimSpace(s), ":")
	if ok {
		h, err = strconv.Atoi(hs)
	}
	if ok && err == nil {
		m, err = strconv.Atoi(ms)
	}
	if !ok || err != nil || h < 0 || h > 23 || m < 0 || m > 59 || len(ms) != 2 {
		return 0, 0, sayNotClock.Error(s)
	}
	return h, m, nil
}

// Check reports what is wrong with r, in words for the user.
func (r Repeat) Check() error {
	switch r.Every {
	case Once:
		if r.At <= 0 {
			return sayOnceNeedsAt.Error()
		}
		return nil
	case Hourly, Daily, Weekdays:
		_, _, err := clock(r.Time)
		return err
	}
	return sayNotEvery.Error(r.Every)
}

// Next is the first time r runs strictly after t, in t's location; the zero time when it
// never does again.
// Wall is the instant a wall-clock time of the user's zone names (the zone of loc). Go's
// js/wasm port knows the zone only as the offset it had when the worker started (it has no
// zone database), so across a daylight-saving change a daily 08:00 would run at 07:00 or 09:00;
// the worker resolves it with the browser's Date instead (internal/chrome.Wall). Natively,
// time.Date with the zone does it.
var Wall = func(y int, mo time.Month, d, h, m int, loc *time.Location) time.Time {
	return time.Date(y, mo, d, h, m, 0, 0, loc)
}

func (r Repeat) Next(t time.Time) time.Time {
	if r.Every == Once {
		at := time.UnixMilli(r.At).In(t.Location())
		if at.After(t) {
			return at
		}
		return time.Time{}
	}
	h, m, err := clock(r.Time)
	if err != nil {
		return time.Time{}
	}
	if r.Every == Hourly {
		n := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), m, 0, 0, t.Location())
		if !n.After(t) {
			n = n.Add(time.Hour)
		}
		return n
	}
	for d := 0; d <= 7; d++ {
		day := time.Date(t.Year(), t.Month(), t.Day()+d, 12, 0, 0, 0, time.UTC) // the calendar day, normalised
		if r.Every == Weekdays && (day.Weekday() == time.Saturday || day.Weekday() == time.Sunday) {
			continue
		}
		n := Wall(day.Year(), day.Month(), day.Day(), h, m, t.Location())
		if !n.After(t) {
			continue
		}
		return n
	}
	return time.Time{}
}

// Check reports what is wrong with s before it is saved.
func (s *Schedule) Check() error {
	if strings.TrimSpace(s.Name) == "" {
		return sayNeedsName.Error()
	}
	if (s.Workflow == "") == (strings.TrimSpace(s.Prompt) == "") {
		return sayWorkflowOrPrompt.Error()
	}
	return s.Repeat.Check()
}

// Due reports whether s should start at now: it is not running, and the user asked for a run
// now, or its time has come (a time missed while the browser was closed counts once, not once
// per missed time) and it is not paused.
func (s *Schedule) Due(now time.Time) bool {
	return s.Running == 0 && (s.Now || !s.Paused && s.NextAt > 0 && s.NextAt <= now.UnixMilli())
}

// Earliest is the first NextAt among the schedules that will run (0: none).
func Earliest(list []Schedule) int64 {
	var at int64
	for _, s := range list {
		if s.Paused || s.NextAt <= 0 || s.Running != 0 {
			continue
		}
		if at == 0 || s.NextAt < at {
			at = s.NextAt
		}
	}
	return at
}
