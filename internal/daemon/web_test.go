//go:build !js

package daemon

import (
	"context"
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// A pairing outlives skiffd (a laptop that rebooted): started again on the same configuration,
// skiffd still knows the browser, and keeps on disk only its cookie's hash, readable by its
// owner. `skiffd unpair` forgets every pairing and closes their links at once; with skiffd
// stopped, it forgets the ones on disk.
func TestWebClientPairingsOutliveARestart(t *testing.T) {
	cfg, err := Load(t.TempDir())
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cfg.Port = ln.Addr().(*net.TCPAddr).Port
	base := "http://127.0.0.1:" + strconv.Itoa(cfg.Port)
	_, stop := serveOn(t, ln, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pairs := func() *http.Cookie {
		c, st := newCode(t, cfg, base, false)
		require.Equal(t, http.StatusOK, st)
		req, _ := http.NewRequest("POST", base+"/app/pair", strings.NewReader(`{"code":"`+c.Code+`"}`))
		req.Header.Set("Origin", base)
		r, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		r.Body.Close()
		require.Equal(t, http.StatusNoContent, r.StatusCode)
		require.Len(t, r.Cookies(), 1)
		return r.Cookies()[0]
	}
	known := func(c *http.Cookie) int {
		req, _ := http.NewRequest("GET", base+"/app/paired", nil)
		req.AddCookie(c)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0 // skiffd is not running
		}
		r.Body.Close()
		return r.StatusCode
	}
	laptop, phone := pairs(), pairs()
	assert.Equal(t, http.StatusNoContent, known(laptop))
	assert.Equal(t, http.StatusUnauthorized, known(&http.Cookie{Name: laptop.Name, Value: laptop.Value + "x"}))

	file := filepath.Join(cfg.Dir(), "webclients.json")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.NotContains(t, string(b), laptop.Value, "the file holds no cookie a browser could present")
	assert.Contains(t, string(b), cookieHash(laptop.Value))
	mode, err := statMode(file)
	require.NoError(t, err)
	assert.Equal(t, "-rw-------", mode)

	// skiffd restarts on the same configuration: both browsers are still paired.
	restart := func() func() {
		// The listener the test had is closed with the server; a new one takes its port.
		require.Eventually(t, func() bool { ln, err = Listen(cfg.Port); return err == nil }, 5*time.Second, 50*time.Millisecond)
		_, stop := serveOn(t, ln, cfg)
		return stop
	}
	stop()
	assert.Equal(t, 0, known(laptop), "skiffd stopped")
	stop = restart()
	assert.Equal(t, http.StatusNoContent, known(laptop), "the pairing outlived the restart")
	assert.Equal(t, http.StatusNoContent, known(phone))

	// A paired browser's link, open when the pairings are forgotten, closes.
	h := http.Header{}
	h.Set("Origin", base)
	h.Set("Cookie", laptop.Name+"="+laptop.Value)
	ws, _, err := websocket.Dial(ctx, strings.Replace(base, "http://", "ws://", 1)+"/app/ws", &websocket.DialOptions{HTTPHeader: h})
	require.NoError(t, err)
	closed := make(chan struct{})
	p := link.NewPeer(wslink.Conn(ws), nil)
	go func() { _ = p.Run(ctx, 0); close(closed) }()
	_, err = link.AgentList.Call(ctx, p, struct{}{})
	require.NoError(t, err)

	// `skiffd unpair` asks the running skiffd, with the MCP token only.
	r, err := http.Post(base+"/app/unpair", "", nil)
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, r.StatusCode, "no unpairing without the MCP token")
	req, _ := http.NewRequest("POST", base+"/app/unpair", nil)
	r, err = BearerClient(cfg.MCPToken).Do(req)
	require.NoError(t, err)
	var out UnpairReply
	require.NoError(t, json.NewDecoder(r.Body).Decode(&out))
	r.Body.Close()
	assert.Equal(t, 2, out.Forgot)
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("the unpaired browser's link stayed open")
	}
	assert.Equal(t, http.StatusUnauthorized, known(laptop))
	assert.NoFileExists(t, file)

	// With skiffd stopped, unpair forgets what is on disk.
	tablet := pairs()
	stop()
	n, err := ForgetPairings(cfg.Dir())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	restart()
	assert.Equal(t, http.StatusUnauthorized, known(tablet))
}

// A pairings file that expired or was damaged pairs nothing, and skiffd still starts.
func TestWebClientPairingsFileBadOrOld(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	good, old := cookieHash("good"), cookieHash("old")
	require.NoError(t, savePairings(dir, map[string]pairing{good: {Hash: good, Until: now.Add(time.Hour)}, old: {Hash: old, Until: now.Add(-time.Hour)}}, now.Add(-2*time.Hour)))
	got, err := loadPairings(dir, now)
	require.NoError(t, err)
	assert.Equal(t, []string{good}, slices.Collect(maps.Keys(got)), "an expired pairing is dropped")
	require.NoError(t, os.WriteFile(filepath.Join(dir, pairingsFile), []byte(`{"clients": [`), 0o600))
	got, err = loadPairings(dir, now)
	assert.ErrorContains(t, err, "not valid JSON")
	assert.Empty(t, got)
}
