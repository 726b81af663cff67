package core

import (
	"context"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
)

// AskTimeout is how long a call waits for the user's answer; no answer is a no.
var AskTimeout = 2 * time.Minute

// askGate lets the model read without asking and asks the user, in the panel, before anything
// else: the call's tool message shows as asking, the panel draws Allow and Deny on it, and
// tool.decide answers. No answer within AskTimeout is a denial.
type askGate struct {
	mu      sync.Mutex
	waiting map[string]chan bool // by tool message id
}

func (g *askGate) Decide(ctx context.Context, c agent.Call, asking func()) (agent.Decision, error) {
	if c.Tool.Risk == tool.Read {
		return agent.Decision{Allow: true, How: "allowed: reading"}, nil
	}
	ch := make(chan bool, 1)
	g.mu.Lock()
	if g.waiting == nil {
		g.waiting = map[string]chan bool{}
	}
	g.waiting[c.MessageID] = ch
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.waiting, c.MessageID)
		g.mu.Unlock()
	}()
	asking()
	select {
	case ok := <-ch:
		if ok {
			return agent.Decision{Allow: true, How: "you allowed it"}, nil
		}
		return agent.Decision{How: "you denied it", Why: "The user denied this call."}, nil
	case <-time.After(AskTimeout):
		return agent.Decision{How: "no answer", Why: "The user did not answer in time, so this call was not run."}, nil
	case <-ctx.Done():
		return agent.Decision{How: "stopped"}, ctx.Err()
	}
}

// answer gives the user's decision to the call waiting in message id.
func (g *askGate) answer(id string, allow bool) bool {
	g.mu.Lock()
	ch := g.waiting[id]
	g.mu.Unlock()
	if ch == nil {
		return false
	}
	select {
	case ch <- allow:
	default:
	}
	return true
}

// DecideParams is tool.decide: the user's answer to a call that asks.
type DecideParams struct {
	MessageID string `json:"messageId"`
	Allow     bool   `json:"allow"`
}

func (c *Core) decide(_ context.Context, p DecideParams) (None, error) {
	if !c.gate.answer(p.MessageID, p.Allow) {
		return nil, problemf("This request is no longer waiting for an answer (it timed out, or the run was stopped).")
	}
	return nil, nil
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
