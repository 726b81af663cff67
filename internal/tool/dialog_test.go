package tool_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/tool"
)

// leaving is a tab showing a dialog of kind typ, with a navigation set out for pending; Chrome
// closes the dialog itself after looks looks at it (never, when 0), or when it is answered.
type leaving struct {
	*testkit.Page
	typ, pending  string
	looks, looked int
	answered      int
}

func (l *leaving) Tab(ctx context.Context, id int) (tool.Tab, error) {
	t, err := l.Page.Tab(ctx, id)
	t.Pending = l.pending
	return t, err
}

func (l *leaving) Dialog(int) (tool.Dialog, bool) {
	l.looked++
	if l.answered > 0 || l.looks > 0 && l.looked > l.looks {
		return tool.Dialog{}, false
	}
	return tool.Dialog{Type: l.typ, Message: "Saved", Answerable: true}, true
}

func (l *leaving) AnswerDialog(context.Context, int, bool, string) error {
	l.answered++
	return nil
}

// A page's alert that the tab is leaving the page under (a navigation set out while it was
// open) is Chrome's to close, and answering one it is closing can bring the browser down: the
// dialog tool lets it close and says so. One that stays open is answered after that moment,
// and the question a navigation asks itself (beforeunload) is answered at once.
func TestADialogTheTabIsLeavingIsNotAnswered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	run := func(l *leaving) (*tool.Result, error) {
		l.Page = &testkit.Page{URL: "https://kept.example/", Title: "Kept"}
		return tool.Run(ctx, tool.NewEnv(testkit.Browser(l), 1, 0), "dialog", json.RawMessage(`{"accept":true}`))
	}

	closing := &leaving{typ: "alert", pending: "https://kept.example/next", looks: 3}
	r, err := run(closing)
	require.NoError(t, err)
	assert.Zero(t, closing.answered, "a dialog Chrome was closing was answered")
	assert.Contains(t, r.Text, `The alert dialog "Saved" closed as the tab left the page; nothing was answered.`)

	staying := &leaving{typ: "confirm", pending: "https://kept.example/next"}
	r, err = run(staying)
	require.NoError(t, err)
	assert.Equal(t, 1, staying.answered)
	assert.Contains(t, r.Text, `Accepted the confirm dialog "Saved".`)

	asking := &leaving{typ: "beforeunload", pending: "https://kept.example/next", looks: 3}
	r, err = run(asking)
	require.NoError(t, err)
	assert.Equal(t, 1, asking.answered, "the navigation's own question was not answered")
	assert.Contains(t, r.Text, "Accepted the beforeunload dialog")

	still := &leaving{typ: "alert", looks: 3}
	r, err = run(still)
	require.NoError(t, err)
	assert.Equal(t, 1, still.answered, "a dialog on a page going nowhere was not answered")
	assert.Contains(t, r.Text, `Accepted the alert dialog "Saved".`)
}
