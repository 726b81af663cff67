package core

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/testkit"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// panel is a fake panel connection that records what the core sends.
type panel struct {
	mu   sync.Mutex
	msgs []map[string]any
	next int
	role Role // RolePanel when empty
}

func (p *panel) Role() Role {
	if p.role == "" {
		return RolePanel
	}
	return p.role
}

func (p *panel) Send(b []byte) {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	p.mu.Lock()
	p.msgs = append(p.msgs, m)
	p.mu.Unlock()
}

func (p *panel) find(typ string) []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []map[string]any
	for _, m := range p.msgs {
		if m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

func (p *panel) waitFor(t *testing.T, typ string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if ms := p.find(typ); len(ms) > 0 {
			return ms[len(ms)-1]
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no %q message; got %v", typ, p.msgs)
	return nil
}

// obj is a JSON object in a test message.
type obj = map[string]any

// send sends a message of type typ with params, numbered so its reply can be told apart.
func (p *panel) send(ctx context.Context, c *Core, typ string, params any) int {
	p.mu.Lock()
	p.next++
	id := p.next
	p.mu.Unlock()
	b, err := json.Marshal(obj{"id": id, "type": typ, "params": params})
	if err != nil {
		panic(err)
	}
	c.Handle(ctx, p, b)
	return id
}

// call sends a message and waits for its reply.
func (p *panel) call(t *testing.T, c *Core, typ string, params any) map[string]any {
	t.Helper()
	id := p.send(context.Background(), c, typ, params)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range p.find("reply") {
			if m["id"] == float64(id) {
				return m
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no reply to %s %v", typ, params)
	return nil
}

func newCore(t *testing.T, kv store.KV, providerID, baseURL string) *Core {
	t.Helper()
	return newCoreWith(t, kv, testkit.Doer{}, providerID, baseURL)
}

// newCoreWith is newCore whose requests to the provider go through d.
func newCoreWith(t *testing.T, kv store.KV, d provider.Doer, providerID, baseURL string) *Core {
	t.Helper()
	c := New(context.Background(), kv, d, nil, nil)
	s, _ := c.Store.Settings(context.Background())
	s.Provider = providerID
	s.BaseURLs[providerID] = baseURL
	s.APIKeys[providerID] = "sk-test"
	require.NoError(t, c.Store.SaveSettings(context.Background(), s))
	return c
}

// chooseModel sets the model c uses with its provider, as the user picks it in Settings.
func chooseModel(t *testing.T, c *Core, providerID, model string) {
	t.Helper()
	s, err := c.Store.Settings(context.Background())
	require.NoError(t, err)
	s.Models[providerID] = model
	require.NoError(t, c.Store.SaveSettings(context.Background(), s))
}

func TestSendStreamsAndStores(t *testing.T) {
	srv := testkit.Replay(t, "anthropic/text.sse", 0)
	kv := store.NewMemKV()
	c := newCore(t, kv, "anthropic", srv.URL)
	p := &panel{}
	c.Connect(p)
	r := p.call(t, c, "chat.send", obj{"text": "Say hi in Portuguese"})
	require.Equal(t, true, r["ok"], r)
	done := p.waitFor(t, "chat.done")
	msg := done["message"].(map[string]any)
	want := "Olá! (That's \"hi\" in Portuguese)\n\nYou could also say \"Oi!\" which is a more casual way to say hi in Portuguese."
	assert.Equal(t, want, msg["content"])
	assert.Nil(t, msg["status"])
	var deltas strings.Builder
	for _, d := range p.find("chat.delta") {
		deltas.WriteString(d["text"].(string))
	}
	assert.Equal(t, want, deltas.String())

	// A new core over the same storage (a restarted worker) sees the whole conversation.
	c2 := New(context.Background(), kv, testkit.Doer{}, nil, nil)
	p2 := &panel{}
	st := p2.call(t, c2, "core.hello", nil)["result"].(map[string]any)
	active := st["active"].(map[string]any)
	assert.Equal(t, "Say hi in Portuguese", active["title"])
	ms := active["messages"].([]any)
	require.Len(t, ms, 2)
	assert.Equal(t, want, ms[1].(map[string]any)["content"])
	// Keys never reach the panel.
	assert.NotContains(t, mustJSON(st), "sk-test")
	assert.Equal(t, true, st["settings"].(map[string]any)["hasKey"].(map[string]any)["anthropic"])
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestStopKeepsPartial(t *testing.T) {
	srv := testkit.Replay(t, "openai/text_usage.sse", 20*time.Millisecond)
	c := newCore(t, store.NewMemKV(), "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	r := p.call(t, c, "chat.send", obj{"text": "weather?"})
	sid := r["result"].(map[string]any)["sessionId"].(string)
	for len(p.find("chat.delta")) < 5 {
		time.Sleep(5 * time.Millisecond)
	}
	p.send(context.Background(), c, "chat.stop", obj{"sessionId": sid})
	done := p.waitFor(t, "chat.done")["message"].(map[string]any)
	assert.Equal(t, "stopped", done["status"])
	partial := done["content"].(string)
	assert.NotEmpty(t, partial)
	assert.True(t, strings.HasPrefix("I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.", partial))
	ses, err := c.Store.Session(context.Background(), sid)
	require.NoError(t, err)
	assert.Equal(t, partial, ses.Messages[1].Content)
	assert.Equal(t, "stopped", ses.Messages[1].Status)
}

// A worker killed mid-stream: the draft on storage is what a new worker shows, marked interrupted.
func TestKilledWorkerLeavesDraft(t *testing.T) {
	srv := testkit.Replay(t, "deepseek/reasoning.sse", 15*time.Millisecond)
	kv := store.NewMemKV()
	c := newCore(t, kv, "deepseek", srv.URL)
	c.Engine.FlushEvery = 50 * time.Millisecond
	p := &panel{}
	c.Connect(p)
	ctx, kill := context.WithCancel(context.Background())
	p.send(ctx, c, "chat.send", obj{"text": "What is 17 * 23?"})
	sid := p.waitFor(t, "reply")["result"].(map[string]any)["sessionId"].(string)
	for len(p.find("chat.delta")) < 30 {
		time.Sleep(5 * time.Millisecond)
	}
	// Snapshot storage as the worker dies: nothing the old core does afterwards counts.
	dead := store.NewMemKV()
	raw, _ := kv.Get(context.Background(), "schema", "settings", "sessions", "active", "session/"+sid, "draft/"+sid)
	require.NoError(t, dead.Set(context.Background(), raw))
	kill()

	c2 := New(context.Background(), dead, testkit.Doer{}, nil, nil)
	p2 := &panel{}
	st := p2.call(t, c2, "core.hello", nil)["result"].(map[string]any)
	ms := st["active"].(map[string]any)["messages"].([]any)
	require.Len(t, ms, 2)
	assert.Equal(t, "What is 17 * 23?", ms[0].(map[string]any)["content"])
	a := ms[1].(map[string]any)
	assert.Equal(t, "interrupted", a["status"])
	assert.NotEmpty(t, a["reasoning"], "the draft's text survived")
}

func TestErrorsAreStoredAndReadable(t *testing.T) {
	body, err := os.ReadFile("../provider/testdata/recorded/openai/error_401_invalid_api_key.json")
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(401)
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	c := newCore(t, store.NewMemKV(), "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	p.call(t, c, "chat.send", obj{"text": "hi"})
	msg := p.waitFor(t, "chat.done")["message"].(map[string]any)
	assert.Equal(t, "error", msg["status"])
	e := msg["error"].(map[string]any)
	assert.Equal(t, "auth", e["kind"])
	assert.Contains(t, e["message"], "API key was rejected")
	// The user's message is still there.
	ses, err := c.Store.Session(context.Background(), p.find("chat.done")[0]["sessionId"].(string))
	require.NoError(t, err)
	assert.Equal(t, "hi", ses.Messages[0].Content)
}

func TestSettingsValidationAndKeys(t *testing.T) {
	c := newCore(t, store.NewMemKV(), "openai", "")
	p := &panel{}
	r := p.call(t, c, "settings.save", obj{"settings": obj{"provider": "openai", "temperature": 3, "maxTokens": 100}, "keys": obj{}})
	assert.Equal(t, false, r["ok"])
	assert.Equal(t, "temperature", r["error"].(map[string]any)["field"])

	p = &panel{}
	r = p.call(t, c, "settings.save", obj{"settings": obj{"provider": "ollama", "temperature": 1, "maxTokens": 100, "baseURLs": obj{"ollama": "http://127.0.0.1:9999/v1"}}, "keys": obj{"groq": "gsk-1"}})
	require.Equal(t, true, r["ok"], r)
	s, _ := c.Store.Settings(context.Background())
	assert.Equal(t, "sk-test", s.APIKeys["openai"], "keys not sent are kept")
	assert.Equal(t, "gsk-1", s.APIKeys["groq"])
	assert.Equal(t, []string{"127.0.0.1:9999", "localhost:1234"}, LocalHosts(s))
	assert.NotContains(t, mustJSON(r), "gsk-1")
}

func TestModelsFallBackToCatalogue(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"data":[{"id":"live-model"}]}`)
	}))
	defer srv.Close()
	c := newCore(t, store.NewMemKV(), "groq", srv.URL)
	p := &panel{}
	r := p.call(t, c, "provider.models", nil)["result"].(map[string]any)
	assert.Equal(t, true, r["live"])
	srv.Close()
	p = &panel{}
	r = p.call(t, c, "provider.models", nil)["result"].(map[string]any)
	assert.Equal(t, false, r["live"])
	assert.NotEmpty(t, r["models"])
	assert.Contains(t, r["error"], "Groq")
	// A server of one's own has no catalogue to fall back to: an empty list, not null (the
	// panel's Settings said "Cannot read properties of null").
	c = newCore(t, store.NewMemKV(), "custom", srv.URL)
	p = &panel{}
	r = p.call(t, c, "provider.models", nil)["result"].(map[string]any)
	assert.Equal(t, false, r["live"])
	assert.Equal(t, []any{}, r["models"])
}

// The last incognito window closing stops the private chats' runs, waits for each to store its
// end, and only then drops what was kept of them: nothing of a private chat is written after,
// and a kept chat's run goes on.
func TestForgetPrivateStopsItsRunsFirst(t *testing.T) {
	srv := testkit.Replay(t, "openai/text_usage.sse", 20*time.Millisecond)
	kv := store.NewMemKV()
	c := newCore(t, kv, "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	ctx := context.Background()
	priv, err := c.Engine.NewSession(ctx, true)
	require.NoError(t, err)
	p.call(t, c, "chat.send", obj{"sessionId": priv.ID, "text": "weather?"})
	kept := p.call(t, c, "chat.send", obj{"text": "weather here?"})["result"].(map[string]any)["sessionId"].(string)
	for len(p.find("chat.delta")) < 5 {
		time.Sleep(5 * time.Millisecond)
	}
	require.True(t, c.Engine.Running(priv.ID))
	c.ForgetPrivate(ctx)
	assert.False(t, c.Engine.Running(priv.ID), "the private run still goes on")
	// (Had it not waited, the run's end would be stored once it let go: waited for here.)
	require.Eventually(t, func() bool { return !c.Engine.Running(priv.ID) }, 10*time.Second, 5*time.Millisecond)
	got, _ := kv.Get(ctx, "private/sessions", "private/session/"+priv.ID, "private/draft/"+priv.ID, "private/active")
	assert.Empty(t, got, "left of the private chat")
	_, err = c.Store.Session(ctx, priv.ID)
	assert.ErrorIs(t, err, store.ErrNotFound)
	assert.True(t, c.Engine.Running(kept), "the kept chat's run was stopped too")
	require.Eventually(t, func() bool { return !c.Engine.Running(kept) }, 10*time.Second, 5*time.Millisecond)
	ses, err := c.Store.Session(ctx, kept)
	require.NoError(t, err)
	assert.Equal(t, "", ses.Messages[1].Status, "the kept chat's reply")
}
