package tool

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A result longer than a model should read at once (network_requests on a page of 2,000
// requests, history, the console) is cut at a line's end and says how much was left out and
// how to see it; the tools whose input sets their own size (snapshot, read_text, get_content)
// keep theirs.
func TestLongResultsAreCutAtALine(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "- fetch GET https://api.example.com/v2/items/%04d?fields=all => 200 OK, 31 ms\n", i)
	}
	text := b.String()
	got := cutLines(text, MaxResultChars)
	assert.LessOrEqual(t, len(got), MaxResultChars+200)
	head, note, ok := strings.Cut(got, "\n[Cut here: ")
	require.True(t, ok, "the cut is said")
	assert.True(t, strings.HasPrefix(text, head) && strings.HasSuffix(head, "\n"), "cut at a line's end")
	assert.Equal(t, fmt.Sprintf("%d more lines (%d characters) are not shown, to keep the answer short. Narrow the call (a filter, fewer results) to see them.]\n",
		2000-strings.Count(head, "\n"), len(text)-len(head)), note)

	assert.Equal(t, "a\nb\n", cutLines("a\nb\n", 10), "a short result is as it was")
	long := cutLines(strings.Repeat("é", MaxResultChars), MaxResultChars) // one line, two bytes a letter
	assert.True(t, utf8.ValidString(long))
	assert.Contains(t, long, "[Cut here: 1 more line (")

	// Every tool's result passes the cut, but for the inputs that set their own size.
	say := func(context.Context, *Env, any, *Effect) (*Result, error) { return &Result{Text: text}, nil }
	for _, in := range []any{&NetworkInput{}, &LinksInput{}, &ConsoleInput{}, &HistorySearchInput{}, &TabsListInput{}} {
		r, err := (&Call{Tool: Tool{Name: "long", run: say}, in: in, Effect: &Effect{}}).Run(context.Background(), &Env{})
		require.NoError(t, err)
		assert.Equal(t, got, r.Text, "%T is cut", in)
	}
	for _, in := range []any{&SnapshotInput{}, &ReadTextInput{}, &GetContentInput{}} {
		r, err := (&Call{Tool: Tool{Name: "long", run: say}, in: in, Effect: &Effect{}}).Run(context.Background(), &Env{})
		require.NoError(t, err)
		assert.Equal(t, text, r.Text, "%T sets its own size", in)
	}
}
