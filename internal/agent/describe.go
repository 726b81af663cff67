package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/tool"
)

// described is a call as the gate weighs it: in words, where it works, where it leads, and
// how risky it is once the element it acts on is known.
type described struct {
	What, URL, Origin string
	LeadsTo           string // a link or form target on another origin
	Irreversible      string // why a click counts as destructive ("Delete", "Pay"…)
	Sensitive         bool
	Risk              tool.Risk
}

// describe reads what a call would do (a short page read, bounded to 5 s).
func describe(ctx context.Context, env *tool.Env, t tool.Tool, args json.RawMessage) described {
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	desc := tool.Describe(dctx, env, t.Name, args)
	cancel()
	d := described{What: desc.What, URL: desc.URL, Origin: origin(desc.URL), Sensitive: desc.Sensitive, Risk: t.Risk}
	if lt := origin(desc.LeadsTo); lt != "" && lt != d.Origin {
		d.LeadsTo = desc.LeadsTo
	}
	if desc.Irreversible != "" && t.Risk == tool.Act {
		// The page calls the element "Delete", "Pay", "Send"…: the click counts as destructive.
		d.Risk, d.Irreversible = tool.Destructive, desc.Irreversible
	}
	return d
}

// raised is t as the gate sees it when what the element says raised its risk: the gate sees
// the higher class, and an "always" answer covers only such calls (destructive:click), not
// every click.
func raised(t tool.Tool, risk tool.Risk) tool.Tool {
	if risk != "" && risk != t.Risk {
		_, action, _ := strings.Cut(t.Permission, ":")
		t.Risk, t.Permission = risk, string(risk)+":"+action
	}
	return t
}

// gateOrigin is where a call works as the gate sees it: a link or a form to another site
// moves the task there.
func gateOrigin(here, leadsTo string) string {
	if lt := origin(leadsTo); lt != "" {
		return lt
	}
	return here
}

// sites is what a task knows of the origins it touches: those it worked on (moving to a new
// one asks) and those the user let it read (reading asks once per origin).
type sites struct {
	mu      sync.Mutex
	worked  map[string]bool
	canRead map[string]bool
}

// weigh fills in how the gate sees a call on its origin: new to the task, or readable.
func (s *sites) weigh(c *Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.NewOrigin = c.Origin != "" && !s.worked[c.Origin]
	c.Consented = c.Origin != "" && s.canRead[c.Origin]
}

// allowed notes that a call was allowed on o (a read there is the user's consent to read it).
func (s *sites) allowed(o string, risk tool.Risk) {
	if o == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.worked == nil {
		s.worked, s.canRead = map[string]bool{}, map[string]bool{}
	}
	s.worked[o] = true
	if risk == tool.Read {
		s.canRead[o] = true
	}
}

// shared notes an origin the user shared themselves (the page they attached).
func (s *sites) shared(o string) {
	if o == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.canRead == nil {
		s.worked, s.canRead = map[string]bool{}, map[string]bool{}
	}
	s.canRead[o] = true
}
