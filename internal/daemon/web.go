package daemon

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/link/wslink"
	"github.com/skiff-ai/skiff/ui"
)

// Web is skiffd's web client: /app/ serves a small PWA (the chats skiffd hosts with ACP
// agents, and the shared folder) to browser tabs on this computer. Nothing on the machine or
// the web can use it without pairing: `skiffd open` asks the running skiffd (with the MCP
// bearer token) for a one-time code, put in the URL's fragment (never sent to a server or in a
// Referer); the page posts it once and gets an HttpOnly SameSite=Strict cookie. Every request
// that does something checks the Host, the exact Origin (a WebSocket has no same-origin
// policy) and the cookie. Browser-tool asks are answered only in the extension; the web client
// answers the agents' own questions for the chats it opened.
type Web struct {
	cfg    *Config
	agents *Agents

	mu      sync.Mutex
	codes   map[string]time.Time // one-time codes, until they expire
	cookies map[string]time.Time // paired clients, until they expire
	peers   map[*link.Peer]bool
}

// CodeTTL is how long a pairing code waits to be used; CookieTTL how long a pairing lasts.
const (
	CodeTTL   = 5 * time.Minute
	CookieTTL = 30 * 24 * time.Hour
)

const cookieName = "skiff_app"

func newWeb(cfg *Config, agents *Agents) *Web {
	w := &Web{cfg: cfg, agents: agents, codes: map[string]time.Time{}, cookies: map[string]time.Time{}, peers: map[*link.Peer]bool{}}
	agents.web = w
	return w
}

// origins are the exact origins the web client is served from.
func (w *Web) origin(o string) bool {
	p := strconv.Itoa(w.cfg.Port)
	return o == "http://127.0.0.1:"+p || o == "http://localhost:"+p || o == "http://[::1]:"+p
}

// NewCode makes a one-time pairing code.
func (w *Web) NewCode() string {
	c := NewToken("")
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	for k, t := range w.codes {
		if now.After(t) {
			delete(w.codes, k)
		}
	}
	w.codes[c] = now.Add(CodeTTL)
	return c
}

// take spends a code: true once, for a code that was made and has not expired.
func (w *Web) take(code string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, t := range w.codes {
		if subtle.ConstantTimeCompare([]byte(k), []byte(code)) == 1 {
			delete(w.codes, k)
			return time.Now().Before(t)
		}
	}
	return false
}

func (w *Web) paired(r *http.Request) bool {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, t := range w.cookies {
		if subtle.ConstantTimeCompare([]byte(k), []byte(c.Value)) == 1 {
			return time.Now().Before(t)
		}
	}
	return false
}

// Handler serves /app/.
func (w *Web) Handler(mcpGuard func(http.Handler) http.Handler) http.Handler {
	mux := http.NewServeMux()
	static := http.FileServerFS(appFS{})
	mux.Handle("GET /app/", http.StripPrefix("/app", static))
	mux.Handle("POST /app/code", mcpGuard(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		code := w.NewCode()
		rw.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(rw).Encode(map[string]string{"code": code,
			"url": "http://127.0.0.1:" + strconv.Itoa(w.cfg.Port) + "/app/#code=" + code})
	})))
	mux.HandleFunc("POST /app/pair", func(rw http.ResponseWriter, r *http.Request) {
		if !w.origin(r.Header.Get("Origin")) {
			http.Error(rw, "pairing is only from skiffd's own page", http.StatusForbidden)
			return
		}
		var p struct {
			Code string `json:"code"`
		}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
		if json.Unmarshal(b, &p) != nil || !w.take(p.Code) {
			http.Error(rw, "This pairing code is not valid (each works once, for 5 minutes): run `skiffd open` for a new one.", http.StatusForbidden)
			return
		}
		tok := NewToken("")
		w.mu.Lock()
		w.cookies[tok] = time.Now().Add(CookieTTL)
		w.mu.Unlock()
		http.SetCookie(rw, &http.Cookie{Name: cookieName, Value: tok, Path: "/app", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: int(CookieTTL.Seconds())})
		rw.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /app/ws", func(rw http.ResponseWriter, r *http.Request) {
		if !w.origin(r.Header.Get("Origin")) {
			http.Error(rw, "only skiffd's own page may connect", http.StatusForbidden)
			return
		}
		if !w.paired(r) {
			http.Error(rw, "not paired: open the link `skiffd open` prints", http.StatusUnauthorized)
			return
		}
		ws, err := websocket.Accept(rw, r, nil) // the origin was checked above, exactly
		if err != nil {
			return
		}
		w.serve(r.Context(), wslink.Conn(ws))
	})
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !localHost(r.Host, w.cfg.Port) {
			http.Error(rw, "skiffd answers only on 127.0.0.1, localhost or [::1]", http.StatusMisdirectedRequest)
			return
		}
		rw.Header().Set("X-Frame-Options", "DENY")
		rw.Header().Set("Referrer-Policy", "no-referrer")
		mux.ServeHTTP(rw, r)
	})
}

// ChatInfo is a chat skiffd hosts, as the web client lists it.
type ChatInfo struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
	Title string `json:"title,omitempty"`
}

// serve runs one web client's link: the agents' methods (not the browser's tools).
func (w *Web) serve(ctx context.Context, c link.Conn) {
	a := w.agents
	hs := link.Handlers{}
	var peer *link.Peer
	a.Handle(hs, func(session string) {
		a.mu.Lock()
		a.askers[session] = peer
		a.mu.Unlock()
	})
	link.Method[struct{}, []ChatInfo]{Name: "chats.list"}.Handle(hs, func(context.Context, struct{}) ([]ChatInfo, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		out := []ChatInfo{}
		for id, name := range a.chats {
			out = append(out, ChatInfo{ID: id, Agent: name, Title: a.titles[id]})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
		return out, nil
	})
	peer = link.NewPeer(c, hs)
	w.mu.Lock()
	w.peers[peer] = true
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.peers, peer)
		w.mu.Unlock()
		a.mu.Lock()
		for chat, p := range a.askers {
			if p == peer {
				delete(a.askers, chat)
			}
		}
		a.mu.Unlock()
	}()
	_ = peer.Run(ctx, 0)
}

// broadcast sends an event to every web client.
func (w *Web) broadcast(e link.AgentEvent) {
	w.mu.Lock()
	peers := make([]*link.Peer, 0, len(w.peers))
	for p := range w.peers {
		peers = append(peers, p)
	}
	w.mu.Unlock()
	for _, p := range peers {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = link.AgentEvents.Notify(ctx, p, e)
		cancel()
	}
}

// appFS is the web client's files: ui/web/ at the top, and the panel's shared modules and
// pinned libraries beside it.
type appFS struct{}

func (appFS) Open(name string) (fs.File, error) {
	if name == "." {
		return ui.Web.Open("web")
	}
	if f, err := ui.Web.Open(path.Join("web", name)); err == nil {
		return f, nil
	}
	return ui.Web.Open(name)
}
