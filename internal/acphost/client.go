package acphost

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"
)

// client is Skiff's side of the protocol for one agent.
type client struct{ a *Agent }

var _ acp.Client = (*client)(nil)

// SessionUpdate never blocks: the SDK handles notifications one at a time on a bounded queue
// that closes the connection when full. Updates for a session the agent has not yet named
// (before session/new answers) are kept for it.
func (c *client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	a := c.a
	a.mu.Lock()
	defer a.mu.Unlock()
	id, ok := a.sessions[n.SessionId]
	if !ok {
		if len(a.early[n.SessionId]) < 1000 {
			a.early[n.SessionId] = append(a.early[n.SessionId], n.Update)
		}
		return nil
	}
	a.queue.push(a.adjust(translate(id, n.Update))...)
	return nil
}

// translate turns one ACP update into Skiff's events; a kind Skiff does not know gives none.
func translate(id string, u acp.SessionUpdate) []Event {
	switch {
	case u.AgentMessageChunk != nil:
		return text(id, "text", u.AgentMessageChunk.Content)
	case u.AgentThoughtChunk != nil:
		return text(id, "thought", u.AgentThoughtChunk.Content)
	case u.UserMessageChunk != nil:
		return text(id, "user", u.UserMessageChunk.Content)
	case u.ToolCall != nil:
		t := u.ToolCall
		return []Event{{Session: id, Kind: "tool", Tool: &ToolCard{ID: string(t.ToolCallId), Title: t.Title, Kind: string(t.Kind),
			Status: cmpStatus(string(t.Status)), Locations: locations(t.Locations), Preview: preview(t.Content), Diffs: diffs(t.Content)}}}
	case u.ToolCallUpdate != nil:
		t := u.ToolCallUpdate
		card := &ToolCard{ID: string(t.ToolCallId), Update: true, Locations: locations(t.Locations), Preview: preview(t.Content), Diffs: diffs(t.Content)}
		if t.Title != nil {
			card.Title = *t.Title
		}
		if t.Kind != nil {
			card.Kind = string(*t.Kind)
		}
		if t.Status != nil {
			card.Status = string(*t.Status)
		}
		return []Event{{Session: id, Kind: "tool", Tool: card}}
	case u.Plan != nil:
		plan := []PlanItem{}
		for _, e := range u.Plan.Entries {
			plan = append(plan, PlanItem{Content: e.Content, Status: string(e.Status), Priority: string(e.Priority)})
		}
		return []Event{{Session: id, Kind: "plan", Plan: plan}}
	case u.AvailableCommandsUpdate != nil:
		var cmds []Command
		for _, c := range u.AvailableCommandsUpdate.AvailableCommands {
			cmds = append(cmds, Command{Name: c.Name, Description: c.Description})
		}
		return []Event{{Session: id, Kind: "commands", Commands: cmds}}
	case u.CurrentModeUpdate != nil:
		return []Event{{Session: id, Kind: "mode", Text: string(u.CurrentModeUpdate.CurrentModeId)}}
	case u.ConfigOptionUpdate != nil:
		return []Event{{Session: id, Kind: "config", Config: configOptions(u.ConfigOptionUpdate.ConfigOptions)}}
	case u.SessionInfoUpdate != nil && u.SessionInfoUpdate.Title != nil:
		return []Event{{Session: id, Kind: "info", Text: *u.SessionInfoUpdate.Title}}
	case u.UsageUpdate != nil:
		use := &Usage{Used: u.UsageUpdate.Used, Size: u.UsageUpdate.Size}
		if c := u.UsageUpdate.Cost; c != nil && c.Currency != "" && c.Amount >= 0 {
			use.Cost = &Cost{Amount: c.Amount, Currency: strings.ToUpper(c.Currency)}
		}
		return []Event{{Session: id, Kind: "usage", Usage: use}}
	}
	return nil
}

func cmpStatus(s string) string {
	if s == "" {
		return "pending"
	}
	return s
}

func text(id, kind string, b acp.ContentBlock) []Event {
	switch {
	case b.Text != nil:
		return []Event{{Session: id, Kind: kind, Text: b.Text.Text}}
	case b.ResourceLink != nil:
		return []Event{{Session: id, Kind: kind, Text: "[" + b.ResourceLink.Name + "](" + b.ResourceLink.Uri + ")"}}
	}
	return nil // images and audio from the agent are not shown yet
}

func locations(ls []acp.ToolCallLocation) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Path)
	}
	return out
}

// preview is the start of a tool call's text output.
func preview(cs []acp.ToolCallContent) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Content != nil && c.Content.Content.Text != nil {
			b.WriteString(c.Content.Content.Text.Text)
		}
	}
	s := b.String()
	if len(s) > 400 {
		s = strings.ToValidUTF8(s[:400], "") + "…"
	}
	return s
}

func diffs(cs []acp.ToolCallContent) []Diff {
	var out []Diff
	for _, c := range cs {
		if d := c.Diff; d != nil {
			old := ""
			if d.OldText != nil {
				old = *d.OldText
			}
			out = append(out, MakeDiff(d.Path, old, d.NewText, d.OldText == nil))
		}
	}
	return out
}

func configOptions(os []acp.SessionConfigOption) []ConfigOption {
	var out []ConfigOption
	for _, o := range os {
		s := o.Select
		if s == nil {
			continue
		}
		c := ConfigOption{ID: string(s.Id), Name: s.Name, Current: string(s.CurrentValue)}
		if s.Category != nil {
			c.Category = string(*s.Category)
		}
		if s.Options.Ungrouped != nil {
			for _, v := range *s.Options.Ungrouped {
				c.Values, c.Labels = append(c.Values, string(v.Value)), append(c.Labels, v.Name)
			}
		}
		if s.Options.Grouped != nil {
			for _, g := range *s.Options.Grouped {
				for _, v := range g.Options {
					c.Values, c.Labels = append(c.Values, string(v.Value)), append(c.Labels, v.Name)
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// RequestPermission asks the user with Skiff's four answers, mapped onto the options the
// agent offered. A cancelled turn, an ask the user left, or a failure answers "cancelled".
func (c *client) RequestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	a := c.a
	cancelled := acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}
	a.mu.Lock()
	id, ok := a.sessions[p.SessionId]
	a.mu.Unlock()
	if !ok || a.host.Ask == nil {
		return cancelled, nil
	}
	q := Question{Session: id, Agent: a.Spec.Title, Risk: "act"}
	if p.ToolCall.Title != nil {
		q.Title = *p.ToolCall.Title
	}
	if p.ToolCall.Kind != nil {
		q.Kind = string(*p.ToolCall.Kind)
	}
	switch q.Kind {
	case "read", "search", "think", "fetch":
		q.Risk = "read"
	case "delete", "execute", "move":
		q.Risk = "destructive"
	}
	if ds := diffs(p.ToolCall.Content); len(ds) > 0 {
		q.Diff = &ds[0]
	}
	byKind := map[string]acp.PermissionOptionId{}
	for _, o := range p.Options {
		if _, dup := byKind[string(o.Kind)]; !dup {
			byKind[string(o.Kind)] = o.OptionId
			q.Answers = append(q.Answers, string(o.Kind))
		}
	}
	answer, err := a.ask(ctx, q)
	if err != nil {
		return cancelled, nil
	}
	opt, ok := byKind[answer]
	if !ok { // "always" where the agent offers only "once"
		opt, ok = byKind[strings.Replace(answer, "always", "once", 1)]
	}
	if !ok {
		return cancelled, nil
	}
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(opt)}, nil
}

// ask asks the user, as an ask the session's Cancel can end.
func (a *Agent) ask(ctx context.Context, q Question) (string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	key := &struct{}{}
	a.mu.Lock()
	if a.asks[q.Session] == nil {
		a.asks[q.Session] = map[*struct{}]context.CancelFunc{}
	}
	a.asks[q.Session][key] = cancel
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.asks[q.Session], key)
		a.mu.Unlock()
	}()
	answer, err := a.host.Ask.Ask(ctx, q)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return answer, err
}

// ReadTextFile reads inside the shared folder.
func (c *client) ReadTextFile(_ context.Context, p acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	f := c.a.host.Files
	if f == nil {
		return acp.ReadTextFileResponse{}, errNoFolder
	}
	line, limit := 0, 0
	if p.Line != nil {
		line = *p.Line
	}
	if p.Limit != nil {
		limit = *p.Limit
	}
	s, err := f.Read(p.Path, line, limit)
	if err != nil {
		return acp.ReadTextFileResponse{}, acp.NewInvalidParams(err.Error())
	}
	return acp.ReadTextFileResponse{Content: s}, nil
}

var errNoFolder = errors.New("Skiff shares no folder with agents; the user can choose one in skiffd's config")

// WriteTextFile writes inside the shared folder after the user allowed it: a new file is an
// act, replacing one is destructive. The ask shows the diff; the write lands in the audit.
func (c *client) WriteTextFile(ctx context.Context, p acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	a := c.a
	f := a.host.Files
	if f == nil {
		return acp.WriteTextFileResponse{}, errNoFolder
	}
	old, exists, err := f.Old(p.Path)
	if err != nil {
		c.audit("write", p.Path, false)
		return acp.WriteTextFileResponse{}, acp.NewInvalidParams(err.Error())
	}
	rel, _ := filepath.Rel(f.Dir(), p.Path)
	if !filepath.IsAbs(p.Path) {
		rel = p.Path
	}
	d := MakeDiff(rel, old, p.Content, !exists)
	a.mu.Lock()
	id := a.sessions[p.SessionId]
	a.mu.Unlock()
	q := Question{Session: id, Agent: a.Spec.Title, Kind: "write", Risk: "act", Title: "create " + rel, Diff: &d,
		Answers: []string{AllowOnce, AllowAlways, RejectOnce, RejectAlways}}
	if exists {
		q.Risk, q.Title = "destructive", fmt.Sprintf("change %s (+%d −%d)", rel, d.Added, d.Removed)
	}
	answer := RejectOnce
	if a.host.Ask != nil {
		answer, err = a.ask(ctx, q)
	}
	if err != nil || (answer != AllowOnce && answer != AllowAlways) {
		c.audit("write", rel, false)
		return acp.WriteTextFileResponse{}, acp.NewInvalidRequest("the user did not allow writing " + rel)
	}
	if err := f.Write(p.Path, p.Content); err != nil {
		c.audit("write", rel, false)
		return acp.WriteTextFileResponse{}, acp.NewInternalError(err.Error())
	}
	c.audit("write", rel, true)
	if id != "" {
		a.queue.push(Event{Session: id, Kind: "wrote", Diff: &d})
	}
	return acp.WriteTextFileResponse{}, nil
}

func (c *client) audit(action, path string, allowed bool) {
	if c.a.host.Audit != nil {
		c.a.host.Audit(c.a.Spec.Title, action, path, allowed)
	}
}

// Terminals are not offered (terminal: false in the capabilities).
func (c *client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalCreate)
}

func (c *client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalKill)
}

func (c *client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalOutput)
}

func (c *client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalRelease)
}

func (c *client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalWaitForExit)
}

// queue delivers events in order on its own goroutine, however slow the receiver: pushing
// never waits.
type queue struct {
	mu      sync.Mutex
	items   []Event
	wake    chan struct{}
	idle    *sync.Cond
	busy    bool
	stopped bool
}

func newQueue(emit func(Event)) *queue {
	q := &queue{wake: make(chan struct{}, 1)}
	q.idle = sync.NewCond(&q.mu)
	go func() {
		for range q.wake {
			for {
				q.mu.Lock()
				if len(q.items) == 0 {
					q.busy = false
					q.idle.Broadcast()
					stopped := q.stopped
					q.mu.Unlock()
					if stopped {
						return
					}
					break
				}
				e := q.items[0]
				q.items = q.items[1:]
				q.mu.Unlock()
				emit(e)
			}
		}
	}()
	return q
}

func (q *queue) push(es ...Event) {
	if len(es) == 0 {
		return
	}
	q.mu.Lock()
	if q.stopped {
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, es...)
	q.busy = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// flush waits until every event pushed so far was delivered.
func (q *queue) flush() {
	q.mu.Lock()
	for q.busy && !q.stopped {
		q.idle.Wait()
	}
	q.mu.Unlock()
}

func (q *queue) close() {
	q.mu.Lock()
	if !q.stopped {
		q.stopped = true
		q.idle.Broadcast()
		close(q.wake)
	}
	q.mu.Unlock()
}
