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
