package core

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
)

// Notifier tells the user that calls wait for their answer: a badge on Skiff's button while
// any wait, and, when no panel is open to show them, a notification that opens the panel.
// pending is how many wait now (0 clears both); lang is the language setting ("auto" or ""
// for the browser's).
type Notifier interface {
	Asking(ctx context.Context, pending int, what i18n.Text, panelOpen bool, lang string)
}

// UpdateAsks is the push that carries the outside calls waiting for an answer:
// {"type": "asks.changed", "asks": [permission.Question…]}.
const UpdateAsks = "asks.changed"

// newGate wires the one permission gate (internal/permission) to the worker: the user's
// policies and the audit log in the store, the asks of outside callers pushed to every panel
// (and kept in the store, so a restarted worker shows them again), the badge and notification,
// and the ask timeout from the settings.
func (c *Core) newGate() *permission.Gate {
	return &permission.Gate{
		Policies: c.Store,
		Asker:    (*askers)(c),
		Notifier: (*notifier)(c),
		Audit:    (*auditor)(c),
		Clock:    clock{c},
		Timeout:  c.Engine.AskTimeout,
	}
}

type askers Core

func (a *askers) Questions(ctx context.Context, qs []permission.Question) {
	c := (*Core)(a)
	c.broadcastPanels(struct {
		Type string                `json:"type"`
		Asks []permission.Question `json:"asks"`
	}{UpdateAsks, qs})
	_ = c.Store.SaveQuestions(context.WithoutCancel(ctx), qs)
}

type notifier Core

func (n *notifier) Waiting(ctx context.Context, pending int, what i18n.Text) {
	c := (*Core)(n)
	if c.Notifier != nil {
		c.Notifier.Asking(ctx, pending, what, c.panels() > 0, c.language(ctx))
	}
}

type auditor Core

// Audit queues the entry: a call's answer does not wait for the log's write (a read and a
// write of storage, a few milliseconds a call). One writer keeps the entries in order, and
// whoever reads the log has the queue written first (auditLog). The writer starts auditDelay
// after an entry comes: calls often come one right after another (an MCP client's snapshot
// after its navigate), and the worker has one thread, so a write done at once would hold up the
// next call by the time it takes. A worker stopped before the write loses what was queued.
func (a *auditor) Audit(_ context.Context, e permission.Entry) error {
	c := (*Core)(a)
	q := &c.audits
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue = append(q.queue, store.AuditEntry{At: e.At, Who: e.Who, WhoText: e.WhoText, Tool: e.Tool, What: e.What, WhatText: e.WhatText, Origin: e.Origin,
		Decision: e.Decision, DecisionText: e.DecisionText, Result: e.Result, ResultText: e.ResultText, OK: e.OK, Private: store.Private(e.Chat)})
	if !q.writing {
		q.writing = true
		if q.flush == nil {
			q.flush = make(chan struct{}, 1)
		}
		go agent.Safe("writing the audit log", func() { c.writeAudits(q.flush) })
	}
	return nil
}

// auditDelay is how long a queued audit entry waits before the writer starts (unless someone
// reads the log first).
const auditDelay = 150 * time.Millisecond

// audits is the queue of audit entries not yet written.
type audits struct {
	mu      sync.Mutex
	queue   []store.AuditEntry
	writing bool
	flush   chan struct{}   // a reader wants the queue written now
	idle    []chan struct{} // readers waiting for the queue to empty
}

func (c *Core) writeAudits(flush <-chan struct{}) {
	q := &c.audits
	wait := time.NewTimer(auditDelay)
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-flush:
	}
	for {
		q.mu.Lock()
		if len(q.queue) == 0 {
			q.writing = false
			for _, ch := range q.idle {
				close(ch)
			}
			q.idle = nil
			q.mu.Unlock()
			return
		}
		e := q.queue[0]
		q.queue = q.queue[1:]
		q.mu.Unlock()
		_ = c.Store.Audit(context.Background(), e)
	}
}

// auditLog is the audit log with every entry queued so far written.
func (c *Core) auditLog(ctx context.Context, private bool) ([]store.AuditEntry, error) {
	q := &c.audits
	q.mu.Lock()
	if q.writing {
		ch := make(chan struct{})
		q.idle = append(q.idle, ch)
		select {
		case q.flush <- struct{}{}: // write now
		default:
		}
		q.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	} else {
		q.mu.Unlock()
	}
	return c.Store.AuditLog(ctx, private)
}

// clock is the engine's clock (tests set it).
type clock struct{ c *Core }

func (k clock) Now() time.Time                         { return k.c.Engine.Now() }
func (k clock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// DecideParams is tool.decide: the user's answer to a call that asks (allow_once,
// allow_always, deny_once or deny_always).
type DecideParams struct {
	SessionID string              `json:"sessionId"`
	MessageID string              `json:"messageId"`
	Decision  permission.Decision `json:"decision"`
	// Plan is a proposed plan as the user edited it before approving it (narrowed by the
	// engine: an edit can take sites and kinds of action away, never add them).
	Plan *store.Plan `json:"plan,omitempty"`
}

// decide answers a call that asks. A call no run waits for (the worker restarted while it
// asked) resumes its run with the answer; the run's progress is pushed to every panel.
func (c *Core) decide(ctx context.Context, p DecideParams) (None, error) {
	if !p.Decision.Valid() {
		return nil, problemf(sayUnknownAnswer, p.Decision)
	}
	if p.Plan != nil && p.Decision == permission.AllowOnce {
		c.Engine.EditPlan(p.MessageID, *p.Plan)
	}
	earlier := c.gate.Shown(p.MessageID)
	if c.gate.Answer(p.MessageID, p.Decision) {
		return nil, nil
	}
	if p.SessionID == "" {
		if earlier {
			return nil, nil // an outside call a restart cut off: it takes the answer when it comes back
		}
		c.gate.Forget(p.MessageID)
		return nil, problemf(sayAskGoneClient)
	}
	started := make(chan error, 1)
	go func() {
		first := true
		defer func() {
			if first { // a fault before the run began: the answer fails, not the worker
				started <- problemf(sayCoreFault, "the run did not start")
			}
		}()
		agent.Safe("a run the user answered", func() {
			err := c.Engine.Resume(context.WithoutCancel(ctx), p.SessionID, p.MessageID, func(u agent.Update) {
				if first {
					first = false
					started <- nil
				}
				c.broadcast(u)
			})
			c.gate.Forget(p.MessageID)
			if first {
				first = false
				started <- err
			}
		})
	}()
	switch err := <-started; {
	case errors.Is(err, agent.ErrNotAsking):
		return nil, problemf(sayAskGoneRun)
	case errors.Is(err, agent.ErrAskExpired):
		if ses, err := c.Store.Session(ctx, p.SessionID); err == nil {
			c.broadcast(agent.Update{Type: agent.UpdateSession, SessionID: ses.ID, Session: ses})
		}
		return nil, problemf(sayAskTimedOut, agent.Span(c.Engine.AskTimeout(ctx)))
	default:
		return nil, err
	}
}

// ImageParams is tool.image: a screenshot a tool took, by the id its message holds.
type ImageParams struct {
	ImageID string `json:"imageId"`
}

func (c *Core) image(ctx context.Context, p ImageParams) (*store.StoredImage, error) {
	imgs, err := c.Store.Images(ctx, p.ImageID)
	if err != nil {
		return nil, err
	}
	img, ok := imgs[p.ImageID]
	if !ok {
		return nil, problemf(sayNoScreenshot)
	}
	return &img, nil
}

// Permissions is what the permissions view shows: the policies and the audit log.
type Permissions struct {
	Policies []permission.Policy `json:"policies"`
	Audit    []store.AuditEntry  `json:"audit"`
}

// Seen is whose view of the permissions a panel asks for: an incognito window's (Private),
// which holds the decisions and calls of the private chats too, or another's, which does not.
type Seen struct {
	Private bool `json:"private,omitempty"`
}

func (c *Core) permissions(ctx context.Context, p Seen) (*Permissions, error) {
	ps, err := c.Store.Policies(ctx)
	if err != nil {
		return nil, err
	}
	log, err := c.auditLog(ctx, p.Private)
	if err != nil {
		return nil, err
	}
	ps = permission.Visible(ps, p.Private)
	if ps == nil {
		ps = []permission.Policy{} // the panel reads a list
	}
	return &Permissions{Policies: ps, Audit: log}, nil
}

// PolicyParams names a policy by its patterns (permission.revoke), or is a new one
// (permission.set), from an incognito window's panel when Private (a policy set there lasts
// as long as the incognito windows, and one revoked there may be theirs). permission.reset
// takes Private only.
type PolicyParams struct {
	Tool     string              `json:"tool"`
	Origin   string              `json:"origin"`
	Decision permission.Decision `json:"decision"`
	Seen
}

func (c *Core) revoke(ctx context.Context, p PolicyParams) (*Permissions, error) {
	if strings.TrimSpace(p.Tool) == "" {
		return nil, problemf(sayRevokeWhich)
	}
	if err := c.Store.RevokePolicy(ctx, p.Tool, p.Origin, p.Private); err != nil {
		return nil, err
	}
	return c.permissions(ctx, p.Seen)
}

func (c *Core) resetPolicies(ctx context.Context, p Seen) (*Permissions, error) {
	if err := c.Store.RevokePolicy(ctx, "", "", p.Private); err != nil {
		return nil, err
	}
	return c.permissions(ctx, p)
}

func (c *Core) setPolicy(ctx context.Context, p PolicyParams) (*Permissions, error) {
	err := c.Store.SetPolicy(ctx, permission.Policy{Tool: p.Tool, Origin: p.Origin, Decision: p.Decision, UpdatedAt: c.Engine.Now().UnixMilli(), Private: p.Private})
	if err != nil {
		return nil, store.FieldErr("policy", err)
	}
	return c.permissions(ctx, p.Seen)
}

func (c *Core) exportAudit(ctx context.Context, p Seen) (*File, error) {
	log, err := c.auditLog(ctx, p.Private)
	if err != nil {
		return nil, err
	}
	b, err := store.ExportAudit(log, c.Engine.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	return &File{Name: "skiff-audit-" + c.Engine.Now().UTC().Format("2006-01-02") + ".json", Mime: "application/json", Text: string(b)}, nil
}

// insertSorted adds v to the sorted s, in order. For the few items of a status; package sort
// would cost core.wasm 35 KB.
func insertSorted[T any](s []T, v T, less func(a, b T) bool) []T {
	i := len(s)
	s = append(s, v)
	for ; i > 0 && less(s[i], s[i-1]); i-- {
		s[i-1], s[i] = s[i], s[i-1]
	}
	return s
}

// language is the language setting, for what the worker shows outside the panel.
func (c *Core) language(ctx context.Context) string {
	if s, err := c.Store.Settings(ctx); err == nil {
		return s.Language
	}
	return ""
}
