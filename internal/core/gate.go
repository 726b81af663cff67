package core

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
)

// Notifier tells the user that calls wait for their answer: a badge on Skiff's button while
// any wait, and, when no panel is open to show them, a notification that opens the panel.
// pending is how many wait now (0 clears both).
type Notifier interface {
	Asking(ctx context.Context, pending int, what string, panelOpen bool)
}

// gate is the one permission gate: every tool call passes it, whatever asked for it. It decides
// from the user's policies and the defaults (internal/permission); when the answer is to ask, it
// shows the call as asking (stored, so a restarted worker never runs it), tells the Notifier,
// and waits for tool.decide or the ask timeout (Settings.AskTimeout). "Always" and "Never" answers become
// policies. An answer to a call that a worker restart left asking is kept in answered, and the
// run resumed (agent.Engine.Resume): the call passes here again and takes it.
type gate struct {
	c        *Core
	mu       sync.Mutex
	waiting  map[string]*pendingAsk         // by tool message id
	answered map[string]permission.Decision // by tool message id
}

type pendingAsk struct {
	ch   chan permission.Decision
	what string
	ask  *Ask // an outside client's call (no chat shows it)
}

// Ask is an outside client's call waiting for the user's answer, as the panel shows it (calls
// of the panel's own runs show as tool messages in their chat instead). The panel answers with
// tool.decide {messageId: id}.
type Ask struct {
	ID        string `json:"id"`
	Who       string `json:"who"`
	Tool      string `json:"tool"`
	Risk      string `json:"risk"`
	What      string `json:"what"`
	URL       string `json:"url,omitempty"`
	Origin    string `json:"origin,omitempty"`
	Args      any    `json:"args,omitempty"`
	Why       string `json:"why"`
	Sensitive bool   `json:"sensitive,omitempty"`
	AskedAt   int64  `json:"askedAt"`
	Timeout   int64  `json:"timeoutMs"`
}

// UpdateAsks is the push that carries the outside calls waiting for an answer.
const UpdateAsks = "asks.changed"

// asks lists the outside calls waiting for an answer, oldest first.
func (g *gate) asks() []Ask {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := []Ask{}
	for _, p := range g.waiting {
		if p.ask != nil {
			out = insertSorted(out, *p.ask, func(a, b Ask) bool { return a.AskedAt < b.AskedAt })
		}
	}
	return out
}

func (g *gate) pushAsks() {
	g.c.broadcast(struct {
		Type string `json:"type"`
		Asks []Ask  `json:"asks"`
	}{UpdateAsks, g.asks()})
}

func request(c agent.Call) permission.Request {
	return permission.Request{Tool: c.Tool.Name, Risk: string(c.Tool.Risk), Permission: c.Tool.Permission, Origin: c.Origin,
		Sensitive: c.Sensitive, NewOrigin: c.NewOrigin, Consented: c.Consented, Outside: c.Outside}
}

func (g *gate) Decide(ctx context.Context, call agent.Call, asking func(why string)) (agent.Decision, error) {
	policies, err := g.c.Store.Policies(ctx)
	if err != nil {
		return agent.Decision{How: "denied: the policies could not be read", Why: "Skiff could not read the user's permissions, so this call was not run."}, nil
	}
	r := request(call)
	g.mu.Lock()
	d, ok := g.answered[call.MessageID]
	delete(g.answered, call.MessageID)
	g.mu.Unlock()
	if ok {
		return g.apply(ctx, call, r, d), nil
	}
	out := permission.Evaluate(policies, r)
	switch out.Verdict {
	case permission.Allow:
		return agent.Decision{Allow: true, How: "allowed: " + out.Reason}, nil
	case permission.Deny:
		return agent.Decision{How: "denied: " + out.Reason, Why: "The user chose never to allow this here."}, nil
	}
	p := &pendingAsk{ch: make(chan permission.Decision, 1), what: call.What}
	if call.SessionID == "" {
		p.what = call.Who + " asks: " + call.What
	}
	timeout := g.c.Engine.AskTimeout(ctx)
	if call.SessionID == "" {
		var args any
		_ = json.Unmarshal(call.Args, &args)
		p.ask = &Ask{ID: call.MessageID, Who: call.Who, Tool: call.Tool.Name, Risk: string(call.Tool.Risk), What: call.What,
			URL: call.URL, Origin: call.Origin, Args: args, Why: out.Reason, Sensitive: call.Sensitive,
			AskedAt: g.c.Engine.Now().UnixMilli(), Timeout: timeout.Milliseconds()}
	}
	g.mu.Lock()
	if g.waiting == nil {
		g.waiting = map[string]*pendingAsk{}
	}
	g.waiting[call.MessageID] = p
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.waiting, call.MessageID)
		g.mu.Unlock()
		g.notify(context.WithoutCancel(ctx), "")
		if p.ask != nil {
			g.pushAsks()
		}
	}()
	asking(out.Reason)
	if p.ask != nil {
		g.pushAsks()
	}
	g.notify(ctx, call.What)
	select {
	case d = <-p.ch:
	case <-time.After(timeout):
		return agent.Decision{How: "denied: no answer within " + agent.Span(timeout), Why: agent.NoAnswer(timeout)}, nil
	case <-ctx.Done():
		return agent.Decision{How: "stopped"}, ctx.Err()
	}
	return g.apply(ctx, call, r, d), nil
}

// apply turns the user's answer into the gate's decision; "always" and "never" are stored as
// policies for the call's scope on its origin.
func (g *gate) apply(ctx context.Context, call agent.Call, r permission.Request, d permission.Decision) agent.Decision {
	how := map[permission.Decision]string{permission.AllowOnce: "you allowed it once", permission.AllowAlways: "you allowed it always",
		permission.DenyOnce: "you denied it", permission.DenyAlways: "you chose never"}[d]
	if d == permission.AllowAlways || d == permission.DenyAlways {
		pol := permission.Policy{Tool: permission.Scope(r), Origin: call.Origin, Decision: d, UpdatedAt: g.c.Engine.Now().UnixMilli()}
		if pol.Origin == "" {
			pol.Origin = "*"
		}
		if err := g.c.Store.SetPolicy(ctx, pol); err == nil {
			how += " (" + pol.Tool + " on " + pol.Origin + ")"
		}
	}
	if !d.Allows() {
		return agent.Decision{How: how, Why: "The user denied this call."}
	}
	return agent.Decision{Allow: true, How: how}
}

func (g *gate) Record(ctx context.Context, call agent.Call, d agent.Decision, result string, ok bool) {
	who := call.Who
	if who == "" {
		who = "the model in the panel"
	}
	_ = g.c.Store.Audit(ctx, store.AuditEntry{At: g.c.Engine.Now().UnixMilli(), Who: who, Tool: call.Tool.Name, What: call.What,
		Origin: call.Origin, Decision: d.How, Result: result, OK: ok})
}

// pending is how many calls wait for an answer.
func (g *gate) pending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.waiting)
}

// notify updates the badge and, with no panel open, the notification.
func (g *gate) notify(ctx context.Context, what string) {
	if g.c.Notifier == nil {
		return
	}
	g.mu.Lock()
	n := len(g.waiting)
	if what == "" {
		for _, p := range g.waiting {
			what = p.what
			break
		}
	}
	g.mu.Unlock()
	g.c.Notifier.Asking(ctx, n, what, g.c.panels() > 0)
}

// answer gives the user's decision to the call waiting in message id. With no call waiting
// here, the decision is kept for the call when its run resumes.
func (g *gate) answer(id string, d permission.Decision) bool {
	g.mu.Lock()
	p := g.waiting[id]
	if p == nil {
		if g.answered == nil {
			g.answered = map[string]permission.Decision{}
		}
		g.answered[id] = d
	}
	g.mu.Unlock()
	if p == nil {
		return false
	}
	select {
	case p.ch <- d:
	default:
	}
	return true
}

// DecideParams is tool.decide: the user's answer to a call that asks (allow_once,
// allow_always, deny_once or deny_always).
type DecideParams struct {
	SessionID string              `json:"sessionId"`
	MessageID string              `json:"messageId"`
	Decision  permission.Decision `json:"decision"`
}

// decide answers a call that asks. A call no run waits for (the worker restarted while it
// asked) resumes its run with the answer; the run's progress is pushed to every panel.
func (c *Core) decide(ctx context.Context, p DecideParams) (None, error) {
	if !p.Decision.Valid() {
		return nil, problemf("Skiff's panel sent an answer the core does not know (%q). Reload the panel.", p.Decision)
	}
	if c.gate.answer(p.MessageID, p.Decision) {
		return nil, nil
	}
	if p.SessionID == "" {
		c.gate.forget(p.MessageID)
		return nil, problemf("This request is no longer waiting for an answer (it timed out, or its client went away).")
	}
	started := make(chan error, 1)
	go func() {
		first := true
		err := c.Engine.Resume(context.WithoutCancel(ctx), p.SessionID, p.MessageID, func(u agent.Update) {
			if first {
				first = false
				started <- nil
			}
			c.broadcast(u)
		})
		c.gate.forget(p.MessageID)
		if first {
			started <- err
		}
	}()
	switch err := <-started; {
	case errors.Is(err, agent.ErrNotAsking):
		return nil, problemf("This request is no longer waiting for an answer (it timed out, or the run was stopped).")
	case errors.Is(err, agent.ErrAskExpired):
		if ses, err := c.Store.Session(ctx, p.SessionID); err == nil {
			c.broadcast(agent.Update{Type: agent.UpdateSession, SessionID: ses.ID, Session: ses})
		}
		return nil, problemf("This request waited longer than %s for an answer, so it was denied.", agent.Span(c.Engine.AskTimeout(ctx)))
	default:
		return nil, err
	}
}

// forget drops an answer no call took.
func (g *gate) forget(id string) {
	g.mu.Lock()
	delete(g.answered, id)
	g.mu.Unlock()
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
		return nil, problemf("This screenshot is no longer stored.")
	}
	return &img, nil
}

// Permissions is what the permissions view shows: the policies and the audit log.
type Permissions struct {
	Policies []permission.Policy `json:"policies"`
	Audit    []store.AuditEntry  `json:"audit"`
}

func (c *Core) permissions(ctx context.Context, _ struct{}) (*Permissions, error) {
	ps, err := c.Store.Policies(ctx)
	if err != nil {
		return nil, err
	}
	log, err := c.Store.AuditLog(ctx)
	if err != nil {
		return nil, err
	}
	if ps == nil {
		ps = []permission.Policy{}
	}
	return &Permissions{Policies: ps, Audit: log}, nil
}

// PolicyParams names a policy by its patterns (permission.revoke), or is a new one
// (permission.set). permission.reset takes none.
type PolicyParams struct {
	Tool     string              `json:"tool"`
	Origin   string              `json:"origin"`
	Decision permission.Decision `json:"decision"`
}

func (c *Core) revoke(ctx context.Context, p PolicyParams) (*Permissions, error) {
	if strings.TrimSpace(p.Tool) == "" {
		return nil, problemf("Say which permission to revoke.")
	}
	if err := c.Store.RevokePolicy(ctx, p.Tool, p.Origin); err != nil {
		return nil, err
	}
	return c.permissions(ctx, struct{}{})
}

func (c *Core) resetPolicies(ctx context.Context, _ struct{}) (*Permissions, error) {
	if err := c.Store.RevokePolicy(ctx, "", ""); err != nil {
		return nil, err
	}
	return c.permissions(ctx, struct{}{})
}

func (c *Core) setPolicy(ctx context.Context, p PolicyParams) (*Permissions, error) {
	err := c.Store.SetPolicy(ctx, permission.Policy{Tool: p.Tool, Origin: p.Origin, Decision: p.Decision, UpdatedAt: c.Engine.Now().UnixMilli()})
	if err != nil {
		return nil, &store.FieldError{Field: "policy", Message: strings.TrimPrefix(err.Error(), "permission: ")}
	}
	return c.permissions(ctx, struct{}{})
}

func (c *Core) exportAudit(ctx context.Context, _ struct{}) (*File, error) {
	log, err := c.Store.AuditLog(ctx)
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
