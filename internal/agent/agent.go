// Package agent is the streaming engine: it takes a user message into a session, streams the
// provider's reply, and keeps the conversation in the store as it grows, so a worker killed at
// any moment loses at most FlushEvery of text. Tool calls are decoded and stored; running them
// through the permission gate is the next layer.
package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// Update types.
const (
	UpdateSession = "chat.session" // Session: the whole session, as a reply starts
	UpdateDelta   = "chat.delta"   // Text or Reasoning to append to message MessageID
	UpdateDone    = "chat.done"    // Message: the final message
)

// Update is what the engine reports while it works. The panel renders from these.
type Update struct {
	Type      string         `json:"type"` // one of the Update* constants
	SessionID string         `json:"sessionId"`
	MessageID string         `json:"messageId,omitempty"`
	Text      string         `json:"text,omitempty"`      // delta: visible text to append
	Reasoning string         `json:"reasoning,omitempty"` // delta: reasoning to append
	Session   *store.Session `json:"session,omitempty"`   // session: the whole session
	Message   *store.Message `json:"message,omitempty"`   // done: the final message
}

// Engine runs chats. One stream per session at a time.
type Engine struct {
	Store *store.Store
	Doer  provider.Doer
	// FlushEvery bounds how much streamed text a killed worker can lose.
	FlushEvery time.Duration
	// Now is the clock; tests set it.
	Now func() time.Time

	mu      sync.Mutex
	running map[string]context.CancelFunc // by session id
}

// New returns an engine with the default flush interval.
func New(st *store.Store, d provider.Doer) *Engine {
	return &Engine{Store: st, Doer: d, FlushEvery: 500 * time.Millisecond, Now: time.Now}
}

// Errors Send, Edit and Regenerate return when they cannot start.
var (
	ErrBusy                = errors.New("agent: a reply is still streaming in this session")
	ErrEmpty               = errors.New("agent: empty message")
	ErrNothingToEdit       = errors.New("agent: there is no message to edit")
	ErrNothingToRegenerate = errors.New("agent: nothing to regenerate")
)

// NewID returns a random id.
func NewID() string {
	var b [9]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (e *Engine) now() int64 { return e.Now().UnixMilli() }

// Running reports whether session id has a stream in flight in this engine.
func (e *Engine) Running(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.running[id]
	return ok
}

// Session loads a session. A message still marked streaming that no stream of this engine is
// writing was cut off by a worker restart: it is marked interrupted, and saved so.
func (e *Engine) Session(ctx context.Context, id string) (*store.Session, error) {
	ses, err := e.Store.Session(ctx, id)
	if err != nil {
		return nil, err
	}
	if e.Running(id) {
		return ses, nil
	}
	fixed := false
	for i := range ses.Messages {
		if ses.Messages[i].Status == store.StatusStreaming {
			ses.Messages[i].Status = store.StatusInterrupted
			fixed = true
		}
	}
	if fixed {
		if err := e.Store.SaveSession(ctx, ses); err != nil {
			return nil, err
		}
	}
	return ses, nil
}

// NewSession creates and saves an empty session for the current settings.
func (e *Engine) NewSession(ctx context.Context) (*store.Session, error) {
	st, err := e.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	p, _, model, _ := st.Resolve()
	now := e.now()
	ses := &store.Session{Header: store.Header{ID: NewID(), Title: "New chat", Provider: p.ID, Model: model, CreatedAt: now, UpdatedAt: now},
		Messages: []store.Message{}}
	if err := e.Store.SaveSession(ctx, ses); err != nil {
		return nil, err
	}
	return ses, e.Store.SetActive(ctx, ses.ID)
}

// Send adds text as a user message to session id (a new session when id is empty), streams the
// reply and reports progress to emit. The user message is stored before the first update. Send
// returns when the reply is complete, failed or stopped; every outcome is stored in the session.
// An error is returned only when nothing could be started (bad settings, storage failure).
//
// page, when not nil, is the page context the user attached; it is stored with the message and
// sent to the model as data.
func (e *Engine) Send(ctx context.Context, id, text string, page *store.Page, emit func(Update)) error {
	if strings.TrimSpace(text) == "" {
		return ErrEmpty
	}
	var ses *store.Session
	var err error
	if id == "" {
		ses, err = e.NewSession(ctx)
	} else {
		ses, err = e.Session(ctx, id)
	}
	if err != nil {
		return err
	}
	if page != nil {
		page.Clip()
	}
	now := e.now()
	ses.Messages = append(ses.Messages, store.Message{ID: NewID(), Role: "user", Content: text, CreatedAt: now, Page: page})
	if ses.Title == "" || ses.Title == "New chat" {
		ses.Title = store.TitleFrom(text)
	}
	return e.reply(ctx, ses, emit)
}

// Edit replaces the last user message of session id with text (keeping its page context) and
// streams a new reply: the old reply and anything after it are dropped.
func (e *Engine) Edit(ctx context.Context, id, text string, emit func(Update)) error {
	if strings.TrimSpace(text) == "" {
		return ErrEmpty
	}
	ses, err := e.Session(ctx, id)
	if err != nil {
		return err
	}
	last := -1
	for i, m := range ses.Messages {
		if m.Role == "user" {
			last = i
		}
	}
	if last < 0 {
		return ErrNothingToEdit
	}
	ses.Messages = ses.Messages[:last+1]
	if last == 0 && ses.Title == store.TitleFrom(ses.Messages[0].Content) {
		ses.Title = store.TitleFrom(text) // still the automatic title: follow the edit, not a rename
	}
	ses.Messages[last].Content = text
	return e.reply(ctx, ses, emit)
}

// Regenerate drops the last assistant reply of session id (and any trailing failure) and
// streams a new one for the same user message.
func (e *Engine) Regenerate(ctx context.Context, id string, emit func(Update)) error {
	ses, err := e.Session(ctx, id)
	if err != nil {
		return err
	}
	for len(ses.Messages) > 0 && ses.Messages[len(ses.Messages)-1].Role != "user" {
		ses.Messages = ses.Messages[:len(ses.Messages)-1]
	}
	if len(ses.Messages) == 0 {
		return ErrNothingToRegenerate
	}
	return e.reply(ctx, ses, emit)
}

func (e *Engine) reply(ctx context.Context, ses *store.Session, emit func(Update)) error {
	st, err := e.Store.Settings(ctx)
	if err != nil {
		return err
	}
	p, key, model, err := st.Resolve()
	if err != nil {
		return err
	}
	var mems []store.Memory
	if st.Memories && st.MemoryCount > 0 {
		all, err := e.Store.Memories(ctx)
		if err != nil {
			return err
		}
		mems = store.TopMemories(all, st.MemoryCount)
	}
	var page *store.Page
	for i := len(ses.Messages) - 1; i >= 0; i-- {
		if ses.Messages[i].Role == "user" {
			page = ses.Messages[i].Page // only the latest user message's page goes with the request
			break
		}
	}
	req := provider.Request{Model: model, System: SystemContent(st.SystemPrompt, mems, page), MaxTokens: st.MaxTokens, Messages: history(ses.Messages)}
	t := st.Temperature
	req.Temperature = &t

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	e.mu.Lock()
	if e.running == nil {
		e.running = map[string]context.CancelFunc{}
	}
	if _, busy := e.running[ses.ID]; busy {
		e.mu.Unlock()
		return ErrBusy
	}
	e.running[ses.ID] = cancel
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.running, ses.ID)
		e.mu.Unlock()
	}()

	ses.Provider, ses.Model = p.ID, model
	ses.UpdatedAt = e.now()
	ses.Messages = append(ses.Messages, store.Message{ID: NewID(), Role: "assistant", CreatedAt: e.now(),
		Status: store.StatusStreaming, Provider: p.ID, Model: model})
	msg := &ses.Messages[len(ses.Messages)-1]
	// Stored before it is acknowledged: the user's message survives anything that follows.
	if err := e.Store.SaveSession(ctx, ses); err != nil {
		return err
	}
	emit(Update{Type: UpdateSession, SessionID: ses.ID, Session: ses})

	var content, reasoning strings.Builder
	lastFlush := e.Now()
	flush := func() error {
		msg.Content, msg.Reasoning = content.String(), reasoning.String()
		lastFlush = e.Now()
		return e.Store.SaveDraft(context.WithoutCancel(ctx), ses.ID, msg)
	}
	var storeErr error
	for ev := range p.Stream(ctx, e.Doer, key, req) {
		switch ev.Kind {
		case provider.EventText:
			content.WriteString(ev.Text)
			if st.Streaming {
				emit(Update{Type: UpdateDelta, SessionID: ses.ID, MessageID: msg.ID, Text: ev.Text})
			}
		case provider.EventReasoning:
			reasoning.WriteString(ev.Text)
			if st.Streaming {
				emit(Update{Type: UpdateDelta, SessionID: ses.ID, MessageID: msg.ID, Reasoning: ev.Text})
			}
		case provider.EventToolCall:
			msg.ToolCalls = append(msg.ToolCalls, *ev.ToolCall)
		case provider.EventUsage:
			msg.Usage = ev.Usage
		case provider.EventFinish:
			msg.Status, msg.Finish = "", ev.Finish.Reason
		case provider.EventError:
			msg.Status, msg.Error = store.StatusError, errorInfo(p, ev.Err)
		}
		if msg.Status == store.StatusStreaming && e.Now().Sub(lastFlush) >= e.FlushEvery {
			if err := flush(); err != nil && storeErr == nil {
				storeErr = err
				cancel()
			}
		}
	}
	msg.Content, msg.Reasoning = content.String(), reasoning.String()
	switch {
	case storeErr != nil:
		msg.Status = store.StatusError
		msg.Error = &store.ErrorInfo{Kind: "storage", Message: "Could not save the reply: " + storeErr.Error()}
	case msg.Status == store.StatusStreaming && ctx.Err() != nil:
		msg.Status = store.StatusStopped
	case msg.Status == store.StatusStreaming:
		msg.Status, msg.Error = store.StatusError, &store.ErrorInfo{Kind: string(provider.KindTruncated), Message: "the reply ended without a finish"}
	}
	ses.UpdatedAt = e.now()
	final := *msg
	err = e.Store.SaveSession(context.WithoutCancel(ctx), ses)
	if err != nil {
		final.Status = store.StatusError
		final.Error = &store.ErrorInfo{Kind: "storage", Message: "Could not save the reply: " + err.Error()}
	}
	emit(Update{Type: UpdateDone, SessionID: ses.ID, MessageID: msg.ID, Message: &final})
	return nil
}

// Stop cancels the stream of session id. The partial reply is kept, marked stopped.
func (e *Engine) Stop(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.running[id]; ok {
		c()
		return true
	}
	return false
}

func errorInfo(p provider.Provider, err error) *store.ErrorInfo {
	pe := provider.AsError(p, err)
	return &store.ErrorInfo{Kind: string(pe.Kind), Message: pe.Error(), Status: pe.Status, RetryAfterMs: pe.RetryAfter.Milliseconds()}
}

// history turns stored messages into the provider conversation. Failed or stopped replies are
// sent as far as they got; empty ones are left out, since providers reject empty turns.
func history(ms []store.Message) []provider.Message {
	var out []provider.Message
	for _, m := range ms {
		if m.Status == store.StatusStreaming {
			continue
		}
		if m.Role == "assistant" && m.Content == "" && len(m.ToolCalls) == 0 {
			continue
		}
		out = append(out, provider.Message{Role: m.Role, Content: m.Content})
	}
	return out
}
