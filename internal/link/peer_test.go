package link

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// pipe is one end of an in-memory link.
type pipe struct {
	in, out chan []byte
	closed  chan struct{}
}

func pipes() (*pipe, *pipe) {
	a, b := make(chan []byte, 16), make(chan []byte, 16)
	closed := make(chan struct{})
	return &pipe{a, b, closed}, &pipe{b, a, closed}
}

func (p *pipe) Read(ctx context.Context) ([]byte, error) {
	select {
	case b := <-p.in:
		return b, nil
	case <-p.closed:
		return nil, errors.New("closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipe) Write(ctx context.Context, b []byte) error {
	select {
	case p.out <- b:
		return nil
	case <-p.closed:
		return errors.New("closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *pipe) Close(string) {
	select {
	case <-p.closed:
	default:
		close(p.closed)
	}
}

// Requests go both ways at once, each answered once with its own typed result; an unknown
// method is an error in words, not a hang; a link that closes ends the calls waiting on it.
func TestPeersCallEachOther(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, b := pipes()
	ext, daemon := Handlers{}, Handlers{}
	ToolCall.Handle(ext, func(_ context.Context, p CallParams) (CallResult, error) {
		return CallResult{Text: p.Client.Name + " ran " + p.Tool}, nil
	})
	byes := make(chan Client, 1)
	ClientBye.Handle(ext, func(_ context.Context, c Client) (struct{}, error) {
		byes <- c
		return struct{}{}, nil
	})
	hang, got := make(chan struct{}), make(chan struct{})
	Ping.Handle(daemon, func(ctx context.Context, _ struct{}) (struct{}, error) {
		close(got)
		<-hang
		return struct{}{}, nil
	})
	pe, pd := NewPeer(a, ext), NewPeer(b, daemon)
	go func() { _ = pe.Run(ctx, 0) }()
	go func() { _ = pd.Run(ctx, 0) }()

	r, err := ToolCall.Call(ctx, pd, CallParams{Client: Client{Name: "cursor"}, Tool: "navigate"})
	require.NoError(t, err)
	assert.Equal(t, "cursor ran navigate", r.Text)

	_, err = Method[struct{}, struct{}]{"nobody.knows"}.Call(ctx, pe, struct{}{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "does not know")

	require.NoError(t, ClientBye.Notify(ctx, pd, Client{ID: "c1"}))
	assert.Equal(t, "c1", (<-byes).ID)

	// A call the other end never answers ends when the link does.
	done := make(chan error, 1)
	go func() { _, err := Ping.Call(ctx, pe, struct{}{}); done <- err }()
	<-got // the request is out: the other end has it
	pe.Close("bye")
	assert.ErrorIs(t, <-done, ErrClosed)
	close(hang)
}

// Notifications are a stream: they are handled in the order they were sent.
func TestNotificationsKeepTheirOrder(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, b := pipes()
	got := make(chan string, 200)
	hs := Handlers{}
	ClientBye.Handle(hs, func(_ context.Context, c Client) (struct{}, error) {
		got <- c.ID
		return struct{}{}, nil
	})
	pa, pb := NewPeer(a, nil), NewPeer(b, hs)
	go func() { _ = pa.Run(ctx, 0) }()
	go func() { _ = pb.Run(ctx, 0) }()
	for i := range 200 {
		require.NoError(t, ClientBye.Notify(ctx, pa, Client{ID: string(rune('A' + i%26))}))
	}
	for i := range 200 {
		assert.Equal(t, string(rune('A'+i%26)), <-got)
	}
}

// An answer is seen after every notification sent before it: a turn's last events are
// handled before the call that ran the turn returns.
func TestAnAnswerComesAfterTheEventsBeforeIt(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, b := pipes()
	var mu sync.Mutex
	var seen []string
	ext, daemon := Handlers{}, Handlers{}
	ClientBye.Handle(ext, func(_ context.Context, c Client) (struct{}, error) {
		time.Sleep(2 * time.Millisecond) // a slow handler (storage)
		mu.Lock()
		seen = append(seen, c.ID)
		mu.Unlock()
		return struct{}{}, nil
	})
	var pd *Peer
	ToolCall.Handle(daemon, func(ctx context.Context, p CallParams) (CallResult, error) {
		for i := range 20 {
			if err := ClientBye.Notify(ctx, pd, Client{ID: strconv.Itoa(i)}); err != nil {
				return CallResult{}, err
			}
		}
		return CallResult{Text: "done"}, nil
	})
	pe := NewPeer(a, ext)
	pd = NewPeer(b, daemon)
	go func() { _ = pe.Run(ctx, 0) }()
	go func() { _ = pd.Run(ctx, 0) }()
	r, err := ToolCall.Call(ctx, pe, CallParams{})
	require.NoError(t, err)
	assert.Equal(t, "done", r.Text)
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, seen, 20, "the answer came before the events sent before it were handled")
}

// An error written as a sentence of the catalogs crosses the link as that sentence (its key and
// arguments, beside its English), so the receiver can say it in the user's language; any other
// error, and a sentence wrapped in more words, arrives as its words.
func TestAnErrorKeepsItsSentence(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, b := pipes()
	hs := Handlers{}
	stopped := i18n.Sentence{Key: "errAgentStopped", English: "$1 stopped ($2)."}
	AgentLog.Handle(hs, func(_ context.Context, p AgentName) (string, error) {
		switch p.Agent {
		case "plain":
			return "", errors.New("no such thing")
		case "wrapped":
			return "", fmt.Errorf("starting it: %w", stopped.Error(p.Agent, "exit status 3"))
		}
		return "", stopped.Error(p.Agent, "exit status 3")
	})
	pe, pd := NewPeer(a, nil), NewPeer(b, hs)
	go func() { _ = pe.Run(ctx, 0) }()
	go func() { _ = pd.Run(ctx, 0) }()

	_, err := AgentLog.Call(ctx, pe, AgentName{Agent: "Gemini CLI"})
	var ie *i18n.Error
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "errAgentStopped", ie.Text.Key)
	assert.Equal(t, []any{"Gemini CLI", "exit status 3"}, ie.Text.Args)
	assert.Equal(t, "Gemini CLI stopped (exit status 3).", ie.Text.English(), "the English it was sent with")

	for agent, want := range map[string]string{"plain": "no such thing", "wrapped": "starting it: wrapped stopped (exit status 3)."} {
		_, err = AgentLog.Call(ctx, pe, AgentName{Agent: agent})
		require.Error(t, err)
		assert.False(t, errors.As(err, &ie), agent)
		assert.Equal(t, want, err.Error())
	}
}

// A request whose caller stopped waiting is taken back: the other end's handler sees its
// context end (a tool call stops, a question it waits on goes), and the link goes on.
func TestARequestItsCallerGaveUpOnStopsAtTheOtherEnd(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, b := pipes()
	started, stopped := make(chan struct{}), make(chan error, 1)
	hs := Handlers{}
	ToolCall.Handle(hs, func(ctx context.Context, p CallParams) (CallResult, error) {
		if p.Tool == "quick" {
			return CallResult{Text: "done"}, nil
		}
		close(started)
		<-ctx.Done() // a question no one answers
		stopped <- ctx.Err()
		return CallResult{}, ctx.Err()
	})
	pa, pb := NewPeer(a, nil), NewPeer(b, hs)
	go func() { _ = pa.Run(ctx, 0) }()
	go func() { _ = pb.Run(ctx, 0) }()
	cctx, give := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := ToolCall.Call(cctx, pa, CallParams{CallID: "1", Tool: "click"})
		errc <- err
	}()
	<-started
	give()
	assert.ErrorIs(t, <-errc, context.Canceled)
	select {
	case err := <-stopped:
		assert.ErrorIs(t, err, context.Canceled)
	case <-ctx.Done():
		t.Fatal("the handler went on after its caller gave up")
	}
	r, err := ToolCall.Call(ctx, pa, CallParams{CallID: "2", Tool: "quick"})
	require.NoError(t, err)
	assert.Equal(t, "done", r.Text)
}
