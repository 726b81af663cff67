// Package acpagent is a scripted ACP agent for tests: what it does is read from the prompt,
// one command a prompt, so a test drives it the way a user drives a real agent. It exercises
// every update kind, permission requests of each kind, file reads and writes, a call back to
// Skiff's browser tools through the MCP server session/new gave it, cancel, and a crash.
//
//	hello            every update kind: thought, plan, commands, tool call and its update,
//	                 usage, title, an update of a kind no client knows, then text
//	ask KIND         a permission request for a tool of KIND (edit, delete, fetch…), answers
//	                 with what the user chose
//	read PATH        fs/read_text_file, replies with the text
//	write PATH TEXT  a tool call with the diff, then fs/write_text_file
//	browse TOOL JSON calls Skiff's browser tool TOOL through MCP, replies with its text
//	model            says the model the session uses (a config option of category model)
//	mode             says the session's mode (SKIFF_TEST_AGENT_MODES=legacy: "default" or
//	                 "plan", as legacy session modes)
//	leave-plan       switches the session's mode to "default" itself (current_mode_update)
//	slow             streams a chunk, then waits to be cancelled
//	story            streams a paragraph and the start of another, waits for a file "go-on"
//	                 in the session's folder (or to be cancelled), then streams the rest
//	crash            writes to stderr and exits with status 3
//	recall           says what the user said earlier in this session, in this process or
//	                 another (a session is kept in the cwd, .skiff-test-agent/, for
//	                 session/resume, session/load and session/list; SKIFF_TEST_AGENT_REOPEN=load
//	                 offers load and list, =resume resume and list, =none none of them)
//
// It takes pictures in a prompt (hello counts them) unless SKIFF_TEST_AGENT_IMAGES=none.
package acpagent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Main runs the agent on stdin and stdout until stdin closes.
func Main() {
	out := &lockedWriter{w: os.Stdout}
	a := &agent{out: out, sessions: map[acp.SessionId]*session{}, ready: make(chan struct{})}
	conn := acp.NewAgentSideConnection(a, out, os.Stdin)
	a.conn = conn
	close(a.ready)
	<-conn.Done()
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type session struct {
	mcp    []acp.McpServer
	cancel context.CancelFunc
	model  string
	mode   string
	cwd    string
}

// legacyModes are the session modes the agent offers when SKIFF_TEST_AGENT_MODES=legacy (the
// older way, which Gemini CLI still uses): "default" and "plan".
func legacyModes() *acp.SessionModeState {
	if os.Getenv("SKIFF_TEST_AGENT_MODES") != "legacy" {
		return nil
	}
	return &acp.SessionModeState{CurrentModeId: "default", AvailableModes: []acp.SessionMode{{Id: "default", Name: "Default"}, {Id: "plan", Name: "Plan"}}}
}

// said is where a session's prompts are kept, so another run of the agent can reopen it.
func said(cwd string, id acp.SessionId) string {
	return filepath.Join(cwd, ".skiff-test-agent", string(id)+".txt")
}

// reopen takes back a session another run kept; load replays its history first, as
// session/load does.
func (a *agent) reopen(ctx context.Context, id acp.SessionId, cwd string, mcp []acp.McpServer, load bool) error {
	b, err := os.ReadFile(said(cwd, id))
	if err != nil {
		return acp.NewInvalidParams("no such session: " + string(id))
	}
	if load {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			a.say(ctx, id, acp.SessionUpdate{UserMessageChunk: &acp.SessionUpdateUserMessageChunk{SessionUpdate: "user_message_chunk", Content: acp.TextBlock(line)}})
			a.say(ctx, id, acp.UpdateAgentMessageText("(replayed) "+line))
		}
	}
	a.mu.Lock()
	a.sessions[id] = &session{mcp: mcp, model: "fast-1", cwd: cwd}
	a.mu.Unlock()
	return nil
}

// models are the test agent's model choices, offered as a config option of category model.
func models(current string) []acp.SessionConfigOption {
	cat := acp.SessionConfigOptionCategory("model")
	o := acp.NewSessionConfigOptionSelect(acp.SessionConfigValueId(current), acp.SessionConfigSelectOptions{Ungrouped: &acp.SessionConfigSelectOptionsUngrouped{
		{Name: "Fast", Value: "fast-1"}, {Name: "Deep", Value: "deep-2"}}})
	o.Select.Id, o.Select.Name, o.Select.Category = "model", "Model", &cat
	return []acp.SessionConfigOption{o}
}

type agent struct {
	// conn is set once ready is closed: the connection reads and hands requests to the
	// agent's methods as soon as it exists, before NewAgentSideConnection has returned it
	// (on a busy machine a session/new came first, and its update went to a nil conn).
	conn     *acp.AgentSideConnection
	ready    chan struct{}
	out      *lockedWriter
	mu       sync.Mutex
	sessions map[acp.SessionId]*session
	n        int
}

// peer is the connection to the client, once there is one.
func (a *agent) peer() *acp.AgentSideConnection {
	<-a.ready
	return a.conn
}

func (a *agent) Initialize(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
	caps := acp.AgentCapabilities{
		McpCapabilities:    acp.McpCapabilities{Http: true},
		PromptCapabilities: acp.PromptCapabilities{Image: os.Getenv("SKIFF_TEST_AGENT_IMAGES") != "none"},
	}
	switch os.Getenv("SKIFF_TEST_AGENT_REOPEN") {
	case "none":
	case "load":
		caps.LoadSession = true
		caps.SessionCapabilities.List = &acp.SessionListCapabilities{}
	case "resume":
		caps.SessionCapabilities.Resume = &acp.SessionResumeCapabilities{}
		caps.SessionCapabilities.List = &acp.SessionListCapabilities{}
	default:
		caps.LoadSession = true
		caps.SessionCapabilities.Resume = &acp.SessionResumeCapabilities{}
		caps.SessionCapabilities.List = &acp.SessionListCapabilities{}
	}
	return acp.InitializeResponse{
		ProtocolVersion:   acp.ProtocolVersionNumber,
		AgentInfo:         &acp.Implementation{Name: "skiff-test-agent", Version: "1"},
		AgentCapabilities: caps,
		AuthMethods:       []acp.AuthMethod{},
	}, nil
}

func (a *agent) NewSession(ctx context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	a.mu.Lock()
	a.n++
	id := acp.SessionId(fmt.Sprintf("s%d-%d", os.Getpid(), a.n))
	a.sessions[id] = &session{mcp: p.McpServers, model: "fast-1", mode: "default", cwd: p.Cwd}
	a.mu.Unlock()
	// Sent before the answer, as real agents do: a client must keep it.
	_ = a.peer().SessionUpdate(ctx, acp.SessionNotification{SessionId: id, Update: acp.SessionUpdate{AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{
		SessionUpdate: "available_commands_update", AvailableCommands: []acp.AvailableCommand{{Name: "hello", Description: "show every update kind"}}}}})
	return acp.NewSessionResponse{SessionId: id, ConfigOptions: models("fast-1"), Modes: legacyModes()}, nil
}

func (a *agent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

func (a *agent) Logout(context.Context, acp.LogoutRequest) (acp.LogoutResponse, error) {
	return acp.LogoutResponse{}, acp.NewMethodNotFound(acp.AgentMethodLogout)
}

func (a *agent) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionClose)
}

// ListSessions lists the sessions kept in the cwd asked for, newest first, two to a page (so a
// client must follow the cursor); a session's title is its first prompt.
func (a *agent) ListSessions(_ context.Context, p acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	out := acp.ListSessionsResponse{Sessions: []acp.SessionInfo{}}
	if p.Cwd == nil || !filepath.IsAbs(*p.Cwd) {
		return out, acp.NewInvalidParams("cwd must be an absolute path")
	}
	ents, _ := os.ReadDir(filepath.Join(*p.Cwd, ".skiff-test-agent"))
	type kept struct {
		info acp.SessionInfo
		at   time.Time
	}
	var all []kept
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".txt")
		fi, err := e.Info()
		if !ok || err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(*p.Cwd, ".skiff-test-agent", e.Name()))
		title, _, _ := strings.Cut(string(b), "\n")
		at := fi.ModTime().UTC().Format(time.RFC3339)
		all = append(all, kept{acp.SessionInfo{SessionId: acp.SessionId(id), Cwd: *p.Cwd, Title: &title, UpdatedAt: &at}, fi.ModTime()})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].at.After(all[j].at) })
	from := 0
	if p.Cursor != nil {
		from, _ = strconv.Atoi(*p.Cursor)
	}
	for i := from; i < len(all) && i < from+2; i++ {
		out.Sessions = append(out.Sessions, all[i].info)
	}
	if from+2 < len(all) {
		next := strconv.Itoa(from + 2)
		out.NextCursor = &next
	}
	return out, nil
}

func (a *agent) ResumeSession(ctx context.Context, p acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	if err := a.reopen(ctx, p.SessionId, p.Cwd, p.McpServers, false); err != nil {
		return acp.ResumeSessionResponse{}, err
	}
	return acp.ResumeSessionResponse{ConfigOptions: models("fast-1")}, nil
}

func (a *agent) LoadSession(ctx context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	if err := a.reopen(ctx, p.SessionId, p.Cwd, p.McpServers, true); err != nil {
		return acp.LoadSessionResponse{}, err
	}
	return acp.LoadSessionResponse{ConfigOptions: models("fast-1")}, nil
}

func (a *agent) SetSessionConfigOption(_ context.Context, p acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	v := p.ValueId
	if v == nil || v.ConfigId != "model" || (v.Value != "fast-1" && v.Value != "deep-2") {
		return acp.SetSessionConfigOptionResponse{}, acp.NewInvalidParams("no such option or value")
	}
	a.mu.Lock()
	s := a.sessions[v.SessionId]
	if s != nil {
		s.model = string(v.Value)
	}
	a.mu.Unlock()
	return acp.SetSessionConfigOptionResponse{ConfigOptions: models(string(v.Value))}, nil
}

func (a *agent) SetSessionMode(_ context.Context, p acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	if p.ModeId != "default" && p.ModeId != "plan" {
		return acp.SetSessionModeResponse{}, acp.NewInvalidParams("no such mode")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.sessions[p.SessionId]; s != nil {
		s.mode = string(p.ModeId)
	}
	return acp.SetSessionModeResponse{}, nil
}

func (a *agent) Cancel(_ context.Context, p acp.CancelNotification) error {
	a.mu.Lock()
	s := a.sessions[p.SessionId]
	a.mu.Unlock()
	if s != nil && s.cancel != nil {
		s.cancel()
	}
	return nil
}

func (a *agent) say(ctx context.Context, id acp.SessionId, u acp.SessionUpdate) {
	_ = a.peer().SessionUpdate(ctx, acp.SessionNotification{SessionId: id, Update: u})
}

func (a *agent) Prompt(_ context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	a.mu.Lock()
	s := a.sessions[p.SessionId]
	a.mu.Unlock()
	if s == nil {
		return acp.PromptResponse{}, acp.NewInvalidParams("no such session")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.mu.Lock()
	s.cancel = cancel
	a.mu.Unlock()
	var text string
	images := 0
	for _, b := range p.Prompt {
		if b.Text != nil {
			text += b.Text.Text
		}
		if b.Image != nil {
			images++
		}
	}
	id := p.SessionId
	// The command is the first word (files the user attached follow the words, after a blank line).
	cmd, rest, _ := strings.Cut(strings.TrimSpace(text), " ")
	if i := strings.IndexAny(cmd, "\n\t"); i >= 0 {
		cmd, rest = cmd[:i], ""
	}
	if cmd != "recall" && s.cwd != "" {
		if err := os.MkdirAll(filepath.Dir(said(s.cwd, id)), 0o700); err == nil {
			if f, err := os.OpenFile(said(s.cwd, id), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
				fmt.Fprintln(f, strings.Join(strings.Fields(text), " "))
				f.Close()
			}
		}
	}
	end := acp.PromptResponse{StopReason: acp.StopReasonEndTurn}
	switch cmd {
	case "hello":
		a.say(ctx, id, acp.UpdateAgentThoughtText("The user greets me."))
		a.say(ctx, id, acp.UpdatePlan(
			acp.PlanEntry{Content: "Read the notes", Status: acp.PlanEntryStatusCompleted, Priority: acp.PlanEntryPriorityHigh},
			acp.PlanEntry{Content: "Answer", Status: acp.PlanEntryStatusInProgress, Priority: acp.PlanEntryPriorityMedium}))
		a.say(ctx, id, acp.StartToolCall("t1", "Reading notes.md", acp.WithStartKind(acp.ToolKindRead),
			acp.WithStartStatus(acp.ToolCallStatusPending), acp.WithStartLocations([]acp.ToolCallLocation{{Path: "notes.md"}})))
		a.say(ctx, id, acp.UpdateToolCall("t1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("one\ntwo"))})))
		// Claude's agent (claude-agent-acp 0.101.0) tells the context window and the session's
		// cost so far, and ends the turn with its usage and _meta.quota beside it.
		a.say(ctx, id, acp.SessionUpdate{UsageUpdate: &acp.SessionUsageUpdate{SessionUpdate: "usage_update", Used: 1200, Size: 200000,
			Cost: &acp.Cost{Amount: 0.0123, Currency: "USD"}}})
		a.say(ctx, id, acp.SessionUpdate{SessionInfoUpdate: &acp.SessionSessionInfoUpdate{SessionUpdate: "session_info_update", Title: acp.Ptr("Greetings")}})
		raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{
			"sessionId": id, "update": map[string]any{"sessionUpdate": "hologram_update", "beam": 3}}})
		_, _ = a.out.Write(append(raw, '\n'))
		a.say(ctx, id, acp.UpdateAgentMessageText("Hello"))
		a.say(ctx, id, acp.UpdateAgentMessageText(fmt.Sprintf(" from the test agent (%d images).", images)))
		end.Usage = &acp.Usage{InputTokens: 1150, OutputTokens: 42, CachedReadTokens: acp.Ptr(800), CachedWriteTokens: acp.Ptr(0), TotalTokens: 1992}
		end.Meta = quota("claude-test-model", 1150, 42)
	case "counted":
		// Gemini CLI (0.61.0) ends a turn with _meta.quota only.
		a.say(ctx, id, acp.UpdateAgentMessageText("counted"))
		end.Meta = quota("gemini-test-model", 300, 20)
	case "ask":
		kind := acp.ToolKind(rest)
		// The client must answer every ask, "cancelled" when the turn is: wait for that answer
		// rather than the turn's context.
		r, err := a.peer().RequestPermission(context.Background(), acp.RequestPermissionRequest{SessionId: id,
			ToolCall: acp.ToolCallUpdate{ToolCallId: "p1", Title: acp.Ptr("Do a " + rest), Kind: &kind},
			Options: []acp.PermissionOption{
				{OptionId: "yes", Name: "Allow", Kind: acp.PermissionOptionKindAllowOnce},
				{OptionId: "always", Name: "Always allow", Kind: acp.PermissionOptionKindAllowAlways},
				{OptionId: "no", Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce},
			}})
		switch {
		case err != nil:
			a.say(ctx, id, acp.UpdateAgentMessageText("error: "+err.Error()))
		case r.Outcome.Cancelled != nil:
			a.say(context.Background(), id, acp.UpdateAgentMessageText("cancelled")) // the turn's ctx is done
			end.StopReason = acp.StopReasonCancelled
		case r.Outcome.Selected != nil:
			a.say(ctx, id, acp.UpdateAgentMessageText("chose "+string(r.Outcome.Selected.OptionId)))
		}
	case "read":
		r, err := a.peer().ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: id, Path: rest})
		if err != nil {
			a.say(ctx, id, acp.UpdateAgentMessageText("error: "+err.Error()))
		} else {
			a.say(ctx, id, acp.UpdateAgentMessageText("read: "+r.Content))
		}
	case "write":
		path, content, _ := strings.Cut(rest, " ")
		a.say(ctx, id, acp.StartToolCall("w1", "Writing "+path, acp.WithStartKind(acp.ToolKindEdit),
			acp.WithStartContent([]acp.ToolCallContent{acp.ToolDiffContent(path, content)}), acp.WithStartLocations([]acp.ToolCallLocation{{Path: path}})))
		_, err := a.peer().WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: id, Path: path, Content: content})
		status := acp.ToolCallStatusCompleted
		if err != nil {
			status = acp.ToolCallStatusFailed
			a.say(ctx, id, acp.UpdateAgentMessageText("error: "+err.Error()))
		} else {
			a.say(ctx, id, acp.UpdateAgentMessageText("wrote "+path))
		}
		a.say(ctx, id, acp.UpdateToolCall("w1", acp.WithUpdateStatus(status)))
	case "browse":
		tool, args, _ := strings.Cut(rest, " ")
		out, err := a.browse(ctx, s, tool, args)
		if err != nil {
			a.say(ctx, id, acp.UpdateAgentMessageText("error: "+err.Error()))
		} else {
			a.say(ctx, id, acp.UpdateAgentMessageText("browser: "+out))
		}
	case "story":
		a.say(ctx, id, acp.UpdateAgentMessageText("The fox lives by the river.\n\nIt fishes"))
		for ctx.Err() == nil {
			if _, err := os.Stat(filepath.Join(s.cwd, "go-on")); err == nil {
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
		if ctx.Err() != nil {
			end.StopReason = acp.StopReasonCancelled
			break
		}
		a.say(ctx, id, acp.UpdateAgentMessageText(" at dawn.\n\nThat is all."))
	case "slow":
		a.say(ctx, id, acp.UpdateAgentMessageText("Working"))
		<-ctx.Done()
		end.StopReason = acp.StopReasonCancelled
	case "crash":
		// Last words first ("crash loud": long enough to be still in the pipe when the
		// process is gone).
		words := "Going down."
		if rest == "loud" {
			words = "Going down" + strings.Repeat(".", 48<<10)
		}
		a.say(ctx, id, acp.UpdateAgentMessageText(words))
		fmt.Fprintln(os.Stderr, "test agent: crashing on purpose")
		os.Exit(3)
	case "recall":
		b, _ := os.ReadFile(said(s.cwd, id))
		a.say(ctx, id, acp.UpdateAgentMessageText("you said: "+strings.Join(strings.Split(strings.TrimSpace(string(b)), "\n"), " | ")))
	case "model":
		a.say(ctx, id, acp.UpdateAgentMessageText("model: "+s.model))
	case "mode":
		a.say(ctx, id, acp.UpdateAgentMessageText("mode: "+s.mode))
	case "leave-plan":
		// The agent changes its own mode, as Claude Code leaves plan mode: the client is told.
		a.mu.Lock()
		s.mode = "default"
		a.mu.Unlock()
		a.say(ctx, id, acp.SessionUpdate{CurrentModeUpdate: &acp.SessionCurrentModeUpdate{SessionUpdate: "current_mode_update", CurrentModeId: "default"}})
		a.say(ctx, id, acp.UpdateAgentMessageText("left plan mode"))
	default:
		a.say(ctx, id, acp.UpdateAgentMessageText("echo: "+text))
	}
	return end, nil
}

// quota is a turn's _meta.quota as Gemini CLI and Claude's agent send it.
func quota(model string, in, out int) map[string]any {
	count := map[string]any{"input_tokens": in, "output_tokens": out}
	return map[string]any{"quota": map[string]any{"token_count": count,
		"model_usage": []any{map[string]any{"model": "small-helper", "token_count": map[string]any{"input_tokens": 10, "output_tokens": 1}},
			map[string]any{"model": model, "token_count": count}}}}
}

// browse calls a tool of the first MCP server session/new gave (HTTP with its headers).
func (a *agent) browse(ctx context.Context, s *session, tool, args string) (string, error) {
	var h *acp.McpServerHttpInline
	for _, m := range s.mcp {
		if m.Http != nil {
			h = m.Http
		}
	}
	if h == nil {
		return "", fmt.Errorf("no MCP server over HTTP was given")
	}
	hc := &http.Client{Transport: headers{h.Headers}}
	c := mcp.NewClient(&mcp.Implementation{Name: "skiff-test-agent", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.Url, HTTPClient: hc}, nil)
	if err != nil {
		return "", err
	}
	defer cs.Close()
	var m map[string]any
	if args != "" {
		if err := json.Unmarshal([]byte(args), &m); err != nil {
			return "", err
		}
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: m})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	if r.IsError {
		return "tool error: " + b.String(), nil
	}
	return b.String(), nil
}

type headers struct{ hs []acp.HttpHeader }

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for _, x := range h.hs {
		r.Header.Set(x.Name, x.Value)
	}
	return http.DefaultTransport.RoundTrip(r)
}
