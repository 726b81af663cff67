package workflow

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A call kept until it is recorded (an outside client's, across a worker restart) makes the
// same workflow as the call did: for elements of every real page (namesakes told apart by
// their place, nameless controls by their hint, a heading above naming their place), with the
// snapshot it kept a small part of the one the model read.
func TestAKeptCallRecordsAsTheCallDid(t *testing.T) {
	total, full, cut := 0, 0, 0
	pages := realElements(t, 60, func(name string, s *tool.Snap, text string, c candidate) {
		if t.Failed() {
			return
		}
		e := tool.Element{Ref: c.n.Ref, Role: c.n.Role, Name: c.n.Said(), Tag: "a", Origin: site(s.URL)}
		if c.frame != "" {
			e.Origin = c.frame
		}
		call := Call{Tool: "click", Args: json.RawMessage(`{"ref":"` + c.n.Ref + `"}`), Elements: []tool.Element{e}, URL: s.URL, Seen: text}
		want, err := Record("A click", "", []Call{call})
		require.NoError(t, err)
		kept := Kept(call)
		got, err := Record("A click", "", []Call{kept})
		require.NoError(t, err)
		assert.Equal(t, want, got, "%s: %s", name, want.Steps[len(want.Steps)-1].What)
		total++
		full += len(text)
		cut += len(kept.Seen)
	})
	t.Logf("%d clicks on %d pages recorded alike; the snapshots kept %d of %d bytes", total, pages, cut, full)
	assert.Greater(t, total, 500)
	assert.Less(t, cut*10, full, "what is kept is a small part of what was read")

	// The days of calendars (a date worked out from the month written above the grid).
	dec := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, s := range []*tool.Snap{calendar(dec, true, true), bootstrapCalendar(dec), muiCalendar(dec)} {
		text := tool.Format(s, tool.SnapOptions{})
		textElements(text, 0, func(role, name, ref string, _ int) bool {
			if _, ok := dayNumber(name); !ok {
				return true
			}
			call := Call{Tool: "click", Args: json.RawMessage(`{"ref":"` + ref + `"}`), URL: s.URL, Seen: text,
				Elements: []tool.Element{{Ref: ref, Role: role, Name: name, Origin: site(s.URL)}}}
			want, err := Record("A day", "", []Call{call})
			require.NoError(t, err)
			require.NotEmpty(t, want.Params, "%s %s is a day", role, name)
			got, err := Record("A day", "", []Call{Kept(call)})
			require.NoError(t, err)
			assert.Equal(t, want, got)
			return true
		})
	}
}

// A kept call never holds what it typed into a password field, and the workflow made of it is
// the one the call made (the password is asked for at each run).
func TestAKeptCallLeavesOutThePassword(t *testing.T) {
	s := snap(t, "webmd-1")
	text := tool.Format(s, tool.SnapOptions{})
	search := tool.Element{Ref: "e5", Role: "textbox", Name: "Enter Search Keywords. Use the arrow keys to navigate suggestions.", Tag: "input", Origin: site(s.URL)}
	pw := search
	pw.Field = "password"
	calls := []Call{
		{Tool: "type", Args: json.RawMessage(`{"ref":"e5","text":"flu"}`), Elements: []tool.Element{search}, URL: s.URL, Seen: text},
		{Tool: "type", Args: json.RawMessage(`{"ref":"e5","text":"hunter2"}`), Elements: []tool.Element{pw}, URL: s.URL, Sensitive: true, Seen: text},
		{Tool: "fill_form", Args: json.RawMessage(`{"fields":[{"ref":"e5","value":"flu"},{"ref":"e7","value":"s3cret-pin"}]}`), URL: s.URL, Seen: text,
			Elements: []tool.Element{search, {Ref: "e7", Role: "textbox", Name: "PIN", Field: "payment"}}},
	}
	var kept []Call
	for _, c := range calls {
		k := Kept(c)
		b, err := json.Marshal(k)
		require.NoError(t, err)
		assert.NotContains(t, string(b), "hunter2")
		assert.NotContains(t, string(b), "s3cret-pin")
		kept = append(kept, k)
	}
	assert.Contains(t, string(kept[2].Args), `"flu"`, "a value typed into another field is kept")
	want, err := Record("Search", "", calls)
	require.NoError(t, err)
	got, err := Record("Search", "", kept)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}
