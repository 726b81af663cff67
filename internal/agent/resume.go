package agent

import (
	"context"
	"errors"
	"time"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
)

// Errors Resume returns.
var (
	ErrNotAsking  = errors.New("agent: this call is not waiting for an answer")
	ErrAskExpired = errors.New("agent: the call waited too long for an answer")
)

// Resume goes on with a run that a worker restart cut off while one of its calls was asking
// the user: the call passes the gate again (which by now holds the user's answer), the other
// calls of its turn follow, and the loop goes on. A call asked longer than the ask timeout ago is
// denied instead (and saved so; nothing is emitted), and the run is not resumed. Resume returns when the run is over.
func (e *Engine) Resume(ctx context.Context, sessionID, messageID string, emit func(Update)) error {
	if e.Running(sessionID) {
		return ErrNotAsking
	}
	ses, err := e.Store.Session(ctx, sessionID)
	if err != nil {
		return err
	}
	i := len(ses.Messages) - 1
	if i < 0 || ses.Messages[i].ID != messageID || ses.Messages[i].Status != store.StatusAsking || ses.Messages[i].Tool == nil {
		return ErrNotAsking
	}
	if ses.Agent && e.Browser == nil {
		return ErrNoBrowser
	}
	msg := &ses.Messages[i]
	if e.expire(ctx, msg) {
		if err := e.Store.SaveSession(ctx, ses); err != nil {
			return err
		}
		return ErrAskExpired
	}
	// The turn whose call this is.
	a := -1
	for j := i - 1; j >= 0 && a < 0; j-- {
		for _, c := range ses.Messages[j].ToolCalls {
			if ses.Messages[j].Role == "assistant" && c.ID == msg.Tool.CallID {
				a = j
			}
		}
	}
	var plan *store.Plan
	if msg.Tool.Name == ProposePlan {
		if plan, err = checkPlan(msg.Tool.Args); err != nil {
			return ErrNotAsking
		}
	}
	if _, known := tool.Lookup(msg.Tool.Name); a < 0 || !known && plan == nil {
		return ErrNotAsking
	}

	st, err := e.Store.Settings(ctx)
	if err != nil {
		return err
	}
	p, key, model, err := st.Resolve()
	if err != nil {
		return err
	}
	ctx, finish, err := e.take(ctx, ses.ID)
	if err != nil {
		return err
	}
	defer finish()

	r := &runner{e: e, ses: ses, emit: emit, p: p, key: key, model: model, st: st}
	env := tool.NewEnv(e.Browser, msg.Tool.TabID, 0)
	env.Incognito = store.Private(ses.ID)
	r.task = NewTask(PanelCaller(ses.ID), env)
	r.holds = true
	r.ownTabs(ctx, env, true)
	defer r.release(ctx)
	// What the cut-off run knew: the page the user attached, the origins calls were allowed
	// on, the elements the user let it act on.
	u := lastUser(ses.Messages)
	if u >= 0 && ses.Messages[u].Page != nil {
		r.task.shared(origin(ses.Messages[u].Page.URL))
	}
	for _, m := range ses.Messages[max(u, 0):i] {
		if m.Role == "tool" && m.Tool != nil && m.Tool.StartedAt > 0 {
			r.task.allowed(m.Tool.Origin, tool.Risk(m.Tool.Risk))
		}
	}
	emit(Update{Type: UpdateSession, SessionID: ses.ID, Session: ses})

	// The call passes the gate again, which by now holds the user's answer; a batch goes on
	// from the step that asked, and a plan is approved (as the user edited it) or rejected.
	if plan != nil {
		r.proposed(ctx, i, plan, time.UnixMilli(msg.Tool.AskedAt))
	} else {
		r.gated(ctx, i, nil, time.UnixMilli(msg.Tool.AskedAt), msg.Tool.Step)
	}
	done := map[string]bool{}
	for _, m := range ses.Messages[a+1:] {
		if m.Role == "tool" && m.Tool != nil {
			done[m.Tool.CallID] = true
		}
	}
	r.calls(ctx, r.ses.Messages[a].ToolCalls, done)
	last := r.ses.Messages[len(r.ses.Messages)-1]
	if ctx.Err() == nil {
		last = r.safeLoop(ctx)
	}
	r.release(ctx)
	emit(Update{Type: UpdateDone, SessionID: ses.ID, MessageID: last.ID, Message: &last})
	return nil
}
