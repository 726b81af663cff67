package agent

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A run that said it is over (chat.done) but has not let go of its chat yet is waited for, so
// that what a panel does as soon as the reply is done (Regenerate, a rename, saving a workflow)
// is not told a reply is still streaming; a run still going, or one a queued message started
// again, is not waited for, and one that does not let go is waited for a bounded time.
func TestARunThatIsOverIsWaitedFor(t *testing.T) {
	e := &Engine{}
	ctx := context.Background()
	_, finish, err := e.take(ctx, "s1")
	require.NoError(t, err)
	emit := e.marking("s1", func(Update) {})
	assert.True(t, e.Busy(ctx, "s1"), "a run going on was not busy")
	_, _, err = e.take(ctx, "s1")
	assert.ErrorIs(t, err, ErrBusy)

	emit(Update{Type: UpdateDone, SessionID: "s1"})
	go func() {
		time.Sleep(50 * time.Millisecond)
		finish()
	}()
	_, finish2, err := e.take(ctx, "s1")
	require.NoError(t, err, "the run that was over was not waited for")
	assert.False(t, e.Busy(ctx, "s2"))

	// Over, then going on with a queued message: busy again, at once.
	emit2 := e.marking("s1", func(Update) {})
	emit2(Update{Type: UpdateDone, SessionID: "s1"})
	emit2(Update{Type: UpdateSession, SessionID: "s1"})
	began := time.Now()
	assert.True(t, e.Busy(ctx, "s1"))
	assert.Less(t, time.Since(began), LetGoWait/2, "a run that goes on was waited for")

	// Over, and never letting go: waited for LetGoWait, then busy.
	emit2(Update{Type: UpdateDone, SessionID: "s1"})
	old := LetGoWait
	LetGoWait = 100 * time.Millisecond
	defer func() { LetGoWait = old }()
	assert.True(t, e.Busy(ctx, "s1"))
	finish2()
	assert.False(t, e.Busy(ctx, "s1"))
}
