package core

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
)

// The MCP bridge of seed 000: with it on, Skiff opens a WebSocket to an agent's
// {url}/ext-mcp, registers with the token the agent gave the user, and answers the agent's
// TOOL_CALLs with TOOL_RESULTs. Its seven tools map onto Skiff's own, in the agent's own tab
// group, each through the gate as "the agent at HOST" (the same path as an MCP client through
// skiffd); what would hand over the user's chats is refused, and a memory the agent wants to
// add asks first. After a failure it retries with the link's backoff (1 s doubling to 30 s).

// bridgeFrame is one message of the bridge protocol.
type bridgeFrame struct {
	Type         string          `json:"type"`
	Token        string          `json:"token,omitempty"`
	Capabilities []string        `json:"capabilities,omitempty"`
	ID           string          `json:"id,omitempty"`
	Tool         string          `json:"tool,omitempty"`
	Args         json.RawMessage `json:"args,omitempty"`
	Result       any             `json:"result,omitempty"`
	Error        string          `json:"error,omitempty"`
}

// bridgeTools are the tools the bridge offers, as seed 000 names them.
var bridgeTools = []string{"get_page_context", "navigate_to", "inject_prompt", "get_selection", "run_script", "get_chat_history", "add_memory"}

// UpdateBridge is the push that carries the bridge's status: {"type": "bridge.status", "bridge": …}.
const UpdateBridge = "bridge.status"

// UpdateInject is the push that puts an agent's prompt in the panel's message box (never sent
// for the user): {"type": "composer.inject", "text": …, "from": …}.
const UpdateInject = "composer.inject"

// The bridge's words for the user (their French is in ui/_locales).
var (
	sayBridgeConnecting = i18n.Sentence{Key: "bridgeConnecting", English: "Connecting to $1…"}
	sayBridgeConnected  = i18n.Sentence{Key: "bridgeConnected", English: "Connected to $1: it can ask for Skiff's tools; every call passes your permissions."}
	sayBridgeFailed     = i18n.Sentence{Key: "bridgeFailed", English: "Skiff could not reach $1 ($2). It tries again by itself."}
	sayBridgeClosed     = i18n.Sentence{Key: "bridgeClosed", English: "$1 closed the connection. Skiff reconnects by itself."}
	sayBridgeNoToken    = i18n.Sentence{Key: "bridgeNoToken", English: "Paste the token the agent gave you to connect."}
)

type bridge struct {
	c      *Core
	mu     sync.Mutex
	run    restartable[store.BridgeSettings]
	status LinkStatus
}

// startBridge (re)starts the bridge when its settings changed; off, it stops it.
func (c *Core) startBridge(s store.BridgeSettings) {
	if c.Dialer == nil {
		return
	}
	b := &c.bridge
	addr, host, err := store.BridgeURL(s.URL)
	on := s.Enabled && s.Token != "" && err == nil
	b.mu.Lock()
	wasOn, changed := b.run.restart(s, on, func(ctx context.Context) { b.loop(ctx, addr, s.Token, host) })
	b.mu.Unlock()
	if !changed {
		return
	}
	// The link's alarm wakes a stopped worker to reconnect while either wants it (a worker
	// starting with both off makes no chrome.alarms call).
	if on || wasOn {
		go agent.Safe("waking the link", func() { c.Dialer.Wake(context.Background(), on || c.linkWanted()) })
	}
	switch {
	case on:
	case s.Enabled && s.Token == "":
		b.set(status("off", sayBridgeNoToken.With()))
	default:
		b.set(LinkStatus{State: "off"})
	}
}

// bridgeWanted reports whether the bridge is on.
func (c *Core) bridgeWanted() bool {
	c.bridge.mu.Lock()
	defer c.bridge.mu.Unlock()
	return c.bridge.run.running()
}

func (b *bridge) set(st LinkStatus) {
	b.mu.Lock()
	b.status = st
	b.mu.Unlock()
	b.c.broadcastPanels(struct {
		Type   string     `json:"type"`
		Bridge LinkStatus `json:"bridge"`
	}{UpdateBridge, st})
}

// Status is the bridge's status, for core.hello.
func (b *bridge) Status() LinkStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.status.State == "" {
		return LinkStatus{State: "off"}
	}
	return b.status
}

func (b *bridge) loop(ctx context.Context, addr, token, host string) {
	for fails := 0; ctx.Err() == nil; {
		b.set(status("connecting", sayBridgeConnecting.With(host)))
		welcomed, err := b.session(ctx, addr, token, host)
		if ctx.Err() != nil {
			return
		}
		if welcomed {
			fails = 0
		}
		wait := link.Backoff(fails)
		fails++
		st := status("waiting", err)
		st.RetryAt = time.Now().Add(wait).UnixMilli()
		b.set(st)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
	}
}

// session runs one connection: REGISTER, then calls until it closes. It reports whether the
// connection was up (to reset the backoff) and, when it ends, why in words.
func (b *bridge) session(ctx context.Context, addr, token, host string) (bool, i18n.Text) {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	sock, err := b.c.Dialer.Dial(dctx, addr)
	cancel()
	if err != nil {
		return false, sayBridgeFailed.With(host, strings.TrimSuffix(err.Error(), "."))
	}
	defer sock.Close("")
	reg, _ := json.Marshal(bridgeFrame{Type: "REGISTER", Token: token, Capabilities: bridgeTools})
	if err := sock.Write(ctx, reg); err != nil {
		return false, sayBridgeFailed.With(host, strings.TrimSuffix(err.Error(), "."))
	}
	b.set(status("connected", sayBridgeConnected.With(host)))
	client := link.Client{ID: "bridge:" + host, Name: "the agent at " + host}
	var wmu sync.Mutex
	for {
		raw, err := sock.Read(ctx)
		if err != nil {
			return true, sayBridgeClosed.With(host)
		}
		var f bridgeFrame
		if json.Unmarshal(raw, &f) != nil || f.Type != "TOOL_CALL" || f.ID == "" {
			continue // not a call: nothing to answer
		}
		go agent.Safe("a call from an agent's bridge", func() {
			out := bridgeFrame{Type: "TOOL_RESULT", ID: f.ID}
			res, errText := b.c.bridgeCall(ctx, client, f.ID, f.Tool, f.Args)
			if errText != "" {
				out.Error = errText
			} else {
				out.Result = res
			}
			msg, _ := json.Marshal(out)
			wmu.Lock()
			defer wmu.Unlock()
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			_ = sock.Write(wctx, msg)
		})
	}
}

// bridgeCall answers one of the agent's calls with seed 000's result shape, or an error in
// words. Every tool that reaches the browser goes through the gate as the agent's own call.
func (c *Core) bridgeCall(ctx context.Context, client link.Client, id, name string, args json.RawMessage) (any, string) {
	var a struct {
		URL     string `json:"url"`
		Code    string `json:"code"`
		Prompt  string `json:"prompt"`
		Content string `json:"content"`
	}
	if len(args) > 0 && json.Unmarshal(args, &a) != nil {
		return nil, "The arguments of " + name + " are not a JSON object."
	}
	call := func(tool string, args any) (*link.CallResult, string) {
		raw, _ := json.Marshal(args)
		r := c.link.call(ctx, client, "b"+id, tool, raw, func(string) {})
		if r.IsError {
			return r, r.Text
		}
		return r, ""
	}
	switch name {
	case "get_page_context", "get_selection":
		// The page the user is looking at: a tab outside the agent's own group, so reading it
		// asks every time (the gate's rule for outside clients). The tab's address, title and
		// selection come with what it allowed.
		if c.Browser == nil {
			return nil, "Skiff has no browser to read."
		}
		t, err := c.Browser.ActiveTab(ctx, 0)
		if err != nil {
			return nil, "Skiff could not find the page you are looking at: " + err.Error() + "."
		}
		r, bad := call("read_text", map[string]any{"tabId": t.ID})
		if bad != "" {
			return nil, bad
		}
		sel, _ := tool.NewEnv(c.Browser, t.ID, 0).Selection(ctx, t.ID)
		if name == "get_selection" {
			return map[string]any{"text": sel}, ""
		}
		return map[string]any{"url": t.URL, "title": t.Title, "text": r.Text, "selectedText": sel}, ""
	case "navigate_to":
		if _, bad := call("navigate", map[string]any{"url": a.URL}); bad != "" {
			return nil, bad
		}
		return map[string]any{"ok": true}, ""
	case "run_script":
		r, bad := call("run_script", map[string]any{"code": a.Code})
		if bad != "" {
			return nil, bad
		}
		var v any
		if json.Unmarshal([]byte(r.Text), &v) != nil {
			v = r.Text
		}
		return map[string]any{"result": v}, ""
	case "inject_prompt":
		text := strings.TrimSpace(a.Prompt)
		if text == "" {
			return nil, "inject_prompt takes {\"prompt\": text}."
		}
		// The prompt waits in the message box for the user to read and send: an agent never
		// speaks in the user's name.
		c.broadcastPanels(struct {
			Type string `json:"type"`
			Text string `json:"text"`
			From string `json:"from"`
		}{UpdateInject, text, client.Name})
		return map[string]any{"ok": true}, ""
	case "get_chat_history":
		return nil, "Skiff does not share the user's chats with outside agents."
	case "add_memory":
		content := strings.TrimSpace(a.Content)
		if content == "" {
			return nil, "add_memory takes {\"content\": text}."
		}
		// A memory goes into every later chat's instructions, so the user decides.
		w := c.link.space(ctx, client)
		pc, ruling, refused := c.clientAsk(ctx, w, id, "add_memory", "memory:add", "remember “"+content+"”")
		if refused != "" {
			return nil, refused
		}
		c.gate.Record(context.WithoutCancel(ctx), pc, ruling, sayMemoryAdded.With(), true)
		m, err := c.Store.AddMemory(ctx, store.Memory{ID: agent.NewID(), Content: content, Source: store.SourceAgent, CreatedAt: time.Now().UnixMilli()})
		if err != nil {
			msg, _ := Sentence(err)
			return nil, msg
		}
		return map[string]any{"ok": true, "memory": m}, ""
	}
	return nil, "Skiff has no tool " + name + " (it offers " + strings.Join(bridgeTools, ", ") + ")."
}

// clientAsk asks the user, through the gate, to let the client of workspace w do what outside
// the browser (keep a memory, save a workflow), as call id of tool, under permission perm. It
// returns the call and how the gate ruled, or the sentence the client gets when it may not.
func (c *Core) clientAsk(ctx context.Context, w *workspace, id, tool, perm, what string) (permission.Call, permission.Ruling, string) {
	pc := permission.Call{ID: "b" + id, Caller: w.task.Caller, What: what,
		Request: permission.Request{Tool: tool, Risk: permission.RiskKeep, Permission: perm, Origin: "agent://" + w.id}}
	ruling, err := c.gate.Decide(ctx, pc, time.Time{}, nil)
	if err != nil || !ruling.Allow {
		return pc, ruling, "The user did not allow it: " + strings.TrimSuffix(cmp.Or(ruling.Why, "no answer came"), ".") + "."
	}
	return pc, ruling, ""
}
