package core

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// Dialer opens links: to a ws:// URL, or to the native messaging host when url is "native:".
// Wake(on) keeps waking the worker (an alarm) while a link is wanted, so a worker Chrome
// stopped while skiffd was down comes back to retry.
type Dialer interface {
	Dial(ctx context.Context, url string) (link.Conn, error)
	Wake(ctx context.Context, on bool)
}

// LinkStatus is the link to skiffd as the panel shows it.
type LinkStatus struct {
	// State: "off", "connecting", "connected" or "waiting" (to retry after a failure).
	State   string `json:"state"`
	Message string `json:"message,omitempty"` // a sentence: what is wrong, what to do (English)
	// MessageText is Message for the panel to render in the user's language.
	MessageText *i18n.Text `json:"messageText,omitempty"`
	Clients     []string   `json:"clients,omitempty"` // the MCP clients that called, by name
	RetryAt     int64      `json:"retryAt,omitempty"` // unix ms
}

// UpdateLink is the push that carries the link's status: {"type": "link.status", "link": …}.
const UpdateLink = "link.status"

// linker keeps the link to skiffd up while the settings ask for it: dial, hello with the
// pairing token, answer calls through the gate, ping every link.Keepalive, and after a failure
// retry with backoff (1 s doubling to 30 s).
type linker struct {
	c      *Core
	mu     sync.Mutex
	run    restartable[store.DaemonSettings]
	status LinkStatus
	spaces map[string]*workspace // by client id
	peer   *link.Peer            // the link while it is up
}

// target is where the extension links to skiffd for these settings, as a URL for the Dialer
// and in words for the user.
func target(d store.DaemonSettings) (url string, where i18n.Text) {
	if d.Native {
		return "native:", sayLinkNative.With()
	}
	port := strconv.Itoa(cmp.Or(d.Port, link.DefaultPort))
	return "ws://127.0.0.1:" + port + link.Path, sayLinkPort.With(port)
}

// StartLink (re)starts the link when the settings changed or it is not running; with the link
// turned off it stops it. It is called when the worker starts, on the keepalive alarm, and
// when the settings are saved.
func (c *Core) StartLink(ctx context.Context) {
	s, err := c.Store.Settings(ctx)
	if err == nil {
		c.startLink(ctx, s.Daemon)
		c.startBridge(s.Bridge)
	}
}

// linkWanted reports whether the link to skiffd is on.
func (c *Core) linkWanted() bool {
	c.link.mu.Lock()
	defer c.link.mu.Unlock()
	return c.link.run.running()
}

func (c *Core) startLink(ctx context.Context, d store.DaemonSettings) {
	if c.Dialer == nil {
		return
	}
	l := &c.link
	on := d.Enabled && d.Token != ""
	l.mu.Lock()
	wasOn, changed := l.run.restart(d, on, func(ctx context.Context) { l.loop(ctx, d) })
	l.mu.Unlock()
	if !changed {
		return
	}
	// The alarm is set while the link is on, and cleared by the worker that turns it off: a
	// worker starting with the link off has nothing to clear (no chrome.alarms call on every
	// wake of a user who never links).
	if on || wasOn {
		go agent.Safe("waking the link", func() { c.Dialer.Wake(context.WithoutCancel(ctx), on || c.bridgeWanted()) })
	}
	if !on {
		st := LinkStatus{State: "off"}
		if d.Enabled {
			st = status("off", sayLinkNoToken.With())
		}
		l.set(st)
	}
}

// RetryLink drops the link's backoff and connects again now.
func (c *Core) RetryLink(ctx context.Context) {
	c.link.mu.Lock()
	c.link.run.stop()
	c.link.mu.Unlock()
	c.StartLink(ctx)
}

// restartable is a background loop run for one configuration (the link's, the bridge's):
// started again with the same configuration while it runs, nothing changes; with another, the
// loop for the old one stops first. Its owner's lock guards it.
type restartable[C comparable] struct {
	cfg    C
	cancel context.CancelFunc
}

// restart runs loop for cfg when on, after stopping the loop of another configuration, or
// stops the loop when off. It reports whether a loop was running and whether anything changed.
func (r *restartable[C]) restart(cfg C, on bool, loop func(context.Context)) (wasRunning, changed bool) {
	if r.cancel != nil && r.cfg == cfg {
		return true, false
	}
	wasRunning = r.cancel != nil
	r.stop()
	r.cfg = cfg
	if on {
		ctx, cancel := context.WithCancel(context.Background())
		r.cancel = cancel
		go agent.Safe("the link to skiffd", func() { loop(ctx) })
	}
	return wasRunning, true
}

// stop ends the loop, if one runs.
func (r *restartable[C]) stop() {
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
}

// running reports whether a loop runs.
func (r *restartable[C]) running() bool { return r.cancel != nil }

// Link reports the link's status.
func (c *Core) Link() LinkStatus { return c.link.current() }

// current is the status with the clients that have a workspace now.
func (l *linker) current() LinkStatus {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.status
	if st.State == "" {
		st.State = "off"
	}
	for _, w := range l.spaces {
		st.Clients = insertSorted(st.Clients, w.name, func(a, b string) bool { return a < b })
	}
	return st
}

// set stores the status and pushes it to every panel.
func (l *linker) set(st LinkStatus) {
	l.mu.Lock()
	l.status = st
	l.mu.Unlock()
	l.publish()
}

func (l *linker) publish() {
	if l.c == nil {
		return
	}
	l.c.broadcastPanels(struct {
		Type string     `json:"type"`
		Link LinkStatus `json:"link"`
	}{UpdateLink, l.current()})
}

func (l *linker) loop(ctx context.Context, cfg store.DaemonSettings) {
	url, where := target(cfg)
	for fails := 0; ctx.Err() == nil; {
		l.set(status("connecting", sayLinkConnecting.With(where)))
		err := l.session(ctx, url, cfg.Token, where)
		if ctx.Err() != nil {
			return
		}
		var welcomed *welcomedErr
		if errors.As(err, &welcomed) {
			fails = 0 // it worked, then dropped: retry soon
			err = welcomed.err
		}
		wait := link.Backoff(fails)
		fails++
		st := status("waiting", sentence(err))
		st.RetryAt = time.Now().Add(wait).UnixMilli()
		l.set(st)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
	}
}

// welcomedErr ends a link that was up.
type welcomedErr struct{ err error }

func (e *welcomedErr) Error() string { return e.err.Error() }

// The link's words for the user (their French is in ui/_locales). $1 is where skiffd is.
var (
	sayLinkConnecting = i18n.Sentence{Key: "linkConnectingTo", English: "Connecting to $1…"}
	sayLinkLinked     = i18n.Sentence{Key: "linkLinked", English: "Linked to $1 (skiffd $2). Outside agents can use your browser's tools; every call passes your permissions."}
	sayLinkUnreached  = i18n.Sentence{Key: "linkUnreached", English: "Skiff could not reach $1. Is it running? Start it with `skiffd serve`, and `skiffd doctor` says what is wrong."}
	sayLinkClosedAt   = i18n.Sentence{Key: "linkClosedAtOnce", English: "The link to $1 closed at once."}
	sayLinkNoWelcome  = i18n.Sentence{Key: "linkNoWelcome", English: "$1 did not welcome Skiff: it may be an older skiffd, or another program on that port."}
	sayLinkNotSkiffd  = i18n.Sentence{Key: "linkNotSkiffd", English: "Something that is not skiffd answers on that port."}
	sayLinkRefused    = i18n.Sentence{Key: "linkRefused", English: "skiffd refused the link: $1."}
	sayLinkDropped    = i18n.Sentence{Key: "linkDropped", English: "The link to $1 dropped (did skiffd stop?). Skiff reconnects by itself."}
	sayLinkNoToken    = i18n.Sentence{Key: "linkNoToken", English: "Paste the pairing token that `skiffd pair` prints to link."}
	sayLinkFailed     = i18n.Sentence{Key: "linkFailed", English: "The link to skiffd failed: $1."}
	sayLinkNative     = i18n.Sentence{Key: "linkWhereNative", English: "skiffd's native messaging host"}
	sayLinkPort       = i18n.Sentence{Key: "linkWherePort", English: "skiffd on port $1"}
)

// status is a link status with its message.
func status(state string, t i18n.Text) LinkStatus {
	return LinkStatus{State: state, Message: t.English(), MessageText: &t}
}

// linkProblem is a failure of the link, in words for the user.
func linkProblem(s i18n.Sentence, args ...any) error { return s.Error(args...) }

func sentence(err error) i18n.Text {
	var p *i18n.Error
	if errors.As(err, &p) {
		return p.Text
	}
	return sayLinkFailed.With(err)
}

// session runs one link: hello, then calls until it fails.
func (l *linker) session(ctx context.Context, url, token string, where i18n.Text) error {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	sock, err := l.c.Dialer.Dial(dctx, url)
	cancel()
	if err != nil {
		return linkProblem(sayLinkUnreached, where)
	}
	defer sock.Close("")
	hello, _ := json.Marshal(link.Handshake{Type: link.Hello, Token: token, Version: Version, Protocol: link.Protocol})
	if err := sock.Write(ctx, hello); err != nil {
		return linkProblem(sayLinkClosedAt, where)
	}
	hctx, cancel := context.WithTimeout(ctx, link.HelloTimeout)
	b, err := sock.Read(hctx)
	cancel()
	var m link.Handshake
	switch {
	case err != nil:
		return linkProblem(sayLinkNoWelcome, where)
	case json.Unmarshal(b, &m) != nil:
		return linkProblem(sayLinkNotSkiffd)
	case m.Type == link.Refused:
		return linkProblem(sayLinkRefused, m.Message)
	case m.Type != link.Welcome:
		return linkProblem(sayLinkNotSkiffd)
	}
	l.set(status("connected", sayLinkLinked.With(where, m.Version)))

	hs := link.Handlers{}
	var peer *link.Peer // set before the link is served
	link.Ping.Handle(hs, func(context.Context, struct{}) (struct{}, error) { return struct{}{}, nil })
	link.ToolCall.Handle(hs, func(ctx context.Context, p link.CallParams) (link.CallResult, error) {
		if p.Client.ID == "" {
			p.Client = link.Client{ID: "?", Name: "an MCP client"}
		}
		say := func(msg string) {
			if p.CallID != "" {
				_ = link.CallProgress.Notify(ctx, peer, link.Progress{CallID: p.CallID, Message: msg})
			}
		}
		return *l.call(withFiles(ctx, p.Files), p.Client, p.CallID, p.Tool, p.Args, say), nil
	})
	link.ClientBye.Handle(hs, func(_ context.Context, c link.Client) (struct{}, error) {
		l.bye(c)
		return struct{}{}, nil
	})
	link.AgentEvents.Handle(hs, func(_ context.Context, ev link.AgentEvent) (struct{}, error) {
		l.c.Engine.Event(ev)
		return struct{}{}, nil
	})
	link.AgentAsk.Handle(hs, func(ctx context.Context, q link.AgentQuestion) (string, error) {
		return l.c.Engine.AskHosted(ctx, q)
	})
	link.SavedPrompts.Handle(hs, func(ctx context.Context, _ struct{}) (link.PromptList, error) {
		s, err := l.c.Store.Settings(ctx)
		if err != nil {
			return link.PromptList{}, err
		}
		out := link.PromptList{Saved: s.Prompts != nil, Prompts: []link.Prompt{}}
		for _, p := range s.Prompts {
			out.Prompts = append(out.Prompts, link.Prompt(p))
		}
		return out, nil
	})
	peer = link.NewPeer(sock, hs)
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go agent.Safe("the link's keepalive", func() {
		t := time.NewTicker(link.Keepalive)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				pctx, cancel := context.WithTimeout(sctx, link.Keepalive)
				_, err := link.Ping.Call(pctx, peer, struct{}{})
				cancel()
				if err != nil && sctx.Err() == nil {
					peer.Close("skiffd stopped answering")
					return
				}
			case <-sctx.Done():
				return
			}
		}
	})
	l.mu.Lock()
	l.peer = peer
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.peer = nil
		l.mu.Unlock()
	}()
	_ = peer.Run(sctx, 0)
	return &welcomedErr{linkProblem(sayLinkDropped, where)}
}

// withFiles is ctx carrying the files a call came with, for the tool that takes them.
func withFiles(ctx context.Context, files []link.File) context.Context {
	fs := make([]tool.File, len(files))
	for i, f := range files {
		fs[i] = tool.File(f)
	}
	return tool.WithFiles(ctx, fs)
}

// call runs an outside client's call in its workspace, through the gate. skiffd sends a call
// again, with the same id, when the link dropped before its result came (a restarted worker):
// the journal keeps a call that started from running twice, and a call that was asking asks
// again from when it first asked (or takes the answer the user gave meanwhile).
func (l *linker) call(ctx context.Context, client link.Client, id, name string, args json.RawMessage, say func(string)) *link.CallResult {
	c := l.c
	if id != "" {
		if st, err := c.Store.CallState(ctx, id); err == nil && st != "" {
			return &link.CallResult{IsError: true, Text: "Skiff's worker restarted while this call was running, so its outcome is unknown: check the page before trying again."}
		}
	} else {
		id = "x" + agent.NewID()
	}
	var askedAt time.Time
	if qs, err := c.Store.Questions(ctx); err == nil {
		for _, q := range qs {
			if q.ID == id {
				askedAt = time.UnixMilli(q.AskedAt)
			}
		}
	}
	w := l.space(ctx, client)
	// The journal keeps a call sent again after a worker restart from acting twice; a read may
	// run twice, and skips the write.
	journal := func() {
		_ = c.Store.MarkCall(context.WithoutCancel(ctx), id, store.CallRunning, time.Now().UnixMilli())
	}
	switch name {
	case link.WorkflowListTool:
		return l.listWorkflows(ctx)
	case link.WorkflowRunTool:
		journal()
		return l.runWorkflow(ctx, w, args)
	case link.WorkflowSaveTool:
		return l.saveWorkflow(ctx, w, id, args)
	}
	if t, ok := tool.Lookup(name); ok && t.Risk == tool.Read {
		journal = func() {}
	}
	asked := false
	started := func() {
		journal()
		if asked {
			say("The user allowed it; it runs now.")
		}
	}
	asking := func(what string) {
		asked = true
		say("Waiting for the user to allow or deny this call (" + what + ") in the browser.")
	}
	out := c.Engine.Invoke(ctx, w.task, agent.Invocation{ID: id, Name: name, Args: args, AskedAt: askedAt, Started: started, Asking: asking})
	r := &link.CallResult{Text: out.Text, IsError: out.IsError}
	if out.Image != nil {
		r.Image = &link.Image{Mime: out.Image.Mime, Data: out.Image.Data}
	}
	return r
}

// ownTabsOf is what names client's tabs in the store (store.OwnTabs).
func ownTabsOf(client link.Client) string { return "client/" + client.ID }

// space is client's workspace: the one in memory, else the one stored before the worker
// restarted, else a new one.
func (l *linker) space(ctx context.Context, client link.Client) *workspace {
	l.mu.Lock()
	w := l.spaces[client.ID]
	l.mu.Unlock()
	if w != nil {
		return w
	}
	var stored store.Workspace
	if ws, err := l.c.Store.Workspaces(ctx); err == nil {
		stored = ws[client.ID]
	}
	save := func(w store.Workspace) { _ = l.c.Store.SaveWorkspace(context.Background(), w) }
	nw := newWorkspace(l.c.Browser, client, stored, save)
	// The tabs it opened stay its own across a worker restart: closing them does not ask.
	own := ownTabsOf(client)
	if ids, err := l.c.Store.OwnTabs(ctx, own); err == nil {
		for _, id := range ids {
			nw.task.Env.Own(id)
		}
	}
	nw.task.Env.OnOpen(func(id int) { _ = l.c.Store.AddOwnTab(context.Background(), own, id) })
	// What its calls did, for workflow_save, is kept across a worker restart too.
	if steps, read, err := l.c.Store.Steps(ctx, client.ID); err == nil {
		nw.task.RestoreSteps(steps, read)
	}
	nw.task.Keeper = clientSteps{c: l.c, owner: client.ID}
	l.mu.Lock()
	if w = l.spaces[client.ID]; w == nil {
		if l.spaces == nil {
			l.spaces = map[string]*workspace{}
		}
		w = nw
		l.spaces[client.ID] = w
		defer l.publish() // a new client: the panel lists it
	}
	l.mu.Unlock()
	return w
}

func (l *linker) bye(client link.Client) {
	l.mu.Lock()
	w := l.spaces[client.ID]
	delete(l.spaces, client.ID)
	l.mu.Unlock()
	l.publish()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = l.c.Store.DeleteWorkspace(ctx, client.ID)
	_ = l.c.Store.ForgetOwnTabs(ctx, ownTabsOf(client))
	_ = l.c.Store.ForgetSteps(ctx, client.ID, true)
	if w != nil && w.task.Env != nil {
		for _, id := range w.task.Env.Used() {
			w.Browser.Release(ctx, id)
		}
	}
}

// Version is the extension's version, sent in the link's hello (wasm/ sets it from the
// manifest).
var Version = "dev"

// hosted runs chats with the agents skiffd hosts, over the link (agent.Hosted).
type hosted struct{ l *linker }

func (h hosted) peer() (*link.Peer, error) {
	h.l.mu.Lock()
	defer h.l.mu.Unlock()
	if h.l.peer == nil {
		return nil, agent.ErrNoHost
	}
	return h.l.peer, nil
}

func (h hosted) Open(ctx context.Context, name, chat, resume string) (link.AgentOpened, error) {
	p, err := h.peer()
	if err != nil {
		return link.AgentOpened{}, err
	}
	return link.AgentOpen.Call(ctx, p, link.AgentOpenParams{Agent: name, Session: chat, Resume: resume})
}

func (h hosted) Prompt(ctx context.Context, chat, text string, images []link.Image64) (link.AgentPromptResult, error) {
	p, err := h.peer()
	if err != nil {
		return link.AgentPromptResult{}, err
	}
	r, err := link.AgentPrompt.Call(ctx, p, link.AgentPromptParams{Session: chat, Text: text, Images: images})
	if errors.Is(err, link.ErrClosed) {
		return link.AgentPromptResult{}, problemf(sayTurnLinkDropped)
	}
	return r, err
}

func (h hosted) Cancel(ctx context.Context, chat string) error {
	p, err := h.peer()
	if err != nil {
		return err
	}
	_, err = link.AgentCancel.Call(ctx, p, link.AgentSession{Session: chat})
	return err
}

func (h hosted) SetOption(ctx context.Context, chat, option, value string) ([]link.ConfigOption, error) {
	p, err := h.peer()
	if err != nil {
		return nil, err
	}
	return link.AgentOption.Call(ctx, p, link.AgentOptionParams{Session: chat, Option: option, Value: value})
}

func (h hosted) Sessions(ctx context.Context, agent string) (link.AgentSessionList, error) {
	p, err := h.peer()
	if err != nil {
		return link.AgentSessionList{}, err
	}
	return link.AgentSessions.Call(ctx, p, link.AgentName{Agent: agent})
}

func (h hosted) Continue(ctx context.Context, agent, chat, agentSession string) (link.AgentContinued, error) {
	p, err := h.peer()
	if err != nil {
		return link.AgentContinued{}, err
	}
	return link.AgentContinue.Call(ctx, p, link.AgentContinueParams{Agent: agent, Session: chat, AgentSession: agentSession})
}

// OptionParams sets a hosted chat's option (its model).
type OptionParams struct {
	SessionID string `json:"sessionId"`
	Option    string `json:"option"`
	Value     string `json:"value"`
}

func (c *Core) setAgentOption(ctx context.Context, p OptionParams) (*store.Session, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ses, err := c.Engine.SetHostedOption(ctx, p.SessionID, p.Option, p.Value)
	if err != nil {
		return nil, &i18n.Error{Text: agent.SaidBy(err)}
	}
	c.broadcast(agent.Update{Type: agent.UpdateSession, SessionID: ses.ID, Session: ses})
	return ses, nil
}

// agents lists the agents skiffd can host (none when no skiffd is linked).
func (c *Core) agents(ctx context.Context, _ struct{}) ([]link.AgentInfo, error) {
	p, err := hosted{&c.link}.peer()
	if err != nil {
		return []link.AgentInfo{}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return link.AgentList.Call(ctx, p, struct{}{})
}

// AgentLogParams names an agent skiffd hosts.
type AgentLogParams struct {
	Agent string `json:"agent"`
}

// AgentLog is the end of an agent's own output (its stderr), as skiffd keeps it: what to read
// when it misbehaves or stopped. Empty when it has not run since skiffd started. Notes are
// skiffd's notes on the connection, which the panel shows under a heading of its own.
type AgentLog struct {
	Log   string `json:"log"`
	Notes string `json:"notes,omitempty"`
}

func (c *Core) agentLog(ctx context.Context, p AgentLogParams) (AgentLog, error) {
	peer, err := hosted{&c.link}.peer()
	if err != nil {
		return AgentLog{}, problemf(sayAgentsUnlinked)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	log, err := link.AgentLog.Call(ctx, peer, link.AgentName{Agent: strings.TrimPrefix(p.Agent, "acp:")})
	if err != nil {
		return AgentLog{}, problemf(sayAgentLog, strings.TrimSuffix(err.Error(), "."))
	}
	own, notes, _ := strings.Cut(log, "\n"+link.NotesHeading+"\n")
	return AgentLog{Log: own, Notes: notes}, nil
}

// AgentSessions is an agent's own sessions as the panel lists them: Listed is false when the
// agent does not list them; a session a chat of Skiff's already has names that chat.
type AgentSessions struct {
	Listed   bool           `json:"listed"`
	Sessions []AgentSession `json:"sessions"`
}

// AgentSession is one of an agent's own sessions.
type AgentSession struct {
	link.AgentSessionInfo
	Chat string `json:"chat,omitempty"` // the chat of Skiff's that has it
}

// agentSessions lists an agent's own sessions (starting it in skiffd if it is not running).
func (c *Core) agentSessions(ctx context.Context, p AgentLogParams) (AgentSessions, error) {
	if _, err := (hosted{&c.link}).peer(); err != nil {
		return AgentSessions{}, problemf(sayAgentsUnlinked)
	}
	name := strings.TrimPrefix(p.Agent, agent.HostedPrefix)
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second) // an agent's start, then its list
	defer cancel()
	list, err := c.Engine.Hosted.Sessions(ctx, name)
	if err != nil {
		return AgentSessions{}, &i18n.Error{Text: agent.SaidBy(err)} // it names the agent and what failed
	}
	have := map[string]string{} // the agent's session → Skiff's chat
	metas, _ := c.Store.Sessions(ctx)
	for _, m := range metas {
		if m.Provider != agent.HostedPrefix+name {
			continue
		}
		if ses, err := c.Store.Session(ctx, m.ID); err == nil && ses.AgentSession != "" {
			have[ses.AgentSession] = ses.ID
		}
	}
	out := AgentSessions{Listed: list.Listed, Sessions: []AgentSession{}}
	for _, s := range list.Sessions {
		out.Sessions = append(out.Sessions, AgentSession{AgentSessionInfo: s, Chat: have[s.ID]})
	}
	return out, nil
}

// ContinueParams names one of an agent's own sessions to go on with in a new chat.
type ContinueParams struct {
	Agent        string `json:"agent"`
	AgentSession string `json:"agentSession"`
	Title        string `json:"title"`
}

// Continued is a session of an agent's own, opened as a chat, and the settings, which now
// name that agent as the backend (the chat goes on with it).
type Continued struct {
	Session  *store.Session `json:"session"`
	Settings PublicSettings `json:"settings"`
}

// continueSession opens one of an agent's own sessions as a new chat, made the active one, and
// makes the agent the backend: a chat follows the provider in Settings, and going on with an
// agent's session means talking to that agent.
func (c *Core) continueSession(ctx context.Context, p ContinueParams) (Continued, error) {
	if _, err := (hosted{&c.link}).peer(); err != nil {
		return Continued{}, problemf(sayAgentsUnlinked)
	}
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	name := strings.TrimPrefix(p.Agent, agent.HostedPrefix)
	title := strings.TrimSpace(p.Title)
	if title == "" {
		title = p.AgentSession
	}
	ses, err := c.Engine.ContinueHosted(ctx, name, p.AgentSession, store.TitleFrom(title))
	if err != nil {
		return Continued{}, &i18n.Error{Text: agent.SaidBy(err)}
	}
	st, err := c.Store.Settings(ctx)
	if err != nil {
		return Continued{}, err
	}
	if st.Provider != agent.HostedPrefix+name {
		st.Provider = agent.HostedPrefix + name
		if err := c.Store.SaveSettings(ctx, st); err != nil {
			return Continued{}, err
		}
	}
	return Continued{Session: ses, Settings: public(st)}, nil
}

// PathParams names a path in the folder agents share.
type PathParams struct {
	Path string `json:"path"`
}

// listFiles and readFile show the folder agents share, as skiffd serves it.
func (c *Core) listFiles(ctx context.Context, p PathParams) ([]link.FileEntry, error) {
	peer, err := hosted{&c.link}.peer()
	if err != nil {
		return nil, problemf(sayFilesUnlinked)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := link.AgentFiles.Call(ctx, peer, link.FilePath{Path: p.Path})
	if err != nil {
		return nil, &i18n.Error{Text: agent.SaidBy(err)}
	}
	if out == nil {
		out = []link.FileEntry{}
	}
	return out, nil
}

func (c *Core) readFile(ctx context.Context, p PathParams) (string, error) {
	peer, err := hosted{&c.link}.peer()
	if err != nil {
		return "", problemf(sayFilesUnlinked)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, err := link.AgentFile.Call(ctx, peer, link.FilePath{Path: p.Path})
	if err != nil {
		return "", &i18n.Error{Text: agent.SaidBy(err)}
	}
	return s, nil
}

// clientSteps keeps an outside client's steps in the store (agent.StepKeeper): memory storage,
// which a worker restart leaves, and the browser's closing empties.
type clientSteps struct {
	c     *Core
	owner string
}

func (k clientSteps) Keep(step workflow.Call, max int) {
	k.store(func(ctx context.Context, now int64) error { return k.c.Store.AddStep(ctx, k.owner, step, max, now) })
}

func (k clientSteps) Saw(tool, text string) {
	k.store(func(ctx context.Context, now int64) error { return k.c.Store.KeepRead(ctx, k.owner, tool, text, now) })
}

func (k clientSteps) Forget() {
	k.store(func(ctx context.Context, _ int64) error { return k.c.Store.ForgetSteps(ctx, k.owner, false) })
}

// store makes one change of the kept steps, bounded in time; a failure costs only a save after
// a worker restart (what is in memory stands).
func (k clientSteps) store(change func(ctx context.Context, now int64) error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = change(ctx, k.c.Engine.Now().UnixMilli())
}
