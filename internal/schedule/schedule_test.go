package schedule

import (
	"testing"
	"time"
	_ "time/tzdata" // the test reads Europe/Paris on machines without a zone database

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNext(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, paris)
		require.NoError(t, err)
		return v
	}
	fri := at("2026-11-27 09:30") // a Friday
	cases := []struct {
		r    Repeat
		from time.Time
		want string
	}{
		{Repeat{Every: Daily, Time: "08:00"}, fri, "2026-11-28 08:00"},
		{Repeat{Every: Daily, Time: "10:00"}, fri, "2026-11-27 10:00"},
		{Repeat{Every: Daily, Time: "09:30"}, fri, "2026-11-28 09:30"}, // strictly after
		{Repeat{Every: Weekdays, Time: "08:00"}, fri, "2026-11-30 08:00"},
		{Repeat{Every: Weekdays, Time: "10:00"}, fri, "2026-11-27 10:00"},
		{Repeat{Every: Hourly, Time: "00:15"}, fri, "2026-11-27 10:15"},
		{Repeat{Every: Hourly, Time: "00:45"}, fri, "2026-11-27 09:45"},
		{Repeat{Every: Daily, Time: "00:05"}, at("2026-12-31 23:50"), "2027-01-01 00:05"},
		// A day that is 23 hours long (summer time starts) still runs at 08:00 by the clock.
		{Repeat{Every: Daily, Time: "08:00"}, at("2026-03-28 12:00"), "2026-03-29 08:00"},
		{Repeat{Every: Once, At: at("2026-12-01 07:00").UnixMilli()}, fri, "2026-12-01 07:00"},
	}
	for _, c := range cases {
		got := c.r.Next(c.from)
		assert.Equal(t, c.want, got.Format("2006-01-02 15:04"), "%+v from %s", c.r, c.from)
	}
	assert.True(t, Repeat{Every: Once, At: at("2026-11-01 07:00").UnixMilli()}.Next(fri).IsZero(), "a time past never comes again")
}

func TestCheck(t *testing.T) {
	for _, bad := range []Repeat{{Every: "monthly", Time: "08:00"}, {Every: Daily, Time: "8"}, {Every: Daily, Time: "24:00"},
		{Every: Daily, Time: "08:5"}, {Every: Once}} {
		assert.Error(t, bad.Check(), "%+v", bad)
	}
	assert.NoError(t, Repeat{Every: Weekdays, Time: "07:05"}.Check())
	s := Schedule{Name: "x", Workflow: "w", Prompt: "p", Repeat: Repeat{Every: Daily, Time: "08:00"}}
	assert.EqualError(t, s.Check(), "a schedule runs either a workflow or a prompt")
	s.Prompt = ""
	assert.NoError(t, s.Check())
}

func TestDueAndEarliest(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	list := []Schedule{
		{ID: "past", NextAt: 900_000},                 // missed while the browser was closed: due once
		{ID: "later", NextAt: 2_000_000},              // not yet
		{ID: "paused", NextAt: 500_000, Paused: true}, // never
		{ID: "running", NextAt: 500_000, Running: 999_000},
		{ID: "done", NextAt: 0},
	}
	var due []string
	for _, s := range list {
		if s.Due(now) {
			due = append(due, s.ID)
		}
	}
	assert.Equal(t, []string{"past"}, due)
	assert.Equal(t, int64(900_000), Earliest(list))
	assert.Equal(t, int64(2_000_000), Earliest(list[1:]))
	assert.Equal(t, int64(0), Earliest(list[2:]))
}

// The worker knows its zone only as the offset it had when it started (Go's js/wasm port):
// across the change to summer time a daily 08:00 computed in that fixed offset would run at
// 09:00 by the clock. Wall resolves each wall-clock time as the browser does, so the run comes
// at 08:00 of the new offset.
func TestNextAcrossADaylightSavingChange(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	winter := time.FixedZone("UTC+1", 3600) // what the worker started with
	from := time.Date(2026, 3, 28, 12, 0, 0, 0, winter)
	r := Repeat{Every: Daily, Time: "08:00"}

	fixed := r.Next(from)
	assert.Equal(t, time.Date(2026, 3, 29, 9, 0, 0, 0, paris), fixed.In(paris), "the fixed offset alone is an hour late")

	defer func(w func(int, time.Month, int, int, int, *time.Location) time.Time) { Wall = w }(Wall)
	Wall = func(y int, mo time.Month, d, h, m int, loc *time.Location) time.Time {
		return time.Date(y, mo, d, h, m, 0, 0, paris).In(loc) // the browser's Date knows the zone
	}
	got := r.Next(from)
	assert.Equal(t, time.Date(2026, 3, 29, 8, 0, 0, 0, paris), got.In(paris))
	assert.Equal(t, time.Date(2026, 3, 30, 8, 0, 0, 0, paris), Repeat{Every: Weekdays, Time: "08:00"}.Next(from).In(paris), "Sunday is skipped by its calendar day")
}
