package agent

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/tool"
)

// faulty is a Doer whose replies break inside Skiff's own reading of them: it stands in for a
// bug anywhere in a run (a panic).
type faulty struct{ testkit.Doer }

func (f faulty) Do(ctx context.Context, r *provider.HTTPRequest) (*provider.HTTPResponse, error) {
	resp, err := f.Doer.Do(ctx, r)
	if err == nil {
		resp.Body = &panicky{ReadCloser: resp.Body}
	}
	return resp, err
}

type panicky struct {
	io.ReadCloser
	reads int
}

func (p *panicky) Read(b []byte) (int, error) {
	if p.reads++; p.reads > 1 {
		panic("a bug while the reply was read")
	}
	return p.ReadCloser.Read(b)
}

// A fault of Skiff's own in a run (a panic) ends that run, not the worker: the reply it was
// writing ends in an error that says so, the chat is saved with what came, and the next
// message is answered.
func TestAFaultEndsTheRunNotTheWorker(t *testing.T) {
	ctx := context.Background()
	model := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn {
		return testkit.Turn{Text: "A reply long enough to come in several pieces, one after the other."}
	})
	s, err := store.Open(ctx, store.NewMemKV())
	require.NoError(t, err)
	useModel(t, s, model)
	noop := func(Update) {}
	e := New(s, faulty{})
	c, err := e.NewSession(ctx, false)
	require.NoError(t, err)
	require.NoError(t, e.Send(ctx, Input{SessionID: c.ID, Text: "hello"}, noop))
	ses, err := s.Session(ctx, c.ID)
	require.NoError(t, err)
	require.Len(t, ses.Messages, 2)
	m := ses.Messages[1]
	assert.Equal(t, store.StatusError, m.Status)
	require.NotNil(t, m.Error)
	assert.Equal(t, "Skiff ran into a fault of its own and stopped here (a bug while the reply was read). The chat is saved as it was; please report it.", m.Error.Message)
	assert.Equal(t, "errFault", m.Error.Text.Key)
	assert.False(t, e.Running(c.ID), "the chat is let go")

	e.Doer = testkit.Doer{}
	require.NoError(t, e.Send(ctx, Input{SessionID: c.ID, Text: "again"}, noop))
	ses, err = s.Session(ctx, c.ID)
	require.NoError(t, err)
	require.Len(t, ses.Messages, 4)
	assert.Equal(t, "A reply long enough to come in several pieces, one after the other.", ses.Messages[3].Content)
}

// A fault of Skiff's own in a tool's code (here, while it takes a screenshot) fails that call
// with a sentence the model reads, and the run goes on.
func TestAFaultInAToolFailsTheCall(t *testing.T) {
	ctx := context.Background()
	page := accountPage()
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if len(c.Results()) == 0 {
			return testkit.Turn{Calls: []testkit.Call{{Name: "screenshot", Args: map[string]any{}}}}
		}
		return testkit.Turn{Text: "The picture could not be taken."}
	})
	s, err := store.Open(ctx, store.NewMemKV())
	require.NoError(t, err)
	useModel(t, s, model)
	e := New(s, testkit.Doer{})
	e.Browser = testkit.Browser(page, camera(func() { panic("a bug in the camera") }))
	g := &permission.Gate{Policies: s, Timeout: func(context.Context) time.Duration { return 5 * time.Second }}
	g.Asker = &user{gate: g, answer: allow}
	e.Gate = g
	task := NewTask(PanelCaller(""), tool.NewEnv(e.Browser, 1, 0))
	task.allowed(origin(page.URL), tool.Read)
	on := true
	var sid string
	require.NoError(t, e.Send(ctx, Input{Text: "show me the page", Agent: &on, Task: task}, func(u Update) {
		if sid == "" {
			sid = u.SessionID
		}
	}))
	ses, err := s.Session(ctx, sid)
	require.NoError(t, err)
	var shot *store.Message
	for i := range ses.Messages {
		if m := &ses.Messages[i]; m.Tool != nil && m.Tool.Name == "screenshot" {
			shot = m
		}
	}
	require.NotNil(t, shot)
	assert.Equal(t, store.StatusError, shot.Status)
	assert.Contains(t, shot.Content, "Skiff ran into a fault of its own in this call (a bug in the camera)")
	assert.Equal(t, "The picture could not be taken.", ses.Messages[len(ses.Messages)-1].Content)
}
