// Package acphost hosts agents that speak the Agent Client Protocol (Gemini CLI, Claude's ACP
// agent, Qwen Code, any other) for skiffd: each runs as a child process over stdio, in its own
// process group, killed with it. Skiff is the ACP client: it streams the agent's updates as
// typed Events, asks the user for the agent's permission requests, serves file reads and
// writes inside the one folder the user chose, and gives the agent Skiff's browser tools as an
// MCP server (whose calls pass the extension's gate under the agent's name).
package acphost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// Spec is an agent skiffd can host: a name, what the user sees, and its command line.
type Spec struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Command []string `json:"command"`
	Env     []string `json:"env,omitempty"`
}

// Presets are the agents known to speak ACP, as their packages install them.
var Presets = []Spec{
	{Name: "gemini", Title: "Gemini CLI", Command: []string{"gemini", "--acp"}, Env: []string{"GEMINI_CLI_NO_RELAUNCH=true"}},
	{Name: "claude", Title: "Claude Code", Command: []string{"claude-agent-acp"}},
	{Name: "qwen", Title: "Qwen Code", Command: []string{"qwen", "--acp"}},
}

// Installed reports where the agent's program is, if it is on PATH (or a path that exists).
func (s Spec) Installed() (string, bool) {
	if len(s.Command) == 0 {
		return "", false
	}
	p, err := exec.LookPath(s.Command[0])
	return p, err == nil
}

// Answer kinds: the four answers of Skiff's ask card, which are ACP's option kinds.
const (
	AllowOnce    = "allow_once"
	AllowAlways  = "allow_always"
	RejectOnce   = "reject_once"
	RejectAlways = "reject_always"
)

// Asker asks the user and returns the answer kind chosen; an error or ctx's end is "no".
type Asker interface {
	Ask(ctx context.Context, q Question) (string, error)
}

// Host starts agents. Emit receives every Event in order, from one goroutine, and may take
// its time: the agent's notification queue never waits on it.
type Host struct {
	Files *Files // the shared folder; nil: none (fs requests fail in words)
	Ask   Asker
	Emit  func(Event)
	// MCP gives the agent Skiff's browser tools: the servers for session/new, given whether
	// the agent takes MCP over HTTP.
	MCP func(spec Spec, http bool) []acp.McpServer
	// Audit records every file write the agent made or was refused.
	Audit func(agent, action, path string, allowed bool)
}

// Agent is one running agent process and its connection.
type Agent struct {
	Spec Spec
	Info acp.InitializeResponse

	host    *Host
	cmd     *exec.Cmd
	conn    *acp.ClientSideConnection
	input   *input
	stderr  *tail // the agent's own stderr
	notes   *tail // what the ACP SDK logs of the connection (kept apart: not the agent's words)
	exited  chan struct{}
	waitErr error

	mu       sync.Mutex
	sessions map[acp.SessionId]string // the agent's session id → Skiff's
	ids      map[string]acp.SessionId // Skiff's → the agent's
	early    map[acp.SessionId][]acp.SessionUpdate
	asks     map[string]map[*struct{}]context.CancelFunc // open permission asks by Skiff's session
	queue    *queue
	// opts are each session's config options as the agent last gave them, modes its legacy
	// session modes as one more option (nil: none), by Skiff's session.
	opts  map[string][]ConfigOption
	modes map[string]*ConfigOption
}

// ModeOption is the id of the option that stands for an agent's legacy session modes
// (session/set_mode; Gemini CLI still sends them): the clients show it beside the model, as a
// config option of category "mode".
const ModeOption = "skiff-mode"

// withMode is opts and, when the agent has legacy modes and no option of category "mode" of
// its own, the modes as one more option. Called with a.mu held.
func (a *Agent) withMode(id string, opts []ConfigOption) []ConfigOption {
	m := a.modes[id]
	if m == nil {
		return opts
	}
	for _, o := range opts {
		if o.Category == "mode" {
			return opts
		}
	}
	return append(append([]ConfigOption(nil), opts...), *m)
}

// adjust keeps what events say of a session's options (its config, its current mode) and
// gives each as the whole list, the legacy modes among them. Called with a.mu held.
func (a *Agent) adjust(evs []Event) []Event {
	for i := range evs {
		ev := &evs[i]
		switch ev.Kind {
		case "config":
			a.opts[ev.Session] = ev.Config
			ev.Config = a.withMode(ev.Session, ev.Config)
		case "mode":
			if m := a.modes[ev.Session]; m != nil {
				m.Current = ev.Text
				*ev = Event{Session: ev.Session, Kind: "config", Config: a.withMode(ev.Session, a.opts[ev.Session])}
			}
		}
	}
	return evs
}

// legacyModes is an agent's session modes as a ModeOption (nil when it has none).
func legacyModes(m *acp.SessionModeState) *ConfigOption {
	if m == nil || len(m.AvailableModes) == 0 {
		return nil
	}
	o := &ConfigOption{ID: ModeOption, Name: "Mode", Category: "mode", Current: string(m.CurrentModeId)}
	for _, am := range m.AvailableModes {
		o.Values, o.Labels = append(o.Values, string(am.Id)), append(o.Labels, am.Name)
	}
	return o
}

// StartTimeout bounds an agent's start (spawn and initialize).
var StartTimeout = 60 * time.Second

// Start runs spec's command and initializes the protocol. The agent runs until Close, or
// until it exits by itself (Done).
func (h *Host) Start(ctx context.Context, spec Spec) (*Agent, error) {
	if len(spec.Command) == 0 {
		return nil, sayNoCommand.Error(spec.Name)
	}
	title := spec.Title
	if title == "" {
		title = spec.Name
	}
	spec.Title = title
	cmd := exec.Command(spec.Command[0], spec.Command[1:]...)
	ownGroup(cmd)
	cmd.Env = childEnv(os.Environ(), spec.Env)
	if h.Files != nil {
		cmd.Dir = h.Files.Dir()
	}
	// Pipes of our own, not cmd's: Wait closes the pipes it made as soon as the process exits,
	// which loses what the agent wrote last and is still unread.
	inR, in, err := os.Pipe()
	if err != nil {
		return nil, sayCouldNotStart.Error(title, reason(err))
	}
	out, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		in.Close()
		return nil, sayCouldNotStart.Error(title, reason(err))
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	a := &Agent{Spec: spec, host: h, cmd: cmd, stderr: &tail{max: 64 << 10}, notes: &tail{max: 16 << 10}, exited: make(chan struct{}),
		sessions: map[acp.SessionId]string{}, ids: map[string]acp.SessionId{}, early: map[acp.SessionId][]acp.SessionUpdate{},
		asks: map[string]map[*struct{}]context.CancelFunc{}, opts: map[string][]ConfigOption{}, modes: map[string]*ConfigOption{}}
	cmd.Stderr = a.stderr
	// Wait waits for stderr's end too, which a child the agent left running may hold open
	// forever: a moment, then the agent is gone all the same.
	cmd.WaitDelay = time.Second
	err = cmd.Start()
	inR.Close() // the agent's ends are the agent's now
	outW.Close()
	if err != nil {
		in.Close()
		out.Close()
		if errors.Is(err, exec.ErrNotFound) {
			return nil, sayNotInstalled.Error(title, spec.Command[0])
		}
		return nil, sayCouldNotStart.Error(title, reason(err))
	}
	emit := h.Emit
	if emit == nil {
		emit = func(Event) {}
	}
	a.queue = newQueue(emit)
	// The connection reads at once, and may log (a closed pipe) before SetLogger: it reads
	// once the logger is set.
	set := make(chan struct{})
	a.input = &input{w: in, gone: make(chan struct{})}
	a.conn = acp.NewClientSideConnection(&client{a}, a.input, gated{out, set})
	a.conn.SetLogger(slog.New(slog.NewTextHandler(a.notes, nil)))
	close(set)
	go func() {
		a.waitErr = cmd.Wait()
		// The agent's last words are read to the end of its output, unless something it
		// started still holds the pipe open.
		select {
		case <-a.conn.Done():
		case <-time.After(time.Second):
		}
		in.Close()
		out.Close()
		close(a.exited)
	}()
	ictx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	info, err := a.conn.Initialize(ictx, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientInfo:      &acp.Implementation{Name: "skiff", Title: acp.Ptr("Skiff"), Version: Version},
		ClientCapabilities: acp.ClientCapabilities{
			Fs:       acp.FileSystemCapabilities{ReadTextFile: h.Files != nil, WriteTextFile: h.Files != nil},
			Terminal: false,
		},
	})
	if err != nil {
		// Said before Close, which ends the agent: a crash is told by its exit and its log, an
		// agent that never answered by its silence, not by the signal that ended it.
		ferr := a.failed(sayDidNotStart, err)
		select {
		case <-a.exited:
		default:
			if ictx.Err() != nil && ctx.Err() == nil {
				ferr = sayNoAnswer.Error(title, int(StartTimeout/time.Second))
			}
		}
		a.Close()
		return nil, ferr
	}
	if info.ProtocolVersion != acp.ProtocolVersionNumber {
		a.Close()
		return nil, sayACPVersion.Error(title, int(info.ProtocolVersion), int(acp.ProtocolVersionNumber))
	}
	a.Info = info
	return a, nil
}

// Version is skiffd's, sent as Skiff's client info.
var Version = "dev"

// childEnv is the agent's environment: skiffd's, without the variables that make an agent
// think it runs inside Claude Code, plus the spec's.
func childEnv(env, extra []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "CLAUDECODE") {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

// failed words an error of the agent's with s (its arguments: the agent's title, extra, then
// the reason): a crash names its exit and the end of its log instead.
func (a *Agent) failed(s i18n.Sentence, err error, extra ...any) error {
	// An agent whose output ended, or that closed its input, has most often exited, or is
	// about to: it is given longer to say how. Its exit is told once its output is read to the
	// end, and a child it left holding its output or its log makes that up to two seconds
	// (WaitDelay, then the read's own wait), more on a busy machine.
	wait := 200 * time.Millisecond
	select {
	case <-a.conn.Done():
		wait = 5 * time.Second
	case <-a.inputGone():
		wait = 5 * time.Second
	default:
	}
	select {
	case <-a.exited:
		if tail := a.logTail(); tail != "" {
			return sayStoppedLog.Error(a.Spec.Title, fmt.Sprint(a.waitErr), tail)
		}
		return sayStopped.Error(a.Spec.Title, fmt.Sprint(a.waitErr))
	case <-time.After(wait):
	}
	select {
	case <-a.conn.Done():
		if tail := a.logTail(); tail != "" {
			return sayClosedLog.Error(a.Spec.Title, tail)
		}
		return sayClosed.Error(a.Spec.Title)
	default:
	}
	args := append(append([]any{a.Spec.Title}, extra...), reason(err))
	return s.Error(args...)
}

// reason is an error as the argument of a sentence: a text of ours stays a text (in the user's
// language), an agent's message is its words, without a final period.
func reason(err error) any {
	var ie *i18n.Error
	if errors.As(err, &ie) && !ie.Text.IsZero() {
		return ie.Text
	}
	var re *acp.RequestError
	msg := err.Error()
	if errors.As(err, &re) {
		msg = re.Message
	}
	return strings.TrimSuffix(strings.TrimSpace(msg), ".")
}

// logTail is the end of the agent's stderr that fits in a status line: its last lines, up
// to 400 bytes (a crash's reason is seldom in its very last line alone).
func (a *Agent) logTail() string {
	s := strings.TrimSpace(a.stderr.String())
	if len(s) > 400 {
		cut := s[len(s)-400:]
		if i := strings.IndexByte(cut, '\n'); i >= 0 && i < len(cut)-1 {
			cut = cut[i+1:]
		}
		for len(cut) > 0 && !utf8.RuneStart(cut[0]) { // a line longer than that: from a whole character
			cut = cut[1:]
		}
		s = cut
	}
	return s
}

// Log is the end of the agent's stderr (the last 64 KB), and what Skiff noted of the
// connection (the ACP library's notes: a line that was not JSON, a closed pipe), apart.
func (a *Agent) Log() (own, notes string) {
	return a.stderr.String(), a.notes.String()
}

// Done is closed when the agent's process exited.
func (a *Agent) Done() <-chan struct{} { return a.exited }

// Close kills the agent's process group and waits for it.
func (a *Agent) Close() {
	if a.cmd.Process != nil {
		signalGroup(a.cmd, false)
		select {
		case <-a.exited:
		case <-time.After(3 * time.Second):
			signalGroup(a.cmd, true)
			<-a.exited
		}
		// The agent is gone; what it started may not be (a helper that let go of its pipes and
		// ignores SIGTERM): a moment to finish, then nothing of the group is left.
		for end := time.Now().Add(time.Second); groupAlive(a.cmd) && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
		signalGroup(a.cmd, true)
	}
	a.queue.close()
}

// How Open opened a chat's session.
const (
	OpenedNew     = "new"     // a new session (the agent does not know the chat's earlier turns)
	OpenedResumed = "resumed" // the agent's session from before, through session/resume
	OpenedLoaded  = "loaded"  // the agent's session from before, through session/load
)

// NewSession opens a new session for Skiff's session id (Open with nothing to resume).
func (a *Agent) NewSession(ctx context.Context, id string) error {
	_, _, err := a.Open(ctx, id, "")
	return err
}

// Open opens a session for Skiff's session id, with the shared folder as its cwd and Skiff's
// browser tools as an MCP server. prev, when not empty, is the agent's session id this chat had
// before (another run of skiffd, or of the agent): the agent resumes it (session/resume) or
// loads it (session/load; the history it replays is dropped, since Skiff keeps the chat) when
// it offers either, and otherwise, or when that fails, a new session opens. Updates the agent
// sends before it answers are kept and delivered after. It returns the agent's session id and
// how it opened.
func (a *Agent) Open(ctx context.Context, id, prev string) (string, string, error) {
	sid, how, _, err := a.open(ctx, id, prev, false)
	return sid, how, err
}

// Continue opens an agent's session that Skiff has never shown (one session/list gave) as Skiff's
// session id: loaded with its history when the agent can (the events it replays are returned,
// for the chat to show), else resumed without it. An agent that can do neither, or a session
// it no longer has, is an error: a new session would not be the one the user chose.
func (a *Agent) Continue(ctx context.Context, id, agentSession string) (string, []Event, error) {
	sid, _, history, err := a.open(ctx, id, agentSession, true)
	return sid, history, err
}

func (a *Agent) open(ctx context.Context, id, prev string, keep bool) (string, string, []Event, error) {
	cwd := a.cwd()
	servers := []acp.McpServer{}
	if a.host.MCP != nil {
		servers = a.host.MCP(a.Spec, a.Info.AgentCapabilities.McpCapabilities.Http)
	}
	caps := a.Info.AgentCapabilities
	var opts []acp.SessionConfigOption
	var modes *acp.SessionModeState
	var history []Event
	var reopenErr error
	sid, how := acp.SessionId(prev), ""
	resume := func() {
		res, err := a.conn.ResumeSession(ctx, acp.ResumeSessionRequest{SessionId: sid, Cwd: cwd, McpServers: servers})
		if reopenErr = err; err == nil {
			how, opts, modes = OpenedResumed, res.ConfigOptions, res.Modes
		}
	}
	load := func() {
		res, err := a.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: sid, Cwd: cwd, McpServers: servers})
		a.mu.Lock()
		// The history it replayed (the SDK has handled every update sent before the answer
		// by now): a chat Skiff shows already has it; a chat new to Skiff shows it.
		if keep && err == nil {
			for _, u := range a.early[sid] {
				history = append(history, translate(id, u)...)
			}
		}
		delete(a.early, sid)
		a.mu.Unlock()
		if reopenErr = err; err == nil {
			how, opts, modes = OpenedLoaded, res.ConfigOptions, res.Modes
		}
	}
	switch {
	case prev == "":
	case keep: // the history is wanted: load gives it; resume opens the session without it
		if caps.LoadSession {
			load()
		}
		if how == "" && caps.SessionCapabilities.Resume != nil {
			resume()
		}
		if how == "" {
			if reopenErr == nil {
				reopenErr = &i18n.Error{Text: sayCannotReopen.With()}
			}
			return "", "", nil, a.failed(sayNoReopen, reopenErr)
		}
	case caps.SessionCapabilities.Resume != nil:
		resume()
	case caps.LoadSession:
		load()
	}
	if how == "" {
		req := acp.NewSessionRequest{Cwd: cwd, McpServers: servers}
		res, err := a.conn.NewSession(ctx, req)
		var re *acp.RequestError
		if errors.As(err, &re) && re.Code == acp.NewAuthRequired(nil).Code && len(a.Info.AuthMethods) > 0 {
			if err = a.authenticate(ctx); err == nil {
				res, err = a.conn.NewSession(ctx, req)
			}
		}
		if err != nil {
			return "", "", nil, a.failed(sayNoSession, err)
		}
		sid, how, opts, modes = res.SessionId, OpenedNew, res.ConfigOptions, res.Modes
	}
	// What came before the answer, then the options it gave: streamed (in order with what
	// comes next: pushed under the lock SessionUpdate takes), or for a chat new to Skiff
	// returned with its history, so that the chat has them when it first shows.
	var then []Event
	a.mu.Lock()
	a.sessions[sid] = id
	a.ids[id] = sid
	if m := legacyModes(modes); m != nil {
		a.modes[id] = m
	}
	for _, u := range a.early[sid] {
		then = append(then, a.adjust(translate(id, u))...)
	}
	delete(a.early, sid)
	own := configOptions(opts)
	a.opts[id] = own
	if all := a.withMode(id, own); len(all) > 0 {
		then = append(then, Event{Session: id, Kind: "config", Config: all})
	}
	if !keep {
		a.queue.push(then...)
		then = nil
	}
	a.mu.Unlock()
	return string(sid), how, append(history, then...), nil
}

// cwd is the sessions' working folder: the shared folder, else the system's temporary folder.
func (a *Agent) cwd() string {
	if a.host.Files != nil {
		return a.host.Files.Dir()
	}
	return os.TempDir()
}

// ErrNoList: the agent does not list its sessions (no sessionCapabilities.list).
var ErrNoList = errors.New("acphost: the agent does not list its sessions")

// ListSessions is the agent's sessions in the shared folder (session/list, every page, up to
// max), when it offers the list.
func (a *Agent) ListSessions(ctx context.Context, max int) ([]SessionInfo, error) {
	if a.Info.AgentCapabilities.SessionCapabilities.List == nil {
		return nil, ErrNoList
	}
	cwd := a.cwd()
	var out []SessionInfo
	var cursor *string
	for page := 0; page < 50 && len(out) < max; page++ {
		res, err := a.conn.ListSessions(ctx, acp.ListSessionsRequest{Cwd: &cwd, Cursor: cursor})
		if err != nil {
			return nil, a.failed(sayNoList, err)
		}
		for _, s := range res.Sessions {
			if s.Cwd != "" && s.Cwd != cwd { // an agent that ignores the filter: not this folder's
				continue
			}
			info := SessionInfo{ID: string(s.SessionId)}
			if s.Title != nil {
				info.Title = *s.Title
			}
			if s.UpdatedAt != nil {
				info.UpdatedAt = *s.UpdatedAt
			}
			out = append(out, info)
		}
		if res.NextCursor == nil || *res.NextCursor == "" || (cursor != nil && *cursor == *res.NextCursor) {
			break
		}
		cursor = res.NextCursor
	}
	if len(out) > max {
		out = out[:max]
	}
	return out, nil
}

// ChatOf is Skiff's session id that has the agent's session sid open ("" when none).
func (a *Agent) ChatOf(sid string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sessions[acp.SessionId(sid)]
}

// SessionOf is the agent's session id for Skiff's session id ("" when it has none).
func (a *Agent) SessionOf(id string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return string(a.ids[id])
}

// authenticate uses the agent's first method that needs no terminal of ours.
func (a *Agent) authenticate(ctx context.Context) error {
	for _, m := range a.Info.AuthMethods {
		var id string
		switch {
		case m.Agent != nil:
			id = string(m.Agent.Id)
		case m.EnvVar != nil:
			id = string(m.EnvVar.Id)
		default:
			continue
		}
		_, err := a.conn.Authenticate(ctx, acp.AuthenticateRequest{MethodId: id})
		return err
	}
	return saySignIn.Error(a.Spec.Title)
}

// Prompt sends the user's text (and images, when the agent takes them) and waits for the
// turn to end; its updates come as Events meanwhile. The stop reason is end_turn, max_tokens,
// max_turn_requests, refusal or cancelled.
func (a *Agent) Prompt(ctx context.Context, id, text string, images []Image) (Turn, error) {
	a.mu.Lock()
	sid, ok := a.ids[id]
	a.mu.Unlock()
	if !ok {
		return Turn{}, sayNoChatSession.Error(a.Spec.Title)
	}
	blocks := []acp.ContentBlock{acp.TextBlock(text)}
	if a.Info.AgentCapabilities.PromptCapabilities.Image {
		for _, im := range images {
			blocks = append(blocks, acp.ImageBlock(im.Data, im.Mime))
		}
	}
	res, err := a.conn.Prompt(ctx, acp.PromptRequest{SessionId: sid, Prompt: blocks})
	if err != nil {
		return Turn{}, a.failed(sayTurnFailed, err)
	}
	a.queue.flush()
	return turnOf(res), nil
}

// turnOf is how a turn ended, with its tokens and model when the agent tells them: in the
// response's usage (unstable in ACP; Claude's agent sends it), else in _meta.quota, which
// Gemini CLI and Claude's agent both send: {"token_count": {"input_tokens", "output_tokens"},
// "model_usage": [{"model", "token_count"}]}.
func turnOf(res acp.PromptResponse) Turn {
	t := Turn{StopReason: string(res.StopReason)}
	var q struct {
		Quota struct {
			Tokens *quotaTokens `json:"token_count"`
			Models []struct {
				Model  string      `json:"model"`
				Tokens quotaTokens `json:"token_count"`
			} `json:"model_usage"`
		} `json:"quota"`
	}
	if raw, err := json.Marshal(res.Meta); err == nil {
		_ = json.Unmarshal(raw, &q) // an agent's own shape that is not this one tells nothing
	}
	if u := res.Usage; u != nil && u.InputTokens+u.OutputTokens > 0 {
		t.Usage = &TurnUsage{Input: u.InputTokens, Output: u.OutputTokens, Total: u.TotalTokens,
			Thought: deref(u.ThoughtTokens), CacheRead: deref(u.CachedReadTokens), CacheWrite: deref(u.CachedWriteTokens)}
	} else if c := q.Quota.Tokens; c != nil && c.In+c.Out > 0 {
		t.Usage = &TurnUsage{Input: c.In, Output: c.Out, Total: c.In + c.Out}
	}
	most := 0
	for _, m := range q.Quota.Models {
		if n := m.Tokens.In + m.Tokens.Out; m.Model != "" && n > most {
			t.Model, most = m.Model, n
		}
	}
	return t
}

type quotaTokens struct {
	In  int `json:"input_tokens"`
	Out int `json:"output_tokens"`
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// Cancel stops the session's turn: every open permission ask is answered "cancelled" first,
// then the agent is told.
func (a *Agent) Cancel(ctx context.Context, id string) error {
	a.mu.Lock()
	sid, ok := a.ids[id]
	for _, cancel := range a.asks[id] {
		cancel()
	}
	a.mu.Unlock()
	if !ok {
		return nil
	}
	return a.conn.Cancel(ctx, acp.CancelNotification{SessionId: sid})
}

// SetOption sets one of the session's config options (the model is the one of category
// "model"); option ModeOption sets the legacy session mode some agents still use. It returns the
// options as they are now.
func (a *Agent) SetOption(ctx context.Context, id, option, value string) ([]ConfigOption, error) {
	a.mu.Lock()
	sid, ok := a.ids[id]
	a.mu.Unlock()
	if !ok {
		return nil, sayNoChatSession.Error(a.Spec.Title)
	}
	if option == ModeOption {
		_, err := a.conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: sid, ModeId: acp.SessionModeId(value)})
		if err != nil {
			return nil, a.failed(sayNoMode, err)
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if m := a.modes[id]; m != nil {
			m.Current = value
		}
		return a.withMode(id, a.opts[id]), nil
	}
	res, err := a.conn.SetSessionConfigOption(ctx, acp.SetSessionConfigOptionRequest{
		ValueId: &acp.SetSessionConfigOptionValueId{SessionId: sid, ConfigId: acp.SessionConfigId(option), Value: acp.SessionConfigValueId(value)}})
	if err != nil {
		return nil, a.failed(sayNoOption, err, option)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.opts[id] = configOptions(res.ConfigOptions)
	return a.withMode(id, a.opts[id]), nil
}

// inputGone is closed once a write to the agent failed (never, before it started).
func (a *Agent) inputGone() <-chan struct{} {
	if a.input == nil {
		return nil
	}
	return a.input.gone
}

// input is an agent's input: a write that fails (the agent closed it, most often as it
// exited) closes gone.
type input struct {
	w    io.Writer
	once sync.Once
	gone chan struct{}
}

func (i *input) Write(p []byte) (int, error) {
	n, err := i.w.Write(p)
	if err != nil {
		i.once.Do(func() { close(i.gone) })
	}
	return n, err
}

// gated reads r once open is closed.
type gated struct {
	r    io.Reader
	open <-chan struct{}
}

func (g gated) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.ToValidUTF8(t.b, nil))
}

var _ io.Writer = (*tail)(nil)
