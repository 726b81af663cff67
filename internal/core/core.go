// Package core is the service worker's brain as plain Go: the message protocol the panel
// speaks over its runtime Port (protocol.go), dispatched to the store and the agent engine, and
// the one place where errors become sentences for the user (errors.go). wasm/ wires it to
// chrome.runtime ports, chrome.storage and fetch; tests drive it with a memory KV and local
// HTTP servers.
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
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Conn is a connected panel. Send must not block for long; it is called from the goroutine
// that streams a reply.
type Conn interface {
	Send(msg []byte)
	// Role is what the connection is, from the page that opened it: it decides which
	// methods it may call (see allowed).
	Role() Role
}

// Placed is a connection that lives inside a tab: the overlay, whose frame Chrome reports with
// the tab that holds it. The page such a chat is about is always that tab's, whatever window
// or tab its messages name.
type Placed interface {
	Tab() (tabID, windowID int)
}

// Role is the kind of extension page at the other end of a connection.
type Role string

const (
	// RolePanel is the side panel (or the same page opened as a tab): it may call every
	// method.
	RolePanel Role = "panel"
	// RoleOverlay is the chat Skiff shows on top of a page, in a frame a hostile page embeds:
	// the page can place it and lure clicks into it, so it may chat and nothing more (never
	// answer an ask, change settings or permissions, or read other chats).
	RoleOverlay Role = "overlay"
)

// PageRole is the role of the extension page at path (with any query or fragment): the side
// panel's page, or the overlay's. Any other page has none and is refused.
func PageRole(path string) (Role, bool) {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	switch path {
	case "/panel/index.html":
		return RolePanel, true
	case "/panel/overlay.html":
		return RoleOverlay, true
	}
	return "", false
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
	Store   *store.Store
	Engine  *agent.Engine
	Doer    provider.Doer
	Rules   Rules        // may be nil
	Browser tool.Browser // may be nil: no page context, no agent mode
	// Notifier shows that calls wait for the user's answer (a badge, a notification); may be nil.
	Notifier Notifier
	// Dialer opens the link to skiffd; nil: no link.
	Dialer Dialer
	// Alarms wakes the worker for scheduled runs and tells how they went; nil: no schedules run.
	Alarms Alarms

	gate   *permission.Gate
	pages  pages
	link   linker
	bridge bridge
	audits audits

	mu     sync.Mutex
	conns  map[Conn]bool
	warm   sync.Once // the first answer to a chat warms the worker's streaming path (warmUp)
	bootAt int64     // when this worker's core started (unix ms): a run marked as going before it was cut
}

// New returns a Core over kv, doing HTTP with d and working in the browser b (nil: none).
func New(ctx context.Context, kv store.KV, d provider.Doer, rules Rules, b tool.Browser) *Core {
	// The schema check runs while the worker finishes waking: nothing before the first request
	// waits on storage, and every use of the store waits for the check (store.OpenNow).
	st := store.OpenNow(ctx, kv)
	c := &Core{Store: st, Engine: agent.New(st, d), Doer: d, Rules: rules, Browser: b, conns: map[Conn]bool{}}
	c.bootAt = c.Engine.Now().UnixMilli()
	c.link.c, c.bridge.c = c, c
	c.Engine.Browser = b
	c.gate = c.newGate()
	c.Engine.Gate = c.gate
	c.Engine.Hosted = hosted{&c.link}
	return c
}

// Start does, with one read of the settings, what a worker does once it is wired: point the
// Origin rules at the local model servers (session rules outlive the worker, so this only
// matters after a browser restart, and a first request racing it at worst gets the clear
// "origin" error) and bring up the link to skiffd if it is on. wasm/ calls it off the wake
// path, after setting Dialer.
func (c *Core) Start(ctx context.Context) {
	s, err := c.Store.Settings(ctx)
	if err != nil {
		return
	}
	c.applyRules(ctx, s)
	// A change a stopped worker cut half-way (a chat half deleted, attachments stored for a
	// message that never was) is finished or undone.
	_, _ = c.Store.Recover(ctx)
	// Outside calls that were asking when the worker stopped: shown again until skiffd sends
	// them again (they take the answer given meanwhile) or they time out.
	if qs, err := c.Store.Questions(ctx); err == nil && len(qs) > 0 {
		c.gate.Resume(ctx, qs)
		c.gate.Notify(ctx)
	}
	c.startLink(ctx, s.Daemon)
	c.Due(ctx)
}

// Connect registers a panel for pushed updates.
func (c *Core) Connect(conn Conn) {
	c.mu.Lock()
	c.conns[conn] = true
	c.mu.Unlock()
}

// Disconnect forgets a panel. Streams keep running: their output is stored. Calls still
// asking are now announced by a notification when no panel is left to show them.
func (c *Core) Disconnect(conn Conn) {
	c.mu.Lock()
	delete(c.conns, conn)
	c.mu.Unlock()
	if c.gate.Pending() > 0 {
		go agent.Safe("the ask notification", func() { c.gate.Notify(context.Background()) })
	}
}

// panels is how many side panels are connected (an overlay cannot answer an ask).
func (c *Core) panels() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k := range c.conns {
		if k.Role() == RolePanel {
			n++
		}
	}
	return n
}

// broadcast pushes v to every connection: a chat's progress, which the overlay shows too.
func (c *Core) broadcast(v any) { c.push(v, false) }

// broadcastPanels pushes v to the side panels only: the questions waiting for an answer and
// the link's state, which are none of the overlay's business.
func (c *Core) broadcastPanels(v any) { c.push(v, true) }

func (c *Core) push(v any, panelsOnly bool) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.mu.Lock()
	conns := make([]Conn, 0, len(c.conns))
	for k := range c.conns {
		if !panelsOnly || k.Role() == RolePanel {
			conns = append(conns, k)
		}
	}
	c.mu.Unlock()
	for _, k := range conns {
		k.Send(b)
	}
}

// State is what a panel needs to draw itself.
type State struct {
	Providers []provider.Provider   `json:"providers"`
	Settings  PublicSettings        `json:"settings"`
	Sessions  []store.Meta          `json:"sessions"`
	Active    *store.Session        `json:"active"`
	Streaming []string              `json:"streaming"` // session ids with a stream in flight
	Link      LinkStatus            `json:"link"`
	Bridge    LinkStatus            `json:"bridge"`
	Asks      []permission.Question `json:"asks"` // outside clients' calls waiting for an answer
	// ChatAsks are the calls waiting for the user's answer in the chats a run is going in:
	// a panel that opens after they asked (the chat on a page asked, the notification was
	// clicked) lists those of the chats it does not show, so it can answer them.
	ChatAsks []ChatAsk `json:"chatAsks"`
	// Tab is the overlay's own tab, the page its chat is about (0 for the side panel).
	Tab int `json:"tab,omitempty"`
}

// ChatAsk is a tool message asking in a chat, with the chat it is in.
type ChatAsk struct {
	SessionID string        `json:"sessionId"`
	Title     string        `json:"title"`
	Message   store.Message `json:"message"`
}

// PublicSettings are the settings without the keys: the panel learns only which providers
// have one.
type PublicSettings struct {
	store.Settings
	APIKeys struct{}        `json:"apiKeys,omitzero"`
	HasKey  map[string]bool `json:"hasKey"`
	// HasDaemonToken: a pairing token for skiffd is stored (the token itself stays in the core).
	HasDaemonToken bool `json:"hasDaemonToken"`
	// HasBridgeToken: the bridge's token is stored (it stays in the core too).
	HasBridgeToken bool `json:"hasBridgeToken"`
}

func public(s store.Settings) PublicSettings {
	ps := PublicSettings{Settings: s, HasKey: map[string]bool{}}
	for id, k := range s.APIKeys {
		if k != "" {
			ps.HasKey[id] = true
		}
	}
	ps.Settings.APIKeys = nil
	ps.HasDaemonToken = s.Daemon.Token != ""
	ps.Settings.Daemon.Token = ""
	ps.HasBridgeToken = s.Bridge.Token != ""
	ps.Settings.Bridge.Token = ""
	return ps
}

// input is a run's input: the agent's tools start on the tab in front of the user when the
// message is sent (the active tab of the panel's window; the overlay's own tab), as the page
// context does. sent is when the request arrived.
func (c *Core) input(ctx context.Context, p SendParams, sent time.Time) agent.Input {
	tab := placedIn(ctx, &p.WindowID)
	return agent.Input{SessionID: p.SessionID, Text: p.Text, Agent: p.Agent, Plan: p.Plan, WindowID: p.WindowID, TabID: tab, Attach: c.attachFor(p.Attach, p.WindowID, tab, sent)}
}

// incognito reports whether the tab a message is about (tabID, or the active tab of windowID,
// 0: of the last focused window) is in an incognito window: its chat is a private one, kept
// in memory only (store.Private). A browser that cannot say is taken as not incognito: the
// extension is only in incognito windows when the user allows it.
func (c *Core) incognito(ctx context.Context, windowID, tabID int) bool {
	if c.Browser == nil {
		return false
	}
	t, err := c.tabAt(ctx, windowID, tabID)
	return err == nil && t.Incognito
}

// send sends the user's message, or queues it when a run is going in its chat: it is sent
// when the run ends (agent.Engine.Enqueue).
func (c *Core) send(ctx context.Context, p SendParams, emit func(agent.Update)) (err error) {
	sent := time.Now()
	if strings.TrimSpace(p.Text) == "" && len(p.Images) == 0 {
		return agent.ErrEmpty
	}
	// The page it is about is in an incognito window: a new chat is a private one, a kept one
	// does not take it (asked once, before anything is stored).
	incognito := c.incognito(ctx, p.WindowID, placedIn(ctx, new(int)))
	images, kept, err := c.Engine.SaveImages(ctx, p.Images, store.Private(p.SessionID) || incognito, p.SessionID)
	if err != nil {
		return err
	}
	stored := false // the images belong to a message (sent or queued)
	defer func() {
		if !stored {
			_ = c.Store.DeleteImages(context.WithoutCancel(ctx), images...)
		}
		kept()
	}()
	for try := 0; ; try++ {
		if p.SessionID != "" {
			q, queued, err := c.Engine.Enqueue(ctx, p.SessionID, p.Text, images)
			if err != nil {
				return err
			}
			if queued {
				stored = true
				emit(agent.Update{Type: agent.UpdateQueue, SessionID: p.SessionID, Queue: q})
				return nil
			}
		}
		in := c.input(ctx, p, sent)
		in.Images, in.Private = images, incognito
		err := c.Engine.Send(ctx, in, func(u agent.Update) {
			stored = true // the message is stored before the first update
			emit(u)
		})
		if !errors.Is(err, agent.ErrBusy) || try > 0 {
			return err
		}
		// A run started between the two: queue behind it.
	}
}

func (c *Core) queue(ctx context.Context, p SessionRef) ([]store.Queued, error) {
	return c.Store.Queue(ctx, p.SessionID)
}

// editQueued changes or removes a waiting message; every panel is told.
func (c *Core) editQueued(ctx context.Context, p QueueEdit) ([]store.Queued, error) {
	q, err := c.Engine.EditQueued(ctx, p.SessionID, p.ID, p.Text)
	if err == nil {
		c.broadcast(agent.Update{Type: agent.UpdateQueue, SessionID: p.SessionID, Queue: q})
	}
	return q, err
}

// sendQueued sends what waits in a chat now that nothing runs there (after Stop, an error, or
// a worker that stopped).
func (c *Core) sendQueued(ctx context.Context, p SendParams, emit func(agent.Update)) error {
	tab := placedIn(ctx, &p.WindowID)
	return c.Engine.SendQueued(ctx, agent.Input{SessionID: p.SessionID, Agent: p.Agent, WindowID: p.WindowID, TabID: tab}, emit)
}

func (c *Core) edit(ctx context.Context, p SendParams, emit func(agent.Update)) error {
	return c.Engine.Edit(ctx, c.input(ctx, p, time.Now()), emit)
}

func (c *Core) regenerate(ctx context.Context, p SendParams, emit func(agent.Update)) error {
	return c.Engine.Regenerate(ctx, c.input(ctx, p, time.Now()), emit)
}

// showVersion shows another version of a chat's last reply, in every panel.
func (c *Core) showVersion(ctx context.Context, p VersionParams) (*store.Message, error) {
	m, err := c.Engine.ShowVersion(ctx, p.SessionID, p.MessageID, p.Version)
	if err != nil {
		return nil, err
	}
	c.broadcast(agent.Update{Type: agent.UpdateMessage, SessionID: p.SessionID, MessageID: m.ID, Message: m})
	return m, nil
}

// continueReply goes on with the chat's last reply where it was cut.
func (c *Core) continueReply(ctx context.Context, p SendParams, emit func(agent.Update)) error {
	return c.Engine.Continue(ctx, c.input(ctx, p, time.Now()), emit)
}

func (c *Core) stop(_ context.Context, p SessionRef) (bool, error) {
	return c.Engine.Stop(p.SessionID), nil
}

// ForgetPrivate is the last incognito window closing: the private chats' runs stop, and what
// Skiff kept of those chats is dropped, as Chrome drops those windows' history.
func (c *Core) ForgetPrivate(ctx context.Context) {
	// A stopped run stores its end: it is waited for (5 s at most), so that what it stored
	// goes with the chats; the store refuses the saves of one that holds on longer.
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	c.Engine.StopAll(wait, store.Private)
	cancel()
	_ = c.Store.ForgetPrivate(ctx)
}

// ListParams is what the panel says of itself when it asks for chats: Private when its window
// is incognito (it lists and opens the private chats only; the others, the kept ones).
type ListParams struct {
	Private bool `json:"private"`
}

func (c *Core) newSession(ctx context.Context, p ListParams) (*store.Session, error) {
	if tab := placedIn(ctx, new(int)); tab > 0 {
		p.Private = c.incognito(ctx, 0, tab) // the chat on a page is about its own tab
	}
	return c.Engine.NewSession(ctx, p.Private)
}

func (c *Core) openSession(ctx context.Context, p SessionRef) (*store.Session, error) {
	ses, err := c.Engine.Session(ctx, p.SessionID)
	if err != nil || roleOf(ctx) != RolePanel {
		return ses, err // the overlay opening its chat does not change the panel's
	}
	return ses, c.Store.SetActive(ctx, ses.ID)
}

func (c *Core) listSessions(ctx context.Context, p ListParams) ([]store.Meta, error) {
	return c.sessions(ctx, p.Private)
}

// sessions lists the private chats, or the kept ones.
func (c *Core) sessions(ctx context.Context, private bool) ([]store.Meta, error) {
	all, err := c.Store.Sessions(ctx)
	out := all[:0]
	for _, m := range all {
		if store.Private(m.ID) == private {
			out = append(out, m)
		}
	}
	return out, err
}

func (c *Core) search(ctx context.Context, p SearchParams) ([]store.Hit, error) {
	hits, err := c.Store.Search(ctx, p.Query)
	out := hits[:0]
	for _, h := range hits {
		if store.Private(h.ID) == p.Private {
			out = append(out, h)
		}
	}
	return out, err
}

func (c *Core) rename(ctx context.Context, p RenameParams) (*store.Meta, error) {
	if c.Engine.Busy(ctx, p.SessionID) {
		return nil, problemf(sayRenameBusy)
	}
	ses, err := c.Store.RenameSession(ctx, p.SessionID, p.Title)
	if err != nil {
		return nil, err
	}
	c.sessionsChanged()
	m := ses.Meta()
	return &m, nil
}

// pin pins or unpins a chat; every panel's History shows it.
func (c *Core) pin(ctx context.Context, p PinParams) (None, error) {
	if err := c.Store.Pin(ctx, p.SessionID, p.Pinned); err != nil {
		return nil, err
	}
	c.sessionsChanged()
	return nil, nil
}

// branch starts a new chat from a chat as it was at one of its replies (or at a message of the
// user's, edited, for chat.regenerate to answer), and makes it the one the panel shows; every
// panel's History lists it.
func (c *Core) branch(ctx context.Context, p BranchParams) (*store.Session, error) {
	ses, err := c.Engine.Branch(ctx, p.SessionID, p.MessageID, p.Text)
	if err != nil {
		return nil, err
	}
	c.sessionsChanged()
	return ses, nil
}

// sessionsChanged tells the panels to read the list of chats again: one window renamed,
// pinned, deleted or imported chats another window's History lists.
func (c *Core) sessionsChanged() {
	c.broadcastPanels(struct {
		Type string `json:"type"`
	}{UpdateSessions})
}

// UpdateSessions is the push that tells panels the chats changed: {"type": "sessions.changed"}.
const UpdateSessions = "sessions.changed"

func (c *Core) deleteSession(ctx context.Context, p SessionRef) (None, error) {
	// A run going in the chat is stopped and stores its end first (5 s at most, as
	// ForgetPrivate waits), so that what it stored goes with the chat. A run that holds on
	// longer cannot put the chat back in History: the store refuses its saves once the chat
	// is deleted.
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	c.Engine.StopAll(sctx, func(id string) bool { return id == p.SessionID })
	cancel()
	if err := c.Store.DeleteSession(ctx, p.SessionID); err != nil {
		return nil, err
	}
	c.sessionsChanged()
	return nil, c.Store.ClearActive(ctx, p.SessionID)
}

func (c *Core) listMemories(ctx context.Context, _ struct{}) ([]store.Memory, error) {
	return c.Store.Memories(ctx)
}

func (c *Core) addMemory(ctx context.Context, p MemoryParams) (store.Memory, error) {
	return c.Store.AddMemory(ctx, store.Memory{ID: agent.NewID(), Content: p.Content, Source: store.SourceUser, CreatedAt: c.Engine.Now().UnixMilli()})
}

func (c *Core) updateMemory(ctx context.Context, p MemoryParams) (store.Memory, error) {
	return c.Store.UpdateMemory(ctx, p.MemoryID, p.Content, c.Engine.Now().UnixMilli())
}

func (c *Core) deleteMemory(ctx context.Context, p MemoryParams) (None, error) {
	return nil, c.Store.DeleteMemory(ctx, p.MemoryID)
}

func (c *Core) hello(ctx context.Context, p ListParams) (*State, error) {
	s, err := c.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	st := &State{Providers: provider.All(), Settings: public(s), Streaming: []string{}}
	if roleOf(ctx) != RolePanel {
		// The overlay draws the one chat it opens itself: it is not told the panel's chat,
		// the others, the outside questions or the link.
		var win int
		st.Tab = placedIn(ctx, &win)
		st.Streaming = c.Engine.RunningIDs() // ids only: which of them is its own, it knows
		return st, nil
	}
	st.Link, st.Bridge, st.Asks = c.Link(), c.bridge.Status(), c.gate.Questions()
	if st.Sessions, err = c.sessions(ctx, p.Private); err != nil {
		return nil, err
	}
	st.ChatAsks = []ChatAsk{}
	for _, id := range c.Engine.RunningIDs() {
		if store.Private(id) != p.Private {
			continue // a private chat's asks show in the incognito windows only
		}
		ses, err := c.Store.Session(ctx, id) // as the run stored it: an ask is stored before it shows
		if err != nil {
			continue
		}
		for _, m := range ses.Messages {
			if m.Role == "tool" && m.Status == store.StatusAsking && m.Tool != nil {
				st.ChatAsks = append(st.ChatAsks, ChatAsk{SessionID: id, Title: ses.Title, Message: m})
			}
		}
	}
	active, err := c.Store.Active(ctx, p.Private)
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

func (c *Core) saveSettings(ctx context.Context, req SaveSettingsParams) (*PublicSettings, error) {
	if req.Settings == nil {
		return nil, problemf(sayNoSettings)
	}
	old, err := c.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	s := *req.Settings
	s.APIKeys = old.APIKeys // the panel never holds keys; it only sends changes (never nil: Settings fills it)
	s.Daemon.Token = old.Daemon.Token
	if req.DaemonToken != nil {
		s.Daemon.Token = strings.TrimSpace(*req.DaemonToken)
	}
	s.Bridge.Token = old.Bridge.Token
	if req.BridgeToken != nil {
		s.Bridge.Token = strings.TrimSpace(*req.BridgeToken)
	}
	if s.MaxSteps == 0 {
		s.MaxSteps = old.MaxSteps // a panel that does not know the setting keeps it
	}
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
	c.startLink(ctx, s.Daemon)
	c.startBridge(s.Bridge)
	ps := public(s)
	return &ps, nil
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
		if (q.Local || weburl.Loopback(h)) && !seen[h] {
			seen[h] = true
			hosts = append(hosts, h)
		}
	}
	return hosts
}
