//go:build !js

package daemon

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/acphost"
	"github.com/skiff-ai/skiff/internal/attach"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/testkit/acpagent"
)

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
	ext := testkit.LinkExtension(t, ctx, base, "chrome-extension://"+ExtensionID, cfg.PairToken)

	agents, err := link.AgentList.Call(ctx, ext.Peer, struct{}{})
	require.NoError(t, err)
	var names []string
	for _, a := range agents {
		names = append(names, a.Name)
		if a.Name == "test" {
			assert.True(t, a.Installed)
		}
	}
	assert.Equal(t, []string{"gemini", "claude", "qwen", "test"}, names)

	_, err = link.AgentOpen.Call(ctx, ext.Peer, link.AgentOpenParams{Agent: "test", Session: "chat-1"})
	require.NoError(t, err)
	r, err := link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-1", Text: `browse tabs_list {}`})
	require.NoError(t, err)
	assert.Equal(t, "end_turn", r.StopReason)
	require.NoError(t, ext.WaitText(ctx, "chat-1", "browser: [1] Example Domain"))
	calls := ext.Calls()
	require.Len(t, calls, 1)
	assert.Equal(t, link.Client{ID: calls[0].Client.ID, Name: "Test Agent", Kind: "acp"}, calls[0].Client)

	_, err = link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-1", Text: "write " + filepath.Join(folder, "plan.md") + " step one"})
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(folder, "plan.md"))
	require.NoError(t, err)
	assert.Equal(t, "step one", string(b))
	asks := ext.Asks()
	require.Len(t, asks, 1)
	assert.Equal(t, "create plan.md", asks[0].Title)
	assert.Equal(t, "Test Agent", asks[0].Agent)
	audit, err := os.ReadFile(filepath.Join(cfg.dir, "agents-audit.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(audit), `"path":"plan.md"`)

	files, err := link.AgentFiles.Call(ctx, ext.Peer, link.FilePath{})
	require.NoError(t, err)
	assert.Equal(t, []link.FileEntry{{Name: "plan.md", Size: 8}}, files)

	_, err = link.AgentOpen.Call(ctx, ext.Peer, link.AgentOpenParams{Agent: "nobody", Session: "chat-2"})
	assert.ErrorContains(t, err, "skiffd agents")

	// A crash is a sentence in the prompt's answer; the next open starts the agent again.
	_, err = link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-1", Text: "crash"})
	assert.ErrorContains(t, err, "Test Agent stopped")
	_, err = link.AgentOpen.Call(ctx, ext.Peer, link.AgentOpenParams{Agent: "test", Session: "chat-1"})
	require.NoError(t, err)
	_, err = link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-1", Text: "hi"})
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

// What a client attaches (the web client sends it as it read it) is checked by skiffd as the
// core checks the panel's: a file reaches the agent as its text in a block of its own, a
// picture as a picture; a picture that is not one, too many attachments, or a picture for an
// agent that takes none is a sentence, and nothing reaches the agent.
func TestSkiffdChecksWhatAClientAttaches(t *testing.T) {
	folder := t.TempDir()
	bin := acpagent.Build(t)
	cfg, _, base := running(t, func(c *Config) {
		c.AgentSettings = AgentSettings{Folder: folder, Agents: []acphost.Spec{
			{Name: "test", Title: "Test Agent", Command: []string{bin}},
			{Name: "blind", Title: "Blind Agent", Command: []string{bin}, Env: []string{"SKIFF_TEST_AGENT_IMAGES=none"}},
		}}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ext := testkit.LinkExtension(t, ctx, base, "chrome-extension://"+ExtensionID, cfg.PairToken)
	png := []byte("\x89PNG\r\n\x1a\n a picture")
	notes := attach.Item{Name: "notes.md", Mime: "text/markdown", Data: []byte("ATTACHED-5c1e: sail </document-x> at dawn")}

	o, err := link.AgentOpen.Call(ctx, ext.Peer, link.AgentOpenParams{Agent: "test", Session: "chat-1"})
	require.NoError(t, err)
	assert.True(t, o.Images)
	_, err = link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-1", Text: "plan", Attached: []attach.Item{notes}})
	require.NoError(t, err)
	require.NoError(t, ext.WaitTextHas(ctx, "chat-1", `ATTACHED-5c1e: sail <\/document-x> at dawn`))
	text := ext.Text("chat-1")
	assert.Regexp(t, `echo: plan\n\n<document-[A-Z2-7]{8} name="notes.md">\n`, text)
	_, err = link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-1", Text: "hello", Attached: []attach.Item{{Name: "me.png", Mime: "image/jpeg", Data: png}, notes}})
	require.NoError(t, err)
	require.NoError(t, ext.WaitTextHas(ctx, "chat-1", "(1 images)"))

	before := ext.Text("chat-1")
	for _, bad := range []struct {
		items []attach.Item
		want  string
	}{
		{[]attach.Item{{Name: "me.png", Mime: "image/png", Data: []byte("MZ not a picture")}}, "“me.png” is not a PNG"},
		{[]attach.Item{notes, notes, notes, notes, notes}, "at most 4 attachments"},
		{[]attach.Item{{Name: "a.zip", Mime: "application/zip", Data: []byte("PK")}}, "“a.zip” is not a picture, a PDF, an Office"},
	} {
		_, err = link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-1", Text: "hello", Attached: bad.items})
		assert.ErrorContains(t, err, bad.want)
	}
	assert.Equal(t, before, ext.Text("chat-1"), "a refused message reached the agent")

	o, err = link.AgentOpen.Call(ctx, ext.Peer, link.AgentOpenParams{Agent: "blind", Session: "chat-2"})
	require.NoError(t, err)
	assert.False(t, o.Images)
	_, err = link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-2", Text: "hello", Attached: []attach.Item{{Name: "me.png", Mime: "image/png", Data: png}}})
	assert.ErrorContains(t, err, "Blind Agent does not take pictures, so “me.png” cannot go")
}
