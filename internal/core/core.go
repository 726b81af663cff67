// Package core is the service worker's brain as plain Go: the message protocol the panel
// speaks over its runtime Port, dispatched to the store and the agent engine. wasm/ wires it to
// chrome.runtime ports, chrome.storage and fetch; tests drive it with a memory KV and local
// HTTP servers.
//
// Every message is a JSON object with a "type". A message with an "id" gets exactly one
// {"type":"reply","id","ok","result"|"error"}. Streaming progress is pushed to every connected
// panel as {"type":"session"|"delta"|"done", ...} (agent.Update).
package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// Conn is a connected panel. Send must not block for long; it is called from the goroutine
// that streams a reply.
type Conn interface {
	Send(msg []byte)
}

// Rules lets local model servers (Ollama, LM Studio) accept the extension's requests: they
// reject any Origin they do not know, and an extension's origin is chrome-extension://<id>.
// The browser implementation installs declarativeNetRequest rules that drop the Origin header
// on the extension's own requests to exactly these hosts.
type Rules interface {
	SetLocalHosts(ctx context.Context, hosts []string) error
}

// Core dispatches panel messages.
type Core struct {
	Store  *store.Store
	Engine *agent.Engine
	Doer   provider.Doer
	Rules  Rules // may be nil

	mu    sync.Mutex
	conns map[Conn]bool
}

// New returns a Core over kv, doing HTTP with d.
func New(ctx context.Context, kv store.KV, d provider.Doer, rules Rules) (*Core, error) {
	st, err := store.Open(ctx, kv)
	if err != nil {
		return nil, err
	}
	c := &Core{Store: st, Engine: agent.New(st, d), Doer: d, Rules: rules, conns: map[Conn]bool{}}
	// Off the wake path: session rules outlive the worker, so this only matters after a browser
	// restart, and a first request racing it at worst gets the clear "origin" error.
	go func() {
		if s, err := st.Settings(ctx); err == nil {
			c.applyRules(ctx, s)
		}
	}()
	return c, nil
}

// Connect registers a panel for pushed updates.
func (c *Core) Connect(conn Conn) {
	c.mu.Lock()
	c.conns[conn] = true
	c.mu.Unlock()
}

// Disconnect forgets a panel. Streams keep running: their output is stored.
func (c *Core) Disconnect(conn Conn) {
	c.mu.Lock()
	delete(c.conns, conn)
	c.mu.Unlock()
}

func (c *Core) broadcast(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.mu.Lock()
	conns := make([]Conn, 0, len(c.conns))
	for k := range c.conns {
		conns = append(conns, k)
	}
	c.mu.Unlock()
	for _, k := range conns {
		k.Send(b)
	}
}

type request struct {
	ID        json.RawMessage `json:"id"`
	Type      string          `json:"type"`
	SessionID string          `json:"sessionId"`
	Text      string          `json:"text"`
	Provider  string          `json:"provider"`
	Settings  *store.Settings `json:"settings"`
	// Keys holds API keys to change: a string sets one, "" removes it; absent keys are kept.
	Keys     map[string]string `json:"keys"`
	Page     *store.Page       `json:"page"`
	Title    string            `json:"title"`
	Query    string            `json:"query"`
	Format   string            `json:"format"` // session.export: "json" or "markdown"
	Data     string            `json:"data"`   // session.import: the file's text
	MemoryID string            `json:"memoryId"`
	Content  string            `json:"content"`
	Key      string            `json:"key"`     // provider.test: a key not saved yet
	BaseURL  string            `json:"baseURL"` // provider.test: a base URL not saved yet
}

type reply struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id"`
	OK     bool            `json:"ok"`
	Result any             `json:"result,omitempty"`
	Error  *replyError     `json:"error,omitempty"`
}

type replyError struct {
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

// Handle processes one message from conn. It returns once the message is dispatched; a "send"
// keeps streaming in its own goroutine.
func (c *Core) Handle(ctx context.Context, conn Conn, msg []byte) {
	var req request
	if err := json.Unmarshal(msg, &req); err != nil {
		c.answer(conn, nil, nil, fmt.Errorf("unreadable message: %w", err))
		return
	}
	switch req.Type {
	case "send", "regenerate", "edit":
		// Answered as soon as the user message is stored; the reply streams as updates.
		go func() {
			started := false
			emit := func(u agent.Update) {
				if u.Type == "session" && !started {
					started = true
					c.answer(conn, req.ID, map[string]string{"sessionId": u.SessionID}, nil)
				}
				c.broadcast(u)
			}
			var err error
			switch req.Type {
			case "send":
				err = c.Engine.Send(ctx, req.SessionID, req.Text, req.Page, emit)
			case "edit":
				err = c.Engine.Edit(ctx, req.SessionID, req.Text, emit)
			default:
				err = c.Engine.Regenerate(ctx, req.SessionID, emit)
			}
			if err != nil && !started {
				c.answer(conn, req.ID, nil, err)
			}
		}()
		return
	}
	res, err := c.dispatch(ctx, &req)
	c.answer(conn, req.ID, res, err)
}

func (c *Core) answer(conn Conn, id json.RawMessage, res any, err error) {
	if id == nil {
		return
	}
	r := reply{Type: "reply", ID: id, OK: err == nil, Result: res}
	if err != nil {
		r.Error = &replyError{Message: err.Error()}
		var fe *store.FieldError
		if errors.As(err, &fe) {
			r.Error.Field, r.Error.Message = fe.Field, fe.Message
		}
	}
	b, _ := json.Marshal(r)
	conn.Send(b)
}

// State is what a panel needs to draw itself.
type State struct {
	Providers []provider.Provider `json:"providers"`
	Settings  PublicSettings      `json:"settings"`
	Sessions  []store.Meta        `json:"sessions"`
	Active    *store.Session      `json:"active"`
	Streaming []string            `json:"streaming"` // session ids with a stream in flight
}

// PublicSettings are the settings without the keys: the panel learns only which providers
// have one.
type PublicSettings struct {
	store.Settings
	APIKeys struct{}        `json:"apiKeys,omitzero"`
	HasKey  map[string]bool `json:"hasKey"`
}

func public(s store.Settings) PublicSettings {
	ps := PublicSettings{Settings: s, HasKey: map[string]bool{}}
	for id, k := range s.APIKeys {
		if k != "" {
			ps.HasKey[id] = true
		}
	}
	ps.Settings.APIKeys = nil
	return ps
}

func (c *Core) dispatch(ctx context.Context, req *request) (any, error) {
	switch req.Type {
	case "ping":
		return "pong", nil
	case "hello":
		return c.state(ctx)
	case "stop":
		return c.Engine.Stop(req.SessionID), nil
	case "session.new":
		return c.Engine.NewSession(ctx)
	case "session.open":
		ses, err := c.Engine.Session(ctx, req.SessionID)
		if err != nil {
			return nil, err
		}
		return ses, c.Store.SetActive(ctx, ses.ID)
	case "session.list":
		return c.Store.Sessions(ctx)
	case "session.search":
		return c.Store.Search(ctx, req.Query)
	case "session.rename":
		if c.Engine.Running(req.SessionID) {
			return nil, errors.New("wait for the reply to finish (or stop it) before renaming this chat")
		}
		ses, err := c.Store.RenameSession(ctx, req.SessionID, req.Title)
		if err != nil {
			return nil, err
		}
		return ses.Meta(), nil
	case "session.export":
		return c.export(ctx, req)
	case "session.import":
		return c.importFile(ctx, req.Data)
	case "memory.list":
		return c.Store.Memories(ctx)
	case "memory.add":
		return c.Store.AddMemory(ctx, store.Memory{ID: agent.NewID(), Content: req.Content, Source: store.SourceUser, CreatedAt: c.Engine.Now().UnixMilli()})
	case "memory.update":
		return c.Store.UpdateMemory(ctx, req.MemoryID, req.Content, c.Engine.Now().UnixMilli())
	case "memory.delete":
		return nil, c.Store.DeleteMemory(ctx, req.MemoryID)
	case "provider.test":
		return c.testProvider(ctx, req)
	case "detect":
		return c.detect(ctx), nil
	case "session.delete":
		c.Engine.Stop(req.SessionID)
		if err := c.Store.DeleteSession(ctx, req.SessionID); err != nil {
			return nil, err
		}
		if active, err := c.Store.Active(ctx); err == nil && active == req.SessionID {
			return nil, c.Store.SetActive(ctx, "")
		}
		return nil, nil
	case "settings.save":
		return c.saveSettings(ctx, req)
	case "models":
		return c.models(ctx, req.Provider)
	}
	return nil, fmt.Errorf("unknown message type %q", req.Type)
}

func (c *Core) state(ctx context.Context) (*State, error) {
	s, err := c.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	st := &State{Providers: provider.All(), Settings: public(s), Streaming: []string{}}
	if st.Sessions, err = c.Store.Sessions(ctx); err != nil {
		return nil, err
	}
	active, err := c.Store.Active(ctx)
	if err != nil {
		return nil, err
	}
	if active != "" {
		if st.Active, err = c.Engine.Session(ctx, active); errors.Is(err, store.ErrNotFound) {
			err = nil
		}
		if err != nil {
			return nil, err
		}
		if c.Engine.Running(active) {
			st.Streaming = append(st.Streaming, active)
		}
	}
	return st, nil
}

func (c *Core) saveSettings(ctx context.Context, req *request) (any, error) {
	if req.Settings == nil {
		return nil, errors.New("settings.save: no settings")
	}
	old, err := c.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	s := *req.Settings
	s.APIKeys = old.APIKeys // the panel never holds keys; it only sends changes (never nil: Settings fills it)
	for id, k := range req.Keys {
		if _, ok := provider.Lookup(id); !ok {
			return nil, &store.FieldError{Field: "key." + id, Message: "unknown provider"}
		}
		if k == "" {
			delete(s.APIKeys, id)
		} else {
			s.APIKeys[id] = k
		}
	}
	if err := c.Store.SaveSettings(ctx, s); err != nil {
		return nil, err
	}
	c.applyRules(ctx, s)
	return public(s), nil
}

// applyRules points the Origin-dropping rules at the local servers the settings use.
func (c *Core) applyRules(ctx context.Context, s store.Settings) {
	if c.Rules == nil {
		return
	}
	_ = c.Rules.SetLocalHosts(ctx, LocalHosts(s))
}

// LocalHosts returns the host:port of every local model server the settings point at:
// Ollama's and LM Studio's base URLs, and any base URL on a loopback address.
func LocalHosts(s store.Settings) []string {
	var hosts []string
	seen := map[string]bool{}
	for _, p := range provider.All() {
		q, err := p.WithBaseURL(s.BaseURLs[p.ID])
		if err != nil || q.BaseURL == "" {
			continue
		}
		h := q.Host()
		if (q.Local || isLoopback(h)) && !seen[h] {
			seen[h] = true
			hosts = append(hosts, h)
		}
	}
	return hosts
}

func isLoopback(hostport string) bool {
	h := hostport
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
		h = h[:i]
	}
	h = strings.Trim(h, "[]")
	if h == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}
