package daemon

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/link/wslink"
	"github.com/skiff-ai/skiff/ui"
)

// Web is skiffd's web client: /app/ serves a small PWA (the chats skiffd hosts with ACP
// agents, and the shared folder) to browser tabs on this computer, and with LAN mode to the
// devices of the local network over HTTPS (lan.go). Nothing on the machine or the web can use
// it without pairing: `skiffd open` asks the running skiffd (with the MCP bearer token) for a
// one-time code, put in the URL's fragment (never sent to a server or in a Referer); the page
// posts it once and gets an HttpOnly SameSite=Strict cookie (Secure on the LAN). A code works
// only where it was made for: a loopback code on loopback, a LAN code (the QR code's) on the
// LAN. Every request that does something checks the Host, the exact Origin (a WebSocket has no
// same-origin policy) and the cookie. Browser-tool asks are answered only in the extension; the
// web client answers the agents' own questions for the chats it opened.
type Web struct {
	cfg    *Config
	agents *Agents
	lan    *LAN // nil: loopback only

	mu       sync.Mutex
	codes    map[string]pairCode // one-time codes, until they expire
	pairings map[string]pairing  // paired browsers, by their cookie's hash (pairings.go)
	peers    map[*link.Peer]bool
}

type pairCode struct {
	until time.Time
	lan   bool
}

// CodeTTL is how long a pairing code waits to be used on this computer (LANCodeTTL on the
// LAN); CookieTTL how long a pairing lasts (kept on disk: a restarted skiffd knows it).
const (
	CodeTTL   = 5 * time.Minute
	CookieTTL = 30 * 24 * time.Hour
)

const cookieName = "skiff_app"

func newWeb(cfg *Config, agents *Agents, lan *LAN) *Web {
	w := &Web{cfg: cfg, agents: agents, lan: lan, codes: map[string]pairCode{}, peers: map[*link.Peer]bool{}}
	var err error
	if w.pairings, err = loadPairings(cfg.Dir(), time.Now()); err != nil {
		log.Printf("the web client's pairings could not be read (%v): browsers pair again", err)
	}
	agents.web = w
	return w
}

// site is one place the web client is served: loopback over HTTP, or the LAN over HTTPS.
type site struct {
	lan   bool
	port  int
	hosts []string // the LAN's addresses (loopback: every loopback name)
}

// host reports whether a request's Host names this site (a DNS-rebinding page has its own).
func (s site) host(h string) bool {
	if !s.lan {
		return localHost(h, s.port)
	}
	name, p, err := net.SplitHostPort(h)
	return err == nil && p == strconv.Itoa(s.port) && slices.Contains(s.hosts, name)
}

// origin reports whether o is exactly the origin of a page this site serves.
func (s site) origin(o string) bool {
	p := strconv.Itoa(s.port)
	if !s.lan {
		return o == "http://127.0.0.1:"+p || o == "http://localhost:"+p || o == "http://[::1]:"+p
	}
	for _, h := range s.hosts {
		if o == "https://"+net.JoinHostPort(h, p) {
			return true
		}
	}
	return false
}

// NewCode makes a one-time pairing code, for this computer or (lan) for the LAN.
func (w *Web) NewCode(lan bool) string {
	c := NewToken("")
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	for k, pc := range w.codes {
		if now.After(pc.until) {
			delete(w.codes, k)
		}
	}
	ttl := CodeTTL
	if lan {
		ttl = LANCodeTTL
	}
	w.codes[c] = pairCode{until: now.Add(ttl), lan: lan}
	return c
}

// take spends a code: true once, for a code made for this site that has not expired.
func (w *Web) take(code string, lan bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, pc := range w.codes {
		if subtle.ConstantTimeCompare([]byte(k), []byte(code)) == 1 {
			delete(w.codes, k)
			return pc.lan == lan && time.Now().Before(pc.until)
		}
	}
	return false
}

// paired is the hash of the pairing r presents on site s, or "" when it presents none that
// lasts (a LAN pairing counts on the LAN only, a loopback one on loopback only).
func (w *Web) paired(r *http.Request, s site) string {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return ""
	}
	h := cookieHash(c.Value)
	w.mu.Lock()
	defer w.mu.Unlock()
	if p, ok := w.pairings[h]; ok && p.LAN == s.lan && time.Now().Before(p.Until) {
		return h
	}
	return ""
}

// pair keeps a new pairing, on disk too (one that cannot be written lasts while skiffd runs).
func (w *Web) pair(cookie string, lan bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	w.pairings[cookieHash(cookie)] = pairing{Hash: cookieHash(cookie), Until: now.Add(CookieTTL), LAN: lan}
	if err := savePairings(w.cfg.Dir(), w.pairings, now); err != nil {
		log.Printf("the web client's pairing could not be saved (%v): it lasts until skiffd stops", err)
	}
}

// Unpair forgets every paired browser and closes their links; it says how many it forgot.
func (w *Web) Unpair() (int, error) {
	w.mu.Lock()
	n := len(w.pairings)
	w.pairings = map[string]pairing{}
	err := savePairings(w.cfg.Dir(), w.pairings, time.Now())
	w.mu.Unlock()
	for _, p := range w.clients() {
		p.Close("this browser is no longer paired with skiffd")
	}
	return n, err
}

// CodeReply is what POST /app/code answers: the code, the link that holds it, and on the LAN
// the certificate's fingerprint for the user to compare.
type CodeReply struct {
	Code        string `json:"code"`
	URL         string `json:"url"`
	Fingerprint string `json:"fingerprint,omitempty"`
	SelfSigned  bool   `json:"selfSigned,omitempty"`
}

// Handler serves /app/ on loopback; mcpGuard guards the one route that makes codes.
func (w *Web) Handler(mcpGuard func(http.Handler) http.Handler) http.Handler {
	mux := w.routes(site{port: w.cfg.Port})
	mux.Handle("POST /app/code", mcpGuard(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var p struct {
			LAN bool `json:"lan"`
		}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
		_ = json.Unmarshal(b, &p)
		out := CodeReply{}
		switch {
		case p.LAN && w.lan == nil:
			http.Error(rw, "this skiffd does not serve the local network: start it with `skiffd serve --lan`", http.StatusConflict)
			return
		case p.LAN:
			out.Code = w.NewCode(true)
			out.URL = w.lan.URL() + "#code=" + out.Code
			out.Fingerprint, out.SelfSigned = w.lan.Fingerprint(), w.lan.SelfSigned()
		default:
			out.Code = w.NewCode(false)
			out.URL = "http://127.0.0.1:" + strconv.Itoa(w.cfg.Port) + "/app/#code=" + out.Code
		}
		rw.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(rw).Encode(out)
	})))
	// `skiffd unpair`: every paired browser and phone must pair again.
	mux.Handle("POST /app/unpair", mcpGuard(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		n, err := w.Unpair()
		if err != nil {
			http.Error(rw, "the pairings were forgotten, but their file could not be removed: "+err.Error(), http.StatusInternalServerError)
			return
		}
		rw.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(rw).Encode(UnpairReply{Forgot: n})
	})))
	return w.front(site{port: w.cfg.Port}, mux)
}

// UnpairReply is what POST /app/unpair answers: how many pairings were forgotten.
type UnpairReply struct {
	Forgot int `json:"forgot"`
}

// LANHandler serves /app/ on the LAN: the web client only (no codes are made there, no MCP,
// no link).
func (w *Web) LANHandler() http.Handler {
	s := site{lan: true, port: w.lan.Port, hosts: w.lan.Hosts}
	mux := w.routes(s)
	mux.Handle("GET /{$}", http.RedirectHandler("/app/", http.StatusFound))
	return w.front(s, mux)
}

// front checks the Host before anything, and sets the headers every answer carries.
func (w *Web) front(s site, mux http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !s.host(r.Host) {
			msg := "skiffd answers only on 127.0.0.1, localhost or [::1]"
			if s.lan {
				msg = "skiffd answers on the local network only by its address: " + strings.Join(s.hosts, ", ")
			}
			http.Error(rw, msg, http.StatusMisdirectedRequest)
			return
		}
		rw.Header().Set("X-Frame-Options", "DENY")
		rw.Header().Set("Referrer-Policy", "no-referrer")
		mux.ServeHTTP(rw, r)
	})
}

// routes are the web client's routes on one site.
func (w *Web) routes(s site) *http.ServeMux {
	mux := http.NewServeMux()
	static := http.FileServerFS(appFS{})
	mux.Handle("GET /app/", http.StripPrefix("/app", static))
	mux.HandleFunc("POST /app/pair", func(rw http.ResponseWriter, r *http.Request) {
		if !s.origin(r.Header.Get("Origin")) {
			http.Error(rw, "pairing is only from skiffd's own page", http.StatusForbidden)
			return
		}
		var p struct {
			Code string `json:"code"`
		}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
		if json.Unmarshal(b, &p) != nil || !w.take(p.Code, s.lan) {
			msg := "This pairing code is not valid (each works once, for 5 minutes): run `skiffd open` for a new one."
			if s.lan {
				msg = "This pairing code is not valid (each works once, for 2 minutes): run `skiffd open --lan` for a new QR code."
			}
			http.Error(rw, msg, http.StatusForbidden)
			return
		}
		tok := NewToken("")
		w.pair(tok, s.lan)
		http.SetCookie(rw, &http.Cookie{Name: cookieName, Value: tok, Path: "/app", HttpOnly: true, Secure: s.lan,
			SameSite: http.SameSiteStrictMode, MaxAge: int(CookieTTL.Seconds())})
		rw.WriteHeader(http.StatusNoContent)
	})
	// Whether this browser is paired (the web client asks when its link drops, to know whether
	// to connect again or to say pair again). It tells nothing to any other page: the answer
	// has no body and no CORS headers.
	mux.HandleFunc("GET /app/paired", func(rw http.ResponseWriter, r *http.Request) {
		if w.paired(r, s) == "" {
			rw.WriteHeader(http.StatusUnauthorized)
			return
		}
		rw.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /app/ws", func(rw http.ResponseWriter, r *http.Request) {
		if !s.origin(r.Header.Get("Origin")) {
			http.Error(rw, "only skiffd's own page may connect", http.StatusForbidden)
			return
		}
		if w.paired(r, s) == "" {
			http.Error(rw, "not paired: open the link `skiffd open` prints", http.StatusUnauthorized)
			return
		}
		ws, err := websocket.Accept(rw, r, nil) // the origin was checked above, exactly (and the library checks it against the Host too)
		if err != nil {
			return
		}
		ws.SetReadLimit(32 << 20) // a message's attachments: four pictures of 5 MB, in base64
		w.serve(r.Context(), wslink.Conn(ws))
	})
	return mux
}

// ChatInfo is a chat skiffd hosts, as the web client lists it.
type ChatInfo struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
	Title string `json:"title,omitempty"`
	// Images: the chat's agent takes pictures (as far as skiffd knows: it is running).
	Images bool `json:"images,omitempty"`
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
	// The user's saved prompts, from the browser (none while it is not linked: the client
	// offers its own).
	link.SavedPrompts.Handle(hs, func(ctx context.Context, _ struct{}) (link.PromptList, error) {
		l := a.hub.link(ctx, 0)
		if l == nil {
			return link.PromptList{Prompts: []link.Prompt{}}, nil
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return link.SavedPrompts.Call(pctx, l.peer, struct{}{})
	})
	link.Method[struct{}, []ChatInfo]{Name: "chats.list"}.Handle(hs, func(context.Context, struct{}) ([]ChatInfo, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		out := []ChatInfo{}
		for id, name := range a.chats {
			ag := a.running[name]
			out = append(out, ChatInfo{ID: id, Agent: name, Title: a.titles[id], Images: ag != nil && ag.Info.AgentCapabilities.PromptCapabilities.Image})
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

// drop closes every web client's link (skiffd is stopping): the clients see it at once, and no
// link outlives the server that served it.
func (w *Web) drop() {
	for _, p := range w.clients() {
		p.Close("skiffd is stopping")
	}
}

// clients are the web clients' links now.
func (w *Web) clients() []*link.Peer {
	w.mu.Lock()
	defer w.mu.Unlock()
	peers := make([]*link.Peer, 0, len(w.peers))
	for p := range w.peers {
		peers = append(peers, p)
	}
	return peers
}

// broadcast sends an event to every web client.
func (w *Web) broadcast(e link.AgentEvent) {
	for _, p := range w.clients() {
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
