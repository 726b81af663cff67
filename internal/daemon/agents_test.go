//go:build !js

package daemon

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/acphost"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/testkit/acpagent"
)

// fakeExtension links to skiffd as the worker does and records what skiffd sends it.
type fakeExtension struct {
	peer   *link.Peer
	mu     sync.Mutex
	events []link.AgentEvent
	calls  []link.CallParams
	asks   []link.AgentQuestion
	answer string
	got    chan struct{}
}

func (f *fakeExtension) text(session string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, e := range f.events {
		if e.Session == session && e.Kind == "text" {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// waitText waits until the session's text is want (events may trail the prompt's answer).
func (f *fakeExtension) waitText(t *testing.T, ctx context.Context, session, want string) {
	t.Helper()
	for f.text(session) != want {
		select {
		case <-f.got:
		case <-ctx.Done():
			t.Fatalf("the text of %s is %q, not %q", session, f.text(session), want)
		}
	}
}

func linkExtension(t *testing.T, ctx context.Context, cfg *Config, base string) *fakeExtension {
	t.Helper()
	ws, _, err := dialExt(ctx, base, "chrome-extension://"+ExtensionID)
	require.NoError(t, err)
	b, _ := json.Marshal(link.Handshake{Type: link.Hello, Token: cfg.PairToken, Protocol: link.Protocol})
	require.NoError(t, ws.Write(ctx, websocket.MessageText, b))
	_, _, err = ws.Read(ctx)
	require.NoError(t, err)
	f := &fakeExtension{got: make(chan struct{}, 100), answer: acphost.AllowOnce}
	hs := link.Handlers{}
	link.ToolCall.Handle(hs, func(_ context.Context, p link.CallParams) (link.CallResult, error) {
		f.mu.Lock()
		f.calls = append(f.calls, p)
		f.mu.Unlock()
		return link.CallResult{Text: "[1] Example Domain"}, nil
	})
	link.AgentEvents.Handle(hs, func(_ context.Context, e link.AgentEvent) (struct{}, error) {
		f.mu.Lock()
		f.events = append(f.events, e)
		f.mu.Unlock()
		f.got <- struct{}{}
		return struct{}{}, nil
	})
	link.AgentAsk.Handle(hs, func(_ context.Context, q link.AgentQuestion) (string, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.asks = append(f.asks, q)
		return f.answer, nil
	})
	f.peer = link.NewPeer(wsConn{ws}, hs)
	go func() { _ = f.peer.Run(ctx, 0) }()
	return f
}

// The extension opens a chat with an agent skiffd hosts and prompts it; the agent's browser
// call comes back through skiffd's MCP with the agent's own token and reaches the extension
// named as the agent; its file write is asked in the extension and lands in the chosen folder
// and the audit; an unknown agent and the agent token after the agent stops are refused.
func TestSkiffdHostsAnACPAgent(t *testing.T) {
	folder := t.TempDir()
	cfg, _, base := running(t, func(c *Config) {
		c.AgentSettings = AgentSettings{Folder: folder, Agents: []acphost.Spec{{Name: "test", Title: "Test Agent", Command: []string{acpagent.Build(t)}}}}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ext := linkExtension(t, ctx, cfg, base)

	agents, err := link.AgentList.Call(ctx, ext.peer, struct{}{})
	require.NoError(t, err)
	var names []string
	for _, a := range agents {
		names = append(names, a.Name)
		if a.Name == "test" {
			assert.True(t, a.Installed)
		}
	}
	assert.Equal(t, []string{"gemini", "claude", "qwen", "test"}, names)

	_, err = link.AgentOpen.Call(ctx, ext.peer, link.AgentOpenParams{Agent: "test", Session: "chat-1"})
	require.NoError(t, err)
	r, err := link.AgentPrompt.Call(ctx, ext.peer, link.AgentPromptParams{Session: "chat-1", Text: `browse tabs_list {}`})
	require.NoError(t, err)
	assert.Equal(t, "end_turn", r.StopReason)
	ext.waitText(t, ctx, "chat-1", "browser: [1] Example Domain")
	ext.mu.Lock()
	require.Len(t, ext.calls, 1)
	assert.Equal(t, link.Client{ID: ext.calls[0].Client.ID, Name: "Test Agent", Kind: "acp"}, ext.calls[0].Client)
	ext.mu.Unlock()

	_, err = link.AgentPrompt.Call(ctx, ext.peer, link.AgentPromptParams{Session: "chat-1", Text: "write " + filepath.Join(folder, "plan.md") + " step one"})
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(folder, "plan.md"))
	require.NoError(t, err)
	assert.Equal(t, "step one", string(b))
	ext.mu.Lock()
	require.Len(t, ext.asks, 1)
	assert.Equal(t, "create plan.md", ext.asks[0].Title)
	assert.Equal(t, "Test Agent", ext.asks[0].Agent)
	ext.mu.Unlock()
	audit, err := os.ReadFile(filepath.Join(cfg.dir, "agents-audit.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(audit), `"path":"plan.md"`)

	files, err := link.AgentFiles.Call(ctx, ext.peer, link.FilePath{})
	require.NoError(t, err)
	assert.Equal(t, []link.FileEntry{{Name: "plan.md", Size: 8}}, files)

	_, err = link.AgentOpen.Call(ctx, ext.peer, link.AgentOpenParams{Agent: "nobody", Session: "chat-2"})
	assert.ErrorContains(t, err, "skiffd agents")

	// A crash is a sentence in the prompt's answer; the next open starts the agent again.
	_, err = link.AgentPrompt.Call(ctx, ext.peer, link.AgentPromptParams{Session: "chat-1", Text: "crash"})
	assert.ErrorContains(t, err, "Test Agent stopped")
	_, err = link.AgentOpen.Call(ctx, ext.peer, link.AgentOpenParams{Agent: "test", Session: "chat-1"})
	require.NoError(t, err)
	_, err = link.AgentPrompt.Call(ctx, ext.peer, link.AgentPromptParams{Session: "chat-1", Text: "hi"})
	require.NoError(t, err)

	// The MCP endpoint still refuses a made-up token.
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(initialize))
	req.Header.Set("Authorization", "Bearer ska_madeup")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}
