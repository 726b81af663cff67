//go:build !js

package daemon

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/link/wslink"
)

// running is a real skiffd front on a loopback port, with a hub and its configuration.
func running(t *testing.T, setup ...func(*Config)) (*Config, *Hub, string) {
	t.Helper()
	cfg, err := Load(t.TempDir())
	require.NoError(t, err)
	for _, f := range setup {
		f(cfg)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cfg.Port = ln.Addr().(*net.TCPAddr).Port
	hub, _ := serveOn(t, ln, cfg)
	return cfg, hub, "http://127.0.0.1:" + strconv.Itoa(cfg.Port)
}

// serveOn serves cfg's skiffd on ln until the test ends, or until the func it returns stops it
// (and waits until it has).
func serveOn(t *testing.T, ln net.Listener, cfg *Config) (*Hub, func()) {
	hub := NewHub(cfg.PairToken)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = Serve(ctx, ln, cfg, hub, nil) }()
	stop := func() { cancel(); <-done }
	t.Cleanup(stop)
	return hub, stop
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func post(t *testing.T, url string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(initialize))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp
}

// The MCP endpoint's walls: the bearer token, the Host (DNS rebinding), the Origin (web
// pages), the protocol version. Each case is one request a stranger could make.
func TestMCPEndpointRefusesStrangers(t *testing.T) {
	cfg, _, base := running(t)
	auth := "Bearer " + cfg.MCPToken
	hostport := "127.0.0.1:" + strconv.Itoa(cfg.Port)
	cases := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"the owner's client", map[string]string{"Authorization": auth}, http.StatusOK},
		{"localhost by name", map[string]string{"Authorization": auth, "Host": "localhost:" + strconv.Itoa(cfg.Port)}, http.StatusOK},
		{"an inspector page on loopback", map[string]string{"Authorization": auth, "Origin": "http://localhost:6274"}, http.StatusOK},
		{"no token", nil, http.StatusUnauthorized},
		{"a wrong token", map[string]string{"Authorization": "Bearer " + NewToken("skm_")}, http.StatusUnauthorized},
		{"the pairing token is not the MCP token", map[string]string{"Authorization": "Bearer " + cfg.PairToken}, http.StatusUnauthorized},
		{"a token without Bearer", map[string]string{"Authorization": cfg.MCPToken}, http.StatusUnauthorized},
		{"a DNS-rebinding Host", map[string]string{"Authorization": auth, "Host": "evil.example:" + strconv.Itoa(cfg.Port)}, http.StatusMisdirectedRequest},
		{"a Host on another port", map[string]string{"Authorization": auth, "Host": "127.0.0.1:1"}, http.StatusMisdirectedRequest},
		{"a web page's Origin", map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"a rebinding page's Origin", map[string]string{"Authorization": auth, "Origin": "http://" + hostport + ".evil.example"}, http.StatusForbidden},
		{"an unsupported protocol version", map[string]string{"Authorization": auth, "MCP-Protocol-Version": "1999-01-01"}, http.StatusBadRequest},
	}
	for _, tc := range cases {
		resp := post(t, base+"/mcp", tc.hdr)
		assert.Equal(t, tc.want, resp.StatusCode, tc.name)
	}
	// A session id is not authentication: a request with a real session id and no token fails.
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, sid)
	resp = post(t, base+"/mcp", map[string]string{"Mcp-Session-Id": sid})
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "a session id without the token")
	// /status needs the token too.
	r, err := http.Get(base + "/status")
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, r.StatusCode)
}

func dialExt(ctx context.Context, base, origin string) (*websocket.Conn, *http.Response, error) {
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	return websocket.Dial(ctx, strings.Replace(base, "http://", "ws://", 1)+link.Path, &websocket.DialOptions{HTTPHeader: h})
}

// The extension's socket: only our extension's origin, then only with the pairing token.
func TestExtensionLinkRefusesStrangers(t *testing.T) {
	cfg, hub, base := running(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, origin := range []string{"https://evil.example", "http://127.0.0.1:" + strconv.Itoa(cfg.Port), "chrome-extension://abcdefghijklmnopabcdefghijklmnop", "null", ""} {
		_, resp, err := dialExt(ctx, base, origin)
		require.Error(t, err, origin)
		if assert.NotNil(t, resp, origin) {
			assert.Equal(t, http.StatusForbidden, resp.StatusCode, origin)
		}
	}
	// The right origin with a wrong token: refused with a reason, and the link stays down.
	c, _, err := dialExt(ctx, base, "chrome-extension://"+ExtensionID)
	require.NoError(t, err)
	b, _ := json.Marshal(link.Handshake{Type: link.Hello, Token: NewToken("skp_"), Protocol: link.Protocol})
	require.NoError(t, c.Write(ctx, websocket.MessageText, b))
	_, msg, err := c.Read(ctx)
	require.NoError(t, err)
	var m link.Handshake
	require.NoError(t, json.Unmarshal(msg, &m))
	assert.Equal(t, link.Refused, m.Type)
	assert.Contains(t, m.Message, "skiffd pair")
	_, _, err = c.Read(ctx)
	assert.Error(t, err, "the socket is closed after a refusal")
	assert.False(t, hub.Status().Connected)
	assert.NotZero(t, hub.Status().Refused)
	// The MCP token is not the pairing token either.
	c, _, err = dialExt(ctx, base, "chrome-extension://"+ExtensionID)
	require.NoError(t, err)
	b, _ = json.Marshal(link.Handshake{Type: link.Hello, Token: cfg.MCPToken, Protocol: link.Protocol})
	require.NoError(t, c.Write(ctx, websocket.MessageText, b))
	_, msg, _ = c.Read(ctx)
	assert.Contains(t, string(msg), link.Refused)
	assert.False(t, hub.Status().Connected)
	// The right token from an extension of another version: refused, saying which to update.
	c, _, err = dialExt(ctx, base, "chrome-extension://"+ExtensionID)
	require.NoError(t, err)
	b, _ = json.Marshal(link.Handshake{Type: link.Hello, Token: cfg.PairToken, Protocol: 1})
	require.NoError(t, c.Write(ctx, websocket.MessageText, b))
	_, msg, _ = c.Read(ctx)
	assert.Contains(t, string(msg), "update the extension")
	assert.False(t, hub.Status().Connected)
}

// A linked extension (a real socket speaking the link, as the worker does) gets an MCP
// client's call, names the client, and its answers come back as MCP results: text, an image,
// and a failure as isError, not a protocol error. A second link replaces the first.
func TestCallsReachTheLinkedExtension(t *testing.T) {
	cfg, hub, base := running(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// No browser linked: a call is a tool error that says what to do.
	c := mcp.NewClient(&mcp.Implementation{Name: "claude-code", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: BearerClient(cfg.MCPToken)}, nil)
	require.NoError(t, err)
	defer cs.Close()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tabs_list", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.True(t, r.IsError)
	assert.Contains(t, r.Content[0].(*mcp.TextContent).Text, "skiffd pair")

	ws, _, err := dialExt(ctx, base, "chrome-extension://"+ExtensionID)
	require.NoError(t, err)
	b, _ := json.Marshal(link.Handshake{Type: link.Hello, Token: cfg.PairToken, Version: "test", Protocol: link.Protocol})
	require.NoError(t, ws.Write(ctx, websocket.MessageText, b))
	_, msg, err := ws.Read(ctx)
	require.NoError(t, err)
	assert.Contains(t, string(msg), link.Welcome)
	require.Eventually(t, func() bool { return hub.Status().Connected }, 5*time.Second, 10*time.Millisecond)

	// The "extension" answers each call: navigate succeeds, screenshot returns an image,
	// click fails as a denied call does. It answers no pings.
	seen := make(chan link.CallParams, 10)
	hs := link.Handlers{}
	link.ToolCall.Handle(hs, func(_ context.Context, m link.CallParams) (link.CallResult, error) {
		seen <- m
		res := link.CallResult{Text: "Loaded " + string(m.Args)}
		switch m.Tool {
		case "screenshot":
			res = link.CallResult{Text: "Screenshot.", Image: &link.Image{Mime: "image/png", Data: []byte("\x89PNG fake")}}
		case "click":
			res = link.CallResult{Text: "The user denied this call.", IsError: true}
		}
		return res, nil
	})
	link.Ping.Handle(hs, func(ctx context.Context, _ struct{}) (struct{}, error) {
		<-ctx.Done()
		return struct{}{}, ctx.Err()
	})
	ext := link.NewPeer(wslink.Conn(ws), hs)
	go func() { _ = ext.Run(ctx, 0) }()
	r, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "navigate", Arguments: map[string]any{"url": "https://example.com/"}})
	require.NoError(t, err)
	assert.False(t, r.IsError)
	m := <-seen
	assert.Equal(t, "navigate", m.Tool)
	assert.Equal(t, "claude-code", m.Client.Name)
	assert.JSONEq(t, `{"url":"https://example.com/"}`, string(m.Args))

	r, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "screenshot", Arguments: map[string]any{}})
	require.NoError(t, err)
	<-seen
	var img *mcp.ImageContent
	for _, c := range r.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			img = ic
		}
	}
	require.NotNil(t, img)
	assert.Equal(t, "image/png", img.MIMEType)

	r, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "click", Arguments: map[string]any{"ref": "e1"}})
	require.NoError(t, err, "a denial is a tool result, not a protocol error")
	<-seen
	assert.True(t, r.IsError)

	// Probe: a ping the extension must answer (here, nobody answers pings: it times out).
	pctx, pcancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, err = hub.Probe(pctx)
	pcancel()
	assert.Error(t, err)

	// The tools are the registry's, with their schemas.
	var names []string
	for tl, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		names = append(names, tl.Name)
	}
	assert.Contains(t, names, "snapshot")
	assert.Contains(t, names, "workflow_list")
	assert.Contains(t, names, "workflow_run")
	assert.NotContains(t, names, "tab_read", "hidden aliases are not offered")
}

func TestBackoff(t *testing.T) {
	var got []time.Duration
	for n := range 7 {
		got = append(got, link.Backoff(n))
	}
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second}, got)
}

func TestNativeFraming(t *testing.T) {
	var buf strings.Builder
	w := &NativeConn{W: &buf}
	require.NoError(t, w.Write(context.Background(), []byte(`{"type":"ping"}`)))
	assert.Equal(t, "\x0f\x00\x00\x00{\"type\":\"ping\"}", buf.String())
	r := &NativeConn{R: strings.NewReader(buf.String() + buf.String())}
	for range 2 {
		b, err := r.Read(context.Background())
		require.NoError(t, err)
		assert.Equal(t, `{"type":"ping"}`, string(b))
	}
	_, err := r.Read(context.Background())
	assert.Error(t, err)
	assert.Error(t, w.Write(context.Background(), make([]byte, MaxNativeMessage+1)), "Chrome's 1 MB limit")
}

func TestInstallWritesHostManifests(t *testing.T) {
	cfg, err := Load(t.TempDir())
	require.NoError(t, err)
	dirs := []string{t.TempDir() + "/chrome/NativeMessagingHosts", t.TempDir() + "/brave/NativeMessagingHosts"}
	files, err := Install(cfg, "/usr/local/bin/skiffd", dirs)
	require.NoError(t, err)
	require.Len(t, files, 2)
	var m HostManifest
	b, _ := readFile(files[0])
	require.NoError(t, json.Unmarshal(b, &m))
	assert.Equal(t, HostManifest{Name: "ai.skiff.skiffd", Description: m.Description, Path: "/usr/local/bin/skiffd", Type: "stdio",
		AllowedOrigins: []string{"chrome-extension://" + ExtensionID + "/"}}, m)
	_, err = Install(cfg, "skiffd", dirs)
	assert.Error(t, err, "a relative path")
}

func TestConfigKeepsItsTokensPrivate(t *testing.T) {
	dir := t.TempDir()
	a, err := Load(dir)
	require.NoError(t, err)
	b, err := Load(dir)
	require.NoError(t, err)
	assert.Equal(t, a.MCPToken, b.MCPToken)
	assert.NotEqual(t, a.MCPToken, a.PairToken)
	st, err := statMode(dir + "/config.json")
	require.NoError(t, err)
	assert.Equal(t, "-rw-------", st)
}

// skiffd stdio, while a `skiffd serve` holds the port, relays its client's calls there under
// the client's own name, and the progress the extension reports of a call back to the client.
func TestStdioRelaysToTheRunningSkiffd(t *testing.T) {
	cfg, _, base := running(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, _, err := dialExt(ctx, base, "chrome-extension://"+ExtensionID)
	require.NoError(t, err)
	b, _ := json.Marshal(link.Handshake{Type: link.Hello, Token: cfg.PairToken, Protocol: link.Protocol})
	require.NoError(t, ws.Write(ctx, websocket.MessageText, b))
	_, _, err = ws.Read(ctx)
	require.NoError(t, err)
	names := make(chan string, 1)
	hs := link.Handlers{}
	var peer *link.Peer
	answered := make(chan struct{}) // the user answers once the client heard that the call waits
	link.ToolCall.Handle(hs, func(ctx context.Context, m link.CallParams) (link.CallResult, error) {
		names <- m.Client.Name
		_ = link.CallProgress.Notify(ctx, peer, link.Progress{CallID: m.CallID, Message: "Waiting for the user to allow or deny this call (tabs_list) in the browser."})
		select {
		case <-answered:
		case <-ctx.Done():
		}
		return link.CallResult{Text: "[1] Example"}, nil
	})
	peer = link.NewPeer(wslink.Conn(ws), hs)
	go func() { _ = peer.Run(ctx, 0) }()

	cr, sw := io.Pipe() // client reads what skiffd writes
	sr, cw := io.Pipe() // skiffd reads what the client writes
	go func() { _ = Stdio(ctx, cfg, sr, sw) }()
	heard := make(chan *mcp.ProgressNotificationParams, 8)
	c := mcp.NewClient(&mcp.Implementation{Name: "cursor", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { heard <- r.Params }})
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	require.NoError(t, err)
	defer cs.Close()
	p := &mcp.CallToolParams{Name: "tabs_list", Arguments: map[string]any{}}
	p.SetProgressToken("tabs-1")
	go func() {
		select {
		case h := <-heard:
			assert.Equal(t, "tabs-1", h.ProgressToken)
			assert.Equal(t, "Waiting for the user to allow or deny this call (tabs_list) in the browser.", h.Message)
		case <-ctx.Done():
			t.Error("the client did not hear the call's progress through the relay")
		}
		close(answered)
	}()
	r, err := cs.CallTool(ctx, p)
	require.NoError(t, err)
	assert.False(t, r.IsError)
	assert.Equal(t, "[1] Example", r.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, "cursor", <-names)
}
