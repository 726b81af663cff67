//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// bridgeAgent is an agent that speaks seed 000's bridge: it serves /ext-mcp, takes the
// browser's REGISTER, and sends TOOL_CALLs whose TOOL_RESULTs a test reads.
type bridgeAgent struct {
	*httptest.Server
	mu       sync.Mutex
	register map[string]any
	conn     *websocket.Conn
	ready    chan struct{}
	results  chan map[string]any
}

func newBridgeAgent(t *testing.T) *bridgeAgent {
	t.Helper()
	a := &bridgeAgent{ready: make(chan struct{}), results: make(chan map[string]any, 16)}
	var once sync.Once
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ext-mcp" {
			http.NotFound(w, r)
			return
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: []string{"chrome-extension://*"}})
		if err != nil {
			return
		}
		ctx := r.Context()
		_, b, err := c.Read(ctx)
		if err != nil {
			return
		}
		var reg map[string]any
		_ = json.Unmarshal(b, &reg)
		a.mu.Lock()
		a.register, a.conn = reg, c
		a.mu.Unlock()
		once.Do(func() { close(a.ready) })
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			var res map[string]any
			if json.Unmarshal(b, &res) == nil {
				a.results <- res
			}
		}
	}))
	t.Cleanup(a.Close)
	return a
}

// call sends a TOOL_CALL; result waits for its TOOL_RESULT.
func (a *bridgeAgent) call(t *testing.T, id, tool string, args any) {
	t.Helper()
	a.mu.Lock()
	c := a.conn
	a.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"type": "TOOL_CALL", "id": id, "tool": tool, "args": args})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
}

func (a *bridgeAgent) result(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case r := <-a.results:
			if r["id"] == id {
				return r
			}
		case <-deadline:
			t.Fatalf("no TOOL_RESULT for %s", id)
		}
	}
}

// Seed 000's MCP bridge, as a user sets it up: the agent's address and token in Settings;
// Skiff connects and registers with the token; the agent's calls pass the gate as "the agent
// at HOST" (its read of the page asks above the message box, and the answer lets it through);
// the user's chats are never handed over; a prompt it injects waits in the message box, unsent;
// a memory it wants asks, and a refusal stores nothing.
func TestMCPBridgeAnswersAnAgentThroughTheGate(t *testing.T) {
	site := testkit.NewSite(t)
	agent := newBridgeAgent(t)
	host := strings.TrimPrefix(agent.URL, "http://")
	who := "the agent at " + host
	panel := browser.FreshPanel(t)
	page := site.Page("counter.html")
	openTab(t, panel, page)

	// A bad address is refused next to its field.
	got := JS[string](t, panel, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, bridge: {enabled: true, url: "ftp://x"}}, keys: {}})).then(() => "saved", (e) => e.field)`)
	if got != "bridgeURL" {
		t.Errorf("a bad address: %q", got)
	}
	JS[bool](t, panel, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, bridge: {enabled: true, url: `+jsString(agent.URL)+`}}, keys: {}, bridgeToken: "agent-token-1"})).then(() => true)`)
	select {
	case <-agent.ready:
	case <-time.After(30 * time.Second):
		t.Fatal("Skiff did not connect to the agent's /ext-mcp")
	}
	agent.mu.Lock()
	reg := agent.register
	agent.mu.Unlock()
	if reg["type"] != "REGISTER" || reg["token"] != "agent-token-1" || !strings.Contains(jsonString(reg["capabilities"]), "get_page_context") {
		t.Errorf("REGISTER: %v", reg)
	}
	if s := JS[string](t, panel, `skiffTest.call("core.hello").then(st => JSON.stringify([st.bridge.state, st.settings.bridge.token || "", st.settings.hasBridgeToken]))`); s != `["connected","",true]` {
		t.Errorf("the bridge as the panel sees it (the token stays in the core): %s", s)
	}

	// Reading the page asks first; allowed, the agent gets the page.
	agent.call(t, "c1", "get_page_context", map[string]any{})
	ask := `#outside-asks .outside-ask[data-who=` + jsString(who) + `] button[data-decision="allow_once"]`
	WaitJS(t, panel, `document.querySelector(`+jsString(ask)+`)`)
	Click(t, panel, `document.querySelector(`+jsString(ask)+`)`)
	r := agent.result(t, "c1")
	res, _ := r["result"].(map[string]any)
	if res == nil || res["url"] != page || !strings.Contains(jsonString(res["text"]), "Each button counts its clicks") {
		t.Errorf("get_page_context: %v", r)
	}

	// The user's chats stay theirs.
	agent.call(t, "c2", "get_chat_history", map[string]any{})
	if r := agent.result(t, "c2"); r["result"] != nil || !strings.Contains(jsonString(r["error"]), "does not share") {
		t.Errorf("get_chat_history: %v", r)
	}

	// An injected prompt waits in the message box.
	agent.call(t, "c3", "inject_prompt", map[string]any{"prompt": "Summarise this page"})
	if r := agent.result(t, "c3"); jsonString(r["result"]) != `{"ok":true}` {
		t.Errorf("inject_prompt: %v", r)
	}
	WaitJS(t, panel, `document.getElementById("input").value === "Summarise this page" && document.querySelectorAll('#messages .msg[data-role="user"]').length === 0`)

	// A memory asks; refused, nothing is stored.
	agent.call(t, "c4", "add_memory", map[string]any{"content": "The user likes sails"})
	deny := `#outside-asks .outside-ask[data-who=` + jsString(who) + `] button[data-decision="deny_once"]`
	WaitJS(t, panel, `document.querySelector(`+jsString(deny)+`)`)
	Click(t, panel, `document.querySelector(`+jsString(deny)+`)`)
	if r := agent.result(t, "c4"); r["result"] != nil || !strings.Contains(jsonString(r["error"]), "did not allow") {
		t.Errorf("add_memory refused: %v", r)
	}
	if n := JS[int](t, panel, `skiffTest.call("memory.list").then(l => (l || []).length)`); n != 0 {
		t.Errorf("%d memories stored after a refusal", n)
	}

	JS[bool](t, panel, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, bridge: {enabled: false, url: ""}}, keys: {}})).then(() => true)`)
	WaitJS(t, panel, `skiffTest.call("core.hello").then(st => st.bridge.state === "off")`)
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
