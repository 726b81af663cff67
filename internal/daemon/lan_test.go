//go:build !js

package daemon

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
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

// runningLAN is a skiffd serving the web client on a "LAN" address too (127.0.0.1 on a port of
// its own: tests have no other network), and an HTTPS client that trusts its certificate the
// way a phone does once the user accepted it.
func runningLAN(t *testing.T) (cfg *Config, base string, lan *LAN, phone *http.Client) {
	t.Helper()
	cfg, err := Load(t.TempDir())
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cfg.Port = ln.Addr().(*net.TCPAddr).Port
	lan, err = ListenLAN(cfg, []string{"127.0.0.1"}, 0, "", "")
	require.NoError(t, err)
	hub := NewHub(cfg.PairToken)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = Serve(ctx, ln, cfg, hub, lan) }()
	t.Cleanup(func() { cancel(); <-done })

	leaf, err := x509.ParseCertificate(lan.Cert.Certificate[0])
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	jar, _ := cookiejar.New(nil)
	phone = &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return cfg, "http://127.0.0.1:" + strconv.Itoa(cfg.Port), lan, phone
}

// newCode asks the running skiffd for a pairing code the way `skiffd open [--lan]` does.
func newCode(t *testing.T, cfg *Config, base string, lan bool) (CodeReply, int) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/app/code", strings.NewReader(`{"lan":`+strconv.FormatBool(lan)+`}`))
	r, err := BearerClient(cfg.MCPToken).Do(req)
	require.NoError(t, err)
	defer r.Body.Close()
	var out CodeReply
	if r.StatusCode == http.StatusOK {
		require.NoError(t, json.NewDecoder(r.Body).Decode(&out))
	}
	return out, r.StatusCode
}

// LAN mode serves the web client and nothing else, over HTTPS only, to a Host and an Origin
// that are its own; it pairs only with a LAN code, once, and gives a Secure cookie.
func TestWebClientOnTheLAN(t *testing.T) {
	cfg, base, lan, phone := runningLAN(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	lanBase := "https://127.0.0.1:" + strconv.Itoa(lan.Port)
	self := lanBase

	get := func(path string, hdr ...string) int {
		req, _ := http.NewRequest("GET", lanBase+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			if hdr[i] == "Host" {
				req.Host = hdr[i+1]
			} else {
				req.Header.Set(hdr[i], hdr[i+1])
			}
		}
		r, err := phone.Do(req)
		require.NoError(t, err)
		r.Body.Close()
		return r.StatusCode
	}
	assert.Equal(t, http.StatusOK, get("/app/"))
	assert.Equal(t, http.StatusFound, get("/"), "the bare address leads to the app")
	for _, p := range []string{"/mcp", "/status", link.Path, "/app/code"} {
		assert.Equal(t, http.StatusNotFound, get(p, "Authorization", "Bearer "+cfg.MCPToken), "the LAN has no %s, even with the token", p)
	}
	assert.Equal(t, http.StatusMisdirectedRequest, get("/app/", "Host", "evil.example:"+strconv.Itoa(lan.Port)), "a DNS-rebinding Host")

	// Plain HTTP on the LAN port gets no page.
	r, err := http.Get("http://127.0.0.1:" + strconv.Itoa(lan.Port) + "/app/")
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, http.StatusBadRequest, r.StatusCode)

	// The code for the phone: the LAN's link, the certificate's fingerprint.
	lanCode, st := newCode(t, cfg, base, true)
	require.Equal(t, http.StatusOK, st)
	assert.Equal(t, lanBase+"/app/#code="+lanCode.Code, lanCode.URL)
	assert.Equal(t, lan.Fingerprint(), lanCode.Fingerprint)
	assert.True(t, lanCode.SelfSigned)
	assert.Len(t, strings.Split(lanCode.Fingerprint, ":"), 32)

	pair := func(origin, code string) int {
		req, _ := http.NewRequest("POST", lanBase+"/app/pair", strings.NewReader(`{"code":"`+code+`"}`))
		req.Header.Set("Origin", origin)
		r, err := phone.Do(req)
		require.NoError(t, err)
		r.Body.Close()
		return r.StatusCode
	}
	local, _ := newCode(t, cfg, base, false)
	assert.Equal(t, http.StatusForbidden, pair(self, local.Code), "a code for this computer does not pair on the LAN")
	assert.Equal(t, http.StatusForbidden, pair("http://127.0.0.1:"+strconv.Itoa(lan.Port), lanCode.Code), "an http:// origin on the LAN port")
	assert.Equal(t, http.StatusForbidden, pair(base, lanCode.Code), "the loopback page's origin")
	assert.Equal(t, http.StatusForbidden, pair("https://evil.example", lanCode.Code))
	assert.Equal(t, http.StatusNoContent, pair(self, lanCode.Code))
	assert.Equal(t, http.StatusForbidden, pair(self, lanCode.Code), "a code works once")
	u, _ := url.Parse(lanBase + "/app/")
	cookies := phone.Jar.Cookies(u)
	require.Len(t, cookies, 1)

	// A LAN pairing counts on the LAN only: its cookie, taken to this computer's page, is not.
	req, _ := http.NewRequest("GET", base+"/app/paired", nil)
	req.AddCookie(cookies[0])
	r, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, r.StatusCode, "a LAN pairing on loopback")

	// The pairing's cookie is Secure: read it from the response itself (a jar hides the flags).
	other, _ := newCode(t, cfg, base, true)
	req, _ = http.NewRequest("POST", lanBase+"/app/pair", strings.NewReader(`{"code":"`+other.Code+`"}`))
	req.Header.Set("Origin", self)
	r, err = phone.Do(req)
	require.NoError(t, err)
	r.Body.Close()
	require.Len(t, r.Cookies(), 1)
	c := r.Cookies()[0]
	assert.True(t, c.Secure && c.HttpOnly && c.SameSite == http.SameSiteStrictMode, "%+v", c)

	// A LAN code does not pair on this computer's page either.
	third, _ := newCode(t, cfg, base, true)
	req, _ = http.NewRequest("POST", base+"/app/pair", strings.NewReader(`{"code":"`+third.Code+`"}`))
	req.Header.Set("Origin", base)
	r, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, http.StatusForbidden, r.StatusCode, "a LAN code on loopback")

	dial := func(origin string, withCookie bool) (*websocket.Conn, int) {
		h := http.Header{}
		h.Set("Origin", origin)
		if withCookie {
			h.Set("Cookie", cookies[0].Name+"="+cookies[0].Value)
		}
		ws, resp, err := websocket.Dial(ctx, "wss://127.0.0.1:"+strconv.Itoa(lan.Port)+"/app/ws", &websocket.DialOptions{HTTPHeader: h, HTTPClient: &http.Client{Transport: phone.Transport}})
		if err != nil {
			return nil, resp.StatusCode
		}
		return ws, http.StatusSwitchingProtocols
	}
	_, st = dial("https://evil.example", true)
	assert.Equal(t, http.StatusForbidden, st)
	_, st = dial(self, false)
	assert.Equal(t, http.StatusUnauthorized, st)
	ws, st := dial(self, true)
	require.Equal(t, http.StatusSwitchingProtocols, st)
	p := link.NewPeer(wslink.Conn(ws), nil)
	go func() { _ = p.Run(ctx, 0) }()
	agents, err := link.AgentList.Call(ctx, p, struct{}{})
	require.NoError(t, err)
	assert.NotEmpty(t, agents)
}

// Without --lan, skiffd makes no LAN code; an expired LAN code does not pair.
func TestLANCodes(t *testing.T) {
	cfg, _, base := running(t)
	_, st := newCode(t, cfg, base, true)
	assert.Equal(t, http.StatusConflict, st)

	w := newWeb(cfg, NewAgents(cfg, NewHub(cfg.PairToken)), nil)
	code := w.NewCode(true)
	assert.WithinDuration(t, time.Now().Add(LANCodeTTL), w.codes[code].until, time.Second)
	w.codes[code] = pairCode{until: time.Now().Add(-time.Second), lan: true}
	assert.False(t, w.take(code, true), "an expired code")
	code = w.NewCode(true)
	assert.True(t, w.take(code, true))
}

// skiffd's own certificate is kept while it names every address, and made again when an
// address is new; its key is its owner's only.
func TestLANCertIsKeptAndRenewed(t *testing.T) {
	dir := t.TempDir()
	a, err := LANCert(dir, []string{"192.168.1.23"})
	require.NoError(t, err)
	b, err := LANCert(dir, []string{"192.168.1.23"})
	require.NoError(t, err)
	assert.Equal(t, a.Certificate[0], b.Certificate[0], "kept")
	c, err := LANCert(dir, []string{"192.168.1.23", "10.0.0.5"})
	require.NoError(t, err)
	assert.NotEqual(t, a.Certificate[0], c.Certificate[0], "a new address, a new certificate")
	leaf, err := x509.ParseCertificate(c.Certificate[0])
	require.NoError(t, err)
	require.NoError(t, leaf.VerifyHostname("10.0.0.5"))
	require.NoError(t, leaf.VerifyHostname("192.168.1.23"))
	mode, err := statMode(dir + "/" + lanKeyFile)
	require.NoError(t, err)
	assert.Equal(t, "-rw-------", mode)

	_, err = ListenLAN(&Config{dir: dir}, []string{"0.0.0.0"}, 0, "", "")
	assert.ErrorContains(t, err, "every network")
	_, err = ListenLAN(&Config{dir: dir}, nil, 0, "", "")
	assert.ErrorContains(t, err, "--lan-addr")
	for _, a := range LANAddrs() {
		ip := net.ParseIP(a)
		assert.True(t, ip.IsPrivate() && !ip.IsLoopback(), a)
	}
}
