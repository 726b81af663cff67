package daemon

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/skiff-ai/skiff/internal/acphost"
	"github.com/skiff-ai/skiff/internal/attach"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
)

// AgentSettings are the ACP agents skiffd hosts and the one folder they may use.
type AgentSettings struct {
	// Agents are added to the presets (a preset's name replaces it).
	Agents []acphost.Spec `json:"agents,omitempty"`
	// Folder is the only folder agents may read and write, chosen by the user here (never by
	// a client). Empty: no files.
	Folder string `json:"folder,omitempty"`
	// Dotfiles shares names starting with a dot (never .git).
	Dotfiles bool `json:"dotfiles,omitempty"`
}

// Specs are the agents skiffd knows: the presets and the configured ones.
func (c *Config) Specs() []acphost.Spec {
	out := append([]acphost.Spec(nil), acphost.Presets...)
	for _, s := range c.AgentSettings.Agents {
		replaced := false
		for i := range out {
			if out[i].Name == s.Name {
				out[i], replaced = s, true
			}
		}
		if !replaced {
			out = append(out, s)
		}
	}
	return out
}

// Agents hosts ACP agents for the extension's chats: one process per agent, started at its
// first chat, one ACP session per chat. An agent's browser-tool calls come back through
// skiffd's MCP endpoint with a token of its own, so the gate names it; its questions and
// events go to the extension over the link.
type Agents struct {
	cfg *Config
	hub *Hub

	mu       sync.Mutex
	running  map[string]*acphost.Agent // by name
	starting map[string]chan struct{}
	chats    map[string]string // Skiff chat id → agent name
	tokens   map[string]string // an agent's MCP token → its title
	files    *acphost.Files
	audit    *os.File
	web      *Web                  // the web client, whose chats' questions it answers
	askers   map[string]*link.Peer // chats the web client opened → that client
	titles   map[string]string     // chats' titles, as their agents named them
}

// NewAgents makes the host; its methods are added to the hub's.
func NewAgents(cfg *Config, hub *Hub) *Agents {
	a := &Agents{cfg: cfg, hub: hub, running: map[string]*acphost.Agent{}, starting: map[string]chan struct{}{},
		chats: map[string]string{}, tokens: map[string]string{}, askers: map[string]*link.Peer{}, titles: map[string]string{}}
	a.Handle(hub.Handlers, nil)
	return a
}

// Handle adds the agents' methods to hs: the extension's link and each web client's link serve
// the same ones. opened, when set, is told of each chat the link opened.
func (a *Agents) Handle(hs link.Handlers, opened func(session string)) {
	link.AgentList.Handle(hs, func(context.Context, struct{}) ([]link.AgentInfo, error) { return a.List(), nil })
	link.AgentOpen.Handle(hs, func(ctx context.Context, p link.AgentOpenParams) (link.AgentOpened, error) {
		o, err := a.Open(ctx, p.Agent, p.Session, p.Resume)
		if err == nil && opened != nil {
			opened(p.Session)
		}
		return o, err
	})
	link.AgentSessions.Handle(hs, func(ctx context.Context, p link.AgentName) (link.AgentSessionList, error) {
		return a.Sessions(ctx, p.Agent)
	})
	link.AgentContinue.Handle(hs, func(ctx context.Context, p link.AgentContinueParams) (link.AgentContinued, error) {
		c, err := a.Continue(ctx, p)
		if err == nil && opened != nil {
			opened(p.Session)
		}
		return c, err
	})
	link.AgentPrompt.Handle(hs, func(ctx context.Context, p link.AgentPromptParams) (link.AgentPromptResult, error) {
		return a.Prompt(ctx, p)
	})
	link.AgentCancel.Handle(hs, func(ctx context.Context, p link.AgentSession) (struct{}, error) {
		return struct{}{}, a.Cancel(ctx, p.Session)
	})
	link.AgentOption.Handle(hs, func(ctx context.Context, p link.AgentOptionParams) ([]link.ConfigOption, error) {
		ag, err := a.chat(p.Session)
		if err != nil {
			return nil, err
		}
		return ag.SetOption(ctx, p.Session, p.Option, p.Value)
	})
	link.AgentLog.Handle(hs, func(_ context.Context, p link.AgentName) (string, error) {
		a.mu.Lock()
		ag := a.running[p.Agent]
		a.mu.Unlock()
		if ag == nil {
			return "", nil
		}
		own, notes := ag.Log()
		if notes != "" {
			own += "\n" + link.NotesHeading + "\n" + notes
		}
		return own, nil
	})
	link.AgentFiles.Handle(hs, func(_ context.Context, p link.FilePath) ([]link.FileEntry, error) {
		f, err := a.folder()
		if err != nil {
			return nil, err
		}
		return f.List(p.Path)
	})
	link.AgentFile.Handle(hs, func(_ context.Context, p link.FilePath) (string, error) {
		f, err := a.folder()
		if err != nil {
			return "", err
		}
		return f.Read(p.Path, 0, 0)
	})
}

// List is every agent skiffd knows, installed or not.
func (a *Agents) List() []link.AgentInfo {
	var out []link.AgentInfo
	for _, s := range a.cfg.Specs() {
		_, ok := s.Installed()
		a.mu.Lock()
		_, running := a.running[s.Name]
		a.mu.Unlock()
		out = append(out, link.AgentInfo{Name: s.Name, Title: s.Title, Installed: ok, Command: strings.Join(s.Command, " "), Running: running})
	}
	return out
}

func (a *Agents) folder() (*acphost.Files, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.files != nil {
		return a.files, nil
	}
	f, err := acphost.OpenFiles(a.cfg.AgentSettings.Folder, a.cfg.AgentSettings.Dotfiles)
	if err != nil {
		return nil, err
	}
	a.files = f
	return f, nil
}

// agent is the running agent name, started if it is not.
func (a *Agents) agent(ctx context.Context, name string) (*acphost.Agent, error) {
	for {
		a.mu.Lock()
		if ag := a.running[name]; ag != nil {
			select {
			case <-ag.Done(): // it exited: start a new one
				delete(a.running, name)
				for chat, n := range a.chats {
					if n == name {
						delete(a.chats, chat)
					}
				}
			default:
				a.mu.Unlock()
				return ag, nil
			}
		}
		if wait := a.starting[name]; wait != nil {
			a.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		done := make(chan struct{})
		a.starting[name] = done
		a.mu.Unlock()
		ag, err := a.start(ctx, name)
		a.mu.Lock()
		delete(a.starting, name)
		if ag != nil {
			a.running[name] = ag
		}
		close(done)
		a.mu.Unlock()
		return ag, err
	}
}

func (a *Agents) start(ctx context.Context, name string) (*acphost.Agent, error) {
	var spec *acphost.Spec
	for _, s := range a.cfg.Specs() {
		if s.Name == name {
			spec = &s
		}
	}
	if spec == nil {
		return nil, sayNoSuchAgent.Error(name)
	}
	files, _ := a.folder() // none chosen: the agent gets no files
	token := NewToken("ska_")
	title := spec.Title
	if title == "" {
		title = spec.Name
	}
	a.mu.Lock()
	a.tokens[token] = title
	a.mu.Unlock()
	h := &acphost.Host{
		Files: files,
		Ask:   askVia{a},
		Emit: func(e acphost.Event) {
			if e.Kind == "info" {
				a.mu.Lock()
				a.titles[e.Session] = e.Text
				a.mu.Unlock()
			}
			_ = a.hub.Notify(context.Background(), link.AgentEvents.Name, e)
			if a.web != nil {
				a.web.broadcast(e)
			}
		},
		MCP: func(_ acphost.Spec, http bool) []acp.McpServer {
			if http {
				return []acp.McpServer{{Http: &acp.McpServerHttpInline{Name: "skiff", Type: "http",
					Url:     "http://127.0.0.1:" + strconv.Itoa(a.cfg.Port) + "/mcp",
					Headers: []acp.HttpHeader{{Name: "Authorization", Value: "Bearer " + token}}}}}
			}
			exe, _ := os.Executable()
			return []acp.McpServer{{Stdio: &acp.McpServerStdio{Name: "skiff", Command: exe, Args: []string{"stdio"},
				Env: []acp.EnvVariable{{Name: "SKIFFD_AGENT_TOKEN", Value: token}}}}}
		},
		Audit: a.record,
	}
	ag, err := h.Start(ctx, *spec)
	if err != nil {
		a.mu.Lock()
		delete(a.tokens, token)
		a.mu.Unlock()
		return nil, err
	}
	go func() {
		<-ag.Done()
		a.mu.Lock()
		delete(a.tokens, token)
		a.mu.Unlock()
	}()
	return ag, nil
}

// AgentFor names the agent whose MCP token tok is ("" when it is none).
func (a *Agents) AgentFor(tok string) string {
	if a == nil {
		return ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for t, title := range a.tokens {
		if subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1 {
			return title
		}
	}
	return ""
}

// Open starts agent if needed and opens a session for the chat; resume is the agent's session
// id the chat had before, if any (acphost.Agent.Open).
func (a *Agents) Open(ctx context.Context, agent, chat, resume string) (link.AgentOpened, error) {
	ag, err := a.agent(ctx, agent)
	if err != nil {
		return link.AgentOpened{}, err
	}
	a.mu.Lock()
	have := a.chats[chat] == agent
	a.mu.Unlock()
	images := ag.Info.AgentCapabilities.PromptCapabilities.Image
	if have {
		return link.AgentOpened{AgentSession: ag.SessionOf(chat), Images: images}, nil
	}
	sid, how, err := ag.Open(ctx, chat, resume)
	if err != nil {
		return link.AgentOpened{}, err
	}
	a.mu.Lock()
	a.chats[chat] = agent
	a.mu.Unlock()
	return link.AgentOpened{AgentSession: sid, How: how, Images: images}, nil
}

// MaxListed bounds the sessions an agent's list gives.
const MaxListed = 200

// Sessions is the agent's own sessions in the shared folder, newest first as the agent orders
// them; the agent starts if it is not running.
func (a *Agents) Sessions(ctx context.Context, agent string) (link.AgentSessionList, error) {
	ag, err := a.agent(ctx, agent)
	if err != nil {
		return link.AgentSessionList{}, err
	}
	list, err := ag.ListSessions(ctx, MaxListed)
	if errors.Is(err, acphost.ErrNoList) {
		return link.AgentSessionList{Sessions: []link.AgentSessionInfo{}}, nil
	}
	if err != nil {
		return link.AgentSessionList{}, err
	}
	out := link.AgentSessionList{Listed: true, Sessions: []link.AgentSessionInfo{}}
	for _, s := range list {
		s.Open = ag.ChatOf(s.ID)
		out.Sessions = append(out.Sessions, s)
	}
	return out, nil
}

// Continue opens one of the agent's own sessions as a new chat.
func (a *Agents) Continue(ctx context.Context, p link.AgentContinueParams) (link.AgentContinued, error) {
	ag, err := a.agent(ctx, p.Agent)
	if err != nil {
		return link.AgentContinued{}, err
	}
	a.mu.Lock()
	_, taken := a.chats[p.Session]
	a.mu.Unlock()
	if taken {
		return link.AgentContinued{}, sayChatHasOne.Error()
	}
	if ag.ChatOf(p.AgentSession) != "" {
		return link.AgentContinued{}, sayOpenElsewhere.Error()
	}
	_, history, err := ag.Continue(ctx, p.Session, p.AgentSession)
	if err != nil {
		return link.AgentContinued{}, err
	}
	a.mu.Lock()
	a.chats[p.Session] = p.Agent
	a.mu.Unlock()
	return link.AgentContinued{History: history, Images: ag.Info.AgentCapabilities.PromptCapabilities.Image}, nil
}

func (a *Agents) chat(id string) (*acphost.Agent, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	name, ok := a.chats[id]
	if !ok {
		return nil, sayNotRunning.Error()
	}
	ag := a.running[name]
	if ag == nil {
		return nil, sayAgentStopped.Error()
	}
	return ag, nil
}

// Prompt sends the user's message to the chat's agent and waits for the turn's end.
func (a *Agents) Prompt(ctx context.Context, p link.AgentPromptParams) (link.AgentPromptResult, error) {
	ag, err := a.chat(p.Session)
	if err != nil {
		return link.AgentPromptResult{}, err
	}
	takes := ag.Info.AgentCapabilities.PromptCapabilities.Image
	text, images, err := withAttached(p, takes, ag.Spec.Title)
	if err != nil {
		return link.AgentPromptResult{}, err
	}
	return ag.Prompt(ctx, p.Session, text, images)
}

// withAttached is the prompt's text and pictures with what the client attached, checked as
// the core checks the panel's: each file's text in a block of its own after the words (its
// mark drawn here, unknown to the file's author), each picture after the others; a picture
// for an agent that takes none is a sentence, and nothing goes.
func withAttached(p link.AgentPromptParams, takes bool, agent string) (string, []link.Image64, error) {
	text, images := p.Text, p.Images
	if len(p.Attached) == 0 {
		return text, images, nil
	}
	if err := attach.CheckCount(len(images) + len(p.Attached)); err != nil {
		return "", nil, err
	}
	var docs []string
	for _, it := range p.Attached {
		c, err := it.Checked()
		if err != nil {
			return "", nil, err
		}
		if attach.IsDocument(c.Mime) {
			docs = append(docs, attach.Block(c.Name, string(c.Data), c.Pages, c.Cut, rand.Text()[:8]))
			continue
		}
		if !takes {
			return "", nil, sayNoPictures.Error(i18n.Verbatim(agent), i18n.Verbatim(c.Name))
		}
		images = append(images, link.Image64{Mime: c.Mime, Data: base64.StdEncoding.EncodeToString(c.Data)})
	}
	for _, d := range docs {
		text += "\n\n" + d
	}
	return text, images, nil
}

// Cancel stops the chat's turn.
func (a *Agents) Cancel(ctx context.Context, chat string) error {
	ag, err := a.chat(chat)
	if err != nil {
		return nil // nothing runs
	}
	return ag.Cancel(ctx, chat)
}

// Close stops every agent.
func (a *Agents) Close() {
	a.mu.Lock()
	ags := a.running
	a.running = map[string]*acphost.Agent{}
	a.mu.Unlock()
	for _, ag := range ags {
		ag.Close()
	}
}

// record appends a file action to the agents' audit log (agents-audit.jsonl beside the
// configuration).
func (a *Agents) record(agent, action, path string, allowed bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.audit == nil {
		f, err := os.OpenFile(filepath.Join(a.cfg.dir, "agents-audit.jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return
		}
		a.audit = f
	}
	b, _ := json.Marshal(map[string]any{"at": time.Now().UnixMilli(), "agent": agent, "action": action, "path": path, "allowed": allowed})
	_, _ = a.audit.Write(append(b, '\n'))
}

// askVia asks the user where the chat is: the web client that opened it, else the extension,
// in the agent's chat.
type askVia struct{ a *Agents }

func (v askVia) Ask(ctx context.Context, q acphost.Question) (string, error) {
	v.a.mu.Lock()
	web := v.a.askers[q.Session]
	v.a.mu.Unlock()
	if web != nil {
		return link.AgentAsk.Call(ctx, web, q)
	}
	l := v.a.hub.link(ctx, LinkWait)
	if l == nil {
		return "", ErrNoBrowser
	}
	return link.AgentAsk.Call(ctx, l.peer, q)
}
