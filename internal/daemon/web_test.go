//go:build !js

package daemon

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/link/wslink"
)

// The web client is reachable only by pairing: a code comes only with the MCP token, works
// once, and only from skiffd's own page; the WebSocket needs the exact origin and the cookie;
// a page on another origin gets nothing; the static app itself is served (it holds nothing).
func TestWebClientNeedsPairing(t *testing.T) {
	cfg, _, base := running(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	self := base // the page's origin: http://127.0.0.1:PORT

	r, err := http.Get(base + "/app/")
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, http.StatusOK, r.StatusCode)
	r, err = http.Get(base + "/app/manifest.webmanifest")
	require.NoError(t, err)
	var man struct {
		Icons []struct{ Sizes string } `json:"icons"`
	}
	require.NoError(t, json.NewDecoder(r.Body).Decode(&man))
	r.Body.Close()
	assert.Len(t, man.Icons, 2)

	// No code without the MCP token.
	r, err = http.Post(base+"/app/code", "", nil)
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, r.StatusCode)
	newCode := func() string {
		req, _ := http.NewRequest("POST", base+"/app/code", nil)
		r, err := BearerClient(cfg.MCPToken).Do(req)
		require.NoError(t, err)
		defer r.Body.Close()
		var out struct{ Code, URL string }
		require.NoError(t, json.NewDecoder(r.Body).Decode(&out))
		assert.True(t, strings.HasSuffix(out.URL, "/app/#code="+out.Code), "the code is in the fragment: %s", out.URL)
		return out.Code
	}

	jar, _ := cookiejar.New(nil)
	pair := func(origin, code string) int {
		req, _ := http.NewRequest("POST", base+"/app/pair", strings.NewReader(`{"code":"`+code+`"}`))
		req.Header.Set("Origin", origin)
		r, err := (&http.Client{Jar: jar}).Do(req)
		require.NoError(t, err)
		r.Body.Close()
		return r.StatusCode
	}
	code := newCode()
	assert.Equal(t, http.StatusForbidden, pair("https://evil.example", code), "another origin cannot pair")
	assert.Equal(t, http.StatusNoContent, pair(self, code))
	assert.Equal(t, http.StatusForbidden, pair(self, code), "a code works once")
	assert.Equal(t, http.StatusForbidden, pair(self, "made-up"))
	u, _ := url.Parse(base + "/app/")
	cookies := jar.Cookies(u)
	require.Len(t, cookies, 1)

	dial := func(origin string, withCookie bool) (*websocket.Conn, int) {
		h := http.Header{}
		h.Set("Origin", origin)
		if withCookie {
			h.Set("Cookie", cookies[0].Name+"="+cookies[0].Value)
		}
		ws, resp, err := websocket.Dial(ctx, strings.Replace(base, "http://", "ws://", 1)+"/app/ws", &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			return nil, resp.StatusCode
		}
		return ws, http.StatusSwitchingProtocols
	}
	_, st := dial("https://evil.example", true)
	assert.Equal(t, http.StatusForbidden, st, "a page on another origin, even with the cookie")
	_, st = dial(self, false)
	assert.Equal(t, http.StatusUnauthorized, st, "skiffd's page without pairing")
	ws, st := dial(self, true)
	require.Equal(t, http.StatusSwitchingProtocols, st)
	p := link.NewPeer(wslink.Conn(ws), nil)
	go func() { _ = p.Run(ctx, 0) }()
	agents, err := link.AgentList.Call(ctx, p, struct{}{})
	require.NoError(t, err)
	assert.NotEmpty(t, agents)
	_, err = link.ToolCall.Call(ctx, p, link.CallParams{Tool: "tabs_list"})
	assert.Error(t, err, "the web client has no browser tools")
}
